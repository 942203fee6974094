"""The built cards of 士喪禮下 (卷十三) as a reader found them: glosses that say who or which thing is
meant in the passage, or turn the phrase's own characters round so that the reverse card shows its
answer, dropped at their lines; 乗 = 四矢 (翭矢一乗) no longer shown on the carriage 乗車."""

from __future__ import annotations

from pathlib import Path

import pytest

from study.build import Sources, plan_deck
from study.decks.deckspec import load_deckspec
from study.text.normalize import normalize
from tests.conftest import book_terms, shown_glosses

ROOT = Path(__file__).resolve().parents[1]
BOOK = ROOT / "decks" / "texts"
FILE = "KR1d0044_013.txt"

DROPPED = [  # (line, term, gloss)
    (29, "從", "從其所筮之地"),  # the term inside its gloss
    (32, "筮擇", "更擇地而筮之"),  # the reverse card holds its answer
    (35, "殯前", "西階下"),  # where
    (53, "卜日", "卜𦵏日"),  # which divination; the reverse card holds its answer
    (73, "降", "𦵏而體魄下降"),  # what descends; the term inside its gloss
    (122, "聲三", "三有聲"),  # the phrase turned round
    (123, "啓三", "三言啓"),
    (199, "乗車", "士所乗棧車"),  # which carriage
    (208, "遂匠", "遂人匠人"),  # the pair spelt out
    (276, "乗", "四矢"),  # right at 翭矢一乗, shown on 乗車
    (330, "賔", "使者"),  # who
    (330, "幣", "𤣥纁"),  # which silks
    (332, "棧", "柩車"),  # which cart
    (342, "賔", "卿大夫士之使者"),  # who
    (398, "鼎五", "羊豕魚腊鮮獸各一鼎"),  # which tripods
    (434, "道左", "道之南"),  # where
    (497, "贈", "主人以幣贈死者於壙"),  # who gives what to whom
    (521, "道左", "墓道東"),  # where
    (536, "賔弔者", "衆賔之長"),  # who
]


@pytest.fixture(scope="module")
def said(tmp_path_factory):
    bare = tmp_path_factory.mktemp("g") / "glossary.yaml"
    bare.write_text("version: 1\n", "utf-8")
    return book_terms(FILE, bare)


@pytest.fixture(scope="module")
def kept():
    return book_terms(FILE)


@pytest.mark.parametrize(("line", "term", "gloss"), DROPPED)
def test_a_gloss_saying_who_or_which_or_holding_its_word_is_dropped_at_its_line(line, term, gloss, said, kept):
    assert (gloss, line) in {(g.gloss, g.line) for g in said[normalize(term)].glosses}  # the commentary says it
    t = kept.get(normalize(term))
    assert t is None or (gloss, line) not in {(g.gloss, g.line) for g in t.glosses}


@pytest.fixture(scope="module")
def notes():
    return plan_deck(load_deckspec(ROOT / "decks" / "13-shisanglixia.yaml"), Sources())


def test_no_card_of_the_rite_shows_a_dropped_gloss(notes):
    shown = shown_glosses(notes)
    for _, term, gloss in DROPPED:
        assert (normalize(term), normalize(gloss)) not in shown, (term, gloss)
    # the rite's meanings beside them stay on its cards
    for term, gloss in (
        ("宅", "墓域"),
        ("窆", "下棺"),
        ("服", "車箱"),
        ("就", "成"),
        ("抗", "舉"),
        ("卦", "書卦於木"),
        ("陳", "所陳"),
        ("翭矢", "候物而射之矢"),
    ):
        assert (normalize(term), normalize(gloss)) in shown, (term, gloss)


def test_no_term_card_of_the_rite_glosses_the_carriage_as_four_arrows(notes):
    for n in notes:
        f = dict(n.fields)
        if normalize(f.get("Term", "")) == normalize("乗"):
            assert "四矢" not in f["Glosses"], f.get("Example")
