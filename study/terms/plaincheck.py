"""What a headword and a definiens read from unpunctuated commentary must be (study/terms/plain.py
finds them): characters that cannot open or close either, definientia that argue or narrate
rather than define, and the checks one pair must pass (:func:`fault` names the one it fails;
study/terms/plainrescue.py keeps a pair one check turns away when a narrower reading fits).

All on the normalised text, so the lists know 於/為/則/謂 through their simplified forms.
"""

from __future__ import annotations

import re

from .glossrules import Context, unsound
from .lexicon import category_of

# Characters that cannot open or close a headword (normalised forms).
OPEN_BAD = set("以而言此故盖则于为所即谓其是之也者矣焉乎皆亦乃若凡且又既然今虽如与及犹曰将用")
CLOSE_BAD = set("以而于为所即谓其是也者矣焉乎则亦乃若与及且又曰之在")
LONE_BAD = set("不如当众北南东西左右上下先后皆亦乃若凡与及一二三四五六七八九十之人者其也有无在")
# A definiens never opens with these (it would be a clause of reasoning or narration).
GLOSS_OPEN_BAD = (
    "而",
    "之",
    "其",
    "则",
    "即",
    "谓",
    "也",
    "者",
    "矣",
    "乎",
    "此",
    "故",
    "于",
    "以为",
    "乃",
    "皆",
    "亦",
    "又",
    "既",
    "若",
    "凡",
    "然",
    "不敢",
    "盖",
    "犹",
    "今",
    "且",
    "虽",
    "必",
    "宜",
    "将以",  # 「将以酬賔」: a purpose
    "为将",  # 「為將儐尸」: a purpose
    "象",  # 「象神之恭黙」: what an act imitates, a reason
    "已",  # 「已之酢禮畢」: what has happened
    "并",  # 「並用者」: how things are done together
    "用",  # 「用棜」: what is used, narration
    "据",  # 「據載者」: an argument from another place
    "按",
)
# A definiens opening with these says what the text's wording does (「某妃舉其妻之謚號」: it
# names …), not what the word means — unless the headword itself is that verb (舉 → 舉鼎).
REFERS = set("举著明见表")
# A definiens that argues rather than defines: a reason, a purpose, a comparison, a rule. 尊 is
# honour (「主人尊」「神道尊右」) unless it is the wine vessel (「壺尊」「覆尊」「尊南之篚」).
REASON = re.compile(
    r"故|.所以|^所以[^者]*$|欲|恐|示|不敢|不可|宜|(?<![壶酒外内膳献覆设玄方])尊(?![南北东西上下盖幂])|卑|避|然后|可知|是也|同也|异也|非|变于|别于|异于|亦|重其|敬|为之|"
    r"当|必|则|乃|未|既|盖|矣|焉|乎|哉|耳|言其|此|彼|若|如|虽|皆|又|云|曰|谓|犹言|取其"
)
SPEECH = ("告", "命", "对", "请", "言", "云", "辞", "答", "问", "祝", "呼", "称")
NEGATION = set("不无弗未非勿毋")
GLOSS_CLOSE_BAD = set("而之其以于为与及则亦乃且又所")


def head_ok(head: str) -> bool:
    if not head or "▯" in head:
        return False
    if len(head) == 1:
        return head not in LONE_BAD and head not in OPEN_BAD
    return head[0] not in OPEN_BAD and head[-1] not in CLOSE_BAD


def refers(head: str, gloss: str) -> bool:
    """「某妃舉其妻之謚號」「某氏著其妻之族姓」: a remark on the wording, not a gloss. A remark names
    what the wording does to something (a verb and its object); one or two characters are a
    gloss of the word (稱，舉也; 顯，明也)."""
    return gloss[:1] in REFERS and gloss[0] not in head and len(gloss) > 2


def gloss_ok(gloss: str) -> bool:
    if not gloss or "▯" in gloss or gloss.startswith(GLOSS_OPEN_BAD):
        return False
    if gloss in ("同", "异", "属", "然", "是", "也"):
        return False
    return not REASON.search(gloss)


def good(head: str, gloss: str, marker: str, closed: bool, ctx: Context, where: int) -> bool:
    return not fault(head, gloss, marker, closed, ctx, where)


