"""The gloss chain of study/terms/plainchain.py (chain-tail) on real lines of the book: a short
gloss run on at a clause's end between glosses of the passage's neighbouring words, and the near
shapes it must refuse."""

from __future__ import annotations

from tests.conftest import book_glosses, rules_at


def test_a_bone_glossed_at_a_clause_end_before_the_next_bones_glosses_is_read():
    # 003:135 「凡俎貴骨骨貴正與前脊正骨也脅肩前骨也臂肩下骨也」 on 「賔俎脊脅肩肺」
    assert rules_at("KR1d0044_003.txt", 135).get(("脊", "正骨")) == "k:ye:chain-tail:end:short"


def test_a_word_glossed_after_a_measure_that_closes_the_gloss_before_it_is_read():
    # 012:65 「楔柱也角柶以角為柶長六寸綴拘也燕安也」 on 「楔齒用角柶綴足用燕几」 (the gloss of 角柶 before it)
    assert rules_at("KR1d0044_012.txt", 65).get(("綴", "拘")) == "k:ye:chain-tail:end:short"


def test_a_word_the_narration_keeps_retelling_is_not_read_at_a_clause_end():
    # 009:284 「…公東楹之西當楣再拜拜貺也三退三逡循也」: 拜 stands everywhere in 聘禮, 拜貺 is the act
    assert ("拜", "貺") not in rules_at("KR1d0044_009.txt", 284)
    # 007:150 「…揖食揖賓進食也」: 賓 is who is bowed to, not a word glossed
    assert ("賓", "進食") not in rules_at("KR1d0044_007.txt", 150)


def test_a_word_joined_to_the_character_before_it_is_not_read():
    # 015:127 「側特也特殺殺一牲也」: 殺 told again after 特殺; 009:312 「…則麋鹿皮可也」
    assert ("殺", "一牲") not in rules_at("KR1d0044_015.txt", 127)
    assert ("皮", "可") not in rules_at("KR1d0044_009.txt", 312)


def test_a_tail_without_a_gloss_of_a_neighbouring_word_is_not_read():
    # 003:116 「…嚌畢起還肺於俎上…手為絶肺染汚也」 reads as the tail shape, but no clause beside it glosses a
    # word standing near 肺 in its passage: what happens to the lung, not what it is
    assert ("肺", "染汚") not in rules_at("KR1d0044_003.txt", 116)
    assert not [g for g in book_glosses("KR1d0044_003.txt") if g.line == 116 and "chain-tail" in g.rule]


def test_two_short_glosses_read_as_one_are_split_at_the_next_word_of_the_passage():
    # 001:400 「湑清伊惟也」 on 「旨酒既湑…伊」 (the 湑 → 清伊惟); 007:186 「胾切肉鮨膾也」
    found = rules_at("KR1d0044_001.txt", 400)
    assert found.get(("湑", "清")) == found.get(("伊", "惟")) == "k:ye:chain-split:end:short"
    assert ("湑", "清伊惟") not in found
    found = rules_at("KR1d0044_007.txt", 186)
    assert found.get(("胾", "切肉")) == found.get(("鮨", "膾")) == "k:ye:chain-split:end:short"


def test_a_definiens_that_only_looks_like_two_is_not_split():
    # 013:465 「袒為行變也」: 為 opens no gloss; 007:273 「西東西列東列也」: the first part repeats the word
    assert ("行", "變") not in rules_at("KR1d0044_013.txt", 465)
    assert not [r for r in rules_at("KR1d0044_007.txt", 273).values() if "chain-split" in r]
