"""Terms: the extracted glosses and the curated glossary (:mod:`study.terms.curated`) merged, with
reading, category, an example sentence from the classical text and the term's frequency in each
rite."""

from __future__ import annotations

import re
import weakref
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path

from ..model import Document, Example, Gloss, Term
from ..text.normalize import normalize, search_key
from .bookpairs import one_look
from .curated import Curated, CuratedTerm, occurrences
from .glosses import extract_glosses
from .lexicon import category_of
from .named import commentary_lines
from .reading import gloss_reading, reading_by_gloss, reading_in
from .senses import gloss_fits
from .snippets import snippet
from .windows import apart, explained_words, in_its_passage, kept_to_its_use, particle, scoped

_SENTENCE = re.compile(r"[^。；！？\u3000]+[。；！？]?")  # (the notes of a heading: runs apart by a full-width space)
_RULES = (
    (("俎", "豆", "笾", "爵", "觯", "觚", "壶", "尊", "篚", "罍", "铏"), "vessel"),
    (("阶", "堂", "序", "楹", "门", "庭", "房", "室", "位", "塾"), "place"),
    (("者", "人", "宾", "賔", "正", "兄弟", "妇", "子", "臣"), "role"),
)


def _category(norm: str, glosses: Sequence[Gloss]) -> str:
    known = category_of(norm)
    if known:
        return known
    for suffixes, category in _RULES:
        if norm.endswith(suffixes) and len(norm) > 1:
            return category
    if any(ch in norm for ch in "尺寸寻仞丈步"):
        return "measure"
    if any(g.gloss.endswith("之器") for g in glosses):
        return "implement"
    return "other"


@dataclass(frozen=True)
class _Sentence:
    text: str
    key: str
    file: str
    line: int
    rite: str
    stage_id: str


def _sentences(documents: Iterable[Document]) -> list[_Sentence]:
    out: list[_Sentence] = []
    for doc in documents:
        for rite in doc.rites:
            for stage in rite.stages:
                runs = [(piece.text, piece.line) for p in stage.passages for piece in p.pieces if piece.kind == "text"]
                runs.append((stage.note_text, stage.line or 0))  # the 記 of the stage's heading
                for run, line in runs:
                    for m in _SENTENCE.finditer(run):
                        text = m.group(0).strip(" \u3000")
                        if len(text) >= 2:
                            out.append(_Sentence(text, normalize(text), doc.file, line, rite.name, stage.id))
    return out


def _rite_texts(documents: Iterable[Document]) -> dict[str, str]:
    texts: dict[str, list[str]] = defaultdict(list)
    for doc in documents:
        for rite in doc.rites:
            for stage in rite.stages:
                texts[rite.name].extend(p.text for p in stage.passages)
                if stage.name:
                    texts[rite.name].append(stage.name + stage.note_text)
    return {rite: normalize("\u3000".join(parts)) for rite, parts in texts.items()}


def _example(norm: str, glosses: Sequence[Gloss], sentences: Sequence[_Sentence]) -> Example | None:
    """The classical sentence using the term that stands nearest its (first) gloss, among those
    where one of its glosses explains the term if any does (若 = 順 is shown with 「先妣之嗣若則有常」,
    not with the nearer 「若異邦…」, 'if'); cut to about EXAMPLE_CHARS around it (a stage's notes run
    on unpunctuated)."""
    anchor = next((g for g in glosses if g.line is not None), None)

    def distance(s: _Sentence) -> tuple[int, int]:
        if anchor is None:
            return (0, s.line)
        return (0 if s.file == anchor.file else 1, abs(s.line - (anchor.line or 0)))

    using = sorted((s for s in sentences if norm in s.key), key=distance)
    if not using:
        return None
    for s in using:  # nearest first: the first where a gloss fits
        at = next(
            (
                m.start()
                for m in re.finditer(re.escape(norm), s.key)
                if any(gloss_fits(g, norm, s.text, m.start(), s.rite, s.stage_id) for g in glosses)
            ),
            None,
        )
        if at is not None:
            break
    else:
        s, at = using[0], using[0].key.find(norm)
    text, where = snippet(s.text, at, len(norm))
    return Example(text, s.file, s.line, s.rite, s.stage_id, where)


