"""The rules of study/text/clauses.py: where clauses of unpunctuated ritual prose end, when neither
the text's own marks nor a punctuated guide say. A clause ends before a new subject followed by its
act (主人, 宾, 大夫, 司射 …; 「戒宾宾出迎」: the second 宾), before a clause-initial connective (乃, 遂,
既, 则, 若), after an act that closes (再拜, 答拜, 稽首, 兴, 退, 许, 反位 …) when nothing it governs
follows, after the order of a row (北上), after 曰, after an opening time (明日, 厥明 …), where a place
named after 于/自 closes, and where a character or a pair of them comes twice (设扃鼏｜鼏若束).
:func:`rule_ends` works on the normalised text and leaves out the offsets inside protected words.
"""

from __future__ import annotations

import re

# People who act in the rites (normalised).
SUBJECTS = (
    "主人 众主人 主妇 主党 宾 众宾 宾长 介 上介 众介 大夫 遵者 公 君 卿 诸公 士 司射 司马 司正 司宫 司士 乐正 工 笙 "
    "尸 祝 小祝 宗人 宗妇 佐食 上佐食 下佐食 有司 赞者 摈者 使者 侯氏 宰 宰夫 膳宰 小臣 小臣正 射人 大射正 小射正 "
    "获者 释获者 上射 下射 三耦 众耦 弟子 兄弟 众兄弟 长兄弟 内宾 内兄弟 嗣子 婿 妇 舅 姑 媵 姆 从者 举觯者 执事者 "
    "筮人 筮者 卦者 举者 御者 太史 小史 内史 次介 下大夫 上大夫 卿大夫 宾介 公卿 史 冢人 甸人 雍人 饔人 廪人 商祝 夏祝 复者 丈夫 妇人 众人 天子 王 诸侯 摈 劳者 贾人 管人 关人 官"
).split()
# What may follow a person's name inside a noun phrase, so that the name is no actor there
# (主人之北, 宾席, 宾服, 使者者 …).
_NOUNISH = set("之者也所席位服爵觯俎豆荐笾鼎氏子人党长属礼等")
# A character before a person that makes the person its object (以宾升, 戒宾, 帅众介; 宾厌介升, 无介不杀).
_BINDS = set(
    "以于如与及使为请戒速迎送延劳献酢酬从宿告命谓授揖拜其诸众长见就待俟觌飨食擯摈帅谒问赐饮侑相赞御视随谋逆致醴馈筮奉有尊"
    "厌无"
    "乃遂既则若而且"  # a connective opens the clause its actor acts in (则史韇筮)
)
CONNECTIVES = "乃遂既则无"  # 无: 尊于房户之东｜无玄酒
# No clause starts at a connective right after these (皆乃, 拜既爵, 则乃遂: one clause).
_NOT_BEFORE_CONNECTIVE = set("不亦皆又而之其拜乃遂既则")
# Acts that close a clause when nothing they govern follows (主人再拜｜宾答拜).
CLOSERS = ("稽首", "再拜", "答拜", "一拜", "三拜", "兴", "退", "许", "辞", "反位", "复位", "三让", "如初", "如之")
# What may follow a closing act inside its own clause (拜送爵, 退复位, 兴受, 许诺 …).
_GOVERNED = set("于自送受既洗降至辱赐之如以而者也矣乎焉曰爵觯觚散矢弓币玉诺位席酒命礼仪拜稽不嫁")
_FACING = re.compile(r"[东西南北][面上]")
_ORDER = re.compile(r"[东西南北]上")  # 北上, 西上: the order of a row closes its clause
# Where a place named after 于/自 may end (于门外, 于房中, 于阼阶东南) …
_PLACE_END = set("中上下内外东西南北间前后侧端左右方")
# … unless the place goes on (北墉, 阶上 …) or the phrase does (之, 者, 而 …).
_PLACE_GOES_ON = set("墉阶堂序楹塾荣房门室户牖夹坫庭隅闑阈帷幕席筵洗篚鼎之者而以也其阼")
_OPENERS = ("厥明", "明日", "夙兴", "质明", "昧爽", "羹定", "初昏", "旦明", "及期", "日中")  # time first: 明日｜朝筮尸
_NO_DOUBLE = set("子皇")  # 女子子, 皇皇者华 (the ode): a doubled character that is one word


