"""Terms: the extracted glosses and the curated glossary merged, with reading, category,
an example sentence from the classical text and the term's frequency in each rite."""

from __future__ import annotations

import re
import weakref
from collections import Counter, defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass, field, replace
from pathlib import Path

from ..errors import GlossaryError
from ..model import CATEGORIES, Document, Example, Gloss, Term
from ..text.normalize import normalize, search_key
from ..yamlsrc import load_yaml, read_source
from .glosses import extract_glosses
from .lexicon import category_of
from .reading import reading_in

CURATED_FILE = "glossary.yaml"
_SENTENCE = re.compile(r"[^。；！？]+[。；！？]?")
_RULES = (
    (("俎", "豆", "笾", "爵", "觯", "觚", "壶", "尊", "篚", "罍", "铏"), "vessel"),
    (("阶", "堂", "序", "楹", "门", "庭", "房", "室", "位", "塾"), "place"),
    (("者", "人", "宾", "賔", "正", "兄弟", "妇", "子", "臣"), "role"),
)


@dataclass(frozen=True)
class CuratedTerm:
    term: str
    category: str
    glosses: tuple[tuple[str, str], ...]  # (gloss, source)
    pinyin: str | None = None
    line: int = field(default=0, compare=False)
    rites: tuple[str, ...] = ()  # where: rites the glosses apply in (normalised); empty: all
    pattern: str | None = None  # where: a regular expression the text around an occurrence matches


@dataclass(frozen=True)
class Curated:
    """The curated glossary: terms the text uses without glossing them, and exclusions."""

    terms: tuple[CuratedTerm, ...] = ()
    exclude: frozenset[str] = frozenset()  # normalised headwords
    path: str = CURATED_FILE
    # Commentary glosses a teacher found wrong: (normalised headword, file, line, definiens),
    # the definiens None for every gloss of the headword at that line.
    dropped: frozenset[tuple[str, str, int, str | None]] = frozenset()

    def drops(self, g: Gloss) -> bool:
        """Whether a teacher dropped this commentary gloss."""
        if not self.dropped:
            return False
        at = (normalize(g.context), g.file or "", g.line or 0)
        return (*at, None) in self.dropped or (*at, g.gloss) in self.dropped


def parse_curated(text: str, path: str) -> Curated:
    """Read a curated glossary; every problem is reported at once as ``path:line: …``."""
    doc = load_yaml(text, path, GlossaryError)
    data = doc.data if doc.data is not None else {}
    problems: list[tuple[int | None, str]] = []
    if not isinstance(data, dict):
        raise GlossaryError("the glossary must be a mapping with 'terms'", path=path, line=1)
    for key in data:
        if key not in ("version", "terms", "exclude"):
            problems.append((doc.line(key), f"unknown key {key!r} (expected version, terms, exclude)"))
    raw_terms = data.get("terms") or []
    if not isinstance(raw_terms, list):
        problems.append((doc.line("terms"), "terms must be a list"))
        raw_terms = []
    terms: list[CuratedTerm] = []
    for i, entry in enumerate(raw_terms):
        at = ("terms", i)
        if not isinstance(entry, dict):
            problems.append((doc.line(*at), "each term must be a mapping with term, category, glosses"))
            continue
        for key in entry:
            if key not in ("term", "pinyin", "category", "glosses", "where"):
                problems.append((doc.line(*at, key), f"unknown key {key!r} in a term"))
        term = entry.get("term")
        if not isinstance(term, str) or not term.strip():
            problems.append((doc.line(*at, "term"), "term: must be a non-empty headword"))
            continue
        category = entry.get("category", "other")
        if category not in CATEGORIES:
            problems.append(
                (doc.line(*at, "category"), f"{term}: category {category!r} is not one of {', '.join(CATEGORIES)}")
            )
        reading = entry.get("pinyin")
        if reading is not None and not isinstance(reading, str):
            problems.append((doc.line(*at, "pinyin"), f"{term}: pinyin must be text"))
            reading = None
        glosses: list[tuple[str, str]] = []
        raw_glosses = entry.get("glosses") or []
        if not isinstance(raw_glosses, list) or not raw_glosses:
            problems.append(
                (doc.line(*at, "glosses"), f"{term}: glosses must be a non-empty list of {{gloss, source}}")
            )
            raw_glosses = []
        for j, g in enumerate(raw_glosses):
            gat = (*at, "glosses", j)
            if not isinstance(g, dict) or set(g) - {"gloss", "source"}:
                problems.append((doc.line(*gat), f"{term}: a gloss has exactly the keys gloss and source"))
                continue
            gloss, source = g.get("gloss"), g.get("source")
            if not isinstance(gloss, str) or not gloss.strip():
                problems.append((doc.line(*gat, "gloss"), f"{term}: empty gloss"))
            elif not isinstance(source, str) or not source.strip():
                problems.append(
                    (doc.line(*gat), f"{term}: gloss {gloss!r} names no source (a text line or a reference work)")
                )
            else:
                glosses.append((gloss.strip(), source.strip()))
        rites, pattern = _where(entry.get("where"), term, doc.line(*at, "where"), problems)
        terms.append(CuratedTerm(term.strip(), str(category), tuple(glosses), reading, doc.line(*at), rites, pattern))
    exclude = data.get("exclude") or []
    if not isinstance(exclude, list):
        problems.append((doc.line("exclude"), "exclude must be a list of headwords"))
        exclude = []
    dropped = [_dropped(x, doc.line("exclude", i), problems) for i, x in enumerate(exclude) if not isinstance(x, str)]
    headwords = frozenset(normalize(x) for x in exclude if isinstance(x, str))
    if problems:
        raise GlossaryError.many(problems, path=path)
    return Curated(tuple(terms), headwords, path, frozenset(d for d in dropped if d))


