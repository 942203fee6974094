"""Glosses that say who or which thing a word points at in its passage, not what the word means.

The commentary often tells the reader whom or what a word of the text stands for at that place:
「士衆介也」 (the 士 here are the envoy's attendants), 「大夫卿也」, 「賔壻也」, 「郊逺郊也」,
「奠始死之奠也」. True of the passage, but not a meaning of the word: the 义→词 card built on one
asks 衆介 → 士 (the student cannot tell the word from the person), and a definiens holding its
headword shows 「逺～」. Such a gloss is not taught (study/terms/glosses.py sets ``taught=False``, as
the gate does for its referential rules, ``gate.REFERENTIAL``), whatever the hand review read.

Decided from the headword and the definiens alone, in four shapes:

- ``person``: a word naming a person (a role of the reviewed lexicon, study/data/categories.yaml, or
  a word that names a person without saying who: 一人, 使人, 婦人, 丈夫, 親者, 哀子, 其餘) glossed
  by persons — roles of the lexicon, joined by 之/及/與 or led by 衆/諸/庶 (衆介, 士介從者,
  主婦及衆主婦, 主人之贊者, 賔 = 壻, 大夫 = 遵) — or, for a rank or such a plain person word, by one
  described with 者 (笙之長者, 取籩豆俎者); a role glossed by whose officer it is (有司 = 賓介之執事者,
  擯者 = 主人之相禮者). A role glossed by its office stays (宰夫 = 士之主膳羞者: 士 is the class he is
  of, not an owner; 宰 = 膳宰掌治官饌者 names no role alone).
- ``specifier``: the word's meaning with what picks one out put before it — the headword after a
  phrase closed by 之 (始死之奠, 問卿之夕) or after places, persons, sides, ranks and victims (大門,
  寢門, 逺郊, 阼階下位, 左臂, 衆士, 路寢, 女孫, 羊祭肺); a word of the headword's own kind in the
  lexicon after an owner or a time and 之 (席 = 筮者之筵); each part of the headword qualified by a
  side or a place (門外 = 廟門之外, 羊骼 = 羊左骼, 序端 = 西序之端); the occasion before the act
  (殺 = 醮而殺牲); what was finished before 'finished' (卒 = 酬士畢). A definiens that only spells
  the word out stays: 小臣正 = 小臣之長 (正 is 長), 階間 = 兩階之間 (a number), 功布 = 小功之布 and
  宗子 = 大宗子 (a size making a word with the part), 升歌 = 升堂而歌, 尊 = 酒尊 and 塊 = 土塊 (what
  the thing is made of or holds: a kind), 容 = 從容 (a word of two characters).
- ``relative``: a definiens that is a thing someone did something to, 所V…之N (祝所奠於鉶南之觶,
  所聘之國境) — not the instrument formula 所以V (匕 = 所以出飯), nor a thing made so with no one
  doing it (兆 = 所營之墓域, the grave's plot).
- ``pointer``: a word standing for something said elsewhere glossed by what it stands for — a name
  left unsaid (某 = 使者名, 命某 = 命壻父, 某子 = 祖諡), 其…/此…/初…/如初 (其他 = 禮所降, 初儀 =
  初死時…之禮, 初位 = 堂下之位), but not by another pronoun (其 = 彼) nor 初 of a time (初昏); a set
  of the passage (器 = 自苞而下者); which of each part (魚腊 = 一魚及腊之骼); which ones of a number
  (一匕 = 羊匕, 鼎五 = 羊豕魚腊鮮獸各一鼎), not a kind (三拜 = 旅拜).
- ``which`` (shapes the third reading dropped by hand): a side relative to the one facing fixed by
  a compass side (筵末 = 席之西端, 還 = 右轉而南向; not 左房 = 東房, the name of the room); a time
  word by the occasion whose day it is (厥明 = 死之明日, 期 = 娶妻之日; not 來日 = 將來之日); 卒 + a
  noun by whose or how many were finished (卒射 = 衆耦俱射畢, 卒食 = 三飯畢; not 卒脀 = 升俎畢); a
  number by the things counted (六鉶 = 牛羊豕羹各二); a command, business or gift by whose or which
  it is (致命 = 致其君聘問之命, 無事 = 無盟㑹之事; not 問名 = 問女之名, a step spelt out).
"""

from __future__ import annotations

import re
from functools import cache

from ..text.normalize import normalize
from .lexicon import categories

