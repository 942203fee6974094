"""The book's own evidence for a gloss: the (headword, definiens) pairs its confident rules read
somewhere in the whole 《禮經本義》.

Classical glosses repeat: 逆，迎也; 舒，徐也; 爨，竈也; 拾，更也 are standard 訓詁 pairs, and a pair that the
gate teaches where it opens a clause (「爨竈也在爨欲其熱也」, 卷二) often stands elsewhere at the end of a
clause after other words, with no 也 before it (「…廟謂殯宫爨竈也」, 卷十四), where no rule of its shape
can tell it from narration (「…主人將行也」). :func:`book_pairs` gives every pair a rule the gate
teaches reads in the Kanripo files of the project's texts (``decks/texts``: the book, 卷一–十七),
normalised (:func:`pair_key`), without the hand review and without the glosses read on this
evidence (study/terms/plainattest.py reads those).

Reading the book for it takes seconds (every file of the book, whatever texts a deck names), so
the pairs are kept on disk (:func:`cache_dir`: ``$STUDY_CACHE``, else ``$XDG_CACHE_HOME/study``, else
``~/.cache/study``) under a key made of the book's files (name, size, time) and of the code and data
the book is read with (every file of the ``study`` package): a process reads the book only when
one of them changed, and then writes the pairs for the next (an unwritable folder only costs the
read; the 16 newest files are kept). In a process they are kept as well; the book's files are looked at once per
:func:`one_look` (a load of many texts, study/terms/glossary.py), else once per call.
"""

from __future__ import annotations

import hashlib
import json
import os
from collections.abc import Callable, Iterable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from ..atomic import atomic_write
from ..model import Document, Gloss
from ..paths import texts_dir
from ..text.formats import read_listed
from ..text.kanripo_lines import is_mandoku
from ..text.manifest import find_manifest
from ..text.normalize import normalize

Pair = tuple[str, str]
Reader = Callable[[Document], Iterable[Gloss]]

KEEP = 16  # files of pairs kept in the cache folder, the newest
Stamp = tuple[tuple[str, int, int], ...]  # the book's files as looked at: name, time, size

# Set while the book is read for its pairs: that reading uses no pairs (it would need itself).
_READING: ContextVar[bool] = ContextVar("book_pairs_reading", default=False)
_LOOKED: ContextVar[dict[Path, Stamp] | None] = ContextVar("book_pairs_looked", default=None)


def pair_key(term: str, gloss: str) -> Pair:
    """A pair as compared: both normalised (於/为/謂 …), the definiens without a closing 也."""
    return normalize(term), normalize(gloss).removesuffix("也")


def book_pairs(read: Reader, folder: Path | None = None) -> frozenset[Pair]:
    """The pairs ``read`` (the extractor and its gate, study/terms/glosses.py) teaches somewhere in
    the book (``folder``, default the project's texts); none while the book is being read for them."""
    if _READING.get():
        return frozenset()
    folder = folder if folder is not None else texts_dir()
    looked = _LOOKED.get()
    stamp = looked.get(folder) if looked is not None else None
    if stamp is None:
        stamp = _stamp(folder)
        if looked is not None:
            looked[folder] = stamp
    return _pairs(read, folder, stamp)


@contextmanager
def one_look() -> Iterator[None]:
    """Within it the book's files are looked at once per folder (a load of 18 texts asks for the
    evidence once per text: 18 × 22 stat calls before)."""
    token = _LOOKED.set({})
    try:
        yield
    finally:
        _LOOKED.reset(token)


def _stamp(folder: Path) -> Stamp:
    out = []
    for path in sorted([*folder.glob("*.txt"), folder / "manifest.yaml"]):
        try:
            st = path.stat()
        except OSError:
            continue
        out.append((path.name, st.st_mtime_ns, st.st_size))
    return tuple(out)


def cache_dir() -> Path:
    """Where the book's pairs are kept between processes."""
    if os.environ.get("STUDY_CACHE"):
        return Path(os.environ["STUDY_CACHE"])
    return Path(os.environ.get("XDG_CACHE_HOME") or Path.home() / ".cache") / "study"


@lru_cache(maxsize=1)
def _code() -> str:
    """A digest of the ``study`` package's files (code and data): pairs read by other code are not used."""
    root = Path(__file__).resolve().parents[1]
    h = hashlib.blake2b(digest_size=16)
    for path in sorted(p for p in root.rglob("*") if p.is_file() and "__pycache__" not in p.parts):
        h.update(str(path.relative_to(root)).encode() + b"\0" + path.read_bytes() + b"\0")
    return h.hexdigest()


def cache_file(read: Reader, folder: Path, stamp: Stamp) -> Path:
    """The file holding the pairs ``read`` finds in the book of ``folder`` as ``stamp`` saw it."""
    key = repr((str(folder.resolve()), stamp, read.__module__, read.__qualname__, _code()))
    return cache_dir() / f"bookpairs-{hashlib.blake2b(key.encode(), digest_size=12).hexdigest()}.json"


@lru_cache(maxsize=4)
def _pairs(read: Reader, folder: Path, stamp: Stamp) -> frozenset[Pair]:
    kept = cache_file(read, folder, stamp)
    try:
        return frozenset((a, b) for a, b in json.loads(kept.read_text("utf-8")))
    except (OSError, ValueError, TypeError):
        pass  # not kept yet (or unreadable): read the book
    out = _read_book(read, folder, stamp)
    try:
        kept.parent.mkdir(parents=True, exist_ok=True)
        atomic_write(kept, lambda f: f.write(json.dumps(sorted(out), ensure_ascii=False).encode()))
        for old in sorted(kept.parent.glob("bookpairs-*.json"), key=_age)[KEEP:]:
            old.unlink(missing_ok=True)  # pairs of books or code long gone
    except OSError:
        pass  # a folder that cannot be written: the next process reads the book again
    return out


def _age(path: Path) -> float:
    try:
        return -path.stat().st_mtime
    except OSError:
        return 0.0


def _read_book(read: Reader, folder: Path, stamp: Stamp) -> frozenset[Pair]:
    manifest = find_manifest(folder / "manifest.yaml")
    out: set[Pair] = set()
    token = _READING.set(True)
    try:
        for name, _, _ in stamp:
            if not name.endswith(".txt"):
                continue
            data = (folder / name).read_bytes()
            if not is_mandoku(data[:4096].decode("utf-8", "ignore")):
                continue  # a seed or a translation: not the book
            doc = read_listed(data, name, manifest)
            # Not a tail read past a definiens that ran on into it (study/terms/plainmid.py, run-on): a
            # clause-end reading itself, as evidence it would read its own place again as tail-attested.
            out.update(pair_key(g.context, g.gloss) for g in read(doc) if g.taught and ":run-on" not in g.rule)
    finally:
        _READING.reset(token)
    return frozenset(out)
