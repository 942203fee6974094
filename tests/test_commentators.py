"""Who speaks in the book's commentary: each commentator's words are a segment of their own, and
every gloss of the whole book names a commentator the table (study/data/commentators.yaml) knows."""

from __future__ import annotations

import re

import pytest

from study.model import Segment
from study.terms.glosses import book_author, extract_glosses
from study.text.commentary import NEW_NOTE, _speaker_re, split_commentary
from study.text.normalize import normalize
from study.text.translation import person, persons


def _segments(documents) -> list[tuple[str, Segment]]:
    out = []
    for doc in documents:
        for rite in doc.rites:
            out.extend((doc.file, seg) for seg in rite.commentary)
            for stage in rite.stages:
                out.extend((doc.file, seg) for p in stage.passages for seg in p.commentary)
                out.extend((doc.file, seg) for seg in stage.note_commentary)
    return out


@pytest.fixture(scope="module")
def segments(book):
    return _segments(book.documents)


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


@pytest.fixture(scope="module")
def glosses(book):
    return [g for doc in book.documents for g in extract_glosses(doc)]


def test_a_gloss_after_ren_yisheng_yue_is_credited_to_him(book, glosses):
    """卷十七 「任翼聖曰上客正使也臨視也…」: the segment names him as written, the glosses are his."""
    doc = next(d for d in book.documents if d.file == "KR1d0044_017.txt")
    seg = next(s for _, s in _segments([doc]) if s.text.startswith("任翼聖曰上客正使也"))
    assert seg.speaker == "任翼聖" and person(seg.speaker) == "任启运"
    found = {(g.context, g.gloss): g for g in glosses if g.file == doc.file and g.line == 492}
    assert found[("上客", "正使")].speaker == found[("臨", "視")].speaker == "任翼聖"  # as written


def test_a_reported_view_name_wei_lasts_one_clause_then_the_author_speaks_again(book, glosses):
    """「…郝仲輿謂…也還右轉而南向也」: NAME謂 (or 云) reports one clause; the gloss after it is the
    author's. NAME曰 opens a commentator's words to the end of the segment (the test above)."""
    mine = {(g.file, g.line, g.context, g.gloss): g.speaker for g in glosses}
    assert mine[("KR1d0044_004.txt", 291, "還", "右轉而南向")] == "蔡德晉"
    assert mine[("KR1d0044_015.txt", 281, "嗇", "黍")] == "蔡德晉"
    assert mine[("KR1d0044_003.txt", 36, "屬", "連接")] == "蔡德晉"  # after 「鄭康成謂…是也」
    doc = next(d for d in book.documents if d.file == "KR1d0044_004.txt")
    seg = next(s for _, s in _segments([doc]) if "右轉而南向" in s.text)
    assert "郝仲輿謂" in seg.text[: seg.text.index("還右轉而南向")]


def test_every_gloss_of_the_book_names_the_author_or_a_commentator_of_the_table(book, glosses):
    authors = {book_author(doc) for doc in book.documents}
    assert [(g.file, g.line, g.speaker) for g in glosses if g.speaker not in authors and not person(g.speaker)] == []


def test_no_gloss_of_the_book_takes_a_commentators_name_for_its_term_or_definiens(glosses):
    """A name of the table opening its words is a speaker, not a definiens: 「…某鄧元錫曰…」 was read
    as 某 → 鄧元錫 (and 沈存中, 李實之, 陸農師, 皇氏侃 likewise) while those names were missing."""
    named = [(g.file, g.line, g.context, g.gloss) for g in glosses if person(g.gloss) or person(g.context)]
    assert named == []


# X氏Y曰 / X氏謂 in the book that are not a commentator speaking.
NOT_A_COMMENTATOR = {
    "戴氏记": "戴氏記曰: the 禮記 (戴聖's), a book quoted",
    "应氏乃": "應氏乃謂: 應氏 (in the table) with 乃",
}


def test_every_x_shi_y_opener_of_the_book_is_a_commentator_in_the_table(segments):
    """The book writes a name with 氏 after the surname (車氏垓, 賈氏公彦, 顧氏炎武): each such
    opener is a person of the table, or a known exception."""
    unknown = set()
    for _, seg in segments:
        for m in re.finditer(r"(.)氏(.{0,2}?)(曰|谓)", normalize(seg.text)):
            who = m.group(1) + "氏" + m.group(2)
            if who not in NOT_A_COMMENTATOR and not any(who.endswith(name) for name in persons()):
                unknown.add(who)
    assert unknown == set()
