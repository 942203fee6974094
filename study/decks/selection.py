"""A deck spec resolved against the corpus: which rites, stages and terms a deck holds.

Shared by the Anki decks and the web teacher page. Every reference the spec makes (rite, stage,
excluded term) is checked here and reported with the spec's line, together with the problems
found while parsing the spec, in one :class:`DeckSpecError`. Where a cloze blanks the chosen terms
out of a passage is study/decks/clozespans.py's job.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field, replace

from ..errors import DeckSpecError
from ..model import Corpus, Document, Example, Gloss, Rite, Stage, Term
from ..terms.reading import pinyin
from ..text.normalize import normalize
from .deckspec import DeckSpec, ExtraTerm, Problem, StageRef

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
    terms: tuple[TermChoice, ...]  # the deck's terms (limited to the N most frequent), per rite
    # The terms a cloze may blank out, per rite: every term of the rite's text, whatever the spec
    # limits or excludes, so a cloze note is the same in every package.
    cloze_pools: dict[str, tuple[Term, ...]] = field(default_factory=dict, compare=False)
    custom: frozenset[str] = frozenset()  # normalised terms whose glosses the spec changed
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
    spec: DeckSpec,
    rites: Sequence[RiteChoice],
    terms_of: Callable[[RiteChoice], Sequence[Term]],
    problems: list[Problem],
) -> tuple[TermChoice, ...]:
    """Per rite, the terms used or glossed in its chosen stages (the teacher's extras always).

    A term's place (first stage that uses or glosses it) and example sentence come from the whole
    rite, not from the chosen stages: a term note is then the same in every package.
    """
    if not rites:
        return ()
    known = {t.normalized: t for c in rites for t in terms_of(c)}
    excluded = _excluded(spec, known, problems)
    chosen: list[TermChoice] = []
    for c in rites:
        stages = [(s, _stage_text(s)) for s in c.rite.stages]
        picked = {s.id for s in c.stages}
        texts = _texts([replace(c, stages=c.rite.stages)])
        mine = {t.normalized: t for t in terms_of(c)}
        # The source shown for a teacher's term is the deck's name: the same whether the spec is
        # built from its file or from the teacher's page.
        extras = [_extra(x, mine, f"{spec.name}（教师补充）") for x in spec.extra_terms]
        extra_keys = {t.normalized for t in extras}
        for t in [*extras, *(t for t in mine.values() if t.normalized not in extra_keys | excluded)]:
            counts = [(s, text.count(t.normalized)) for s, text in stages]
            glossed = {g.stage_id for g in t.glosses if g.rite == c.rite.name}
            in_scope = sum(n for s, n in counts if s.id in picked)
            if not in_scope and not glossed & picked and t.normalized not in extra_keys:
                continue
            home = next((s for s, n in counts if n), None) or next((s for s, _ in stages if s.id in glossed), None)
            if t.example is None or t.example.rite != c.rite.name:
                t = replace(t, example=_example(t.normalized, texts))
            t = replace(
                t, glosses=tuple(sorted(t.glosses, key=lambda g: g.formula != "spec" and g.rite != c.rite.name))
            )
            order = (c.index, c.position(home) if home else 0)
            chosen.append(TermChoice(t, c.rite.name, home, order, in_scope))
    return tuple(sorted(chosen, key=lambda x: x.order))


def _limit(chosen: tuple[TermChoice, ...], spec: DeckSpec) -> tuple[TermChoice, ...]:
    """The teacher's extras and the ``limits.terms`` most frequent of the others."""
    if spec.max_terms is None:
        return chosen
    extra = {normalize(x.term) for x in spec.extra_terms}
    rest = sorted((i for i, x in enumerate(chosen) if x.term.normalized not in extra), key=lambda i: -chosen[i].count)
    drop = set(rest[spec.max_terms :])
    return tuple(x for i, x in enumerate(chosen) if i not in drop)


def select(
    spec: DeckSpec,
    corpus: Corpus,
    terms: Sequence[Term],
    terms_by_file: Mapping[str, Sequence[Term]] | None = None,
) -> Selection:
    """Resolve ``spec``: its rites, stages and terms, with every reference problem recorded.

    ``terms_by_file`` gives each text's own terms (built from that text alone): a rite's notes
    then do not depend on which other texts a spec names. Without it every rite uses ``terms``.
    """
    problems: list[Problem] = []
    pairs = _choose_rites(spec, corpus, problems)
    rites = [RiteChoice(d, r, r.stages, i) for i, (d, r) in enumerate(pairs)]
    rites = _choose_stages(spec, rites, problems)

    def terms_of(c: RiteChoice) -> Sequence[Term]:
        return terms_by_file.get(c.document.file, terms) if terms_by_file else terms

    every = _choose_terms(spec, rites, terms_of, problems)
    pools = {c.rite.name: tuple(terms_of(c)) for c in rites}
    custom = frozenset(normalize(x.term) for x in spec.extra_terms)
    return Selection(spec, tuple(rites), _limit(every, spec), pools, custom, tuple(problems))
