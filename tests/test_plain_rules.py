"""Rules of the unpunctuated book's gloss reader (study/terms/plain.py and the modules it calls),
each shown on a real line of the book that it alone reads: without the rule the line's glosses
are not extracted."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import rules_at

BOOK = Path(__file__).resolve().parents[1] / "decks" / "texts"


def test_a_chain_of_things_glossed_by_what_they_are_used_for_is_read_thing_by_thing():
    # 016:84 「…廩人掌炊黍稷者甑所以炊甗所以盛米匕所以出飯敦所以盛飯此四者皆黍稷之器…」
    found = rules_at("KR1d0044_016.txt", 84)
    for term, gloss in (("甑", "所以炊"), ("甗", "所以盛米"), ("匕", "所以出飯"), ("敦", "所以盛飯")):
        assert found.get((term, gloss), "").startswith("k:qi:walk-tool:"), (term, found)


def test_an_act_with_its_thing_is_not_glossed_by_what_it_is_for():
    # 009:153 「…張旜所以表其至也」: why the banner is raised, not what 張旜 means
    assert not [k for k in rules_at("KR1d0044_009.txt", 153) if k[0] == "張旜"]


def test_a_bare_definiens_runs_up_to_the_next_word_glossed_by_wei():
    # 002:28 「…𤣥端禮服至謂至于大門外…」: 𤣥端 is glossed 禮服, then 至 by 謂
    assert rules_at("KR1d0044_002.txt", 28).get(("𤣥端", "禮服")) == "k:ye:walk-bare-before:next:short"


def test_an_act_before_the_next_word_glossed_by_wei_is_not_glossed_by_what_follows_it():
    # 003:140 「賔降西階往洗爵即主人所獻之爵也」: where the guest goes, narration
    assert not [k for k in rules_at("KR1d0044_003.txt", 140) if k[0] == "賔降"]


def test_a_description_closed_by_zhe_may_run_past_eight_characters():
    # 003:18 「先生鄉中公卿大夫致仕者謀商度也」
    rule = rules_at("KR1d0044_003.txt", 18).get(("先生", "鄉中公卿大夫致仕者"))
    assert rule == "k:ye:walk-bare-zhelong:zhe:long"


def test_a_particle_of_the_text_glossed_by_one_character_in_a_clause_of_its_own_is_read():
    # 008:157 「…乃食也將進也進食者宰夫也」: 將, mostly a particle, here means 進
    assert rules_at("KR1d0044_008.txt", 157).get(("將", "進")) == "k:ye:walk-bare-pair:end:short"


def test_a_title_spelt_out_up_to_the_class_it_names_is_read_without_its_closing_ye():
    # 006:242 「僕人正僕人之長師具佐士其屬也」: the definiens ends at 之長, the next word is 師
    assert rules_at("KR1d0044_006.txt", 242).get(("僕人正", "僕人之長")) == "k:ye:walk-bare-spelt:zhe:mid"


def test_a_word_naming_who_does_something_is_glossed_by_who_that_is():
    # 008:186 「…宅者未仕而家居者也」: 宅者, those living at home not yet in office
    assert rules_at("KR1d0044_008.txt", 186).get(("宅者", "未仕而家居者")) == "k:ye:walk-bare-doer:end:mid"


def test_a_definiens_listing_persons_runs_through_its_conjunction():
    # 006:240 「工六人謂太師少師與上工四人也」: 少師與上工 goes on with the list, no anchor there
    found = rules_at("KR1d0044_006.txt", 240)
    assert found.get(("工六人", "太師少師與上工四人")) == "k:wei:walk-wei:end:long"
    assert ("工六人", "太師") not in found


def test_a_definiens_still_ends_at_the_next_word_of_the_text_outside_a_list():
    # 002:175 「…髀尾骨不升者近竅賤也」: 不升 opens a gloss of its own
    assert rules_at("KR1d0044_002.txt", 175).get(("髀", "尾骨")) == "k:ye:walk-bare:anchor:short"
