"""Senses in their place: where a gloss comes from in words, terms that share a gloss, and a
curated gloss kept to the contexts it fits."""

from __future__ import annotations

import re
from dataclasses import replace
from pathlib import Path

import pytest
from click.testing import CliRunner

from study.build import Sources, default_glossary_path, load_document, plan_deck
from study.cli import cli
from study.decks.deckspec import load_deckspec
from study.decks.sources import Places
from study.learn.catalog import main_gloss
from study.model import Gloss, Term
from study.terms.curated import load_curated
from study.terms.glossary import build_terms
from study.terms.glosses import extract_glosses
from study.terms.senses import accepted_terms, senses_at, terms_sharing_gloss
from study.text.normalize import normalize
from tests.conftest import ROOT, XIANGSHE

BOOK = Path(__file__).resolve().parents[1] / "decks" / "texts"  # the project's own copy of the book


def test_a_gloss_names_its_juan_from_the_document_title_not_the_file_name():
    doc = load_document(ROOT / "decks" / "texts" / XIANGSHE)
    glosses = extract_glosses(doc)
    first = next(g for g in glosses if g.rite == "乡射礼")
    last = next(g for g in reversed(glosses) if g.rite == "燕礼")
    assert first.juan == "卷四" and last.juan == "卷五"  # the seed's file name holds no 卷
    source = Places([doc]).gloss_source(first)  # the excerpt has no printed pages: no 頁
    assert source.startswith("礼经本义 卷四 · 乡射礼 · ") and source.endswith("曰") and "頁" not in source


def test_every_gloss_of_the_book_gives_its_place_in_words():
    doc = load_document(BOOK / "KR1d0044_007.txt")
    glosses = extract_glosses(doc)
    assert glosses and all(g.juan == "卷七" for g in glosses)
    places = Places([doc])
    assert all(g.speaker for g in glosses)
    assert all(re.fullmatch(r"礼经本义 卷七 · .+ · 頁\d+[ab]第[1-8]行 · .+曰", places.gloss_source(g)) for g in glosses)


def _term(word: str, *glosses: str) -> Term:
    return Term(
        term=word,
        normalized=word,
        pinyin="",
        category="other",
        glosses=tuple(Gloss(gloss=g) for g in glosses),
        example=None,
        frequency=(),
    )


def test_terms_that_share_a_gloss_are_all_accepted():
    terms = [_term("釋", "奠也"), _term("奠", "置"), _term("藉", "薦"), _term("苴", "藉"), _term("置", "奠")]
    assert accepted_terms("奠", terms) == ("釋", "置")
    assert accepted_terms("薦也", terms) == ("藉",)
    assert terms_sharing_gloss(terms)["奠"] == ("釋", "置")
    assert accepted_terms("无此義", terms) == ()


@pytest.mark.parametrize("sep", ["", "也"])
def test_a_gloss_key_ignores_the_final_ye(sep):
    assert accepted_terms("生牲" + sep, [_term("餼", "生牲也")]) == ("餼",)


@pytest.fixture(scope="module")
def seed_terms():
    from study.build import load_terms

    # with the glosses the precision gate withholds: how senses are placed, not what is taught
    return {t.normalized: t for t in load_terms([load_document(ROOT / "decks" / "texts" / XIANGSHE)], withheld=True)}


def _senses(t: Term, text: str, word: str, rite: str) -> list[str]:
    from study.terms.senses import senses_at

    return [g.gloss for g in senses_at(t, text, text.index(word), rite, "elsewhere")]


@pytest.mark.parametrize(
    ("word", "fits", "elsewhere"),
    [
        ("遂", ("袒决遂", "乡射礼"), ("遂适西阶", "乡射礼")),  # the armlet, not 'then'
        ("中", ("释获者执鹿中", "乡射礼"), ("主妇出于房中", "特牲馈食礼")),  # the tally vessel, not 房中
        ("中", ("释获者执鹿中", "乡射礼"), ("立于门中", "乡射礼")),
        ("个", ("挟一个", "乡射礼"), ("俎释三个", "特牲馈食礼")),  # an arrow, not three pieces
    ],
)
def test_a_short_curated_word_is_not_glossed_away_from_its_context(seed_terms, word, fits, elsewhere):
    t = seed_terms[word]
    assert _senses(t, fits[0], word, fits[1])
    assert _senses(t, elsewhere[0], word, elsewhere[1]) == []


