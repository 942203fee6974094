"""Read modern-Chinese translation lines and attach what they render to the document.

The translators keep the book's layout loosely: a block line opens with 「译」, commentary is
rendered inline in 【…】 (once in （…）), a commentator's words open with NAME说, and a stage
heading 「右X」 becomes 「右边是X′」, 「右边X′」, 「右侧X′」, 「右方X′」, 「以上是X′」 or a bare 「X′，…」.
Which rows a line renders is decided by :mod:`study.align`; :class:`Renderings` then shares the
line out: its main text to the passages, its commentary turns to the segments, its heading to
the stage's modern name.
"""

from __future__ import annotations

import math
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from functools import lru_cache
from importlib import resources

import yaml

from ..model import Document, Passage, Segment
from .normalize import normalize, search_key

# An owner of classical text or commentary: (rite, stage, passage); a stage's heading notes are
# (rite, stage, -1) and a rite's own commentary (rite, -1, -1). A segment is (owner, index).
Ref = tuple[int, int, int]
SegRef = tuple[Ref, int]


@dataclass
class Row:
    """One classical line of a chunk and what runs on it."""

    line: int
    text: list[str] = field(default_factory=list)  # classical text, commentary left out
    full: list[str] = field(default_factory=list)  # everything on the line, commentary included
    passages: list[Ref] = field(default_factory=list)  # passages whose text runs on this line
    segments: dict[SegRef, str] = field(default_factory=dict)  # commentary segments' parts on this line
    stage: tuple[int, int] | None = None  # the stage whose heading opens on this line


PREFIX = "译"
BRACKETS = {"【": "】"}
COMMENT_BRACKETS = {"【": "】", "（": "）"}  # where the line renders commentary, （…） does too
# Longest first: 「右边是」 before 「右边」.
MARKERS = ("右边是", "右侧是", "右方是", "以上是", "右边", "右侧", "右方")
NAME_STOPS = "，：【。；（"
# After a bare 右边/右侧/右方, a possessive or a causative verb reads 右 as the right-hand party
# (右方的人取箭…, 右方让失败者喝酒), not as 「the above」.
_PARTY_NEXT = "的之让使叫被把给和与"
# Characters too common to count as evidence that a modern name renders a stage name.
_FUNCTION_CHARS = set("之者于也其而以则乃")
_TURN_BEFORE = "。；”」’』】）\u3000 "  # a new speaker starts after a sentence or a quotation


@dataclass(frozen=True)
class Rendering:
    """A translation line split into its main text and its inline commentary parts."""

    main: str
    inline: tuple[str, ...]


def strip_prefix(text: str) -> str:
    """The line without the 「译」 that opens a translation block."""
    return text[len(PREFIX) :] if text.startswith(PREFIX) else text


def split_inline(text: str, brackets: dict[str, str] = BRACKETS) -> Rendering:
    """Split off the inline commentary in 【…】; an unclosed bracket runs to the end of the line."""
    main: list[str] = []
    inline: list[str] = []
    i = 0
    while i < len(text):
        close = brackets.get(text[i])
        if close is None:
            main.append(text[i])
            i += 1
            continue
        end = text.find(close, i + 1)
        end = len(text) if end == -1 else end
        inline.append(text[i + 1 : end].strip())
        i = end + 1
    return Rendering("".join(main).strip(), tuple(p for p in inline if p))


def unbracket(text: str) -> str:
    """The line with its 【】 dropped, for a line that renders commentary only."""
    return text.replace("【", "").replace("】", "").strip()


@lru_cache(maxsize=1)
def _usual_names() -> dict[str, str]:
    """Each name the book writes (normalised) → the person's usual name (traditional, as listed)."""
    raw = resources.files("study").joinpath("data/commentators.yaml").read_text("utf-8")
    return {normalize(str(k)): str(v) for k, v in (yaml.safe_load(raw) or {}).items()}


@lru_cache(maxsize=1)
def persons() -> dict[str, str]:
    """Commentators by every name they go by (normalised): 郝仲舆 and 郝敬 are one person.

    Translators sometimes write the full name where the text has the courtesy name (朱子 → 朱熹).
    """
    table = {k: normalize(v) for k, v in _usual_names().items()}
    return {**{v: v for v in table.values()}, **table}


def person(name: str | None) -> str | None:
    return persons().get(normalize(name)) if name else None


def usual_name(written: str | None) -> str | None:
    """The usual name of the person the book calls ``written`` (康成 → 鄭玄), None if it is that
    name already (朱熹, 賈公彦 = 賈公彥) or the name is not a known commentator's."""
    usual = _usual_names().get(normalize(written)) if written else None
    return usual if usual is not None and normalize(usual) != normalize(written or "") else None


def known_as(written: str) -> str:
    """A commentator's name as written, with the usual name beside it where they differ:
    「康成（鄭玄）」, 「敖君善（敖繼公）」; 「朱熹」 unchanged."""
    usual = usual_name(written)
    return f"{written}（{usual}）" if usual else written


@lru_cache(maxsize=1)
def _speaker_re() -> re.Pattern[str]:
    names = "|".join(re.escape(n) for n in sorted(persons(), key=len, reverse=True))
    return re.compile(rf"({names})(说|曰)")


def speaker_turns(text: str) -> list[tuple[str | None, str]]:
    """A translated commentary cut where a known commentator starts speaking (NAME说…).

    Each turn comes with the person speaking (None for the author's own words).
    """
    norm = normalize(text)
    starts = [m.start() for m in _speaker_re().finditer(norm) if m.start() > 0 and norm[m.start() - 1] in _TURN_BEFORE]
    bounds = [0, *starts, len(text)]
    turns = []
    for a, b in zip(bounds, bounds[1:], strict=False):
        part = text[a:b].strip()
        if part:
            m = _speaker_re().match(normalize(part))
            turns.append((person(m.group(1)) if m else None, part))
    return turns


def split_marker(text: str) -> tuple[str | None, str]:
    """The heading marker a translated line opens with (or None) and the rest of the line."""
    text = strip_prefix(text).strip()
    for marker in MARKERS:
        if text.startswith(marker):
            return marker, text[len(marker) :]
    return None, text


def opens_heading(text: str) -> bool:
    """True if a translation line opens with a heading marker read as 「the above is」."""
    marker, rest = split_marker(text)
    return marker is not None and not _reads_as_party(marker, rest)


def _reads_as_party(marker: str, rest: str) -> bool:
    return not marker.endswith("是") and (not rest or rest[0] in _PARTY_NEXT)


def modern_name(translation: str, name: str) -> str | None:
    """The modern name a translated heading gives the stage ``name``, or None if it mistranslates.

    The marker is stripped and the name ends where the translation of the stage name ends (at
    the first ，：【。). It is rejected when the marker reads 右 as the right-hand party, when it
    shares no content character with the classical name, when it is far longer than a name, or
    when the heading was left in its classical form.
    """
    marker, rest = split_marker(translation)
    if marker is not None and _reads_as_party(marker, rest):
        return None
    cut = min((i for i, ch in enumerate(rest) if ch in NAME_STOPS), default=len(rest))
    modern = rest[:cut].strip()
    if not modern or len(modern) > 4 * len(name) + 4 or (marker is None and modern.startswith("右")):
        return None  # nothing, a sentence, or the classical 「右X」 left untranslated
    shared = set(search_key(modern)) & set(search_key(name))
    if not shared - _FUNCTION_CHARS:
        return None
    return modern


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
