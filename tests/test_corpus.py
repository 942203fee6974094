from __future__ import annotations

import pytest

from study.errors import CorpusFormatError
from study.text.corpus import parse_corpus

XIANGSHE_STAGES = [
    ("速賔", 6),
    ("迎賔", 8),
    ("主人献賔", 11),
    ("賔酢主人", 14),
    ("主人酬賔", 16),
    ("主人献众賔", 18),
    ("一人举觯于賔", 38),
    ("遵入", 46),
    ("乐", 50),
    ("立司正", 71),
    ("请射", 82),
    ("诱射", 99),
    ("初射", 126),
    ("取矢", 145),
    ("再请射", 171),
    ("再射", 202),
    ("取矢视算", 221),
    ("饮不胜者", 235),
    ("献获者、释获者", 260),
    ("三请射", 294),
    ("三射用乐", 303),
    ("取矢视算", 305),
    ("饮不胜者", 307),
    ("射事毕", 328),
    ("旅酬", 334),
    ("二人举觯", 339),
    ("彻俎", 355),
    ("无算爵", 361),
    ("賔出", 364),
    ("拜赐拜辱", 366),
    ("息司正", 369),
]
YANLI_STAGES = [("戒羣臣", 379), (None, None)]
TESHENG_STAGES = [
    ("尸食", 11),
    ("主人酳尸尸酢主人", 18),
    ("主人献祝佐食", 23),
    ("主妇亚献尸尸酢主妇", 28),
    ("主妇献祝佐食", 33),
    ("宾长三献尸", 36),
    ("主妇致爵于主人自酢", 45),
    ("主人致爵于主妇自酢", 50),
    ("尸酢宾宾献祝佐食致爵主人主妇自酢", 55),
    ("主人献宾及众宾", 68),
    ("主人酬宾长", 75),
    ("主人献长兄弟众兄弟", 79),
    ("主人献内兄弟自酢", 83),
    ("长兄弟为加爵", 85),
    ("众宾长为加爵", 88),
    ("嗣举奠", 97),
    (None, None),
]


def stages(doc, rite):
    return [(s.name, s.line) for s in doc.rite(rite).stages]


def test_text_000_holds_xiangshe_then_yanli(xiangshe):
    assert [r.name for r in xiangshe.rites] == ["乡射礼", "燕礼"]
    assert stages(xiangshe, "乡射礼") == XIANGSHE_STAGES
    assert stages(xiangshe, "燕礼") == YANLI_STAGES


def test_text_004_holds_tesheng_with_its_15_headings(tesheng):
    assert [r.name for r in tesheng.rites] == ["特牲馈食礼"]
    assert stages(tesheng, "特牲馈食礼") == TESHENG_STAGES
    raw_lines = [n for n, line in enumerate(_lines(tesheng.file), 1) if line.strip("\u3000").startswith("右")]
    assert len(raw_lines) == 15  # plus the heading standing after 】 on line 79


def _lines(file):
    from tests.conftest import SEED_PATHS

    return next(p for p in SEED_PATHS if p.name == file).read_text("utf-8").split("\n")


def test_repeated_stage_names_get_different_ids(xiangshe):
    ids = [s.id for s in xiangshe.rite("乡射礼").stages]
    assert len(set(ids)) == len(ids)
    assert "乡射礼.取矢视算" in ids and "乡射礼.取矢视算.2" in ids
    assert "乡射礼.饮不胜者.2" in ids
    assert ids[0] == "乡射礼.速宾"  # ids use the normalised name


def test_headings_keep_their_notes(xiangshe, tesheng):
    rite = xiangshe.rite("乡射礼")
    assert rite.stage("乐").notes.startswith("三笙一和而成声【郑康成曰：「《尔雅》曰：『笙小者谓之和。』")
    assert rite.stage("賔出").notes.startswith("大夫后出，主人送于门外，再拜【大夫后出")
    assert rite.stage("请射").notes.startswith("三耦者，使弟子。司射前戒之【射者三耦居先")
    # the note's commentary runs on after the translation block, at line 90
    assert "故不待命而先俟于堂西】司射之弓矢与扑" in rite.stage("请射").notes
    assert rite.stage("速賔").notes == ""
    t = tesheng.rite("特牲馈食礼")
    assert t.stage("主人献祝佐食").notes == "祝俎脾脡脊二骨脇二骨肤一离肺一【脾尾骨也脡直也脡脊即正脊也脇代胁也】"
    assert t.stage("主人献长兄弟众兄弟").notes.startswith("佐食俎觳折脊胁肤一离肺一【")
    assert t.stage("主人献长兄弟众兄弟").line == 79