def _curated(term: str) -> Term:
    """The project glossary's first gloss of ``term``, scoped as decks/glossary.yaml scopes it."""
    from study.terms.curated import load_curated

    entry = next(c for c in load_curated(ROOT / "decks" / "glossary.yaml").terms if c.term == term)
    g = Gloss(gloss=entry.glosses[0][0], formula="curated", scope=entry.rites, pattern=entry.pattern)
    return Term(term, term, "", "action", (g,))


def test_jiajue_is_not_glossed_on_the_cap_jiajuebian():
    t = _curated("加爵")
    assert _senses(t, "主人加爵", "加爵", "特牲馈食礼")
    assert _senses(t, "加爵弁于首", "加爵", "士冠礼") == []


def test_xi_putting_the_garment_back_on_is_not_glossed_on_dressing_the_dead():
    t = _curated("袭")
    assert _senses(t, "释弓袭反位", "袭", "乡射礼")
    assert _senses(t, "主人踊袭", "袭", "士丧礼上")
    for text in ("陈袭事于房中", "商祝袭祭服", "乃袭三称"):
        assert _senses(t, text, "袭", "士丧礼上") == [], text


@pytest.mark.parametrize(
    ("word", "rite", "fits", "elsewhere"),
    [  # sentences of the book whose cards (卷一, 十一, 十五, 十七) showed the seeds' gloss on another sense
        ("爵", "士冠禮", "賔降取爵于篚", ["爵弁服纁裳純衣緇帶韎韐", "主人𤣥端爵韠立于阼階下"]),
        ("爵", "聘禮", "一人舉爵獻從者行酬", ["使大夫各以其爵朝服致之以侑幣"]),
        ("爵", "巡守禮", "", ["諸侯有功徳則發爵賜服以順陽義"]),
        ("尊", "諸侯遷廟禮", "", ["筵于戸牖間尊于西序下"]),  # the verb: set the vessels out (尊設酒尊也, 005:35)
        ("尊", "巡守禮", "", ["土地墾闢養老尊賢俊傑在位"]),
        ("尊", "大射儀", "", ["不獲卑者與尊者為耦"]),
        ("豆", "士冠禮", "再醮兩豆葵菹蠃醢", []),
        ("豆", "投壺禮", "", ["壺中實小豆焉"]),
        ("祝", "特牲饋食禮", "尸占曰吉敢宿祝許諾", []),
        ("祝", "士冠禮", "", ["左手執前進容乃祝坐如初", "始加祝曰令月吉日", "執項左執前進祝加之如初復位"]),
        ("嘏", "特牲饋食禮", "祭酒啐酒進聽嘏", []),
        ("嘏", "士冠禮", "", ["宜之于嘏永受保之"]),
        ("袒", "奔喪禮", "坐哭盡哀括髮袒降堂東", []),
        ("袒", "出師禮", "", ["將帥結草自縛袒右肩而入"]),
        ("洗", "士冠禮", "夙興設洗直于東榮", []),
        ("洗", "士冠禮", "贊者盥于洗西升立于房中", []),
        ("洗", "祫于太廟禮", "", ["王乃洗肝于鬱鬯而燔之"]),
        ("加爵", "特牲饋食禮", "長兄弟洗觚為加爵", []),
        ("加爵", "出師禮", "", ["其用命者則加爵受賜于祖奠之前"]),
    ],
)
def test_the_teachers_vessels_and_officiant_are_not_glossed_on_other_senses(word, rite, fits, elsewhere):
    """爵 the cup is not the colour of 爵弁/爵韠 nor rank (其爵, 發爵); 尊 not 尊賢, 尊者; 豆 not the
    beans of 投壺禮; 祝 the officiant not 士冠禮's 乃祝 (to bless); 嘏 not 宜之于嘏; 袒 (the left arm)
    not 袒右肩; 洗 the basin not 洗肝; 加爵 not 加爵受賜 (raised in rank)."""
    t = _curated(word)
    assert not fits or _senses(t, fits, word, rite), fits
    for text in elsewhere:
        assert _senses(t, text, word, rite) == [], text


def test_a_one_character_gloss_of_the_commentary_stays_in_its_stage(seed_terms):
    from study.terms.senses import senses_at

    dang = seed_terms["当"]
    garment = next(g for g in dang.glosses if g.gloss == "直心背之衣")
    assert garment not in senses_at(dang, "当东霤", 0, "乡射礼", "乡射礼.other-stage")
    # 当, a word the gloss reader never takes alone, keeps its gloss to the words of its passage
    # (「…韦当」, the leather guard), not 「当东霤」 even in that stage
    assert garment not in senses_at(dang, "当东霤", 0, "乡射礼", garment.stage_id)
    assert garment in senses_at(dang, "袒朱襦韦当", 4, "乡射礼", garment.stage_id)


