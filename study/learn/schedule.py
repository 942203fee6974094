"""Scheduling with FSRS: one card per learner and item, stored as JSON, with review logs.

All datetimes are UTC-aware. :class:`ReviewStore` is the store the app and the CLI hold: learners
and their introductions here, the reads of their cards (the agenda, logs) from
study/learn/cardreads.py, answers and ratings from study/learn/reviewing.py, where each answer is
one transaction: the card row is read under a lock (SELECT … FOR UPDATE on PostgreSQL, BEGIN
IMMEDIATE on SQLite), reviewed, written back and the review logged together, so two answers to
the same item arriving at once both count.
"""

from __future__ import annotations

from collections.abc import Sequence
from datetime import datetime

import fsrs
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from .accounts import Accounts, Learner, SignInError, UnknownClassError
from .agenda import MASTERED_DAYS, Agenda, CardRow, day_start, next_due, pick_next
from .cardreads import DUE_FIRST, CardReads
from .db import intros, sqlite_file
from .readers import ReadConnections
from .reviewing import RATINGS, AlreadyRatedError, Review, Reviewing
from .writers import WriteQueue

__all__ = [
    "DUE_FIRST",
    "MASTERED_DAYS",
    "RATINGS",
    "Agenda",
    "AlreadyRatedError",
    "CardRow",
    "Learner",
    "Review",
    "ReviewStore",
    "SignInError",
    "UnknownClassError",
    "day_start",
    "next_due",
    "pick_next",
]


def _insert_ignore(conn: Connection, table: sa.Table, keys: Sequence[str], **values: object) -> None:
    """INSERT … ON CONFLICT DO NOTHING, so that two requests creating the same row both succeed."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(dialect.insert(table).values(**values).on_conflict_do_nothing(index_elements=list(keys)))


def make_scheduler(desired_retention: float = 0.9, *, fuzzing: bool = True) -> fsrs.Scheduler:
    return fsrs.Scheduler(desired_retention=desired_retention, enable_fuzzing=fuzzing)


class ReviewStore(CardReads, Reviewing):
    """Learners, their FSRS cards and review logs, in one database."""

    def __init__(self, engine: Engine, scheduler: fsrs.Scheduler) -> None:
        self.engine = engine
        self.scheduler = scheduler
        self.accounts = Accounts(engine)
        # answers to a SQLite file wait for their turn on a lock that wakes them (writers.py)
        self.writers = WriteQueue(sqlite_file(engine.url.render_as_string(hide_password=False)))
        # a request's read connection kept for the next request (SQLite files: readers.py)
        self.readers = ReadConnections(engine)

    # --- learners -------------------------------------------------------------------------
    def sign_in(
        self,
        name: str,
        class_code: str | None,
        now: datetime,
        *,
        password: str | None = None,
        time_zone: str | None = None,
    ) -> Learner:
        """See :meth:`Accounts.sign_in` (``password=None`` acts for the learner without one)."""
        return self.accounts.sign_in(name, password, class_code, now, time_zone=time_zone)

    def learner(self, learner_id: int) -> Learner | None:
        return self.accounts.learner(learner_id)

    # --- introductions ----------------------------------------------------------------------
    def introduce(self, learner_id: int, fact: str, now: datetime) -> None:
        with self.engine.begin() as conn:
            _insert_ignore(conn, intros, ["learner_id", "fact"], learner_id=learner_id, fact=fact, seen_at=now)
