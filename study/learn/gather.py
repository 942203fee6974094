"""Gather the quiz items of texts into a :class:`~study.learn.catalog.Catalog`: four vocabulary
items per glossed term (from the same selection as the Anki decks, :mod:`study.decks.items`), the
ordering items of each rite (windows over its stages, the whole rite, "what comes next", the steps
of a stage) and its passage and cloze items, in text order. A cloze item asks a term only where a
blank of it has the hint its Anki cloze shows (study/decks/clozehints.py).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass

from ..decks.blankhints import text_terms
from ..decks.clozehints import shared_glosses
from ..decks.items import Sequence_, stage_sequence, step_sequence
from ..decks.sequences import in_sequence, stage_names
from ..decks.sources import Places
from ..model import Document, Rite, Term
from .catalog import (
    MAX_ORDER,
    MIN_ORDER,
    STAGE_STEP,
    STAGE_WINDOW,
    STEP_STEP,
    STEP_WINDOW,
    Catalog,
    Family,
    Kind,
    QuizItem,
    StageInfo,
    primary_rite,
    term_stage,
)
from .passages import blank_hints, clozes, rite_passages, translated


def _doc_line(term: Term, files: dict[str, int]) -> tuple[int, int]:
    g = next((g for g in term.glosses if g.line is not None), None)
    if g is not None and g.file in files:
        return files[g.file], g.line or 0
    if term.example is not None and term.example.file in files:
        return files[term.example.file], term.example.line
    return len(files), 0


def _order_items(d_index: int, rite: Rite, stages: Collection[str] | None, *, excerpt: bool = False) -> list[QuizItem]:
    """Ordering items of a rite: windows over its (selected) stages, the whole list, "what comes
    next", and windows over the steps of each (selected) stage. Ids name the first element and
    the size of a window, so a class that studies part of a rite shares them with everyone.

    An excerpt (节选) holds part of the rite: its stage list is titled so, and never asked as the
    whole rite in order."""
    items: list[QuizItem] = []
    full = stage_sequence(rite)
    names = stage_names(rite)  # a name the rite gives two stages is numbered: one right answer
    elements = tuple(
        dataclasses.replace(e, text=names.get(e.id, e.text)) for e in full.elements if stages is None or e.id in stages
    )
    seq = Sequence_(full.id, full.kind, full.rite, f"{full.title}（节选）" if excerpt else full.title, elements)
    if len(elements) >= MIN_ORDER:
        for start, window in seq.windows(STAGE_WINDOW, STAGE_STEP):
            items.append(
                QuizItem(
                    f"order:stages:{window[0].id}:{len(window)}",
                    Family.ORDER,
                    Kind.ORDER,
                    rite.name,
                    (d_index, window[0].line or 0, 10),
                    None,
                    None,
                    "stages",
                    seq,
                    (start, len(window)),
                )
            )
        if STAGE_WINDOW < len(elements) <= MAX_ORDER and not excerpt:
            items.append(
                QuizItem(
                    f"order:rite:{elements[0].id}:{len(elements)}",
                    Family.ORDER,
                    Kind.ORDER,
                    rite.name,
                    (d_index, elements[-1].line or 0, 20),
                    None,
                    None,
                    "rite",
                    seq,
                    (0, len(elements)),
                )
            )
        for k, element in enumerate(elements[:-1]):
            items.append(
                QuizItem(
                    f"next:{element.id}",
                    Family.ORDER,
                    Kind.CHOICE,
                    rite.name,
                    (d_index, element.line or 0, 11),
                    element.id,
                    None,
                    "next",
                    seq,
                    (k, 2),
                )
            )
    for stage in rite.stages:
        if stages is not None and stage.id not in stages:
            continue
        steps = step_sequence(rite, stage)
        if len(steps.elements) < MIN_ORDER or not in_sequence([e.text for e in steps.elements]):
            continue  # (rules or cases, not acts in order: 士相見禮's 言視之法, 稱辭)
        line = stage.line or (stage.passages[0].span[0] if stage.passages else 0)
        for start, window in steps.windows(STEP_WINDOW, STEP_STEP):
            items.append(
                QuizItem(
                    f"order:steps:{window[0].id}:{len(window)}",
                    Family.ORDER,
                    Kind.ORDER,
                    rite.name,
                    (d_index, line, 12 + start),
                    stage.id,
                    None,
                    "steps",
                    steps,
                    (start, len(window)),
                )
            )
    return items


@dataclass
class _Hints:
    """What the cloze items of a text need for their hints, and the hints they got (by item id)."""

    terms: Mapping[str, Term]  # the text's terms as its own deck knows them (text_terms), by key
    shared: Mapping[str, frozenset[str]]  # their glosses (shared_glosses)
    found: dict[str, tuple[str, ...]]

    @classmethod
    def of(cls, pool: Iterable[Term], file: str, found: dict[str, tuple[str, ...]]) -> _Hints:
        own = text_terms(pool, file)
        return cls({t.normalized: t for t in own}, shared_glosses(own), found)


def _passage_items(
    d_index: int,
    doc: Document,
    rite: Rite,
    terms: list[Term],
    stages: Collection[str] | None,
    families: Collection[str],
    hints: _Hints,
) -> list[QuizItem]:
    """A passage's classical text ↔ translation (choices), and its glossed terms blanked (typed):
    a term only where a blank of it has a hint (in ``hints.found``)."""
    items: list[QuizItem] = []
    for p in rite_passages(doc, rite, terms, stages):
        line = p.passage.lines[0] if p.passage.lines else (p.stage.line or 0)
        if "passages" in families and translated(p):
            for n, direction in enumerate(("c2t", "t2c")):
                items.append(
                    QuizItem(
                        f"{p.id}:{direction}",
                        Family.PASSAGE,
                        Kind.CHOICE,
                        rite.name,
                        (d_index, line, 30 + n),
                        p.stage.id,
                        None,
                        direction,
                        passage=p,
                    )
                )
        if "cloze" in families:
            for term in clozes(p):
                said = blank_hints(p, hints.terms.get(term.normalized, term), hints.shared)
                if not any(said):
                    continue  # no blank a learner could answer from the question
                item_id = f"cloze:{p.id[len('passage:') :]}:{term.normalized}"
                hints.found[item_id] = said
                items.append(
                    QuizItem(item_id, Family.PASSAGE, Kind.TYPED, rite.name, (d_index, line, 32), p.stage.id, term,
                             "cloze", passage=p)
                )  # fmt: skip
    return items


def build_catalog(
    documents: Sequence[Document],
    terms: Iterable[Term],
    *,
    stages: Collection[str] | None = None,
    families: Collection[str] = ("vocab", "stages", "steps", "passages", "cloze"),
    pool: Sequence[Term] | None = None,
) -> Catalog:
    """The quiz items of ``documents``: four per glossed term, and the ordering items per rite.

    ``stages`` (stage ids) and ``families`` narrow it to what a class is assigned: the terms given,
    the chosen stages in order and the steps of those stages. ``pool``: every term of the texts,
    whatever a class is given (default ``terms``) — a cloze's hint is told apart from their glosses,
    as the decks' cloze pools are.
    """
    terms = list(terms)
    pool = terms if pool is None else pool
    hints: dict[str, tuple[str, ...]] = {}
    files = {d.file: n for n, d in enumerate(documents)}
    items: list[QuizItem] = []
    terms_by_rite: dict[str, list[Term]] = defaultdict(list)
    own = [r.name for d in documents for r in d.rites if stages is None or any(s.id in stages for s in r.stages)]
    for term in terms:
        rite = primary_rite(term, own)  # a class's terms are asked under its own rites
        if stages is not None and own and rite not in own:
            rite = own[0]  # a class's term (its stages use it) counted only elsewhere in the book
        if rite is None or not term.glosses:
            continue
        terms_by_rite[rite].append(term)
        if "vocab" not in families:
            continue
        d, line = _doc_line(term, files)
        for n, (direction, kind) in enumerate(
            (("t2g", Kind.CHOICE), ("g2t", Kind.CHOICE), ("typed", Kind.TYPED), ("pinyin", Kind.TYPED))
        ):
            items.append(
                QuizItem(
                    f"vocab:{term.normalized}:{direction}",
                    Family.VOCAB,
                    kind,
                    rite,
                    (d, line, n),
                    term_stage(term),
                    term,
                    direction,
                )
            )
    rites: list[str] = []
    excerpts: set[str] = set()
    infos: dict[str, StageInfo] = {}
    for d_index, doc in enumerate(documents):
        found = _Hints.of(pool, doc.file, hints) if "cloze" in families else _Hints({}, {}, hints)
        for rite in doc.rites:
            if stages is not None and not any(s.id in stages for s in rite.stages):
                continue
            rites.append(rite.name)
            if doc.excerpt:
                excerpts.add(rite.name)
            for n, stage in enumerate(rite.stages):
                if stage.name and (stages is None or stage.id in stages):
                    infos[stage.id] = StageInfo(stage.id, rite.name, stage.name, stage.modern_name, n)
            for item in _order_items(d_index, rite, stages, excerpt=doc.excerpt):
                wanted = "steps" if item.direction == "steps" else "stages"
                if wanted in families:
                    items.append(item)
            if "passages" in families or "cloze" in families:
                items.extend(
                    _passage_items(d_index, doc, rite, terms_by_rite.get(rite.name, []), stages, families, found)
                )
    items.sort(key=lambda i: i.sort_key)
    catalog = Catalog(items, {i.id: i for i in items}, dict(terms_by_rite), rites, infos, frozenset(excerpts))
    catalog.hints.update(hints)
    places = Places(documents)
    catalog.cited.update(_cited(places, (t for ts in terms_by_rite.values() for t in ts)))
    catalog.places.update(_places(places, (t for ts in terms_by_rite.values() for t in ts), items))
    catalog.openings = frozenset(
        (doc.file, n)
        for doc in documents
        for rite in doc.rites
        for seg in rite.commentary
        for n in (seg.line, *(line for _, line in seg.breaks))
    )
    return catalog


def _cited(places: Places, terms: Iterable[Term]) -> dict[tuple[str, str], tuple[str, str, str | None, int, str]]:
    """Where each curated gloss that cites a line of a text is said, and by whom (shown by the
    quiz in words, never as a file name)."""
    out: dict[tuple[str, str], tuple[str, str, str | None, int, str]] = {}
    for term in terms:
        for g in term.glosses:
            if g.line is None and g.speaker and (g.speaker, g.gloss) not in out:
                found = places.cited(g)
                if found is not None:
                    speaker, rite, stage, line, words = found
                    out[(g.speaker, g.gloss)] = (speaker, rite.name, stage.id if stage else None, line, words)
    return out


def _places(places: Places, terms: Iterable[Term], items: Iterable[QuizItem]) -> dict[tuple[str, int], str]:
    """The place in words (卷, rite, stage, printed page and line) of each line the quiz cites: a
    commentary gloss's, a term's example's, a passage's first line."""
    lines: set[tuple[str, int]] = set()
    for term in terms:
        lines.update((g.file, g.line) for g in term.glosses if g.file and g.line is not None)
        if term.example is not None:
            lines.add((term.example.file, term.example.line))
    for item in items:
        if item.passage is not None and item.passage.passage.lines:
            lines.add((item.passage.file, item.passage.passage.lines[0]))
    return {(file, line): places.words(file, line) or "" for file, line in lines}
