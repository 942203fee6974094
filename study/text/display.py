"""The text as a reader sees it: the one function every card field, export cell and quiz
question passes the book's words through.

The book marks some sentence ends with a small 句 (Kanripo's ``(句/)``; 读 for a pause); the
reader keeps them in the model as 【句】 and 【读】, because clause detection
(:mod:`.clauses`) and matching read them. Shown, each is a full-width comma 「，」, the mark a
reader of a punctuated edition expects there; a mark beside other punctuation adds nothing and
is dropped. Everything else is shown as written (original characters kept).

    >>> shown("具【句】羮定【句】甸人陳鼎七")
    '具，羮定，甸人陳鼎七'
    >>> shown("賔對【句】。")
    '賔對。'
"""

from __future__ import annotations

import re

MARKS = ("【句】", "【读】", "【讀】")
SHOWN = "，"
_PUNCT = "，。；：！？、,.;:!?"
_MARK = re.compile("|".join(map(re.escape, MARKS)))


def _replace(m: re.Match[str]) -> str:
    text, start, end = m.string, m.start(), m.end()
    before = text[start - 1] if start else ""
    after = text[end] if end < len(text) else ""
    if (before and before in _PUNCT) or (after and after in _PUNCT) or _MARK.match(text, end):
        return ""  # a mark beside punctuation (or before another mark) adds nothing
    return SHOWN


def shown(text: str) -> str:
    """``text`` as shown to a reader: the internal marks (【句】, 【读】) as 「，」."""
    return _MARK.sub(_replace, text) if "【" in text else text


def clear_of_marks(text: str, start: int, end: int) -> tuple[int, int]:
    """``(start, end)`` of a cut of ``text`` moved inwards so that it neither splits a mark nor
    opens or closes on one (「…【句」, 「句】賔降…」 and 「，賔降…」 are no way to show a snippet)."""
    for m in _MARK.finditer(text, max(start - 2, 0), end + 2):
        if 0 < start and m.start() <= start < m.end():
            start = m.end()
        if end < len(text) and m.start() < end <= m.end():
            end = m.start()
    return start, max(start, end)


def has_mark(text: str) -> bool:
    """Whether ``text`` still holds an internal mark (or a piece of one) a reader should not see."""
    return bool(_MARK.search(text)) or any(piece in text for piece in ("【句", "句】", "【读", "读】", "【讀", "讀】"))
