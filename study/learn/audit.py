"""Audit a review store after a load or a crash: what clients were told against what was kept.

Checks, on the database itself:

- every acknowledged answer (a client received HTTP 200 for its ``answer_id``) is logged exactly
  once, with the response the client received;
- no answer is logged that was not acknowledged, except answers whose outcome the client never
  learnt (a dropped connection, a 5xx, a timeout); an answer refused with a 4xx is not logged;
- each card's ``reps`` is its number of logs, its logs are in time order, and the stored FSRS
  card equals a fresh card reviewed again with the logged ratings and times, in that order.

The replay must use the app's scheduler settings, with fuzzing off (``STUDY_FSRS_FUZZING=0``).
"""

from __future__ import annotations

import json
from collections import defaultdict
from collections.abc import Mapping, Sequence, Set
from dataclasses import dataclass, field

import fsrs
import sqlalchemy as sa
from sqlalchemy.engine import Engine

from .db import cards, learners, review_logs

Key = tuple[str, str]  # (learner name, answer_id)


@dataclass
class AuditReport:
    acknowledged: int = 0
    logs: int = 0
    cards: int = 0
    unsure_logged: int = 0  # answers with an unknown outcome that the server did count
    unsure_lost: int = 0  # answers with an unknown outcome that the server did not count
    problems: list[str] = field(default_factory=list)

    @property
    def ok(self) -> bool:
        return not self.problems

    def summary(self) -> str:
        head = (
            f"{self.acknowledged} acknowledged answers, {self.logs} review logs, {self.cards} cards; "
            f"unknown outcome: {self.unsure_logged} counted, {self.unsure_lost} not counted"
        )
        if self.ok:
            return f"audit OK: {head}"
        shown = "\n  ".join(self.problems[:20])
        more = f"\n  … and {len(self.problems) - 20} more" if len(self.problems) > 20 else ""
        return f"audit FAILED ({len(self.problems)} problems): {head}\n  {shown}{more}"


def replay(scheduler: fsrs.Scheduler, logs: Sequence[sa.Row]) -> fsrs.Card:
    """A fresh card reviewed with ``logs``' ratings at their times, in the given order."""
    card = fsrs.Card(card_id=0, due=logs[0].reviewed_at)
    for log in logs:
        card, _ = scheduler.review_card(card, fsrs.Rating(log.rating), log.reviewed_at, log.duration_ms)
    return card


def _card_problems(
    where: str, stored: fsrs.Card, row: sa.Row, logs: Sequence[sa.Row], expected: fsrs.Card
) -> list[str]:
    out = []
    if row.reps != len(logs):
        out.append(f"{where}: reps {row.reps} but {len(logs)} logs")
    for name in ("state", "step", "stability", "difficulty", "due", "last_review"):
        mine, theirs = getattr(stored, name), getattr(expected, name)
        if mine != theirs:
            out.append(f"{where}: {name} {mine!r} stored, {theirs!r} replayed")
    if row.due != stored.due:
        out.append(f"{where}: column due {row.due} but the card says {stored.due}")
    times = [log.reviewed_at for log in logs]
    if times != sorted(times):  # then a replay by time (reschedule_card) gives another card
        out.append(f"{where}: reviews logged out of time order: {[t.isoformat() for t in times]}")
    if row.last_review != logs[-1].reviewed_at:
        out.append(f"{where}: last_review {row.last_review} but the last log is at {logs[-1].reviewed_at}")
    return out


def audit_reviews(
    engine: Engine,
    scheduler: fsrs.Scheduler,
    acknowledged: Mapping[Key, object],
    *,
    unsure: Set[Key] = frozenset(),
    rejected: Set[Key] = frozenset(),
) -> AuditReport:
    """Check the database behind ``engine`` against what its clients were told.

    Args:
        acknowledged: the JSON body of each HTTP 200 answer, by (learner name, answer_id).
        unsure: answers sent whose outcome the client never learnt.
        rejected: answers refused with a 4xx.
    """
    report = AuditReport(acknowledged=len(acknowledged))
    problems = report.problems
    with engine.connect() as conn:
        names = dict(conn.execute(sa.select(learners.c.id, learners.c.name)).all())
        log_rows = conn.execute(sa.select(review_logs).order_by(review_logs.c.id)).all()
        card_rows = conn.execute(sa.select(cards)).all()
    report.logs, report.cards = len(log_rows), len(card_rows)

    logged: dict[Key, list[sa.Row]] = defaultdict(list)
    by_card: dict[tuple[int, str], list[sa.Row]] = defaultdict(list)
    for log in log_rows:
        by_card[(log.learner_id, log.item_id)].append(log)
        if log.answer_id is None:
            problems.append(f"log {log.id}: no answer_id, so no client was told about it")
        else:
            logged[(names[log.learner_id], log.answer_id)].append(log)

    for key, body in acknowledged.items():
        found = logged.get(key, [])
        if len(found) != 1:
            problems.append(f"{key}: acknowledged, logged {len(found)} times")
        elif json.loads(found[0].result_json or "null") != body:
            problems.append(f"{key}: the client was told {body!r}, the log keeps {found[0].result_json}")
    for key, found in logged.items():
        if key in acknowledged:
            continue
        if key in rejected:
            problems.append(f"{key}: refused with a 4xx, yet logged")
        elif key in unsure:
            report.unsure_logged += 1
        else:
            problems.append(f"{key}: logged {len(found)} times, never sent or acknowledged")
    report.unsure_lost = len({k for k in unsure if k not in logged and k not in acknowledged})

    for row in card_rows:
        where = f"card ({names[row.learner_id]}, {row.item_id})"
        logs = by_card.pop((row.learner_id, row.item_id), [])
        if not logs:  # a card is only ever written together with a review
            problems.append(f"{where}: reps {row.reps} but no logs")
            continue
        stored = fsrs.Card.from_json(row.card_json)
        problems.extend(_card_problems(where, stored, row, logs, replay(scheduler, logs)))
    for (learner_id, item_id), logs in by_card.items():
        problems.append(f"({names[learner_id]}, {item_id}): {len(logs)} logs but no card")
    return report
