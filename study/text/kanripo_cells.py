"""The empty cells of a double-line note (``(RIGHT/LEFT)``): a break between notes, a cell put in
the wrong column, or a lacuna.

The printed page leaves one cell blank where a note ends and the next begins (「…以俟射也　敖君善曰…」).
In a few places per 卷 the transcription put that blank in the other column of the same printed
line and the character there in its place: 「立以俟射也則敖君/善曰侯之中  獲也」 is the page's
「立以俟射也　敖君/善曰侯之中則獲也」 (敖君善: 「侯之中則獲也」), a cell and a character swapped at
the same height. Read as written, the cell cuts a commentator's sentence and his tail goes to the
next speaker, while the character stands at the end of the note before. Such a cell is put back
where the page has it when its column's words run on across it and the character stands, in
the other column, where a note ends or the next one opens (a NAME曰, 按, 此 …): 218 of the 501
cells of the book's notes; 279 are breaks between notes. A cell that neither ends a note nor has
a character to trade is a lacuna of the text: shown as the edition marks one (□), it keeps the
note and its speaker whole (4 in the book).
"""

from __future__ import annotations

import re
from functools import lru_cache

from .commentary import commentators
from .normalize import normalize

CELL = "\u3000"  # a break between two notes, as the reader writes an empty cell
LACUNA = "□"  # a gap inside a sentence, as the editions mark one
_ENDS = "也矣耳焉乎哉歟欤云爾尔"  # the particles a note ends on
_SURE = r"○|愚按|又按|今按|按"  # openings of a note that nothing else begins with


@lru_cache(maxsize=1)
def _openers() -> tuple[re.Pattern[str], re.Pattern[str]]:
    names = "|".join(re.escape(n) for n in commentators())
    sure = re.compile(rf"({_SURE}|({names})(曰|谓))")
    # a new note: a commentator, a book quoted (周禮, 傳曰), 舊説, 此 (「此比三耦也」), X氏曰 …
    any_ = re.compile(rf"({_SURE}|旧说|此|({names})(曰|谓)|(传|记|注|疏)曰|周礼|周官|礼记|尔雅|[^\u3000曰]{{2,4}}曰)")
    return sure, any_


def _ends(before: str) -> bool:
    return not before or before[-1] in _ENDS


def _opens(after: str, *, sure: bool = False) -> bool:
    """True if ``after`` opens a note (a commentator's name cut by the line's end counts)."""
    if not after:
        return True
    norm = normalize(after)
    if _openers()[0 if sure else 1].match(norm):
        return True
    return len(norm) < 6 and any((n + "曰").startswith(norm) for n in commentators())


def mend_columns(right: str, left: str) -> tuple[str, str]:
    """The two columns of one note group, each empty cell written :data:`CELL`, with displaced
    cells put back and lacunae written :data:`LACUNA`. Columns keep their lengths."""
    cols = [list(right), list(left)]
    placed: set[tuple[int, int]] = set()  # cells put back: breaks, not read again
    for ci in (0, 1):
        a, b = cols[ci], cols[1 - ci]
        for k, ch in enumerate(a):
            if ch != CELL or (ci, k) in placed:
                continue
            text_a, text_b = "".join(a), "".join(b)
            before = (text_a[:k] if ci == 0 else "".join(cols[0]) + text_a[:k]).split(CELL)[-1]
            after = (text_a[k + 1 :] + ("".join(cols[1]) if ci == 0 else "")).split(CELL)[0]
            ends, opens = _ends(before), _opens(after)
            if ends and opens:
                continue  # a break between notes
            other = b[k] if k < len(b) else ""
            if other and other not in (CELL, LACUNA):
                b_before = (text_b[:k] if ci == 1 else "".join(cols[0]) + text_b[:k]).split(CELL)[-1]
                b_after = (text_b[k + 1 :] + ("".join(cols[1]) if ci == 1 else "")).split(CELL)[0]
                mid = not ends and not opens
                if (
                    _opens(b_after, sure=True)
                    or (_ends(b_before) and _opens(b_after))
                    or (mid and (not b_before or _ends(b_before) or _opens(b_after)))
                ):
                    a[k], b[k] = other, CELL  # the cell stood in the other column
                    placed.add((1 - ci, k))
                    continue
            if not (ends or opens):
                a[k] = LACUNA
    return "".join(cols[0]), "".join(cols[1])