def _dropped(
    raw: object, line: int | None, problems: list[tuple[int | None, str]]
) -> tuple[str, str, int, str | None] | None:
    """``{term: 嘏, source: KR1d0044_015.txt:272, reason: …}``: the gloss of that headword read at
    that line is wrong (a teacher's one-line reason required); with ``gloss: 貳嫡``, only that one
    of the headword's glosses at that line."""
    ok = (
        isinstance(raw, dict)
        and all(isinstance(raw.get(k), str) and raw[k].strip() for k in ("term", "source", "reason"))
        and set(raw) <= {"term", "source", "reason", "gloss"}
        and (raw.get("gloss") is None or (isinstance(raw["gloss"], str) and raw["gloss"].strip() != ""))
    )
    m = re.fullmatch(r"(\S+\.txt):(\d+)", str(raw.get("source", "")).strip()) if ok and isinstance(raw, dict) else None
    if not (ok and m and isinstance(raw, dict)):
        problems.append((line, "exclude: an entry is a headword or {term, source: FILE:LINE, gloss?, reason}"))
        return None
    gloss = raw.get("gloss")
    return normalize(str(raw["term"]).strip()), m[1], int(m[2]), gloss.strip() if gloss else None


def _where(
    raw: object, term: str, line: int | None, problems: list[tuple[int | None, str]]
) -> tuple[tuple[str, ...], str | None]:
    """``where: {rites: [...], pattern: REGEX}``: the places a curated gloss fits."""
    if raw is None:
        return (), None
    if not isinstance(raw, dict) or set(raw) - {"rites", "pattern"}:
        problems.append((line, f"{term}: where must be a mapping with rites and/or pattern"))
        return (), None
    rites = raw.get("rites") or []
    if not isinstance(rites, list) or not all(isinstance(r, str) for r in rites):
        problems.append((line, f"{term}: where.rites must be a list of rite names"))
        rites = []
    pattern = raw.get("pattern")
    if pattern is not None:
        try:
            re.compile(normalize(str(pattern)))
        except re.error as e:
            problems.append((line, f"{term}: where.pattern is not a regular expression ({e})"))
            pattern = None
        else:
            if normalize(term) not in re.sub(r"[^\u4e00-\u9fff]", "", normalize(str(pattern))):
                problems.append((line, f"{term}: where.pattern must contain the term"))
    return tuple(normalize(r) for r in rites), normalize(str(pattern)) if pattern is not None else None


