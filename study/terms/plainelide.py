"""A phrase of the text quoted without its 之 (or 而, 敢) (path ``elided-head``, weighed apart by
the gate, study/terms/gate.py).

The commentary opens a clause with the words of the text it explains and sometimes drops their
之: the text writes 「若君賜之食」「若君賜之爵」, the commentary 「君賜食謂侍食于君也」
「賜爵酌酒以賜也」; so with 而 and 敢 (「横而奉之」 → 「横奉兩手横舉也」, 「不敢顧辭」 →
「不顧辭不迴顧君告辭也」). Other characters put back read narration (「至于禰」 → 「至禰告反也」,
「祭于豆」 → 「祭豆籩及酒」) and are not tried. The walk (study/terms/plainwalk.py) looks the headword up in the text as
written and finds only 君賜 or 賜 (「賜 → 爵酌酒以賜」, a run-on); this reading takes the two or
three characters that, with one of those put back between two of them, are a phrase of the passage, and
the definiens closing the clause (after 謂 when there is one).

Refused: a longer phrase (four characters or more: a clause of the text, 「楹東受命」), and a
definiens that says where someone stands (「君南面臣北面禮也」: a statement about positions).
Called by study/terms/plain.py at each clause start; where it reads a gloss, the walk's shorter
headword at that place is dropped.

Also ``doer-phrase``: a clause quoting a phrase of the text whole that opens with a doer, then
saying after 謂 who that doer is (「一人拜受爵謂太師也」).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .glossrules import Context, person
from .plaincheck import OPEN_BAD, fault, gloss_ok, head_ok
from .plainfound import Found

MAX_GLOSS = 12
DROPPED = "之而敢"  # the characters a quotation of the text leaves out


def _full(word: str, ctx: Context) -> str:
    """The phrase of the passage ``word`` quotes with one character of DROPPED left out ('' if none)."""
    return next(
        (full for c in DROPPED for i in range(1, len(word)) if (full := word[:i] + c + word[i:]) in ctx.classical),
        "",
    )


def elided_head(norm: str, start: int, end: int, closed: bool, ctx: Context) -> str:
    """The two or three characters opening the clause that are a phrase of the passage with a 之
    (而, 敢) taken out, longer than any phrase of the text opening it ('' when there are none)."""
    if not closed:
        return ""
    for size in (3, 2):
        word = norm[start : start + size]
        if len(word) < size or word in ctx.classical or not head_ok(word):
            continue
        if _full(word, ctx):
            return word
    return ""


def elided(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context, walked: str
) -> list[Found]:
    """「君賜食謂侍食于君也」: the gloss of a phrase of the text quoted without its 之, when it is
    longer than ``walked`` (the headword the walk found at the clause start)."""
    word = elided_head(norm, start, end, closed, ctx)
    if not word or len(word) <= len(walked):
        return []
    g_start = start + len(word) + norm.startswith("谓", start + len(word))
    gloss = norm[g_start:end]
    marker = "谓" if g_start > start + len(word) else ""
    where = ctx.classical.find(_full(word, ctx))
    if not 2 <= len(gloss) <= MAX_GLOSS or re.search("[东西南北]面", gloss):
        return []
    if fault(word, gloss, marker, closed, ctx, where):
        return []
    formula = "wei" if marker else "ye"
    return [Found(text[start : start + len(word)], text[g_start:end], formula, start, speaker, "end", "elided-head")]


def doer_of_phrase(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context
) -> Iterator[Found]:
    """「一人拜受爵謂太師也」「後者徒相謂相太師少師者也」 (path ``doer-phrase``): a clause quoting a
    phrase of the text that opens with a doer (…者, 一人 …) and saying after 謂 who that is — a
    person, or a description closed by 者; the doer is glossed (not what they do after 謂:
    「襚者降謂下堂」, nor a sentence: 「擯者請受謂主君欲親受」)."""
    m = re.compile(r"(.{3,8}?)谓(.{1,10})$").match(norm, start, end)
    if not closed or m is None or m[1] not in ctx.classical:
        return
    doer = re.match(r"..?者|[一二三四]人", m[1])
    gloss = m[2]
    if doer is None or len(doer[0]) >= len(m[1]) or doer[0][0] in OPEN_BAD:
        return  # 「後者」: 後 may not stand alone, but opens a doer
    if gloss_ok(gloss) and (person(gloss) or gloss.endswith("者")):
        term = text[start : start + len(doer[0])]
        yield Found(term, text[m.start(2) : end], "wei", start, speaker, "end", "doer-phrase")
