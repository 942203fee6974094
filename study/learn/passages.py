"""Passage items of the quiz, pure: a passage's classical text ↔ its modern translation (choices
among neighbouring passages of the same rite), and cloze deletions of the glossed terms in it
(typed) — the web's counterpart of the decks' passage and cloze cards (:mod:`study.decks.items`)."""

from __future__ import annotations

from collections.abc import Collection, Sequence

from ..decks.items import PassageItem, cloze_terms, passage_items
from ..model import Document, Rite, Term
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


def blanked(text: str, term: Term) -> str:
    """``text`` with the term (as written or normalised) replaced by a blank wherever it stands."""
    out = text.replace(term.term, BLANK)
    if out == text:  # written in another form: blank by position in the normalised text
        key, at = normalize(text), normalize(text).find(term.normalized)
        if at >= 0 and len(key) == len(text):
            out = text[:at] + BLANK + text[at + len(term.normalized) :]
    return out


def neighbours(p: PassageItem, pool: Sequence[PassageItem], n: int) -> list[PassageItem]:
    """Up to ``n`` other passages of the rite, nearest in the text first (same stage first)."""
    place = {q.id: k for k, q in enumerate(pool)}
    here = place.get(p.id, 0)
    others = [q for q in pool if q.id != p.id]
    others.sort(key=lambda q: (q.stage.id != p.stage.id, abs(place[q.id] - here)))
    return others[:n]
