"""The book's own evidence for a gloss: the (headword, definiens) pairs its confident rules read
somewhere in the whole 《禮經本義》.

Classical glosses repeat: 逆，迎也; 舒，徐也; 爨，竈也; 拾，更也 are standard 訓詁 pairs, and a pair that the
gate teaches where it opens a clause (「爨竈也在爨欲其熱也」, 卷二) often stands elsewhere at the end of a
clause after other words, with no 也 before it (「…廟謂殯宫爨竈也」, 卷十四), where no rule of its shape
can tell it from narration (「…主人將行也」). :func:`book_pairs` gives every pair a rule the gate
teaches reads in the Kanripo files of the project's texts (``decks/texts``: the book, 卷一–十七),
normalised (:func:`pair_key`), without the hand review and without the glosses read on this
evidence (study/terms/plainattest.py reads those): the book is read once more for it, once per
process and again only when one of its files changes (about a second).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from contextvars import ContextVar
from functools import lru_cache
from pathlib import Path

from ..model import Document, Gloss
from ..paths import texts_dir
from ..text.formats import read_text
from ..text.kanripo_lines import is_mandoku
from ..text.manifest import find_manifest
from ..text.normalize import normalize

Pair = tuple[str, str]
Reader = Callable[[Document], Iterable[Gloss]]

# Set while the book is read for its pairs: that reading uses no pairs (it would need itself).
_READING: ContextVar[bool] = ContextVar("book_pairs_reading", default=False)


def pair_key(term: str, gloss: str) -> Pair:
    """A pair as compared: both normalised (於/为/謂 …), the definiens without a closing 也."""
    return normalize(term), normalize(gloss).removesuffix("也")


def book_pairs(read: Reader, folder: Path | None = None) -> frozenset[Pair]:
    """The pairs ``read`` (the extractor and its gate, study/terms/glosses.py) teaches somewhere in
    the book (``folder``, default the project's texts); none while the book is being read for them."""
    if _READING.get():
        return frozenset()
    folder = folder if folder is not None else texts_dir()
    stamp = []
    for path in sorted(folder.glob("*.txt")):
        try:
            st = path.stat()
        except OSError:
            continue
        stamp.append((path.name, st.st_mtime_ns, st.st_size))
    return _pairs(read, folder, tuple(stamp))


@lru_cache(maxsize=4)
def _pairs(read: Reader, folder: Path, stamp: tuple[tuple[str, int, int], ...]) -> frozenset[Pair]:
    manifest = find_manifest(folder / "manifest.yaml")
    out: set[Pair] = set()
    token = _READING.set(True)
    try:
        for name, _, _ in stamp:
            data = (folder / name).read_bytes()
            if not is_mandoku(data[:4096].decode("utf-8", "ignore")):
                continue  # a seed or a translation: not the book
            entry = manifest.entry(name)
            doc = read_text(
                data,
                name,
                first_rite=entry.first_rite if entry else None,
                book=manifest.book,
                rites=entry.rites if entry else (),
            )
            out.update(pair_key(g.context, g.gloss) for g in read(doc) if g.taught)
    finally:
        _READING.reset(token)
    return frozenset(out)
