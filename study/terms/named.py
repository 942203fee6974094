"""Which use of a word in its passage a commentary gloss speaks of, when the passage uses it more
than once: the use whose neighbouring words the commentary names beside the gloss.

少牢饋食禮 (卷十六, line 81–84): 「饔人摡鼎匕俎于饔爨…廩人摡甑甗匕與敦于廩爨」 uses 匕 twice, the
spoon of the tripod (鼎匕俎) and the rice ladle (甑甗匕與敦); the commentary's 「甑所以炊甗所以盛米
匕所以出飯敦所以盛飯」 names 甑, 甗 and 敦 around 匕 = 所以出飯, so that gloss is said of 甑甗匕與敦
alone, and the card that teaches it marks only that 匕."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace

from ..model import Document, Gloss
from ..text.normalize import normalize
from .glossrules import FUNCTION

NEAR = 10  # characters of commentary on each side of the gloss read as what it stands beside
_PLAIN = FUNCTION | set("与及")  # words that name nothing


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


def named(g: Gloss, norm: str, windows: Sequence[str], said: Mapping[tuple[str, int], Sequence[str]]) -> list[str]:
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

    def sides(w: str) -> tuple[int, int]:
        at = w.find(norm)
        return len(set(w[:at]) & near), len(set(w[at + len(norm) :]) & near)

    chosen = [w for w in windows if min(sides(w)) > 0]
    return chosen if chosen and all(sides(w) == (0, 0) for w in windows if w not in chosen) else list(windows)


def kept_to(windows: Sequence[str]) -> str:
    """The pattern of a gloss kept to ``windows`` (the words around it where it was said)."""
    return "|".join(re.escape(w) for w in windows)


def of_its_use(g: Gloss, norm: str, windows: Sequence[str], said: Mapping[tuple[str, int], Sequence[str]]) -> Gloss:
    """A commentary gloss of a word its passage uses more than once (``windows``), kept to the
    use(s) the commentary beside it names (匕 = 所以出飯 of 甑甗匕與敦, not of 鼎匕俎 in the same
    sentence): its ``pattern``. Unchanged when the commentary does not tell them apart, or the
    gloss has a pattern of another kind."""
    if len(windows) < 2 or g.pattern not in (None, kept_to(windows)):
        return g
    chosen = named(g, norm, windows, said)
    return replace(g, pattern=kept_to(chosen)) if len(chosen) < len(windows) else g
