"""Readings in context and tone-exact typed pinyin."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from study.build import load_document
from study.decks.sources import Places
from study.learn.grading import typed_matches
from study.model import Gloss
from study.terms.reading import ReadingTableError, parse_table, reading_in, readings_in, table
from study.terms.readinggold import read_right, reading_rows
from study.terms.senses import masked_gloss
from study.text.normalize import normalize
from study.yamlsrc import load_yaml
from tests.conftest import DATA

TARGET = 0.99  # issue 11
# The first list (卷一–十七). Its rows of 卷九–十七 were held out — scored as a total only — until
# 2026-12-01, when they read 198/201 = 0.985; they were then opened row by row (a fresh held-out list,
# tests/data/gold/heldout/readings_heldout2.tsv, was written blind first) and two of the three
# failures fixed in the table (積 of 積唯芻禾 zì, 飲 of 勝飲不勝者 yìn). The third is left: the row's
# context 「行稷四行」 starts at the word and so leaves out the 二 that makes it a row (皆二行: háng),
# which the table reads in the sentence (粱稻皆二行稷四行 → háng).
LEFT = {("行", "行稷四行")}


def _rows():
    return reading_rows(DATA / "gold" / "readings.tsv")


def _wrong(rows) -> set[tuple[str, str]]:
    return {(r["word"], r["context"]) for r in rows if not read_right([r])}


def test_the_hand_checked_list_is_large_and_mostly_polyphones():
    rows = _rows()
    assert len(rows) >= 150 and sum(r["polyphone"] == "yes" for r in rows) >= 80
    assert all(r["reference"] for r in rows)


def test_readings_in_context_read_the_first_list_but_the_one_row_left():
    assert _wrong(_rows()) == LEFT
    assert reading_in("行", "粱稻皆二行稷四行") == "háng"


def test_every_rule_of_the_table_names_its_reference():
    for char, entry in table().items():
        assert entry.reading is None or entry.ref, char
        assert all(rule.ref for rule in entry.rules), char


def test_a_malformed_table_is_reported_at_its_line():
    bad = {
        "相:\n  rules:\n    - {read: xiang4, in: [相者], ref: x}\n": "3",
        "相:\n  rules:\n    - {read: xiàng, in: [者], ref: x}\n": "3",
        "相:\n  read: xiàng\n": "1",
        "相:\n  rules:\n    - {read: xiàng, in: [相相], ref: x}\n": "3",
        "相:\n  rules:\n    - {read: xiàng, in: [相者], ref: x, when: y}\n": "3",
        "乗: {read: shèng, ref: x}\n乘: {read: chéng, ref: x}\n": "2",  # one character as normalised
    }
    for text, line in bad.items():
        with pytest.raises(ReadingTableError, match=rf"^readings.yaml:{line}"):
            parse_table(load_yaml(text, "readings.yaml", ReadingTableError))


def test_the_books_own_yin_notes_agree_with_the_table():
    """蔡德晋 gives a few readings himself (干音豻, 燅音尋): the classic is read that way."""
    assert reading_in("干", "大射之侯參七十干五十") == "àn"
    assert reading_in("燅", "乃燅尸俎") == "xún"


def test_a_second_reading_the_references_allow_is_accepted_not_shown():
    assert readings_in("挾", "搢三挾一个") == ("xié", "jiā")
    assert reading_in("挾", "搢三挾一个") == "xié"
    assert readings_in("酢", "東南面酢主人") == ("zuò",)
    assert readings_in("會", "祝命佐食啓會") == ("kuài", "huì")
    assert readings_in("散", "序進酌散交于楹") == ("sǎn", "sàn")
    assert readings_in("被錫", "主婦被錫衣侈袂") == ("bì tì", "bì xī", "bì cì", "pī tì", "pī xī", "pī cì")  # 蔡 錫賜也
    assert readings_in("佐食", "祝命佐食") == ("zuǒ sì", "zuǒ shí")


@pytest.mark.parametrize(
    ("word", "context", "reading"),
    [
        ("還", "興右還北面少立", "xuán"),
        ("還", "皮弁還玉于館", "huán"),
        ("相", "主人一相出迎", "xiàng"),
        ("樂", "大師告于樂正", "yuè"),
        ("與", "賔介不與鄉樂", "yù"),
        ("齊衰", "疏衰裳齊衰", "zī cuī"),
        ("酢", "東南面酢主人", "zuò"),
        ("有", "女子十有五年許嫁", "yòu"),
        ("適子", "大夫之適子為妻", "dí zǐ"),
        ("長", "緇纚廣終幅長六尺", "cháng"),
        ("樂", "請以樂樂于賔", "yuè"),
        ("為", "為人後者為其昆弟", "wéi"),
        ("一个", "搢三挾一个", "yī gè"),
        ("子", "還授弟子", "zǐ"),
        ("越", "皆左何瑟後首挎越内弦", "huó"),
        ("和", "三笙一和而成聲", "hè"),
        ("勺", "遂合鄉樂若舞則勺", "zhuó"),
        ("共", "某不敏恐不能共事以病吾子", "gōng"),
        ("阿", "賔升西階當阿東面致命", "ē"),
        ("湑", "再醮曰㫖酒既湑嘉薦伊脯", "xǔ"),
        ("冠", "興降西階一等執冠者升一等", "guān"),
        ("長", "西階上獻衆賔衆賔之長升拜受者三人", "zhǎng"),
        ("正", "鄉射張采侯二正", "zhēng"),
        ("純", "蒲筵緇布純尊綌冪", "zhǔn"),  # the mat's edging (純縁邊也, 003:46), not 純衣
        ("純", "女次純衣纁袡立于房中", "chún"),
    ],
)
def test_polyphones_take_their_classical_reading_in_context(word, context, reading):
    assert reading_in(word, context) == reading


@pytest.mark.parametrize(
    ("word", "context", "reading"),
    [  # clauses of 卷九–十七 read with the references the table cites (not rows of the gold list)
        ("占", "與主人占之曰從", "zhān"),
        ("重", "甸人置重于中庭", "chóng"),
        ("重", "四亞之重賜無數", "chóng"),  # 蔡德晉 重賜加賜也
        ("從父昆弟", "為夫之從父昆弟之妻", "zòng fù kūn dì"),
        ("朝", "卜日既朝哭皆復外位", "zhāo"),
        ("朝服", "主人朝服即位", "cháo fú"),
        ("角", "主人洗角升酌酳尸", "jué"),
        ("洗", "夙興設洗直于東榮", "xiǎn"),
        ("洗", "執觶興洗北面坐奠", "xǐ"),
        ("洗", "洗當東榮南北以堂深", "xiǎn"),  # 諸侯遷廟禮: its term example opens at 洗 (設 cut off)
        ("勞", "下大夫勞者遂以賓入", "lào"),
        ("含", "君使某含", "hàn"),
        ("括髮", "哭盡哀括髮袒", "kuò fà"),
        ("稱", "乃襲三稱", "chèn"),
        ("免", "衆主人免于房", "wèn"),
        ("免", "主人北面免絰命筮", "miǎn"),
        ("女", "承致多福無疆于女孝孫", "rǔ"),
        ("予", "予一人將受之", "yú"),
        ("將", "天子命將出征", "jiàng"),
        ("將", "固辭不得命將走見", "jiāng"),
        ("行", "粱稻皆二行稷四行", "háng"),
        ("舍", "齊車每舍奠焉", "shè"),
        ("舍", "舍奠于學", "shì"),
        ("長", "腸三胃三長皆及俎拒", "cháng"),
        ("鬠", "鬠用組", "kuò"),
        ("會", "祝命佐食啓會佐食許諾", "kuài"),
        ("會", "賓卒食會飯三飲", "huì"),
        ("乘車", "陳明器于乘車之西", "shèng chē"),
        ("嘏", "祭酒啐酒進聽嘏", "gǔ"),
        ("哨壺", "某有枉矢哨壺請以樂賓", "qiào hú"),
        ("焞", "楚焞置于燋在龜東", "tūn"),
        ("勒", "誓將帥勒士卒陳", "lè"),
        ("賈", "命市納賈察民之所好惡", "jià"),
        ("賈", "賈人西面坐啟櫝", "gǔ"),
        # second review: every polyphone of the classic listed with its contexts (卷九–十七)
        ("斗", "聘日致饔十斗曰斛十六斗曰籔", "dǒu"),
        ("幾", "受行出遂見宰問幾月之資", "jǐ"),
        ("拚", "不腆先君之祧既拚以俟矣", "fèn"),
        ("朌", "禮假器于大夫朌肉及廋車", "bān"),
        ("剡", "圭與繅皆九寸剡上寸半厚半寸", "yǎn"),
        ("適", "裳内衰外負廣出于適寸適博四寸", "dí"),
        ("為", "為祖後者為曾祖後者為高祖後者", "wéi"),
        ("為", "大夫適子為庶昆弟", "wèi"),
        ("齊", "幅三袧若齊裳内衰外", "zī"),
        ("有", "斬衰三升三升有半其冠六升", "yòu"),
        ("處", "士處適寢寢東首於北墉", "chǔ"),
        ("適寢", "士處適寢寢東首於北墉", "dí qǐn"),
        ("朝", "喪事不言歠粥朝一溢米夕一溢米", "zhāo"),
        ("鋪", "左衽結絞不紐鋪絞衿踊", "pū"),
        ("差", "夏祝淅米差盛之", "chāi"),
        ("盛", "夏祝淅米差盛之", "chéng"),
        ("逮", "朝奠日出夕奠逮日", "dài"),
        ("菲", "童子不踊不菲不廬", "fèi"),
        ("重", "西巾奠乃牆池視重霤", "chóng"),
        ("齊", "剛鬛嘉薦普淖明齊溲酒", "jì"),
        ("依", "食無事則出尸負依南面", "yǐ"),
        ("角", "實二爵二觚四觶一角一散", "jué"),
        ("放", "籩與篚于房中放于西方", "fǎng"),
        ("有", "日用丁巳筮旬有一日", "yòu"),
        ("臭", "鬱合鬯臭隂達于淵泉", "xiù"),
        ("屬", "長及冠士立者皆屬賓黨", "shǔ"),
        ("樂", "某有枉矢哨壺請以樂賓", "lè"),
        ("敖", "弟子辭曰毋幠毋敖毋偝立", "ào"),
    ],
)
def test_the_held_out_chapters_vocabulary_takes_its_classical_reading(word, context, reading):
    assert reading_in(word, context) == reading


@pytest.mark.parametrize(
    ("word", "context", "reading"),
    [  # third review: words a teacher would doubt, read with the book's own notes and references
        ("儐", "賓用束錦儐勞者勞者再拜稽首受", "bìn"),
        ("儐", "若不儐尸則祝侑亦如之", "bīn"),
        ("儐", "其獻祝與二佐食其薦脀皆如儐", "bīn"),
        ("挑匕", "司馬在羊鼎之東二手執挑匕柄以挹湆注于疏匕", "yǎo bǐ"),
        ("齊", "木鑣馬不齊髦主婦之車亦如之", "jiǎn"),
        ("厭", "冠右縫外縪纓條屬厭鍛而勿灰", "yè"),
        ("厭", "父在為至尊所厭故屈而服期", "yā"),
        ("厭", "則以大夫之尊厭降為大功", "yā"),
        ("厭", "黍稷之飯凡三者三則尸之厭飫可知也", "yàn"),
        ("厭", "故復為加爵以厭飫之", "yàn"),
        ("遣", "書賵于方若九若七若五書遣于䇿", "qiàn"),
        ("遣", "主人主婦皆不哭讀遣卒命哭滅燭出", "qiàn"),
        ("遣", "宗人遣佐食及執事盥出", "qiǎn"),
        ("干", "薦乗車鹿淺幦干笮革靾載旜", "gān"),
        ("沽", "弓矢之新沽功有弭飾焉", "gǔ"),
        ("枕", "居倚廬寢苫枕塊不脱絰帶", "zhèn"),
        ("枕", "當牖衽下筦上簟設枕遷尸", "zhěn"),
        ("觳", "主婦俎觳折其餘如阼俎", "què"),
    ],
)
def test_words_a_teacher_would_doubt_take_the_reading_their_references_give(word, context, reading):
    assert reading_in(word, context) == reading


def test_doubtful_words_accept_the_second_reading_their_references_allow():
    assert readings_in("繘", "管人汲不説繘屈之") == ("yù", "jú")
    assert readings_in("儐", "賓用束錦儐勞者") == ("bìn", "bīn")
    assert readings_in("挑匕", "二手執挑匕柄以挹湆") == ("yǎo bǐ", "tiāo bǐ")
    assert readings_in("齊", "馬不齊髦") == ("jiǎn", "qí")
    assert readings_in("厭", "纓條屬厭鍛而勿灰") == ("yè", "yā")
    assert readings_in("厭", "賔厭介入門左") == ("yè",)  # 揖厭: one reading only


@pytest.mark.parametrize(
    ("word", "context", "reading"),
    [  # fourth review: the headwords of `study terms` over the whole book, in their example sentences
        ("軷", "出祖釋軷祭酒脯乃飲酒于其側", "bá"),
        ("軒輖", "翭矢一乗骨鏃短衛志矢一乗軒輖中亦短衛", "xuān zhì"),
        ("饎爂", "尸卒食而祭饎爂饔爂", "chì cuàn"),
        ("亡", "為銘各以其物亡則以緇長半幅䞓末長終幅廣三寸", "wú"),
        ("亡", "大夫素服哭于社亦如之亡將失城則皆哭七日", "wáng"),
        ("辟", "絞一幅為三不辟衿五幅無紞", "pì"),
        ("辟", "無事不辟廟門哭", "pì"),
        ("辟", "長下膝有前後裳不辟長及觳", "bì"),
        ("辟", "朝夕哭不辟子夘", "bì"),
        ("辟", "西方東面北上主人即位辟門婦人拊心不哭", "pì"),  # 012:807 辟開也
        ("相爵", "尸卒爵祝受不相爵主人拜尸答拜", "xiàng jué"),
        ("相", "司士贊者二人皆合執二俎以相從入", "xiàng"),
        ("相", "凡庭實隨入左先皮馬相間可也", "xiāng"),
        ("脾", "祝俎脾脡脊二骨脇二骨膚一離肺一", "bì"),
        ("脾", "東方之饌四豆脾析蜱醢葵菹蠃醢", "pí"),
        ("差", "夏祝淅米差盛之", "chāi"),
        ("贊見", "質明贊見于舅姑席于阼", "zàn xiàn"),
        ("俟見", "夙興婦沐浴纚笄宵衣以俟見", "sì jiàn"),
    ],
)
def test_the_books_terms_take_their_classical_reading_in_their_example(word, context, reading):
    assert reading_in(word, context) == reading


def test_the_books_terms_accept_the_second_reading_their_references_allow():
    assert readings_in("亡", "為銘各以其物亡則以緇長半幅") == ("wú", "wáng")
    assert readings_in("脾", "祝俎脾脡脊二骨") == ("bì", "pí")
    assert readings_in("軒輖", "志矢一乗軒輖中亦短衛") == ("xuān zhì", "xuān zhōu")
    assert readings_in("軷", "出祖釋軷祭酒脯") == ("bá",)
    assert readings_in("差", "夏祝淅米差盛之") == ("chāi", "cuō")
    assert readings_in("放", "籩與篚于房中放于西方") == ("fǎng", "fàng")  # 鄭注 猶依也; 蔡德晉 放置也
    assert readings_in("差", "御者差沐於堂上") == ("chāi", "cuō")  # 蔡德晉 差猶摩也
    assert readings_in("殽", "衆賓及公有司皆殽烝") == ("yáo", "xiáo")  # 蔡德晉 殽雜也
    assert readings_in("燕養", "燕養饋羞湯沐之饌如他日") == ("yàn yǎng", "yàn yàng")
    assert readings_in("贊見", "質明贊見于舅姑") == ("zàn xiàn", "zàn jiàn")


def test_every_term_of_the_book_is_read_in_pinyin(book):
    """A character pypinyin cannot read (軷 and 輖 as the normaliser writes them) is never shown as the reading."""
    from study.build import load_terms

    syllable = re.compile(r"^[a-zü]*[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ][a-zü]*$")
    unread = [(t.term, t.pinyin) for t in load_terms(book.documents) if not all(map(syllable.match, t.pinyin.split()))]
    assert unread == []


def test_a_word_standing_twice_is_read_where_it_stands():
    assert reading_in("樂", "請以樂樂于賔") == "yuè"
    assert reading_in("樂", "請以樂樂于賔", at=3) == "lè"
    assert readings_in("樂", "請以樂樂于賔", at=2) == ("yuè",)
    assert readings_in("樂", "請以樂樂于賔") == ("yuè", "lè")  # asked without saying which: both
    with pytest.raises(ValueError, match="index 1"):
        reading_in("樂", "請以樂樂于賔", at=1)


def test_the_table_lists_each_character_once():
    """YAML keeps the last of two equal keys silently; the table's file must not rely on that."""
    text = (Path(__file__).parents[1] / "study" / "data" / "readings.yaml").read_text("utf-8")
    keys = [normalize(m.group(1)) for m in re.finditer(r"^([^\s#:-]+):", text, re.MULTILINE)]
    assert len(keys) == len(set(keys)) == len(table())


def test_typed_pinyin_is_tone_exact_with_marks_or_numbers():
    assert typed_matches("zun1", ["zūn"], pinyin=True)
    assert not typed_matches("zun4", ["zūn"], pinyin=True)
    assert typed_matches("zuò", ["zuò", "cù"], pinyin=True) and typed_matches("cu4", ["zuò", "cù"], pinyin=True)
    assert typed_matches("zi1 cui1", ["zī cuī"], pinyin=True)
    assert not typed_matches("zi cui", ["zī cuī"], pinyin=True)


def test_a_gloss_containing_its_headword_is_masked():
    assert masked_gloss("衆賔", "士即衆賔也") == "士即～也"
    assert masked_gloss("俎", "俎") is None
    assert masked_gloss("袒", "露左臂") == "露左臂"


def test_a_gloss_names_commentator_and_place_in_words():
    g = Gloss("女父", "蔡德晉", "士昏禮", "納采", "KR1d0044_002.txt", 23)
    places = Places([load_document(DATA.parents[1] / "decks" / "texts" / "KR1d0044_002.txt")])
    assert places.gloss_source(g) == "礼经本义 卷二 · 士昏禮 · 納采 · 頁1b第7行 · 蔡德晉曰"
