"""The book's own 音 notes (issue 11): harvested from the commentary, read as readings, and checked
against the reading the project shows where each note stands. Developed on 卷一–八 (every marker
of their commentary read by hand: one note, 干音豻); 卷九–十七 harvested by the finished method."""

from __future__ import annotations

import re
from functools import cache
from importlib import resources

import pytest

from study.terms.reading import readings_in
from study.terms.readingfanqie import fanqie
from study.terms.readingnotes import Note, Refusal, harvest, implied, places_read, table_rule
from study.terms.readtable import parse_table
from study.text.formats import read_text
from study.text.normalize import normalize
from study.yamlsrc import load_yaml
from tests.conftest import TEXTS

DEV = [f"KR1d0044_{n:03d}.txt" for n in range(1, 9)]
LATER = [f"KR1d0044_{n:03d}.txt" for n in range(9, 18)]


@cache
def _harvest(file: str) -> tuple[list[Note], list[Refusal]]:
    path = TEXTS / file
    return harvest(read_text(path.read_bytes(), path.name))


def _notes(files: list[str]) -> list[Note]:
    return [n for f in files for n in _harvest(f)[0]]


def test_the_harvester_finds_the_one_reading_note_of_juan_one_to_eight():
    # read by hand: the commentary of 卷一–八 gives one reading, 大射儀 「參七十干五十」 (干音豻)
    assert [(n.path, n.line, n.char, n.kind, n.said, n.text) for n in _notes(DEV)] == [
        ("KR1d0044_006.txt", 28, "干", "音", "豻", "干音豻")
    ]
    note = _notes(DEV)[0]
    assert [note.context[i] for i in note.places] == ["干"] and "七十干五十" in note.context


def test_every_certain_note_of_juan_one_to_eight_agrees_with_the_reading_shown_there():
    checked = 0
    for note in _notes(DEV):
        reading = implied(note).reading
        if reading is None:
            continue
        checked += 1
        for place in places_read(note):
            assert reading in place.accepted, f"{note.ref}: shown {place.shown}, the note says {reading}"
    assert checked == 1


def test_every_certain_note_of_the_whole_book_agrees_with_the_reading_shown_there():
    notes = _notes(DEV + LATER)
    said = {(n.char, implied(n).reading) for n in notes}
    assert {("干", "àn"), ("燅", "xún"), ("還", "xuán"), ("綪", "zhēng")} <= said
    for note in notes:
        reading = implied(note).reading
        for place in places_read(note) if reading else ():
            assert reading in place.accepted, f"{note.ref}: shown {place.shown}, the note says {reading}"


def test_a_note_without_its_character_reads_the_character_just_before_it():
    # 少牢 (有司徹) 「主人退尸還(音旋)几」: the inline note follows 還
    note = next(n for n in _notes(["KR1d0044_016.txt"]) if n.line == 458)
    assert (note.kind, note.char, note.said) == ("音", "還", "旋")
    assert note.places == (note.context.index("尸還几") + 1,)
    assert implied(note).reading == "xuán"


def test_a_read_as_note_gives_the_reading_the_character_itself_has():
    # 士喪禮 「不綪」: 綪康成謂讀為䋫屈也 — 䋫 zhēng, a reading 綪 has
    note = next(n for n in _notes(["KR1d0044_012.txt"]) if n.kind == "讀為")
    assert (note.line, note.char, note.said) == (177, "綪", "䋫")
    assert implied(note).reading == "zhēng"


@pytest.mark.parametrize(
    ("char", "said", "reading"),
    [
        ("錫", "鬄", "tì"),  # 鄭注 被錫讀為髲鬄: the table shows tì
        ("參", "三", "sān"),  # 鄭注 鄉射 參讀為三: sān
        ("挼", "墮", None),  # 挼讀為墮: 墮 duò/huī/huì, none of them 挼's — no answer (the table: duò)
        ("參", "糝", None),  # 參讀為糝: sǎn, sān, shēn all 參's too — no answer (the table: sǎn)
    ],
)
def test_a_read_as_note_gives_the_reading_of_the_word_meant_when_it_is_one(char, said, reading):
    # the 讀為 notes of 鄭注 the reading table cites: the card shows the word meant
    note = Note("鄭注", 0, char, "讀為", said, f"{char}讀為{said}", char, (0,))
    assert implied(note).reading == reading