def _duplicate(term: str, gloss: str, source: str, extracted: Sequence[Gloss]) -> bool:
    """A curated gloss that repeats an extracted one (same words, or a quote of the same line)."""
    key = search_key(gloss.removesuffix("也"))
    bare = key.removeprefix(search_key(term)).removeprefix("者")
    m = re.fullmatch(r"(.+\.txt):(\d+)", source)
    for g in extracted:
        other = search_key(g.gloss.removesuffix("也"))
        if other in (key, bare) or (m and g.file == m[1] and g.line == int(m[2]) and other in key):
            return True
    return False


_EXTRACTED: dict[int, tuple[weakref.ref[Document], tuple[Gloss, ...]]] = {}


def _extracted(doc: Document) -> tuple[Gloss, ...]:
    """The glosses of ``doc``, extracted once per document object (a build of every rite and of
    the whole book asks for each 卷 twice); documents are immutable."""
    hit = _EXTRACTED.get(id(doc))
    if hit is not None and hit[0]() is doc:
        return hit[1]
    if len(_EXTRACTED) > 256:
        _EXTRACTED.clear()
    found = tuple(extract_glosses(doc))
    _EXTRACTED[id(doc)] = (weakref.ref(doc), found)
    return found


def build_terms(documents: Sequence[Document], curated: Curated | None = None, *, withheld: bool = False) -> list[Term]:
    """Every term of ``documents``: extracted glosses grouped by normalised headword, merged with
    the curated glossary (which may add terms, add glosses, set reading and category, or exclude).

    Only glosses whose extraction rule passes the precision gate (study/terms/gate.py,
    ``Gloss.taught``) are kept — these terms feed the decks and the quiz; ``withheld=True`` keeps
    the others too (for a teacher's review list), marked ``taught=False``."""
    curated = curated or Curated()
    by_term: dict[str, list[Gloss]] = defaultdict(list)
    written: dict[str, Counter[str]] = defaultdict(Counter)
    order: dict[str, tuple[int, int]] = {}
    explained = explained_words(documents)
    said = commentary_lines(documents)
    with one_look():  # the book's files looked at once for the evidence of every text (bookpairs.py)
        extracted = [_extracted(doc) for doc in documents]
    for d_index, found in enumerate(extracted):
        for g in found:
            if not (g.taught or withheld) or curated.drops(g):
                continue
            norm = normalize(g.context)
            by_term[norm].append(in_its_passage(g, norm, explained) if particle(norm) else g)
            written[norm][g.context] += 1
            order.setdefault(norm, (d_index, g.line or 0))
    curated_by: dict[str, CuratedTerm] = {}
    for c in curated.terms:
        norm = normalize(c.term)
        curated_by[norm] = c
        written[norm][c.term] += 0 if written[norm] else 1
        order.setdefault(norm, (len(documents), c.line))
        for i, (gloss, source) in enumerate(c.glosses):
            rites, pattern = c.where(i)
            if not _duplicate(c.term, gloss, source, by_term[norm]):
                by_term[norm].append(
                    Gloss(
                        gloss=gloss,
                        speaker=source,
                        file=Path(curated.path).name,
                        formula="curated",
                        scope=rites,
                        pattern=pattern,
                    )
                )
    sentences = _sentences(documents)
    fixes = _note_fixes(by_term)
    rite_texts = _rite_texts(documents)
    terms: list[Term] = []
    for norm, glosses in by_term.items():
        if norm in curated.exclude or not glosses:
            continue
        c = curated_by.get(norm)
        if c and c.scoped:  # the teacher's where scopes the term's every gloss
            glosses = [g if g.formula == "curated" else scoped(g, norm, c, explained, said) for g in glosses]
        elif len(norm) <= 2:
            glosses = [kept_to_its_use(g, norm, explained, said) for g in apart(glosses, norm, explained)]
        headword = written[norm].most_common(1)[0][0] if written[norm] else norm
        counts = (
            (
                rite,
                occurrences(norm, text, [c.where(i) for i in range(len(c.glosses))], rite) if c else text.count(norm),
            )
            for rite, text in rite_texts.items()
        )
        frequency = tuple((rite, n) for rite, n in counts if n)
        if c and not frequency and all(g.formula == "curated" for g in glosses):
            continue  # a curated term that does not occur (where it applies) in these texts
        example = _example(norm, glosses, sentences)
        if not any(g.formula != "curated" for g in glosses) and example is not None and example.at is not None:
            # a term only the glossary gives is shown as the text writes it (豐, not the entry's 丰)
            here = example.text[example.at : example.at + len(norm)]
            headword = here if normalize(here) == norm else headword
        terms.append(
            Term(
                term=headword,
                normalized=norm,
                pinyin=(c.pinyin if c and c.pinyin else _reading(headword, glosses, example, fixes)),
                category=c.category if c else _category(norm, glosses),
                glosses=tuple(glosses),
                example=example,
                frequency=frequency,
                curated=c is not None,
            )
        )
    terms.sort(key=lambda t: order.get(t.normalized, (99, 0)))
    return terms


