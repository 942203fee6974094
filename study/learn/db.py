"""The database: tables (SQLAlchemy Core), engine set-up, and migrations (Alembic).

SQLite by default (a file in the web app's instance folder), any SQLAlchemy URL through
``DATABASE_URL``. Every SQLite transaction that may write begins IMMEDIATE, so that concurrent
answers queue for the write lock instead of failing; connections from :func:`reading` begin
DEFERRED and, in WAL mode, read a snapshot without waiting for writers at all. WAL with
``synchronous=NORMAL`` syncs at checkpoints rather than at every commit: a crash cannot corrupt
the file, a power cut may lose the last moments' answers.
"""

from __future__ import annotations

import os
import sqlite3
from datetime import UTC, datetime
from pathlib import Path
from urllib.parse import quote

import sqlalchemy as sa
from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Engine

from ..errors import StudyError

metadata = sa.MetaData()


class MissingDatabaseError(StudyError):
    """No database, or one whose schema is not the newest: ``study db upgrade`` makes it."""


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
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id"), nullable=True),  # the class studied now
    sa.Column("created_at", UTCDateTime, nullable=False),
    # None for a learner from before passwords (0004): the next sign-in with the name sets it
    sa.Column("password_hash", sa.String(255), nullable=True),
    sa.Column("time_zone", sa.String(64), nullable=False, server_default="Asia/Shanghai"),
)

learner_sessions = sa.Table(
    "learner_sessions",
    metadata,
    # sha256 of the random token the session cookie holds: a cookie works while its row exists
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), nullable=False, index=True),
    sa.Column("created_at", UTCDateTime, nullable=False),
)

class_members = sa.Table(
    "class_members",
    metadata,
    sa.Column("class_id", sa.Integer, sa.ForeignKey("classes.id"), primary_key=True),
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), primary_key=True),
    sa.Column("joined_at", UTCDateTime, nullable=False),
)

intros = sa.Table(
    "intros",
    metadata,
    # a fact the learner has been introduced to (``kind: "intro"``) before its first question
    sa.Column("learner_id", sa.Integer, sa.ForeignKey("learners.id"), primary_key=True),
    sa.Column("fact", sa.String(200), primary_key=True),
    sa.Column("seen_at", UTCDateTime, nullable=False),
)