def test_a_particle_glossed_in_its_sentence_keeps_the_gloss_there():
    """若 = 順 and 則 = 法 are said of 「先妣之嗣若則有常」 (士昏禮, the notes of 親迎); 「若衣若笄」 of
    the same notes is 'or' and gets no gloss, and the term's example is the glossed sentence."""
    from study.build import load_terms
    from study.learn.catalog import main_gloss
    from study.terms.senses import senses_at

    doc = load_document(BOOK / "KR1d0044_002.txt")
    terms = {t.normalized: t for t in load_terms([doc])}
    ruo = terms["若"]
    stage = next(s.id for r in doc.rites for s in r.stages if "若衣若笄" in s.note_text)
    assert [g.gloss for g in senses_at(ruo, "先妣之嗣若則有常", 4, "士昏禮", stage)] == ["順"]
    assert senses_at(ruo, "若衣若笄", 0, "士昏禮", stage) == () == senses_at(ruo, "若衣若笄", 2, "士昏禮", stage)
    assert "若則有常" in ruo.example.text and main_gloss(ruo) == "順"
    assert "若則有常" in terms["则"].example.text and main_gloss(terms["则"]) == "法"


def test_terms_lists_only_curated_terms_that_occur_where_they_apply():
    from study.build import load_terms

    tesheng = next(
        p for p in (ROOT / "decks" / "texts", ROOT / "tests" / "data") if (p / "004_b33f8e7c4f66e3ba.txt").is_file()
    )
    terms = {t.normalized for t in load_terms([load_document(tesheng / "004_b33f8e7c4f66e3ba.txt")])}
    assert "遂" not in terms and "个" not in terms  # curated for the archery rites only
    assert "加爵" in terms  # 特牲's own 加爵


def test_a_quiz_question_shows_the_sense_of_its_example_sentence():
    """純 is 縁邊 in 鄉飲酒禮 (蒲筵緇布純) and 體全 in 少牢饋食禮 (腊一純): the quiz shows the
    gloss that explains the occurrence in the term's example, not the first gloss read."""
    docs = [load_document(BOOK / f) for f in ("KR1d0044_003.txt", "KR1d0044_016.txt")]
    terms = build_terms(docs, load_curated(default_glossary_path()))
    for t in terms:
        ex = t.example
        at = normalize(ex.text).find(t.normalized) if ex is not None else -1
        fits = senses_at(t, ex.text, at, ex.rite, ex.stage_id) if ex is not None and at >= 0 else ()
        if fits:
            assert main_gloss(t) in {g.gloss for g in fits}, t.term
    chun = next(t for t in terms if t.normalized == "纯")
    assert {"縁邊", "體全"} <= {g.gloss for g in chun.glosses} and main_gloss(chun) == "縁邊"
    body = next(g for g in chun.glosses if g.gloss == "體全")
    later = replace(chun.example, text="而鼎腊一純而鼎腊用麋", rite=body.rite, stage_id=body.stage_id)
    assert main_gloss(replace(chun, example=later)) == "體全"  # an example where the later sense applies


def test_a_cloze_hint_is_the_sense_of_that_occurrence():
    """In the deck of 少牢饋食禮, 純 (腊一純) is hinted 體全, never 縁邊 (鄉飲酒禮's 布純)."""
    notes = plan_deck(load_deckspec(ROOT / "decks" / "16-shaolaokuishili.yaml"), Sources())
    hints = [m[1] for n in notes if n.model == "cloze" for m in re.finditer(r"\{\{c\d+::(.*?)\}\}", n.fields[0][1])]
    chun = [h.partition("::")[2] for h in hints if normalize(h.partition("::")[0]) == normalize("純")]
    assert "體全" in chun and "縁邊" not in chun


def test_a_senses_example_is_the_sentence_whose_commentary_glosses_it():
    """卦 is glossed 書卦於木 (the hexagram written on wood) in the commentary of 「卒筮執卦以示命筮者」
    (士喪禮下); its card shows that sentence, not the stage's first 卦 (「…而筮卦者在左」, 卦者 the
    man who writes it down)."""
    from study.build import load_terms
    from study.decks.termsenses import rite_senses

    doc = load_document(BOOK / "KR1d0044_013.txt")
    rite = doc.rites[0]
    senses = rite_senses(rite, doc.file, load_terms([doc]))["卦"]
    written = next(s for s in senses if "書卦於木" in {g.gloss for g in s.glosses})
    assert normalize(written.example.text).startswith(normalize("卒筮執卦以示命筮者"))
    for sense in senses:
        passage = next(p for s in rite.stages for p in s.passages if sense.example.line in p.lines)
        assert {g.line for g in sense.glosses} & set(passage.lines), sense


