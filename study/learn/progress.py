"""A learner's progress, pure: per-rite counts, a 7-day forecast, accuracy history, and the rite
timeline coloured by mastery."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

import fsrs

from ..decks.items import stage_sequence
from ..model import Document
from .catalog import QuizItem
from .schedule import MASTERED, CardRow, day_start


@dataclass(frozen=True)
class RiteProgress:
    rite: str
    total: int
    seen: int
    due: int
    mastered: int

    @property
    def mastered_share(self) -> float:
        return self.mastered / self.total if self.total else 0.0

    def to_dict(self) -> dict[str, object]:
        return {"rite": self.rite, "total": self.total, "seen": self.seen, "due": self.due, "mastered": self.mastered}


@dataclass(frozen=True)
class TimelineStage:
    stage_id: str
    name: str
    modern_name: str | None
    mastery: float | None  # mean retrievability of the stage's items; None when none seen


def retrievability(scheduler: fsrs.Scheduler, row: CardRow, now: datetime) -> float:
    return float(scheduler.get_card_retrievability(row.card, now))


def mastered(scheduler: fsrs.Scheduler, row: CardRow, now: datetime) -> bool:
    """Graduated to review and most likely recalled now (retrievability ≥ 0.9)."""
    return row.card.state == fsrs.State.Review and retrievability(scheduler, row, now) >= MASTERED


def rite_progress(
    items: Sequence[QuizItem], known: dict[str, CardRow], scheduler: fsrs.Scheduler, now: datetime
) -> list[RiteProgress]:
    by_rite: dict[str, list[QuizItem]] = defaultdict(list)
    for item in items:
        by_rite[item.rite].append(item)
    out = []
    for rite, its in by_rite.items():
        rows = [known[i.id] for i in its if i.id in known]
        out.append(
            RiteProgress(
                rite,
                len(its),
                len(rows),
                sum(1 for r in rows if r.due <= now),
                sum(1 for r in rows if mastered(scheduler, r, now)),
            )
        )
    return out


def forecast(known: dict[str, CardRow], now: datetime, days: int = 7) -> list[tuple[datetime, int]]:
    """How many cards fall due on each of the next ``days`` days (today includes overdue)."""
    start = day_start(now)
    counts = [0] * days
    for row in known.values():
        index = max((row.due - start).days, 0)
        if index < days:
            counts[index] += 1
    return [(start + timedelta(days=d), counts[d]) for d in range(days)]


def accuracy_history(logs: Sequence[object], now: datetime, days: int = 14) -> list[tuple[datetime, int, int]]:
    """(day, answers, correct answers) for each of the last ``days`` days."""
    start = day_start(now) - timedelta(days=days - 1)
    answers = [0] * days
    right = [0] * days
    for log in logs:
        index = (day_start(log.reviewed_at) - start).days  # type: ignore[attr-defined]
        if 0 <= index < days:
            answers[index] += 1
            right[index] += 1 if log.correct else 0  # type: ignore[attr-defined]
    return [(start + timedelta(days=d), answers[d], right[d]) for d in range(days)]


def timeline(
    doc: Document,
    rite_name: str,
    items: Sequence[QuizItem],
    known: dict[str, CardRow],
    scheduler: fsrs.Scheduler,
    now: datetime,
) -> list[TimelineStage]:
    """The named stages of a rite in order, each with the mean retrievability of its items."""
    rite = doc.rite(rite_name)
    if rite is None:
        return []
    per_stage: dict[str, list[float]] = defaultdict(list)
    for item in items:
        if item.rite == rite_name and item.stage_id and item.id in known:
            per_stage[item.stage_id].append(retrievability(scheduler, known[item.id], now))
    out = []
    for element in stage_sequence(rite).elements:
        values = per_stage.get(element.id)
        out.append(
            TimelineStage(element.id, element.text, element.modern, sum(values) / len(values) if values else None)
        )
    return out
