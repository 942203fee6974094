"""A teacher's own terms, typed in a table or pasted as CSV: ``term, gloss[, pinyin[, category]]``.

Every bad row is reported (row number and problem) and nothing is kept unless all rows are good.
"""

from __future__ import annotations

import csv
import io
import re
from collections.abc import Iterable, Sequence

from ..errors import StudyError
from ..model import CATEGORIES
from .deckspec import ExtraTerm

MAX_ROWS = 300
MAX_TERM = 20
MAX_GLOSS = 200
MAX_PINYIN = 80
_MARKUP = re.compile(r"<[^>]*>|[<>]")


class TermListError(StudyError):
    """Bad rows in a term list, each as ``row N: problem``."""

    def __init__(self, problems: Sequence[tuple[int, str]]) -> None:
        self.problems = list(problems)
        super().__init__("\n".join(f"row {n}: {message}" for n, message in self.problems))


def _check(n: int, cells: Sequence[str], problems: list[tuple[int, str]]) -> ExtraTerm | None:
    cells = [c.strip() for c in cells]
    while len(cells) > 2 and not cells[-1]:
        cells.pop()
    if not 2 <= len(cells) <= 4:
        problems.append((n, f"expected 2 to 4 columns (term, gloss, pinyin, category), found {len(cells)}"))
        return None
    term, gloss = cells[0], cells[1]
    reading = cells[2] if len(cells) > 2 and cells[2] else None
    category = cells[3] if len(cells) > 3 and cells[3] else "other"
    bad = len(problems)
    if not term:
        problems.append((n, "the term is empty"))
    elif len(term) > MAX_TERM:
        problems.append((n, f"the term has {len(term)} characters (at most {MAX_TERM})"))
    if not gloss:
        problems.append((n, "the gloss is empty"))
    elif len(gloss) > MAX_GLOSS:
        problems.append((n, f"the gloss has {len(gloss)} characters (at most {MAX_GLOSS})"))
    if any(_MARKUP.search(c) for c in cells):
        problems.append((n, "markup such as <tags> is not allowed"))
    if reading is not None and (len(reading) > MAX_PINYIN or re.search(r"[^\w\s'·-]", reading)):
        problems.append((n, f"the pinyin {reading[:20]!r} is not a reading"))
    if category not in CATEGORIES:
        problems.append((n, f"unknown category {category[:20]!r} (one of {', '.join(CATEGORIES)})"))
    if len(problems) > bad:
        return None
    return ExtraTerm(term, (gloss,), reading, category, n)


def parse_rows(rows: Iterable[Sequence[str]]) -> list[ExtraTerm]:
    """Terms from rows of cells; raises :class:`TermListError` listing every bad row."""
    problems: list[tuple[int, str]] = []
    out: list[ExtraTerm] = []
    count = 0
    for n, cells in enumerate(rows, 1):
        if not any(c.strip() for c in cells):
            continue
        count += 1
        if count > MAX_ROWS:
            continue
        term = _check(n, cells, problems)
        if term is not None:
            out.append(term)
    if count > MAX_ROWS:
        problems.insert(0, (MAX_ROWS + 1, f"{count} rows: a list has at most {MAX_ROWS} rows"))
    if problems:
        raise TermListError(problems)
    return out


def parse_csv(text: str) -> list[ExtraTerm]:
    """Terms from pasted CSV (commas or tabs); a first row ``term,gloss,…`` is a header."""
    dialect = "excel-tab" if "\t" in text.split("\n", 1)[0] else "excel"
    rows = list(csv.reader(io.StringIO(text), dialect=dialect))
    if rows and [c.strip().lower() for c in rows[0][:2]] == ["term", "gloss"]:
        rows[0] = []
    return parse_rows(rows)
