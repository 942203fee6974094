"""Read connections kept from one request to the next (study/learn/readers.py)."""

from __future__ import annotations

import shutil

import pytest
import sqlalchemy as sa

from study.learn.db import READ_ONLY, cards, make_engine, upgrade
from study.learn.readers import IDLE, ReadConnections
from tests.conftest import Api, shown


def _sqlite(database_url: str) -> None:
    if not database_url.startswith("sqlite"):
        pytest.skip("other databases take every request's connection from the pool")


def test_a_request_reuses_the_last_requests_connection_read_only_again_after_an_answer(app, database_url):
    _sqlite(database_url)
    readers = app.extensions["study"].store.readers
    api = Api(app.test_client())
    item = api.question(kind="vocab")
    (kept,) = readers._idle  # the question's connection, kept
    assert api.answer(item["id"], shown(app, item).accepted[0]).status_code == 200
    assert readers._idle == [kept]  # the answer wrote on it and gave it back
    assert not kept.in_transaction()  # committed: no write lock, no snapshot held between requests
    assert kept.get_execution_options()[READ_ONLY] is True  # the next request's reads BEGIN DEFERRED
    # a read on it does not take the write lock: another connection can write meanwhile
    with kept.begin():
        kept.execute(sa.select(sa.func.count()).select_from(cards)).scalar()
        other = sa.create_engine(database_url, connect_args={"timeout": 0.2})
        with other.begin() as conn:
            conn.exec_driver_sql("CREATE TABLE IF NOT EXISTS probe (x INTEGER)")
        other.dispose()
    assert api.next(kind="vocab").status_code == 200
    assert readers._idle == [kept]


def test_a_connection_to_a_replaced_database_file_is_not_given_out_again(tmp_path):
    path = tmp_path / "study.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    readers = ReadConnections(engine)
    conn = readers.take()
    conn.execute(sa.select(sa.func.count()).select_from(cards)).scalar()
    readers.give_back(conn)
    assert readers.take() is conn  # the same file: the same connection
    readers.give_back(conn)
    shutil.copy(path, tmp_path / "restored.sqlite")  # a backup restored over the file
    (tmp_path / "restored.sqlite").replace(path)
    fresh = readers.take()
    assert fresh is not conn and conn.closed
    assert fresh.execute(sa.select(sa.func.count()).select_from(cards)).scalar() == 0
    readers.give_back(fresh)
    readers.close()
    engine.dispose()


def test_broken_or_surplus_connections_are_closed_not_kept(tmp_path):
    path = tmp_path / "study.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    readers = ReadConnections(engine)
    taken = [readers.take() for _ in range(IDLE + 2)]  # more requests at once than are kept
    taken[0].invalidate()  # the engine found it broken
    for conn in taken:
        readers.give_back(conn)
    assert len(readers._idle) == IDLE and taken[0] not in readers._idle and taken[0].closed
    assert sum(c.closed for c in taken) == 2  # the broken one, and one more than IDLE
    readers.close()
    assert all(c.closed for c in taken)
    engine.dispose()


def test_a_prepared_read_on_a_sqlite_read_connection_holds_no_transaction_and_sees_each_commit(tmp_path):
    """The session and agenda reads of every request: each SELECT its own read (no BEGIN …
    ROLLBACK around it), so a read connection never holds a snapshot or a lock between reads;
    inside a transaction begun by the caller, the reads share its snapshot as before."""
    from study.learn.prepared import Prepared

    path = tmp_path / "study.sqlite"
    engine = make_engine(f"sqlite:///{path}")
    upgrade(engine)
    count = Prepared(sa.select(sa.func.count()).select_from(cards))
    readers = ReadConnections(engine)
    conn = readers.take()
    writer = make_engine(f"sqlite:///{path}", timeout=0.2)

    def add(item: str) -> None:  # another process's answer: a write that must not wait for the reader
        with writer.begin() as w:
            w.exec_driver_sql(
                "INSERT INTO learners (name, created_at) SELECT 'x', '2026-01-01' WHERE NOT EXISTS (SELECT 1 FROM learners)"
            )
            w.exec_driver_sql(
                "INSERT INTO cards (learner_id, item_id, card_json, due, reps, created_at) "
                f"VALUES (1, '{item}', '{{}}', '2026-01-01', 0, '2026-01-01')"
            )

    assert count.first(conn, {}) == (0,)
    assert not conn.in_transaction()
    add("a")
    assert count.first(conn, {}) == (1,)  # the commit is seen: no snapshot was held
    with conn.begin():  # the caller's transaction: one snapshot for its reads
        assert count.first(conn, {}) == (1,)
        add("b")
        assert count.first(conn, {}) == (1,)
    assert count.first(conn, {}) == (2,)
    readers.give_back(conn)
    readers.close()
    writer.dispose()
    engine.dispose()
