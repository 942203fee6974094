"""The lines of a Kanripo (mandoku) text: headers, page marks, indentation, text and double-line notes.

A mandoku file transcribes a printed page line by line: ``#`` headers, ``<pb:…>`` page marks,
and text lines ending in ``¶``. Full-width spaces at the start of a line are its indentation.
Small double-line notes are written ``(RIGHT/LEFT)``: the right column, then the left one; two
ASCII spaces inside a note are an empty cell of the printed page: a break between notes, a cell
the transcription put in the wrong column, or a lacuna (study/text/kanripo_cells.py). ``&KR0245;`` stands for a
character Unicode lacks.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from ..errors import CorpusFormatError
from .kanripo_cells import CELL, mend_columns

PILCROW = "¶"
INDENT = "\u3000"
EMPTY_CELL = "  "  # two ASCII spaces: one empty cell of the printed page
MISSING = "▯"  # a character Unicode lacks, as the project marks it
_ENTITY = re.compile(r"&([^;&\s]{0,16});")
_KNOWN_ENTITY = re.compile(r"KR\d{4,5}")
_PAGE = re.compile(r"<pb:([^>]*)>")
HEADER_RE = re.compile(r"^#\+(\w+):\s*(.*?)\s*$")


@dataclass(frozen=True)
class Run:
    """A run of one line: classic text (``note=False``) or one column pair of a note."""

    text: str
    note: bool
    cells: int  # printed cells the run takes (a note takes its longer column)


@dataclass
class KLine:
    """One text line of a mandoku file."""

    n: int
    indent: int
    runs: list[Run]
    page: str | None

    @property
    def plain(self) -> str:
        return "".join(r.text for r in self.runs if not r.note)

    @property
    def only_notes(self) -> bool:
        return bool(self.runs) and all(r.note or not r.text.strip(" \u3000") for r in self.runs)

    @property
    def starts_with_note(self) -> bool:
        for r in self.runs:
            if r.note:
                return True
            if r.text.strip(" \u3000"):
                return False
        return False

    @property
    def cells(self) -> int:
        return self.indent + sum(r.cells for r in self.runs)


@dataclass
class KFile:
    """A mandoku file split into header properties and text lines."""

    path: str
    properties: dict[str, str] = field(default_factory=dict)
    lines: list[KLine] = field(default_factory=list)
    warnings: list[str] = field(default_factory=list)
    missing: list[tuple[int, str]] = field(default_factory=list)  # (line, entity code)


def is_mandoku(text: str) -> bool:
    """True if ``text`` looks like a mandoku file: its first line is a header, page mark or ends in ¶."""
    for raw in text.splitlines():
        line = raw.strip()
        if not line:
            continue
        return line.startswith(("# -*- mode: mandoku", "#+", "<pb:")) or line.endswith(PILCROW)
    return False


def _entities(text: str, n: int, kf: KFile) -> str:
    def sub(m: re.Match[str]) -> str:
        code = m.group(1)
        if not _KNOWN_ENTITY.fullmatch(code):
            kf.warnings.append(f"{kf.path}:{n}: unknown entity {m.group(0)!r}: kept as written")
            return m.group(0)
        kf.missing.append((n, code))
        return MISSING

    return _ENTITY.sub(sub, text) if "&" in text else text


def split_runs(body: str, n: int, path: str) -> list[Run]:
    """Text and note runs of one line body (a note is its right column, then its left one)."""
    runs: list[Run] = []
    i = 0
    while i < len(body):
        open_ = body.find("(", i)
        close = body.find(")", i)
        slash = body.find("/", i)
        stop = len(body) if open_ == -1 else open_
        if close != -1 and close < stop:
            raise CorpusFormatError(f") at column {close + 1} closes no (", path=path, line=n)
        if slash != -1 and slash < stop:
            raise CorpusFormatError(f"/ at column {slash + 1} stands outside a (…) note", path=path, line=n)
        if stop > i:
            text = body[i:stop]
            runs.append(Run(text, False, len(text)))
        if open_ == -1:
            break
        end = body.find(")", open_ + 1)
        if end == -1:
            raise CorpusFormatError(f"( at column {open_ + 1} is never closed on its line", path=path, line=n)
        inner = body[open_ + 1 : end]
        if "(" in inner:
            raise CorpusFormatError(
                f"( at column {open_ + 1} is not closed before the next ( (column {open_ + 2 + inner.index('(')})",
                path=path,
                line=n,
            )
        right, sep, left = inner.partition("/")
        if "/" in left:
            raise CorpusFormatError(f"the note at column {open_ + 1} has more than one /", path=path, line=n)
        if not sep:
            # A note without its column mark is still readable: one column.
            right, left = inner, ""
        cells = max(_cells(right), _cells(left))
        right, left = mend_columns(right.replace(EMPTY_CELL, CELL), left.replace(EMPTY_CELL, CELL))
        runs.append(Run(right + left, True, cells))
        i = end + 1
    return runs


def _cells(column: str) -> int:
    return len(column) - column.count(EMPTY_CELL)


def read_lines(text: str, path: str) -> KFile:
    """Split a mandoku file into headers and text lines, checking what a reader relies on."""
    kf = KFile(path)
    page: str | None = None
    raw_lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    last_content = 0
    for n, raw in enumerate(raw_lines, 1):
        line = raw.rstrip(" \t\n")
        if line.startswith("#"):
            m = HEADER_RE.match(line)
            if m:
                kf.properties[m.group(1)] = m.group(2)
            continue
        if not line:
            continue
        m = _PAGE.match(line)
        if m:
            page = m.group(1)
            line = line[m.end() :]
            if line in ("", PILCROW):
                continue
        last_content = n
        if line.endswith(PILCROW):
            line = line[: -len(PILCROW)]
        elif n < len(raw_lines) - 1 or any(r.strip() for r in raw_lines[n:]):
            kf.warnings.append(f"{path}:{n}: the line does not end with ¶")
        if PILCROW in line:
            raise CorpusFormatError(f"¶ at column {line.index(PILCROW) + 1} inside the line", path=path, line=n)
        body = line.lstrip(INDENT)
        indent = len(line) - len(body)
        body = _entities(body, n, kf)
        kf.lines.append(KLine(n, indent, split_runs(body, n, path), page))
    if last_content and not raw_lines[last_content - 1].rstrip().endswith(PILCROW):
        kf.warnings.append(f"{path}:{last_content}: the last line has no ¶: the file may be truncated")
    return kf
