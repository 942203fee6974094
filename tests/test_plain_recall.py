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


def test_a_verb_with_its_object_zhi_glossed_by_wei_is_read():
    # 004:742 「釋之謂解去之也」 on 「脫侯之左下綱而釋之」; 009:314 「内攝之謂反攝之不見毛也」
    assert rules_at("KR1d0044_004.txt", 742).get(("釋之", "解去之")) == "k:wei:wei-zhi:end:mid"
    assert rules_at("KR1d0044_009.txt", 314).get(("内攝之", "反攝之不見毛")) == "k:wei:wei-zhi:end:mid"


def test_a_zhi_wei_gloss_ends_before_the_saying_it_quotes():
    # 008:175 「先見之謂先拜見之禮所謂主人敬客則先拜客也」: 所謂… is a saying, not the gloss
    found = rules_at("KR1d0044_008.txt", 175)
    assert found.get(("先見之", "先拜見之禮")) == "k:wei:wei-zhi:end:mid"
    assert not [g for (t, g) in found if t == "先見之" and "所謂" in g]


def test_a_zhi_wei_clause_that_narrates_or_quotes_a_clause_of_the_text_is_not_read():
    # 013:514 賈公彦曰「郤之謂折陳時美面向上今美面向下也」: then and now, the act narrated
    assert not [g for (t, g) in rules_at("KR1d0044_013.txt", 514) if t == "郤之"]
    # 006:350 「卒射右挾之謂矢發盡左手執弓以右手挾弦也」: a clause of the text, not a word
    assert not [g for (t, g) in rules_at("KR1d0044_006.txt", 350) if t == "卒射右挾之"]


def test_a_definiens_that_ran_on_into_the_next_word_and_its_gloss_is_cut_there():
    # 008:181 「執玉執圭璧以行禮舒徐也」 on 「執玉者則唯舒武舉前曳踵」: 舒 stands three characters after 執玉
    found = rules_at("KR1d0044_008.txt", 181)
    assert found.get(("執玉", "執圭璧以行禮")) == "k:ye:run-on-cut:cut:mid"
    assert found.get(("舒", "徐")) == "k:ye:run-on:end:short"
    assert ("執玉", "執圭璧以行禮舒徐") not in found
    # 015:158 「纚以韜髪笄簪也」 on 「…纚笄…」
    assert rules_at("KR1d0044_015.txt", 158).get(("笄", "簪")) == "k:ye:run-on:end:short"


def test_a_word_the_definiens_takes_as_its_object_is_not_cut_off_as_a_gloss():
    # 004:176 張炅生曰「執言手入越淺也挎言手入越深也」: the hand goes into the 越 shallowly; 越 is not 淺
    found = rules_at("KR1d0044_004.txt", 176)
    assert ("越", "淺") not in found and ("執", "言手入") not in found


def test_a_tail_the_book_glosses_elsewhere_keeps_its_own_reading():
    # 014:19 「廟謂殯宫爨竈也」: 爨，竈也 opens a clause in 卷二, so the tail is read on the book's evidence first
    found = rules_at("KR1d0044_014.txt", 19)
    assert found.get(("爨", "竈")) == "k:ye:tail-attested:end:short"
    assert found.get(("廟", "殯宫")) == "k:wei:tail-cut:attested:short"


def test_a_definiens_that_runs_on_into_a_reason_is_cut_before_it():
    # 016:130 「南柄柄向南便執也」: 便執 is why the handle points south; 002:302 「邇移之使近人以便食也」
    assert rules_at("KR1d0044_016.txt", 130).get(("南柄", "柄向南")) == "k:ye:reason-cut:cut:mid"
    assert rules_at("KR1d0044_002.txt", 302).get(("邇", "移之使近人")) == "k:ye:reason-cut:cut:mid"
    # 012:185 「明衣浴竟所著親身之衣取明潔之義也」: 取明潔之義 is why it is called 明衣
    assert rules_at("KR1d0044_012.txt", 185).get(("明衣", "浴竟所著親身之衣")) == "k:ye:reason-cut:cut:long"


def test_a_definiens_whose_part_before_the_reason_is_no_gloss_is_not_cut():
    # 003:173 「席南上升由下降由上由便也」: what is left (南上升由下降由上由) says nothing; it stays as the walk read it
    found = rules_at("KR1d0044_003.txt", 173)
    assert not [r for r in found.values() if "reason-cut" in r]
