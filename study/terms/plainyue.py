"""The 曰 formulas of unpunctuated commentary: ``Y曰X`` / ``Y謂之X``, X a word of the text (1–3
characters), Y the definiens (≤ 8 characters) running back to the clause start or to the end of the
previous formula (「推手曰揖引手曰厭」), or opening after a 者 or a 説; and where X is followed by a new
statement without 也 (「乾禽謂之腒夏必用雉之乾者」) — also the second formula of a pair, its Y (two to
four characters, not ending in a particle) opening right after the first one's X (「推手曰揖引手曰厭
厭之使入」, path ``…-open-series``); Y opens after a question closing the sentence before it
(「何獨牛羊稱牢乎羊小于牛曰少」, path ``…-asked``). Called by study/terms/plain.py on each clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .glossrules import Context, unsound
from .lexicon import category_of
from .plaincheck import GLOSS_CLOSE_BAD, SPEECH, gloss_ok, has_act, head_ok
from .plainwalk import OPENERS


def read_yue(norm: str, start: int, end: int, ctx: Context) -> Iterator[tuple[int, int, int, int, str]]:
    """(y_start, y_end, x_start, x_end, formula) of each Y曰X / Y谓之X in a clause."""
    y_start = start
    read_before = False  # a formula of this clause was read and Y opens right after its X
    for m in re.finditer(r"谓之|曰", norm[start:end]):
        at, after = start + m.start(), start + m.end()
        if at < y_start:
            continue
        x = ""
        for size in (3, 2, 1):
            word = norm[after : after + size]
            if after + size <= end and (word in ctx.classical or word in ctx.rite_text):
                x = word
                break
        marker_after = re.match("犹言|犹|谓|即", norm[after + len(x) :])
        if len(x) > 1 and marker_after and marker_after[0] != "犹言":  # 犹言 glosses a phrase
            x = x[:-1]  # 「謂之羮定猶熟」: the marker explains the word just before it (定), not 羮定
        y_from = y_start
        cut = max(norm.rfind("者", y_start, at - 1), norm.rfind("说", y_start, at - 1))
        if at - y_from > 8 and cut >= 0 or norm[cut : cut + 1] == "说":
            y_from = cut + 1  # 「幣合于法度者十端曰束」「舊説推手曰揖」: Y opens after a 者 or a 説
        if norm.startswith("既", y_from) and at - y_from > 2:
            y_from += 1  # 「米水謂之潘既經温煑謂之渜」: 既 (once) opens the clause, not the definiens
        asked = norm.rfind("乎", y_from, at - 1)
        if asked >= 0:  # 「何獨牛羊稱牢乎羊小于牛曰少」: a question closes the sentence before Y
            y_from = asked + 1
        y = norm[y_from:at]
        tail = norm[after + len(x) : end]
        closes = (
            not tail
            or tail.startswith(OPENERS)
            or re.match("^.?(谓|犹|即)", tail) is not None  # 「體全曰純謂左右胖合而升之」「羮定猶熟」
            or re.match(r"^.{1,8}?(曰|谓之)", tail) is not None
            or _opens_word(tail, ctx)  # 「炊黍稷曰饎饎爨在堂」: the next word of the text follows
        )
        formula = ("yue" if m.group(0) == "曰" else "weizhi") + ("-asked" if asked >= 0 else "")
        if x and not closes:
            # 「乾禽謂之腒夏必用雉之乾者」「疾甚曰病掃除外内之穢惡」: X closes the formula and a new
            # statement follows without 也 (not a 者: 「始虞謂之祫事者以死者神既離散」 gives a reason;
            # not words said: 「勞賓曰道路悠逺」).
            x = _open_head(norm, after, end, ctx)
            formula += "-open"
            speech = re.search("[则亦又]曰", tail) is not None  # 「勞賓曰道路悠逺…勞介則曰二三子甚勞」
            series = (
                bool(x)
                and read_before
                and y_from == y_start
                and 2 <= at - y_from <= 4
                and norm[at - 1] not in GLOSS_CLOSE_BAD  # 「執之曰燭」「壺貴正而曰哨」: not a definiens
            )
            if (
                not x
                or speech
                or norm.startswith("者", after + len(x))
                or not (_open_definiens(norm, y_from, at, start, ctx) or series)
            ):
                y_start = after + len(x)
                continue
            if series and not _open_definiens(norm, y_from, at, start, ctx):
                formula += "-series"  # 「推手曰揖引手曰厭厭之使入」: the second of a pair read after the first
        sound = not unsound(x, y, has_act(x), quoted=True) if x and y else False
        if x and 1 <= len(y) <= 8 and head_ok(x) and gloss_ok(y) and not y.endswith(SPEECH) and sound:
            if category_of(y) != "role" and (y + m.group(0) + x) not in ctx.classical:
                yield y_from, at, after, after + len(x), formula
                y_start, read_before = after + len(x), True
                continue
        y_start, read_before = after + len(x), False  # 「大問曰聘小聘曰問」: the next definiens opens after X


def _open_head(norm: str, after: int, end: int, ctx: Context) -> str:
    """X of a Y曰X / Y謂之X followed by a new statement: one character of the passage or of the rite
    (「衣裳具謂之稱明衣」 glosses 稱), or a word of the rite's name in its introduction (「羊豕曰少牢」)."""
    for size in (2, 1):
        word = norm[after : after + size]
        if size > 1 and not (ctx.intro and word in ctx.classical[: ctx.classical.find("\u3000")]):
            continue  # 「手執曰舉肺為氣之主」: a longer word of the text runs on into the next statement
        longer = norm[after : after + size + 1]
        if longer in ctx.rite_text or longer in ctx.classical:
            continue  # 「君天下曰天子」: the word goes on (天子, 中離, 寡君), where it ends is not known
        if after + size <= end and head_ok(word) and (word in ctx.classical or size == 1 and word in ctx.rite_text):
            return word
    return ""


