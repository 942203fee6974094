"""Sources in words: ``礼经本义 卷四 · 乡射礼 · 取矢 · 郝仲輿（郝敬）曰`` instead of ``file.txt:119``."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..model import Document, Gloss, Rite, Stage
from ..terms.glosses import book_author
from ..text.normalize import normalize
from ..text.translation import known_as
from .notedata import BOOK, juan_label, printed_label, stage_label

CITED_LINE = _FILE_LINE = re.compile(r"^\s*([\w.-]+\.txt):(\d+)\s*$")  # a source citing a line of a text
AUTHOR = "蔡德晋"  # whose notes an unattributed commentary gloss is
NOTES = "記"  # who says what a stage's notes say: the classic's own records


class Places:
    """Where a line of a text is: its document, rite and stage, said in words."""

    def __init__(self, documents: Iterable[Document]) -> None:
        self._docs: dict[str, Document] = {}
        self._said: list[tuple[str, int, str | None, str]] | None = None  # each commentary segment
        self._notes_said: list[tuple[str, int, str | None, str]] | None = None
        self._quoted: dict[tuple[str, str | None], tuple[str | None, int | None, str | None]] = {}
        for d in documents:
            self._docs.setdefault(d.file, d)

    def find(self, file: str | None, line: int | None) -> tuple[Document, Rite, Stage | None] | None:
        doc = self._docs.get(file or "")
        if doc is None or line is None:
            return None
        best: tuple[Document, Rite, Stage | None] | None = None
        for rite in doc.rites:  # the note that opens a rite, before its first stage: the rite's
            if any(line in (seg.line, *(n for _, n in seg.breaks)) for seg in rite.commentary):
                return doc, rite, None
        for rite in doc.rites:
            for stage in rite.stages:
                for p in stage.passages:
                    first, last = p.span
                    if first and first <= line:
                        best = (doc, rite, stage)
                        if line <= last:
                            return best
        return best

    def words(self, file: str | None, line: int | None, *, speaker: str | None = None) -> str | None:
        """``礼经本义 卷四 · 乡射礼 · 取矢 · 頁12b第3行`` (``· 郝仲舆曰`` with ``speaker``), or None
        if unknown."""
        found = self.find(file, line)
        if found is None:
            return None
        doc, rite, stage = found
        return place(doc, rite, stage, speaker, printed_label(doc, line))

    def gloss_source(self, gloss: Gloss) -> str:
        """Where a gloss comes from, in words: its place and commentator, or its reference work."""
        if gloss.line is not None:
            return self.words(gloss.file, gloss.line, speaker=gloss.speaker or AUTHOR) or _join(
                gloss.rite, gloss.stage, said(gloss.speaker or AUTHOR)
            )
        m = _FILE_LINE.match(gloss.speaker or "")  # a curated gloss quoting a line of a text
        if m:  # where the book says the same words (its page, line and commentator), else the line cited
            file, line, speaker = self.quoted(gloss.gloss, besides=m.group(1))
            cited, at = m.group(1), int(m.group(2))
            return (
                self.words(file, line, speaker=speaker)
                or self.words(cited, at, speaker=self._speaker_at(cited, at))
                or _join(BOOK, *gloss.scope[:1])
            )
        return known_as(gloss.speaker) if gloss.speaker else gloss.file or ""

    def cited(self, gloss: Gloss) -> tuple[str, Rite, Stage | None, int, str] | None:
        """For a curated gloss citing a line of a text (``file.txt:line``): the commentator who
        says it, the rite and stage, the line and the place in words (:meth:`words`) — in that
        text when it is among these, else where these texts say the same words (:meth:`quoted`);
        None when neither is found."""
        m = _FILE_LINE.match(gloss.speaker or "")
        if not m:
            return None
        file, line = m.group(1), int(m.group(2))
        speaker = self._speaker_at(file, line)
        if speaker is None:
            file, line, speaker = self.quoted(gloss.gloss)  # type: ignore[assignment]
        found = self.find(file, line)
        if found is None or speaker is None:
            return None
        _, rite, stage = found
        return speaker, rite, stage, line, self.words(file, line) or ""

    def _speaker_at(self, file: str, line: int) -> str | None:
        """Who speaks in the commentary at ``file``'s ``line`` (the book's author where no one is
        named), or None when that line holds no commentary of these texts."""
        for f, first, speaker, _ in self._commentary():
            if f == file and first == line:
                return speaker
        doc = self._docs.get(file)
        if doc is None:
            return None
        for rite in doc.rites:
            for stage in rite.stages:
                for seg in [*(c for p in stage.passages for c in p.commentary), *stage.note_commentary]:
                    if any(n == line for _, n in seg.breaks):
                        return seg.speaker or book_author(doc)
        return None

    def quoted(self, words: str, besides: str | None = None) -> tuple[str | None, int | None, str | None]:
        """The file, line and commentator of the commentary of these texts that says ``words`` (a
        curated gloss quoting an excerpt of the book — 004's 「尸传神意致福嘏于主人」 is 卷十五
        特牲饋食禮's, 蔡德晉's), or Nones; ``besides``: not in that file (the excerpt quoted, when it
        is among these texts). Compared in the normalised form, without punctuation."""
        key = _bare(words)
        if (key, besides) not in self._quoted:
            found = (None, None, None)
            if len(key) >= 3:  # the commentary first, then the classic's own 記 (楚扑長如笴…, 鄉射禮's notes)
                found = next(
                    (
                        (f, n, who)
                        for f, n, who, text in (*self._commentary(), *self._notes())
                        if key in text and f != besides
                    ),
                    found,
                )
            self._quoted[(key, besides)] = found
        return self._quoted[(key, besides)]

    def _notes(self) -> list[tuple[str, int, str | None, str]]:
        """Each stage's notes (記) as :meth:`_commentary` lists the commentary, said by the 記."""
        if self._notes_said is None:
            self._notes_said = [
                (doc.file, stage.line, NOTES, _bare(stage.note_text))
                for doc in self._docs.values()
                for rite in doc.rites
                for stage in rite.stages
                if stage.notes and stage.line
            ]
        return self._notes_said

    def _commentary(self) -> list[tuple[str, int, str | None, str]]:
        if self._said is None:
            self._said = [
                (doc.file, seg.line, seg.speaker or book_author(doc), _bare(seg.text))
                for doc in self._docs.values()
                for rite in doc.rites
                for seg in [
                    *rite.commentary,
                    *(c for stage in rite.stages for p in stage.passages for c in p.commentary),
                    *(c for stage in rite.stages for c in stage.note_commentary),
                ]
            ]
        return self._said

    def who(self, gloss: Gloss) -> str:
        """The commentator (or reference work) of a gloss, never a file name; a commentator with
        the usual name beside the one the book writes (康成（鄭玄）)."""
        if gloss.line is not None:
            return known_as(gloss.speaker or AUTHOR)
        if _FILE_LINE.match(gloss.speaker or ""):
            cited = _file_line(gloss.speaker or "")
            _, _, speaker = self.quoted(gloss.gloss, besides=cited[0])  # said in the book too: by whom
            if speaker is None and cited[0] and cited[1]:  # else whoever speaks at the line cited
                speaker = self._speaker_at(cited[0], cited[1])
            if speaker:
                return known_as(speaker)
            return self.gloss_source(gloss) if self.words(*cited) else BOOK
        return known_as(gloss.speaker) if gloss.speaker else (gloss.file if gloss.formula == "spec" else "") or ""


def _file_line(ref: str) -> tuple[str | None, int | None]:
    m = _FILE_LINE.match(ref)
    return (m.group(1), int(m.group(2))) if m else (None, None)


def said(speaker: str | None) -> str | None:
    """``康成（鄭玄）曰``: the speaker as the book writes them, with their usual name where it differs."""
    return f"{known_as(speaker)}曰" if speaker else None


def place(
    doc: Document, rite: Rite, stage: Stage | None, speaker: str | None = None, printed: str | None = None
) -> str:
    """``礼经本义 卷四 · 乡射礼 · 取矢 · 頁12b第3行 · 郝仲輿曰``: the parts given, in that order."""
    return _join(juan_label(doc, rite), rite.name, stage_label(stage.name) if stage else None, printed, said(speaker))


_SAME = str.maketrans("着", "著")  # written apart by the normaliser, one word in a quotation (着于左臂)


def _bare(text: str) -> str:
    """``text`` normalised, without punctuation, spaces or the book's line marks (to find a
    quotation: 着 read as 著)."""
    return re.sub(r"[^\u3400-\u9fff\U00020000-\U0002ffff]", "", normalize(text)).translate(_SAME)


def _join(*parts: str | None) -> str:
    return " · ".join(p for p in parts if p)
