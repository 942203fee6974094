"""Faults: the database goes away and comes back; nothing half-written is left behind."""

from __future__ import annotations

import sqlite3
import subprocess
from pathlib import Path

import sqlalchemy as sa

from study.learn.db import cards, review_logs
from tests.conftest import PG_ADMIN_URL, ROOT, Api, dispose, shown


def _counts(app) -> tuple[int, int]:
    with app.extensions["study"].store.engine.connect() as conn:
        return (
            conn.execute(sa.select(sa.func.count()).select_from(review_logs)).scalar(),
            conn.execute(sa.select(sa.func.coalesce(sa.func.sum(cards.c.reps), 0))).scalar(),
        )


class Outage:
    """Make the database unavailable: stop the PostgreSQL server, or hold SQLite's write lock."""

    def __init__(self, url: str) -> None:
        self.url = url
        self.lock: sqlite3.Connection | None = None

    def __enter__(self) -> Outage:
        if PG_ADMIN_URL:
            subprocess.run([ROOT / "scripts" / "pg-test-server", "stop"], check=True)
        else:
            self.lock = sqlite3.connect(self.url.removeprefix("sqlite:///"), isolation_level=None)
            self.lock.execute("BEGIN EXCLUSIVE")
        return self

    def __exit__(self, *exc: object) -> None:
        if PG_ADMIN_URL:
            subprocess.run([ROOT / "scripts" / "pg-test-server", "start"], check=True, capture_output=True)
        elif self.lock is not None:
            self.lock.execute("ROLLBACK")
            self.lock.close()


def test_database_unavailable_gives_503_then_recovers_without_corruption(database_url):
    from web import create_app

    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url, "RANDOM_SEED": 4, "DATABASE_TIMEOUT": 1}
    )
    api = Api(app.test_client())
    item = api.question(kind="vocab")
    question = shown(app, item)
    assert api.answer(item["id"], question.accepted[0]).status_code == 200
    item = api.question(kind="vocab")  # another question, answered while the database is down
    question = shown(app, item)
    before = _counts(app)
    with Outage(database_url):
        r = api.answer(item["id"], question.accepted[0])
        assert r.status_code == 503 and r.get_json()["error"]
        asked = api.next(kind="vocab")  # asking only reads (the question is a signed token)
        page = api.client.get("/progress")
        if PG_ADMIN_URL:  # server down: pages that only read fail too, and say so
            assert page.status_code == 503 and "数据库暂时不可用" in page.get_data(as_text=True)
            assert asked.status_code == 503 and asked.get_json()["error"]
        else:  # SQLite's WAL lets readers go on while a writer holds the lock
            assert page.status_code == 200 and asked.status_code == 200
    assert _counts(app) == before  # the failed answer left nothing behind
    r = api.answer(item["id"], question.accepted[0])
    assert r.status_code == 200
    assert _counts(app) == (before[0] + 1, before[1] + 1)
    if database_url.startswith("sqlite"):
        with sqlite3.connect(database_url.removeprefix("sqlite:///")) as conn:
            assert conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    dispose(app)


def test_a_database_file_deleted_while_serving_answers_503_not_acknowledged(tmp_path):
    from web import create_app

    path = tmp_path / "study.sqlite"
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": f"sqlite:///{path}", "DATABASE_TIMEOUT": 1})
    api = Api(app.test_client())
    item = api.question(kind="vocab")
    question = shown(app, item)
    for suffix in ("", "-wal", "-shm"):
        Path(f"{path}{suffix}").unlink(missing_ok=True)
    r = api.answer(item["id"], question.accepted[0])
    assert r.status_code == 503 and r.get_json()["error"]
    assert api.client.get("/api/progress").status_code == 503
    assert not path.exists()  # and no empty database was made in its place
    dispose(app)


def test_a_connection_that_turned_read_only_is_discarded(database_url):
    from web import create_app

    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url, "RANDOM_SEED": 4, "DATABASE_TIMEOUT": 1}
    )
    api = Api(app.test_client())
    item = api.question(kind="vocab")
    question = shown(app, item)
    store = app.extensions["study"].store
    engine = store.engine
    store.readers.close()  # the read connection kept from the last request, too
    engine.dispose()
    raw = engine.raw_connection()  # the pool's only connection from now on: make it read-only
    sql = "PRAGMA query_only = ON" if database_url.startswith("sqlite") else "SET default_transaction_read_only = on"
    cursor = raw.cursor()
    cursor.execute(sql)
    cursor.close()
    raw.commit()
    raw.close()  # back into the pool
    assert api.answer(item["id"], question.accepted[0]).status_code == 503
    r = api.answer(item["id"], question.accepted[0])  # permissions are back: a fresh connection
    assert r.status_code == 200, r.get_json()
    dispose(app)