@pytest.mark.parametrize(
    ("file", "line", "words", "why"),
    [
        ("KR1d0044_002.txt", 429, "亦當有如字", "如字 inside a sentence"),  # a character 如 is missing
        ("KR1d0044_004.txt", 434, "便其先反位", "反 inside a sentence"),  # 反位, not a 反切
        ("KR1d0044_004.txt", 582, "司射先反衆", "反 inside a sentence"),
        ("KR1d0044_004.txt", 708, "意其音節", "音 inside a sentence"),  # 音節 is music
        ("KR1d0044_006.txt", 586, "進當作退", "emendation"),
        ("KR1d0044_007.txt", 293, "當作頓字之誤", "emendation"),
    ],
)
def test_the_harvester_refuses_what_is_not_a_reading_note(file, line, words, why):
    notes, refused = _harvest(file)
    assert not [n for n in notes if n.line == line]
    assert any(r.line == line and words in r.text and why in r.why for r in refused), [
        r for r in refused if r.line == line
    ]


@pytest.mark.parametrize(
    ("char", "fq", "readings"),
    [
        ("酢", "才各", ("zuò",)),  # 鐸 -ak read -uo after a dental
        ("衰", "七雷", ("cuī",)),
        ("厭", "於豔", ("yàn",)),
        ("捝", "始銳", ("shuì",)),
        ("齊", "才細", ("jì",)),
        ("長", "丁丈", ()),  # 丈 was rising once: zhǎng or zhàng, no answer
        ("殺", "所戒", ()),  # shài or xiè: no answer
        ("枕", "之鴆", ()),  # the reading meant (zhèn) is not among pypinyin's: no answer
    ],
)
def test_a_fanqie_gives_a_reading_only_when_one_fits(char, fq, readings):
    got = fanqie(char, fq[0], fq[1])
    assert (got if len(got) == 1 else ()) == readings


def test_the_fanqie_reader_agrees_with_the_reading_table_where_it_decides():
    # every 釋文 反切 the table cites beside the one reading of its line; 稱 (尺證反) reads chèng,
    # the old reflex, where the table shows today's chèn
    text = resources.files("study").joinpath("data/readings.yaml").read_text("utf-8")
    right, wrong = 0, []
    for line in text.splitlines():
        read = set(re.findall(r"read: (\S+?)[,}]", line))
        for char, fq in re.findall(r"(\S)，(\S\S)反", line):
            got = fanqie(char, fq[0], fq[1])
            if len(read) == 1 and len(got) == 1:
                right += got == tuple(read)
                wrong += [] if got == tuple(read) else [char]
    assert wrong == ["稱"] and right >= 18


def test_a_rule_built_from_a_note_reads_its_place_as_the_note_says():
    note = _notes(DEV)[0]
    rule = table_rule(note, note.places[0], "àn")
    assert rule["in"] == ["七十干五十"] and rule["ref"] == "KR1d0044_006.txt:28 音注 干音豻"
    doc = load_yaml(f"干:\n  rules:\n    - {{read: àn, in: [{rule['in'][0]}], ref: x}}\n", "t.yaml", ValueError)
    (compiled,) = parse_table(doc)["干"].rules
    ctx, at = normalize(note.context), note.places[0]
    assert compiled.pattern.match(ctx, at - compiled.offset) and compiled.reading == "àn"


def test_the_readings_left_open_are_read_with_a_reference():
    # 士昏禮 姆加景: jǐng as written (景明衣也), jiǒng (= 褧, 楊慎 via 大詞典) accepted; 士喪禮
    # 簪裳于衣: 簪 = 連 (段注: a loan for 鐕), zān
    assert readings_in("景", "姆加景乃驅") == ("jǐng", "jiǒng")
    assert readings_in("景", "介爾景福") == ("jǐng",)
    assert readings_in("簪", "以爵弁服簪裳于衣") == ("zān",)


@pytest.mark.parametrize(
    ("char", "tone", "reading"),
    [("相", "去", "xiàng"), ("長", "上", "zhǎng"), ("樂", "入", None), ("衰", "平", None)],
)
def test_a_tone_note_gives_the_one_reading_of_the_character_in_that_tone_class(char, tone, reading):
    # the book has no 「X去聲」 note; the shape is read as the table reads these characters
    # (相者 xiàng, 賓長 zhǎng); 入 has no one tone today, and 衰 cuī/shuāi are both level
    note = Note("—", 0, char, "聲", tone, f"{char}{tone}聲", char, (0,))
    assert implied(note).reading == reading
