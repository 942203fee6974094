"""The built cards of 公食大夫禮 (卷七) and 覲禮 (卷十) as a reader found them: glosses that say who or
which thing is meant in the passage (or a reason, a cut definiens) dropped at their lines, and the
curated glosses of the cup basket 篚 and the bared left arm 袒 kept off the uses of another thing."""

from __future__ import annotations

from pathlib import Path

import pytest

from study.build import Sources, plan_deck
from study.decks.deckspec import load_deckspec
from study.terms.senses import senses_at
from study.text.normalize import normalize
from tests.conftest import book_terms, shown_glosses

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "decks" / "texts"

DROPPED = [  # (file, line, term, gloss): not what the word means
    ("KR1d0044_007.txt", 26, "朝服", "皮弁服"),
    ("KR1d0044_007.txt", 54, "大夫", "上擯"),
    ("KR1d0044_007.txt", 99, "魚", "乾魚"),
    ("KR1d0044_007.txt", 181, "旁", "正饌堂中庶羞偏西"),
    ("KR1d0044_007.txt", 211, "公辭", "辭降"),
    ("KR1d0044_007.txt", 220, "庭實", "四馬皮"),
    ("KR1d0044_007.txt", 234, "逆", "先出"),
    ("KR1d0044_007.txt", 239, "賓入門", "復入"),
    ("KR1d0044_007.txt", 261, "賜", "食與幣"),
    ("KR1d0044_010.txt", 27, "執玉", "執璧"),
    ("KR1d0044_010.txt", 37, "左驂", "庭實四馬最西一馬"),
    ("KR1d0044_010.txt", 71, "墨車", "大夫制"),
]
STEMS = ("07-gongshidafuli", "10-jinli")


@pytest.fixture(scope="module")
def notes():
    sources = Sources()
    return {stem: plan_deck(load_deckspec(ROOT / "decks" / f"{stem}.yaml"), sources) for stem in STEMS}


@pytest.mark.parametrize(("file", "line", "term", "gloss"), DROPPED)
def test_a_gloss_that_is_not_a_meaning_is_dropped_at_its_line(file, line, term, gloss, tmp_path):
    bare = tmp_path / "glossary.yaml"
    bare.write_text("version: 1\n", "utf-8")
    said = book_terms(file, bare)[normalize(term)]
    assert (gloss, line) in {(g.gloss, g.line) for g in said.glosses}  # the commentary says it there
    t = book_terms(file).get(normalize(term))
    assert t is None or (gloss, line) not in {(g.gloss, g.line) for g in t.glosses}


def test_no_card_of_the_two_rites_shows_a_dropped_gloss(notes):
    shown = shown_glosses(notes["07-gongshidafuli"]) | shown_glosses(notes["10-jinli"])
    assert shown  # the decks hold glossed cards
    for _, _, term, gloss in DROPPED:
        assert (normalize(term), normalize(gloss)) not in shown, (term, gloss)
    # what the cards taught beside them, and still do
    for term, gloss in (("上介", "賓之副使"), ("侑", "勸"), ("卷", "收"), ("韣", "弓衣"), ("裨", "副")):
        assert (normalize(term), normalize(gloss)) in shown, (term, gloss)


def _at(t, text: str, k: int, rite: str) -> set[str]:
    n, w = normalize(text), t.normalized
    i = [j for j in range(len(n)) if n.startswith(w, j)][k]
    return {g.gloss for g in senses_at(t, text, i, rite)}


CUPS = "篚以陈爵、觯"
LEFT = "袒，露左臂也"


def test_the_cup_basket_is_not_shown_on_a_basket_of_grain():
    """公食 致食's 簋實實于篚 (the millet of the 簋 put in baskets) showed 篚以陈爵、觯 on its card and cloze."""
    gong = book_terms("KR1d0044_007.txt")
    assert "篚" not in gong or CUPS not in _at(gong["篚"], "陳于楹外二以並北陳簋實實于篚陳于楹内", 0, "公食大夫禮")
    yan = book_terms("KR1d0044_005.txt")["篚"]
    assert CUPS in _at(yan, "主人坐取爵于篚降洗", 0, "燕禮")
    assert CUPS in _at(yan, "設洗篚于阼階東南當東霤罍水在東篚在洗西南肆", 1, "燕禮")


def test_the_bared_left_arm_is_not_shown_on_the_right():
    """覲禮 乃右肉袒 bares the right (凡禮事袒左刑人袒右, 010:117): the card showed 露左臂."""
    jin = book_terms("KR1d0044_010.txt")
    assert "袒" not in jin or LEFT not in _at(jin["袒"], "乃右肉袒于廟門之東乃入門右北面立告聽事", 0, "覲禮")
    da = book_terms("KR1d0044_006.txt")["袒"]
    assert LEFT in _at(da, "司射適次袒决遂執弓挾乘矢于弓外", 0, "大射儀")


def test_the_two_rites_show_no_card_of_the_cup_basket_or_the_bared_left_arm(notes):
    """公食's only 篚 holds grain, 覲禮's only 袒 bares the right arm: neither deck has a card for them."""
    for stem, term in (("07-gongshidafuli", "篚"), ("10-jinli", "袒")):
        terms = {normalize(dict(n.fields).get("Term", "")) for n in notes[stem]}
        assert normalize(term) not in terms, (stem, term)


def _spells(answer: str, clue: str) -> bool:
    rest = iter(clue)
    return all(ch in rest for ch in answer)


def test_no_reverse_card_spells_its_answer_out_on_its_front(notes):
    """覲禮's 义→词 card 「衣衮而冠冕 何词？」 asked 衮冕, every character of it on the front (燕禮 升堂而歌 →
    升歌, 士昏禮 問女之名 → 問名 likewise): such a card is not made; its 词→义 card stays."""
    jin = [n for n in notes["10-jinli"] if n.model.startswith("term") and normalize("衮冕") in n.identity]
    assert [n.model for n in jin] == ["term"], [n.plain for n in jin]
    whole = plan_deck(load_deckspec(ROOT / "decks" / "all.yaml"), Sources())
    reverse = [n for n in whole if n.model == "term_reverse"]
    assert len(reverse) > 1000
    for n in reverse:
        clues = [normalize(c) for c in n.plain[0].split("；")]
        spelt = [a for a in n.plain[1].split("、") if len(a) > 1 and any(_spells(normalize(a), c) for c in clues)]
        assert not spelt, n.plain
