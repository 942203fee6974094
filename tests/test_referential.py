"""Glosses that say who or which thing a word points at in its passage are not taught
(study/terms/referential.py): each shape on a real line of the book, and a real definition of the
nearest shape that stays."""

from __future__ import annotations

import html
import re
from functools import cache

import pytest

from study.build import Sources, load_document, plan_deck
from study.decks.deckspec import load_deckspec
from study.terms.glosses import extract_glosses
from study.terms.referential import referential
from tests.conftest import ROOT, TEXTS, book_glosses


def _gloss(file: str, line: int, term: str, gloss: str):
    found = [g for g in book_glosses(file) if g.line == line and g.context == term and g.gloss == gloss]
    assert found, f"{file}:{line} {term} = {gloss} is no longer extracted"
    return found[0]


@pytest.mark.parametrize(
    ("file", "line", "term", "gloss", "shape"),
    [
        ("KR1d0044_009.txt", 149, "士", "衆介", "person"),  # 士衆介也: which 士 hold the gifts
        ("KR1d0044_012.txt", 804, "丈夫", "衆主人衆兄弟", "person"),  # which men stand outside
        ("KR1d0044_003.txt", 269, "一人", "主人之贊者", "person"),  # who the one man is
        ("KR1d0044_009.txt", 174, "郊", "逺郊", "specifier"),  # which 郊: 逺～
        ("KR1d0044_012.txt", 438, "奠", "始死之奠", "specifier"),  # which offering: 始死之～
        ("KR1d0044_002.txt", 360, "門", "舅姑之寢門", "specifier"),  # whose door, and which
        ("KR1d0044_014.txt", 207, "奠", "祝所奠於鉶南之觶", "relative"),  # the cup the 祝 set down
    ],
)
def test_a_gloss_saying_who_or_which_is_meant_is_not_taught(file, line, term, gloss, shape):
    assert referential(term, gloss) == shape
    assert not _gloss(file, line, term, gloss).taught


@cache
def _reviewed(file: str):
    """What the book teaches of one file: the extractor, its gate and the hand review."""
    return tuple(extract_glosses(load_document(TEXTS / file)))


def _taught(file: str, line: int, term: str, gloss: str) -> bool:
    found = [g for g in _reviewed(file) if g.line == line and g.context == term and g.gloss == gloss]
    assert found, f"{file}:{line} {term} = {gloss} is no longer read"
    return found[0].taught


# Each read right of its passage by the hand review (taught before the check): the check withholds it.
@pytest.mark.parametrize(
    ("file", "line", "term", "gloss", "shape"),
    [
        # a name left unsaid, a pointer, a return to what was done, glossed by what it stands for
        ("KR1d0044_002.txt", 67, "某", "使者名", "pointer"),  # whose name: the envoy's
        ("KR1d0044_002.txt", 242, "命某", "命壻父", "pointer"),  # who 某 is: the groom's father
        ("KR1d0044_015.txt", 35, "某子", "祖諡", "pointer"),  # the ancestor's posthumous name
        ("KR1d0044_009.txt", 855, "其他", "禮所降", "pointer"),  # what 'the others' are here
        ("KR1d0044_012.txt", 528, "初儀", "初死時庶兄弟襚朋友襚之禮", "pointer"),  # which rite 如初儀 repeats
        ("KR1d0044_003.txt", 289, "初位", "堂下之位", "pointer"),  # which place 'the first place' was
        # a set of the passage, which of each part, which ones of a number
        ("KR1d0044_013.txt", 248, "器", "自苞而下者", "pointer"),  # the implements from the 苞 on
        ("KR1d0044_014.txt", 237, "魚腊", "一魚及腊之骼", "pointer"),  # which fish, which piece of the 腊
        ("KR1d0044_016.txt", 440, "一匕", "羊匕", "pointer"),  # which ladle: the mutton's
        ("KR1d0044_013.txt", 398, "鼎五", "羊豕魚腊鮮獸各一鼎", "pointer"),  # which five tripods
        # an owner, a time or an occasion before the meaning
        ("KR1d0044_001.txt", 37, "席", "筮者之筵", "specifier"),  # the diviner's mat (筵 is a mat)
        ("KR1d0044_009.txt", 347, "門外", "廟門之外", "specifier"),  # which gate: the temple's
        ("KR1d0044_004.txt", 491, "堂東", "堂下之東", "specifier"),  # east of the hall, below it
        ("KR1d0044_016.txt", 747, "羊骼", "羊左骼", "specifier"),  # which thigh bone: the left
        ("KR1d0044_001.txt", 434, "殺", "醮而殺牲", "specifier"),  # the occasion, then the act
        ("KR1d0044_005.txt", 468, "卒", "酬士畢", "specifier"),  # what is finished here
        ("KR1d0044_005.txt", 21, "寢", "路寢", "specifier"),  # which chamber: the main one
        ("KR1d0044_011.txt", 1005, "孫", "女孫", "specifier"),  # which grandchild
        ("KR1d0044_016.txt", 543, "肺", "羊祭肺", "specifier"),  # which lung: the mutton's offering lung
        # whose officer; persons the lexicon now lists (壻, 遵, 太史)
        ("KR1d0044_009.txt", 171, "有司", "賓介之執事者", "person"),  # the guest's and attendants' officers
        ("KR1d0044_001.txt", 108, "擯者", "主人之相禮者", "person"),  # the host's usher
        ("KR1d0044_002.txt", 217, "賔", "壻", "person"),  # the guest of 親迎 is the groom
        ("KR1d0044_003.txt", 361, "大夫", "遵", "person"),  # which 大夫 come
        ("KR1d0044_006.txt", 419, "釋獲者", "太史", "person"),  # who keeps the tally in 大射
    ],
)
def test_a_gloss_read_right_of_its_passage_is_withheld_when_it_says_who_or_which(file, line, term, gloss, shape):
    assert referential(term, gloss) == shape
    assert not _taught(file, line, term, gloss)


