"""Readings in context on text the method was not tuned to (issue 11): the second held-out list,
drawn from the classic of the whole book by scripts/readings_heldout2_draw.py and written by hand,
blind, before the method was run on it (tests/data/gold/heldout/readings_heldout2.tsv). Only its
total is scored: which rows fail is never printed, so that it stays held out."""

from __future__ import annotations

import pytest

from study.terms.readinggold import read_right, reading_rows
from tests.conftest import DATA
from tests.test_readings_context4 import _classic_line, _overlap

HELD_OUT = DATA / "gold" / "heldout" / "readings_heldout2.tsv"
EARLIER = ("readings.tsv", "readings_dev2.tsv", "readings_dev3.tsv", "readings_dev4.tsv")
FLOOR = 233 / 238  # the first (and only) scoring, 2026-12-01: 0.979
TARGET = 0.99  # issue 11


def _rows() -> list[dict[str, str]]:
    return reading_rows(HELD_OUT)


def test_the_held_out_list_is_large_mostly_polyphones_referenced_and_new():
    rows = _rows()
    assert len(rows) >= 200 and sum(r["polyphone"] == "yes" for r in rows) >= 100
    assert all(r["reference"] and r["pinyin"] for r in rows)
    assert all(len(r["pinyin"].split()) == len(r["word"]) and r["word"] in r["context"] for r in rows)
    assert len({r["file"] for r in rows}) >= 15  # drawn from the whole book
    assert _overlap(rows, EARLIER) == 0
    header = HELD_OUT.read_text(encoding="utf-8").split("\nword\t")[0]
    assert "BEFORE the method" in header


def _from_line(file: str, line: int) -> str:
    """The classic from a line of the book on to the end of the next: a word may run on past a line end."""
    return "".join(_classic_line(file, n).strip().removesuffix("¶").strip() for n in (line, line + 1))


def test_every_row_stands_on_its_line_of_the_book():
    assert all(
        _from_line(r["file"], int(r["line"])).find(r["word"]) in range(len(_classic_line(r["file"], int(r["line"]))))
        for r in _rows()
    )


def test_the_held_out_list_is_read_as_measured():
    rows = _rows()
    assert read_right(rows) / len(rows) >= FLOOR


@pytest.mark.xfail(
    reason="issue 11 asks 99 % on text not tuned to; the second held-out list reads 233/238", strict=False
)
def test_the_held_out_list_reaches_the_issue_target():
    rows = _rows()
    assert read_right(rows) / len(rows) >= TARGET
