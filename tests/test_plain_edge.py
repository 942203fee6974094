"""The narrow readings of study/terms/plainedge.py, each on a real line of the book it alone reads,
and a near shape on another line that it must refuse."""

from __future__ import annotations

from pathlib import Path

from tests.conftest import rules_at

BOOK = Path(__file__).resolve().parents[1] / "decks" / "texts"


def test_a_phrase_of_the_text_opening_with_jiang_is_glossed_by_wei():
    # 008:35 「○髙紫超曰將走見謂將趨而出謁也」
    assert rules_at("KR1d0044_008.txt", 35).get(("將走見", "將趨而出謁")) == "k:wei:wei-edge:end:mid"


def test_a_doer_glossed_by_wei_is_named_by_who():
    # 006:419 「釋獲者謂太史也」
    assert rules_at("KR1d0044_006.txt", 419).get(("釋獲者", "太史")) == "k:wei:wei-edge:end:short"


def test_a_doer_glossed_by_wei_with_a_description_of_a_kinship_is_not_read():
    # 012:104 「親者謂斬齊大功之親兼男女言之也」: runs on into what the word covers, no who
    assert not [k for k, rule in rules_at("KR1d0044_012.txt", 104).items() if "wei-edge" in rule]


def test_a_phrase_of_the_text_spelt_out_with_characters_put_in_is_read():
    # 006:150 「以命升以君命升之也」
    assert rules_at("KR1d0044_006.txt", 150).get(("以命升", "以君命升之")) == "k:ye:spelt-in:end:mid"


def test_a_phrase_spelt_out_into_what_comes_next_is_not_read():
    # 012:838 「適饌適新饌将復奠也」: 將 tells what follows, a purpose
    assert not [k for k, rule in rules_at("KR1d0044_012.txt", 838).items() if "spelt-in" in rule]


def test_what_a_word_is_called_for_by_gu_yue_is_its_gloss():
    # 008:31 「…非徒為辭讓之虚文也再請之故曰固」
    assert rules_at("KR1d0044_008.txt", 31).get(("固", "再請之")) == "k:yue:yue-gu:mid"


def test_a_judgement_before_gu_yue_is_not_a_gloss():
    # 002:141 「…納徵於六禮為盛故曰重禮…」: why the rite is called weighty, not what it is
    assert not [k for k in rules_at("KR1d0044_002.txt", 141) if k[0] == "重禮"]


def test_a_manner_glossed_by_how_it_looks_is_read():
    # 008:108 「…容容貌也彌甚也蹙恭敬不寧之貌」
    assert rules_at("KR1d0044_008.txt", 108).get(("蹙", "恭敬不寧之貌")) == "k:ye:mao:mid"


def test_a_manner_the_commentary_then_rejects_is_not_read():
    # 002:381 「疑者正立自定之貌非也」: the reading of 疑 quoted to be refuted
    assert not [k for k, rule in rules_at("KR1d0044_002.txt", 381).items() if "mao" in rule]


def test_a_word_glossed_and_then_identified_by_ji_is_read_both_ways():
    # 006:50 「…建鼓以木貫鼓腹植立即楹鼓也」
    found = rules_at("KR1d0044_006.txt", 50)
    assert found.get(("建鼓", "以木貫鼓腹植立")) == "k:ye:ji-tail-head:end:long"
    assert found.get(("建鼓", "楹鼓")) == "k:ji:ji-tail:end:short"


def test_characters_said_interchangeable_are_not_a_meaning():
    # 006:55 「頌誦通即歌也」: 歌 is read, 誦通 is not
    found = rules_at("KR1d0044_006.txt", 55)
    assert found.get(("頌", "歌")) == "k:ji:ji-tail:end:short"
    assert ("頌", "誦通") not in found


def test_ji_meaning_then_after_an_act_is_not_read():
    # 007:27 「戒不速賓聞戒即至不再召也」: 即 'at once', the guests come when told
    assert not [k for k, rule in rules_at("KR1d0044_007.txt", 27).items() if "ji-tail" in rule]


def test_a_thing_named_by_what_it_holds_closes_at_zhi_qi():
    # 001:46 「…筴蓍䇿也韇藏筴之器上韇韇蓋也…」: no 也 after 之器, the next word 上韇 follows
    assert rules_at("KR1d0044_001.txt", 46).get(("韇", "藏筴之器")) == "k:qi:zhiqi:mid"


def test_zhi_qi_inside_a_longer_description_is_not_read():
    # 015:122 「棜禁承酒尊之器其形似箱者…」: the walk reads the clause (run on to 者); zhiqi adds no second cut
    assert not [k for k, rule in rules_at("KR1d0044_015.txt", 122).items() if "zhiqi" in rule]


def test_things_all_called_by_one_word_are_its_gloss():
    # 009:129 「…米禾薪芻皆謂之積積唯芻禾則無薪與米也…」
    assert rules_at("KR1d0044_009.txt", 129).get(("積", "米禾薪芻")) == "k:weizhi:weizhi-jie:mid"


def test_all_called_a_word_that_runs_on_in_the_text_is_not_read():
    # 017:80 「…或頻得三或取足三皆謂之三馬既立則…」: 三馬既立 goes on in the text, the word is not known
    assert not [k for k, rule in rules_at("KR1d0044_017.txt", 80).items() if "weizhi-jie" in rule]
