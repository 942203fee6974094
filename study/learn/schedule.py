"""Scheduling with FSRS: one card per learner and item, stored as JSON, with review logs.

All datetimes are UTC-aware. Each answer is one transaction: the card row is read under a lock
(SELECT … FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE on SQLite), reviewed, written back and the
review logged together, so two answers to the same item arriving at once both count.
"""

from __future__ import annotations

import json
import re
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import fsrs
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from ..errors import StudyError
from .catalog import QuizItem
from .db import cards, classes, learners, questions, reading, review_logs
from .grading import RatingName
from .quiz import Question

RATINGS = {
    RatingName.AGAIN: fsrs.Rating.Again,
    RatingName.HARD: fsrs.Rating.Hard,
    RatingName.GOOD: fsrs.Rating.Good,
    RatingName.EASY: fsrs.Rating.Easy,
}
MASTERED = 0.9  # retrievability at which an item counts as mastered
NAME_RE = re.compile(r"^[^\x00-\x1f<>]{1,40}$")


class SignInError(StudyError):
    """A bad learner name."""


class UnknownClassError(StudyError):
    """A class code that no class has."""


@dataclass(frozen=True)
class Learner:
    id: int
    name: str
    class_id: int | None


@dataclass(frozen=True)
class CardRow:
    item_id: str
    card: fsrs.Card
    due: datetime
    reps: int
    created_at: datetime


@dataclass(frozen=True)
class Agenda:
    """What choosing a learner's next item needs of their cards, read without parsing them."""

    seen: frozenset[str]  # items the learner has a card for
    # items due now, each with a key that sorts as its due time does (the datetime, or as read
    # from the database: SQLite's fixed-width text, so ~300 rows need no datetime parsing)
    due: dict[str, Any]
    started_today: int  # cards first reviewed since UTC midnight

    @classmethod
    def of(cls, known: dict[str, CardRow], now: datetime) -> Agenda:
        start = day_start(now)
        return cls(
            frozenset(known),
            {i: c.due for i, c in known.items() if c.due <= now},
            sum(1 for c in known.values() if c.created_at >= start),
        )


# The reads every request makes, built once: SQLAlchemy then reuses their compiled form without
# rebuilding the statement and its cache key on each call.
_LEARNER = sa.select(learners).where(learners.c.id == sa.bindparam("learner_id"))
_QUESTION = sa.select(questions).where(
    (questions.c.learner_id == sa.bindparam("learner_id")) & (questions.c.item_id == sa.bindparam("item_id"))
)
_SEEN = sa.select(
    sa.func.aggregate_strings(cards.c.item_id, "\x1f"),
    sa.func.count(sa.case((cards.c.created_at >= sa.bindparam("start", type_=cards.c.created_at.type), 1))),
).where(cards.c.learner_id == sa.bindparam("learner_id"))
_DUE = sa.select(cards.c.item_id, sa.type_coerce(cards.c.due, sa.String)).where(
    (cards.c.learner_id == sa.bindparam("learner_id")) & (cards.c.due <= sa.bindparam("now", type_=cards.c.due.type))
)


