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
