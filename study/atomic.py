"""Atomic file writes: a temporary file in the target's folder, then a rename over the target."""

from __future__ import annotations

import contextlib
import os
import secrets
from collections.abc import Callable
from pathlib import Path
from typing import BinaryIO


def atomic_write(out: Path, write: Callable[[BinaryIO], None]) -> None:
    """Call ``write(binary_file)`` on a temporary file beside ``out``, then rename it to ``out``.

    Readers see the old file or the new one, never a half-written one; on failure the
    temporary file is removed and ``out`` is left as it was.
    """
    # Not mkstemp: its file is private (0600); this one gets the umask's mode, as ``out`` would.
    tmp = out.parent / f".{out.name}.{secrets.token_hex(6)}.part"
    try:
        with open(tmp, "xb") as f:
            write(f)
        os.replace(tmp, out)
    except BaseException:
        with contextlib.suppress(FileNotFoundError):
            os.unlink(tmp)
        raise
