"""What a document's translation renders, attached to it (study/text/align.py decides which rows a
translation line renders): :class:`Renderings` shares each confident line out — its main text to
the passages on its rows, its inline commentary, cut into speakers' turns, to the commentary
segments (in order, by :func:`monotone_assignment`, preferring a segment of the same commentator),
its heading to the stage's modern name — and rebuilds the document with them. A segment gets a
translation only when every line it runs across is rendered.
"""

from __future__ import annotations

import math
from collections.abc import Callable, Sequence
from dataclasses import replace

from ..model import Document, Passage, Segment
from .translation import (
    BRACKETS,
    COMMENT_BRACKETS,
    Ref,
    Row,
    SegRef,
    modern_name,
    person,
    speaker_turns,
    split_inline,
    unbracket,
)


class Renderings:
    """What the confident pairs say passages, commentary segments and stage headings are rendered by.

    Args:
        doc: the document the pairs belong to.
        segments: the document's commentary segments by owner.
        similar: scores a translated text against a classical text (higher is closer).
    """

    def __init__(
        self, doc: Document, segments: dict[Ref, tuple[Segment, ...]], similar: Callable[[str, str], float]
    ) -> None:
        self.doc, self.segments, self.similar = doc, segments, similar
        self.passages: dict[Ref, list[tuple[int, str]]] = {}
        self.comments: dict[SegRef, list[tuple[int, str]]] = {}
        self.covered: dict[SegRef, set[int]] = {}  # the segment's lines that a translation renders
        self.names: dict[tuple[int, int], str | None] = {}

    def add(self, line: int, text: str, group: Sequence[Row]) -> None:
        """Record that translation ``text`` (its first line ``line``) renders the rows ``group``."""
        head = group[0]
        commented = any(row.segments for row in group)
        rendering = split_inline(text, COMMENT_BRACKETS if commented else BRACKETS)
        comments = rendering.inline
        if head.stage is not None and not head.passages:
            ri, si = head.stage
            self.names[head.stage] = modern_name(text, self.doc.rites[ri].stages[si].name or "")
        elif any(row.text for row in group):
            for ref in dict.fromkeys(ref for row in group for ref in row.passages):
                if rendering.main:
                    self.passages.setdefault(ref, []).append((line, rendering.main))
        else:
            comments = (unbracket(text),)  # a line that renders commentary only may drop the 【】
        turns = [turn for part in comments for turn in speaker_turns(part)]
        if turns and commented:
            self._comment(line, turns, group)

    def _comment(self, line: int, turns: list[tuple[str | None, str]], group: Sequence[Row]) -> None:
        """Share the turns of a translated commentary among the segments on the rows, in order."""
        segs = list(dict.fromkeys(seg for row in group for seg in row.segments))
        rows = {row.line for row in group}
        parts = ["".join(row.segments.get(s, "") for row in group) for s in segs]
        speakers = [person(self._segment(s).speaker) for s in segs]

        def fit(t: int, k: int, fresh: bool) -> float:
            who = turns[t][0]
            if who is not None and not fresh:
                return self.similar(turns[t][1], parts[k]) - _NEW_SPEAKER  # someone new speaks mid-segment
            bonus = 0.0 if who is None or speakers[k] is None else _SAME_SPEAKER if who == speakers[k] else -1.0
            return self.similar(turns[t][1], parts[k]) + bonus

        for (_, turn), k in zip(turns, monotone_assignment(len(turns), len(segs), fit), strict=True):
            self.comments.setdefault(segs[k], []).append((line, turn))
            self.covered.setdefault(segs[k], set()).update(rows)

    def _segment(self, ref: SegRef) -> Segment:
        return self.segments[ref[0]][ref[1]]

    def attach(self) -> Document:
        """The document with what was recorded attached (dataclasses are rebuilt, not mutated)."""
        rites = []
        for ri, rite in enumerate(self.doc.rites):
            stages = []
            for si, stage in enumerate(rite.stages):
                passages = tuple(self._passage((ri, si, pi), p) for pi, p in enumerate(stage.passages))
                notes = self._segments((ri, si, -1), stage.note_commentary)
                name = self.names.get((ri, si))
                stages.append(replace(stage, passages=passages, modern_name=name, note_commentary=notes))
            commentary = self._segments((ri, -1, -1), rite.commentary)
            rites.append(replace(rite, stages=tuple(stages), commentary=commentary))
        return replace(self.doc, rites=tuple(rites))

    def _passage(self, ref: Ref, passage: Passage) -> Passage:
        parts = sorted(self.passages.get(ref, []), key=lambda part: part[0])
        return replace(
            passage,
            translation="".join(text for _, text in parts) or None,
            translation_lines=tuple(n for n, _ in parts),
            commentary=self._segments(ref, passage.commentary),
        )

    def _segments(self, owner: Ref, segments: tuple[Segment, ...]) -> tuple[Segment, ...]:
        out = []
        for k, segment in enumerate(segments):
            parts = sorted(self.comments.get((owner, k), []), key=lambda part: part[0])
            # Only a segment rendered on every line it runs across gets a translation.
            lines = {segment.line, *(n for _, n in segment.breaks)}
            whole = bool(parts) and lines <= self.covered[(owner, k)]
            out.append(replace(segment, translation="".join(t for _, t in parts) if whole else None))
        return tuple(out)


_SAME_SPEAKER = 0.5  # a translated turn opens with the segment's own commentator
_NEW_SPEAKER = 0.5  # a translated turn opens with a commentator in the middle of a segment


def monotone_assignment(turns: int, slots: int, fit: Callable[[int, int, bool], float]) -> list[int]:
    """The non-decreasing slot for each turn that maximises the summed fit.

    ``fit(turn, slot, fresh)`` scores a turn in a slot; ``fresh`` is False when the turn before
    it went to the same slot.
    """
    if not turns or not slots:
        return []
    best = [fit(0, k, True) for k in range(slots)]
    back: list[list[int]] = [list(range(slots))]
    for t in range(1, turns):
        row, links = [], []
        top, arg = -math.inf, -1
        for k in range(slots):
            fresh = top + fit(t, k, True) if arg >= 0 else -math.inf
            stay = best[k] + fit(t, k, False)
            row.append(max(fresh, stay))
            links.append(arg if fresh > stay else k)
            if best[k] > top:
                top, arg = best[k], k
        best = row
        back.append(links)
    k = max(range(slots), key=lambda s: best[s])
    out = [k]
    for t in range(turns - 1, 0, -1):
        k = back[t][k]
        out.append(k)
    return out[::-1]
