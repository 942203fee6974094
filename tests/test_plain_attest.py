"""Clause-end glosses read on the book's own evidence (study/terms/plainattest.py, tail-attested;
study/terms/bookpairs.py): 「…X Y也」 closing a clause whose start is not X, read only where the book
glosses the same pair confidently elsewhere — on real lines, and the near shapes it refuses."""

from __future__ import annotations

from study.build import load_document
from study.terms.bookpairs import pair_key
from study.terms.glosses import _contexts, book_evidence
from study.terms.plain import read_plain
from tests.conftest import TEXTS, book_glosses, rules_at

RULE = "k:ye:tail-attested:end:short"


def test_a_pair_the_book_glosses_at_a_clause_start_is_read_where_it_closes_another_clause():
    # 014:19 「…廟謂殯宫爨竈也」 on 「側亨于廟門外之右」…; 卷二 opens a clause with it: 「爨竈也在爨欲其熱也」
    assert pair_key("爨", "竈也") in book_evidence()
    assert rules_at("KR1d0044_014.txt", 19).get(("爨", "竈")) == RULE
    # 016:305 「尻尾骨屬連也」 on 「腊兩髀屬于尻」
    assert rules_at("KR1d0044_016.txt", 305).get(("屬", "連")) == RULE


def test_the_same_clause_is_read_or_not_by_the_evidence_alone():
    # 009:20 「…故宰命司馬戒之逆迎也」 on 「宰命司馬戒衆介衆介皆逆命不辭」: 逆，迎也 is read when the book
    # gives the pair, not without it (the book itself never opens a clause with 逆迎也)
    doc = load_document(TEXTS / "KR1d0044_009.txt")
    ctx, seg = next((c, s) for c, s in _contexts(doc) if "戒之逆迎也" in s.text)
    with_pair = {(f.term, f.gloss): f.path for f in read_plain(seg.text, ctx, {pair_key("逆", "迎")})}
    assert with_pair.get(("逆", "迎")) == "tail-attested"
    assert ("逆", "迎") not in {(f.term, f.gloss) for f in read_plain(seg.text, ctx)}
    assert pair_key("逆", "迎") not in book_evidence()


def test_a_clause_end_whose_pair_the_book_never_glosses_is_not_read():
    # 003:135 「…故自東壁出由西階升堂也」: 升 → 堂 has the shape, but no rule reads 升，堂也 anywhere
    assert pair_key("升", "堂") not in book_evidence()
    assert not [g for g in book_glosses("KR1d0044_003.txt") if g.line == 135 and "tail-attested" in g.rule]


def test_a_word_just_said_whose_definiens_holds_it_is_not_read():
    # 004:629 「…左个侯西偏中侯中間也」: 中 is 侯中間 (the target's middle); 中，間也 is a gloss elsewhere
    assert pair_key("中", "間") in book_evidence()
    assert ("中", "間") not in rules_at("KR1d0044_004.txt", 629)


def test_a_pair_whose_headword_cannot_be_a_word_is_not_read_on_the_evidence():
    # 002:105 「言事已畢不敢復溷主人将行也」: 将，行也 is read as a particle elsewhere (「将進也」 shape),
    # but 将 alone is no headword of a clause-end gloss (a card would reach every 将 of the stage)
    assert pair_key("将", "行") in book_evidence()
    assert ("将", "行") not in rules_at("KR1d0044_002.txt", 105)


def test_the_evidence_comes_from_another_rule_somewhere_else_in_the_book():
    # 013:274 「…死者亦以韋為之韣弓衣也」 is read on 010:71, where 韣弓衣也 opens a clause (walk-bare)
    assert rules_at("KR1d0044_013.txt", 274).get(("韣", "弓衣")) == RULE
    assert rules_at("KR1d0044_010.txt", 71).get(("韣", "弓衣")) == "k:ye:walk-bare:end:short"


def test_a_definiens_that_ran_on_into_the_tail_ends_where_the_tail_begins():
    # 014:19 「廟謂殯宫爨竈也」: 廟 = 殯宫 (the walk read 殯宫爨竈); 013:550 「虞喪祭名虞安也」: 虞 = 喪祭名
    found = rules_at("KR1d0044_014.txt", 19)
    assert found.get(("廟", "殯宫")) == "k:wei:tail-cut:attested:short"
    assert ("廟", "殯宫爨竈") not in found
    found = rules_at("KR1d0044_013.txt", 550)
    assert found.get(("虞", "喪祭名")) == "k:ye:tail-cut:attested:mid" and ("虞", "喪祭名虞安") not in found


def test_a_gloss_of_the_clause_that_stops_before_the_tail_is_not_cut():
    # 016:305 「祭俎取膚以祭也」 closes its own clause before 「尻尾骨屬連也」; 017:438 「須待也」 likewise
    assert rules_at("KR1d0044_016.txt", 305).get(("祭俎", "取膚以祭")) == "k:ye:walk-bare:end:mid"
    assert rules_at("KR1d0044_017.txt", 438).get(("須", "待")) == "k:ye:walk-bare:end:short"
