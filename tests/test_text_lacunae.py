"""Empty cells inside the book's notes (issue 11, speakers): a break between notes, a cell the
transcription put in the other column, or a lacuna — read on the real lines of 《禮經本義》."""

from __future__ import annotations

from functools import cache
from pathlib import Path

import pytest

from study.model import Document, Segment
from study.terms.glosses import extract_glosses
from study.text.kanripo import parse_kanripo
from study.text.kanripo_cells import CELL, LACUNA, mend_columns

TEXTS = Path(__file__).resolve().parents[1] / "decks" / "texts"


def _text(juan: str) -> str:
    return (TEXTS / f"KR1d0044_{juan}.txt").read_text("utf-8")


@cache
def _book(juan: str) -> Document:
    return parse_kanripo(_text(juan), f"KR1d0044_{juan}.txt")


def _segments(doc: Document) -> list[Segment]:
    out: list[Segment] = []
    for rite in doc.rites:
        out += rite.commentary
        for stage in rite.stages:
            for passage in stage.passages:
                out += passage.commentary
            out += stage.note_commentary
    return out


def _at(doc: Document, line: int) -> list[Segment]:
    """The note segments that run over ``line``."""
    return [s for s in _segments(doc) if s.line == line or line in (n for _, n in s.breaks)]


@pytest.mark.parametrize(
    ("juan", "line", "speaker", "note", "before"),
    [
        # 「立以俟射也則敖君/善曰侯之中  獲也」: 則 and the cell traded columns
        ("004", 329, "敖君善", "敖君善曰侯之中則獲也", "起立以俟射也"),
        # 「耦髙紫超曰此中/  下耦取矢也」: the 耦 of 中耦 stood before the name
        ("004", 443, "髙紫超", "髙紫超曰此中耦下耦取矢也", "而後反司馬西南之位"),
        # 「解見鄉飲酒禮爵高紫超/曰此就席第一  賔飲之」
        ("005", 125, "高紫超", "高紫超曰此就席第一爵賔飲之", "解見鄉飲酒禮"),
        # 「…薦此設糗與修也髙紫超曰/前此主人獻尸主婦已  四籩四豆矣…」
        (
            "016",
            635,
            "髙紫超",
            "髙紫超曰前此主人獻尸主婦已薦四籩四豆矣今主婦亞獻復有糗與腶修之設見其敬尸之無已也",
            "此設糗與修也",
        ),
    ],
)
def test_the_commentator_named_speaks_the_whole_note_across_a_cell_out_of_place(juan, line, speaker, note, before):
    segments = _segments(_book(juan))
    mine = [s for s in segments if s.speaker == speaker and s.text.startswith(speaker) and s.line == line]
    assert [s.text for s in mine] == [note]
    i = segments.index(mine[0])
    assert segments[i - 1].text.endswith(before), "the note before ends where the page leaves its blank"


def test_a_character_out_of_place_leaves_the_note_before_it():
    """「此設糗與修也」 is 蔡德晉's sentence on its own: the 薦 before it was 髙紫超's (已薦四籩四豆)."""
    texts = [s.text for s in _at(_book("016"), 635)]
    assert "此設糗與修也" in texts
    assert not any(t.endswith("薦此設糗與修也") or t.endswith("即脯也薦") for t in texts)


@pytest.mark.parametrize(
    ("juan", "line", "notes"),
    [
        # 「…此賔主服𤣥/端  愚按前言…」: the cell after 𤣥端 is the blank before 蔡德晉's 愚按; the 答
        # beside it in the right column (不答拜) stays where it is
        ("002", 523, ("敖君善曰此賔主服𤣥端", "愚按前言辭無辱")),
        # 「鄭康成曰上西階上也/  此賓及兄弟相酬也」: a left column opening on the blank
        ("016", 857, ("鄭康成曰上西階上也", "此賓及兄弟相酬也")),
    ],
)
def test_a_blank_between_two_notes_still_parts_them(juan, line, notes):
    texts = [s.text for s in _at(_book(juan), line)]
    first = next(t for t in texts if notes[0] in t)
    assert first.endswith(notes[0])
    assert any(t.startswith(notes[1]) for t in texts)


def test_a_cell_inside_a_sentence_with_nothing_to_trade_shows_as_a_lacuna_and_keeps_the_speaker():
    """「…以導飲  髙紫超曰此二  復/各飲一觶導飲為第十六畨爵」: the second cell stands inside 髙紫超's
    sentence (此二人復各飲一觶), and the right column holds no character that belongs there."""
    notes = [s for s in _at(_book("003"), 423) if s.speaker == "髙紫超"]
    assert [s.text for s in notes] == [f"髙紫超曰此二{LACUNA}復各飲一觶導飲為第十六畨爵"]


def test_mending_keeps_each_column_its_length_and_the_group_its_characters():
    right, left = "立以俟射也則敖君", f"善曰侯之中{CELL}獲也"
    r, l2 = mend_columns(right, left)
    assert (r, l2) == (f"立以俟射也{CELL}敖君", "善曰侯之中則獲也")
    assert sorted(r + l2) == sorted(right + left)


def _lacuna_at_172() -> str:
    """卷十二 as published, but line 172 without the 既 the transcription moved into the right column:
    the cell of the left column (「米水謂之潘  經温煑謂之渜」) then has nothing to trade — a lacuna."""
    lines = _text("012").split("\n")
    assert lines[171].startswith("\u3000(庭中之西也既此下")
    lines[171] = lines[171].replace("庭中之西也既此下", "庭中之西也  此下")
    return "\n".join(lines)


def test_no_gloss_is_read_across_a_lacuna():
    as_published = [g for g in extract_glosses(_book("012")) if g.line == 172 and g.context == "渜"]
    assert [g.gloss for g in as_published] == ["經温煑"]  # 「既經温煑謂之渜」: the gloss read whole
    doc = parse_kanripo(_lacuna_at_172(), "KR1d0044_012.txt")
    note = next(s for s in _at(doc, 172) if "謂之渜" in s.text)
    assert f"謂之潘{LACUNA}經温煑謂之渜" in note.text
    glosses = [g for g in extract_glosses(doc) if g.line == 172]
    assert not [g for g in glosses if g.context == "渜"]  # not 渜 = □經温煑
    assert not [g for g in glosses if LACUNA in g.gloss + (g.context or "")]


def test_yu_an_opens_the_authors_own_note_after_a_commentators():
    """「…然又為小君服則亦異於民矣愚按此亦宜齊衰五月□南齊建元二年…」 (卷十一, 喪服): 愚按 is 蔡德晉
    speaking, as a NAME曰 is another commentator; a cell nowhere near marks the change."""
    notes = _segments(_book("011"))
    ao = next(s for s in _at(_book("011"), 558) if s.speaker == "敖君善")
    assert ao.text.endswith("然又為小君服則亦異於民矣")
    own = notes[notes.index(ao) + 1]
    assert own.speaker is None and own.text.startswith("愚按此亦宜齊衰五月")
