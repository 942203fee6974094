"""The data model: frozen dataclasses from a text file down to a commentary segment.

Provenance (file, line numbers) is kept out of equality, as in sqlite-utils' parser, so that
tests compare values while messages can still point at the text.
"""

from __future__ import annotations

from bisect import bisect_right
from dataclasses import dataclass, field
from enum import StrEnum

from .errors import UnknownRiteError


class LineKind(StrEnum):
    """What one physical line of a text file is."""

    BLANK = "blank"
    TITLE = "title"
    CLASSICAL = "classical"
    TRANSLATION = "translation"


@dataclass(frozen=True)
class Segment:
    """One commentary segment (the contents of 【…】, split at each commentator)."""

    text: str
    speaker: str | None = None
    line: int = field(default=0, compare=False)
    truncated: bool = field(default=False, compare=False)  # cut by the excerpt's edge
    translation: str | None = field(default=None, compare=False)
    breaks: tuple[tuple[int, int], ...] = field(default=(), compare=False)  # (offset, line) run-ons

    def line_at(self, offset: int) -> int:
        """The source line of the character at ``offset`` in :attr:`text`."""
        line = self.line
        for start, n in self.breaks:
            if offset >= start:
                line = n
        return line

    def to_dict(self) -> dict[str, str | None]:
        return {"speaker": self.speaker, "text": self.text}


@dataclass(frozen=True)
class Piece:
    """A run of a passage in source order: classical text, commentary body, or a mark like 【句】."""

    kind: str  # "text" | "commentary" | "mark"
    text: str
    line: int = field(default=0, compare=False)
    last_line: int = field(default=0, compare=False)  # where a commentary run across lines closes
    truncated: bool = field(default=False, compare=False)  # cut by the excerpt's start or end
    breaks: tuple[tuple[int, int], ...] = field(default=(), compare=False)  # (offset, line) run-ons

    @property
    def end(self) -> int:
        return max(self.line, self.last_line)


@dataclass(frozen=True)
class Passage:
    """One paragraph of classical text with its commentary split out into segments."""

    text: str
    commentary: tuple[Segment, ...] = ()
    lines: tuple[int, ...] = field(default=(), compare=False)
    pieces: tuple[Piece, ...] = field(default=(), compare=False)
    translation: str | None = field(default=None, compare=False)
    translation_lines: tuple[int, ...] = field(default=(), compare=False)
    # The excerpt opens inside this paragraph (it began before the first line): kept, so that no
    # character is lost, but it may belong to a stage outside the excerpt.
    continued: bool = field(default=False, compare=False)
    pages: tuple[str, ...] = field(default=(), compare=False)  # printed pages (Kanripo <pb:…>), a source reference

    @property
    def span(self) -> tuple[int, int]:
        """First and last source line."""
        return (min(self.lines), max(self.lines)) if self.lines else (0, 0)

    def to_dict(self) -> dict[str, object]:
        return {
            "text": self.text,
            "commentary": [s.to_dict() for s in self.commentary],
            "translation": self.translation,
            "lines": list(self.span),
        }


@dataclass(frozen=True)
class Stage:
    """An ordered rite stage, closed in the text by a 「右…」 heading (or unnamed at the end)."""

    id: str
    name: str | None
    passages: tuple[Passage, ...]
    notes: str = ""
    heading: str = ""  # the heading as written, 右 included
    line: int | None = field(default=None, compare=False)
    modern_name: str | None = field(default=None, compare=False)
    note_commentary: tuple[Segment, ...] = field(default=(), compare=False)  # the 【…】 of the notes

    @property
    def note_text(self) -> str:
        """The classical words of the heading's notes, without their commentary."""
        out, depth = [], 0
        for ch in self.notes:
            if ch == "【":
                depth += 1
            elif ch == "】":
                depth = max(depth - 1, 0)
            elif not depth:
                out.append(ch)
        return "".join(out)

    def to_dict(self) -> dict[str, object]:
        return {
            "id": self.id,
            "name": self.name,
            "modern_name": self.modern_name,
            "notes": self.notes,
            "line": self.line,
            "passages": [p.to_dict() for p in self.passages],
        }


@dataclass(frozen=True)
class Rite:
    """One rite (a chapter of the 仪礼) and its stages in text order."""

    name: str
    stages: tuple[Stage, ...]
    commentary: tuple[Segment, ...] = ()
    line: int | None = field(default=None, compare=False)

    def to_dict(self) -> dict[str, object]:
        return {"name": self.name, "stages": [s.to_dict() for s in self.stages]}

    def stage(self, key: str) -> Stage | None:
        """The stage with this id, or the first with this name."""
        for s in self.stages:
            if key in (s.id, s.name):
                return s
        return None


@dataclass(frozen=True)
class Title:
    """A title line: book, collection, author, category or chapter."""

    text: str
    kind: str
    line: int = field(default=0, compare=False)


@dataclass(frozen=True)
class TranslationLine:
    """A line of modern-Chinese translation, with the chunk it follows."""

    line: int
    text: str
    chunk: int  # index of the chunk (run of classical lines) this block renders