_SUBJECT_RE = re.compile("|".join(sorted(SUBJECTS, key=len, reverse=True)))
_CLOSER_RE = re.compile("|".join(CLOSERS))


def _subject_spans(key: str) -> dict[int, int]:
    """Start → end of each person named in ``key`` (longest names first, not overlapping)."""
    return {m.start(): m.end() for m in _SUBJECT_RE.finditer(key)}


def _place_ends(key: str) -> set[int]:
    """Where a place phrase after 于/自 closes (迎于门外｜再拜, 即位于阼阶东｜西面)."""
    out: set[int] = set()
    n = len(key)
    for m in re.finditer("[于自]", key):
        for p in range(m.end() + 1, min(m.end() + 9, n)):
            if key[p - 1] not in _PLACE_END:
                continue
            if key[p] not in _PLACE_END and key[p] not in _PLACE_GOES_ON:
                out.add(p)
                break
            if _FACING.match(key, p) and key[p + 2 : p + 3] not in _PLACE_GOES_ON:
                out.add(p)  # 于门外｜西面
                break
    return out


def rule_ends(key: str, inside: set[int]) -> set[int]:
    """Clause ends in normalised, unpunctuated ``key`` by the heuristic for ritual prose."""
    n = len(key)
    people = _subject_spans(key)
    ended_by = {end: start for start, end in people.items()}  # a person's name ends here
    ends: set[int] = set()
    for i, end in people.items():  # a new actor: 主人再拜｜宾答拜, 戒宾｜宾出迎
        if i == 0:
            continue
        prev = ended_by.get(i)
        doubled = prev is not None and key[prev:i] == key[i:end]
        listed = prev is not None and (prev == 0 or key[prev - 1] not in _BINDS)  # 宾诸公卿: one list
        if doubled or (end < n and key[end] not in _NOUNISH and key[i - 1] not in _BINDS and not listed):
            ends.add(i)
    for i in range(1, n):
        ch = key[i]
        if ch == key[i - 1] and ch not in _NO_DOUBLE:  # 设扃鼏｜鼏若束
            ends.add(i)
        if i >= 2 and key[i - 2 : i] == key[i : i + 2]:  # 于雍爨｜雍爨在门东南
            ends.add(i)
        if ch in CONNECTIVES and i not in ended_by and key[i - 1] not in _NOT_BEFORE_CONNECTIVE:
            ends.add(i)  # 乃请宾, 遂命使者, 则入门左 (主人乃…: the actor's own 乃)
        if key.startswith("至于", i) and i not in ended_by and key[i - 1] not in "不未而以":
            ends.add(i)  # 揖入｜至于庙门
        if key[i : i + 2] in ("左执", "右执", "左还", "右还", "即位") and key[i - 1] not in _BINDS:
            if i not in ended_by and key[i - 1] not in "皆亦不而还":
                ends.add(i)  # 即筵坐｜左执觯, 主人朝服｜即位于…
    for m in _ORDER.finditer(key):  # 西上｜右几
        if m.end() < n and key[m.end()] not in "东西南北于之者":
            ends.add(m.end())
        if m.start() > 0 and key[m.start() - 1] not in "面东西南北" and key[m.start() - 1] not in _BINDS:
            ends.add(m.start())  # 主人筵于户西｜西上
    for m in _CLOSER_RE.finditer(key):  # 再拜｜宾答拜: nothing the act governs follows
        if m.end() < n and key[m.end()] not in _GOVERNED:
            ends.add(m.end())
    for m in re.finditer("曰", key):  # 史曰｜诺
        ends.add(m.end())
    for opener in _OPENERS:
        if key.startswith(opener):
            ends.add(len(opener))
    ends |= _place_ends(key)
    for i, end in people.items():  # 再拜宾宾答拜: the first 宾 is bowed to, the second bows
        if key[end : end + end - i] == key[i:end]:
            ends.discard(i)
    return {e for e in ends if 0 < e < n and e not in inside}
