"""How much study a package asks for: days to introduce it and daily review minutes later on.

A simple, deterministic simulation (an estimate, not a forecast of one learner):

- new cards come :data:`NEW_PER_DAY` a day (Anki's default), in the package's order;
- a card is reviewed again 1, 3, 7, 16, 35, 75, 160 … days after it is introduced (intervals
  growing about 2.2× a review, roughly what Anki's FSRS or SM-2 give at 90 % retention after
  "Good" answers), and :data:`LAPSE_RATE` of the reviews are forgotten and cost one more review
  the next day;
- a review takes :data:`SECONDS_PER_REVIEW` seconds.

The minutes "after N days" are the mean of days N-6 … N (a week), while new cards still come.
"""

from __future__ import annotations

from dataclasses import dataclass

NEW_PER_DAY = 20
SECONDS_PER_REVIEW = 8.0
LAPSE_RATE = 0.1
OFFSETS = (1, 3, 7, 16, 35, 75, 160, 350)  # days after the introduction


@dataclass(frozen=True)
class Load:
    cards: int
    days: int  # days to introduce every card at NEW_PER_DAY
    minutes: dict[int, float]  # day → daily review minutes (mean of the week before)


def study_load(cards: int, at: tuple[int, ...] = (30, 90), per_day: int = NEW_PER_DAY) -> Load:
    """The load of ``cards`` new cards (see the module's description)."""
    days = -(-cards // per_day) if cards else 0
    horizon = max(at) + 1
    reviews = [0.0] * (horizon + 1)
    for d in range(min(days, horizon)):
        new = min(per_day, cards - d * per_day)
        for off in OFFSETS:
            if d + off <= horizon:
                reviews[d + off] += new * (1 + LAPSE_RATE)
    minutes = {n: sum(reviews[max(n - 6, 0) : n + 1]) / 7 * SECONDS_PER_REVIEW / 60 for n in at}
    return Load(cards, days, minutes)
