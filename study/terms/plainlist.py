"""A list of single-character words of the text glossed together: ``AB皆Y也`` (a path of its own,
``jie-list``, so the gate (study/terms/gate.py) weighs it apart).

The commentary names two words of the text one after the other and glosses them all with
one short word closing the clause: 「令吉皆善也」「介景皆大也」「嚌啐皆嘗也」, or at the end of a
clause, 「司馬司士皆公有司刲擊皆殺也」 (a third is not read: 「公有司刲擊」, 司 is of 有司). Each word stands alone in the text (the
pair is not itself a word of it, and the character before the list does not join its first word:
「揖讓升皆客禮」 is 揖讓 and 升, the act told), and Y is a gloss in other words than the text's —
not a negation, a direction, a rite or an act the text names (「使介皆退」「受授皆北面」
「受送皆不拜」: what they all do, narration).

Called by study/terms/plain.py on each clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .glossrules import Context
from .plaincheck import NEGATION, gloss_ok, head_ok
from .plainfound import Found

DIRECTIONS = set("东西南北左右上下前后面")


def jie_list(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context
) -> Iterator[Found]:
    """「刲擊皆殺也」: each of the two one-character words of the text before 皆 glossed by Y, the
    one to three characters closing the clause."""
    m = re.compile("皆(.{1,3})$").search(norm, start, end)
    if not closed or m is None:
        return
    gloss = m[1]
    if not gloss_ok(gloss) or gloss in ctx.classical or gloss[0] in NEGATION or set(gloss) & DIRECTIONS:
        return
    words: list[int] = []
    at = m.start() - 1
    while at >= start and len(words) < 2:
        ch = norm[at]
        if not (head_ok(ch) and ch in ctx.classical) or ch in gloss:
            break
        if words and ch + norm[words[-1]] in ctx.classical:
            return  # 「揖讓升」: two characters that make one word of the text
        words.append(at)
        at -= 1
    if len(words) < 2:
        return
    first = words[-1]
    if first > start and norm[first - 1] + norm[first] in ctx.classical:
        return  # the character before the list joins its first word
    for pos in reversed(words):
        yield Found(text[pos], text[m.start(1) : end], "ye", pos, speaker, "end", "jie-list")
