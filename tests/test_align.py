from __future__ import annotations

import csv
import json
import math
import random
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from study.cli import cli
from study.model import Document, Passage, Stage
from study.text.align import CONFIDENT, Link, align_document, align_links
from study.text.corpus import parse_corpus
from study.text.manifest import find_manifest
from study.text.renderings import monotone_assignment
from study.text.translation import modern_name, speaker_turns, split_inline
from tests.conftest import DATA, TESHENG_PATH, TEXTS, XIANGSHE

COPIES = {348, 401, 402, 403, 404, 405, 406, 412, 414}  # untranslated copies inside blocks


def _read_tsv(name: str) -> list[dict[str, str]]:
    with (DATA / name).open(encoding="utf-8", newline="") as f:
        return list(csv.DictReader(f, delimiter="\t"))


@pytest.fixture(scope="module")
def gold() -> dict[int, tuple[set[int], str]]:
    """Translation line -> (classical lines it renders, what it renders)."""
    out = {}
    for row in _read_tsv("alignment_000.tsv"):
        lines = set() if row["classical_lines"] == "-" else {int(n) for n in row["classical_lines"].split(",")}
        out[int(row["translation_line"])] = (lines, row["renders"])
    return out


def _parse(path: Path) -> Document:
    """The text parsed as :func:`study.build.load_document` does, but not aligned."""
    manifest = find_manifest(path)
    entry = manifest.entry(path.name)
    assert entry is not None
    return parse_corpus(
        path.read_bytes(), path.name, first_rite=entry.first_rite, book=manifest.book, rites=entry.rites
    )


@pytest.fixture(scope="module")
def unaligned() -> Document:
    return _parse(TEXTS / XIANGSHE)


@pytest.fixture(scope="module")
def links(xiangshe: Document) -> tuple[Link, ...]:
    return align_links(xiangshe)


def _passages(doc: Document) -> list[Passage]:
    return [p for r in doc.rites for s in r.stages for p in s.passages]


def _stages(doc: Document) -> list[Stage]:
    return [s for r in doc.rites for s in r.stages]


def _text_lines(p: Passage) -> set[int]:
    return {piece.line for piece in p.pieces if piece.kind != "commentary"}


def _gold_lines(p: Passage, gold: dict[int, tuple[set[int], str]]) -> set[int]:
    """The translation lines that render the passage's text (rows text, both or partial)."""
    text = _text_lines(p)
    return {t for t, (lines, renders) in gold.items() if renders in ("text", "both", "partial") and lines & text}


def _wrong_pairs(doc: Document, gold) -> list[tuple[int, tuple[int, ...]]]:
    """Translation lines attached to a passage whose text they do not render."""
    return [(t, p.lines) for p in _passages(doc) for t in p.translation_lines if t not in _gold_lines(p, gold)]


def _passage(doc: Document, line: int) -> Passage:
    return next(p for p in _passages(doc) if line in _text_lines(p))


def test_alignment_of_000_agrees_with_the_hand_checked_gold(xiangshe, gold):
    translated = [p for p in _passages(xiangshe) if _gold_lines(p, gold)]
    agree = [p for p in translated if set(p.translation_lines) == _gold_lines(p, gold)]
    disagree = [(p.lines, p.translation_lines, sorted(_gold_lines(p, gold))) for p in translated if p not in agree]
    print(
        f"alignment of {XIANGSHE}: {len(agree)}/{len(translated)} translated passages = {len(agree) / len(translated):.1%}"
    )
    print(f"disagreeing (lines, aligned, gold): {disagree}")
    assert len(translated) == 103
    assert len(agree) / len(translated) >= 0.95
    assert _wrong_pairs(xiangshe, gold) == []
    untranslated = [p for p in _passages(xiangshe) if _text_lines(p) and not _gold_lines(p, gold)]
    assert untranslated and all(p.translation is None for p in untranslated)


def test_every_translation_line_pairs_with_the_lines_the_gold_gives_it(links, gold):
    paired = {t: set(link.classical_lines) for link in links for t in link.translation_lines}
    confident = {t for link in links if link.confidence >= CONFIDENT for t in link.translation_lines}
    rows = {t: lines for t, (lines, renders) in gold.items() if renders != "copy"}
    agree = [t for t, lines in rows.items() if paired.get(t) == lines and t in confident]
    print(f"translation lines paired as in the gold: {len(agree)}/{len(rows)} = {len(agree) / len(rows):.1%}")
    assert len(agree) / len(rows) >= 0.95
    assert not COPIES & set(paired), "an untranslated copy is never a translation"


