"""「甑所以炊甗所以盛米匕所以出飯敦所以盛飯」「柶所以扱取醴者」「苞所以裹遣奠羊豕之體者」: a thing of the
text glossed by what it is used for (所以…) — the 器 formula of unpunctuated commentary, a path of
its own (k:qi:walk-tool), measured by the gate on its own.

The thing opens the clause (or a description closed by 者 before it, or follows the last such
gloss in a chain; it may be written 「X者所以…」)
and is no act: 「設洗所以備獻」「張旃所以表其至」「擇日而祭所以安神」 tell what an act is for, a reason.
Its definiens runs to 也, to a closing 者 (kept: 「所以藉棺者」), or to the next thing of the chain.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .glossrules import Context
from .lexicon import category_of
from .plaincheck import gloss_ok, has_act, head_ok

MAX_USE = 10  # characters after 所以


def _thing(norm: str, at: int, start: int, ctx: Context) -> int:
    """Where a thing of the text, one character, ends at ``at`` (-1: none). Not two: 「張旜所以表
    其至」「布幕所以承幣」 (an act and its thing, or a thing with its stuff) were wrong as often."""
    head = norm[at - 1 : at]
    if at - 1 >= start and head in ctx.classical and head_ok(head) and not has_act(head):
        return at - 1 if category_of(head) != "role" else -1
    return -1


def tools(norm: str, start: int, end: int, closed: bool, ctx: Context) -> Iterator[tuple[int, int, int, int, str]]:
    """(head start, head end, definiens start, definiens end, how) of each 「X所以Y」 in a clause."""
    found = [start + m.start() for m in re.finditer("所以", norm[start:end])]
    heads: dict[int, int] = {}
    chain = start  # where the next thing of a chain may begin
    for at in found:
        edge = at - 1 if norm[at - 1 : at] == "者" else at  # 「杖者所以扶身」
        h = _thing(norm, edge, start, ctx)
        if h < 0 or h != chain and not (not heads and norm[h - 1 : h] == "者" and h - start >= 3):
            break  # 「廩人掌炊黍稷者甑所以炊」: a chain may open after a description closed by 者
        heads[at] = h
        nxt = next((f for f in found if f > at), None)
        h2 = _thing(norm, nxt, at + 3, ctx) if nxt is not None else -1
        chain = h2 if h2 >= 0 else end
    for at, h in heads.items():
        edge = at - 1 if norm[at - 1 : at] == "者" else at
        g_start = at
        later = [heads[f] for f in heads if f > at]
        g_end, how = (later[0], "anchor") if later else (end, "end" if closed else "next")
        zhe = norm.find("者", at + 3, g_end)
        if zhe >= 0:
            g_end, how = zhe + 1, "zhe"
        opener = re.search("此|故|既|则|乃|盖|又|皆|亦", norm[at + 3 : g_end])
        if opener:  # 「敦所以盛飯此四者…」: a new statement opens
            g_end, how = at + 3 + opener.start(), "opener"
        use = norm[at + 2 : g_end].removesuffix("者")
        if how == "next" or not 1 <= len(use) <= (4 if how == "opener" else MAX_USE) or not gloss_ok(use):
            continue
        yield h, edge, g_start, g_end, how