# The nearest shapes that are meanings: taught, as the hand review or the gate read them.
@pytest.mark.parametrize(
    ("file", "line", "term", "gloss"),
    [
        ("KR1d0044_002.txt", 46, "宗子", "大宗子"),  # the great line's heir: 大 goes with 宗
        ("KR1d0044_012.txt", 695, "塊", "土塊"),  # 枕塊: a clod of earth, 土 makes a word
        ("KR1d0044_013.txt", 18, "兆", "所營之墓域"),  # the plot laid out for the grave: no one's
        ("KR1d0044_012.txt", 17, "斂衾", "擬制大斂所用之衾"),  # the coverlet used at the great dressing
        ("KR1d0044_012.txt", 387, "功布", "小功之布"),  # cloth of the 小功 grade: 小 makes a word
        ("KR1d0044_003.txt", 353, "階間", "兩階之間"),  # between the two stairs: a number
        ("KR1d0044_005.txt", 342, "升歌", "升堂而歌"),  # go up and sing: the word spelt out
        ("KR1d0044_001.txt", 365, "醮", "酌而無酬酢"),  # a definition with 而, not holding its word
        ("KR1d0044_009.txt", 228, "宰夫", "士之主膳羞者"),  # a 士 in charge of food: his class, no owner
        ("KR1d0044_002.txt", 58, "問名", "問女之名"),  # asking the girl's name: the rite spelt out
        ("KR1d0044_016.txt", 738, "三拜", "旅拜"),  # a kind of bow, not which ones
        ("KR1d0044_006.txt", 50, "南陳", "自北而南"),  # a direction, not a set of the passage
    ],
)
def test_a_meaning_of_the_nearest_shape_stays_taught(file, line, term, gloss):
    assert referential(term, gloss) is None
    assert _taught(file, line, term, gloss)


# The third reading's hand drops in shapes the check now reads: which side, day, things or errand.
@pytest.mark.parametrize(
    ("file", "line", "term", "gloss"),
    [
        ("KR1d0044_001.txt", 282, "筵末", "席之西端"),  # which end of the mat: the west
        ("KR1d0044_004.txt", 291, "還", "右轉而南向"),  # which way he turns here
        ("KR1d0044_012.txt", 378, "厥明", "死之明日"),  # which morning: the day after the death
        ("KR1d0044_002.txt", 171, "期", "娶妻之日"),  # which date: the wedding's
        ("KR1d0044_004.txt", 514, "卒射", "衆耦俱射畢"),  # whose shooting is finished
        ("KR1d0044_002.txt", 408, "卒食", "三飯畢"),  # finished eating: after three mouthfuls
        ("KR1d0044_009.txt", 509, "六鉶", "牛羊豕羹各二"),  # which six broth pots
        ("KR1d0044_006.txt", 240, "工六人", "太師少師與上工四人"),  # who the six musicians are
        ("KR1d0044_009.txt", 283, "致命", "致其君聘問之命"),  # whose command, for what errand
        ("KR1d0044_009.txt", 24, "無事", "無盟㑹之事"),  # which business there is none of
    ],
)
def test_a_side_day_count_or_errand_the_passage_means_is_withheld(file, line, term, gloss):
    assert referential(term, gloss) == "which"
    assert not _taught(file, line, term, gloss)


