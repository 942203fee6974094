"""Quiz questions and grading, pure: a :class:`Question` is one presentation of a catalog item
(options shuffled by a seeded ``random.Random``), stored until the learner answers, so that grading
uses exactly what was shown.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from dataclasses import dataclass
from functools import lru_cache

from ..model import Term
from ..terms.reading import readings_in
from ..text.display import shown
from ..text.normalize import search_key as _search_key
from .catalog import ORDER_MODES, Catalog, Family, Kind, QuizItem, main_gloss, primary_rite, term_stage
from .grading import OrderMode, RatingName, grade_order, rating_for, typed_matches
from .passages import blanked, neighbours, translated

OPTIONS = 4


# Presenting a question again (to show it, then to grade the answer against the same shuffle)
# keys the same glosses and passages and reads the same words again: both pure functions of the
# book's text, remembered for the texts seen (a few MB for the whole book).
@lru_cache(maxsize=1 << 16)
def search_key(text: str) -> str:
    return _search_key(text)


@lru_cache(maxsize=1 << 13)
def _readings(word: str, context: str) -> tuple[str, ...]:
    return readings_in(word, context)


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


class _Terms:
    """A catalog's terms as distractors need them, made once per catalog: the pools (same rite and
    category, same rite, every rite), and each term's stage index and main gloss (by ``id``: the
    catalog keeps its terms, and this, alive)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.every = [t for ts in catalog.terms_by_rite.values() for t in ts]
        self.by_category: dict[tuple[str, str | None], list[Term]] = {}
        self.stage: dict[int, int | None] = {}
        self.gloss: dict[int, str] = {}
        self.near: dict[tuple[str, str | None, int | None], list[list[Term]]] = {}

    @staticmethod
    def of(catalog: Catalog) -> _Terms:
        memo = catalog.memo.get("terms")
        if not isinstance(memo, _Terms):
            memo = catalog.memo["terms"] = _Terms(catalog)
        return memo

    def same_category(self, rite: str, term: Term) -> list[Term]:
        key = (rite, term.category)
        if key not in self.by_category:
            self.by_category[key] = [t for t in self.catalog.terms_by_rite.get(rite, []) if t.category == term.category]
        return self.by_category[key]

    def pools(self, rite: str, term: Term) -> list[list[Term]]:
        """Where distractors for ``term`` are drawn from, nearest first: its category in its rite
        by neighbourhood of stages (nearest first), its rite, every rite."""
        here = self.stage_index(term)
        key = (rite, term.category, here)
        if key not in self.near:
            same = self.same_category(rite, term)
            if here is None:
                near = [same]
            else:
                groups: dict[int, list[Term]] = defaultdict(list)
                for t in same:
                    groups[abs((self.stage_index(t) or 0) - here) // NEIGHBOURHOOD].append(t)
                near = [groups[d] for d in sorted(groups)]
            self.near[key] = near
        return [*self.near[key], self.catalog.terms_by_rite.get(rite, []), self.every]

    def stage_index(self, term: Term) -> int | None:
        key = id(term)
        if key not in self.stage:
            self.stage[key] = _stage_index(term, self.catalog)
        return self.stage[key]

    def main_gloss(self, term: Term) -> str:
        key = id(term)
        if key not in self.gloss:
            self.gloss[key] = main_gloss(term)
        return self.gloss[key]


def _candidates(term: Term, catalog: Catalog, rng: random.Random) -> Iterator[Term]:
    """Other terms, nearest first: same rite and category (nearest stages first), then same rite,
    then any rite; in random order within each pool."""
    rite = primary_rite(term) or ""
    for pool in _Terms.of(catalog).pools(rite, term):
        yield from _drawn(pool, term.normalized, rng)


def _drawn(pool: list[Term], skip: str, rng: random.Random) -> Iterator[Term]:
    """``pool``'s terms but ``skip`` in random order, drawn only as far as the caller reads (a
    Fisher–Yates shuffle that stops when three distractors are found, rather than shuffling a
    rite's hundreds of terms for each question)."""
    left = list(pool)
    n = len(left)
    for j in range(n):
        k = j + int(rng.random() * (n - j))
        left[j], left[k] = left[k], left[j]
        if left[j].normalized != skip:
            yield left[j]


NEIGHBOURHOOD = 3  # stages this near count as one neighbourhood for distractors


def _stage_index(term: Term, catalog: Catalog) -> int | None:
    """Where in its rite the term is first glossed (the stage's index), if known."""
    stage = term_stage(term)
    info = catalog.stages.get(stage) if stage else None
    return info.index if info is not None else None


def _distractor_glosses(term: Term, catalog: Catalog, rng: random.Random) -> list[str]:
    """Glosses of other terms, never one that is also a gloss of ``term``, never twice."""
    keys = {search_key(g.gloss) for g in term.glosses}
    chosen: list[str] = []
    main = _Terms.of(catalog).main_gloss
    for t in _candidates(term, catalog, rng):
        gloss = main(t)
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
    right = set(catalog.terms_sharing(_Terms.of(catalog).main_gloss(term)))
    chosen: list[str] = []
    seen = {term.normalized}
    for t in _candidates(term, catalog, rng):
        if t.normalized in seen or t.term in right or own & {search_key(g.gloss) for g in t.glosses}:
            continue
        chosen.append(t.term)
        seen.add(t.normalized)
        if len(chosen) == OPTIONS - 1:
            break
    return chosen


def _passage_options(item: QuizItem, catalog: Catalog) -> tuple[str, ...]:
    """The options of a passage question before they are shuffled: the right side of the passage,
    then other sides from neighbouring passages (made once per item and catalog)."""
    made = catalog.memo.setdefault("passage_options", {})
    assert isinstance(made, dict)
    if item.id not in made:
        p = item.passage
        assert p is not None
        pool = [q for q in catalog.passages_of(item.rite) if translated(q)]
        side = (lambda q: q.passage.translation or "") if item.direction == "c2t" else (lambda q: shown(q.passage.text))
        options, keys = [side(p)], {search_key(side(p))}
        for q in neighbours(p, pool, 12):
            key = search_key(side(q))
            if key and key not in keys:
                options.append(side(q))
                keys.add(key)
            if len(options) == OPTIONS:
                break
        made[item.id] = tuple(options)
    return made[item.id]


def _present_passage(item: QuizItem, catalog: Catalog, rng: random.Random) -> Question:
    """Classical → translation or translation → classical (options from neighbouring passages
    with another text), or a cloze: the passage with the term blanked, typed."""
    p = item.passage
    assert p is not None
    if item.direction == "cloze":
        term = item.term
        assert term is not None
        return Question(
            item.id, Kind.TYPED, "cloze", blanked(shown(p.passage.text), term), accepted=(term.term, term.normalized)
        )
    side = (lambda q: q.passage.translation or "") if item.direction == "c2t" else (lambda q: shown(q.passage.text))
    right = side(p)
    options = list(_passage_options(item, catalog))
    rng.shuffle(options)
    subject = shown(p.passage.text) if item.direction == "c2t" else (p.passage.translation or "")
    return Question(item.id, Kind.CHOICE, item.direction, subject, tuple(options), accepted=(right,))


def present(item: QuizItem, catalog: Catalog, rng: random.Random) -> Question:
    """A question for ``item`` (options and items shuffled with ``rng``)."""
    if item.family == Family.PASSAGE:
        return _present_passage(item, catalog, rng)
    if item.family == Family.VOCAB:
        term = item.term
        assert term is not None
        gloss = _Terms.of(catalog).main_gloss(term)
        if item.direction == "t2g":
            options = [gloss, *_distractor_glosses(term, catalog, rng)]
            rng.shuffle(options)
            return Question(item.id, Kind.CHOICE, "t2g", term.term, tuple(options), accepted=(gloss,))
        # a gloss several terms share: each of them is right (the term asked about first)
        sharing = tuple(dict.fromkeys((term.term, *catalog.terms_sharing(gloss))))
        if item.direction == "g2t":
            options = [term.term, *_distractor_terms(term, catalog, rng)]
            rng.shuffle(options)
            return Question(item.id, Kind.CHOICE, "g2t", gloss, tuple(options), accepted=sharing)
        if item.direction == "typed":
            return Question(item.id, Kind.TYPED, "typed", gloss, accepted=(*sharing, term.normalized))
        context = term.example.text if term.example else ""
        accepted = tuple(dict.fromkeys((term.pinyin, *_readings(term.term, context))))
        return Question(item.id, Kind.TYPED, "pinyin", term.term, accepted=accepted)
    seq = item.sequence
    assert seq is not None
    start, size = item.window
    window = seq.elements[start : start + size]
    if item.direction == "next":
        here, after = window[0], window[1]
        others = sorted({shown(e.text) for e in seq.elements} - {shown(here.text), shown(after.text)})
        rng.shuffle(others)
        options = [shown(after.text), *others[: OPTIONS - 1]]
        rng.shuffle(options)
        return Question(
            item.id,
            Kind.CHOICE,
            "next",
            shown(here.text),
            tuple(options),
            accepted=(shown(after.text),),
            modern=(after.modern,),
        )
    positions = list(range(len(window)))
    while len(positions) > 1 and positions == sorted(positions):
        rng.shuffle(positions)
    return Question(
        item.id,
        Kind.ORDER,
        item.direction,
        seq.title,
        items=tuple(shown(window[p].text) for p in positions),
        positions=tuple(positions),
        right_order=tuple(shown(e.text) for e in window),
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