@dataclass(frozen=True)
class Document:
    """One parsed text file."""

    file: str
    rites: tuple[Rite, ...]
    titles: tuple[Title, ...] = ()
    translation: tuple[TranslationLine, ...] = ()
    line_kinds: tuple[LineKind, ...] = field(default=(), compare=False)
    chunks: tuple[tuple[int, ...], ...] = field(default=(), compare=False)
    warnings: tuple[str, ...] = field(default=(), compare=False)
    missing: tuple[tuple[int, str], ...] = field(default=(), compare=False)  # (line, code) of each ▯
    excerpt: bool = field(default=False, compare=False)  # 节选: the text holds part of its rites only
    # The printed page of each text line, in order: (line, page mark) — a Kanripo text transcribes
    # its edition line by line (<pb:KR1d0044_WYG_014-1b> …), so a line is a column of that page.
    leaves: tuple[tuple[int, str], ...] = field(default=(), compare=False)

    @property
    def translation_lines(self) -> list[int]:
        return [t.line for t in self.translation]

    def to_dict(self) -> dict[str, object]:
        return {
            "file": self.file,
            "rites": [r.to_dict() for r in self.rites],
            "translation_lines": self.translation_lines,
        }

    def printed(self, line: int) -> tuple[str, int] | None:
        """The printed page holding ``line`` and the column it is on that page (1 = the page's
        first text line), or None when the text has no page marks or ``line`` is none of its lines."""
        i = bisect_right(self.leaves, (line, "\U0010ffff")) - 1
        if i < 0 or self.leaves[i][0] != line:
            return None
        page = self.leaves[i][1]
        first = i
        while first > 0 and self.leaves[first - 1][1] == page:
            first -= 1
        return page, i - first + 1

    def rite(self, name: str) -> Rite | None:
        for r in self.rites:
            if r.name == name:
                return r
        return None


CATEGORIES = ("vessel", "implement", "garment", "action", "place", "role", "measure", "other")


@dataclass(frozen=True)
class Gloss:
    """One definition of a term: from a commentary formula (with its place) or a curated source."""

    gloss: str
    speaker: str | None = None  # the commentator, or the reference work of a curated gloss
    rite: str | None = None
    stage: str | None = None  # stage name (None: the unnamed last stage, the note opening a rite, curated)
    file: str | None = None
    line: int | None = None  # None for curated glosses
    formula: str = field(default="curated", compare=False)
    stage_id: str | None = field(default=None, compare=False)
    context: str = field(default="", compare=False)  # the commentary clause it was read from
    juan: str | None = field(default=None, compare=False)  # 卷 of the book, from the document's title (卷二)
    # Where a curated gloss applies (decks/glossary.yaml ``where``): rites, and a pattern the text
    # around an occurrence must match; empty: everywhere the term occurs.
    scope: tuple[str, ...] = field(default=(), compare=False)
    pattern: str | None = field(default=None, compare=False)
    # The extraction rule that read it (reader path:formula:boundary, study/terms/gate.py), and
    # whether its measured precision lets it be taught (cards, quiz, cloze hints).
    rule: str = field(default="", compare=False)
    taught: bool = field(default=True, compare=False)

    def to_dict(self) -> dict[str, object]:
        return {
            "gloss": self.gloss,
            "speaker": self.speaker,
            "rite": self.rite,
            "stage": self.stage,
            "file": self.file,
            "line": self.line,
        }


@dataclass(frozen=True)
class Example:
    """A classical sentence that uses a term."""

    text: str
    file: str
    line: int
    rite: str
    stage_id: str | None = None
    at: int | None = None  # where in ``text`` the use it shows stands (None: its first)


@dataclass(frozen=True)
class Term:
    """A headword with its reading, category, glosses, example and frequency per rite."""

    term: str  # as written (賔, 乗矢)
    normalized: str
    pinyin: str
    category: str
    glosses: tuple[Gloss, ...]
    example: Example | None = None
    frequency: tuple[tuple[str, int], ...] = ()  # (rite, occurrences in its classical text)
    curated: bool = field(default=False, compare=False)

    @property
    def total_frequency(self) -> int:
        return sum(n for _, n in self.frequency)

    @property
    def rites(self) -> tuple[str, ...]:
        return tuple(r for r, n in self.frequency if n)

    def to_dict(self) -> dict[str, object]:
        return {
            "term": self.term,
            "normalized": self.normalized,
            "pinyin": self.pinyin,
            "category": self.category,
            "frequency": dict(self.frequency),
            "glosses": [g.to_dict() for g in self.glosses],
            "example": self.example.text if self.example else None,
        }


@dataclass(frozen=True)
class Corpus:
    """Several parsed texts."""

    documents: tuple[Document, ...]

    def rites(self) -> list[tuple[Document, Rite]]:
        return [(d, r) for d in self.documents for r in d.rites]

    def rite(self, name: str) -> tuple[Document, Rite]:
        for d, r in self.rites():
            if r.name == name:
                return d, r
        known = "、".join(r.name for _, r in self.rites())
        raise UnknownRiteError(f"unknown rite {name!r} (known: {known})")

    def document(self, file: str) -> Document | None:
        for d in self.documents:
            if d.file == file:
                return d
        return None
