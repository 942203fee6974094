"""A deck spec resolved against the corpus: which rites, stages and terms a deck holds.

Shared by the Anki decks and the web teacher page. Every reference the spec makes (rite, stage,
excluded term) is checked here and reported with the spec's line, together with the problems
found while parsing the spec, in one :class:`DeckSpecError`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from ..errors import DeckSpecError
from ..model import Corpus, Document, Example, Gloss, Rite, Stage, Term
from ..terms.lexicon import categories
from ..terms.reading import pinyin
from ..text.normalize import normalize
from .deckspec import DeckSpec, ExtraTerm, Problem, StageRef
from .items import PassageItem, cloze_terms, passage_items

_SENTENCE = re.compile(r"[^。；！？]+[。；！？」]*")


@dataclass(frozen=True)
class RiteChoice:
    """A rite of the deck and its chosen stages, in text order."""

    document: Document
    rite: Rite
    stages: tuple[Stage, ...]
    index: int  # position of the rite in the deck (for the order of new cards)

    def position(self, stage: Stage) -> int:
        return next((i for i, s in enumerate(self.rite.stages) if s.id == stage.id), len(self.rite.stages))


@dataclass(frozen=True)
class TermChoice:
    """A term of the deck, placed in the first chosen stage that uses or glosses it."""

    term: Term
    rite: str
    stage: Stage | None
    order: tuple[int, int]  # (rite index, stage position) for the order of new cards
    count: int  # occurrences in the chosen stages


@dataclass(frozen=True)
class Selection:
    spec: DeckSpec
    rites: tuple[RiteChoice, ...]
    terms: tuple[TermChoice, ...]  # the deck's terms (limited to the N most frequent)
    cloze_pool: tuple[Term, ...] = ()  # the terms a cloze may blank out: all of the scope, unlimited
    problems: tuple[Problem, ...] = field(default=(), compare=False)

    def raise_problems(self, more: Sequence[Problem] = ()) -> None:
        """Raise every problem of the spec at once (parsing, references, ``more``), if any."""
        problems = [*self.spec.problems, *self.problems, *more]
        if problems:
            raise DeckSpecError.many(problems, path=self.spec.path)


def _stage_text(stage: Stage) -> str:
    parts = [p.text for p in stage.passages]
    if stage.name:
        parts.append(stage.name + stage.note_text)
    return normalize("\u3000".join(parts))


def _matches(stage: Stage, rite: Rite, key: str) -> bool:
    if key == stage.id:
        return True
    norm = normalize(key)
    name = normalize(stage.name) if stage.name else None
    return name is not None and norm in (name, normalize(rite.name) + "." + name)


def _resolve_ref(ref: StageRef, rites: Sequence[RiteChoice]) -> tuple[set[tuple[int, int]], str | None]:
    """The (rite, stage) positions a reference names, or a message saying why it names none."""
    for r_i, choice in enumerate(rites):
        stages = choice.rite.stages
        starts = [i for i, s in enumerate(stages) if _matches(s, choice.rite, ref.start)]
        if not starts:
            continue
        if ref.end is None:
            return {(r_i, i) for i in starts}, None
        ends = [i for i, s in enumerate(stages) if i >= starts[0] and _matches(s, choice.rite, ref.end)]
        if not ends:
            return set(), f"{ref.end!r} does not come after {ref.start!r} in {choice.rite.name}"
        return {(r_i, i) for i in range(starts[0], ends[0] + 1)}, None
    known = "、".join(s.name for c in rites for s in c.rite.stages if s.name)
    missing = ref.start if not any(_matches(s, c.rite, ref.start) for c in rites for s in c.rite.stages) else ref.end
    return set(), f"unknown stage {missing!r} (known: {known})"


def _choose_rites(spec: DeckSpec, corpus: Corpus, problems: list[Problem]) -> list[tuple[Document, Rite]]:
    pairs = corpus.rites()
    if not spec.rites:
        return pairs
    chosen = []
    for i, name in enumerate(spec.rites):
        found = [(d, r) for d, r in pairs if normalize(r.name) == normalize(name)]
        if not found:
            known = "、".join(r.name for _, r in pairs)
            problems.append((spec.line(f"rites[{i}]"), f"rites[{i}]: unknown rite {name!r} (known: {known})"))
        chosen.extend(p for p in found if p not in chosen)
    return chosen


def _choose_stages(spec: DeckSpec, rites: list[RiteChoice], problems: list[Problem]) -> list[RiteChoice]:
    if not spec.stages:
        return rites
    wanted: set[tuple[int, int]] = set()
    for ref in spec.stages:
        found, message = _resolve_ref(ref, rites)
        if message:
            problems.append((ref.line, f"{ref.key}: {message}"))
        wanted |= found
    out = []
    for r_i, c in enumerate(rites):
        stages = tuple(s for i, s in enumerate(c.rite.stages) if (r_i, i) in wanted)
        if stages:
            out.append(replace(c, stages=stages, index=len(out)))
    return out


@dataclass(frozen=True)
class _Text:
    """A run of classical text of a chosen stage, with its normalised form."""

    choice: RiteChoice
    stage: Stage
    text: str
    key: str
    line: int


def _texts(rites: Sequence[RiteChoice]) -> list[_Text]:
    return [
        _Text(c, stage, piece.text, normalize(piece.text), piece.line)
        for c in rites
        for stage in c.stages
        for passage in stage.passages
        for piece in passage.pieces
        if piece.kind == "text"
    ]


def _example(norm: str, texts: Sequence[_Text]) -> Example | None:
    """The first sentence of the chosen stages that uses ``norm``."""
    for t in texts:
        if norm in t.key:
            for m in _SENTENCE.finditer(t.text):
                if norm in normalize(m.group(0)):
                    text = m.group(0).strip(" \u3000」")
                    return Example(text, t.choice.document.file, t.line, t.choice.rite.name, t.stage.id)
    return None


def _extra(extra: ExtraTerm, known: dict[str, Term], source: str) -> Term:
    """A teacher's term: new, or an existing term with the teacher's glosses put first."""
    norm = normalize(extra.term)
    glosses = tuple(Gloss(g, None, file=source, formula="spec") for g in extra.glosses)
    old = known.get(norm)
    if old is not None:
        return replace(
            old,
            glosses=glosses + old.glosses,
            pinyin=extra.pinyin or old.pinyin,
            category=extra.category if extra.category != "other" else old.category,
        )
    return Term(extra.term, norm, extra.pinyin or pinyin(extra.term), extra.category, glosses, curated=True)


def _excluded(spec: DeckSpec, known: dict[str, Term], problems: list[Problem]) -> set[str]:
    out = set()
    for i, word in enumerate(spec.exclude_terms):
        norm = normalize(word)
        if norm not in known:
            key = f"terms.exclude[{i}]"
            problems.append((spec.line(key), f"{key}: no term {word!r} in the texts"))
        out.add(norm)
    return out


def _choose_terms(
    spec: DeckSpec, rites: Sequence[RiteChoice], terms: Sequence[Term], problems: list[Problem]
) -> tuple[TermChoice, ...]:
    """The terms used or glossed in the chosen stages (the teacher's extras always), each placed
    in its first stage."""
    if not rites:
        return ()
    stages = [(c, s, _stage_text(s)) for c in rites for s in c.stages]
    by_id = {s.id: (c, s) for c, s, _ in stages}
    texts = _texts(rites)
    rite_names = {c.rite.name for c in rites}
    known = {t.normalized: t for t in terms}
    excluded = _excluded(spec, known, problems)
    # The source shown for a teacher's term is the deck's name: the same whether the spec is built
    # from its file or from the teacher's page.
    extras = [_extra(x, known, f"{spec.name}（教师补充）") for x in spec.extra_terms]
    extra_keys = {t.normalized for t in extras}
    candidates = [*extras, *(t for t in terms if t.normalized not in extra_keys | excluded)]
    chosen: list[TermChoice] = []
    for t in candidates:
        counts = [(c, s, text.count(t.normalized)) for c, s, text in stages]
        home = next(((c, s) for c, s, n in counts if n), None)
        if home is None:
            home = next((by_id[g.stage_id] for g in t.glosses if g.stage_id in by_id), None)
        if home is None and t.normalized not in extra_keys:
            continue
        c, s = home or (rites[0], None)
        if t.example is None or t.example.stage_id not in by_id:
            t = replace(t, example=_example(t.normalized, texts) or t.example)
        t = replace(t, glosses=tuple(sorted(t.glosses, key=lambda g: g.formula != "spec" and g.rite not in rite_names)))
        order = (c.index, c.position(s) if s else 0)
        chosen.append(TermChoice(t, c.rite.name, s, order, sum(n for _, _, n in counts)))
    return tuple(sorted(chosen, key=lambda x: x.order))


def _limit(chosen: tuple[TermChoice, ...], spec: DeckSpec) -> tuple[TermChoice, ...]:
    """The teacher's extras and the ``limits.terms`` most frequent of the others."""
    if spec.max_terms is None:
        return chosen
    extra = {normalize(x.term) for x in spec.extra_terms}
    rest = sorted((i for i, x in enumerate(chosen) if x.term.normalized not in extra), key=lambda i: -chosen[i].count)
    drop = set(rest[spec.max_terms :])
    return tuple(x for i, x in enumerate(chosen) if i not in drop)


def select(spec: DeckSpec, corpus: Corpus, terms: Sequence[Term]) -> Selection:
    """Resolve ``spec``: its rites, stages and terms, with every reference problem recorded."""
    problems: list[Problem] = []
    pairs = _choose_rites(spec, corpus, problems)
    rites = [RiteChoice(d, r, r.stages, i) for i, (d, r) in enumerate(pairs)]
    rites = _choose_stages(spec, rites, problems)
    every = _choose_terms(spec, rites, terms, problems)
    return Selection(spec, tuple(rites), _limit(every, spec), tuple(t.term for t in every), tuple(problems))


def passage_choices(choice: RiteChoice, terms: Sequence[Term]) -> list[PassageItem]:
    """The passages (with text) of the chosen stages, each with the terms of ``terms`` it contains."""
    ids = {s.id for s in choice.stages}
    return [p for p in passage_items(choice.document, choice.rite, terms) if p.stage.id in ids]


def cloze_spans(item: PassageItem, *, max_terms: int = 6) -> list[tuple[int, int, Term]]:
    """Where to blank out the chosen glossed terms: every occurrence that overlaps no other,
    in text order (one cloze number per term)."""
    text = normalize(item.passage.text)
    taken = [False] * len(text)
    spans: list[tuple[int, int, Term]] = []
    for t in sorted(cloze_terms(item, max_terms=max_terms), key=lambda t: -len(t.normalized)):
        at = text.find(t.normalized)
        while at != -1:
            end = at + len(t.normalized)
            if not any(taken[at:end]) and not inside_word(text, at, end):
                taken[at:end] = [True] * (end - at)
                spans.append((at, end, t))
            at = text.find(t.normalized, end)
    return sorted(spans, key=lambda s: s[0])


def inside_word(text: str, start: int, end: int) -> bool:
    """True if ``text[start:end]`` (one character) is part of a longer word of the reviewed lexicon
    there, as 人 in 主人 or 射 in 司射: blanking it alone would cut the word."""
    if end - start != 1:
        return False
    words = categories()
    for size in (2, 3, 4):
        for left in range(max(start - size + 1, 0), start + 1):
            if left + size <= len(text) and text[left : left + size] in words:
                return True
    return False
