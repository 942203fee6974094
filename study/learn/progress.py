"""A learner's progress, pure: per-rite counts, a 7-day forecast, accuracy history, and the rite
timeline coloured by mastery."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta, tzinfo

import fsrs

from ..decks.items import stage_sequence
from ..model import Document
from .agenda import DEFAULT_ZONE, MASTERED_DAYS, CardRow, day_start
from .catalog import QuizItem, family_of_id


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
    """Graduated to review with an FSRS stability of at least 21 days: the memory is expected to
    hold (90 % recall) three weeks on — not merely answered once today."""
    stability = row.card.stability
    return row.card.state == fsrs.State.Review and stability is not None and stability >= MASTERED_DAYS


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


def _local_day(moment: datetime, zone: tzinfo) -> datetime:
    """The learner's day ``moment`` falls in, as its local start (4 a.m. in ``zone``)."""
    return day_start(moment, zone).astimezone(zone)


def forecast(
    known: dict[str, CardRow], now: datetime, zone: tzinfo = DEFAULT_ZONE, days: int = 7
) -> list[tuple[datetime, int]]:
    """How many cards fall due on each of the learner's next ``days`` days (today includes
    overdue); each day given as its local start."""
    today = _local_day(now, zone)
    counts = [0] * days
    for row in known.values():
        index = max((_local_day(row.due, zone).date() - today.date()).days, 0)
        if index < days:
            counts[index] += 1
    return [(today + timedelta(days=d), counts[d]) for d in range(days)]


def accuracy_history(
    logs: Sequence[object], now: datetime, zone: tzinfo = DEFAULT_ZONE, days: int = 14
) -> list[tuple[datetime, int, int]]:
    """(day, answers, correct answers) for each of the learner's last ``days`` days."""
    today = _local_day(now, zone)
    answers = [0] * days
    right = [0] * days
    for log in logs:
        index = days - 1 - (today.date() - _local_day(log.reviewed_at, zone).date()).days  # type: ignore[attr-defined]
        if 0 <= index < days:
            answers[index] += 1
            right[index] += 1 if log.correct else 0  # type: ignore[attr-defined]
    return [(today - timedelta(days=days - 1 - d), answers[d], right[d]) for d in range(days)]


@dataclass(frozen=True)
class Dashboard:
    """Today at a glance: what is due, how many new items are left, the goal, the streak."""

    due: int
    new_left: dict[str, int]  # per family
    new_waiting: int  # new items not yet started
    answered_today: int
    goal: int  # answers a day
    streak: int  # consecutive days with an answer, up to today (or yesterday, before today's first)
    forecast: list[tuple[datetime, int]]


def dashboard(
    items: Sequence[QuizItem],
    known: dict[str, CardRow],
    logs: Sequence[object],
    now: datetime,
    zone: tzinfo = DEFAULT_ZONE,
    *,
    new_per_day: int = 20,
    goal: int = 20,
) -> Dashboard:
    start = day_start(now, zone)
    ids = {i.id for i in items}
    started = [r for r in known.values() if r.created_at >= start]
    families = sorted({str(i.family) for i in items})
    new_left = {f: max(new_per_day - sum(1 for r in started if family_of_id(r.item_id) == f), 0) for f in families}
    days = {_local_day(log.reviewed_at, zone).date() for log in logs}  # type: ignore[attr-defined]
    day = _local_day(now, zone).date()
    if day not in days:
        day -= timedelta(days=1)
    streak = 0
    while day in days:
        streak += 1
        day -= timedelta(days=1)
    return Dashboard(
        sum(1 for i, r in known.items() if i in ids and r.due <= now),
        new_left,
        sum(1 for i in ids if i not in known),
        sum(1 for log in logs if log.reviewed_at >= start),  # type: ignore[attr-defined]
        goal,
        streak,
        forecast({i: r for i, r in known.items() if i in ids}, now, zone),
    )


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
