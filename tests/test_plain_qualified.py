"""The qualified reading of study/terms/plainqual.py on real lines of the book: a word of the text
glossed by itself with a qualifier before it, the next word of the text following; and the near
shapes it must refuse."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import book_glosses

BOOK = Path(__file__).resolve().parents[1] / "decks" / "texts"


def _glosses(file: str) -> dict[tuple[int, str, str], str]:
    """(line, term, gloss) → rule of the glosses extracted from one file of the book."""
    return {(g.line, g.context, g.gloss): g.rule for g in book_glosses(file)}


def test_a_word_glossed_by_itself_qualified_ends_where_the_next_word_of_the_text_opens():
    # 002:46 「宗子大宗子父沒則母命使者…」; 007:99 「魚乾魚腊乾禽餁熟也」
    assert _glosses("KR1d0044_002.txt").get((46, "宗子", "大宗子")) == "k:ye:qualified:mid"
    assert _glosses("KR1d0044_007.txt").get((99, "魚", "乾魚")) == "k:ye:qualified:short"


def test_a_person_doing_the_next_act_is_not_read_as_qualified():
    # 002:93 「主人少退主人拜送賓亦如之」: 主人 is the subject of 拜送, narration
    assert not [k for k, rule in _glosses("KR1d0044_002.txt").items() if k[0] == 93 and "qualified" in rule]


def test_a_qualifier_holding_the_words_own_character_is_not_read():
    # 016:455 「推推手推拂向外拂去塵」
    assert not [k for k, rule in _glosses("KR1d0044_016.txt").items() if k[1] == "推" and "qualified" in rule]


def test_officers_glossed_by_the_office_they_head_or_belong_to_are_read_one_after_the_other():
    # 016:134 「郝仲輿曰饔正饔人之長饔府饔正之屬司士賛者…」
    found = _glosses("KR1d0044_016.txt")
    assert found.get((134, "饔正", "饔人之長")) == "k:ye:officer-kind:mid"
    assert found.get((134, "饔府", "饔正之屬")) == "k:ye:officer-kind:mid"


def test_a_run_of_the_text_ending_in_an_office_is_not_read_as_one():
    # 002:39 「出出廟門老家臣之長」: 出 is 出廟門, 老 is 家臣之長 — not 出 = 出廟門老家臣之長
    assert not [k for k, rule in _glosses("KR1d0044_002.txt").items() if k[0] == 39 and "officer-kind" in rule]


def test_what_a_word_of_the_text_points_at_after_zhi_is_read_up_to_its_next_statement():
    # 016:72 「子指宗人宗人掌禮事知行禮早晏之節故主人聽之也」; 015:458 「舉奠指嗣子而言」
    assert _glosses("KR1d0044_016.txt").get((72, "子", "宗人")) == "k:wei:zhi:end:short"
    assert _glosses("KR1d0044_015.txt").get((458, "舉奠", "嗣子")) == "k:wei:zhi:end:short"


def test_the_walks_reading_with_zhi_in_its_definiens_is_replaced():
    # 016:19 「日指筮日之日也」: 日 = 筮日之日, not 指筮日之日
    found = _glosses("KR1d0044_016.txt")
    assert found.get((19, "日", "筮日之日")) == "k:wei:zhi:end:mid"
    assert (19, "日", "指筮日之日") not in found


def test_a_clause_of_the_text_pointing_at_a_kind_is_not_read():
    # 001:431 「禮於阼指三加與醴之類」: 禮於阼 is a clause of the text, not a word
    assert not [k for k, rule in _glosses("KR1d0044_001.txt").items() if k[0] == 431 and "zhi" in rule]
