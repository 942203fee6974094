"""Quiz items and questions, pure: built from the same items as the Anki decks (:mod:`study.items`).

A :class:`QuizItem` is what the scheduler tracks (one FSRS card per learner and item); a
:class:`Question` is one presentation of it (options shuffled by a seeded ``random.Random``),
stored until the learner answers, so that grading uses exactly what was shown.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Collection, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from .grading import OrderMode, RatingName, grade_order, rating_for, typed_matches
from .items import Sequence_, stage_sequence, step_sequence
from .model import Document, Rite, Term
from .normalize import search_key

STAGE_WINDOW, STAGE_STEP = 6, 3
STEP_WINDOW, STEP_STEP = 6, 4
MIN_ORDER = 3
OPTIONS = 4


class Kind(StrEnum):
    CHOICE = "choice"
    TYPED = "typed"
    ORDER = "order"


class Family(StrEnum):
    VOCAB = "vocab"
    ORDER = "order"


# The grading mode of each kind of ordering item (Moodle's ordering modes).
ORDER_MODES: dict[str, OrderMode] = {
    "stages": OrderMode.LONGEST_SUBSEQUENCE,
    "rite": OrderMode.ABSOLUTE_POSITION,
    "steps": OrderMode.RELATIVE_NEXT,
}


@dataclass(frozen=True)
class QuizItem:
    """Something a learner is scheduled on."""

    id: str
    family: Family
    kind: Kind
    rite: str
    sort_key: tuple[int, int, int]  # text order: (document, line, n)
    stage_id: str | None = None
    term: Term | None = field(default=None, compare=False)
    direction: str = ""  # vocab: t2g, g2t, typed, pinyin; order: stages, rite, steps, next
    sequence: Sequence_ | None = field(default=None, compare=False)
    window: tuple[int, int] = (0, 0)  # (start, size) in the sequence


@dataclass(frozen=True)
class Question:
    """One presentation of an item: what was shown, and what is right."""

    item_id: str
    kind: Kind
    direction: str
    subject: str  # the term, gloss, stage name or title the prompt is about
    options: tuple[str, ...] = ()
    items: tuple[str, ...] = ()
    accepted: tuple[str, ...] = ()  # choice / typed: accepted answers
    positions: tuple[int, ...] = ()  # order: right index of each presented item
    right_order: tuple[str, ...] = ()  # order: the items in the right order
    mode: str = ""
    modern: tuple[str | None, ...] = ()  # order: modern names of the right order, when known

    def to_dict(self) -> dict[str, object]:
        return {
            "item_id": self.item_id,
            "kind": self.kind.value,
            "direction": self.direction,
            "subject": self.subject,
            "options": list(self.options),
            "items": list(self.items),
            "accepted": list(self.accepted),
            "positions": list(self.positions),
            "right_order": list(self.right_order),
            "mode": self.mode,
            "modern": list(self.modern),
        }

    @classmethod
    def from_dict(cls, d: dict[str, object]) -> Question:
        def tup(key: str) -> tuple:
            value = d.get(key) or []
            assert isinstance(value, list)
            return tuple(value)

        return cls(
            item_id=str(d["item_id"]),
            kind=Kind(str(d["kind"])),
            direction=str(d.get("direction", "")),
            subject=str(d.get("subject", "")),
            options=tup("options"),
            items=tup("items"),
            accepted=tup("accepted"),
            positions=tup("positions"),
            right_order=tup("right_order"),
            mode=str(d.get("mode", "")),
            modern=tup("modern"),
        )


@dataclass(frozen=True)
class Grade:
    correct: bool
    score: float
    rating: RatingName
    expected: str | list[str]
    misplaced: tuple[int, ...] = ()
    submitted: tuple[int, ...] = ()  # order: the right position of each item, in the order given


class AnswerError(ValueError):
    """An answer of the wrong shape for its question (a bad order, a list for a choice …)."""


def main_gloss(term: Term) -> str:
    """The gloss a question shows: the first from the text, else the first curated one."""
    from_text = [g for g in term.glosses if g.line is not None]
    return (from_text or list(term.glosses))[0].gloss


def _primary_rite(term: Term) -> str | None:
    glossed = [g.rite for g in term.glosses if g.rite]
    if glossed:
        return glossed[0]
    return max(term.frequency, key=lambda f: f[1])[0] if term.frequency else None


@dataclass
class Catalog:
    """Every quiz item of some texts, in text order, with what distractors need."""

    items: list[QuizItem]
    by_id: dict[str, QuizItem]
    terms_by_rite: dict[str, list[Term]]
    rites: list[str]
    _selections: dict[tuple[str | None, str | None], list[QuizItem]] = field(
        default_factory=dict, repr=False, compare=False
    )

    def get(self, item_id: str) -> QuizItem | None:
        return self.by_id.get(item_id)

    def select(self, *, rite: str | None = None, family: str | None = None) -> list[QuizItem]:
        """The items of a rite and family in text order; made once per filter (every request asks),
        so the list is shared: do not change it."""
        key = (rite, family)
        if key not in self._selections:
            self._selections[key] = [
                i for i in self.items if (rite is None or i.rite == rite) and (family is None or i.family == family)
            ]
        return self._selections[key]


def _doc_line(term: Term, files: dict[str, int]) -> tuple[int, int]:
    g = next((g for g in term.glosses if g.line is not None), None)
    if g is not None and g.file in files:
        return files[g.file], g.line or 0
    if term.example is not None and term.example.file in files:
        return files[term.example.file], term.example.line
    return len(files), 0


def _order_items(d_index: int, rite: Rite, stages: Collection[str] | None) -> list[QuizItem]:
    """Ordering items of a rite: windows over its (selected) stages, the whole list, "what comes
    next", and windows over the steps of each (selected) stage. Ids name the first element and
    the size of a window, so a class that studies part of a rite shares them with everyone."""
    items: list[QuizItem] = []
    full = stage_sequence(rite)
    elements = tuple(e for e in full.elements if stages is None or e.id in stages)
    seq = Sequence_(full.id, full.kind, full.rite, full.title, elements)
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
        if len(elements) > STAGE_WINDOW:
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
        if len(steps.elements) < MIN_ORDER:
            continue
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


def build_catalog(
    documents: Sequence[Document],
    terms: Iterable[Term],
    *,
    stages: Collection[str] | None = None,
    families: Collection[str] = ("vocab", "stages", "steps"),
) -> Catalog:
    """The quiz items of ``documents``: four per glossed term, and the ordering items per rite.

    ``stages`` (stage ids) and ``families`` narrow it to what a class is assigned: the terms given,
    the chosen stages in order and the steps of those stages.
    """
    files = {d.file: n for n, d in enumerate(documents)}
    items: list[QuizItem] = []
    terms_by_rite: dict[str, list[Term]] = defaultdict(list)
    for term in terms:
        rite = _primary_rite(term)
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
                    None,
                    term,
                    direction,
                )
            )
    rites: list[str] = []
    for d_index, doc in enumerate(documents):
        for rite in doc.rites:
            if stages is not None and not any(s.id in stages for s in rite.stages):
                continue
            rites.append(rite.name)
            for item in _order_items(d_index, rite, stages):
                wanted = "steps" if item.direction == "steps" else "stages"
                if wanted in families:
                    items.append(item)
    items.sort(key=lambda i: i.sort_key)
    return Catalog(items, {i.id: i for i in items}, dict(terms_by_rite), rites)


def _candidates(term: Term, catalog: Catalog, rng: random.Random) -> Iterator[Term]:
    """Other terms, nearest first: same rite and category, then same rite, then any rite;
    shuffled within each pool."""
    rite = _primary_rite(term) or ""
    same_rite = catalog.terms_by_rite.get(rite, [])
    for pool in (
        [t for t in same_rite if t.category == term.category],
        same_rite,
        [t for ts in catalog.terms_by_rite.values() for t in ts],
    ):
        shuffled = [t for t in pool if t.normalized != term.normalized]
        rng.shuffle(shuffled)
        yield from shuffled


def _distractor_glosses(term: Term, catalog: Catalog, rng: random.Random) -> list[str]:
    """Glosses of other terms, never one that is also a gloss of ``term``, never twice."""
    keys = {search_key(g.gloss) for g in term.glosses}
    chosen: list[str] = []
    for t in _candidates(term, catalog, rng):
        gloss = main_gloss(t)
        key = search_key(gloss)
        if key and key not in keys:
            chosen.append(gloss)
            keys.add(key)
            if len(chosen) == OPTIONS - 1:
                break
    return chosen


def _distractor_terms(term: Term, catalog: Catalog, rng: random.Random) -> list[str]:
    """Other terms, never one sharing a gloss with ``term`` (it would be right too), never twice."""
    own = {search_key(g.gloss) for g in term.glosses}
    chosen: list[str] = []
    seen = {term.normalized}
    for t in _candidates(term, catalog, rng):
        if t.normalized in seen or own & {search_key(g.gloss) for g in t.glosses}:
            continue
        chosen.append(t.term)
        seen.add(t.normalized)
        if len(chosen) == OPTIONS - 1:
            break
    return chosen


def present(item: QuizItem, catalog: Catalog, rng: random.Random) -> Question:
    """A question for ``item`` (options and items shuffled with ``rng``)."""
    if item.family == Family.VOCAB:
        term = item.term
        assert term is not None
        gloss = main_gloss(term)
        if item.direction == "t2g":
            options = [gloss, *_distractor_glosses(term, catalog, rng)]
            rng.shuffle(options)
            return Question(item.id, Kind.CHOICE, "t2g", term.term, tuple(options), accepted=(gloss,))
        if item.direction == "g2t":
            options = [term.term, *_distractor_terms(term, catalog, rng)]
            rng.shuffle(options)
            return Question(item.id, Kind.CHOICE, "g2t", gloss, tuple(options), accepted=(term.term,))
        if item.direction == "typed":
            return Question(item.id, Kind.TYPED, "typed", gloss, accepted=(term.term, term.normalized))
        return Question(item.id, Kind.TYPED, "pinyin", term.term, accepted=(term.pinyin,))
    seq = item.sequence
    assert seq is not None
    start, size = item.window
    window = seq.elements[start : start + size]
    if item.direction == "next":
        here, after = window[0], window[1]
        others = sorted({e.text for e in seq.elements} - {here.text, after.text})
        rng.shuffle(others)
        options = [after.text, *others[: OPTIONS - 1]]
        rng.shuffle(options)
        return Question(
            item.id, Kind.CHOICE, "next", here.text, tuple(options), accepted=(after.text,), modern=(after.modern,)
        )
    positions = list(range(len(window)))
    while len(positions) > 1 and positions == sorted(positions):
        rng.shuffle(positions)
    return Question(
        item.id,
        Kind.ORDER,
        item.direction,
        seq.title,
        items=tuple(window[p].text for p in positions),
        positions=tuple(positions),
        right_order=tuple(e.text for e in window),
        mode=ORDER_MODES[item.direction].value,
        modern=tuple(e.modern for e in window),
    )


def _resolve_duplicates(question: Question, answer: list[int]) -> list[int]:
    """Right positions of the submitted items; items with the same text (a stage name used twice
    in a rite) are interchangeable, so they take their positions in the order submitted."""
    submitted = [question.positions[i] for i in answer]
    by_text: dict[str, list[int]] = defaultdict(list)
    for k, i in enumerate(answer):
        by_text[question.items[i]].append(k)
    for places in by_text.values():
        if len(places) > 1:
            for place, position in zip(places, sorted(submitted[p] for p in places), strict=True):
                submitted[place] = position
    return submitted


def grade(question: Question, answer: object, *, seconds: float | None = None, fast_seconds: float = 10.0) -> Grade:
    """Grade ``answer`` (a string, or for an order the indices of ``items`` in the learner's order)."""
    if question.kind == Kind.ORDER:
        if not isinstance(answer, list) or not all(isinstance(i, int) and not isinstance(i, bool) for i in answer):
            raise AnswerError("an order answer is a list of item indices")
        if sorted(answer) != list(range(len(question.items))):
            raise AnswerError(f"the order must use each of the {len(question.items)} items once")
        submitted = _resolve_duplicates(question, answer)
        result = grade_order(submitted, OrderMode(question.mode))
        rating = rating_for(result.score, seconds=seconds, fast_seconds=fast_seconds * 3)
        return Grade(
            result.correct, result.score, rating, list(question.right_order), result.misplaced, tuple(submitted)
        )
    if not isinstance(answer, str):
        raise AnswerError("this answer is a string")
    if question.kind == Kind.CHOICE:
        correct = answer in question.accepted
    else:
        correct = typed_matches(answer, question.accepted, pinyin=question.direction == "pinyin")
    score = 1.0 if correct else 0.0
    return Grade(correct, score, rating_for(score, seconds=seconds, fast_seconds=fast_seconds), question.accepted[0])