# Characters that pick one of many out by side, place, rank, size or time (大門, 左臂, 逺郊, 朝夕奠).
_SIDES = set(normalize("東西南北左右上下内外前後中大小太逺近首腰衆諸庶朝夕路"))
# Sizes: before a part they make a word with it (大宗子, 小功之布), so they do not pick one out.
_SIZES = set(normalize("大小太"))
# Characters that pick out whose piece or which of a pair (羊匕, 羊祭肺, 豕魚匕, 女孫, 祭肺).
_WHICH = set(normalize("羊豕牛魚腊鮮獸犬鷄女男祭"))
# The book's miswritings read as what they stand for: 「塊上塊也」 writes 上 for 土 (土塊, a clod).
_MISWRITTEN = {normalize("上塊"): normalize("土塊")}
# Words that lead a list of persons or group them (衆介, 諸公), and join persons (主婦及衆主婦).
_GROUP = set(normalize("衆諸庶"))
_JOIN = re.compile("[及与、暨]")
# Words that name a person by number, sex, kinship or errand, with no office or rank: whoever
# they point at in a passage is said by the commentary, never what they mean.
_NO_ONE = re.compile(r"^(?:[一二三四五六七八九十两数]人|人|众人|其余|余)$")
_GENERIC = frozenset(normalize(w) for w in ("婦人", "丈夫", "使人", "親者", "哀子", "子"))
# The ranks and the parties of a rite among the lexicon's roles: glossed by a person described with
# 者 (士介從者, 主人之贊者) they say who; an office so glossed says what it does (宰 = 膳宰掌治官饌者).
_RANKS = frozenset(normalize(w) for w in ("士", "大夫", "卿", "君", "賔", "介", "主人", "衆賔"))
# The classes of men: 士之主膳羞者 (宰夫) is one of that class who does the work, not whose.
_CLASSES = frozenset(normalize(w) for w in ("士", "大夫", "卿", "上士", "中士", "下士", "庶人"))
# A term that names a person by its shape (an office 甸人, a title 上大夫, a class 私人): glossed by
# a person it may be a title's equivalent (上大夫卿也, 私人私臣), so it is not read as a doer.
_PERSONISH = re.compile(r"[人夫子者臣]$")
# 所V…之N: the thing someone did something to (祝所奠於鉶南之觶); not 所以V (the instrument), not a
# kind (之類, 之屬, 之一), not a 者 phrase.
_RELATIVE = re.compile(r"^([^以]{0,6})所(?!以).*之(.{1,2})$")
_KINDS = set(normalize("類属屬一名"))
# A word that stands for something said elsewhere: a name left unsaid (某, 某子, 命某), a pointer
# (其他, 其餘, 其摯, 此), a return to what was done before (初儀, 初位, 如初); glossed by what it stands
# for, not by another pronoun (其 = 彼).
_PLACEHOLDER = re.compile(normalize("某|^[其此彼]|^初(?![昏夜旦年月日時])(?=.)|如初"))
_PRONOUNS = set(normalize("某其此彼他是斯厥汝爾"))
# A set of the passage: 自苞而下者, 筮人執筴以下之儀.
_RANGE = re.compile(r"^(?:自.+?[而以]|.+?以)[下上](?:者|之.{1,3})$")
_NUMERALS = set(normalize("一二三四五六七八九十两兩數"))
# What finishes, 卒 = 酬士畢: the word for 'finished' after what was finished.
_DONE = set(normalize("畢訖竟終已"))
_FINISH = set(normalize("卒畢既竟終已訖"))
# Who or where owns the thing: 筮者之筵, 賓介之執事者 (an owner), 始死時之… (a time).
_OWNER_END = re.compile(normalize("(?:者|時)$"))


@cache
def _lexicon(kind: str) -> frozenset[str]:
    return frozenset(w for w, c in categories().items() if c == kind)


@cache
def _place_chars() -> frozenset[str]:
    return frozenset("".join(_lexicon("place")))


def _roles() -> frozenset[str]:
    return _lexicon("role")


def _cover(text: str, words: frozenset[str], extra: set[str]) -> bool:
    """Whether ``text`` is made of ``words`` (up to four characters) and the single characters ``extra``."""
    if not text:
        return False
    ok = [True] + [False] * len(text)
    for i in range(len(text)):
        if not ok[i]:
            continue
        if text[i] in extra:
            ok[i + 1] = True
        for j in range(i + 1, min(len(text), i + 4) + 1):
            if text[i:j] in words:
                ok[j] = True
    return ok[-1]


