"""An example sentence cut around its term: the book is unpunctuated, so a "sentence" of a stage's
notes (記) may run for a hundred characters; an example shows about :data:`EXAMPLE_CHARS` of them
around the term (… where cut), never cutting a word of the reviewed lexicon nor a mark."""

from __future__ import annotations

from ..text.display import clear_of_marks
from ..text.normalize import normalize
from .lexicon import categories

EXAMPLE_CHARS = 32  # an example longer than this is cut around the term
ELLIPSIS = "…"


def snippet(text: str, at: int, size: int, limit: int = EXAMPLE_CHARS) -> tuple[str, int]:
    """``text`` cut to about ``limit`` characters around ``text[at:at + size]`` (… where cut), and
    where the term stands in the result."""
    if len(text) <= limit:
        return text, at
    side = max((limit - size) // 2, 4)
    start = max(0, min(at - side, len(text) - limit))
    end = min(len(text), max(at + size + side, start + limit))
    key = normalize(text)
    while 0 < start and cuts_word(key, start):  # never cut a word of the lexicon
        start -= 1
    while end < len(text) and cuts_word(key, end):
        end += 1
    start, end = clear_of_marks(text, start, end)
    head = ELLIPSIS if start else ""
    return head + text[start:end] + (ELLIPSIS if end < len(text) else ""), at - start + len(head)


def cuts_word(key: str, pos: int) -> bool:
    """Whether cutting ``key`` before ``pos`` splits a word of the reviewed lexicon (2–4 characters)."""
    words = categories()
    return any(key[i : i + n] in words for n in (2, 3, 4) for i in range(max(pos - n + 1, 0), pos) if i + n <= len(key))
