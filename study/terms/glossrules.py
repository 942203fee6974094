"""The tests a gloss formula's match must pass: a headword grounded in the text it explains,
no function word at its edges, a definiens that is not a reason or an act. Shared by the readers
of punctuated and unpunctuated commentary in :mod:`study.glosses`."""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Stage
from ..text.commentary import commentators
from ..text.normalize import normalize
from .lexicon import category_of

QUOTES = "「」『』“”《》"
# A definiens that argues rather than defines: a reason, a purpose, a comparison with a rule.
REASON = re.compile(r"故也|是故|故[曰云]|所以|之义|之意|欲|恐|示|不敢|宜|尊|避|然后|此以上|以上|可知|是也|同也|异也|非")
REASON_START = ("之", "皆", "则", "乃", "若", "此", "其", "而", "于", "与", "不", "统于")
HEDGES = ("盖", "亦")  # 「寝东，盖东壁之东也」: a hedge before the gloss is not part of it
NOT_GLOSS = {"同", "异", "属", "然", "耳", "矣", "尸", "室", "是"}
MAX_TERM = 4
MAX_PHRASE = 6  # a phrase quoted from the text in unpunctuated commentary


@dataclass(frozen=True)
class Context:
    """What a commentary explains: the classical text it follows, and where it stands."""

    file: str
    rite: str
    stage: Stage
    classical: str  # normalised classical text of the passage (or heading) the note belongs to
    rite_text: str = ""  # normalised classical text of the whole rite
    intro: bool = False  # the note introducing the rite, before its first stage


def clean(text: str) -> str:
    return "".join(ch for ch in text if ch not in QUOTES).strip()


def strip_ye(text: str) -> str:
    text = text.rstrip("。；，")
    text = text[:-1] if text.endswith("也") else text
    for hedge in HEDGES:
        if text.startswith(hedge) and len(text) > 2:
            text = text[len(hedge) :]
    return text


def is_speaker(text: str) -> bool:
    norm = normalize(text)
    return any(norm.endswith(name) or norm == name for name in commentators())


def grounded(term: str, ctx: Context, before: str) -> bool:
    norm = normalize(term)
    return bool(norm) and (norm in ctx.classical or norm in normalize(before))


def good_gloss(gloss: str, *, strict: bool) -> bool:
    if not gloss or "▯" in gloss or len(gloss) > 24 or gloss in NOT_GLOSS:
        return False
    if REASON.search(gloss) or gloss.endswith("故"):
        return False
    return not (strict and gloss.startswith(REASON_START))


def termlike(text: str) -> bool:
    return 1 <= len(text) <= MAX_TERM and all("\u4e00" <= ch <= "\u9fff" or ch == "、" for ch in text)


FUNCTION = set("以而言此故盖则于为所即谓其是皆亦乃若凡之也者矣焉乎")
HEAD_START = set("以而言此故盖则于为所即谓其是之也者矣焉乎")  # never opens a quoted phrase
GLOSS_START = set("而之其则即谓也者矣焉乎此故于")
# One character that is a direction, a negation or a comparison is not a headword on its own.
NOT_HEAD = set("不如当众北南东西左右上下先后皆亦乃若凡与及一二三四五六七八九十")


def edges_ok(head: str) -> bool:
    if "▯" in head:
        return False
    if len(head) == 1:
        return head not in FUNCTION and head not in NOT_HEAD
    return head[0] not in HEAD_START and (head[-1] not in FUNCTION or head[-1] == "之")


def has_action(text: str) -> bool:
    norm = normalize(text)
    return any(category_of(norm[i : i + n]) == "action" for n in (2, 1) for i in range(len(norm) - n + 1))


def headword(head: str, gloss: str) -> bool:
    """A headword, not a clause: no function word at its edges; a longer phrase must share a
    character with its gloss (a paraphrase), unlike a reason given for an act."""
    if not edges_ok(head) or gloss[:1] in GLOSS_START:
        return False
    if "▯" in head:
        return False
    content = (set(normalize(head)) & set(normalize(gloss))) - FUNCTION
    if gloss.startswith("为"):  # 「…，为已将先取矢而揖也」: a purpose, not a meaning
        return False
    return len(head) <= 2 or len(content) >= (2 if len(head) >= 4 else 1)


# --- what no formula reading can tell from a gloss: checks on a headword and its definiens ------
# (normalised text; found on the whole book's taught glosses, tests/data/gold/taught_review.tsv)

# A book or a section of one: 「傳曰父必三年」「小記曰妾母」「爾雅曰笙小者」 is a quotation formula.
BOOKS = {
    "传",
    "经",
    "记",
    "小记",
    "尔雅",
    "诗",
    "书",
    "易",
    "说文",
    "檀弓",
    "郊特牲",
    "春秋",
    "周礼",
    "礼记",
    "注",
    "疏",
}
# Persons and offices of the rites beyond the lexicon's roles: who does an act.
PERSONS = {"宰夫", "宰", "壻", "婿", "妇", "夫", "主妇", "诸公", "公", "宾", "有司", "司士", "膳夫", "小臣", "擯者"}
DIRECTIONS = set("东西南北")
NEGATIONS = set("不无弗未非勿毋")
# A definiens never ends on a negation, a question or 言 (「經不曰…」「何歟曰…」: fragments).
QUESTION = NEGATIONS | set("欤与邪耶")  # before 曰 a definiens may end on 之 (「以治之曰脩」)
FRAGMENT_END = QUESTION | set("言而之其以于为")


def person(text: str) -> bool:
    return text in PERSONS or category_of(text) == "role"


def unsound(head: str, gloss: str, act: bool, *, quoted: bool = False) -> str:
    """Why a headword and its definiens (normalised) are not a word and its meaning ('' if
    nothing is wrong). ``act``: the headword is an act of the text (lexicon action); ``quoted``:
    the definiens stands before 曰 (Y曰X), where a book's name opens a quotation."""
    if quoted and gloss in BOOKS:
        return "book"  # 「傳曰父必三年」: the book being quoted
    if gloss[-1] in (QUESTION if quoted else FRAGMENT_END) or gloss[0] == "言" and len(gloss) == 2:
        return "fragment"  # 「經不曰…」; 「保言守也」 (言 'means', not a word of the gloss)
    if len(head) == 2 and head[1] == "面" and head[0] in DIRECTIONS and not set(gloss) & DIRECTIONS:
        return "faced"  # 「北面向君也」: what is faced in that place, not what 北面 means
    if act and person(gloss):
        return "agent"  # 「薦兩豆者宰夫也」「揖婦者壻也」: who does it
    if len(gloss) == 2 and gloss[0] in "献告" and person(gloss[1:]):
        return "occasion"  # 「獻公曰象觚」「告賔曰主人」: when it is said, not what it means
    if len(gloss) == 1 and gloss in DIRECTIONS and not set(head) & DIRECTIONS:
        return "position"  # 「脯栗南也」: where a thing lies
    if len(head) >= 2 and head[-1] in "一二三四五六七八九十" and not set(gloss) & set("一二三四五六七八九十"):
        return "count"  # 「鼎九牛也羊也豕也」: an enumeration
    if head and len(head) <= 2 and head[-1] in DIRECTIONS | set("左右") and person(gloss):
        return "who-there"  # 「門東諸公也」: who stands there
    if len(head) == 1 and len(gloss) == 2 and head in "卒既" and gloss[1] in "毕终":
        return "boundary"  # 「卒讀畢也」: the word is 卒讀 (finished reading), glossed 畢
    return ""
