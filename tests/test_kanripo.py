"""The Kanripo (mandoku) reader on small texts written for each rule, and on bad input."""

from __future__ import annotations

import pytest

from study.errors import CorpusFormatError
from study.text.formats import read_text, text_format
from study.text.kanripo import parse_kanripo

HEAD = "# -*- mode: mandoku-view; -*-\n#+TITLE: 禮經本義\n#+PROPERTY: JUAN 卷四\n"
FULL = "主人戒賔賔出迎再拜主人答再拜乃請賔禮辭許主"  # 21 cells: a full printed line


def k(*lines: str) -> str:
    return HEAD + "".join(f"{line}¶\n" for line in lines)


RITE = (
    "<pb:X_004-1a>",
    "欽定四庫全書",
    "　禮經本義卷四",
    "　　　　　　　　　　　　　無錫蔡徳晉撰",
    "　嘉禮",
    "　　鄉射禮",
    "　　　(此鄉之士大夫會聚/於學宫而習射之禮也)",
)


def test_headers_and_page_marks_are_dropped_and_the_page_is_kept_on_the_passage():
    doc = parse_kanripo(k(*RITE, "<pb:X_004-1b>", "無介", "　(賔介/之禮)", "　　　右戒賔"), "k.txt")
    (rite,) = doc.rites
    (stage,) = rite.stages
    (passage,) = stage.passages
    assert passage.text == "無介" and passage.pages == ("X_004-1b",)
    assert "#" not in passage.text and "¶" not in passage.text
    assert [t.kind for t in doc.titles] == ["collection", "book", "author", "category", "chapter"]


def test_a_double_line_note_reads_right_column_then_left_and_runs_on_over_groups_and_lines():
    doc = parse_kanripo(k(*RITE, "無介", "　(甲乙丙/丁戊己)", "　(庚辛/壬癸)", "　　　右戒賔"), "k.txt")
    (segment,) = doc.rites[0].stages[0].passages[0].commentary
    assert segment.text == "甲乙丙丁戊己庚辛壬癸"
    assert segment.speaker is None  # unattributed: the author's own (蔡德晉)


def test_a_note_inside_a_classic_line_is_commentary_and_the_text_resumes_after_it():
    doc = parse_kanripo(k(*RITE, "尊于賔席之東(賔席/之東)兩壺", "　　　右陳器"), "k.txt")
    (passage,) = doc.rites[0].stages[0].passages
    assert passage.text == "尊于賔席之東兩壺"
    assert [p.kind for p in passage.pieces] == ["text", "commentary", "text"]


def test_a_full_line_runs_on_and_a_short_one_ends_the_paragraph():
    doc = parse_kanripo(k(*RITE, FULL, "人再拜", "無介", "　(注/)", "　　　右戒賔"), "k.txt")
    texts = [p.text for p in doc.rites[0].stages[0].passages]
    assert texts == [FULL + "人再拜", "無介"]


def test_empty_cells_read_as_one_blank_that_separates_commentators():
    doc = parse_kanripo(
        k(*RITE, "無介", "　(乃請亦謂致/戒辭於賔也  髙紫)", "　(超曰賔席/南面)", "　　　右戒賔"), "k.txt"
    )
    segments = doc.rites[0].stages[0].passages[0].commentary
    assert [s.text for s in segments] == ["乃請亦謂致戒辭於賔也", "髙紫超曰賔席南面"]
    assert segments[1].speaker == "髙紫超" and segments[1].line == segments[0].line
    assert segments[1].breaks == ((2, segments[0].line + 1),)  # 超曰… runs on to the next line


def test_a_ring_mark_starts_a_new_commentary_segment():
    doc = parse_kanripo(k(*RITE, "無介", "　(禮之下經云/○朱子曰周官)", "　　　右戒賔"), "k.txt")
    segments = doc.rites[0].stages[0].passages[0].commentary
    assert [s.text for s in segments] == ["禮之下經云", "○朱子曰周官"]
    assert segments[1].speaker == "朱子"


def test_a_stage_heading_keeps_its_ji_text_and_notes_over_following_lines():
    doc = parse_kanripo(
        k(
            *RITE,
            "無介",
            "　　　右戒賔　大夫與則公士為賔(公士公朝/之士)",
            "　　　(鄉射之賔/本用)　坐卒爵",
            "　　　　凡舉爵三作",
            "乃席賔",
            "　　　右陳器席",
        ),
        "k.txt",
    )
    first, second = doc.rites[0].stages
    assert first.name == "戒賔" and first.heading.startswith("右戒賔")
    assert first.note_text == "大夫與則公士為賔　坐卒爵　凡舉爵三作"
    assert [s.text for s in first.note_commentary] == ["公士公朝之士鄉射之賔本用"]
    assert second.name == "陳器席" and [p.text for p in second.passages] == ["乃席賔"]


