"""Pinyin with tone marks for a headword: reviewed readings first, pypinyin for the rest."""

from __future__ import annotations

from functools import lru_cache

from ..text.normalize import normalize
from .lexicon import readings


@lru_cache(maxsize=4096)
def pinyin(word: str) -> str:
    """Space-separated pinyin of ``word`` (as written or normalised).

    The whole word is looked up in the reviewed table (``study/data/readings.yaml``); otherwise
    the longest reviewed words and characters inside it win over pypinyin's modern default.
    """
    from pypinyin import Style, lazy_pinyin  # imported on first use: it takes 0.15 s to load

    norm = normalize(word)
    table = readings()
    out: list[str] = []
    i = 0
    while i < len(norm):
        for size in range(len(norm) - i, 0, -1):
            piece = norm[i : i + size]
            if piece in table:
                out.append(table[piece])
                i += size
                break
        else:
            j = i
            while j < len(norm) and not any(norm[j : j + n] in table for n in range(1, len(norm) - j + 1)):
                j += 1
            out.extend(lazy_pinyin(norm[i:j], style=Style.TONE, errors="default"))
            i = j
    return " ".join(part for part in out if part.strip())


def _syllables(norm: str) -> list[str]:
    """One syllable per character of ``norm``: reviewed words (longest first), pypinyin's phrase
    data for the runs between them."""
    from pypinyin import Style, lazy_pinyin

    table = readings()
    out: list[str] = []
    i = 0
    while i < len(norm):
        for size in range(min(6, len(norm) - i), 0, -1):
            piece = norm[i : i + size]
            parts = table.get(piece, "").split()
            if len(parts) == size:
                out.extend(parts)
                i += size
                break
        else:
            j = i + 1
            while j < len(norm) and not any(len(table.get(norm[j : j + n], "").split()) == n for n in range(1, 7)):
                j += 1
            run = lazy_pinyin(norm[i:j], style=Style.TONE, errors=lambda s: list(s))
            out.extend(run if len(run) == j - i else [lazy_pinyin(c, style=Style.TONE)[0] for c in norm[i:j]])
            i = j
    return out


def reading_in(word: str, context: str = "") -> str:
    """The reading of ``word`` where it stands in ``context`` (the clause of the text around it):
    the context is read as a whole (reviewed words such as 右還 xuán, 齊衰 zī cuī, 十有 yòu win,
    then pypinyin's phrase data), and the syllables under ``word`` are returned."""
    norm, ctx = normalize(word), normalize(context)
    at = ctx.find(norm) if norm else -1
    if at < 0:
        return pinyin(word)
    return " ".join(_syllables(ctx)[at : at + len(norm)])