# The nearest shapes of those that are meanings, read right by the third reading and the samples.
@pytest.mark.parametrize(
    ("file", "line", "term", "gloss"),
    [
        ("KR1d0044_006.txt", 159, "左房", "東房"),  # the east room: the name of the room, not which end
        ("KR1d0044_013.txt", 73, "來日", "将來之日"),  # the coming day: the word spelt out
        ("KR1d0044_016.txt", 175, "卒脀", "升俎畢"),  # finished setting the meat on the stands: what 脀 is
    ],
)
def test_a_fixed_side_a_spelt_out_day_or_a_finished_act_stays_taught(file, line, term, gloss):
    assert referential(term, gloss) is None
    assert _taught(file, line, term, gloss)


@pytest.mark.parametrize(
    ("file", "line", "term", "gloss"),
    [
        ("KR1d0044_001.txt", 156, "尊", "酒尊"),  # the wine vessel: what a 尊 is
        ("KR1d0044_001.txt", 225, "容", "從容"),  # a word of two characters, not a place
        ("KR1d0044_008.txt", 100, "上大夫", "卿"),  # a title's equivalent, not a person of the passage
        ("KR1d0044_016.txt", 803, "私人", "私臣"),  # a synonym
    ],
)
def test_a_real_definition_of_the_nearest_shape_stays_taught(file, line, term, gloss):
    assert referential(term, gloss) is None
    assert _gloss(file, line, term, gloss).taught


@pytest.mark.parametrize(
    ("term", "gloss"),
    [
        ("小臣正", "小臣之長"),  # spelt out: 正 is 長, the word itself is not inside its gloss
        ("匕", "所以出飯"),  # the instrument formula 所以V, not a thing someone did something to
        ("庶羞", "饔人所修胾醢之類"),  # a kind (之類), not one thing
        ("宰", "膳宰掌治官饌者"),  # an office said by what it does
        ("其", "彼"),  # a pronoun glossed by a pronoun
        ("他邦之人", "鄰國之臣"),  # 他 'other', not 其他 pointing back
        ("初", "始"),  # 初 alone: 'at first'
        ("塊", "土塊"),  # what the thing is made of
        ("薦右", "薦西"),  # the west of the dishes: a side named, not which end
        ("疏匕", "疏刻文飾之匕"),  # a carved ladle: the word spelt out, not whose
        ("三拜", "旅拜"),  # a number with no things counted
    ],
)
def test_spelt_out_words_kinds_and_offices_are_not_read_as_referential(term, gloss):
    assert referential(term, gloss) is None


def _clue_glosses(clue: str, answer: str) -> list[str]:
    """The glosses on a 义→词 front, the answer put back for ～ (not the classic's sentence that a
    short clue comes with: it is the text, not a gloss)."""
    return [html.unescape(g).replace("～", answer) for g in re.findall(r'<span class="gloss">([^<]*)</span>', clue)]


def test_no_reverse_card_of_the_whole_book_asks_a_person_or_a_specified_thing_for_its_word():
    """Every 义→词 card of decks/all.yaml (planned, without Anki): no gloss on its front says who
    or which thing its answer points at (the front masks the answer, ～, put back here)."""
    book = plan_deck(load_deckspec(ROOT / "decks" / "all.yaml"), Sources())
    reverse = [n for n in book if n.model == "term_reverse"]
    assert len(reverse) > 1000
    found = [
        (answer, gloss)
        for n in reverse
        for answer in n.plain[1].split("、")
        for gloss in _clue_glosses(n.field("Clue"), answer)
        if answer and referential(answer, gloss)
    ]
    assert not found
