"""Backups: every table of the database in one JSON file, and back (SQLite ↔ PostgreSQL).

Format ``study-progress`` version 2 (README, "Backups")::

    {"format": "study-progress", "version": 2, "schema": "<alembic revision>",
     "exported_at": "<ISO time>",
     "tables": {"<table>": {"columns": ["id", …], "rows": [[…], …]}, …}}

Every table of :data:`study.learn.db.metadata` is written, generically from the schema, except
those in :data:`EXCLUDED` (each with its reason); rows in primary-key order, times as ISO 8601
in UTC, booleans as true/false, everything else as stored (JSON text columns stay text, so a
restore is byte for byte). The export reads one snapshot: one REPEATABLE READ transaction on
PostgreSQL, one read transaction on SQLite (WAL), so no review is written without its card.

An import runs in one transaction: rows keep their ids; a row already present with the same
values is skipped (importing twice changes nothing); a row whose key is taken by different
values is a conflict, reported in one line, and nothing is imported. Version 1 files (learners,
cards and reviews only) are still merged as before (:mod:`study.learn.backup_v1`).
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from alembic.runtime.migration import MigrationContext
from sqlalchemy.engine import Connection, Engine

from ..atomic import atomic_write
from ..errors import StudyError
from .backup_v1 import import_v1
from .db import READ_ONLY, UTCDateTime, metadata

FORMAT = "study-progress"
VERSION = 2
EXCLUDED: dict[str, str] = {  # table → why a backup leaves it out (short-lived state only)
    "learner_sessions": "sign-in tokens: a restored database signs everyone in again, old cookies stay dead",
    "rate_limits": "counters of the last minutes' requests, meaningless once restored",
}


class BackupError(StudyError):
    """A progress file that cannot be imported, or that conflicts with the database."""


@dataclass(frozen=True)
class BackupReport:
    """Rows per table (written, or added by an import)."""

    rows: dict[str, int]

    def __getattr__(self, name: str) -> int:  # report.learners, report.reviews …
        rows = self.__dict__.get("rows", {})
        for table in (name, {"reviews": "review_logs"}.get(name, name)):
            if table in rows:
                return rows[table]
        raise AttributeError(name)

    def summary(self) -> str:
        return ", ".join(f"{n} {table}" for table, n in self.rows.items())


def backed_up_tables() -> list[sa.Table]:
    """The tables a backup holds, parents before children (foreign keys)."""
    return [t for t in metadata.sorted_tables if t.name not in EXCLUDED]


def _encode(column: sa.Column, value: Any) -> Any:
    if value is None:
        return None
    if isinstance(column.type, UTCDateTime):
        return value.isoformat()
    if isinstance(column.type, sa.Boolean):
        return bool(value)
    return value


def _decode(column: sa.Column, value: Any) -> Any:
    """The file's value as the column takes it; ``ValueError`` naming what is wrong."""
    if value is None:
        if not column.nullable:
            raise ValueError(f"{column.name} is missing")
        return None
    kind = column.type
    if isinstance(kind, UTCDateTime):
        if not isinstance(value, str):
            raise ValueError(f"{column.name} must be an ISO time")
        moment = datetime.fromisoformat(value)
        return moment if moment.tzinfo else moment.replace(tzinfo=UTC)
    if isinstance(kind, sa.Boolean):
        if not isinstance(value, bool):
            raise ValueError(f"{column.name} must be true or false")
        return value
    if isinstance(kind, sa.Integer):
        if isinstance(value, bool) or not isinstance(value, int) or abs(value) >= 2**63:
            raise ValueError(f"{column.name} must be an integer")
        return value
    if isinstance(kind, sa.Float):
        if isinstance(value, bool) or not isinstance(value, int | float):
            raise ValueError(f"{column.name} must be a number")
        return float(value)
    if isinstance(kind, sa.String):  # String and Text
        if not isinstance(value, str):
            raise ValueError(f"{column.name} must be text")
        if kind.length is not None and len(value) > kind.length:
            raise ValueError(f"{column.name} is longer than {kind.length} characters")
        return value
    raise ValueError(f"{column.name}: unsupported column type {kind!r}")  # pragma: no cover


def _revision(conn: Connection) -> str | None:
    return MigrationContext.configure(conn).get_current_revision()


def _snapshot(engine: Engine) -> Connection:
    """A connection whose transaction reads one snapshot of the whole database."""
    conn = engine.connect()
    if engine.dialect.name == "postgresql":
        return conn.execution_options(isolation_level="REPEATABLE READ", postgresql_readonly=True)
    return conn.execution_options(**{READ_ONLY: True})  # SQLite: BEGIN DEFERRED, a WAL snapshot


def _order(table: sa.Table) -> list[sa.Column]:
    return list(table.primary_key.columns) or list(table.columns)


def export_progress(engine: Engine) -> dict[str, Any]:
    """Every backed-up table, read in one snapshot."""
    tables: dict[str, Any] = {}
    with _snapshot(engine) as conn, conn.begin():
        schema = _revision(conn)
        for table in backed_up_tables():
            columns = list(table.columns)
            rows = conn.execute(sa.select(*columns).order_by(*_order(table))).all()
            tables[table.name] = {
                "columns": [c.name for c in columns],
                "rows": [[_encode(c, v) for c, v in zip(columns, row, strict=True)] for row in rows],
            }
    return {
        "format": FORMAT,
        "version": VERSION,
        "schema": schema,
        "exported_at": datetime.now(UTC).isoformat(),
        "tables": tables,
    }