rate_limits = sa.Table(
    "rate_limits",
    metadata,
    sa.Column("key", sa.String(255), primary_key=True),
    sa.Column("count", sa.Integer, nullable=False),
    sa.Column("expires_at", sa.Float, nullable=False),  # seconds since the epoch
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
    # a learner's due cards in due order without reading the rows (0006): read by every /api/next
    sa.Index("ix_cards_learner_due_item", "learner_id", "due", "item_id"),
    # today's cards of a learner without reading the rows (0005): what /api/next reads every time
    sa.Index("ix_cards_learner_reviewed", "learner_id", "last_review", "created_at", "item_id"),
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
    sa.Column("class_id", sa.Integer, nullable=True),  # the class the learner was in (its report)
    sa.Column("token_id", sa.String(64), nullable=True),  # the signed question answered (once)
    sa.Column("card_before", sa.Text, nullable=True),  # the card before this review (self-rating)
    sa.Column("guessed", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ix_logs_learner_item", "learner_id", "item_id"),
    sa.UniqueConstraint("learner_id", "answer_id", name="uq_logs_learner_answer"),
    sa.UniqueConstraint("learner_id", "token_id", name="uq_logs_learner_token"),
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


def sqlite_file(url: str) -> Path | None:
    """The file of a SQLite URL (None for other databases and in-memory SQLite)."""
    parsed = sa.engine.make_url(url)
    if parsed.get_backend_name() != "sqlite" or parsed.database in (None, "", ":memory:"):
        return None
    return None if parsed.database.startswith("file:") else Path(parsed.database)


BROKEN = ("readonly database", "read-only transaction", "disk i/o error", "unable to open database")


def file_identity(path: Path) -> tuple[int, int] | None:
    try:
        st = os.stat(path)
    except OSError:
        return None
    return (st.st_dev, st.st_ino)


def make_engine(url: str, *, timeout: float = 30.0) -> Engine:
    """An engine for ``url``; SQLite gets WAL, a busy timeout and IMMEDIATE transactions.

    ``timeout`` bounds how long a request waits for a locked or unreachable database before it
    fails (and the web app answers 503). The engine never creates a SQLite file (see
    :func:`upgrade`): a file deleted or replaced while serving is noticed when a connection is
    taken from the pool, and a connection that turned read-only or broken is discarded, so the
    next request connects afresh.
    """
    file = sqlite_file(url)
    if url.startswith("sqlite"):
        kwargs: dict = {"connect_args": {"timeout": timeout, "check_same_thread": False}}
        if file is not None:  # mode=rw: a missing file is an error, not a new empty database
            target = f"file:{quote(str(file.absolute()))}?mode=rw"
            kwargs = {"creator": lambda: sqlite3.connect(target, uri=True, timeout=timeout, check_same_thread=False)}
        engine = sa.create_engine(url, pool_pre_ping=True, **kwargs)

        @sa.event.listens_for(engine, "connect")
        def _connect(dbapi_connection, record):  # type: ignore[no-untyped-def]
            dbapi_connection.isolation_level = None  # we issue BEGIN ourselves
            cursor = dbapi_connection.cursor()
            cursor.execute("PRAGMA journal_mode=WAL")
            cursor.execute("PRAGMA synchronous=NORMAL")
            cursor.execute(f"PRAGMA busy_timeout={int(timeout * 1000)}")
            cursor.execute("PRAGMA foreign_keys=ON")
            cursor.close()
            if file is not None:
                record.info["file_id"] = file_identity(file)

        if file is not None:

            @sa.event.listens_for(engine, "checkout")
            def _checkout(dbapi_connection, record, proxy):  # type: ignore[no-untyped-def]
                if file_identity(file) != record.info.get("file_id"):  # deleted or replaced
                    raise sa.exc.DisconnectionError(f"{file} is gone or was replaced")

        @sa.event.listens_for(engine, "begin")
        def _begin(connection):  # type: ignore[no-untyped-def]
            read_only = connection.get_execution_options().get(READ_ONLY, False)
            sql = "BEGIN DEFERRED" if read_only else "BEGIN IMMEDIATE"
            try:  # on the driver's connection (every request begins one or two transactions)
                connection.connection.driver_connection.execute(sql)
            except sqlite3.Error as e:  # as SQLAlchemy's own execution would handle it (raises)
                connection._handle_dbapi_exception(e, sql, (), None, None)  # noqa: SLF001

    else:
        connect_args = {"connect_timeout": max(int(timeout), 1)} if url.startswith("postgresql") else {}
        engine = sa.create_engine(url, pool_pre_ping=True, connect_args=connect_args)

    @sa.event.listens_for(engine, "handle_error")
    def _broken(context):  # type: ignore[no-untyped-def]
        if any(s in str(context.original_exception).lower() for s in BROKEN):
            context.is_disconnect = True  # discard the pool's connections: the next request reconnects

    return engine


def alembic_config(url: str) -> Config:
    config = Config()
    config.set_main_option("script_location", "study.learn:migrations")
    config.set_main_option("sqlalchemy.url", url.replace("%", "%%"))
    return config


MIGRATION_LOCK = 0x5354_5544  # pg_advisory_xact_lock key held while migrating ("STUD")


def upgrade(engine: Engine, *, create: bool = True) -> None:
    """Create or migrate the schema to the newest version (Alembic ``upgrade head``).

    ``create``: a missing SQLite file is created (``study db upgrade``, and the app outside
    production); otherwise it is an error.

    Several processes may start at once on a new database (``gunicorn -w 4``): one migrates, the
    others wait for it and then find the schema current. SQLite's BEGIN IMMEDIATE already queues
    them; PostgreSQL would let them all create the tables and fail on the catalog's unique keys,
    so they take an advisory lock first.
    """
    file = sqlite_file(engine.url.render_as_string(hide_password=False))
    if file is not None and not file.exists():
        if not create:
            raise MissingDatabaseError(f"{file}: no such database (create it with `study db upgrade`)")
        file.parent.mkdir(parents=True, exist_ok=True)
        sqlite3.connect(file).close()
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as connection:
        if connection.dialect.name == "postgresql":
            connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": MIGRATION_LOCK})
        config.attributes["connection"] = connection
        command.upgrade(config, "head")


def head_revision() -> str | None:
    from alembic.script import ScriptDirectory

    return ScriptDirectory.from_config(alembic_config("sqlite://")).get_current_head()


def check_current(engine: Engine) -> None:
    """Raise :class:`MissingDatabaseError` unless the database exists with the newest schema
    (production never creates or migrates a database implicitly)."""
    from alembic.runtime.migration import MigrationContext

    file = sqlite_file(engine.url.render_as_string(hide_password=False))
    if file is not None and not file.exists():
        raise MissingDatabaseError(f"{file}: no such database (create it with `study db upgrade`)")
    with engine.connect() as conn:
        current = MigrationContext.configure(conn).get_current_revision()
    if current != head_revision():
        shown = engine.url.render_as_string(hide_password=True)
        raise MissingDatabaseError(
            f"{shown}: schema {current or 'missing'}, this version needs {head_revision()} "
            "(run `study db upgrade` first)"
        )


def now() -> datetime:
    return datetime.now(UTC)
