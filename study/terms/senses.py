"""What a gloss may show: a prompt that does not give its answer away, and its place in words.

For the cards (study/decks/) and the quiz (study/learn/):

- :func:`masked_gloss` — the gloss with its headword masked (「士即衆賔」 for 衆賔 → 「士即～」), or
  ``None`` when masking would leave nothing to ask (the gloss is the headword itself);
- :func:`gloss_place` — 「蔡德晉 · 卷二 士昏禮 · 納采 · 第23行」: commentator, 卷, rite, stage, line.
"""

from __future__ import annotations

import re

from ..model import Gloss
from ..text.normalize import normalize

MASK = "～"
_NUMERALS = "〇一二三四五六七八九"


def masked_gloss(term: str, gloss: str) -> str | None:
    """``gloss`` with every occurrence of ``term`` (matched on the normalised text) replaced by
    ～; a one-character headword is masked only as a whole word inside a longer gloss."""
    norm_t, norm_g = normalize(term), normalize(gloss)
    if not norm_t or norm_t not in norm_g:
        return gloss
    out, i = [], 0
    while i < len(gloss):
        if norm_g.startswith(norm_t, i):
            out.append(MASK)
            i += len(norm_t)
        else:
            out.append(gloss[i])
            i += 1
    masked = "".join(out)
    return None if not masked.replace(MASK, "").strip() else masked


def juan_of(file: str | None) -> str | None:
    """卷 of a Kanripo file of the book (KR1d0044_002.txt → 卷二)."""
    m = re.search(r"_(\d{3})\.txt$", file or "")
    if not m or int(m[1]) == 0:
        return None
    n = int(m[1])
    tens, units = divmod(n, 10)
    words = ("十" if tens == 1 else (_NUMERALS[tens] + "十" if tens else "")) + (_NUMERALS[units] if units else "")
    return f"卷{words}"


def gloss_place(g: Gloss) -> str:
    """Who said it and where, in words a student reads (never a file name)."""
    parts = [g.speaker or "蔡德晉"]
    if g.line is None:
        return parts[0]
    where = " ".join(x for x in (juan_of(g.file), g.rite) if x)
    parts += [x for x in (where, g.stage) if x]
    parts.append(f"第{g.line}行")
    return " · ".join(parts)
