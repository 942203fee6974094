"""Scheduling with FSRS: one card per learner and item, stored as JSON, with review logs.

All datetimes are UTC-aware. Each answer is one transaction: the card row is read under a lock
(SELECT … FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE on SQLite), reviewed, written back and the
review logged together, so two answers to the same item arriving at once both count.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator, Sequence
from contextlib import contextmanager, nullcontext
from dataclasses import dataclass, replace
from datetime import datetime, tzinfo

import fsrs
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from .accounts import Accounts, Learner, SignInError, UnknownClassError
from .agenda import DEFAULT_ZONE, MASTERED_DAYS, Agenda, CardRow, day_start, next_due, pick_next
from .db import READ_ONLY, cards, intros, reading, review_logs, sqlite_file
from .grading import RatingName
from .prepared import Prepared
from .readers import ReadConnections
from .writers import WriteQueue

__all__ = [
    "MASTERED_DAYS",
    "Agenda",
    "CardRow",
    "Learner",
    "ReviewStore",
    "SignInError",
    "UnknownClassError",
    "day_start",
    "next_due",
    "pick_next",
]

RATINGS = {
    RatingName.AGAIN: fsrs.Rating.Again,
    RatingName.HARD: fsrs.Rating.Hard,
    RatingName.GOOD: fsrs.Rating.Good,
    RatingName.EASY: fsrs.Rating.Easy,
}


class AlreadyRatedError(ValueError):
    """A self-rating for an answer that is no longer the card's latest review, or above Again
    for a wrong answer."""


# The reads every request makes, built once and run as prepared statements (study.learn.prepared).
_START = sa.bindparam("start", type_=cards.c.created_at.type)
# the cards answered since the day began, and those of them first answered then (a card is made
# by its first answer): a range of the index (learner_id, last_review, created_at, item_id)
_TODAY = Prepared(
    sa.select(
        sa.func.aggregate_strings(cards.c.item_id, "\x1f"),
        sa.func.aggregate_strings(sa.case((cards.c.created_at >= _START, cards.c.item_id)), "\x1f"),
    ).where((cards.c.learner_id == sa.bindparam("learner_id")) & (cards.c.last_review >= _START))
)
_SEEN = Prepared(
    sa.select(sa.func.aggregate_strings(cards.c.item_id, "\x1f")).where(
        cards.c.learner_id == sa.bindparam("learner_id")
    )
)
_DUE_ALL = (
    sa.select(cards.c.item_id, sa.type_coerce(cards.c.due, sa.String))
    .where(
        (cards.c.learner_id == sa.bindparam("learner_id"))
        & (cards.c.due <= sa.bindparam("now", type_=cards.c.due.type))
    )
    .order_by(cards.c.due)  # the index (learner_id, due) reads them in this order
)
DUE_FIRST = 32  # due cards read at first: the most overdue (see ReviewStore.agenda)
_DUE, _DUE_FIRST = Prepared(_DUE_ALL), Prepared(_DUE_ALL.limit(DUE_FIRST))
_INTRODUCED = Prepared(
    sa.select(intros.c.fact).where(
        (intros.c.learner_id == sa.bindparam("learner_id")) & (intros.c.fact == sa.bindparam("fact"))
    )
)


# The statements of an answer, built once and prepared.
_NEW_CARD_COLUMNS = ("learner_id", "item_id", "card_json", "due", "reps", "created_at")
_NEW_CARD = tuple(
    Prepared(d.insert(cards).on_conflict_do_nothing(index_elements=["learner_id", "item_id"]), _NEW_CARD_COLUMNS)
    for d in (sqlite, postgresql)
)
_CARD_KEY = (cards.c.learner_id == sa.bindparam("k_learner")) & (cards.c.item_id == sa.bindparam("k_item"))
_CARD_ROW = sa.select(cards.c.card_json, cards.c.reps, cards.c.last_review).where(_CARD_KEY)
_CARD = (Prepared(_CARD_ROW), Prepared(_CARD_ROW.with_for_update()))
_REVIEWED = Prepared(cards.update().where(_CARD_KEY), ("card_json", "due", "last_review", "reps"))
_LOG_COLUMNS = (
    "learner_id",
    "item_id",
    "rating",
    "score",
    "correct",
    "reviewed_at",
    "duration_ms",
    "answer_json",
    "answer_id",
    "token_id",
    "class_id",
    "card_before",
    "result_json",
    "guessed",
)
_LOG = Prepared(review_logs.insert(), _LOG_COLUMNS)


def _split(text: str | None) -> frozenset[str]:
    return frozenset(text.split("\x1f")) if text else frozenset()


@contextmanager
def _writing(engine: Engine, conn: Connection | None) -> Iterator[Connection]:
    """A write transaction (SQLite: BEGIN IMMEDIATE) on ``conn``, or on a connection of the pool."""
    if conn is None:
        with engine.begin() as fresh:
            yield fresh
        return
    conn.execution_options(**{READ_ONLY: False})  # (a request's read connection now writes)
    with conn.begin():
        yield conn


def _insert_ignore(conn: Connection, table: sa.Table, keys: Sequence[str], **values: object) -> None:
    """INSERT … ON CONFLICT DO NOTHING, so that two requests creating the same row both succeed."""
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    conn.execute(dialect.insert(table).values(**values).on_conflict_do_nothing(index_elements=list(keys)))


def make_scheduler(desired_retention: float = 0.9, *, fuzzing: bool = True) -> fsrs.Scheduler:
    return fsrs.Scheduler(desired_retention=desired_retention, enable_fuzzing=fuzzing)


@dataclass(frozen=True)
class Review:
    """What one answer did to its card: the card after it, and the card before it (from which a
    self-rating reviews again)."""

    card: fsrs.Card
    before: fsrs.Card
    rating: RatingName


class ReviewStore:
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
        token_id: str | None = None,
        class_id: int | None = None,
        describe: Callable[[Review], dict[str, object]] | None = None,
        conn: Connection | None = None,
    ) -> fsrs.Card:
        """Review the learner's card for ``item_id`` and log it, in one transaction.

        ``conn``: a connection with no transaction open to write on (e.g. the request's, on which
        its session was read) instead of one from the pool; it is left open.

        ``describe(review)`` gives the response to the answer, logged with it: a retry of the same
        ``answer_id`` or ``token_id`` fails on the log's unique keys (IntegrityError), the whole
        transaction rolls back, and the caller gets the first response from :meth:`logged_result` —
        so the card is never reviewed twice and the usual answer needs no read beforehand. Until a
        card has graduated to review, an automatic Easy counts as Good: a first answer (after an
        introduction, or a lucky guess) goes through the learning steps.
        """
        key = {"k_learner": learner_id, "k_item": item_id}
        with self.writers.turn(), _writing(self.engine, conn) as conn:
            # Lock the card's row (a second answer to the item waits for this one); a first answer
            # makes it first (another answer making it at the same time: one insert does nothing).
            locked = _CARD[conn.dialect.name != "sqlite"]
            row = locked.first(conn, key)
            if row is None:
                _NEW_CARD[conn.dialect.name == "postgresql"].run(
                    conn,
                    {
                        "learner_id": learner_id,
                        "item_id": item_id,
                        # an explicit id: fsrs.Card() takes one from the clock and then sleeps 1 ms to
                        # keep ids apart, inside the write lock; our cards are told apart by (learner, item)
                        "card_json": fsrs.Card(card_id=int(now.timestamp() * 1000)).to_json(),
                        "due": now,
                        "reps": 0,
                        "created_at": now,
                    },
                )
                row = locked.first(conn, key)
            if row is None:  # pragma: no cover - made just above, or by the other answer
                raise LookupError(f"no card for {item_id!r} after making it")
            card_json, reps, last_review = row
            if last_review is not None and last_review > now:
                # a later answer to this card (another tab) took the lock first: log this one after
                # it, so that the logs' times keep the order the card was reviewed in
                now = last_review
            before = fsrs.Card.from_json(card_json)
            if rating == RatingName.EASY and before.state != fsrs.State.Review:
                rating = RatingName.GOOD
            card, log = self.scheduler.review_card(before, RATINGS[rating], now, duration_ms)
            _REVIEWED.run(
                conn, {**key, "card_json": card.to_json(), "due": card.due, "last_review": now, "reps": reps + 1}
            )
            result = describe(Review(card, before, rating)) if describe is not None else None
            _LOG.run(
                conn,
                {
                    "learner_id": learner_id,
                    "item_id": item_id,
                    "rating": int(log.rating),
                    "score": score,
                    "correct": correct,
                    "reviewed_at": now,
                    "duration_ms": duration_ms,
                    "answer_json": json.dumps(answer, ensure_ascii=False),
                    "answer_id": answer_id,
                    "token_id": token_id,
                    "class_id": class_id,
                    "card_before": card_json,
                    "result_json": json.dumps(result, ensure_ascii=False) if result is not None else None,
                    "guessed": False,
                },
            )
        return card

    def rate(
        self,
        learner_id: int,
        token_id: str,
        rating: RatingName,
        *,
        guessed: bool = False,
        describe: Callable[[Review], dict[str, object]] | None = None,
    ) -> tuple[fsrs.Card, sa.Row]:
        """The learner's own rating of an answer (Anki's again/hard/good/easy, or "guessed", which
        counts as Again): the card is reviewed again from where it was before the answer, at the
        answer's time. Only the card's latest answer can be rated; a wrong one only as Again."""
        with self.engine.begin() as conn:
            log = conn.execute(
                sa.select(review_logs).where(
                    (review_logs.c.learner_id == learner_id) & (review_logs.c.token_id == token_id)
                )
            ).first()
            if log is None or log.card_before is None:
                raise KeyError(token_id)
            later = conn.execute(
                sa.select(sa.func.count()).where(
                    (review_logs.c.learner_id == learner_id)
                    & (review_logs.c.item_id == log.item_id)
                    & (review_logs.c.id > log.id)
                )
            ).scalar()
            if later:
                raise AlreadyRatedError("this item has been answered again since")
            if not log.correct and rating != RatingName.AGAIN:
                raise AlreadyRatedError("a wrong answer can only be rated again")
            before = fsrs.Card.from_json(log.card_before)
            card, review = self.scheduler.review_card(before, RATINGS[rating], log.reviewed_at, log.duration_ms)
            key = (cards.c.learner_id == learner_id) & (cards.c.item_id == log.item_id)
            conn.execute(cards.update().where(key).values(card_json=card.to_json(), due=card.due))
            changes: dict[str, object] = {"rating": int(review.rating), "guessed": guessed}
            if describe is not None:
                changes["result_json"] = json.dumps(describe(Review(card, before, rating)), ensure_ascii=False)
            conn.execute(review_logs.update().where(review_logs.c.id == log.id).values(**changes))
        return card, log

    def logged_result(
        self, learner_id: int, *, answer_id: str | None = None, token_id: str | None = None
    ) -> dict[str, object] | None:
        """The result already given for this answer id or question token, if it was answered."""
        keys = []
        if answer_id is not None:
            keys.append(review_logs.c.answer_id == answer_id)
        if token_id is not None:
            keys.append(review_logs.c.token_id == token_id)
        if not keys:
            return None
        with reading(self.engine) as conn:
            row = conn.execute(
                sa.select(review_logs.c.result_json)
                .where((review_logs.c.learner_id == learner_id) & sa.or_(*keys))
                .order_by(review_logs.c.id)
            ).first()
        return json.loads(row.result_json) if row and row.result_json else None

    def cards(self, learner_id: int) -> dict[str, CardRow]:
        with reading(self.engine) as conn:
            rows = conn.execute(sa.select(cards).where(cards.c.learner_id == learner_id)).all()
        return {
            r.item_id: CardRow(r.item_id, fsrs.Card.from_json(r.card_json), r.due, r.reps, r.created_at) for r in rows
        }

    def agenda(
        self,
        learner_id: int,
        now: datetime,
        zone: tzinfo = DEFAULT_ZONE,
        *,
        whole: bool = False,
        conn: Connection | None = None,
    ) -> Agenda:
        """The learner's :class:`Agenda` from two small reads (today's cards, and the due ones)
        instead of loading and parsing every card as :meth:`cards` does.

        Unless ``whole``, only the :data:`DUE_FIRST` most overdue cards are read (``due_cut`` says
        whether there were more), and not the ids of every card (``seen`` is None): the next
        item is almost always a due one among them, and a learner back after weeks may have
        thousands due. :func:`pick_next` on such an agenda says when it needs the whole one
        (:meth:`whole_agenda`). On ``conn`` when given (a request's one read connection)."""
        with nullcontext(conn) if conn is not None else reading(self.engine) as c:
            reviewed, created = _TODAY.rows(c, {"learner_id": learner_id, "start": day_start(now, zone)})[0]
            due = (_DUE if whole else _DUE_FIRST).rows(c, {"learner_id": learner_id, "now": now})
            seen = _split(_SEEN.rows(c, {"learner_id": learner_id})[0][0]) if whole else None
        created_today = _split(created)
        cut = not whole and len(due) == DUE_FIRST
        return Agenda(seen, dict(due), len(created_today), created_today, _split(reviewed), due_cut=cut)  # type: ignore[arg-type]

    def whole_agenda(self, agenda: Agenda, learner_id: int, now: datetime, *, conn: Connection | None = None) -> Agenda:
        """``agenda`` (read at ``now``) made whole: the ids of every card, and every due card if
        only the most overdue were read."""
        with nullcontext(conn) if conn is not None else reading(self.engine) as c:
            seen = agenda.seen
            if seen is None:
                seen = _split(_SEEN.rows(c, {"learner_id": learner_id})[0][0])
            due = agenda.due
            if agenda.due_cut:
                due = dict(_DUE.rows(c, {"learner_id": learner_id, "now": now}))  # type: ignore[arg-type]
        return replace(agenda, seen=seen, due=due, due_cut=False)

    def introduced(self, learner_id: int, fact: str, conn: Connection | None = None) -> bool:
        """Whether the learner has read the introduction of ``fact``."""
        with nullcontext(conn) if conn is not None else reading(self.engine) as c:
            return _INTRODUCED.first(c, {"learner_id": learner_id, "fact": fact}) is not None

    def logs(self, learner_id: int) -> list[sa.Row]:
        with reading(self.engine) as conn:
            return list(
                conn.execute(
                    sa.select(review_logs).where(review_logs.c.learner_id == learner_id).order_by(review_logs.c.id)
                ).all()
            )
