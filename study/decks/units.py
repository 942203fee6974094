"""Atomic units of a passage: groups of sentences of at most ~60 characters, each with the part of
the modern translation that renders it.

A passage's classical sentences (cut at 。；！？) are aligned to its translation's sentences (cut
at 。！？) in order: one to one when the counts agree, else by a small length-based alignment in
the manner of Gale and Church (beads of 1–3 sentences a side, cost the distance of the length
ratio from the passage's own). Beads are then grouped, in order, while both sides stay within
:data:`UNIT_CHARS` classical and :data:`TRANSLATION_CHARS` translation characters. A unit longer
than :data:`ATOMIC_CHARS` (one long sentence) is kept whole, but taught only as a cloze
(:attr:`Unit.atomic`).
A passage without punctuation is one unit.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass

from ..model import Passage

UNIT_CHARS = 40  # classical characters a unit groups at most (a longer sentence stays whole)
TRANSLATION_CHARS = 60  # modern characters a unit's translation groups at most
ATOMIC_CHARS = (60, 80)  # (classical, translation) at most for a passage card; longer: cloze only
_CLASSICAL = re.compile(r"[^。；！？]+[。；！？」』]*")
_MODERN = re.compile(r"[^。！？]+[。！？」』”]*")
_BEADS = ((1, 1), (1, 2), (2, 1), (2, 2), (1, 3), (3, 1))


@dataclass(frozen=True)
class Unit:
    """Sentences ``first``..``last`` (indices among the passage's sentences) and their rendering."""

    first: int
    last: int
    text: str
    translation: str | None

    @property
    def key(self) -> str:
        return f"{self.first}-{self.last}"

    @property
    def atomic(self) -> bool:
        """Short enough to be recalled whole (a passage card); else only clozed."""
        return len(self.text) <= ATOMIC_CHARS[0] and len(self.translation or "") <= ATOMIC_CHARS[1]


def sentences(text: str, pattern: re.Pattern[str] = _CLASSICAL) -> list[str]:
    return [m.group(0).strip() for m in pattern.finditer(text) if m.group(0).strip(" \u3000」』”")]


def _align(cs: list[str], ts: list[str]) -> list[tuple[int, int]] | None:
    """Bead sizes ``(classical, translation)`` covering both lists in order, or None."""
    if len(cs) == len(ts):
        return [(1, 1)] * len(cs)
    if not cs or not ts:
        return None
    ratio = sum(map(len, ts)) / max(sum(map(len, cs)), 1)
    inf = math.inf
    cost = [[inf] * (len(ts) + 1) for _ in range(len(cs) + 1)]
    back: list[list[tuple[int, int] | None]] = [[None] * (len(ts) + 1) for _ in range(len(cs) + 1)]
    cost[0][0] = 0.0
    for i in range(len(cs) + 1):
        for j in range(len(ts) + 1):
            if cost[i][j] == inf:
                continue
            for a, b in _BEADS:
                if i + a > len(cs) or j + b > len(ts):
                    continue
                lc, lt = sum(map(len, cs[i : i + a])), sum(map(len, ts[j : j + b]))
                c = cost[i][j] + abs(math.log((lt + 1) / (lc * ratio + 1))) + 0.3 * (a + b - 2)
                if c < cost[i + a][j + b]:
                    cost[i + a][j + b], back[i + a][j + b] = c, (a, b)
    if cost[len(cs)][len(ts)] == inf:
        return None
    beads, i, j = [], len(cs), len(ts)
    while i or j:
        a, b = back[i][j]  # type: ignore[misc]
        beads.append((a, b))
        i, j = i - a, j - b
    return beads[::-1]


def passage_units(passage: Passage) -> list[Unit]:
    """The units of ``passage`` in order (see the module's description)."""
    cs = sentences(passage.text)
    if "。" not in passage.text or len(cs) <= 1:
        return [Unit(0, max(len(cs) - 1, 0), passage.text, passage.translation)]
    ts = sentences(passage.translation, _MODERN) if passage.translation else []
    beads = _align(cs, ts) if ts else None
    pairs: list[tuple[list[str], list[str]]] = []
    if beads is None:
        pairs = [([c], []) for c in cs]
    else:
        i = j = 0
        for a, b in beads:
            pairs.append((cs[i : i + a], ts[j : j + b]))
            i, j = i + a, j + b
    units: list[Unit] = []
    first = 0
    text, trans = "", ""
    for c, t in pairs:
        c_text, t_text = "".join(c), "".join(t)
        fits = len(text + c_text) <= UNIT_CHARS and len(trans + t_text) <= TRANSLATION_CHARS
        if text and not fits:
            units.append(Unit(first, first + _count(text) - 1, text, trans or None))
            first += _count(text)
            text, trans = "", ""
        text, trans = text + c_text, trans + t_text
    if text:
        units.append(Unit(first, first + _count(text) - 1, text, trans or None))
    if beads is None and passage.translation:  # no alignment: the translation is not split
        return [Unit(u.first, u.last, u.text, None) for u in units]
    return units


def _count(text: str) -> int:
    return len(sentences(text))
