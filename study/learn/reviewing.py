"""Reviewing a learner's FSRS card (study/learn/schedule.py's :class:`ReviewStore` inherits it):
an answer reviews the card and logs it in one transaction, the card row read under a lock (SELECT
… FOR UPDATE on PostgreSQL, BEGIN IMMEDIATE on SQLite) so two answers to the same item arriving at
once both count; a self-rating reviews the card again from where the answer found it."""

from __future__ import annotations

import json
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from datetime import datetime

import fsrs
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine

from .db import READ_ONLY, cards, review_logs
from .grading import RatingName
from .prepared import Prepared
from .writers import WriteQueue

RATINGS = {
    RatingName.AGAIN: fsrs.Rating.Again,
    RatingName.HARD: fsrs.Rating.Hard,
    RatingName.GOOD: fsrs.Rating.Good,
    RatingName.EASY: fsrs.Rating.Easy,
}


class AlreadyRatedError(ValueError):
    """A self-rating for an answer that is no longer the card's latest review, or above Again
    for a wrong answer."""


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


@dataclass(frozen=True)
class Review:
    """What one answer did to its card: the card after it, and the card before it (from which a
    self-rating reviews again)."""

    card: fsrs.Card
    before: fsrs.Card
    rating: RatingName


class Reviewing:
    """The writing methods of :class:`study.learn.schedule.ReviewStore`: an answer and a rating."""

    engine: Engine
    scheduler: fsrs.Scheduler
    writers: WriteQueue

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
