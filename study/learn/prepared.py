"""Prepared statements: the statements every request runs, compiled once per dialect by
SQLAlchemy and run on the connection's DBAPI cursor (see :class:`Prepared`)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa

from .db import READ_ONLY


@dataclass(frozen=True)
class _Form:
    """A statement as one dialect's driver takes it: SQL, the order of its parameters (or None:
    by name), and the conversions of SQLAlchemy's types for what goes in and comes out."""

    sql: str
    order: tuple[str, ...] | None
    binds: tuple[tuple[str, Callable[[Any], Any] | None], ...]
    defaults: dict[str, Any]
    columns: tuple[sa.ColumnElement[Any], ...]  # a SELECT's columns (their types convert results)
    single_read: bool  # a SELECT: on a SQLite read connection it needs no transaction of its own

    @classmethod
    def of(cls, statement: sa.Executable, dialect: sa.Dialect, keys: Sequence[str] | None) -> _Form:
        columns = list(keys) if keys is not None else None
        compiled = statement.compile(dialect=dialect, column_keys=columns)
        if compiled.literal_execute_params or compiled.post_compile_params:  # e.g. a separator
            # rendered into the SQL (the other parameters need a value to compile: any will do)
            dummies = {bp.key: None for bp in compiled.binds.values() if bp.required}
            compiled = statement.params(dummies).compile(
                dialect=dialect, column_keys=columns, compile_kwargs={"render_postcompile": True}
            )
        sql = compiled.string
        order = tuple(compiled.positiontup or ()) if compiled.positional else None
        used = {n: bp for n, bp in compiled.binds.items() if (n in order if order is not None else f"%({n})s" in sql)}
        binds = tuple((n, bp.type.dialect_impl(dialect).bind_processor(dialect)) for n, bp in used.items())
        defaults = {n: bp.value for n, bp in used.items() if bp.value is not None and bp.callable is None}
        columns = tuple(statement.selected_columns) if isinstance(statement, sa.Select) else ()
        return cls(sql, order, binds, defaults, columns, isinstance(statement, sa.Select))

    def args(self, params: Mapping[str, Any]) -> tuple[Any, ...] | dict[str, Any]:
        values = {**self.defaults, **params}
        for name, process in self.binds:
            if process is not None:
                values[name] = process(values[name])
        return tuple(values[n] for n in self.order) if self.order is not None else values


def _reads_alone(conn: sa.Connection) -> bool:
    """A SQLite connection for reads only (:func:`~study.learn.db.reading`), outside a
    transaction: a SELECT on it runs as its own read transaction (the driver is in autocommit
    mode), which is what ``BEGIN DEFERRED`` … ``ROLLBACK`` around it would give, for two
    statements less. Several such SELECTs each read the database as it is then; a caller that
    needs them to agree on one snapshot begins a transaction first (``conn.begin()``)."""
    return conn.dialect.name == "sqlite" and bool(conn.get_execution_options().get(READ_ONLY))


class Prepared:
    """A statement compiled once per dialect and run on the connection's DBAPI cursor, in the
    connection's transaction (begun if it is not yet; not for a SELECT on a SQLite read
    connection, see :func:`_reads_alone`).

    The statements every request runs (the session, the agenda, an answer's card and log) are
    small; SQLAlchemy's execution layer (an execution context, parameter and result processing,
    events, per statement) cost several times the query itself. A prepared statement keeps
    SQLAlchemy's SQL and its types' conversions (compiled once) and leaves the rest out; a DBAPI
    error is handled by the connection as in its own execution (wrapped as SQLAlchemy's
    IntegrityError, OperationalError …, a broken connection invalidated, ``handle_error`` run).
    ``keys``: the columns an INSERT or UPDATE gives values for (every call gives all of them).
    """

    def __init__(self, statement: sa.Executable, keys: Sequence[str] | None = None) -> None:
        self.statement = statement
        self.keys = tuple(keys) if keys is not None else None
        self._forms: dict[str, _Form] = {}
        # each column's result conversion, per dialect, from the driver's type of the first result
        self._results: dict[str, tuple[Callable[[Any], Any] | None, ...]] = {}

    def _run(self, conn: sa.Connection, params: Mapping[str, Any]) -> tuple[_Form, Any]:
        form = self._forms.get(conn.dialect.name)
        if form is None:
            form = self._forms[conn.dialect.name] = _Form.of(self.statement, conn.dialect, self.keys)
        if not conn.in_transaction() and not (form.single_read and _reads_alone(conn)):
            conn.begin()  # BEGIN as the engine begins (see make_engine)
        args = form.args(params)
        cursor = None
        try:
            cursor = conn.connection.dbapi_connection.cursor()  # type: ignore[union-attr]
            cursor.execute(form.sql, args)
        except conn.dialect.loaded_dbapi.Error as e:
            if cursor is not None:
                cursor.close()
            conn._handle_dbapi_exception(e, form.sql, args, cursor, None)  # noqa: SLF001 - raises
        return form, cursor

    def rows(self, conn: sa.Connection, params: Mapping[str, Any]) -> list[tuple[Any, ...]]:
        form, cursor = self._run(conn, params)
        try:
            rows = cursor.fetchall()
            description = cursor.description
        except conn.dialect.loaded_dbapi.Error as e:
            conn._handle_dbapi_exception(e, form.sql, params, cursor, None)  # noqa: SLF001 - raises
        finally:
            cursor.close()
        dialect = conn.dialect
        results = self._results.get(dialect.name)
        if results is None:
            types = [d[1] for d in description or ()]
            results = self._results[dialect.name] = tuple(
                c.type.dialect_impl(dialect).result_processor(dialect, t)
                for c, t in zip(form.columns, types, strict=True)
            )
        if any(results):
            rows = [tuple(p(v) if p is not None else v for p, v in zip(results, r, strict=True)) for r in rows]
        return rows

    def first(self, conn: sa.Connection, params: Mapping[str, Any]) -> tuple[Any, ...] | None:
        rows = self.rows(conn, params)
        return rows[0] if rows else None

    def run(self, conn: sa.Connection, params: Mapping[str, Any]) -> int:
        """Run an INSERT, UPDATE or DELETE: the number of rows it changed."""
        _, cursor = self._run(conn, params)
        count = cursor.rowcount
        cursor.close()
        return count
