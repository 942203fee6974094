"""The built cards of 鄉射禮 (卷四) and 燕禮 (卷五) as a reader found them: glosses that say which one
is meant in the passage (or what is done to it) dropped at their lines, and the curated glosses of the
penalty-cup stand 丰, the grain 黍, the 司正 and the 无算爵 kept to the rites and uses they fit."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from study.build import Sources, load_document, load_terms, plan_deck
from study.decks.deckspec import load_deckspec
from study.terms.senses import senses_at
from study.text.normalize import normalize

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "decks" / "texts"

DROPPED = [  # (file, line, term, gloss)
    ("KR1d0044_004.txt", 37, "懸", "懸磬"),  # which instrument hangs: ～磬
    ("KR1d0044_004.txt", 173, "面", "前"),  # 面鼓 only; the stage's 北面, 西面
    ("KR1d0044_004.txt", 319, "中", "間"),  # 中等 only; the stage's 侯中
    ("KR1d0044_004.txt", 400, "士", "衆賔"),  # who the 士 are
    ("KR1d0044_004.txt", 514, "左右", "上射下射"),  # who the two sides are
    ("KR1d0044_004.txt", 654, "祭", "祭肺"),  # 皆有祭 only; the stage's verbs 祭脯醢, 祭酒
    ("KR1d0044_005.txt", 21, "寢", "路寢"),
    ("KR1d0044_005.txt", 23, "懸", "鐘磬"),  # the things hung
    ("KR1d0044_005.txt", 95, "主人", "宰夫"),  # who is host
    ("KR1d0044_005.txt", 141, "序内", "堂西序内"),
    ("KR1d0044_005.txt", 184, "長", "下大夫之長"),
    ("KR1d0044_005.txt", 282, "坐祭", "祭酒"),  # what is offered
    ("KR1d0044_005.txt", 396, "士", "衆士"),
    ("KR1d0044_005.txt", 460, "卒受者", "大夫"),  # who receives last
]


def _terms(file: str, *, glossary: Path | None = None):
    return {t.normalized: t for t in load_terms([load_document(BOOK / file)], glossary, withheld=True)}


def _at(t, text: str, k: int, rite: str) -> set[str]:
    """The glosses of ``t`` that explain its ``k``-th occurrence in ``text``."""
    n, w = normalize(text), t.normalized
    i = [j for j in range(len(n)) if n.startswith(w, j)][k]
    return {g.gloss for g in senses_at(t, text, i, rite)}


@pytest.fixture(scope="module")
def notes():
    sources = Sources()
    return {stem: plan_deck(load_deckspec(ROOT / "decks" / f"{stem}.yaml"), sources) for stem in ("xiangshe", "yanli")}


@pytest.mark.parametrize("file, line, term, gloss", DROPPED)
def test_a_gloss_saying_which_one_is_meant_is_dropped_at_its_line(file, line, term, gloss, tmp_path):
    bare = tmp_path / "glossary.yaml"
    bare.write_text("version: 1\n", "utf-8")
    read = _terms(file, glossary=bare)[normalize(term)]
    assert (gloss, line) in {(g.gloss, g.line) for g in read.glosses}  # the commentary says it there
    t = _terms(file).get(normalize(term))
    assert t is None or (gloss, line) not in {(g.gloss, g.line) for g in t.glosses}


def test_no_card_of_the_two_rites_teaches_a_dropped_gloss(notes):
    dropped = {(normalize(t), normalize(g)) for _, _, t, g in DROPPED}
    for stem, planned in notes.items():
        for n in planned:
            f = dict(n.fields)
            if n.kind != "terms":
                continue
            term = normalize(re.sub(r"<[^>]+>", "", f.get("Term", "")))
            glosses = re.findall(r'class="gloss">(.*?)</span>', f.get("Glosses", ""))
            assert not {(term, normalize(g)) for g in glosses} & dropped, (stem, term, glosses)
    # what the cards taught on those words before, and still do
    shown = {
        (normalize(re.sub(r"<[^>]+>", "", dict(n.fields).get("Term", ""))), normalize(g))
        for planned in notes.values()
        for n in planned
        if n.kind == "terms"
        for g in re.findall(r'class="gloss">(.*?)</span>', dict(n.fields).get("Glosses", ""))
    }
    assert (normalize("中等"), normalize("間一等")) in shown
    assert (normalize("媵"), normalize("送")) in shown


def test_a_dropped_gloss_is_not_hinted_in_a_cloze(notes):
    """燕禮's clozes read 「不祭[大夫]以虚觶降」 (卒受者 = 大夫) and 「賔升自西階[宰夫]亦升」 (主人 = 宰夫);
    鄉射禮's 「還視侯[間]合足而俟」 (中 = 間 on the target's 侯中)."""
    hints = {
        normalize(h)
        for planned in notes.values()
        for n in planned
        if n.kind == "cloze"
        for h in re.findall(r"\{\{c\d+::.*?::(.*?)\}\}", dict(n.fields).get("Text", ""))
    }
    assert not hints & {normalize(x) for x in ("大夫", "宰夫", "間", "衆士", "祭肺", "路寢", "鐘磬")}


def test_the_penalty_cup_stand_is_not_taught_on_the_jar_stand():
    """燕禮's 豐 card set 丰 = …所以承罚爵者 (鄉射's stand for the losers' cup) beside 蔡德晉's 豐所以盛瓦大者
    on 公尊瓦大兩有豐, the stand of the lord's jars."""
    stand = "丰以木为之，其形似豆，所以承罚爵者"
    yan = _terms("KR1d0044_005.txt")["丰"]
    text = "公尊瓦大兩有豐冪用綌若錫"
    assert stand not in _at(yan, text, 0, "燕禮")
    assert "所以盛瓦大者" in _at(yan, text, 0, "燕禮")
    xiang = _terms("KR1d0044_004.txt")["丰"]
    assert stand in _at(xiang, "司射適堂西命弟子設豐弟子奉豐升設于西楹之西乃降", 0, "鄉射禮")
    da = _terms("KR1d0044_006.txt")["丰"]
    assert stand not in _at(da, "厥明司宫尊于東楹之西兩方壺膳尊兩甒在南有豐冪用錫若絺", 0, "大射儀")
    assert stand in _at(da, "司射命設豐司宫士奉豐由西階升北面坐設于西楹西", 0, "大射儀")


