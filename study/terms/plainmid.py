"""Narrow readings of unpunctuated commentary for words the walk (study/terms/plainwalk.py) cannot
take as headwords, each a path of its own so the gate (study/terms/gate.py) weighs it apart:

- ``wei-zhi``: ``X之謂Y`` at the start of a clause, X之 a phrase of the passage (a verb and the
  之 of its object, which the walk refuses at a headword's end): 「實之謂至尊所酌酒以實於爵也」,
  「釋之謂解去之也」. Y runs to the 也 closing the clause, or to a 所謂 that quotes a saying
  (「先見之謂先拜見之禮所謂主人敬客則先拜客也」: what follows is the saying, not the gloss); not a
  definiens holding a new statement (「郤之謂折陳時美面向上今美面向下也」: narration) nor a clause
  of the text (卒射右挾之).

Called by study/terms/plain.py on each clause.
"""

from __future__ import annotations

from collections.abc import Iterator

from .glossrules import Context
from .plaincheck import fault, gloss_ok, head_ok
from .plainfound import Found
from .plainwalk import OPENERS

MAX_HEAD = 4  # X of at most three characters and its 之
MAX_GLOSS = 12


def wei_zhi(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context
) -> Iterator[Found]:
    """「實之謂至尊所酌酒以實於爵也」: X之謂Y opening a clause closed by 也."""
    if not closed:
        return
    at = norm.find("之谓", start, min(end, start + MAX_HEAD + 1))
    if at <= start:
        return
    head = norm[start : at + 1]
    if ctx.classical.find(head) < 0 or not head_ok(head[:-1]) or "之" in head[:-1]:
        return
    g_start = at + 2
    g_end = norm.find("所谓", g_start + 2, end)
    g_end = end if g_end < 0 else g_end
    gloss = norm[g_start:g_end]
    if not 1 <= len(gloss) <= MAX_GLOSS or not gloss_ok(gloss) or gloss == head:
        return
    if any(gloss.startswith(OPENERS, i) for i in range(2, len(gloss))):
        return  # 「郤之謂折陳時美面向上今美面向下也」: a new statement inside, narration of the act
    # 「釋之謂解去之也」: a definiens that takes the same 之 is checked without it, as the verb's
    check = (head[:-1], gloss[:-1]) if len(gloss) >= 2 and gloss.endswith("之") else (head, gloss)
    if fault(*check, "谓", g_end == end, ctx, ctx.classical.find(head), frozenset({"form"})):
        return
    yield Found(text[start : at + 1], text[g_start:g_end], "wei", start, speaker, "end", "wei-zhi")