def test_punctuation_notes_are_marks_not_commentary():
    doc = parse_kanripo(k(*RITE, "司宫具几與蒲筵(句/)常(句/)", "　　　右陳器"), "k.txt")
    (passage,) = doc.rites[0].stages[0].passages
    assert passage.text == "司宫具几與蒲筵【句】常【句】" and not passage.commentary


def test_a_rite_that_exists_only_as_a_title_is_a_rite_without_stages():
    doc = parse_kanripo(k(*RITE, "無介", "　　　右戒賔", "　　饗禮(闕/)", "　禮經本義卷七"), "k.txt")
    assert [r.name for r in doc.rites] == ["鄉射禮", "饗禮"]
    assert doc.rites[1].stages == () and [s.text for s in doc.rites[1].commentary] == ["闕"]


def test_entities_are_kept_and_shown_as_a_marked_missing_character():
    doc = parse_kanripo(k(*RITE, "菹&KR1951;也", "　　　右陳器"), "k.txt")
    assert doc.rites[0].stages[0].passages[0].text == "菹▯也"
    assert doc.missing == ((len(HEAD.splitlines()) + len(RITE) + 1, "KR1951"),)


def test_an_unknown_entity_is_kept_as_written_with_a_warning():
    doc = parse_kanripo(k(*RITE, "菹&foo;也", "　　　右陳器"), "k.txt")
    assert doc.rites[0].stages[0].passages[0].text == "菹&foo;也"
    assert any("unknown entity '&foo;'" in w and w.startswith("k.txt:") for w in doc.warnings)


def test_the_short_rites_of_one_juan_are_each_a_rite():
    doc = parse_kanripo(
        k(*RITE[:5], "　　投壺禮(嘉/)", "請投", "　　　右請投", "　　巡守禮(賓/)", "天子巡守", "　　　右告"), "k.txt"
    )
    assert [(r.name, [s.name for s in r.stages]) for r in doc.rites] == [("投壺禮", ["請投"]), ("巡守禮", ["告"])]


def test_a_heading_name_stops_at_signs_that_are_no_characters():
    doc = parse_kanripo(k(*RITE, "鼔", "　　　右鼔○□○○"), "k.txt")
    assert doc.rites[0].stages[0].name == "鼔"


@pytest.mark.parametrize(
    ("body", "line", "message"),
    [
        ("無介(注文", 7, "( at column 3 is never closed"),
        ("無介/注", 7, "/ at column 3 stands outside a (…) note"),
        ("無介)", 7, ") at column 3 closes no ("),
        ("無(介(注/文)", 7, "is not closed before the next ("),
        ("無介(甲/乙/丙)", 7, "more than one /"),
    ],
)
def test_bad_notes_give_one_line_with_path_and_line(body, line, message):
    text = HEAD + "　　鄉射禮¶\n" + "　(前/注)¶\n" + "<pb:X>¶\n" + f"{body}¶\n"
    with pytest.raises(CorpusFormatError) as e:
        parse_kanripo(text, "bad.txt")
    assert str(e.value).startswith(f"bad.txt:{line}: ") and message in str(e.value)
    assert "\n" not in str(e.value)


def test_a_truncated_file_is_read_with_a_warning_at_its_last_line():
    text = k(*RITE, "無介", "　　　右戒賔") + "乃席賔南面東上衆"
    doc = parse_kanripo(text, "cut.txt")
    last = len(text.splitlines())
    assert any(w.startswith(f"cut.txt:{last}: ") and "truncated" in w for w in doc.warnings)
    assert doc.rites[0].stages[-1].name is None  # the cut tail stays, in an unnamed last stage


def test_a_heading_with_no_rite_is_a_warning_at_the_heading():
    doc = parse_kanripo(HEAD + "無介¶\n　　　右戒賔¶\n", "nor.txt")
    assert any(w.startswith("nor.txt:5: ") and "before any rite title" in w for w in doc.warnings)


def test_a_heading_without_a_name_is_an_error():
    with pytest.raises(CorpusFormatError, match=r"^h\.txt:11: a 「右」 heading without a stage name"):
        parse_kanripo(k(*RITE, "　　　右　大夫"), "h.txt")


def test_headers_alone_are_an_error():
    with pytest.raises(CorpusFormatError, match=r"^h\.txt:1: .*no text lines"):
        parse_kanripo(HEAD, "h.txt")


def test_the_format_is_chosen_by_content_not_by_name():
    assert text_format(k(*RITE), "seed.txt") == "kanripo"
    assert text_format("礼经本义\n右速賔\n", "KR1d0044_004.txt") == "plain"
    doc = read_text(k(*RITE, "無介", "　　　右戒賔").encode(), "any.name")
    assert doc.rites[0].name == "鄉射禮"


def test_a_file_in_neither_format_is_a_one_line_error():
    with pytest.raises(CorpusFormatError) as e:
        read_text(b"\nname,value\n1,2\n", "data.csv")
    assert (
        str(e.value)
        == "data.csv:2: neither a Kanripo (mandoku) text nor a plain text of the book: no Chinese characters"
    )
