"""Who speaks in the book's commentary: each commentator's words are a segment of their own, and
every gloss of the whole book names a commentator the table (study/data/commentators.yaml) knows."""

from __future__ import annotations

import re

import pytest

from study.model import Segment
from study.text.commentary import NEW_NOTE, _speaker_re, split_commentary
from study.text.normalize import normalize


def _segments(corpus) -> list[tuple[str, Segment]]:
    out = []
    for doc in corpus.documents:
        for rite in doc.rites:
            out.extend((doc.file, seg) for seg in rite.commentary)
            for stage in rite.stages:
                out.extend((doc.file, seg) for p in stage.passages for seg in p.commentary)
                out.extend((doc.file, seg) for seg in stage.note_commentary)
    return out


@pytest.fixture(scope="module")
def segments(book):
    return _segments(book)


def test_a_commentators_words_end_where_another_says_yue_in_mid_sentence(book):
    """鄉射禮 陳器席: 「…此詳之敖君善曰賔不言户牖間者…」 — 敖君善's words follow 之, no sentence end."""
    doc = next(d for d in book.documents if d.file == "KR1d0044_004.txt")
    stage = doc.rite("鄉射禮").stage("陳器席")
    segs = [s for p in stage.passages for s in p.commentary]
    gao = next(s for s in segs if s.speaker == "髙紫超")
    ao = segs[segs.index(gao) + 1]
    assert gao.text == "髙紫超曰賔席南面居尊位也鄉飲酒禮不及布席之面此詳之"
    assert ao.speaker == "敖君善" and ao.text.startswith("敖君善曰賔不言户牖間者可知也")
    assert (gao.line, ao.line) == (27, 28)  # each keeps the line its words start on


def test_no_segment_of_the_book_holds_a_second_commentators_yue(segments):
    inside = [
        (file, seg.line, seg.text[:30])
        for file, seg in segments
        for m in _speaker_re().finditer(normalize(seg.text))
        if m.group(2) == "曰" and normalize(seg.text)[: m.start()].strip() not in ("", NEW_NOTE)
    ]
    assert inside == []


def test_a_name_after_the_note_mark_opens_one_segment_with_its_mark():
    segs = split_commentary("懸謂懸磬也○敖君善曰懸不近階者宜避東懸之正位也")
    assert [(s.speaker, s.text) for s in segs] == [
        (None, "懸謂懸磬也"),
        ("敖君善", "○敖君善曰懸不近階者宜避東懸之正位也"),
    ]


def test_every_segment_of_the_book_has_words_besides_a_mark(segments):
    assert [(f, s.line) for f, s in segments if not re.sub(r"[○\s]", "", s.text)] == []