def test_a_heading_after_a_closing_bracket_closes_its_stage(tesheng):
    stage = tesheng.rite("特牲馈食礼").stage("主人献长兄弟众兄弟")
    last = stage.passages[-1]
    assert last.text == "洗献众兄弟如众宾仪"
    assert last.commentary[0].text.endswith("佐食在众兄弟中荐俎亦设于此时")
    assert last.commentary[0].speaker == "郝仲舆"


def test_first_step_of_shi_shi(tesheng):
    first = tesheng.rite("特牲馈食礼").stage("尸食").passages[0]
    assert first.text == "尸又三饭告饱祝侑之如初举胳及兽鱼如初"
    assert [s.text for s in first.commentary] == ["兽谓腊胳此再举也"]
    assert first.lines == (3, 4)


def test_commentators_of_known_segments(xiangshe, tesheng):
    rite = xiangshe.rite("乡射礼")
    p = rite.stage("迎賔").passages[0]
    assert [s.speaker for s in p.commentary] == [None, "髙紫超"]
    assert p.commentary[1].text.startswith("髙紫超曰：「能左右之曰以")
    qing = rite.stage("请射").passages[0]  # 三耦俟于堂西 (line 72) with its commentary (73)
    assert [s.speaker for s in qing.commentary] == ["郝仲舆", "敖君善", "髙紫超"]
    t = tesheng.rite("特牲馈食礼")
    second = t.stage("尸食").passages[1]
    assert [(s.speaker, s.text[:6]) for s in second.commentary] == [(None, "兽谓腊肩此三"), ("髙紫超", "髙紫超曰按尸")]
    # no space before 髙紫超曰 in 004 line 25: the final particle 也 ends the previous segment
    yaxian = t.stage("主妇亚献尸尸酢主妇").passages[0]
    assert [s.speaker for s in yaxian.commentary] == [None, "髙紫超"]
    # 郑康成谓 in the middle of a segment is a citation, not a new segment
    zuoshi = t.stage("尸食").passages[2]
    assert len(zuoshi.commentary) == 1 and zuoshi.commentary[0].speaker is None


def test_inline_ju_marks_are_punctuation_not_commentary(tesheng):
    p = tesheng.rite("特牲馈食礼").stage("嗣举奠").passages[0]
    assert p.text == "嗣举奠【句】盥入北面再拜稽首"
    assert [pc.kind for pc in p.pieces][:3] == ["text", "mark", "text"]
    assert all("句" != s.text for s in p.commentary)


def test_a_sentence_cut_by_a_translation_block_is_rejoined(xiangshe):
    p = xiangshe.rite("乡射礼").stage("一人举觯于賔").passages[0]
    assert p.lines == (19, 36)
    assert "兴，坐奠觯，拜，执觯兴。賔答拜。" in p.text
    p2 = xiangshe.rite("乡射礼").stage("射事毕").passages[0]
    assert p2.lines == (308, 319, 321)
    assert "兼诸▯面镞，适堂西，以命拾取矢" in p2.text
    p3 = xiangshe.rite("乡射礼").stage("彻俎").passages[0]
    assert p3.lines == (340, 353) and "主人降自阼阶，西面立" in p3.text


def test_a_commentary_cut_by_a_translation_block_is_rejoined(xiangshe):
    rite = xiangshe.rite("乡射礼")
    p = next(p for p in rite.stage("初射").passages if 103 in p.lines)
    assert p.lines == (103, 104, 113)
    assert p.commentary[0].text.startswith("上射在左，升堂以西为左也。上射差尊，故先升。")
    # line 165 opens with 右 but continues the commentary of line 155: not a heading
    p = next(p for p in rite.stage("再请射").passages if 154 in p.lines)
    assert p.lines == (154, 155, 165)
    assert "顺羽且兴者，以右手整理其羽而且起立也" in p.commentary[0].text


def test_the_excerpt_may_open_and_end_inside_a_commentary(xiangshe):
    first = xiangshe.rite("乡射礼").stages[0].passages[0]
    assert first.text == "" and first.commentary[0].truncated
    assert first.commentary[0].text.startswith("，则亦賔射也。")
    second = xiangshe.rite("乡射礼").stages[0].passages[1]
    assert second.text.startswith("乡侯上个五寻")
    assert second.commentary[-1].text.endswith("」舌谓上舌，左右出躬一丈，则下舌出躬五尺，横长三丈也")
    last = xiangshe.rite("燕礼").stages[-1].passages[-1]
    assert last.lines == (384, 385) and last.commentary[0].truncated
    assert any(":385:" in w for w in xiangshe.warnings)


