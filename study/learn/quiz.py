"""Quiz questions and grading, pure: a :class:`Question` is one presentation of a catalog item
(options shuffled by a seeded ``random.Random``), stored until the learner answers, so that grading
uses exactly what was shown. The wrong options are drawn by study/learn/distractors.py.
"""

from __future__ import annotations

import random
from collections import defaultdict
from dataclasses import dataclass
from functools import lru_cache

from ..terms.reading import readings_in
from ..terms.senses import gloss_prompt
from ..text.display import shown
from .catalog import ORDER_MODES, Catalog, Family, Kind, QuizItem
from .distractors import OPTIONS, _distractor_glosses, _distractor_terms, _passage_options, _Terms
from .grading import OrderMode, RatingName, grade_order, rating_for, typed_matches
from .passages import blanked


# Presenting a question again (to show it, then to grade the answer against the same shuffle)
# reads the same words again: a pure function of the book's text, remembered for the texts seen.
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


def _present_passage(item: QuizItem, catalog: Catalog, rng: random.Random) -> Question:
    """Classical → translation or translation → classical (options from neighbouring passages
    with another text), or a cloze: the passage with the term blanked, each blank followed by its
    hint (as its Anki cloze shows it), typed."""
    p = item.passage
    assert p is not None
    if item.direction == "cloze":
        term = item.term
        assert term is not None
        shown_text = blanked(p.passage.text, term, catalog.hints.get(item.id, ()))
        return Question(item.id, Kind.TYPED, "cloze", shown_text, accepted=(term.term, term.normalized))
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
        # a gloss several terms share: each of them is right (the term asked about first); the
        # prompt masks them (士即衆賔 asks 衆賔 as 士即～), a term the gloss names stays shown
        clue, sharing = gloss_prompt(term.term, gloss, catalog.terms_sharing(gloss))
        if item.direction == "t2g" or (clue is None and item.direction in ("g2t", "typed")):
            # (a gloss that would answer its gloss→term question, 結于胸前 of 結于面, is not asked
            # that way round: the learner is asked what the term means)
            options = [gloss, *_distractor_glosses(term, catalog, rng)]
            rng.shuffle(options)
            return Question(item.id, Kind.CHOICE, "t2g", term.term, tuple(options), accepted=(gloss,))
        if item.direction == "g2t":
            options = [term.term, *_distractor_terms(term, catalog, rng)]
            rng.shuffle(options)
            return Question(item.id, Kind.CHOICE, "g2t", clue, tuple(options), accepted=sharing)
        if item.direction == "typed":
            return Question(item.id, Kind.TYPED, "typed", clue, accepted=(*sharing, term.normalized))
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
