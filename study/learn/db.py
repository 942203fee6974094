"""The database: tables (SQLAlchemy Core), engine set-up, and migrations (Alembic).

SQLite by default (a file in the web app's instance folder), any SQLAlchemy URL through
``DATABASE_URL``. Every SQLite transaction that may write begins IMMEDIATE, so that concurrent
answers queue for the write lock instead of failing; connections from :func:`reading` begin
DEFERRED and, in WAL mode, read a snapshot without waiting for writers at all. WAL with
``synchronous=NORMAL`` syncs at checkpoints rather than at every commit: a crash cannot corrupt
the file, a power cut may lose the last moments' answers.
"""

from __future__ import annotations

from datetime import UTC, datetime

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

metadata = sa.MetaData()


class UTCDateTime(sa.types.TypeDecorator):
    """Aware UTC datetimes in, aware UTC datetimes out (SQLite keeps no time zone)."""

    impl = sa.DateTime(timezone=True)
    cache_ok = True

    def process_bind_param(self, value, dialect):  # type: ignore[no-untyped-def]
        if value is None:
            return None
        if value.tzinfo is None:
            raise ValueError("naive datetime: always pass UTC-aware datetimes")
        value = value.astimezone(UTC)
        return value.replace(tzinfo=None) if dialect.name == "sqlite" else value

    def process_result_value(self, value, dialect):  # type: ignore[no-untyped-def]
        if value is None:
            return None
        return value.replace(tzinfo=UTC) if value.tzinfo is None else value.astimezone(UTC)


classes = sa.Table(
    "classes",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("code", sa.String(16), nullable=False, unique=True),
    sa.Column("name", sa.String(200), nullable=False),
    sa.Column("teacher_id", sa.Integer, nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

learners = sa.Table(
    "learners",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(80), nullable=False, unique=True),
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id"), nullable=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

cards = sa.Table(
    "cards",
    metadata,
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), primary_key=True),
    sa.Column("item_id", sa.String(200), primary_key=True),
    sa.Column("card_json", sa.Text, nullable=False),
    sa.Column("due", UTCDateTime, nullable=False),
    sa.Column("reps", sa.Integer, nullable=False, default=0),
    sa.Column("created_at", UTCDateTime, nullable=False),
    sa.Column("last_review", UTCDateTime, nullable=True),
    sa.Index("ix_cards_learner_due", "learner_id", "due"),
)

review_logs = sa.Table(
    "review_logs",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True, autoincrement=True),
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), nullable=False),
    sa.Column("item_id", sa.String(200), nullable=False),
    sa.Column("rating", sa.Integer, nullable=False),
    sa.Column("score", sa.Float, nullable=False),
    sa.Column("correct", sa.Boolean, nullable=False),
    sa.Column("reviewed_at", UTCDateTime, nullable=False),
    sa.Column("duration_ms", sa.Integer, nullable=True),
    sa.Column("answer_json", sa.Text, nullable=False),
    sa.Column("answer_id", sa.String(64), nullable=True),  # the client's id of the answer (retries)
    sa.Column("result_json", sa.Text, nullable=True),  # what the answer was told, for a retry
    sa.Index("ix_logs_learner_item", "learner_id", "item_id"),
    sa.UniqueConstraint("learner_id", "answer_id", name="uq_logs_learner_answer"),
)

questions = sa.Table(
    "questions",
    metadata,
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), primary_key=True),
    sa.Column("item_id", sa.String(200), primary_key=True),
    sa.Column("question_json", sa.Text, nullable=False),
    sa.Column("presented_at", UTCDateTime, nullable=False),
)


teachers = sa.Table(
    "teachers",
    metadata,
    sa.Column("id", sa.Integer, primary_key=True),
    sa.Column("name", sa.String(80), nullable=False, unique=True),
    sa.Column("password_hash", sa.String(255), nullable=False),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

assignments = sa.Table(
    "assignments",
    metadata,
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id"), primary_key=True),
    sa.Column("spec_yaml", sa.Text, nullable=False),
    sa.Column("updated_at", UTCDateTime, nullable=False),
)


READ_ONLY = "study_read_only"  # execution option set by reading()


def reading(engine: Engine) -> sa.Connection:
    """A connection for reads only (``with reading(engine) as conn:``): on SQLite its
    transactions never take the write lock, so reads do not queue behind answers."""
    return engine.connect().execution_options(**{READ_ONLY: True})


def make_engine(url: str, *, timeout: float = 30.0) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and IMMEDIATE transactions.

    ``timeout`` bounds how long a request waits for a locked or unreachable database before it
    fails (and the web app answers 503).
    """
    if url.startswith("sqlite"):
        engine = sa.create_engine(url, connect_args={"timeout": timeout, "check_same_thread": False})

        @sa.event.listens_for(engine, "connect")
        def _connect(dbapi_connection, _record):  # type: ignore[no-untyped-def]
            dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()

        @sa.event.listens_for(engine, "begin")
        def _begin(connection):  # type: ignore[no-untyped-def]
            read_only = connection.get_execution_options().get(READ_ONLY, False)
            connection.exec_driver_sql("BEGIN DEFERRED" if read_only else "BEGIN IMMEDIATE")

        return engine
    connect_args = {"connect_timeout": max(int(timeout), 1)} if url.startswith("postgresql") else {}
    return sa.create_engine(url, pool_pre_ping=True, connect_args=connect_args)


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", "study.learn:migrations")
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


MIGRATION_LOCK = 0x5354_5544  # pg_advisory_xact_lock key held while migrating ("STUD")


def upgrade(engine: Engine) -> None:
    """Create or migrate the schema to the newest version (Alembic ``upgrade head``).

    Several processes may start at once on a new database (``gunicorn -w 4``): one migrates, the
    others wait for it and then find the schema current. SQLite's BEGIN IMMEDIATE already queues
    them; PostgreSQL would let them all create the tables and fail on the catalog's unique keys,
    so they take an advisory lock first.
    """
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def now() -> datetime:
    return datetime.now(UTC)
