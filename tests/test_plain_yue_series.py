"""The second Y曰X of a pair read before a new statement (study/terms/plainyue.py,
yue-open-series) on real lines of the book, and the near shapes it must refuse."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import book_glosses

BOOK = Path(__file__).resolve().parents[1] / "decks" / "texts"


def _glosses(file: str) -> dict[tuple[int, str, str], str]:
    """(line, term, gloss) → rule of the glosses extracted from one file of the book."""
    return {(g.line, g.context, g.gloss): g.rule for g in book_glosses(file)}


def test_the_second_of_a_pair_of_yue_formulas_is_read_before_a_new_statement():
    # 003:64 「舊説推手曰揖引手曰厭厭之使入禮之也」
    found = _glosses("KR1d0044_003.txt")
    assert found.get((64, "揖", "推手")) == "k:yue:yue:short"
    assert found.get((64, "厭", "引手")) == "k:yue:yue-open-series:short"


def test_a_pair_whose_second_definiens_ends_in_a_particle_is_not_read():
    # 012:575 「在地曰燎執之曰燭大斂之奠…」 and 017:32 「矢貴直而曰枉壺貴正而曰哨謙辭也」
    assert not [k for k, rule in _glosses("KR1d0044_012.txt").items() if k[1] == "燭" and "series" in rule]
    assert not [k for k, rule in _glosses("KR1d0044_017.txt").items() if k[1] == "哨" and "yue" in rule]


def test_a_question_closes_the_sentence_before_a_yue_definiens():
    # 016:17 「…詩曰執豕于牢何獨牛羊稱牢乎羊小于牛曰少豕獨用曰特少則稱牲…」
    found = _glosses("KR1d0044_016.txt")
    assert found.get((17, "少", "羊小于牛")) == "k:yue:intro-yue-asked:mid"
    assert found.get((17, "特", "豕獨用")) == "k:yue:intro-yue-open-series:mid"
    assert not [k for k in found if k[0] == 17 and k[2].startswith("豕于牢")]
