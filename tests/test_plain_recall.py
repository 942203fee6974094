"""Recall rules of the unpunctuated commentary reader (issue 11) and the near cases they must refuse,
on real lines of the book."""

from __future__ import annotations

from tests.conftest import rules_at


def test_a_tail_whose_word_opens_its_own_clause_is_not_read_as_a_chain_tail():
    # 010:107 「撫以手撫摩之也」 on 「王撫玉」: 撫 is glossed whole by 以手撫摩之; 摩之 is the end of 撫摩, not a gloss
    assert ("撫", "摩之") not in rules_at("KR1d0044_010.txt", 107)


def test_a_chain_tail_between_glosses_of_its_neighbours_is_still_read():
    # 012:65 「楔柱也角柶以角為柶長六寸綴拘也燕安也」: the clause opens with 角柶, the tail 綴 is another word
    assert rules_at("KR1d0044_012.txt", 65).get(("綴", "拘")) == "k:ye:chain-tail:end:short"