GLOSS_REACH = 12  # lines from the example's classic line to the note glossing it


def _note_fixes(by_term: dict[str, list[Gloss]]) -> dict[tuple[str, int], dict[str, str]]:
    """Per note (file, line), the readings its glosses of single characters fix (016:181 錫賜也 →
    錫 cì): a longer word the same note glosses (錫衣 = 命服) reads that character so too."""
    out: dict[tuple[str, int], dict[str, str]] = defaultdict(dict)
    for norm, glosses in by_term.items():
        for g in glosses if len(norm) == 1 else ():
            fixed = gloss_reading(norm, g.gloss) if g.line is not None else None
            if fixed:
                out[(g.file, g.line or 0)][norm] = fixed[1]
    return out


def _reading(
    headword: str, glosses: Sequence[Gloss], example: Example | None, fixes: dict[tuple[str, int], dict[str, str]]
) -> str:
    """The headword read in its example; where the gloss the example stands nearest (the first with a
    line, as :func:`_example` chooses) is the note on that very line and fixes the reading of a
    character (放 glossed 置 is fàng; 錫衣 = 命服 in the note that says 錫賜也 is cì yī), read as the
    note fixes it: the reading shown beside a gloss agrees with it."""
    context, at = (example.text, example.at) if example else ("", None)
    read = reading_in(headword, context, at=at)
    anchor = next((g for g in glosses if g.line is not None), None)
    if anchor is None or example is None or anchor.file != example.file:
        return read
    if not 0 <= (anchor.line or 0) - example.line <= GLOSS_REACH:
        return read
    fixed = reading_by_gloss(headword, [anchor.gloss], context, at=at)
    note, norm, syllables = fixes.get((anchor.file, anchor.line or 0), {}), normalize(headword), read.split(" ")
    if fixed is None and len(norm) > 1 and len(syllables) == len(norm) and set(norm) & set(note):
        fixed = " ".join(note.get(c, s) for c, s in zip(norm, syllables, strict=True))
    return fixed or read


def filter_terms(terms: Iterable[Term], *, rite: str | None = None) -> list[Term]:
    """The terms used or glossed in ``rite`` (all terms without a rite), that rite's glosses first."""
    if rite is None:
        return list(terms)
    out = []
    for t in terms:
        if dict(t.frequency).get(rite) or any(g.rite == rite for g in t.glosses):
            ordered = sorted(t.glosses, key=lambda g: g.rite != rite)
            out.append(replace(t, glosses=tuple(ordered)))
    return out