def test_modern_names_of_every_stage_of_000(xiangshe):
    expected = [
        (int(r["heading_line"]), r["name"], None if r["modern_name"] == "-" else r["modern_name"])
        for r in _read_tsv("modern_names_000.tsv")
    ]
    assert [(s.line, s.name, s.modern_name) for s in _stages(xiangshe) if s.line is not None] == expected
    yanli = xiangshe.rite("燕礼")
    assert yanli is not None and yanli.stages[-1].modern_name is None  # no heading, no name


def test_headings_pair_with_the_translation_the_gold_names(links):
    heading_of = {link.classical_lines[0]: link.translation_lines for link in links}
    for row in _read_tsv("modern_names_000.tsv"):
        if row["translation_line"] != "-":
            assert heading_of.get(int(row["heading_line"])) == (int(row["translation_line"]),), row


def test_mistranslated_headings_are_paired_but_not_named(xiangshe, links):
    rite = xiangshe.rite("乡射礼")
    assert rite is not None
    for name, line in (("取矢视算", 238), ("饮不胜者", 246)):  # 右方的人取箭… / 右方让失败者喝酒…
        link = next(link for link in links if link.translation_lines == (line,))
        assert link.confidence >= CONFIDENT
        assert rite.stage(name).modern_name is None


@pytest.mark.parametrize(
    ("translation", "name", "expected"),
    [
        ("右边是邀请宾客", "速賔", "邀请宾客"),
        ("译右边一人向宾客举觯致意。", "一人举觯于賔", "一人向宾客举觯致意"),
        ("右边音乐：三笙一和而成声【郑康成说：…】", "乐", "音乐"),
        ("右侧示范射箭：射箭在两楹柱之间", "诱射", "示范射箭"),
        ("右方再次请求射礼。取走诱射箭的人", "再请射", "再次请求射礼"),
        ("以上是初射，命令负侯者从他的位置出发。", "初射", "初射"),
        ("第二次射箭，计算成绩。鹿形箭靶", "再射", "第二次射箭"),
        ("右边是主人酬谢宾客【高紫超说：…】", "主人酬賔", "主人酬谢宾客"),
        ("右方的人取箭查看算筹，司射查看算筹", "取矢视算", None),
        ("右方让失败者喝酒。主人也在西阶上喝酒。", "饮不胜者", None),
        ("右边是主人向宾客献酒", "彻俎", None),
        ("右边是", "彻俎", None),
        ("右射事毕。", "射事毕", None),
        ("右边是无算爵", "无算爵", "无算爵"),
    ],
)
def test_modern_name_strips_the_marker_and_rejects_mistranslations(translation, name, expected):
    assert modern_name(translation, name) == expected


def test_a_sentence_cut_by_a_chunk_joins_both_halves_of_its_translation(xiangshe):
    texts = {t.line: t.text.removeprefix("译") for t in xiangshe.translation}
    for first, halves in ((19, (35, 37)), (308, (318, 320)), (340, (352, 354))):
        p = _passage(xiangshe, first)
        assert p.translation_lines == halves
        assert p.translation == "".join(texts[n] for n in halves)


def test_one_translation_line_may_render_two_passages(unaligned):
    # Line 312 renders passage 297 and line 313 passage 298; glue them into one paragraph.
    lines = {t.line: t for t in unaligned.translation}
    glued = replace(lines[312], text=lines[312].text + lines[313].text)
    doc = align_document(
        replace(
            unaligned, translation=tuple(glued if t.line == 312 else t for t in unaligned.translation if t.line != 313)
        )
    )
    assert _passage(doc, 297).translation_lines == (312,)
    assert _passage(doc, 298).translation_lines == (312,)
    assert _passage(doc, 300).translation_lines == (314,)


