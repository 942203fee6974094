"""A 义→词 card (and the web quiz's gloss→term question) whose clue holds every character of its
answer in another order answers itself: the student turns the clue round (趾向北 → 北趾, 面向西 → 西面,
衽向左 → 左衽, 月朔日 → 朔月). Such a term is asked term→gloss only. Real glosses of the book."""

from __future__ import annotations

import html
import re

import pytest

from study.build import Sources, plan_deck
from study.decks.deckspec import load_deckspec
from study.decks.markup import spelt_apart
from study.terms.senses import gives_away, gloss_prompt
from study.text.normalize import normalize
from tests.conftest import ROOT


@pytest.mark.parametrize(
    ("term", "gloss"),
    [("北趾", "趾向北"), ("西面", "面向西"), ("左衽", "衽向左"), ("朔月", "月朔日"), ("南鼓", "鼔面向南")],
)
def test_a_clue_holding_every_character_of_its_answer_in_another_order_is_no_prompt(term, gloss):
    assert gives_away([term], [gloss])
    assert gloss_prompt(term, gloss)[0] is None


@pytest.mark.parametrize(
    ("term", "gloss"),
    [("阼階", "主阶也"), ("筮人", "有司主筮事者"), ("塾", "門側之堂"), ("西面", "西向")],
)
def test_a_clue_sharing_only_part_of_its_answer_stays_a_prompt(term, gloss):
    assert not gives_away([term], [gloss])


def test_no_reverse_card_of_the_whole_book_can_be_read_off_its_clue_turned_round():
    notes = plan_deck(load_deckspec(ROOT / "decks" / "all.yaml"), Sources())
    reverse = [n for n in notes if n.model == "term_reverse"]
    assert len(reverse) > 1000
    for n in reverse:
        answers = [normalize(a) for a in n.plain[1].split("、")]
        for clue in (html.unescape(g) for g in re.findall(r'class="gloss">(.*?)</span>', n.field("Clue"))):
            c = normalize(clue)
            assert not [a for a in answers if len(a) > 1 and set(a) <= set(c)], n.plain


@pytest.mark.parametrize(
    ("name", "word", "spells"),
    [("遭主國喪", "遭喪", True), ("執幣玉之儀", "執玉", True), ("西階上北面", "西面", False), ("納采", "采", False)],
)
def test_a_stage_name_spells_a_word_whose_characters_it_holds_in_order_close_together(name, word, spells):
    assert spelt_apart(name, word) is spells


def test_no_reverse_card_of_the_whole_book_shows_its_answer_spelt_apart_in_its_stage_name():
    """聘禮's stage 遭主國喪 gave 遭喪 away on its 义→词 card (the third card sample): the stage is
    left out, its number standing in."""
    notes = plan_deck(load_deckspec(ROOT / "decks" / "all.yaml"), Sources())
    reverse = [n for n in notes if n.model == "term_reverse"]
    for n in reverse:
        context = html.unescape(n.field("Context"))
        assert not any(spelt_apart(context, a) for a in n.plain[1].split("、") if a), (n.identity, context)
    (zao,) = [n for n in reverse if normalize(n.identity[-1]) == normalize("遭喪")]
    assert html.unescape(zao.field("Context")).startswith("聘禮 · 第")
