"""Read modern-Chinese translation lines: their text, inline commentary, speakers and headings.

The translators keep the book's layout loosely: a block line opens with 「译」, commentary is
rendered inline in 【…】 (once in （…）), a commentator's words open with NAME说, and a stage
heading 「右X」 becomes 「右边是X′」, 「右边X′」, 「右侧X′」, 「右方X′」, 「以上是X′」 or a bare 「X′，…」.
This module reads a line: its main text and inline commentary, its speakers' turns (and the
commentators' names), its heading marker and the modern name it gives a stage. Which rows a line
renders is decided by :mod:`study.text.align`; :class:`~study.text.renderings.Renderings` then
shares the line out: its main text to the passages, its commentary turns to the segments, its
heading to the stage's modern name.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources

import yaml

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
