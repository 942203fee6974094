"""A gloss at the end of a clause read on the book's own evidence (path ``tail-attested``, weighed
apart by the gate, study/terms/gate.py).

「…X Y也」 with X a word of the passage and Y up to three characters closes many clauses of the
commentary whose start is not X, because the glosses before it carry no 也: 「…亦稽首辭如使者宰冢宰也」,
「…廟謂殯宫爨竈也」, 「尻尾骨屬連也」. Read everywhere, the shape is mostly narration (「…不敢復溷主人將行
也」 is a gloss, 「…故自東壁出由西階升堂也」 is not; about 12 right for 190 wrong on the development
chapters). It is read only where the book glosses the same pair confidently somewhere else
(study/terms/bookpairs.py): 爨，竈也 opens a clause in 卷二, so 「廟謂殯宫爨竈也」 in 卷十四 reads 爨 = 竈 too.
Not where X stands just before, inside the definiens of the word before (「中侯中間也」: 中 is 侯中間, the
middle of the target, not 間).

A gloss read before the tail in the same clause whose definiens ran on into it ends where the tail
begins (「廟謂殯宫爨竈也」: 廟 = 殯宫, not 殯宫爨竈; 「虞喪祭名虞安也」: 虞 = 喪祭名), on a path of its own,
``tail-cut`` (:func:`cut_before`).

Called by study/terms/plain.py once a segment's clauses are read.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence, Set
from dataclasses import replace

from .bookpairs import Pair
from .glossrules import Context
from .plaincheck import fault, gloss_ok
from .plainfound import Found

MAX_HEAD = 3
MAX_GLOSS = 3


def attested_tails(
    text: str,
    norm: str,
    clauses: list[tuple[int, int, bool, str | None]],
    ctx: Context,
    pairs: Set[Pair],
) -> Iterator[Found]:
    """The clause-end glosses of a segment whose pair the book reads confidently elsewhere
    (``clauses``: start, end, closed by 也, speaker, as read by study/terms/plain.py)."""
    if not pairs:
        return
    for start, end, closed, speaker in clauses:
        if not closed:
            continue
        for j in range(max(start + 1, end - MAX_GLOSS - MAX_HEAD), end - 1):
            head = next(
                (
                    norm[j : j + n]
                    for n in range(MAX_HEAD, 0, -1)
                    if j + n < end
                    and end - j - n <= MAX_GLOSS
                    and (norm[j : j + n], norm[j + n : end]) in pairs
                    and norm[j : j + n] in ctx.classical
                ),
                "",
            )
            if not head or head in norm[max(start, j - 2) : j]:
                continue  # 「中侯中間也」: the word just said, its definiens holding it
            gloss = norm[j + len(head) : end]
            if fault(head, gloss, "", True, ctx, ctx.classical.find(head)):
                continue
            yield Found(text[j : j + len(head)], text[j + len(head) : end], "ye", j, speaker, "end", "tail-attested")
            break


def cut_before(text: str, norm: str, found: Sequence[Found], tails: Sequence[Found], ctx: Context) -> list[Found]:
    """``found`` with each definiens that runs on into a tail of ``tails`` cut where the tail begins."""
    out = []
    for f in found:
        at = text.find(f.gloss, f.offset + len(f.term))
        tail = next((t for t in tails if at >= 0 and at < t.offset < at + len(f.gloss)), None)
        if tail is None:
            out.append(f)
            continue
        gloss = norm[at : tail.offset]
        head = norm[f.offset : f.offset + len(f.term)]
        if len(gloss) >= 1 and gloss_ok(gloss) and not fault(head, gloss, "", False, ctx, ctx.classical.find(head)):
            out.append(replace(f, gloss=text[at : tail.offset], how="attested", path="tail-cut"))
    return out