def persons(text: str) -> bool:
    """Whether ``text`` (normalised) names persons of the lexicon only: 衆介, 士介從者 (從者 is a
    role), 主婦及衆主婦, 主人之贊者, 衆主人衆兄弟."""
    parts = [p for p in _JOIN.split(text) if p]
    marks = _GROUP | {"之"}
    return bool(parts) and all(_cover(p, _roles(), marks) and not set(p) <= marks for p in parts)


def _spelt(term: str, gloss: str) -> bool:
    """Whether the gloss spells the word out: each of its characters in it, in order, the word
    itself not (斂衾 = 擬制大斂所用之衾, 食舉 = 食所舉之肺脊)."""
    if len(term) < 2 or term in gloss:
        return False
    at = 0
    for ch in term:
        at = gloss.find(ch, at) + 1
        if not at:
            return False
    return True


def _person(t: str, g: str) -> bool:
    """A person word glossed by whom it points at."""
    if t in _roles() or t in _GENERIC or _NO_ONE.match(t):
        owner, of, _ = g.rpartition("之")
        if t in _roles() and of and persons(owner) and owner not in _CLASSES and g.endswith("者") and not _spelt(t, g):
            return True  # whose officers: 有司 = 賓介之執事者, 士 = 主人之私臣
        if persons(g) and not _spelt(t, g) and (not g.endswith("者") or t in _RANKS | _GENERIC or _NO_ONE.match(t)):
            return True
        # 笙之長者, 取籩豆俎者 for 一人, 其餘; 君所使卿韋弁者 for 大夫: a 者 phrase says who
        said = bool(_NO_ONE.match(t)) or (t in _RANKS and "所" in g.replace("所以", ""))
        return g.endswith("者") and len(g) > 2 and said
    # an act or a place glossed by a person says who does it or stands there (三獻指賓, 門東諸公)
    return not _PERSONISH.search(t) and persons(g) and not set(t) & set(g)


def specified(term: str, gloss: str) -> bool:
    """Whether ``gloss`` (normalised) is ``term`` with what picks one out put before it."""
    if len(gloss) <= len(term) or not gloss.endswith(term):
        return False
    head = gloss[: -len(term)]
    if head.endswith(("谓之", "曰")):  # the formula itself, 有室者謂之堂: a definition
        return False
    if head.endswith("之") and len(head) >= 3:
        return True
    if len(term) >= 2 and len(head) == 1 and head in _SIDES:
        return False  # 宗子 = 大宗子: 大 goes with 宗 (the great line's heir), a word, not a side
    before, of, last = head.rpartition("之")  # 舅姑之寢門: whose door, and which
    words = _lexicon("place") | _roles()
    return _cover(last, words, _SIDES | _WHICH) and (not of or len(before) >= 2)


def _owned(t: str, g: str) -> bool:
    """The word's meaning with what picks one out put before it: an owner or a time with 之 before
    a word of the term's own kind in the lexicon (席 = 筮者之筵), the term's parts each with a
    qualifier (門外 = 廟門之外, 羊骼 = 羊左骼, 菹醢 = 韭菹醓醢), the occasion before the act (殺 =
    醮而殺牲), what was finished before 'finished' (卒 = 酬士畢)."""
    owner, of, thing = g.rpartition("之")
    kind = categories().get(t)
    if of and kind and thing != t and categories().get(thing) == kind and 0 < len(thing) <= 3:
        if persons(owner) or _OWNER_END.search(owner) or _cover(owner, _lexicon("place"), _SIDES):
            return True
    if len(t) >= 2 and g.endswith(t[-1]) and _spelt(t, g) and len(g) - len(t) <= len(t) + 1:
        rest = list(g)
        for ch in t:
            rest.remove(ch)
        # each part qualified by a side or a place (廟門之外, 羊左骼, 西序之端, 房户外之東); not a
        # size, which makes a word with the part (小功之布), nor a number (兩階之間), nor an act
        if set(rest) - {"之"} and set(rest) <= (_place_chars() | _SIDES) - _SIZES - _NUMERALS | {"之"}:
            return True
    if len(t) == 1:
        cause, then, act = g.partition("而")
        if then and cause and act.startswith(t) and len(act) > 1:
            return True  # 醮而殺牲: the occasion, then the act
        if t in _FINISH and g[-1] in _DONE and len(g) >= 3:
            return True  # 酬士畢, 比大夫之耦畢: what was finished
    return False


