"""Which use of a word in its passage a commentary gloss speaks of, when the passage uses it more
than once: the use whose neighbouring words the commentary names beside the gloss, or else the use
that stands where the gloss stands in the commentary's reading order.

少牢饋食禮 (卷十六, line 81–84): 「饔人摡鼎匕俎于饔爨…廩人摡甑甗匕與敦于廩爨」 uses 匕 twice, the
spoon of the tripod (鼎匕俎) and the rice ladle (甑甗匕與敦); the commentary's 「甑所以炊甗所以盛米
匕所以出飯敦所以盛飯」 names 甑, 甗 and 敦 around 匕 = 所以出飯, so that gloss is said of 甑甗匕與敦
alone, and the card that teaches it marks only that 匕.

The commentary reads its passage in order: 公食大夫禮's 「士羞庶羞皆有大」 is explained 「羞進也品多曰
庶肴美曰羞…」 — 羞 = 進 stands before the gloss of 庶, so it is the 羞 before 庶 (the verb), and 肴美
after it, the 羞 of 庶羞 (the dishes); 燕禮's 「司宫尊于東楹之西…公尊瓦大…」 is explained 「司宫…
尊設酒尊也東楹之西…」, so 尊 = 設酒尊 is the 尊 between 司宫 and 東楹 (the verb), not the vessel.

A use is a window: the words (``before``, ``after``) around it; a gloss kept to windows fits the
use at their centre only (``(?<=士)羞(?=庶羞)`` is not the 羞 of 庶羞 inside the same words)."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from ..model import Document, Gloss
from ..text.normalize import normalize
from .glossrules import FUNCTION

NEAR = 10  # characters of commentary on each side of the gloss read as what it stands beside
ANCHOR = 24  # characters of commentary on each side of the gloss searched for words of the passage
_PLAIN = FUNCTION | set("与及")  # words that name nothing
Window = tuple[str, str]  # the words before and after one use of a word


def commentary_lines(documents: Iterable[Document]) -> dict[tuple[str, int], list[str]]:
    """Each commentary line: the (normalised) commentary segments that run over it."""
    out: dict[tuple[str, int], list[str]] = defaultdict(list)
    for doc in documents:
        for rite in doc.rites:
            for stage in rite.stages:
                segments = [seg for p in stage.passages for seg in p.commentary] + list(stage.note_commentary)
                for seg in segments:
                    text = normalize(seg.text)
                    for line in {seg.line, *(n for _, n in seg.breaks)}:
                        out[(doc.file, line)].append(text)
    return out


def beside(g: Gloss, norm: str, said: Mapping[tuple[str, int], Sequence[str]]) -> str:
    """The commentary around gloss ``g`` of ``norm`` (NEAR characters each side), '' if not found."""
    for text in said.get((g.file or "", g.line or 0), ()):
        for probe in (norm + normalize(g.gloss), normalize(g.gloss)):
            at = text.find(probe) if probe else -1
            if at >= 0:
                return text[max(0, at - NEAR) : at + len(probe) + NEAR]
    return ""


def named(
    g: Gloss, norm: str, windows: Sequence[Window], said: Mapping[tuple[str, int], Sequence[str]]
) -> list[Window]:
    """Of ``windows`` (the words around each use of ``norm`` in the passage ``g`` explains), those
    the commentary beside ``g`` names on both sides (甑甗 before 匕, 敦 after it), when it names no
    word of the others; else all of them. (A commentary that goes on to the next word names only
    what follows, and that may be the neighbour of another use: 請 = 請事 is said of 擯者出請,
    and 問名 after it is the next word, not the 請 of 請問名.)"""
    if len(windows) < 2:
        return list(windows)
    near = set(beside(g, norm, said)) - _PLAIN - set(norm) - set(normalize(g.gloss))  # (not the gloss's words)
    if not near:
        return list(windows)

    def sides(w: Window) -> tuple[int, int]:
        return len(set(w[0]) & near), len(set(w[1]) & near)

    chosen = [w for w in windows if min(sides(w)) > 0]
    return chosen if chosen and all(sides(w) == (0, 0) for w in windows if w not in chosen) else list(windows)


def in_reading_order(g: Gloss, norm: str, passage: str, said: Mapping[tuple[str, int], Sequence[str]]) -> int | None:
    """Where in ``passage`` (normalised) the use of ``norm`` that gloss ``g`` explains stands, read
    from the commentary's order: the nearest words before and after the gloss that the passage
    holds once (two characters, else one that names something) bound a stretch of the passage;
    the use, if it is the only one in that stretch. None when the commentary does not say."""
    uses = [m.start() for m in re.finditer(re.escape(norm), passage)]
    if len(uses) < 2:
        return None
    for text in said.get((g.file or "", g.line or 0), ()):
        gloss = normalize(g.gloss)
        at = next((text.find(p) for p in (norm + gloss, gloss) if p and p in text), -1)
        if at < 0:
            continue
        end = at + len(norm) + len(gloss) if text.startswith(norm + gloss, at) else at + len(gloss)
        left = _anchor(text, max(0, at - ANCHOR), at, passage, norm, last=True)
        right = _anchor(text, end, end + ANCHOR, passage, norm, last=False)
        if left is None and right is None:
            return None
        lo = left if left is not None else 0
        hi = right if right is not None else len(passage)
        if lo > hi:
            return None
        inside = [u for u in uses if lo <= u and u + len(norm) <= hi]
        return inside[0] if len(inside) == 1 else None
    return None


def _anchor(text: str, a: int, b: int, passage: str, norm: str, *, last: bool) -> int | None:
    """The place in ``passage`` of the words of ``text[a:b]`` nearest the gloss (the last before
    it, ``last``, or the first after it) that the passage holds exactly once: the end of those
    before, the start of those after. Two characters first, then one that names something."""
    for size in (2, 1):
        starts = range(b - size, a - 1, -1) if last else range(a, b - size + 1)
        for i in starts:
            word = text[i : i + size]
            if len(word) < size or set(word) & set(norm) or (size == 1 and word in _PLAIN | {"曰"}):
                continue
            if passage.count(word) == 1:
                at = passage.index(word)
                return at + size if last else at
    return None


def kept_to(norm: str, windows: Sequence[Window]) -> str:
    """The pattern of a gloss kept to ``windows``: the use at the centre of each (the words around
    it looked at, not matched: 士羞庶羞's first 羞 is ``(?<=士)羞(?=庶羞)``, not the second)."""
    word = re.escape(norm)
    return "|".join(
        (f"(?<={re.escape(b)})" if b else "") + word + (f"(?={re.escape(a)})" if a else "") for b, a in windows
    )


def of_its_use(g: Gloss, norm: str, windows: Sequence[Window], chosen: Sequence[Window]) -> Gloss:
    """A commentary gloss of a word its passage uses more than once (``windows``), kept to the
    use(s) the commentary speaks of (``chosen``: 匕 = 所以出飯 of 甑甗匕與敦, not of 鼎匕俎 in the
    same sentence): its ``pattern``. Unchanged when the commentary does not tell them apart, or
    the gloss has a pattern of another kind."""
    if len(windows) < 2 or g.pattern not in (None, kept_to(norm, windows)):
        return g
    return replace(g, pattern=kept_to(norm, chosen)) if 0 < len(chosen) < len(windows) else g
