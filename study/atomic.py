"""Atomic file writes: a temporary file in the target's folder, then a rename over the target.

A writer holds an advisory lock (``flock``) on its temporary file until the rename. A temporary
file that nobody holds a lock on was left by a writer that died (SIGKILL, power cut), and the
next successful write of the same target removes it. Where ``fcntl`` is missing (Windows) such
leftovers stay.
"""

from __future__ import annotations

import contextlib
import os
import re
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO

try:
    import fcntl
except ImportError:  # pragma: no cover - Windows
    fcntl = None  # type: ignore[assignment]


def atomic_write(out: Path, write: Callable[[BinaryIO], None]) -> None:
    """Call ``write(binary_file)`` on a temporary file beside ``out``, then rename it to ``out``.

    Readers see the old file or the new one, never a half-written one; on failure the
    temporary file is removed and ``out`` is left as it was.
    """
    f, tmp = _locked_temp(out)
    try:
        with f:
            write(f)
            f.flush()
            os.fsync(f.fileno())  # the data is on disk before the name points at it
            os.replace(tmp, out)  # while the lock is held: a sweeper never takes a live file
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
    _sweep(out)


def _locked_temp(out: Path) -> tuple[BinaryIO, Path]:
    """A new temporary file beside ``out``, opened and locked."""
    while True:
        # Not mkstemp: its file is private (0600); this one gets the umask's mode, as ``out`` would.
        tmp = out.parent / f".{out.name}.{secrets.token_hex(6)}.part"
        f = open(tmp, "xb")  # closed by the caller
        if fcntl is None:
            return f, tmp
        fcntl.flock(f.fileno(), fcntl.LOCK_EX)
        # A sweeper may have taken the lock between open and flock and removed the file as stale.
        try:
            if os.stat(tmp).st_ino == os.fstat(f.fileno()).st_ino:
                return f, tmp
        except FileNotFoundError:
            pass
        f.close()


def _sweep(out: Path) -> None:
    """Remove the temporary files of writers of ``out`` that died before their rename."""
    if fcntl is None:
        return
    pattern = re.compile(rf"\.{re.escape(out.name)}\.[0-9a-f]{{12}}\.part")
    for name in os.listdir(out.parent):
        if not pattern.fullmatch(name):
            continue
        path = out.parent / name
        try:
            f = open(path, "rb")
        except OSError:  # renamed or removed meanwhile, or not ours to read
            continue
        with f:
            try:
                fcntl.flock(f.fileno(), fcntl.LOCK_EX | fcntl.LOCK_NB)
            except OSError:  # a live writer holds it
                continue
            with contextlib.suppress(OSError):
                if os.stat(path).st_ino == os.fstat(f.fileno()).st_ino:
                    os.unlink(path)