def test_the_grain_is_not_taught_on_the_ode_hua_shu():
    """燕禮's clozes read 「奏南陔白華華[禾属而黏者也]」: 華黍 is an ode (笙奏), not the millet."""
    yan = _terms("KR1d0044_005.txt").get(normalize("黍"))
    assert yan is None or "禾属而黏者也" not in _at(yan, "笙入立于懸中奏南陔白華華黍主人洗升獻笙", 0, "燕禮")
    hun = _terms("KR1d0044_002.txt")[normalize("黍")]
    assert "禾属而黏者也" in _at(hun, "贊設黍于醬東稷在其東", 0, "士昏禮")


def test_the_si_zheng_of_the_shooting_rite_stays_there():
    """高紫超's 饮则为司正，射则为司马 is 鄉射禮's (one man, 司正 then 司馬); 燕禮's 司正 is the 射人
    (射人遂為司正) and 大射儀 keeps its 司正 beside two 司馬. 郝's 复为司正…以监旅也 is said when the
    shooting is over (司馬反為司正), not at the 立司正 of the drinking."""
    yan = _terms("KR1d0044_005.txt").get(normalize("司正"))
    assert yan is None or not _at(yan, "射人自阼階下請立司正公許射人遂為司正", 0, "燕禮")
    xiang = _terms("KR1d0044_004.txt")[normalize("司正")]
    rise = "主人降席自南方側降作相為司正司正禮辭許諾"
    assert _at(xiang, rise, 0, "鄉射禮") == {"饮则为司正，射则为司马"}
    back = "司馬反為司正退復觶南而立"
    assert _at(xiang, back, 0, "鄉射禮") == {"饮则为司正，射则为司马", "复为司正，仍立觯南，以监旅也"}