@pytest.mark.parametrize(
    ("file", "word", "gloss", "shown", "not_shown"),
    [
        # 蔡德晉's 儀可象也 explains 敬爾威儀 of the 祝辭 (001:256), not 如加皮弁之儀 (the procedure)
        ("KR1d0044_001.txt", "仪", "可象", "威儀", "皮弁之儀"),
        # 辟領向外謂之適 (011:116) is the garment's 適 of 負廣出于適寸, not 適子 (the heir)
        ("KR1d0044_011.txt", "适", "辟領向外", "出于適寸", "適子"),
    ],
)
def test_a_teachers_scope_shows_a_commentary_gloss_on_the_use_it_explains(file, word, gloss, shown, not_shown):
    from study.build import load_terms
    from study.decks.termsenses import rite_senses

    doc = load_document(BOOK / file)
    senses = rite_senses(doc.rites[0], doc.file, load_terms([doc]))[word]
    (sense,) = [s for s in senses if gloss in {g.gloss for g in s.glosses}]
    assert shown in sense.example.text and not_shown not in sense.example.text, sense.example.text


def test_a_word_the_teacher_scoped_keeps_each_commentary_sense_apart():
    """中 in 鄉射禮 is the target's centre (中幅侯心, said of 「侯中」) and the tally vessel (盛籌之器, of
    「設中」, 盛算之器 of the 記 (004:278, signed by two readers), and the teacher's two glosses wherever
    the vessel is set, taken or held): two senses, not one card with all five glosses. (The middle,
    間 of 「中等」, was dropped at its line: a one-character gloss covers its stage, and 初射's clozes
    read 「還視侯[間]」; 中等 = 間一等 teaches it.)"""
    from study.build import load_terms
    from study.decks.termsenses import rite_senses
    from study.terms.senses import senses_at

    doc = load_document(BOOK / "KR1d0044_004.txt")
    terms = {t.normalized: t for t in load_terms([doc])}
    senses = rite_senses(doc.rites[0], doc.file, list(terms.values()))["中"]
    groups = [{g.gloss for g in s.glosses} for s in senses]
    assert {"中幅侯心"} in groups and not any("間" in g for g in groups)
    vessel = next(g for g in groups if "盛籌之器" in g)
    assert len(vessel) == 4 and "盛算之器" in vessel and "中幅侯心" not in vessel
    zhong = terms["中"]
    # the vessel's glosses wherever the text handles it, not at the target's centre
    assert {g.gloss for g in senses_at(zhong, "釋獲者執鹿中", 5, "鄉射禮")} >= {"盛筹之器曰中，设于堂下，当西序"}
    assert not {g.formula for g in senses_at(zhong, "還視侯中", 3, "鄉射禮")} & {"curated", "yue"}
    # said of another rite's words, a gloss keeps its own rite, whatever the teacher's where names
    yu = load_document(BOOK / "KR1d0044_014.txt")
    zhong_yu = next(t for t in load_terms([yu]) if t.normalized == "中")
    assert [g.gloss for g in senses_at(zhong_yu, "中月而禫", 0, "士虞禮")] == ["間"]


def test_the_teachers_gloss_for_other_rites_is_not_on_this_rites_card():
    """纯 = 二算为纯 (the teacher's, scoped to the shooting rites' counting) is not a sense of 纯 in
    士冠禮, whose 純 is the edging (口之縁); in 鄉射禮 it stands with the commentary's 雙."""
    from study.build import load_terms
    from study.decks.termsenses import rite_senses

    for file, rite_gloss, present in (("KR1d0044_001.txt", "口之縁", False), ("KR1d0044_004.txt", "雙", True)):
        doc = load_document(BOOK / file)
        (sense,) = [s for s in rite_senses(doc.rites[0], doc.file, load_terms([doc]))["纯"]]
        glosses = {g.gloss for g in sense.glosses}
        assert rite_gloss in glosses and ("二算为纯" in glosses) is present, (file, glosses)


