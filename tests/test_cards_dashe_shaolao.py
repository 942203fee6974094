"""The built cards of 大射儀 (卷六) and 少牢饋食禮 (卷十六, with 有司徹) as a reader found them: glosses
that say which one is meant in the passage dropped at their lines, and the curated glosses of the
armlet 遂, the turn 拾 and the wine vessel 尊 kept off the uses of another sense."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from study.build import Sources, plan_deck
from study.decks.deckspec import load_deckspec
from study.terms.senses import senses_at
from study.text.normalize import normalize
from tests.conftest import book_terms, shown_glosses

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "decks" / "texts"

DROPPED = [  # (file, line, term, gloss): which one is meant (or a fragment), not what the word means
    ("KR1d0044_006.txt", 23, "宰", "膳宰掌治官饌者"),
    ("KR1d0044_006.txt", 55, "鐘", "歌鐘"),
    ("KR1d0044_006.txt", 243, "後者", "相太師少師者"),
    ("KR1d0044_006.txt", 281, "中", "皮樹中"),
    ("KR1d0044_006.txt", 329, "侯中", "豻侯之中"),
    ("KR1d0044_006.txt", 383, "三耦", "士"),
    ("KR1d0044_006.txt", 384, "衆耦", "士耦"),
    ("KR1d0044_006.txt", 384, "卒", "比大夫之耦畢"),
    ("KR1d0044_006.txt", 384, "卒", "比大"),
    ("KR1d0044_006.txt", 419, "釋獲者", "太史"),
    ("KR1d0044_006.txt", 658, "射人", "向之為司射者"),
    ("KR1d0044_016.txt", 19, "日", "筮日之日"),
    ("KR1d0044_016.txt", 90, "西方", "房内之西"),
    ("KR1d0044_016.txt", 126, "士", "有司"),
    ("KR1d0044_016.txt", 130, "二尊", "兩甒"),
    ("KR1d0044_016.txt", 189, "豆東", "醓醢之東"),
    ("KR1d0044_016.txt", 296, "内", "籩中"),
    ("KR1d0044_016.txt", 303, "菹醢", "韭菹醓醢"),
    ("KR1d0044_016.txt", 318, "篚", "下篚"),
    ("KR1d0044_016.txt", 440, "一匕", "羊匕"),
    ("KR1d0044_016.txt", 440, "二匕", "豕魚匕"),
    ("KR1d0044_016.txt", 479, "初籩", "䵄蕡"),
    ("KR1d0044_016.txt", 510, "臂", "左臂"),
    ("KR1d0044_016.txt", 543, "肺", "羊祭肺"),
    ("KR1d0044_016.txt", 715, "薦左", "醢東"),
    ("KR1d0044_016.txt", 731, "羞", "異味"),
    ("KR1d0044_016.txt", 747, "豆北", "醢之北"),
    ("KR1d0044_016.txt", 747, "羊骼", "羊左骼"),
    ("KR1d0044_016.txt", 747, "羊骼", "羊左骼一"),
    ("KR1d0044_016.txt", 964, "臂", "左臂"),
    ("KR1d0044_016.txt", 968, "酢", "自酢"),
    ("KR1d0044_016.txt", 1005, "酢", "酢于主人"),
]


@pytest.fixture(scope="module")
def notes():
    sources = Sources()
    return {
        stem: plan_deck(load_deckspec(ROOT / "decks" / f"{stem}.yaml"), sources)
        for stem in ("06-dasheyi", "16-shaolaokuishili")
    }


@pytest.mark.parametrize(("file", "line", "term", "gloss"), DROPPED)
def test_a_gloss_saying_which_one_is_meant_is_dropped_at_its_line(file, line, term, gloss, tmp_path):
    bare = tmp_path / "glossary.yaml"
    bare.write_text("version: 1\n", "utf-8")
    said = book_terms(file, bare)[normalize(term)]
    assert (gloss, line) in {(g.gloss, g.line) for g in said.glosses}  # the commentary says it there
    t = book_terms(file).get(normalize(term))
    assert t is None or (gloss, line) not in {(g.gloss, g.line) for g in t.glosses}


def test_no_card_of_the_two_rites_shows_a_dropped_gloss(notes):
    shown = shown_glosses(notes["06-dasheyi"]) | shown_glosses(notes["16-shaolaokuishili"])
    assert shown  # the decks hold glossed cards
    for _, _, term, gloss in DROPPED:
        assert (normalize(term), normalize(gloss)) not in shown, (term, gloss)
    # what the cards taught before on those words, and still do
    assert (normalize("宰"), normalize("上卿執政者")) in shown


def _at(t, text: str, k: int, rite: str) -> set[str]:
    n, w = normalize(text), t.normalized
    i = [j for j in range(len(n)) if n.startswith(w, j)][k]
    return {g.gloss for g in senses_at(t, text, i, rite)}


ARMLET = "遂，以韦为之，一名韝，着于左臂"
IN_TURN = "拾，更迭也"


def test_the_armlet_is_not_hinted_on_then():
    """大射儀's 遂 card showed the armlet on 卒射釋獲者遂以所執餘獲 (then); 鄉射's 遂以執弣 likewise."""
    sui = book_terms("KR1d0044_006.txt")["遂"]
    assert ARMLET not in _at(sui, "卒射釋獲者遂以所執餘獲適阼階下北面告于公", 0, "大射儀")
    assert ARMLET in _at(sui, "司射適次袒决遂執弓挾乘矢于弓外", 0, "大射儀")
    xiang = book_terms("KR1d0044_004.txt")["遂"]
    assert ARMLET not in _at(xiang, "左手右加弛弓于其上遂以執弣司射先反位", 0, "鄉射禮")


def test_taking_in_turn_is_not_hinted_on_the_armguard():
    """大射儀's 拾 card showed 更迭 on 小射正又坐取拾興贊設拾以笥 (the armguard of 决拾)."""
    shi = book_terms("KR1d0044_006.txt")["拾"]
    guard = "小射正又坐取拾興贊設拾以笥退奠于坫上"
    assert IN_TURN not in _at(shi, guard, 0, "大射儀") | _at(shi, guard, 1, "大射儀")
    assert IN_TURN not in _at(shi, "遂適次釋弓脫决拾襲反位", 0, "大射儀")
    assert IN_TURN in _at(shi, "遂命三耦各與其耦拾取矢", 0, "大射儀")
    assert IN_TURN in _at(shi, "大射正受弓而俟拾發以將乗矢", 0, "大射儀")


