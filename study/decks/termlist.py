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
from .termcards import CATEGORY_LABELS

MAX_ROWS = 300
MAX_TERM = 20
MAX_GLOSS = 200
MAX_PINYIN = 80
_MARKUP = re.compile(r"<[^>]*>|[<>]")


# What a category may be written as: its key (as in a deck spec), or the name the cards show,
# in simplified or traditional characters (器物, 服飾 …).
_TRADITIONAL = {"服饰": "服飾", "动作": "動作", "处所": "處所"}
CATEGORY_NAMES: dict[str, str] = {
    **{key: key for key in CATEGORIES},
    **{label: key for key, label in CATEGORY_LABELS.items()},
    **{_TRADITIONAL[label]: key for key, label in CATEGORY_LABELS.items() if label in _TRADITIONAL},
}

# Each problem a row can have (a code the interface names in its language), in English.
MESSAGES = {
    "columns": "expected 2 to 4 columns (term, gloss, pinyin, category), found {found}",
    "term_empty": "the term is empty",
    "term_long": "the term has {n} characters (at most {max})",
    "gloss_empty": "the gloss is empty",
    "gloss_long": "the gloss has {n} characters (at most {max})",
    "markup": "markup such as <tags> is not allowed",
    "pinyin": "the pinyin {value!r} is not a reading",
    "category": "unknown category {value!r} (one of {names})",
    "rows": "{n} rows: a list has at most {max} rows",
}
Problem = tuple[int, str, dict[str, object]]  # row, code, values


def category_key(name: str) -> str | None:
    """The category a teacher wrote (器物, implement, IMPLEMENT …), as a key; None if unknown."""
    name = name.strip()
    return CATEGORY_NAMES.get(name) or CATEGORY_NAMES.get(name.lower())


class TermListError(StudyError):
    """Bad rows in a term list, each as ``row N: problem`` (``details``: row, code, values)."""

    def __init__(self, details: Sequence[Problem]) -> None:
        self.details = list(details)
        self.problems = [(n, MESSAGES[code].format(**values)) for n, code, values in self.details]
        super().__init__("\n".join(f"row {n}: {message}" for n, message in self.problems))


def _check(n: int, cells: Sequence[str], problems: list[Problem]) -> ExtraTerm | None:
    cells = [c.strip() for c in cells]
    while len(cells) > 2 and not cells[-1]:
        cells.pop()
    if not 2 <= len(cells) <= 4:
        problems.append((n, "columns", {"found": len(cells)}))
        return None
    term, gloss = cells[0], cells[1]
    reading = cells[2] if len(cells) > 2 and cells[2] else None
    written = cells[3] if len(cells) > 3 and cells[3] else "other"
    category = category_key(written)
    bad = len(problems)
    if not term:
        problems.append((n, "term_empty", {}))
    elif len(term) > MAX_TERM:
        problems.append((n, "term_long", {"n": len(term), "max": MAX_TERM}))
    if not gloss:
        problems.append((n, "gloss_empty", {}))
    elif len(gloss) > MAX_GLOSS:
        problems.append((n, "gloss_long", {"n": len(gloss), "max": MAX_GLOSS}))
    if any(_MARKUP.search(c) for c in cells):
        problems.append((n, "markup", {}))
    if reading is not None and (len(reading) > MAX_PINYIN or re.search(r"[^\w\s'·-]", reading)):
        problems.append((n, "pinyin", {"value": reading[:20]}))
    if category is None:
        names = ", ".join(f"{CATEGORY_LABELS[k]} ({k})" for k in CATEGORIES)
        problems.append((n, "category", {"value": written[:20], "names": names}))
    if len(problems) > bad or category is None:
        return None
    return ExtraTerm(term, (gloss,), reading, category, n)


def parse_rows(rows: Iterable[Sequence[str]]) -> list[ExtraTerm]:
    """Terms from rows of cells; raises :class:`TermListError` listing every bad row."""
    problems: list[Problem] = []
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
        problems.insert(0, (MAX_ROWS + 1, "rows", {"n": count, "max": MAX_ROWS}))
    if problems:
        raise TermListError(problems)
    return out


def parse_csv(text: str) -> list[ExtraTerm]:
    """Terms from pasted CSV (commas or tabs); a first row ``term,gloss,…`` (or 词语,释义,…) is a
    header."""
    dialect = "excel-tab" if "\t" in text.split("\n", 1)[0] else "excel"
    rows = list(csv.reader(io.StringIO(text), dialect=dialect))
    if rows and [c.strip().lower() for c in rows[0][:2]] in (["term", "gloss"], ["词语", "释义"], ["詞語", "釋義"]):
        rows[0] = []
    return parse_rows(rows)
