"""Where a cloze blanks out terms in a passage (study/decks/cards.py makes the cloze notes): the
terms :func:`~study.decks.items.cloze_terms` chooses among those of the text, each occurrence that
overlaps no other and cuts no longer word of the reviewed lexicon (人 in 主人, 射 in 司射) and,
when asked, that one of the term's glosses explains; :func:`inside_word` is that check of a word.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from ..model import Term
from ..terms.lexicon import categories
from ..text.normalize import normalize
from .items import cloze_terms


def cloze_spans(
    text: str,
    terms: Sequence[Term],
    *,
    max_terms: int = 6,
    fits: Callable[[Term, int], bool] | None = None,
) -> list[tuple[int, int, Term]]:
    """Where to blank out glossed terms of ``terms`` in ``text``: the terms :func:`cloze_terms`
    chooses, every occurrence that overlaps no other and cuts no longer word, in text order (one
    cloze number per term). ``fits(term, index)``: whether a gloss explains the occurrence at
    ``index`` (one it does not is never blanked)."""
    key = normalize(text)

    def ok(t: Term, at: int) -> bool:
        return not inside_word(key, at, at + len(t.normalized)) and (fits is None or fits(t, at))

    inside = tuple(
        t
        for t in terms
        if t.normalized and t.normalized in key and (fits is None or any(ok(t, at) for at in _finds(key, t.normalized)))
    )
    taken = [False] * len(key)
    spans: list[tuple[int, int, Term]] = []
    for t in sorted(cloze_terms(key, inside, max_terms=max_terms), key=lambda t: -len(t.normalized)):
        at = key.find(t.normalized)
        while at != -1:
            end = at + len(t.normalized)
            if not any(taken[at:end]) and ok(t, at):
                taken[at:end] = [True] * (end - at)
                spans.append((at, end, t))
            at = key.find(t.normalized, end)
    return sorted(spans, key=lambda s: s[0])


def _finds(key: str, word: str) -> list[int]:
    out, at = [], key.find(word)
    while at != -1:
        out.append(at)
        at = key.find(word, at + len(word))
    return out


def inside_word(text: str, start: int, end: int) -> bool:
    """True if ``text[start:end]`` (one character) is part of a longer word of the reviewed lexicon
    there, as 人 in 主人 or 射 in 司射: blanking it alone would cut the word."""
    if end - start != 1:
        return False
    words = categories()
    for size in (2, 3, 4):
        for left in range(max(start - size + 1, 0), start + 1):
            if left + size <= len(text) and text[left : left + size] in words:
                return True
    return False