def test_commentary_translated_inline_goes_to_its_segments(xiangshe):
    p = _passage(xiangshe, 7)  # 【以，犹与也…髙紫超曰：…】 rendered inline in line 23
    assert "【" not in (p.translation or "") and p.translation.endswith("宾客在西阶上当着楣木面向北回礼两次拜。")
    assert p.commentary[0].translation.startswith("以，就是和的意思。")
    assert p.commentary[1].translation.startswith("高紫超说：“能够左右他人叫做‘以’。")
    p = _passage(xiangshe, 68)  # text 68 and commentary 69 rendered by the one line 70
    assert p.translation == "尚未进行旅酬。"
    assert p.commentary[0].translation.startswith("燕饮之礼，既然已经设立司正")
    p = _passage(xiangshe, 329)  # （这是宾客酬主人） renders 【此賔酬主人也】
    assert [s.translation for s in p.commentary] == ["这是宾客酬主人"]
    p = _passage(xiangshe, 4)  # commentary on a line of its own, rendered by a line of its own
    assert p.translation_lines == (20,) and p.commentary[0].translation.startswith("敖君善说：")


def test_a_commentary_cut_by_a_chunk_gets_both_halves_or_nothing(xiangshe):
    p = _passage(xiangshe, 267)  # 【阶前揖，(268) … 】 (289): rendered by 288 and 290
    assert p.commentary[0].translation.startswith("阶前作揖，走到东西台阶前")
    assert p.commentary[1].speaker == "敖君善" and p.commentary[1].translation.startswith("敖君善说：")
    p = _passage(xiangshe, 103)  # 104 untranslated, 113 rendered by 114: only half, so nothing
    assert p.commentary[0].translation is None
    p = _passage(xiangshe, 127)  # 郝仲舆 (128 → 137) half rendered; 贾洺州 opens on 137, rendered whole
    assert [s.speaker for s in p.commentary] == ["郝仲舆", "贾洺州"]
    assert p.commentary[0].translation is None
    assert p.commentary[1].translation.startswith("贾洺州说：“推手叫做揖")


def test_a_misattributed_turn_stays_with_its_segment(xiangshe):
    # Line 343 puts the whole note in 郝仲舆's mouth; its first turn still renders the author's words.
    p = _passage(xiangshe, 322)
    assert [s.speaker for s in p.commentary] == [None, "郝仲舆", "郑康成"]
    assert p.commentary[0].translation.startswith("郝仲舆说：“解开侯的左下纲")
    assert p.commentary[1].translation.startswith("郝仲舆说：‘凡是侯未射时")
    assert p.commentary[2].translation.startswith("郑康成说：")


def test_passages_and_commentary_left_untranslated_stay_null(xiangshe):
    for line in (332, 335, 337):  # skipped by line 352, which renders 340
        assert _passage(xiangshe, line).translation is None
    assert all(s.translation is None for s in _passage(xiangshe, 72).commentary)  # commentary 73
    assert _passage(xiangshe, 100).translation_lines == (110,)  # few shared words, paired by position


def test_untranslated_copies_are_never_translations(xiangshe):
    used = {t for p in _passages(xiangshe) for t in p.translation_lines}
    assert not COPIES & used
    assert xiangshe.rite("乡射礼").stage("射事毕").modern_name is None  # 348 copies 右射事毕


def test_text_without_translation_is_unaffected(tesheng):
    assert tesheng.translation == ()
    assert all(p.translation is None and p.translation_lines == () for p in _passages(tesheng))
    assert all(s.modern_name is None for s in _stages(tesheng))
    assert all(seg.translation is None for p in _passages(tesheng) for seg in p.commentary)
    raw = _parse(TESHENG_PATH)
    assert align_document(raw) is raw
    assert align_links(raw) == ()


def _shuffled(doc: Document, seed: int) -> Document:
    """``doc`` with every translation block moved to another chunk."""
    chunks = sorted({t.chunk for t in doc.translation})
    target = chunks[:]
    rng = random.Random(seed)
    while any(a == b for a, b in zip(chunks, target, strict=True)):
        rng.shuffle(target)
    moved = dict(zip(chunks, target, strict=True))
    return replace(doc, translation=tuple(replace(t, chunk=moved[t.chunk]) for t in doc.translation))


def _attached(doc: Document) -> int:
    translated = sum(p.translation is not None for p in _passages(doc))
    named = sum(s.modern_name is not None for s in _stages(doc))
    comments = sum(seg.translation is not None for p in _passages(doc) for seg in p.commentary)
    return translated + named + comments


@pytest.mark.parametrize("seed", range(6))
def test_shuffled_blocks_degrade_to_nulls(unaligned, gold, seed):
    doc = _shuffled(unaligned, seed)
    links = align_links(doc)
    assert links, "the aligner still tries"
    assert max(link.confidence for link in links) < CONFIDENT
    aligned = align_document(doc)
    assert _wrong_pairs(aligned, gold) == []
    assert _attached(aligned) == 0