def write_export(engine: Engine, path: Path) -> BackupReport:
    """Export to ``path`` atomically (a locked temporary file, then a rename)."""
    data = export_progress(engine)
    body = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
    atomic_write(path, lambda f: f.write(body))
    return BackupReport({name: len(t["rows"]) for name, t in data["tables"].items()})


def _keys(table: sa.Table) -> list[tuple[str, ...]]:
    """The primary key and every unique key of ``table``, as column names."""
    keys = [tuple(c.name for c in table.primary_key.columns)] if table.primary_key.columns else []
    for constraint in table.constraints:
        if isinstance(constraint, sa.UniqueConstraint):
            keys.append(tuple(c.name for c in constraint.columns))
    keys += [(c.name,) for c in table.columns if c.unique]
    return [k for k in dict.fromkeys(keys) if k]


def _import_table(conn: Connection, table: sa.Table, block: Any, where: str) -> int:
    if not isinstance(block, dict) or not isinstance(block.get("columns"), list):
        raise ValueError(f"{where}: needs 'columns' and 'rows'")
    names = block["columns"]
    unknown = [n for n in names if not isinstance(n, str) or n not in table.c]
    if unknown:
        raise ValueError(f"{where}: unknown column {unknown[0]!r}")
    columns = [table.c[n] for n in names]
    rows = block.get("rows")
    if not isinstance(rows, list):
        raise ValueError(f"{where}: 'rows' must be a list")
    existing = [dict(r._mapping) for r in conn.execute(sa.select(*columns)).all()]
    index = {key: {tuple(r[c] for c in key): r for r in existing} for key in _keys(table) if set(key) <= set(names)}
    added = []
    for n, raw in enumerate(rows):
        if not isinstance(raw, list) or len(raw) != len(columns):
            raise ValueError(f"{where}, row {n + 1}: expected {len(columns)} values")
        try:
            row = {c.name: _decode(c, v) for c, v in zip(columns, raw, strict=True)}
        except ValueError as e:
            raise ValueError(f"{where}, row {n + 1}: {e}") from None
        same = None
        for key, found in index.items():
            values = tuple(row[c] for c in key)
            if None in values:  # NULLs never collide in a unique key (SQL)
                continue
            other = found.get(values)
            if other is None:
                continue
            if other != row:
                shown = ", ".join(f"{c}={row[c]!r}" for c in key)
                raise BackupError(
                    f"{where}, row {n + 1}: {shown} is already in the database with other values; nothing was imported"
                )
            same = other
        if same is None:
            added.append(row)
            for key, found in index.items():
                if None not in (values := tuple(row[c] for c in key)):
                    found[values] = row
    if added:
        conn.execute(table.insert(), added)
        serial = table.autoincrement_column
        if conn.dialect.name == "postgresql" and serial is not None:
            conn.execute(
                sa.text(
                    f"SELECT setval(pg_get_serial_sequence('{table.name}', '{serial.name}'), "
                    f"COALESCE((SELECT MAX({serial.name}) FROM {table.name}), 1), "
                    f"(SELECT MAX({serial.name}) FROM {table.name}) IS NOT NULL)"
                )
            )
    return len(added)


def import_progress(engine: Engine, data: Any, *, path: str = "<data>") -> BackupReport:
    """Restore (or merge) a backup into ``engine``'s database in one transaction."""
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"{path}: not a study progress file")
    if data.get("version") == 1:
        try:
            return BackupReport(import_v1(engine, data, path=path))
        except ValueError as e:
            raise BackupError(str(e)) from None
        except sa.exc.IntegrityError as e:  # an answer_id already used, …
            detail = str(e.orig).splitlines()[0] if e.orig else "a key is taken"
            raise BackupError(f"{path}: conflicts with the database ({detail}); nothing was imported") from None
    if data.get("version") != VERSION:
        raise BackupError(f"{path}: unsupported version {data.get('version')!r} (this study reads 1 and {VERSION})")
    tables = data.get("tables")
    if not isinstance(tables, dict):
        raise BackupError(f"{path}: no 'tables' in the file")
    known = {t.name for t in backed_up_tables()}
    unknown = sorted(name for name in tables if name not in known)
    if unknown:
        raise BackupError(f"{path}: unknown table {unknown[0]!r} (a file from a newer version of study?)")
    added: dict[str, int] = {}
    try:
        with engine.begin() as conn:
            for table in backed_up_tables():
                if table.name in tables:
                    added[table.name] = _import_table(conn, table, tables[table.name], f"{path}: {table.name}")
    except ValueError as e:
        raise BackupError(f"{e}; nothing was imported") from None
    except sa.exc.IntegrityError as e:
        detail = str(e.orig).splitlines()[0] if e.orig else "a key is taken"
        raise BackupError(f"{path}: conflicts with the database ({detail}); nothing was imported") from None
    return BackupReport(added)


def read_import(engine: Engine, path: Path) -> BackupReport:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, ValueError, RecursionError) as e:
        raise BackupError(f"{path}: cannot read the progress file: {e}") from None
    return import_progress(engine, data, path=str(path))