@pytest.mark.parametrize(
    ("file", "word", "gloss"),
    [
        ("KR1d0044_012.txt", "物", "画地为射位曰物"),  # 各以其物: the banner, not the archer's place
        ("KR1d0044_003.txt", "算", "算，筹也"),  # 無算爵: without count, not the tally
        ("KR1d0044_010.txt", "侯", "春飨所射侯也"),  # 覲禮: the lords, not the target
        ("KR1d0044_002.txt", "嗣", "嗣主人之嫡长子将为父后者也"),  # 先妣之嗣: not 特牲's heir
        ("KR1d0044_008.txt", "弟子", "弟子，賔党之少者也"),  # 言使弟子: one's sons and juniors
        ("KR1d0044_015.txt", "弟子", "弟子，賔党之少者也"),  # 兄弟弟子: the kin's juniors
        # 遷尸, 衣尸: the corpse, not the impersonator
        ("KR1d0044_012.txt", "尸", "孝子不见亲之形，心无所系，立尸以象之"),
        ("KR1d0044_001.txt", "嘏", "尸传神意致福"),  # 宜之于嘏: 福, not the 尸's blessing of the host
        ("KR1d0044_012.txt", "众賔", "士即众賔也"),  # 命婦汜拜衆賔: the women who came, not 士
        ("KR1d0044_014.txt", "众賔", "士即众賔也"),  # 衆賔兄弟 at the 祥: not the 士 of 鄉射
        ("KR1d0044_009.txt", "有司", "有司，主人之执事者"),  # 有司展羣幣: the envoy's (賓介之執事者)
    ],
)
def test_the_teachers_gloss_of_the_shooting_rites_stays_there(file, word, gloss):
    """The curated glossary's words of the shooting rites (from the 鄉射禮 excerpt) are scoped to
    them: no card of another rite shows them."""
    from study.build import load_terms
    from study.decks.termsenses import rite_senses

    doc = load_document(BOOK / file)
    terms = load_terms([doc])
    for rite in doc.rites:
        for sense in rite_senses(rite, doc.file, terms).get(normalize(word), ()):
            assert gloss not in {g.gloss for g in sense.glosses}, (rite.name, word)


def test_the_impersonator_is_taught_what_he_is_not_the_note_on_the_blessing():
    """尸 is taught what he is: the book's note on 祝迎尸 (士虞禮, 014:175), 「孝子不见亲之形，心无所系，立尸以象之」
    (the teacher's entry, kept to the rites with an impersonator), beside 蔡德晉's 神象 there —
    not 「尸传神意致福嘏于主人」, the note on 進聽嘏 (嘏's gloss: tests/test_empty_glosses.py);
    士喪禮上's 尸, the corpse, has neither."""
    from study.build import load_terms
    from study.decks.termsenses import rite_senses

    doc = load_document(BOOK / "KR1d0044_014.txt")
    senses = rite_senses(doc.rites[0], doc.file, load_terms([doc]))[normalize("尸")]
    glosses = {g.gloss for s in senses for g in s.glosses}
    assert {"神象", "孝子不见亲之形，心无所系，立尸以象之"} <= glosses
    assert not any("传神意" in g for g in glosses)
    corpse = load_document(BOOK / "KR1d0044_012.txt")
    assert not any(rite_senses(r, corpse.file, load_terms([corpse])).get(normalize("尸")) for r in corpse.rites)


def test_a_rites_card_holds_its_own_senses_not_other_rites_glosses():
    """Built with the whole book's terms (the `all` package), 士冠禮's 景 is 大 (介爾景福), not 士昏禮's
    明衣 (姆加景, the bride's dust cloak), and its 宰 is 家臣之長, not the 上卿執政者 of 大射儀; 大射儀's
    宰 is 上卿執政者 alone (its 此宰謂膳宰掌治官饌者, which 宰 is meant, is dropped at 006:23: the reverse
    card showed 膳～). 士冠禮's 期 (期冠期也, which date: dropped at 001:80 by the fourth reading) does not
    take 士昏禮's 娶妻之日 in its place."""
    from study.build import load_terms
    from study.decks.termsenses import rite_senses

    docs = [load_document(BOOK / f) for f in ("KR1d0044_001.txt", "KR1d0044_002.txt", "KR1d0044_006.txt")]
    terms = load_terms(docs)
    guan = rite_senses(docs[0].rites[0], docs[0].file, terms)
    assert {g.gloss for s in guan["景"] for g in s.glosses} == {"大"}
    assert {g.gloss for s in rite_senses(docs[1].rites[0], docs[1].file, terms)["景"] for g in s.glosses} == {"明衣"}
    assert "娶妻之日" not in {g.gloss for s in guan.get("期", ()) for g in s.glosses}
    assert {g.gloss for s in guan["宰"] for g in s.glosses} == {"家臣之長"}
    she = rite_senses(docs[2].rites[0], docs[2].file, terms)["宰"]
    groups = [{g.gloss for g in s.glosses} for s in she]
    assert groups == [{"上卿執政者"}]


