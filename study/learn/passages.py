"""Passage items of the quiz, pure: a passage's classical text ↔ its modern translation (choices
among neighbouring passages of the same rite), and cloze deletions of the glossed terms in it
(typed, each blank followed by the hint its Anki cloze shows; a term no blank of which has one
is not asked) — the web's counterpart of the decks' passage and cloze cards (:mod:`study.decks.items`)."""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence

from ..decks.blankhints import occurrence_hint
from ..decks.items import PassageItem, cloze_terms, passage_items
from ..decks.markup import find_all
from ..model import Document, Rite, Term
from ..text.display import shown
from ..text.normalize import normalize

MAX_CHOICE_CHARS = 120  # a passage longer than this is no option to read on a phone
CLOZES_PER_PASSAGE = 2
BLANK = "＿＿"


def rite_passages(
    doc: Document, rite: Rite, terms: Sequence[Term], stages: Collection[str] | None
) -> list[PassageItem]:
    """The passages of ``rite`` (of the chosen stages) that a question can be made of."""
    return [
        p
        for p in passage_items(doc, rite, terms)
        if (stages is None or p.stage.id in stages) and len(p.passage.text) <= MAX_CHOICE_CHARS
    ]


def translated(p: PassageItem) -> bool:
    return bool(p.passage.translation and p.passage.translation.strip())


def clozes(p: PassageItem) -> tuple[Term, ...]:
    """The terms blanked out of a passage, one question each."""
    return cloze_terms(normalize(p.passage.text), p.terms, max_terms=CLOZES_PER_PASSAGE)


def blanks(text: str, term: Term) -> list[int]:
    """Where (normalised index) ``text`` holds ``term``, written in any form: the blanks of its
    cloze, none overlapping."""
    return [start for start, _ in find_all(text, term.normalized)]


def blank_hints(p: PassageItem, term: Term, shared: Mapping[str, frozenset[str]]) -> tuple[str, ...]:
    """The hint of each blank of ``term`` in the passage (:func:`blanks`), as its Anki cloze shows
    it (:func:`~study.decks.blankhints.occurrence_hint`; ``shared``: the glosses of the passage's
    text, :func:`~study.decks.clozehints.shared_glosses`); empty where a blank has none."""
    text, stage = p.passage.text, p.stage.id
    return tuple(occurrence_hint(term, text, at, p.rite, stage, shared) for at in blanks(text, term))


def blanked(text: str, term: Term, hints: Sequence[str] = ()) -> str:
    """``text`` as shown, each occurrence of the term (as written or normalised) a blank, each
    followed by its hint (``hints``, one per blank, in order) in brackets: 「＿＿（主～也）盥…」."""
    out, pos = [], 0
    for k, at in enumerate(blanks(text, term)):
        hint = hints[k] if k < len(hints) else ""
        out += [shown(text[pos:at]), BLANK + (f"（{hint}）" if hint else "")]
        pos = at + len(term.normalized)
    return "".join(out) + shown(text[pos:])


def neighbours(p: PassageItem, pool: Sequence[PassageItem], n: int) -> list[PassageItem]:
    """Up to ``n`` other passages of the rite, nearest in the text first (same stage first)."""
    place = {q.id: k for k, q in enumerate(pool)}
    here = place.get(p.id, 0)
    others = [q for q in pool if q.id != p.id]
    others.sort(key=lambda q: (q.stage.id != p.stage.id, abs(place[q.id] - here)))
    return others[:n]
