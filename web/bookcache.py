"""The parsed book on disk: what an app reads at start-up (texts → documents, terms, quiz catalog)
is pure and takes seconds for the whole book, so the first app to build it pickles it into the
instance folder and every later app (each gunicorn worker, each restart) loads it in a tenth of a
second.

The file's name is a digest of everything the result depends on: the bytes of every file read
(texts, manifests, glossaries), the bytes of the ``study`` package (code and data) and of the
modules that put the parts together (web/state.py, this one), the Python
version and the versions of the libraries the texts are read with. A changed byte anywhere gives
a new name, so a stale file is never read; older files are removed when a new one is written.
The file is written atomically (:mod:`study.atomic`); one that cannot be read is rebuilt. The
instance folder is trusted (it holds the app's ``config.py``, which the app executes), so the
pickle in it is too.
"""

from __future__ import annotations

import hashlib
import logging
import os
import pickle
import sys
from collections.abc import Callable, Iterable
from functools import cache
from importlib import metadata
from pathlib import Path
from typing import TypeVar

import study
from study.atomic import atomic_write

T = TypeVar("T")
PREFIX, SUFFIX = "book-", ".pickle"
KEEP = 4  # files kept in the folder (the book, the seed texts of tests, …), newest first
LIBRARIES = ("OpenCC", "char_converter", "pypinyin", "PyYAML")  # what the texts are read with

log = logging.getLogger(__name__)


@cache
def code_version() -> str:
    """A digest of the ``study`` package's files (code and data), Python's version and the
    reading libraries' versions: what the cached result was computed by (made once per process)."""
    h = hashlib.blake2b(digest_size=16)
    h.update(sys.version.encode())
    for name in LIBRARIES:
        try:
            h.update(f"{name}={metadata.version(name)}".encode())
        except metadata.PackageNotFoundError:
            h.update(f"{name}=-".encode())
    root = Path(study.__file__).parent
    here = Path(__file__).parent
    code = sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts)
    for path in [*code, here / "state.py", here / "bookcache.py"]:  # and what puts the parts together
        h.update(str(path.relative_to(root.parent)).encode() + b"\0")
        h.update(path.read_bytes())
    return h.hexdigest()


def cache_key(inputs: Iterable[Path | None]) -> str:
    """A digest of the inputs' paths and bytes (a missing file counts as missing) and the code."""
    h = hashlib.blake2b(digest_size=20)
    h.update(code_version().encode())
    for path in inputs:
        if path is None:
            h.update(b"\1none\0")
            continue
        h.update(b"\1" + str(path).encode() + b"\0")
        try:
            h.update(hashlib.blake2b(path.read_bytes(), digest_size=16).digest())
        except OSError:
            h.update(b"missing")
    return h.hexdigest()


def cached(folder: Path, inputs: Iterable[Path | None], build: Callable[[], T]) -> T:
    """``build()``, or what an earlier call with the same inputs and code wrote into ``folder``.

    A folder that cannot be written only costs the next start-up the build (logged)."""
    path = folder / f"{PREFIX}{cache_key(inputs)}{SUFFIX}"
    try:
        with open(path, "rb") as f:
            return pickle.load(f)  # noqa: S301 - the instance folder is trusted (see above)
    except FileNotFoundError:
        pass
    except Exception as e:  # a truncated or foreign file: rebuilt and replaced
        log.warning("cannot read %s (%s): rebuilding it", path, e)
    result = build()
    try:
        folder.mkdir(parents=True, exist_ok=True)
        atomic_write(path, lambda f: pickle.dump(result, f, protocol=pickle.HIGHEST_PROTOCOL))
        _prune(folder, keep=path)
    except OSError as e:
        log.warning("cannot write %s (%s): the next start-up reads the texts again", path, e)
    return result


def _prune(folder: Path, keep: Path) -> None:
    """Remove all but the ``KEEP`` newest cache files (``keep`` always stays)."""
    found = []
    for p in folder.glob(f"{PREFIX}*{SUFFIX}"):
        try:
            found.append((p.stat().st_mtime, p))
        except OSError:
            continue
    found.sort(reverse=True)
    for _, p in found[KEEP:]:
        if p != keep:
            try:
                os.unlink(p)
            except OSError:
                pass