def test_a_two_character_word_glossed_two_ways_in_one_stage_is_two_senses(tmp_path):
    """拜辱 in 鄉飲酒禮's 戒賔介 is glossed as the guest's bow on the host's coming (003:27, 此拜辱即拜迎也)
    and, as the host leaves, his bow seeing him off (003:30, 即拜送也): read without the teacher's drops
    of those two lines they are two senses, each with its own sentence. Both say which bow it is there,
    not what 拜辱 means, and the fourth reading dropped them (decks/glossary.yaml): taught, 拜辱 keeps
    its one meaning, 拜其自屈辱至已門. No two-character word of the book is left glossed rightly two
    ways in one stage, so the mechanism is shown on these two lines."""
    from study.build import load_terms
    from study.decks.termsenses import rite_senses

    doc = load_document(BOOK / "KR1d0044_003.txt")
    shipped = default_glossary_path()
    taught = rite_senses(doc.rites[0], doc.file, load_terms([doc]))["拜辱"]
    assert [{g.gloss for g in s.glosses} for s in taught] == [{"拜其自屈辱至已門"}]
    drops = ('source: "KR1d0044_003.txt:27", gloss: 拜迎', 'source: "KR1d0044_003.txt:30", gloss: 拜送')
    lines = shipped.read_text(encoding="utf-8").splitlines(keepends=True)
    undropped = tmp_path / "glossary.yaml"
    undropped.write_text("".join(x for x in lines if not any(d in x for d in drops)), encoding="utf-8")
    assert len(lines) - len(undropped.read_text(encoding="utf-8").splitlines()) == 2
    senses = rite_senses(doc.rites[0], doc.file, load_terms([doc], undropped))["拜辱"]
    groups = [{g.gloss for g in s.glosses} for s in senses]
    assert any("拜迎" in g for g in groups) and {"拜送"} in groups
    assert len({s.example.text for s in senses if s.example}) == len(senses)


def test_the_teachers_wall_is_not_taught_on_order():
    """序 in 士冠禮 is 「禮儀有序」 (order) and the east wall of 「直東序西面」: the teacher's 序 = the
    wall (kept to 東序, 西序, 序端 …) is taught with 東序 — inside that word of the lexicon, as its
    pattern says — and never on 禮儀有序; in 鄉射禮 it is, with a sentence where 序 is the wall."""
    from study.build import load_terms
    from study.decks.termsenses import rite_senses

    guan = load_document(BOOK / "KR1d0044_001.txt")
    senses = rite_senses(guan.rites[0], guan.file, load_terms([guan]))["序"]
    (wall,) = [s for s in senses if "东西墙谓之序" in {g.gloss for g in s.glosses}]
    assert "東序" in wall.example.text
    assert not any("禮儀有序" in s.example.text for s in senses if s.example)
    she = load_document(BOOK / "KR1d0044_004.txt")
    (wall,) = rite_senses(she.rites[0], she.file, load_terms([she]))["序"]
    assert "东西墙谓之序" in {g.gloss for g in wall.glosses}
    assert re.search("[東西]序|序[端内東西南北下]", wall.example.text)


def _hl(html: str) -> list[str]:
    """The words a card's HTML marks (``<b class="hl">``)."""
    return re.findall(r'<b class="hl">(.*?)</b>', html)


