"""The elided-head reading of study/terms/plainelide.py on real lines of the book: a phrase of the
text quoted without its 之, and the near shapes it must refuse."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import book_glosses, rules_at

BOOK = Path(__file__).resolve().parents[1] / "decks" / "texts"


def test_a_phrase_of_the_text_quoted_without_its_zhi_is_glossed_after_wei():
    # 008:156 「君賜食謂侍食于君也」, the text 「若君賜之食」
    assert rules_at("KR1d0044_008.txt", 156).get(("君賜食", "侍食于君")) == "k:wei:elided-head:end:mid"


def test_the_walks_shorter_headword_run_on_is_dropped_for_it():
    # 008:162 「賜爵酌酒以賜也」, the text 「若君賜之爵」: 賜爵, not 賜 → 爵酌酒以賜
    found = rules_at("KR1d0044_008.txt", 162)
    assert found.get(("賜爵", "酌酒以賜")) == "k:ye:elided-head:end:mid"
    assert ("賜", "爵酌酒以賜") not in found


def test_a_statement_of_where_people_stand_is_not_read():
    # 008:122 「君南面臣北面禮也」 (the text 君之南面): positions, not a meaning
    text = (BOOK / "KR1d0044_008.txt").read_text(encoding="utf-8").splitlines()[121]
    assert "君南面臣北面" in text
    assert not [k for k, rule in rules_at("KR1d0044_008.txt", 122).items() if "elided-head" in rule]


def test_a_phrase_quoted_without_its_er_or_gan_is_read():
    # 004:392 「横奉兩手横舉也」 (the text 横而奉之); 008:166 「不顧辭不迴顧君告辭也」 (不敢顧辭)
    assert rules_at("KR1d0044_004.txt", 392).get(("横奉", "兩手横舉")) == "k:ye:elided-head:end:mid"
    assert ("横", "奉兩手横舉") not in rules_at("KR1d0044_004.txt", 392)
    assert rules_at("KR1d0044_008.txt", 166).get(("不顧辭", "不迴顧君告辭")) == "k:ye:elided-head:end:mid"


def test_a_phrase_quoted_without_its_yu_is_not_read():
    # 009:836 「至禰告反也」 (the text 至于禰): what is done there, narration
    glosses = book_glosses("KR1d0044_009.txt")
    assert not [g for g in glosses if g.context == "至禰"]


def test_the_doer_opening_a_quoted_phrase_of_the_text_is_glossed_by_who_it_is():
    # 006:252 「一人拜受爵謂太師也」; 006:243 「後者徒相謂相太師少師者也」
    found = {(g.line, g.context, g.gloss): g.rule for g in book_glosses("KR1d0044_006.txt")}
    assert found.get((252, "一人", "太師")) == "k:wei:doer-phrase:end:short"
    assert found.get((243, "後者", "相太師少師者")) == "k:wei:doer-phrase:end:mid"


def test_what_a_doer_does_after_wei_is_not_read_as_who_it_is():
    # 017:465 「襚者降謂下堂」: 下堂 is what 降 means, not who the 襚者 is
    glosses = book_glosses("KR1d0044_017.txt")
    assert not [g for g in glosses if "doer-phrase" in g.rule and g.context == "襚者"]