def test_the_uncounted_cups_of_the_xiang_rites_are_not_taught_for_the_lords_feast():
    """鄉射's 无算爵 (执觯者取所奠觯，洗，升，酌，复奠于賔、大夫席前) is not 燕禮's, poured by 士 with the
    膳爵 and 散爵 (無算爵士也有執膳爵者有執散爵者)."""
    wu = "执觯者取所奠觯，洗，升，酌，复奠于賔、大夫席前，即无算爵也"
    yan = _terms("KR1d0044_005.txt").get(normalize("無算爵"))
    assert yan is None or wu not in _at(yan, "無算爵士也有執膳爵者有執散爵者", 0, "燕禮")
    xiang = _terms("KR1d0044_004.txt")[normalize("無算爵")]
    assert wu in _at(xiang, "大夫及衆賔皆脱屨升坐乃羞無算爵", 0, "鄉射禮")


def test_a_teachers_gloss_quoting_the_excerpt_names_the_books_page_and_commentator(notes):
    """A curated gloss quoting a line of the 鄉射/燕禮 excerpt (seed 000, loaded beside the rite for its
    translation) was credited to the excerpt's place alone (旌，获者所执 — 礼经本义 卷四 · 乡射礼 · 请射):
    where the book says the same words, its card names the book's page and line and who says it."""
    cards = {}
    for planned in notes.values():
        for n in planned:
            f = dict(n.fields)
            if n.kind == "terms":
                cards.setdefault(normalize(re.sub(r"<[^>]+>", "", f.get("Term", ""))), []).append(f)
    jing = next(f for f in cards[normalize("旌")] if f["Context"] == "鄉射禮 · 請射")
    assert "郝仲輿（郝敬）" in jing["Glosses"] and "乡射礼 · 请射" not in jing["Glosses"]
    assert jing["Source"].startswith("礼经本义 卷四 · 鄉射禮 · 請射 · 頁13b")
    sizheng = next(f for f in cards[normalize("司正")] if f["Context"] == "鄉射禮 · 立司正")
    assert "髙紫超（高愈）" in sizheng["Glosses"]
    fei = next(f for f in cards[normalize("篚")] if "燕禮" in f["Context"])
    assert fei["Source"] == "礼经本义 卷五 · 燕禮 · 陳饌器 · 頁2a第3行 · 蔡德晉曰"
    for fs in cards.values():  # no card names the excerpt's place without a commentator
        for f in fs:
            assert "乡射礼 · " not in f["Source"] or f["Source"].endswith("曰"), f["Source"]


def test_the_wine_vessel_is_not_hinted_on_setting_it_out_in_the_xiang_rites():
    """鄉射禮's cloze read 「[酒器也]于賔席之東兩壺」: 尊 there is the verb, to set the jars out, as in
    鄉飲酒禮's 尊兩壺于房户間 and 士冠禮's 尊于房户之間; 席于尊東 is the vessel."""
    xiang = _terms("KR1d0044_004.txt")["尊"]
    assert "酒器也" not in _at(xiang, "尊于賔席之東兩壺斯禁", 0, "鄉射禮")
    assert "酒器也" in _at(xiang, "如賔禮席于尊東升不拜洗", 0, "鄉射禮")
    yin = _terms("KR1d0044_003.txt")["尊"]
    assert "酒器也" not in _at(yin, "尊兩壺于房户間斯禁", 0, "鄉飲酒禮")
    guan = _terms("KR1d0044_001.txt")["尊"]
    assert "酒器也" not in _at(guan, "側尊一甒醴在服北", 0, "士冠禮")
    assert "酒器也" not in _at(guan, "若不醴則醮用酒尊于房户之間", 0, "士冠禮")