def _insert_ignore(conn: Connection, table: sa.Table, keys: Sequence[str], **values: object) -> None:
    """INSERT … ON CONFLICT DO NOTHING, so that two requests creating the same row both succeed."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(dialect.insert(table).values(**values).on_conflict_do_nothing(index_elements=list(keys)))


def make_scheduler(desired_retention: float = 0.9, *, fuzzing: bool = True) -> fsrs.Scheduler:
    return fsrs.Scheduler(desired_retention=desired_retention, enable_fuzzing=fuzzing)


def day_start(now: datetime) -> datetime:
    return now.astimezone(UTC).replace(hour=0, minute=0, second=0, microsecond=0)


class ReviewStore:
    """Learners, their FSRS cards and review logs, in one database."""

    def __init__(self, engine: Engine, scheduler: fsrs.Scheduler) -> None:
        self.engine = engine
        self.scheduler = scheduler

    # --- learners -------------------------------------------------------------------------
    def sign_in(self, name: str, class_code: str | None, now: datetime) -> Learner:
        """The learner called ``name`` (created on first sign-in), joined to the class if given."""
        if len(name) > 40 or not NAME_RE.match(name.strip()):
            raise SignInError("a name is 1 to 40 characters, without < or >")
        name = name.strip()
        with self.engine.begin() as conn:
            class_id = None
            if class_code:
                class_id = conn.execute(
                    sa.select(classes.c.id).where(classes.c.code == class_code.strip().upper())
                ).scalar()
                if class_id is None:
                    raise UnknownClassError(f"unknown class code {class_code.strip()!r}")
            _insert_ignore(conn, learners, ["name"], name=name, class_id=class_id, created_at=now)
            row = conn.execute(sa.select(learners).where(learners.c.name == name)).one()
            if class_id is not None and row.class_id != class_id:
                conn.execute(learners.update().where(learners.c.id == row.id).values(class_id=class_id))
            return Learner(row.id, row.name, class_id if class_id is not None else row.class_id)

    def learner(self, learner_id: int) -> Learner | None:
        with reading(self.engine) as conn:
            row = conn.execute(_LEARNER, {"learner_id": learner_id}).first()
        return Learner(row.id, row.name, row.class_id) if row else None

    # --- questions ------------------------------------------------------------------------
    def save_question(self, learner_id: int, question: Question, now: datetime) -> None:
        data = json.dumps(question.to_dict(), ensure_ascii=False)
        with self.engine.begin() as conn:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            stmt = dialect.insert(questions).values(
                learner_id=learner_id, item_id=question.item_id, question_json=data, presented_at=now
            )
            conn.execute(
                stmt.on_conflict_do_update(
                    index_elements=["learner_id", "item_id"],
                    set_={"question_json": stmt.excluded.question_json, "presented_at": stmt.excluded.presented_at},
                )
            )

    def question(self, learner_id: int, item_id: str) -> tuple[Question, datetime] | None:
        with reading(self.engine) as conn:
            row = conn.execute(_QUESTION, {"learner_id": learner_id, "item_id": item_id}).first()
        if row is None:
            return None
        return Question.from_dict(json.loads(row.question_json)), row.presented_at

    # --- reviews --------------------------------------------------------------------------
    def record(
        self,
        learner_id: int,
        item_id: str,
        rating: RatingName,
        *,
        score: float,
        correct: bool,
        answer: object,
        now: datetime,
        duration_ms: int | None = None,
        answer_id: str | None = None,
        describe: Callable[[fsrs.Card], dict[str, object]] | None = None,
    ) -> fsrs.Card:
        """Review the learner's card for ``item_id`` and log it, in one transaction.

        ``describe(card)`` gives the response to the answer, logged with it: a retry of the same
        ``answer_id`` gets that response back (see :meth:`logged_result`) and is not reviewed twice —
        two concurrent retries fail on the unique key (``learner_id``, ``answer_id``) and roll back.
        """
        with self.engine.begin() as conn:
            key = (cards.c.learner_id == learner_id) & (cards.c.item_id == item_id)
            # Make sure the row exists, then lock it: a second answer to the item waits for this one.
            _insert_ignore(
                conn,
                cards,
                ["learner_id", "item_id"],
                learner_id=learner_id,
                item_id=item_id,
                # an explicit id: fsrs.Card() takes one from the clock and then sleeps 1 ms to keep
                # ids apart, here inside the write lock; our cards are told apart by (learner, item)
                card_json=fsrs.Card(card_id=int(now.timestamp() * 1000)).to_json(),
                due=now,
                reps=0,
                created_at=now,
            )
            query = sa.select(cards).where(key)
            if conn.dialect.name != "sqlite":
                query = query.with_for_update()
            row = conn.execute(query).one()
            if row.last_review is not None and row.last_review > now:
                # a later answer to this card (another tab) took the lock first: log this one after
                # it, so that the logs' times keep the order the card was reviewed in
                now = row.last_review
            card = fsrs.Card.from_json(row.card_json)
            card, log = self.scheduler.review_card(card, RATINGS[rating], now, duration_ms)
            values = {"card_json": card.to_json(), "due": card.due, "last_review": now}
            conn.execute(cards.update().where(key).values(reps=row.reps + 1, **values))
            result = describe(card) if describe is not None else None
            conn.execute(
                review_logs.insert().values(
                    learner_id=learner_id,
                    item_id=item_id,
                    rating=int(log.rating),
                    score=score,
                    correct=correct,
                    reviewed_at=now,
                    duration_ms=duration_ms,
                    answer_json=json.dumps(answer, ensure_ascii=False),
                    answer_id=answer_id,
                    result_json=json.dumps(result, ensure_ascii=False) if result is not None else None,
                )
            )
        return card

    def logged_result(self, learner_id: int, answer_id: str) -> dict[str, object] | None:
        """The result already given for this answer id, if the answer was logged."""
        with reading(self.engine) as conn:
            row = conn.execute(
                sa.select(review_logs.c.result_json).where(
                    (review_logs.c.learner_id == learner_id) & (review_logs.c.answer_id == answer_id)
                )
            ).first()
        return json.loads(row.result_json) if row and row.result_json else None

    def cards(self, learner_id: int) -> dict[str, CardRow]:
        with reading(self.engine) as conn:
            rows = conn.execute(sa.select(cards).where(cards.c.learner_id == learner_id)).all()
        return {
            r.item_id: CardRow(r.item_id, fsrs.Card.from_json(r.card_json), r.due, r.reps, r.created_at) for r in rows
        }

    def agenda(self, learner_id: int, now: datetime) -> Agenda:
        """The learner's :class:`Agenda` in two queries (the ids as one string, and the due
        cards) instead of loading and parsing every card as :meth:`cards` does."""
        with reading(self.engine) as conn:
            ids, today = conn.execute(_SEEN, {"learner_id": learner_id, "start": day_start(now)}).one()
            due = conn.execute(_DUE, {"learner_id": learner_id, "now": now}).all()
        return Agenda(frozenset(ids.split("\x1f") if ids else ()), dict(due), today)  # type: ignore[arg-type]

    def logs(self, learner_id: int) -> list[sa.Row]:
        with reading(self.engine) as conn:
            return list(
                conn.execute(
                    sa.select(review_logs).where(review_logs.c.learner_id == learner_id).order_by(review_logs.c.id)
                ).all()
            )


def pick_next(items: Sequence[QuizItem], agenda: Agenda, *, new_limit: int) -> QuizItem | None:
    """Due items first (the most overdue first), then new items in the text's order, at most
    ``new_limit`` new items a day (UTC)."""
    due = [(agenda.due[i.id], i.sort_key, i) for i in items if i.id in agenda.due]
    if due:
        return min(due, key=lambda t: (t[0], t[1]))[2]
    if agenda.started_today >= new_limit:
        return None
    return next((i for i in items if i.id not in agenda.seen), None)


def next_due(items: Iterable[QuizItem], known: dict[str, CardRow], now: datetime) -> datetime:
    """When something is next due: the earliest card, or tomorrow when new items are waiting."""
    ids = {i.id for i in items}
    dues = [c.due for c in known.values() if c.item_id in ids]
    tomorrow = day_start(now) + timedelta(days=1)
    waiting_new = any(i not in known for i in ids)
    candidates = dues + ([tomorrow] if waiting_new else [])
    return min(candidates) if candidates else tomorrow
