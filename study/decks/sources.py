"""Sources in words: ``礼经本义 卷四 · 乡射礼 · 取矢 · 郝仲輿（郝敬）曰`` instead of ``file.txt:119``."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..model import Document, Gloss, Rite, Stage
from ..terms.glosses import book_author
from ..text.normalize import normalize
from ..text.translation import known_as
from .notedata import BOOK, juan_label, stage_label

_FILE_LINE = re.compile(r"^\s*([\w.-]+\.txt):(\d+)\s*$")
AUTHOR = "蔡德晋"  # whose notes an unattributed commentary gloss is


class Places:
    """Where a line of a text is: its document, rite and stage, said in words."""

    def __init__(self, documents: Iterable[Document]) -> None:
        self._docs: dict[str, Document] = {}
        self._said: list[tuple[str, int, str | None, str]] | None = None  # each commentary segment
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
        """``礼经本义 卷四 · 乡射礼 · 取矢`` (``· 郝仲舆曰`` with ``speaker``), or None if unknown."""
        found = self.find(file, line)
        if found is None:
            return None
        doc, rite, stage = found
        return place(doc, rite, stage, speaker)

    def gloss_source(self, gloss: Gloss) -> str:
        """Where a gloss comes from, in words: its place and commentator, or its reference work."""
        if gloss.line is not None:
            return self.words(gloss.file, gloss.line, speaker=gloss.speaker or AUTHOR) or _join(
                gloss.rite, gloss.stage, said(gloss.speaker or AUTHOR)
            )
        m = _FILE_LINE.match(gloss.speaker or "")  # a curated gloss quoting a line of a text
        if m:  # a text not among these (an excerpt of the book): where the book says the same words
            file, line, speaker = self.quoted(gloss.gloss)
            return (
                self.words(m.group(1), int(m.group(2)))
                or self.words(file, line, speaker=speaker)
                or _join(BOOK, *gloss.scope[:1])
            )
        return known_as(gloss.speaker) if gloss.speaker else gloss.file or ""

    def quoted(self, words: str) -> tuple[str | None, int | None, str | None]:
        """The file, line and commentator of the commentary of these texts that says ``words`` (a
        curated gloss quoting an excerpt of the book — 004's 「尸传神意致福嘏于主人」 is 卷十五
        特牲饋食禮's, 蔡德晉's), or Nones. Compared in the normalised form, without punctuation."""
        key = _bare(words)
        if len(key) < 4:
            return None, None, None
        for file, line, speaker, text in self._commentary():
            if key in text:
                return file, line, speaker
        return None, None, None

    def _commentary(self) -> list[tuple[str, int, str | None, str]]:
        if self._said is None:
            self._said = [
                (doc.file, seg.line, seg.speaker or book_author(doc), _bare(seg.text))
                for doc in self._docs.values()
                for rite in doc.rites
                for stage in rite.stages
                for seg in [*(c for p in stage.passages for c in p.commentary), *stage.note_commentary]
            ]
        return self._said

    def who(self, gloss: Gloss) -> str:
        """The commentator (or reference work) of a gloss, never a file name; a commentator with
        the usual name beside the one the book writes (康成（鄭玄）)."""
        if gloss.line is not None:
            return known_as(gloss.speaker or AUTHOR)
        if _FILE_LINE.match(gloss.speaker or ""):
            if self.words(*_file_line(gloss.speaker or "")):
                return self.gloss_source(gloss)
            _, _, speaker = self.quoted(gloss.gloss)  # said in these texts too: by whom
            return known_as(speaker) if speaker else BOOK
        return known_as(gloss.speaker) if gloss.speaker else (gloss.file if gloss.formula == "spec" else "") or ""


def _file_line(ref: str) -> tuple[str | None, int | None]:
    m = _FILE_LINE.match(ref)
    return (m.group(1), int(m.group(2))) if m else (None, None)


def said(speaker: str | None) -> str | None:
    """``康成（鄭玄）曰``: the speaker as the book writes them, with their usual name where it differs."""
    return f"{known_as(speaker)}曰" if speaker else None


def place(doc: Document, rite: Rite, stage: Stage | None, speaker: str | None = None) -> str:
    return _join(juan_label(doc, rite), rite.name, stage_label(stage.name) if stage else None, said(speaker))


def _bare(text: str) -> str:
    """``text`` normalised, without punctuation, spaces or the book's line marks."""
    return re.sub(r"[^\u3400-\u9fff\U00020000-\U0002ffff]", "", normalize(text))


def _join(*parts: str | None) -> str:
    return " · ".join(p for p in parts if p)