def _pointer(t: str, g: str) -> bool:
    """A word that points at a set or at things said before, glossed by what it points at."""
    if _PLACEHOLDER.search(t):
        return not set(g) & _PRONOUNS  # 某 = 使者名, 其他 = 禮所降, 初儀 = …之禮
    if len(t) >= 2 and _RANGE.match(g) and not set(t) & set(g):
        return True  # 筮人執筴以下之儀: from the diviner on
    if len(t) == 1 and _RANGE.match(g) and g.startswith("自"):
        return True  # 器 = 自苞而下者: the implements from the 苞 on
    parts = [p for p in _JOIN.split(g) if p]
    if 2 <= len(parts) == len(t) and all(c in p and c != p for c, p in zip(t, parts, strict=True)):
        return True  # 魚腊 = 一魚及腊之骼: which of each
    num = "".join(c for c in t if c in _NUMERALS)
    thing = t.replace(num, "") if num else ""
    if num and thing and t.find(thing) in (0, len(num)) and g.endswith(thing) and g != thing:
        head = g.replace("各一", "").replace(thing, "")
        return set(head) <= _WHICH | _SIDES | {"次"}  # 一匕 = 羊匕, 二耦 = 次耦下耦: which ones; not 三拜 = 旅拜
    return False


# A side relative to the one facing (末, 端, 左, 右, 還 'turn') and the compass sides that fix it.
_RELATIVE_SIDES = set(normalize("末端左右"))
_COMPASS = set(normalize("東西南北"))
_ENDS = set(normalize("末端左右頭"))
_TURN = normalize("還")
# A time word's day after the occasion it follows (死之明日, 娶妻之日).
_DAY = re.compile(normalize(r"^(.+)之(明日|日)"))
_ITEMS = re.compile(normalize("各[一二三四五六七八九十两]"))
_LISTED = re.compile(normalize("[及與暨]"))
_CLAUSE = re.compile("[，。、；,;]")
_ORDERED = set(normalize("命事賜"))  # whose command, which business, whose gift


def _which(t: str, g: str) -> bool:
    """Which side, day, things or errand the passage means (the third reading's shapes)."""
    if (set(t) & _RELATIVE_SIDES or t == _TURN) and not set(t) & _COMPASS and set(g) & _COMPASS and set(g) & _ENDS:
        return True  # 筵末 = 席之西端, 還 = 右轉而南向: which end, which way (not 左房 = 東房, a name)
    day = _DAY.match(g)
    if day and (day[2] == normalize("明日") or (g.endswith(normalize("之日")) and not set(day[1]) & set(t))):
        return True  # 厥明 = 死之明日, 期 = 娶妻之日: which day (not 來日 = 將來之日)
    if len(t) >= 2 and t[0] == normalize("卒") and g[-1] in _DONE and len(g) >= 3:
        body = g[:-1]  # 卒射 = 衆耦俱射畢, 卒食 = 三飯畢: whose, how many (not 卒脀 = 升俎畢)
        return (body.endswith(t[1:]) and len(body) > len(t) - 1) or body[0] in _NUMERALS
    listed = (
        _LISTED.search(g) and not _CLAUSE.search(g) and set(g) & _NUMERALS
    )  # not a sentence (三耦 = 大夫、士三耦，…)
    if set(t) & _NUMERALS and (_ITEMS.search(g) or listed):
        return True  # 六鉶 = 牛羊豕羹各二, 工六人 = 太師少師與上工四人: the things counted
    if len(t) >= 2 and g.endswith("之" + t[-1]):
        head = g[:-2]  # 致命 = 致其君聘問之命: whose command (not 問名 = 問女之名, 疏匕 = 疏刻文飾之匕)
        return t[-1] in _ORDERED and head.startswith(t[:-1]) and len(head) - len(t) >= 1
    return False


def _relative(t: str, g: str) -> bool:
    m = _RELATIVE.match(g)
    if not m or len(t) != 1 or set(m[2]) & _KINDS or g.endswith("者") or g.startswith(t):
        return False
    return bool(m[1]) or t in m[2]  # 祝所奠…之觶 (someone did it), 所聘之國境; not 兆 = 所營之墓域


def referential(term: str, gloss: str) -> str | None:
    """The shape (``person``, ``specifier``, ``relative``, ``pointer``, ``which``) in which ``gloss`` says who or which
    thing ``term`` points at in its passage, or None when it may say what the word means."""
    t, g = normalize(term), normalize(gloss)
    g = _MISWRITTEN.get(g, g)
    if not t or not g or t == g:
        return None
    if _person(t, g):
        return "person"
    if specified(t, g) or _owned(t, g):
        return "specifier"
    if _relative(t, g):
        return "relative"
    if _pointer(t, g):
        return "pointer"
    if _which(t, g):
        return "which"
    return None
