"""Which reader a text needs, decided by its content (never by its file name)."""

from __future__ import annotations

from collections.abc import Iterable

from ..errors import CorpusFormatError
from ..model import Document
from .corpus import decode, parse_corpus
from .kanripo import parse_kanripo
from .kanripo_lines import is_mandoku
from .manifest import Manifest

KANRIPO = "kanripo"
PLAIN = "plain"


def _has_han(line: str) -> bool:
    return any("\u3400" <= ch <= "\u9fff" or "\U00020000" <= ch <= "\U0003134f" for ch in line)


def text_format(text: str, path: str) -> str:
    """``kanripo`` (a mandoku file), ``plain`` (the seed format: a line a paragraph, notes in 【】),
    or a :class:`CorpusFormatError` at the first line for a file that is neither."""
    if is_mandoku(text):
        return KANRIPO
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if any(_has_han(line) for line in lines):
        return PLAIN
    first = next((n for n, line in enumerate(lines, 1) if line.strip()), 1)
    if not any(line.strip(" \t\u3000\ufeff") for line in lines):
        raise CorpusFormatError("the file is empty", path=path, line=1)
    raise CorpusFormatError(
        "neither a Kanripo (mandoku) text nor a plain text of the book: no Chinese characters", path=path, line=first
    )


def read_text(
    data: str | bytes,
    path: str,
    *,
    first_rite: str | None = None,
    book: str = "礼经本义",
    rites: Iterable[str] = (),
) -> Document:
    """Parse a text in whichever format its content shows."""
    text = decode(data, path) if isinstance(data, bytes) else data
    if text_format(text, path) == KANRIPO:
        return parse_kanripo(text, path, first_rite=first_rite)
    return parse_corpus(text, path, first_rite=first_rite, book=book, rites=rites)


def read_listed(data: bytes, name: str, manifest: Manifest) -> Document:
    """Parse a text as its folder's manifest lists it: the rite it opens in, its rites, the book."""
    entry = manifest.entry(name)
    return read_text(
        data,
        name,
        first_rite=entry.first_rite if entry else None,
        book=manifest.book,
        rites=entry.rites if entry else (),
    )