def occurrences(norm: str, text: str, rites: Sequence[str], pattern: str | None, rite: str) -> int:
    """How often the term ``norm`` occurs in ``text`` (the normalised text of ``rite``) at a place
    the curated scope fits."""
    if rites and normalize(rite) not in rites:
        return 0
    if pattern is None:
        return text.count(norm)
    spans = [m.span() for m in re.finditer(pattern, text)]
    n, at = 0, text.find(norm)
    while at >= 0:
        n += any(a <= at and at + len(norm) <= b for a, b in spans)
        at = text.find(norm, at + 1)
    return n


def load_curated(path: Path) -> Curated:
    return parse_curated(read_source(path, GlossaryError), str(path))


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
                for passage in stage.passages:
                    for piece in passage.pieces:
                        if piece.kind != "text":
                            continue
                        for m in _SENTENCE.finditer(piece.text):
                            text = m.group(0).strip(" \u3000")
                            if len(text) >= 2:
                                out.append(_Sentence(text, normalize(text), doc.file, piece.line, rite.name, stage.id))
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
    """The classical sentence using the term that stands nearest its (first) gloss."""
    anchor = next((g for g in glosses if g.line is not None), None)
    best: tuple[tuple[int, int], _Sentence] | None = None
    for s in sentences:
        if norm not in s.key:
            continue
        if anchor is not None:
            distance = (0 if s.file == anchor.file else 1, abs(s.line - (anchor.line or 0)))
        else:
            distance = (0, s.line)
        if best is None or distance < best[0]:
            best = (distance, s)
    if best is None:
        return None
    s = best[1]
    return Example(s.text, s.file, s.line, s.rite, s.stage_id)


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
    for d_index, doc in enumerate(documents):
        for g in _extracted(doc):
            if not (g.taught or withheld) or curated.drops(g):
                continue
            norm = normalize(g.context)
            by_term[norm].append(g)
            written[norm][g.context] += 1
            order.setdefault(norm, (d_index, g.line or 0))
    curated_by: dict[str, CuratedTerm] = {}
    for c in curated.terms:
        norm = normalize(c.term)
        curated_by[norm] = c
        written[norm][c.term] += 0 if written[norm] else 1
        order.setdefault(norm, (len(documents), c.line))
        for gloss, source in c.glosses:
            if not _duplicate(c.term, gloss, source, by_term[norm]):
                by_term[norm].append(
                    Gloss(
                        gloss=gloss,
                        speaker=source,
                        file=Path(curated.path).name,
                        formula="curated",
                        scope=c.rites,
                        pattern=c.pattern,
                    )
                )
    sentences = _sentences(documents)
    rite_texts = _rite_texts(documents)
    terms: list[Term] = []
    for norm, glosses in by_term.items():
        if norm in curated.exclude or not glosses:
            continue
        c = curated_by.get(norm)
        if c and (c.rites or c.pattern):  # the teacher's where scopes the term's every gloss
            glosses = [g if g.formula == "curated" else replace(g, pattern=c.pattern, scope=c.rites) for g in glosses]
        headword = written[norm].most_common(1)[0][0] if written[norm] else norm
        counts = (
            (rite, occurrences(norm, text, c.rites, c.pattern, rite) if c else text.count(norm))
            for rite, text in rite_texts.items()
        )
        frequency = tuple((rite, n) for rite, n in counts if n)
        if c and not frequency and all(g.formula == "curated" for g in glosses):
            continue  # a curated term that does not occur (where it applies) in these texts
        example = _example(norm, glosses, sentences)
        terms.append(
            Term(
                term=headword,
                normalized=norm,
                pinyin=(c.pinyin if c and c.pinyin else reading_in(headword, example.text if example else "")),
                category=c.category if c else _category(norm, glosses),
                glosses=tuple(glosses),
                example=example,
                frequency=frequency,
                curated=c is not None,
            )
        )
    terms.sort(key=lambda t: order.get(t.normalized, (99, 0)))
    return terms


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
