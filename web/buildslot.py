"""Deck builds from the teacher's page: at most one at a time on the machine, and a rate per
teacher, so that learners' requests keep free workers while teachers build.

The slot is an advisory lock (``flock``) on a file in the instance folder, shared by every worker
of every process on the machine; a build that finds it taken is answered 429 with Retry-After at
once rather than queued (a queued build would hold a worker as long as the build before it). The
per-teacher rate is the ``deck_build`` rule of :mod:`web.ratelimit`, counted in the database.
"""

from __future__ import annotations

import contextlib
import os
from collections.abc import Iterator
from pathlib import Path

from flask import current_app
from werkzeug.exceptions import TooManyRequests

from .i18n import t
from .ratelimit import check

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows: one build per process only
    fcntl = None  # type: ignore[assignment]

RETRY_SECONDS = 5


@contextlib.contextmanager
def build_slot(teacher_id: int) -> Iterator[None]:
    """Hold the machine's build slot for one build by ``teacher_id`` (429 if taken or over rate)."""
    check("deck_build", f"teacher:{teacher_id}")
    path = Path(current_app.instance_path) / "deck-build.lock"
    fd = os.open(path, os.O_RDWR | os.O_CREAT, 0o600)
    try:
        if fcntl is not None:
            try:
                fcntl.flock(fd, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                raise TooManyRequests(t("err_rate_limited", seconds=RETRY_SECONDS), retry_after=RETRY_SECONDS) from None
        yield
    finally:
        os.close(fd)  # closing releases the lock
