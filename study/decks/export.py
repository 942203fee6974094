"""The same deck as text files, for teachers who use other tools.

- ``.csv``: Anki's text import (File → Import), with the header lines Anki reads: note type
  Basic, one deck and the tags per row, and a GUID column so that importing a corrected file
  again updates the notes instead of adding copies.
- ``.tsv``: term TAB definition, one card a line, no header: what Quizlet's import expects
  (Anki reads it too, as Basic notes).

Both hold plain text (HTML off), one row per note that has a front and back: terms, passages
with a translation, and the position of each stage or step. A cell that a spreadsheet would run
as a formula (``=``, ``+``, ``-``, ``@``) starts with an apostrophe.
"""

from __future__ import annotations

import csv
import hashlib
import io
from collections.abc import Sequence
from pathlib import Path

from ..atomic import atomic_write
from .markup import plain
from .notedata import NoteData


def spreadsheet_cell(text: str) -> str:
    """``text`` that a spreadsheet opening the file shows as text, never runs as a formula
    (``=HYPERLINK(…)``, ``+1``, ``@SUM(…)``): such a cell gets a leading apostrophe (OWASP's advice)."""
    return "'" + text if text[:1] in ("=", "+", "-", "@", "\t", "\r") else text


def _rows(notes: Sequence[NoteData]) -> list[tuple[NoteData, str, str]]:
    return [
        (n, spreadsheet_cell(plain(n.plain[0])), spreadsheet_cell(plain(n.plain[1])))
        for n in notes
        if n.plain and n.plain[0] and n.plain[1]
    ]


def csv_guid(note: NoteData) -> str:
    """A GUID of its own for the CSV note (a Basic note must not take the GUID of the package's note)."""
    return "csv-" + hashlib.sha256("\x1f".join(note.identity).encode()).hexdigest()[:16]


def write_csv(notes: Sequence[NoteData], out: Path) -> int:
    """Write the Anki text-import CSV; returns the number of rows."""
    buf = io.StringIO()
    for header in (
        "#separator:Comma",
        "#html:false",
        "#notetype:Basic",
        "#columns:GUID,Front,Back,Deck,Tags",
        "#guid column:1",
        "#deck column:4",
        "#tags column:5",
    ):
        buf.write(header + "\n")
    writer = csv.writer(buf, lineterminator="\n")
    rows = _rows(notes)
    for n, front, back in rows:
        writer.writerow([csv_guid(n), front, back, spreadsheet_cell(n.deck), spreadsheet_cell(" ".join(n.tags))])
    atomic_write(out, lambda f: f.write(buf.getvalue().encode("utf-8")))
    return len(rows)


def write_tsv(notes: Sequence[NoteData], out: Path) -> int:
    """Write term TAB definition lines (Quizlet, or Anki's text import); returns the number of rows."""
    rows = _rows(notes)
    text = "".join(f"{front}\t{back}\n" for _, front, back in rows)
    atomic_write(out, lambda f: f.write(text.encode("utf-8")))
    return len(rows)