def test_the_wine_vessel_is_not_hinted_on_setting_it_out():
    """少牢's 尊 card showed 酒器也 on 司宫尊兩甒于房户之間 (the verb); 大射's clozes on 司宫尊于東楹之西."""
    shao = book_terms("KR1d0044_016.txt")["尊"]
    assert "酒器也" not in _at(shao, "司宫尊兩甒于房户之間同棜皆有冪", 0, "少牢饋食禮")
    assert "酒器也" in _at(shao, "主婦洗于房中出實爵尊南西面拜獻尸", 0, "少牢饋食禮")
    da = book_terms("KR1d0044_006.txt")["尊"]
    s = "厥明司宫尊于東楹之西兩方壺膳尊兩甒在南有豐冪用錫若絺綴諸箭蓋冪加勺又反之皆𤣥尊酒在北尊士旅食于西鑮之南"
    assert [("酒器也" in _at(da, s, k, "大射儀")) for k in range(4)] == [False, True, True, False]
    assert "酒器也" not in _at(da, "司宫尊侯于服不之東北兩獻酒", 0, "大射儀")


def test_the_built_cards_show_those_senses_on_their_own_uses(notes):
    for stem, term, wrong in (
        ("06-dasheyi", "遂", "遂】以"),
        ("06-dasheyi", "拾", "取【拾"),
        ("16-shaolaokuishili", "尊", "宫【尊"),
    ):
        for n in notes[stem]:
            f = dict(n.fields)
            if normalize(f.get("Term", "")) == normalize(term):
                shown = re.sub(r'<b class="hl">(.*?)</b>', r"【\1】", f.get("Example", "") + f.get("Sense", ""))
                assert normalize(wrong) not in normalize(re.sub(r"<[^>]+>", "", shown)), (stem, term, shown)
