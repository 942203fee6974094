"""Read connections of a SQLite file kept from one request to the next.

Every quiz request reads on one connection (the session, the agenda; an answer then writes on it).
Taking it from SQLAlchemy's pool and giving it back costs more than the request's small reads:
a new ``Connection`` object, the pool's checkout (and its listeners: the file check of
:func:`~study.learn.db.make_engine`), the reset on return. :class:`ReadConnections` keeps the
``Connection`` objects themselves between requests instead, as a small stack: a request takes
one (or opens one from the pool when none is idle) and gives it back with its transaction ended
(rolled back: a read never holds a snapshot between requests, a write was committed) and
read-only again. So a process holds at most as many as it ran requests at once (at most
:data:`IDLE` idle), whichever thread serves the next request.

What the pool's checkout guarded stays guarded: a connection is given out only while the file it
was opened on is still the database's file (deleted or replaced: it is closed and the request
opens a new one, which fails as before if the file is gone), and one the engine marked broken
(``invalidated``, see ``handle_error`` in make_engine) or that a request closed is not kept.
Other databases (PostgreSQL) take each request's connection from the pool as before, where a
pre-ping finds a server that restarted.
"""

from __future__ import annotations

import sqlalchemy as sa

from .db import READ_ONLY, file_identity, reading, sqlite_file

IDLE = 8  # idle connections kept at most (a process rarely serves more requests at once)


class ReadConnections:
    def __init__(self, engine: sa.Engine) -> None:
        self.engine = engine
        self.file = sqlite_file(engine.url.render_as_string(hide_password=False))
        self._idle: list[sa.Connection] = []  # list.append and list.pop are atomic: no lock

    def take(self) -> sa.Connection:
        """A read connection for one request (give it back with :meth:`give_back`)."""
        if self.file is not None:
            while self._idle:
                try:
                    conn = self._idle.pop()
                except IndexError:  # another thread took the last one
                    break
                if conn.connection.info.get("file_id") == file_identity(self.file):
                    return conn
                conn.invalidate()  # the file was deleted or replaced: not this connection again
                conn.close()
        return reading(self.engine)

    def give_back(self, conn: sa.Connection) -> None:
        """The request is over: keep ``conn`` for the next one, or close it."""
        if self.file is None or conn.closed or conn.invalidated or len(self._idle) >= IDLE:
            conn.close()
            return
        try:
            if conn.in_transaction():
                conn.rollback()
            if not conn.get_execution_options().get(READ_ONLY):  # (an answer wrote on it)
                conn.execution_options(**{READ_ONLY: True})
        except sa.exc.SQLAlchemyError:  # a broken connection: the engine discards it
            conn.close()
            return
        if conn.invalidated:
            conn.close()
            return
        self._idle.append(conn)

    def close(self) -> None:
        """Close the idle connections (before the engine is disposed)."""
        while self._idle:
            self._idle.pop().close()
