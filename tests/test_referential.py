"""Glosses that say who or which thing a word points at in its passage are not taught
(study/terms/referential.py): each shape on a real line of the book, and a real definition of the
nearest shape that stays."""

from __future__ import annotations

import pytest

from study.build import Sources, plan_deck
from study.decks.deckspec import load_deckspec
from study.terms.referential import referential
from tests.conftest import ROOT, book_glosses


def _gloss(file: str, line: int, term: str, gloss: str):
    found = [g for g in book_glosses(file) if g.line == line and g.context == term and g.gloss == gloss]
    assert found, f"{file}:{line} {term} = {gloss} is no longer extracted"
    return found[0]


@pytest.mark.parametrize(
    ("file", "line", "term", "gloss", "shape"),
    [
        ("KR1d0044_009.txt", 149, "士", "衆介", "person"),  # 士衆介也: which 士 hold the gifts
        ("KR1d0044_012.txt", 804, "丈夫", "衆主人衆兄弟", "person"),  # which men stand outside
        ("KR1d0044_003.txt", 269, "一人", "主人之贊者", "person"),  # who the one man is
        ("KR1d0044_009.txt", 174, "郊", "逺郊", "specifier"),  # which 郊: 逺～
        ("KR1d0044_012.txt", 438, "奠", "始死之奠", "specifier"),  # which offering: 始死之～
        ("KR1d0044_002.txt", 360, "門", "舅姑之寢門", "specifier"),  # whose door, and which
        ("KR1d0044_014.txt", 207, "奠", "祝所奠於鉶南之觶", "relative"),  # the cup the 祝 set down
    ],
)
def test_a_gloss_saying_who_or_which_is_meant_is_not_taught(file, line, term, gloss, shape):
    assert referential(term, gloss) == shape
    assert not _gloss(file, line, term, gloss).taught


@pytest.mark.parametrize(
    ("file", "line", "term", "gloss"),
    [
        ("KR1d0044_001.txt", 156, "尊", "酒尊"),  # the wine vessel: what a 尊 is
        ("KR1d0044_001.txt", 225, "容", "從容"),  # a word of two characters, not a place
        ("KR1d0044_008.txt", 100, "上大夫", "卿"),  # a title's equivalent, not a person of the passage
        ("KR1d0044_016.txt", 803, "私人", "私臣"),  # a synonym
    ],
)
def test_a_real_definition_of_the_nearest_shape_stays_taught(file, line, term, gloss):
    assert referential(term, gloss) is None
    assert _gloss(file, line, term, gloss).taught


@pytest.mark.parametrize(
    ("term", "gloss"),
    [
        ("小臣正", "小臣之長"),  # spelt out: 正 is 長, the word itself is not inside its gloss
        ("匕", "所以出飯"),  # the instrument formula 所以V, not a thing someone did something to
        ("庶羞", "饔人所修胾醢之類"),  # a kind (之類), not one thing
        ("有司", "賓介之執事者"),  # an office said by what it does
        ("塊", "土塊"),  # what the thing is made of
    ],
)
def test_spelt_out_words_kinds_and_offices_are_not_read_as_referential(term, gloss):
    assert referential(term, gloss) is None


def test_no_reverse_card_of_the_whole_book_asks_a_person_or_a_specified_thing_for_its_word():
    """Every 义→词 card of decks/all.yaml (planned, without Anki): no gloss on its front says who
    or which thing its answer points at (the front masks the answer, ～, put back here)."""
    book = plan_deck(load_deckspec(ROOT / "decks" / "all.yaml"), Sources())
    reverse = [n for n in book if n.model == "term_reverse"]
    assert len(reverse) > 1000
    found = [
        (answer, gloss)
        for n in reverse
        for answer in n.plain[1].split("、")
        for gloss in n.plain[0].replace("～", answer).split("；")
        if answer and referential(answer, gloss)
    ]
    assert not found
