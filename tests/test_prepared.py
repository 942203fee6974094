"""Prepared statements (study.learn.prepared.Prepared): the hot path's reads and writes without
SQLAlchemy's execution layer give what SQLAlchemy gives, and fail as it fails."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from study.learn.db import cards, reading, review_logs
from study.learn.grading import RatingName
from study.learn.prepared import Prepared

T0 = datetime(2026, 3, 1, 12, 30, 15, 123456, tzinfo=UTC)


def test_a_prepared_select_gives_the_rows_and_types_sqlalchemy_gives(store):
    learner = store.sign_in("子", None, T0)
    for k in range(5):
        store.record(
            learner.id, f"item{k}", RatingName.AGAIN, score=0, correct=False, answer="", now=T0 + timedelta(hours=k)
        )
    queries = [
        (sa.select(cards).where(cards.c.learner_id == sa.bindparam("l")).order_by(cards.c.item_id), {"l": learner.id}),
        (
            sa.select(cards.c.item_id, cards.c.due)
            .where(
                (cards.c.learner_id == sa.bindparam("l")) & (cards.c.due <= sa.bindparam("now", type_=cards.c.due.type))
            )
            .order_by(cards.c.due)
            .limit(3),
            {"l": learner.id, "now": T0 + timedelta(days=1)},
        ),
        (
            sa.select(sa.func.aggregate_strings(cards.c.item_id, "\x1f")).where(
                cards.c.learner_id == sa.bindparam("l")
            ),
            {"l": learner.id},
        ),
        (sa.select(review_logs.c.correct, review_logs.c.score).where(review_logs.c.item_id == "item0"), {}),
    ]
    with reading(store.engine) as conn:
        for query, params in queries:
            expected = [tuple(r) for r in conn.execute(query, params).all()]
            got = Prepared(query).rows(conn, params)
            assert got == expected and expected
    with reading(store.engine) as conn:
        due = Prepared(queries[1][0]).rows(conn, queries[1][1])
    assert [d for _, d in due] == [T0 + timedelta(hours=k, minutes=1) for k in range(3)]  # aware UTC datetimes
    assert all(d.tzinfo is not None and d.utcoffset() == timedelta(0) for _, d in due)


def test_a_prepared_write_runs_in_the_connections_transaction_and_rolls_back_with_it(store):
    learner = store.sign_in("丑", None, T0)
    insert = Prepared(
        cards.insert(), ("learner_id", "item_id", "card_json", "due", "reps", "created_at", "last_review")
    )
    row = {"learner_id": learner.id, "card_json": "{}", "due": T0, "reps": 0, "created_at": T0, "last_review": None}
    with pytest.raises(RuntimeError):
        with store.engine.begin() as conn:
            assert insert.run(conn, row | {"item_id": "a"}) == 1
            raise RuntimeError("the transaction fails after the insert")
    with store.engine.begin() as conn:
        insert.run(conn, row | {"item_id": "b"})
    with reading(store.engine) as conn:
        assert conn.execute(sa.select(cards.c.item_id, cards.c.due)).all() == [("b", T0)]


def test_a_prepared_statements_database_error_is_sqlalchemys_and_the_transaction_rolls_back(store):
    learner = store.sign_in("寅", None, T0)
    insert = Prepared(cards.insert(), ("learner_id", "item_id", "card_json", "due", "reps", "created_at"))
    row = {"learner_id": learner.id, "item_id": "a", "card_json": "{}", "due": T0, "reps": 0, "created_at": T0}
    with pytest.raises(sa.exc.IntegrityError):  # the same card twice: the primary key
        with store.engine.begin() as conn:
            insert.run(conn, row)
            insert.run(conn, row | {"card_json": "second"})
    with reading(store.engine) as conn:
        assert conn.execute(sa.select(sa.func.count()).select_from(cards)).scalar() == 0
    missing = sa.select(sa.literal_column("x")).select_from(sa.table("no_such_table"))
    with reading(store.engine) as conn, pytest.raises(sa.exc.DBAPIError) as by_sqlalchemy:
        conn.execute(missing)
    with reading(store.engine) as conn, pytest.raises(type(by_sqlalchemy.value)):  # the same class
        Prepared(missing).rows(conn, {})