def _open_definiens(norm: str, y_from: int, at: int, start: int, ctx: Context) -> bool:
    """Y of such a formula opens the clause (or follows a 者 / 説 that closes what went before) and
    is short: a definiens, not the end of a sentence running into 曰."""
    y = norm[y_from:at]
    if _quoting(y):
        return False
    return (y_from == start or norm[y_from - 1] in "者说") and 2 <= at - y_from <= 6


# Who is quoted before a 曰: a book or a chapter (「戴氏記曰」「大司樂職曰」「白虎通曰」「特牲曰」),
# a master (「曾子曰」), or the words of a speech (「請賔其辭卒曰」).
SOURCES = ("孟子", "曾子", "孔子", "子夏", "特牲", "少牢")


def _quoting(y: str) -> bool:
    return y[-1:] in set("记传职通礼经注疏志语易诗书篇") or y in SOURCES or any(ch in y for ch in "辞云言告命问答对")


def _opens_word(tail: str, ctx: Context) -> bool:
    """The text after a formula opens with a word of the classical text (of two characters or
    more, or one the passage writes alone), as the next gloss of a commentary does."""
    for size in (3, 2):
        if len(tail) > size and tail[:size] in ctx.classical and head_ok(tail[:size]):
            return True
    return False


# 「大問曰聘小聘曰問」: two Y曰X in a row whose definientia name each other's word, each with a
# qualifier of its own (大 / 小).
CROSSED = re.compile(r"(.)(..?)曰(..?)(.)\3曰\2")


def crossed(norm: str, start: int, end: int, ctx: Context) -> Iterator[tuple[int, int, int, int, str]]:
    """(y_start, y_end, x_start, x_end, formula) of both formulas of a crossed pair: each word is
    glossed by the other qualified, so neither definiens is a word said (問) or a phrase of the
    text quoted (the 記 of 聘禮 writes 小聘曰問 itself) — the pair says so of both."""
    for m in CROSSED.finditer(norm, start, end):
        one, other = m[3], m[2]
        if m[1] == m[4] or not all(head_ok(w) and w in ctx.classical for w in (one, other)):
            continue
        if not gloss_ok(m[1] + other) or not gloss_ok(m[4] + one):
            continue
        second = m.start(4)
        yield m.start(1), m.start(1) + 1 + len(other), m.start(3), m.start(3) + len(one), "yue-cross"
        yield second, second + 1 + len(one), m.end() - len(other), m.end(), "yue-cross"
