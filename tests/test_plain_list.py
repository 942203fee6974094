"""The list reading of study/terms/plainlist.py (jie-list) on real lines of the book, and the
near shapes it must refuse."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import book_glosses, rules_at

BOOK = Path(__file__).resolve().parents[1] / "decks" / "texts"


def test_two_words_of_the_text_before_jie_are_each_glossed_by_what_closes_the_clause():
    # 016:78 「司馬司士皆公有司刲擊皆殺也」
    found = rules_at("KR1d0044_016.txt", 78)
    assert found.get(("刲", "殺")) == "k:ye:jie-list:end:short"
    assert found.get(("擊", "殺")) == "k:ye:jie-list:end:short"


def test_a_third_character_joined_to_the_word_before_it_is_not_in_the_list():
    # 016:78 「…公有司刲擊皆殺也」: 司 is of 有司, not a word glossed 殺
    assert ("司", "殺") not in rules_at("KR1d0044_016.txt", 78)


def test_words_of_a_blessing_glossed_together_at_the_clause_start_are_read():
    # 001:252 「令吉皆善也」
    found = rules_at("KR1d0044_001.txt", 252)
    assert found.get(("令", "善")) == "k:ye:jie-list:end:short"
    assert found.get(("吉", "善")) == "k:ye:jie-list:end:short"


def test_what_a_list_of_people_all_do_is_not_read_nor_a_word_of_the_text_split():
    # 聘禮 (009) writes 「乃退使介皆退也」 (an act), 「其受授皆北面」 (a direction) and
    # 「公與賔揖讓升皆客禮」 (揖讓 one word of the text): the list reading takes none of them
    glosses = book_glosses("KR1d0044_009.txt")
    text = (BOOK / "KR1d0044_009.txt").read_text(encoding="utf-8").replace("/", "").replace("\n", "")
    assert all(shape in text for shape in ("使介皆退也", "受授皆北面", "讓升皆客禮"))
    assert not [g for g in glosses if "jie-list" in g.rule]
