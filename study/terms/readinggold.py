"""Hand-checked lists of readings in context (``tests/data/gold/readings*.tsv``), read and scored.

A list is a TSV with a header row (word, context, pinyin, also, file, …) after ``#`` comment lines;
a row is read right when :func:`~study.terms.reading.reading_in` of its word in its context is its
pinyin or the second reading its references allow (``also``).
"""

from __future__ import annotations

import csv
from collections.abc import Iterable
from pathlib import Path

from .reading import reading_in


def reading_rows(path: Path) -> list[dict[str, str]]:
    """The rows of a readings list, its ``#`` lines skipped."""
    with path.open(encoding="utf-8") as f:
        return list(csv.DictReader((line for line in f if not line.startswith("#")), delimiter="\t"))


def read_right(rows: Iterable[dict[str, str]]) -> int:
    """How many ``rows`` the method reads as the list does."""
    return sum(reading_in(r["word"], r["context"]) in {r["pinyin"], r["also"]} - {""} for r in rows)