def test_the_teachers_ge_is_two_senses_each_with_its_own_examples():
    """个 in 鄉射禮 and 大射儀: the teacher's 一个，一矢也 (an arrow: 挾一个, 取一个) and 偏侧为个 (the
    target's side-pieces: 左个, 右个, 上个) are two senses, each with a sentence using it in that
    sense; and 士虞禮's commentary 个 = 枚 (俎釋三个) stays in its own rite."""
    from study.build import load_terms
    from study.decks.termsenses import rite_senses

    docs = [load_document(BOOK / f) for f in ("KR1d0044_004.txt", "KR1d0044_006.txt", "KR1d0044_014.txt")]
    terms = load_terms(docs)
    ge = next(t for t in terms if t.normalized == "个")
    for doc in docs[:2]:
        senses = rite_senses(doc.rites[0], doc.file, terms)["个"]
        by_gloss = {g.gloss: s for s in senses for g in s.glosses}
        arrow, side = by_gloss["一个，一矢也。凡奇曰个"], by_gloss["偏侧为个"]
        assert len(senses) == 2 and arrow is not side, doc.file
        assert "偏侧为个" not in {g.gloss for g in arrow.glosses} and "枚" not in by_gloss
        for sense, before in ((arrow, "一二三四五六七八九十"), (side, "左右上下")):
            key = normalize(sense.example.text)
            assert key[sense.at] == "个" and key[sense.at - 1] in before, (doc.file, sense.example.text)
        # the sense of each occurrence: the arrow at 挾一个, the side-piece at 適右个
        assert [g.gloss for g in senses_at(ge, "搢三挾一个", 4, doc.rites[0].name)] == ["一个，一矢也。凡奇曰个"]
        assert [g.gloss for g in senses_at(ge, "適右个薦俎", 2, doc.rites[0].name)] == ["偏侧为个"]
    (yu,) = rite_senses(docs[2].rites[0], docs[2].file, terms)["个"]
    assert [g.gloss for g in yu.glosses] == ["枚"] and "釋三" in yu.example.text


def test_a_ge_card_marks_the_ge_of_its_own_sense():
    """The 鄉射禮 deck has a note per sense of 个; each front marks one 个, the one of its sense."""
    notes = plan_deck(load_deckspec(ROOT / "decks" / "xiangshe.yaml"), Sources())
    ge = [n for n in notes if n.model == "term" and n.field("Term") == "个"]
    shown = {re.findall(r'class="gloss">(.*?)</span>', n.field("Glosses"))[0]: n.field("Sense") for n in ge}
    assert set(shown) == {"一个，一矢也。凡奇曰个", "偏侧为个"}
    for gloss, before in (("一个，一矢也。凡奇曰个", "一二三四五六七八九十"), ("偏侧为个", "左右上下")):
        assert _hl(shown[gloss]) == ["个"]
        assert re.search(f'[{before}]<b class="hl">个</b>', shown[gloss]), shown[gloss]


def test_a_sense_card_marks_only_the_occurrence_its_gloss_explains(tmp_path):
    """少牢饋食禮 line 81–84: 「饔人摡鼎匕俎…廩人摡甑甗匕與敦」 holds 匕 twice, the spoon of the
    tripod and the rice ladle; the commentary's 匕 = 所以出飯 is said of 甑甗匕與敦 (甑所以炊甗所以盛米
    匕所以出飯敦所以盛飯). Its card, imported into Anki, marks that 匕 only; no cloze hints the
    tripod's spoon as 所以出飯."""
    from anki.collection import Collection, ImportAnkiPackageRequest

    from study.build import load_terms
    from study.decks.apkg import NAMES

    doc = load_document(BOOK / "KR1d0044_016.txt")
    bi = next(t for t in load_terms([doc]) if t.normalized == "匕")
    text = "饔人摡鼎匕俎于饔爨饔爨在門東南北上廩人摡甑甗匕與敦于廩爨"
    rite = doc.rites[0].name
    assert senses_at(bi, text, text.index("鼎匕") + 1, rite) == ()
    assert [g.gloss for g in senses_at(bi, text, text.index("甗匕") + 1, rite)] == ["所以出飯"]
    spec = ROOT / "decks" / "16-shaolaokuishili.yaml"
    notes = plan_deck(load_deckspec(spec), Sources())
    hints = [
        m[1] for n in notes if n.model == "cloze" for m in re.finditer(r"\{\{c\d+::鼎(匕)::([^}]*)\}\}", n.fields[0][1])
    ]
    assert "所以出飯" not in hints
    out = tmp_path / "shaolao.apkg"
    result = CliRunner().invoke(cli, ["build", str(spec), "-o", str(out)], catch_exceptions=False)
    assert result.exit_code == 0, result.output
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        col.import_anki_package(ImportAnkiPackageRequest(package_path=str(out)))
        terms = col.find_notes(f'"note:{NAMES["term"]}"')
        (nid,) = [n for n in terms if col.get_note(n)["Term"] == "匕"]
        for card in col.get_note(nid).cards():
            html = card.answer()
            marked = re.findall(r'(..)<b class="hl">(匕)</b>', html)
            assert marked == [("甑甗", "匕")], (card.ord, marked)
    finally:
        col.close()