def test_title_lines_are_titles_and_the_chapter_commentary_belongs_to_the_rite(xiangshe, tesheng):
    assert [(t.text, t.kind, t.line) for t in xiangshe.titles] == [
        ("礼经本义卷四", "book", 1),
        ("礼经本义卷四", "book", 370),
        ("钦定四库全书", "collection", 371),
        ("礼经本义卷五", "book", 372),
        ("无锡蔡徳晋撰", "author", 373),
        ("嘉礼", "category", 374),
        ("燕礼", "chapter", 375),
    ]
    yan = xiangshe.rite("燕礼")
    assert yan.line == 375
    assert yan.commentary[0].text.startswith("此诸侯与其臣燕饮之礼也")
    assert yan.stages[0].passages[0].text == "小臣戒与者"
    assert [(t.text, t.kind) for t in tesheng.titles] == [("礼经本义", "book")]


def test_the_final_stage_after_the_last_heading_is_unnamed(xiangshe, tesheng):
    tail = xiangshe.rite("燕礼").stages[-1]
    assert tail.name is None and tail.line is None and tail.id == "燕礼.~"
    assert [p.text[:5] for p in tail.passages] == ["膳宰具官馔", "乐人悬", "设洗篚于阼"]
    assert tesheng.rite("特牲馈食礼").stages[-1].passages[0].text.startswith("兄弟弟子洗酌于东方之尊")


def test_every_passage_of_the_seeds_has_lines_and_text(corpus):
    for doc in corpus.documents:
        for rite in doc.rites:
            for stage in rite.stages:
                for p in stage.passages:
                    assert p.lines, (doc.file, stage.id)
                    assert p.text or p.commentary


# --- bad input ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("data", "line", "message"),
    [
        (b"", 1, "the file is empty"),
        ("　\n\n".encode(), 1, "the file is empty"),
        ("右甲\n乙丙".encode() + b"\xff", 2, "not UTF-8: byte 0xff at byte offset"),
        ("甲乙【丙丁\n右甲\n".encode(), 1, "【 opened here is never closed"),
        ("甲【乙\n丙【丁】\n".encode(), 1, "【 opened on line 1 is never closed (another 【 on line 2)"),
        ("【甲】乙\n丙丁】戊\n".encode(), 2, "】 at column 3 has no opening 【"),
    ],
)
def test_malformed_text_reports_file_and_line(data, line, message):
    with pytest.raises(CorpusFormatError) as e:
        parse_corpus(data, "bad.txt", first_rite="乡射礼")
    assert str(e.value).startswith(f"bad.txt:{line}: ")
    assert message in str(e.value)


def test_a_text_without_headings_is_one_unnamed_stage_per_rite_with_a_warning():
    doc = parse_corpus("甲乙丙【丁也】\n戊己\n燕礼\n庚辛\n", "plain.txt", first_rite="乡射礼")
    assert [(r.name, [s.name for s in r.stages]) for r in doc.rites] == [("乡射礼", [None]), ("燕礼", [None])]
    assert any("no 「右…」 stage headings" in w for w in doc.warnings)


def test_a_traditional_text_parses_with_the_same_code():
    text = "禮經本義卷四\n主人朝服乃速賓【速，召也】\n右速賓\n賓出迎再拜【敖君善曰：「迎於門外」】\n"
    doc = parse_corpus(text, "trad.txt", first_rite="鄉射禮")
    assert doc.titles[0].kind == "book"
    rite = doc.rites[0]
    assert [s.name for s in rite.stages] == ["速賓", None]
    assert rite.stages[0].id == "鄉射禮.速宾".replace("鄉射禮", "乡射礼")
    assert rite.stages[1].passages[0].commentary[0].speaker == "敖君善"


def test_the_paragraph_the_excerpt_opens_in_is_marked_and_gives_no_steps(xiangshe):
    from study.decks.items import step_sequence

    rite = xiangshe.rite("乡射礼")
    first = rite.stages[0]
    assert [p.continued for p in first.passages] == [True, True, False]
    steps = [e.text for e in step_sequence(rite, first).elements]
    assert steps[0] == "羮定，主人朝服乃速賔。" and not any("乡侯" in s for s in steps)