def test_blocks_shifted_by_one_chunk_degrade_to_nulls(unaligned, gold):
    doc = replace(unaligned, translation=tuple(replace(t, chunk=t.chunk + 1) for t in unaligned.translation))
    assert _attached(align_document(doc)) == 0


@pytest.mark.parametrize("keep", [0.5, 0.25])
def test_truncated_blocks_keep_only_right_pairs(unaligned, gold, keep):
    blocks: dict[int, list] = {}
    for t in unaligned.translation:
        blocks.setdefault(t.chunk, []).append(t)
    kept = tuple(t for block in blocks.values() for t in block[: math.ceil(len(block) * keep)])
    aligned = align_document(replace(unaligned, translation=kept))
    assert _wrong_pairs(aligned, gold) == []
    kept_lines = {t.line for t in kept}
    expected = [p for p in _passages(aligned) if _gold_lines(p, gold) & kept_lines]
    found = [p for p in expected if p.translation is not None]
    assert len(found) >= 0.9 * len(expected)
    lost = [p for p in _passages(aligned) if _gold_lines(p, gold) and not _gold_lines(p, gold) & kept_lines]
    assert lost and all(p.translation is None for p in lost)


def test_an_excerpt_cut_inside_a_block_keeps_only_right_pairs(gold):
    lines = (TEXTS / XIANGSHE).read_text("utf-8").split("\n")
    doc = align_document(parse_corpus("\n".join(lines[:27]), XIANGSHE, first_rite="乡射礼"))  # block 20-35 cut
    assert _wrong_pairs(doc, gold) == []
    assert [p.translation_lines for p in _passages(doc) if p.translation] == [(3,), (20,), (23,), (25,)]


@pytest.mark.parametrize(("last", "share"), [(23, 1 / 2), (58, 1 / 3), (270, 1 / 2), (389, 1 / 3)])
def test_an_excerpt_cut_inside_a_translation_line_keeps_only_right_pairs(gold, last, share):
    lines = (TEXTS / XIANGSHE).read_text("utf-8").split("\n")
    cut = lines[last - 1][: int(len(lines[last - 1]) * share)]
    doc = align_document(parse_corpus("\n".join([*lines[: last - 1], cut]), XIANGSHE, first_rite="乡射礼"))
    assert _wrong_pairs(doc, gold) == []
    (p,) = [p for p in _passages(doc) if last in p.translation_lines]  # the cut line renders the start of its row
    assert p.translation == split_inline(cut).main


def test_inline_commentary_is_split_off():
    r = split_inline("主人回拜。【高紫超说：“…】宾客答拜【未完")
    assert r.main == "主人回拜。宾客答拜"
    assert r.inline == ("高紫超说：“…", "未完")


def test_speaker_turns_know_commentators_by_any_name():
    turns = speaker_turns("以，就是和的意思。高紫超说：“能够…”朱熹说：“戒与者…”郑康成谓之某")
    assert [who for who, _ in turns] == [None, "高愈", "朱熹"]
    assert turns[2][1].endswith("郑康成谓之某")  # 谓 cites, it does not open a turn


def test_monotone_assignment_keeps_order_and_prefers_fresh_slots():
    scores = {(0, 0): 1.0, (0, 1): 0.0, (1, 0): 0.0, (1, 1): 3.0, (2, 0): 2.0, (2, 1): 0.5}  # 2 may not go back
    assert monotone_assignment(3, 2, lambda t, k, fresh: scores[(t, k)]) == [0, 1, 1]
    assert monotone_assignment(2, 2, lambda t, k, fresh: 1.0 if fresh else -5.0) == [0, 1]
    assert monotone_assignment(0, 3, lambda t, k, fresh: 0.0) == []


def test_inspect_json_fills_modern_name_and_translation():
    result = CliRunner().invoke(cli, ["inspect", str(TEXTS / XIANGSHE), "--json"], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    stage = json.loads(result.stdout)["rites"][0]["stages"][0]
    assert stage["modern_name"] == "邀请宾客"
    assert stage["passages"][2]["translation"].startswith("羹汤煮好后，主人穿着朝服去邀请宾客。")
    assert stage["passages"][0]["translation"] is None  # the commentary tail the excerpt opens with