def test_a_sense_marks_every_use_it_explains_in_its_sentence():
    """士喪禮上's 溢 (一手所握, 滿手) is kept to 「朝一溢米夕」 and 「夕一溢米不」, which share 夕: both
    溢 of 「朝一溢米夕一溢米不食菜果」 are that sense, and its card marks both."""
    from study.build import load_terms
    from study.decks.termsenses import rite_senses

    doc = load_document(BOOK / "KR1d0044_012.txt")
    (sense,) = rite_senses(doc.rites[0], doc.file, load_terms([doc]))["溢"]
    key = normalize(sense.example.text)
    assert len(sense.marks) == key.count("溢") == 2 and all(key[m] == "溢" for m in sense.marks)


def test_open_is_not_hinted_where_bi_means_avoid():
    """士喪禮上's 朝夕哭 has 辟 twice: 主人即位辟門 (開, 012:807 辟開也) and 朝夕哭不辟子夘 (避: the
    wailing keeps no taboo day). The teacher's scope keeps 開 to 辟門, 不辟廟門 and 為三不辟."""
    from study.build import load_terms
    from study.terms.senses import senses_at

    doc = load_document(BOOK / "KR1d0044_012.txt")
    bi = next(t for t in load_terms([doc]) if t.normalized == "辟")
    assert not senses_at(bi, "朝夕哭不辟子夘", 4, "士喪禮上")
    opened = {g.gloss for g in senses_at(bi, "主人即位辟門婦人拊心不哭", 4, "士喪禮上")}
    assert opened & {"開", "辟，開也"}


def test_the_courtyard_is_not_hinted_inside_the_gifts_set_out_there():
    """庭 = 宫中也 (《说文》) is the courtyard (三分庭一在南), not the 庭 of 庭實, the gifts set out in
    it: 聘禮's 「庭實設四皮」 was blanked 「[宫中也]實設四皮」. 黍 = 禾属而黏者也 is the grain, not the
    millet wine of 醙黍清."""
    from study.build import load_terms

    pin = {t.normalized: t for t in load_terms([load_document(BOOK / "KR1d0044_009.txt")])}
    assert not senses_at(pin["庭"], "擯者請命庭實設四皮", 4, "聘禮")
    assert not senses_at(pin["黍"], "南陳醙黍清皆兩壺", 3, "聘禮")
    assert senses_at(pin["黍"], "八簋繼之黍其南稷", 4, "聘禮")
    sang = {t.normalized: t for t in load_terms([load_document(BOOK / "KR1d0044_012.txt")])}
    assert senses_at(sang["庭"], "甸人置重于中庭三分庭一在南", 9, "士喪禮上")


def test_the_zhou_officiant_is_not_hinted_inside_the_shang_or_xia_officiant():
    """祝 is not hinted inside 商祝 or 夏祝: each is glossed with its own sense (商祝 = 祝習商禮者, 290)
    — 士喪禮上's clozes blanked 「商[習周禮者]掩瑱設幎目」 while 祝 = 習周禮者 (374) was taught; the
    fourth reading dropped that one (which 祝 is meant, the 周祝, not what 祝 means)."""
    from study.build import load_terms

    sang = {t.normalized: t for t in load_terms([load_document(BOOK / "KR1d0044_012.txt")])}
    zhu = sang.get("祝")
    assert zhu is None or not senses_at(zhu, "商祝掩瑱設幎目乃屨", 1, "士喪禮上")
    assert zhu is None or not senses_at(zhu, "夏祝粥餘飯用二鬲", 1, "士喪禮上")
    assert "祝習商禮者" in {g.gloss for g in senses_at(sang["商祝"], "商祝襲祭服褖衣次", 0, "士喪禮上")}


def test_burning_is_not_hinted_on_the_roast_meat():
    """燔 = 爇也 (《说文》, to burn) is said of 覲禮's 祭天燔柴; the 燔 of the offering rites is the roast
    meat carried after the cup (賔以燔從, 羞燔俎; 鄭注 特牲 燔, 炙肉也): 士虞禮's clozes read
    「賔以[爇也]從如初」."""
    from study.build import load_terms

    yu = {t.normalized: t for t in load_terms([load_document(BOOK / "KR1d0044_014.txt")])}.get("燔")
    assert yu is None or not senses_at(yu, "賔以燔從如初尸祭燔", 2, "士虞禮")
    assert yu is None or not senses_at(yu, "羞燔俎在内西塾上", 1, "士虞禮")
    jin = next(t for t in load_terms([load_document(BOOK / "KR1d0044_010.txt")]) if t.normalized == "燔")
    assert "爇也" in {g.gloss for g in senses_at(jin, "祭天燔柴", 2, "覲禮")}
