"""Glosses that say who or which thing a word points at in its passage, not what the word means.

The commentary often tells the reader whom or what a word of the text stands for at that place:
「士衆介也」 (the 士 here are the envoy's attendants), 「大夫卿也」, 「賔壻也」, 「郊逺郊也」,
「奠始死之奠也」. True of the passage, but not a meaning of the word: the 义→词 card built on one
asks 衆介 → 士 (the student cannot tell the word from the person), and a definiens holding its
headword shows 「逺～」. Such a gloss is not taught (study/terms/glosses.py sets ``taught=False``, as
the gate does for its referential rules, ``gate.REFERENTIAL``), whatever the hand review read.

Decided from the headword and the definiens alone, in three shapes:

- ``person``: a word naming a person (a role of the reviewed lexicon, study/data/categories.yaml, or
  a word that names a person without saying who: 一人, 使人, 婦人, 丈夫, 親者, 哀子, 其餘) glossed
  by persons — roles of the lexicon, joined by 之/及/與 or led by 衆/諸/庶 (衆介, 士介從者,
  主婦及衆主婦, 主人之贊者) — or, for a rank or such a plain person word, by one described with
  者 (笙之長者, 取籩豆俎者). A role glossed by its office stays (宰 = 膳宰掌治官饌者 names no role
  alone; 有司 = 主人之執事者 is curated).
- ``specifier``: a definiens that ends with its headword and puts before it what picks one out —
  a phrase closed by 之 (始死之奠, 問卿之夕, 所過邦之境), or places, persons, sides and ranks of the
  lexicon (大門, 寢門, 逺郊, 阼階下位, 賔對, 左臂, 衆士). A definiens that only spells the word out
  stays: 小臣正 = 小臣之長 (正 is 長: the headword is not inside it), 尊 = 酒尊 and 塊 = 土塊 (what
  the thing is made of or holds: a kind, not a place), 容 = 從容 (a word of two characters).
- ``relative``: a definiens that is a thing someone did something to, 所V…之N (祝所奠於鉶南之觶,
  所過國君之朝) — not the instrument formula 所以V (匕 = 所以出飯 stays).
"""

from __future__ import annotations

import re
from functools import cache

from ..text.normalize import normalize
from .lexicon import categories

# Characters that pick one of many out by side, place, rank, size or time (大門, 左臂, 逺郊, 朝夕奠).
_SIDES = set(normalize("東西南北左右上下内外前後中大小太逺近首腰衆諸庶朝夕"))
# Words that lead a list of persons or group them (衆介, 諸公), and join persons (主婦及衆主婦).
_GROUP = set(normalize("衆諸庶"))
_JOIN = re.compile("[及与、暨]")
# Words that name a person by number, sex, kinship or errand, with no office or rank: whoever
# they point at in a passage is said by the commentary, never what they mean.
_NO_ONE = re.compile(r"^(?:[一二三四五六七八九十两数]人|人|众人|其余|余)$")
_GENERIC = frozenset(normalize(w) for w in ("婦人", "丈夫", "使人", "親者", "哀子", "子"))
# The ranks and the parties of a rite among the lexicon's roles: glossed by a person described with
# 者 (士介從者, 主人之贊者) they say who; an office so glossed (有司 = 賓介之執事者) says what it does.
_RANKS = frozenset(normalize(w) for w in ("士", "大夫", "卿", "君", "賔", "介", "主人", "衆賔"))
# A term that names a person by its shape (an office 甸人, a title 上大夫, a class 私人): glossed by
# a person it may be a title's equivalent (上大夫卿也, 私人私臣), so it is not read as a doer.
_PERSONISH = re.compile(r"[人夫子者臣]$")
# 所V…之N: the thing someone did something to (祝所奠於鉶南之觶); not 所以V (the instrument), not a
# kind (之類, 之屬, 之一), not a 者 phrase.
_RELATIVE = re.compile(r"^[^以]{0,6}所(?!以).*之(.{1,2})$")
_KINDS = set(normalize("類属屬一名"))


@cache
def _lexicon(kind: str) -> frozenset[str]:
    return frozenset(w for w, c in categories().items() if c == kind)


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
    before, of, last = head.rpartition("之")  # 舅姑之寢門: whose door, and which
    words = _lexicon("place") | _roles()
    return _cover(last, words, _SIDES) and (not of or len(before) >= 2)


def _relative(t: str, g: str) -> bool:
    m = _RELATIVE.match(g)
    return bool(m) and len(t) == 1 and not set(m[1]) & _KINDS and not g.endswith("者") and not g.startswith(t)


def referential(term: str, gloss: str) -> str | None:
    """The shape (``person``, ``specifier``, ``relative``) in which ``gloss`` says who or which
    thing ``term`` points at in its passage, or None when it may say what the word means."""
    t, g = normalize(term), normalize(gloss)
    if not t or not g or t == g:
        return None
    if _person(t, g):
        return "person"
    if specified(t, g):
        return "specifier"
    if _relative(t, g):
        return "relative"
    return None
