"""Normalised forms (matching and search): variants and traditional forms become one standard
character, and no two characters of different meaning become one."""

from __future__ import annotations

from study.text.normalize import normalize, search_key


def test_variants_and_traditional_forms_meet_in_one_form():
    assert normalize("賔髙乗") == "宾高乘"
    assert normalize("簷") == normalize("檐")  # one word: the converters sent each to the other


def test_characters_of_another_meaning_stay_apart():
    # char-converter's v2s joined each of these to a character of another meaning
    assert normalize("謖") != normalize("諡")  # 尸謖 (the 尸 rises) is not 諡 (a posthumous name)
    assert normalize("貳") != normalize("二")
    assert normalize("鬴") != normalize("鬲")
    assert normalize("鯽") == "鲫" and normalize("挩") == normalize("捝")
    assert search_key("尸謖") != search_key("尸諡")


def test_normalising_keeps_the_length_of_the_text():
    text = "主人獻賔賔酢主人𤣥酒▯"
    assert len(normalize(text)) == len(text)