def fault(
    head: str, gloss: str, marker: str, closed: bool, ctx: Context, where: int, skip: frozenset[str] = frozenset()
) -> str:
    """Why a headword and its definiens are not a gloss ('' when they are): the name of the first
    check they fail, leaving out the checks named in ``skip``."""
    if "form" not in skip and (
        not (head_ok(head) and gloss_ok(gloss)) or gloss == head or not gloss or refers(head, gloss)
    ):
        return "form"
    if "unsound" not in skip and unsound(head, gloss, has_act(head)):
        return "unsound"
    if "act-place" not in skip and (
        len(head) >= 3 and has_act(head) and set(head) & set(gloss) and re.search("[于於]", gloss)
    ):
        return "act-place"  # 「出迎鼎迎于廟門外」: the act of the text told with its place, narration
    if "close" not in skip and gloss[-1] in GLOSS_CLOSE_BAD:
        return "close"
    if "length" not in skip and len(gloss) > (24 if closed else 8):
        return "length"  # a definiens ends at 也, or is short where the next word of the text opens
    if "negated-head" not in skip and head[0] in NEGATION and gloss[0] not in NEGATION:
        return "negated-head"  # 「不視」 is an act of the text, not a word
    if "negated-gloss" not in skip and gloss[0] in NEGATION and not set(head) & NEGATION:
        return "negated-gloss"  # 「衆介無應對危辱之責」: a statement about the word, not its meaning
    if "role-act" not in skip and (
        category_of(head) == "role" and len(gloss) <= 2 and (gloss[-1] in SPEECH or has_act(gloss))
    ):
        return "role-act"  # 「賔辭也」: a person and what they do
    if "ruler" not in skip and gloss[0] in "君公" and not gloss.endswith("者"):
        return "ruler"  # 「君出入由闑東」: the ruler as the subject of a sentence
    if "there-is" not in skip and gloss[0] == "有" and not gloss.endswith("者"):
        return "there-is"  # 「繅有組垂」: there is …, narration
    if "means" not in skip and gloss[0] == "以" and set(head) & set(gloss[1:]) - FUNCTION_CHARS:
        return "means"  # 「祝饗以饗告神」: how the act of the text is done, a paraphrase
    if "moving" not in skip and (
        re.search(r"^[反出入升降適就至立坐退進].*[於于]", gloss) and not set(gloss[0]) & set(head)
    ):
        return "moving"  # 「徹鼎反於門外」: moving to a place, narration
    if "count" not in skip and (
        len(gloss) <= 3 and gloss[-1] in NUMERALS or category_of(head) == "role" and set(gloss) & NUMERALS
    ):
        return "count"  # 「拜送二」「主人羊俎六」: how many, not what
    if "place" not in skip and len(head) == 1 and len(gloss) <= 3 and gloss.endswith("位"):
        return "place"  # 「復賔位也」: going back to a place, narration
    if "agent" not in skip and has_act(head) and category_of(gloss) == "role":
        return "agent"  # 「薦脯醢宰夫也」: who does it, not what it is
    if "facing" not in skip and (
        re.search(r"[东西南北]面", gloss) and has_act(gloss) and not re.search(r"[东西南北]面", head)
    ):
        return "facing"  # 「門東西面拜」: where someone stands to act, narration
    if "reads-on" not in skip and len(head) == 1 and head + gloss[0] in ctx.classical:
        return "reads-on"  # 「致爵于主人」: the text read on, not a meaning
    if "sentence" not in skip and (
        len(head) >= 2 and len(gloss) > 2 and gloss[-2] in head and gloss[-1] in head and gloss[0] not in head
    ):
        return "sentence"  # 「自公左賛幣自左」: someone doing the words of the text, a sentence
    if "clause" not in skip and len(head) >= 3 and any(ch in head[1:-1] for ch in "于在"):
        return "clause"  # 「舍于朝」: a clause of the text, not a word
    if "hedge" not in skip and marker == "盖" and (len(head) > 3 or gloss.endswith("者")):
        return "hedge"  # 「筵祝蓋贊者也」「主人降立蓋端拱以候神也」: a guess at who does it, or how
    if marker:
        return ""
    if "retells" not in skip and (
        len(gloss) >= 7
        and any(gloss[i : i + 2] in ctx.classical and gloss[i : i + 2] != head for i in range(len(gloss) - 1))
    ):
        return "retells"  # a long definiens that retells the text's own words: narration
    if "unshared" not in skip and len(head) >= 3 and not (set(head) & set(gloss)):
        return "unshared"  # a long phrase of the text followed by words sharing nothing: a sentence
    if "role-does" not in skip and (
        category_of(head) == "role" and not gloss.endswith("者") and (len(gloss) > 4 or has_act(gloss))
    ):
        return "role-does"  # a person followed by what they do
    if "text-goes-on" not in skip and len(gloss) >= 2 and gloss[:2] in ctx.classical:
        return "text-goes-on"  # the definiens goes on with the text itself: narration
    follow = ctx.classical[where + len(head) : where + len(head) + 2]
    if "paraphrase" not in skip and len(follow) == 2 and in_order(follow, gloss):
        return "paraphrase"  # it retells the words that follow in the text: a paraphrase
    if "means-where" not in skip and gloss.startswith("以") and any(ch in head for ch in "面上下东西南北左右"):
        return "means-where"
    return ""


NUMERALS = set("一二三四五六七八九十")
FUNCTION_CHARS = set("之以而于为其者也所")


def has_act(text: str) -> bool:
    """A word of action (lexicon category) in ``text``."""
    return any(category_of(text[i : i + n]) == "action" for n in (2, 1) for i in range(len(text) - n + 1))


def in_order(chars: str, text: str) -> bool:
    at = 0
    for ch in chars:
        at = text.find(ch, at)
        if at < 0:
            return False
        at += 1
    return True
