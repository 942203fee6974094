"""The order of new cards: the text, stage by stage, under Anki's default deck options.

Anki's defaults (new cards/day 20, gather order "Deck", sort order "Card type, then order
gathered", bury siblings off) take a deck's new cards by their position (``due``). All cards of a
rite are in one deck (:func:`.notedata.rite_deck`), so the positions alone decide what a learner
meets, and in what order:

1. per stage, in text order: the 词→义 notes of the terms first met in the stage, then per unit of
   its passages the 经→译 note and the cloze that blanks those terms, then the windows of the
   stage's step order; a window of the rite's stage order comes after the last stage it asks;
2. a "later" note (义→词, 译→经: the same fact asked the other way round) comes only once at least
   :data:`DAY` new cards have come after its first note, so the two never fall on one day when
   the learner takes the day's 20 new cards.
"""

from __future__ import annotations

from collections import deque
from collections.abc import Sequence
from dataclasses import replace

from .notedata import NoteData

DAY = 20  # Anki's default new cards per day


def schedule(notes: Sequence[NoteData], day: int = DAY) -> list[NoteData]:
    """``notes`` in the order new cards should come, each with its 1-based ``due`` position.

    Each deck is ordered on its own (Anki gathers deck by deck); decks follow the text.
    """
    decks: dict[str, list[NoteData]] = {}
    for n in sorted(notes, key=lambda n: n.order):
        decks.setdefault(n.deck, []).append(n)
    out = [n for group in decks.values() for n in _deck_order(group, day)]
    return [replace(n, due=i) for i, n in enumerate(out, 1)]


def _deck_order(notes: Sequence[NoteData], day: int) -> list[NoteData]:
    main = sorted((n for n in notes if n.later_than is None), key=lambda n: n.order)
    later: dict[str, list[NoteData]] = {}
    for n in sorted((n for n in notes if n.later_than is not None), key=lambda n: n.order):
        later.setdefault(n.later_than or "", []).append(n)
    out: list[NoteData] = []
    waiting: deque[tuple[int, NoteData]] = deque()  # (cards placed when its first note came, note)
    placed = 0
    for n in main:
        while waiting and placed - waiting[0][0] >= day:
            out.append(waiting.popleft()[1])
            placed += out[-1].cards
        out.append(n)
        placed += n.cards
        for r in later.pop(n.fact, []):
            waiting.append((placed, r))
    out += [n for _, n in waiting]
    for rest in later.values():  # a later note whose first note the deck does not hold
        out += rest
    return out
