"""Answers to one SQLite file take turns on a lock that wakes the next at once.

SQLite lets one transaction write at a time; a second ``BEGIN IMMEDIATE`` finds the file locked
and its busy handler sleeps and tries again (after 1, 2, 5, 10 … ms), so under a stream of
answers from several workers an answer often waits milliseconds for a lock freed microseconds
after it began to wait. :class:`WriteQueue` makes the writers of the answer path wait on an
advisory lock on a file beside the database instead (``flock``, and a thread lock within a
process): the kernel wakes the next writer when the lock is released, and its ``BEGIN
IMMEDIATE`` then finds SQLite's lock free. SQLite's own locking is unchanged (writers that do
not queue, such as ``study`` commands, still wait in its busy handler), so this only orders the
waiting; a writer that dies releases the lock with its process, and one that waits longer than
``timeout`` goes on to SQLite's busy handler, which bounds the wait as before (a 503). Other
databases need no queue.
"""

from __future__ import annotations

import os
import threading
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: the thread lock only, then SQLite's own wait
    fcntl = None  # type: ignore[assignment]

SUFFIX = ".writers"  # the lock file: the database's name with this added


class WriteQueue:
    def __init__(self, database: Path | None, timeout: float = 10.0) -> None:
        """``database``: the SQLite file (None: another database, nothing to queue for)."""
        self.path = database.with_name(database.name + SUFFIX) if database is not None else None
        self.timeout = timeout
        self._threads = threading.Lock()
        self._fd: int | None = None
        self._pid = 0

    def _open(self) -> int | None:
        if self._fd is not None and self._pid == os.getpid():
            return self._fd
        assert self.path is not None
        if fcntl is None:
            return None  # no advisory locks here: SQLite's busy handler alone, as before
        try:  # (a new process after a fork opens its own: a lock belongs to an open file)
            self._fd, self._pid = os.open(self.path, os.O_RDWR | os.O_CREAT | os.O_CLOEXEC, 0o600), os.getpid()
        except OSError:
            return None  # e.g. a read-only folder: SQLite's busy handler alone, as before
        return self._fd

    @contextmanager
    def turn(self) -> Iterator[None]:
        """Hold the queue's lock (waiting for it) for one write transaction."""
        if self.path is None:
            yield
            return
        if not self._threads.acquire(timeout=self.timeout):
            yield  # (another thread of this process holds it that long: SQLite decides)
            return
        try:
            fd = self._open()
            if fd is None or not _lock(fd, self.timeout):
                yield
                return
            try:
                yield
            finally:
                fcntl.flock(fd, fcntl.LOCK_UN)
        finally:
            self._threads.release()


def _lock(fd: int, timeout: float) -> bool:
    """Take the lock, trying again after 20 µs, 40 µs … (at most 0.5 ms apart) for ``timeout``
    seconds: a bounded wait that notices a released lock well within SQLite's first 1 ms sleep."""
    deadline = time.monotonic() + timeout
    pause = 20e-6
    while True:
        try:
            fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            return True
        except BlockingIOError:
            if time.monotonic() > deadline:
                return False
            time.sleep(pause)
            pause = min(pause * 2, 5e-4)
