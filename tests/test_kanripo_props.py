"""Property tests of the Kanripo reader: any text reads or raises the corpus error, and every
classic and note character appears exactly once, in reading order (right column, then left) —
a note's columns as mended (an empty cell put back in the column it stood in on the page, a
lacuna shown as □: study/text/kanripo_cells.py)."""

from __future__ import annotations

import re

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from study.errors import CorpusFormatError
from study.model import Document
from study.text.kanripo import parse_kanripo
from study.text.kanripo_cells import CELL, mend_columns

HEAD = "#+TITLE: 禮經本義\n#+PROPERTY: JUAN 卷四\n"
CHARS = "甲乙丙丁也之曰者賔髙右"
WORDS = [*CHARS, "郝仲輿曰", "○", "  ", "&KR0245;", "句"]
words = st.lists(st.sampled_from(WORDS), min_size=1, max_size=8).map("".join)
note = st.tuples(words, words).map(lambda rl: f"({rl[0]}/{rl[1]})")
run = st.one_of(words, note)
classic = st.lists(run, min_size=1, max_size=4).map("".join)
own_note = st.lists(note, min_size=1, max_size=2).map(lambda ns: "\u3000" + "".join(ns))
heading = st.tuples(st.text(alphabet="甲乙丙丁賔", min_size=1, max_size=4), st.lists(run, max_size=3)).map(
    lambda t: "\u3000\u3000\u3000右" + t[0] + ("\u3000" + "".join(t[1]) if t[1] else "")
)
heading_more = st.lists(run, min_size=1, max_size=3).map(lambda rs: "\u3000\u3000\u3000" + "".join(rs))
page = st.just("<pb:KR_004-1a>")
title = st.sampled_from(["\u3000\u3000鄉射禮", "\u3000\u3000燕禮", "\u3000嘉禮"])
body_line = st.one_of(classic, classic, own_note, heading, heading_more, page, title)
texts = st.lists(body_line, min_size=1, max_size=14).map(lambda ls: HEAD + "".join(line + "¶\n" for line in ls))

_DROP = set(" \t\u3000¶\n【】()/")


def _mended(m: re.Match[str]) -> str:
    right, _, left = m.group(1).partition("/")
    return "(" + "/".join(mend_columns(right.replace("  ", CELL), left.replace("  ", CELL))) + ")"


def _reading(text: str) -> str:
    """The characters a reader must keep, in reading order: headers, page marks and layout dropped,
    a note's right column before its left, its empty cells mended, an entity one ▯."""
    out = []
    for line in text.split("\n"):
        if line.startswith(("#", "<pb")):
            continue
        out.append(re.sub(r"\(([^()]*)\)", _mended, line.replace("&KR0245;", "▯")))
    return "".join(ch for ch in "".join(out) if ch not in _DROP)


def _stream(doc: Document) -> str:
    items: list[tuple[int, int, str]] = []
    order = 0
    for t in doc.titles:
        items.append((t.line, order, t.text.replace("（", "").replace("）", "")))
        order += 1
    for rite in doc.rites:
        for s in rite.commentary:
            items.append((s.line, order, s.text))
            order += 1
        for stage in rite.stages:
            for p in stage.passages:
                items.append((p.pieces[0].line, order, "".join(pc.text for pc in p.pieces)))
                order += 1
            if stage.name is not None:
                items.append((stage.line, order, stage.heading))
                order += 1
    items.sort(key=lambda item: (item[0], item[1]))
    return "".join(ch for ch in "".join(text for *_, text in items) if ch not in _DROP)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_any_kanripo_text_reads_or_raises_the_corpus_error(text):
    try:
        parse_kanripo(text, "h.txt", first_rite="鄉射禮")
    except CorpusFormatError as e:
        assert str(e).startswith("h.txt:")


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(note)
def test_mending_a_note_keeps_its_columns_lengths_and_trades_only_a_cell_for_a_character(group):
    right, _, left = group[1:-1].partition("/")
    right, left = right.replace("  ", CELL), left.replace("  ", CELL)
    r2, l2 = mend_columns(right, left)
    assert (len(r2), len(l2)) == (len(right), len(left))
    assert sorted((r2 + l2).replace("□", CELL)) == sorted(right + left)
    for before, after, other_before, other_after in ((right, r2, left, l2), (left, l2, right, r2)):
        for k, (a, b) in enumerate(zip(before, after, strict=True)):
            if a != b:  # a cell read as a lacuna, or traded with the character beside it
                assert a == CELL or b == CELL
                assert b == "□" or (other_before[k], other_after[k]) == (b, a)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(texts)
def test_every_classic_and_note_character_appears_exactly_once_in_reading_order(text):
    try:
        doc = parse_kanripo(text, "h.txt", first_rite="鄉射禮")
    except CorpusFormatError:
        return
    assert _stream(doc) == _reading(text)
