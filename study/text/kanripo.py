"""Read a Kanripo (mandoku) text of the 仪礼 tradition into the same model as the seed reader.

Layout is read from indentation (full-width spaces): column 0 is classic text, one space a
title (卷, 嘉禮 …) or a note on its own line, two spaces a rite title, three spaces a stage
heading 「右X」 (its 記 text follows a full-width space and runs on over lines indented three or
four spaces), thirteen or more the author. A classic paragraph runs on while its lines are
full (21 cells); its notes, inline or on their own lines, are one commentary until text
resumes. A note inline on a classic line that runs on goes on at column 0; an indented note line
after it opens another note (蔡德晉's own commentary after 「李微之曰士字條卿字之誤」, 卷十一): the two
are cut by a blank, as independent notes are. An empty cell inside a note is such a blank, a blank
the transcription put in the other column (put back), or a lacuna (□): study/text/kanripo_cells.py.
Pages (``<pb:…>``) are kept on each passage as a source reference.
"""

from __future__ import annotations

import unicodedata
from dataclasses import dataclass, field, replace

from ..errors import CorpusFormatError
from ..model import Document, Piece, Title
from .corpus import Heading, Item, _passage, _raw, assemble, decode
from .kanripo_lines import CELL, INDENT, MISSING, KFile, KLine, read_lines

LINE_CELLS = 21  # cells of a printed line: a shorter classic line ends its paragraph
MARK_NOTES = {"句": "【句】", "讀": "【读】", "读": "【读】"}  # (句/) is punctuation, not commentary
ABSTRACT = "提要"
_SPACES = " \t\u3000"


@dataclass
class _Block:
    """A passage, heading or rite introduction being read."""

    kind: str  # "passage" | "heading" | "intro"
    pieces: list[Piece] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    pages: list[str] = field(default_factory=list)
    note_open: bool = False  # the last piece is a commentary that the next note continues
    wraps: bool = False  # the last classic line was full: the next one continues the paragraph
    note_indent: int = 0  # the indentation of the line the open commentary last ran on
    name_runs_on: bool = False  # a heading whose name fills its line: the next line may go on with it


class KanripoReader:
    """One pass over the lines of a mandoku file, building titles, passages and headings."""

    def __init__(self, kf: KFile, book: str):
        self.kf, self.path, self.book = kf, kf.path, book
        self.items: list[Item] = []
        self.block: _Block | None = None
        self.seen_rite = False
        self.front = True  # before the first category or rite title: the 卷's front matter
        self.abstract = kf.properties.get("JUAN", "").strip() == ABSTRACT

    # --- blocks -------------------------------------------------------------------------
    def _close(self) -> None:
        b, self.block = self.block, None
        if b is None or not b.pieces:
            return
        lines = sorted(set(b.lines))
        if b.kind == "heading":
            first = b.pieces[0]
            name = _heading_name(first.text)
            raw = _raw(b.pieces).strip(_SPACES)
            notes = raw[1 + len(name) :].lstrip("，。：" + _SPACES)
            id_name = None
            more = _name_goes_on(b)
            if more:  # 「右不儐尸…主婦酢于」 <pb> 「主人」: one name over a page, its id as it was read before
                id_name, name, notes = name, name + more, notes[len(more) :].lstrip("，。：" + _SPACES)
            self.items.append(Heading(name, notes, raw, lines[0], b.pieces, id_name))
            return
        passage = _passage(b.pieces, lines)
        self.items.append(replace(passage, pages=tuple(dict.fromkeys(b.pages))))

    def _open(self, kind: str) -> _Block:
        self._close()
        self.block = _Block(kind)
        return self.block

    def _add(self, b: _Block, line: KLine, *, paragraph: bool = False) -> None:
        """The runs of ``line`` into block ``b`` (a note after a note joins it)."""
        b.lines.append(line.n)
        if line.page:
            b.pages.append(line.page)
        if paragraph and b.pieces:
            b.pieces.append(Piece("text", CELL, line.n))
            b.note_open = False
        for run in line.runs:
            if not run.note:
                if not run.text:
                    continue
                if not run.text.strip(_SPACES) and b.note_open:
                    continue  # a blank between two notes
                b.pieces.append(Piece("text", run.text, line.n))
                b.note_open = False
            elif run.text in MARK_NOTES and not b.note_open:
                b.pieces.append(Piece("mark", MARK_NOTES[run.text], line.n))
            elif b.note_open:
                last = b.pieces[-1]
                new_line = line.n != last.end
                # an inline note of a classic line ends with it where the next note line is indented
                cut = CELL if new_line and b.note_indent == 0 and line.indent > 0 else ""
                breaks = last.breaks + ((len(last.text) + len(cut), line.n),) if new_line else last.breaks
                b.pieces[-1] = replace(last, text=last.text + cut + run.text, last_line=line.n, breaks=breaks)
            else:
                b.pieces.append(Piece("commentary", run.text, line.n, line.n))
                b.note_open = True
            if run.note:
                b.note_indent = line.indent

    # --- lines --------------------------------------------------------------------------
    def read(self) -> None:
        for line in self.kf.lines:
            if self.abstract:
                self.items.append(Title(_title_text(line), "abstract", line.n))
            elif line.indent == 0:
                self._classic(line)
            elif line.indent == 1:
                self._one(line)
            elif line.indent == 2:
                self._rite_title(line)
            elif line.indent in (3, 4):
                self._indented(line)
            else:
                self._close()
                text = _title_text(line)
                self.items.append(Title(text, "author" if text.endswith("撰") else "other", line.n))
        self._close()

    def _classic(self, line: KLine) -> None:
        text = line.plain.strip(_SPACES)
        if text.startswith(("欽定四庫全書", "钦定四库全书")) and not self.seen_rite:
            self._close()
            self.items.append(Title(_title_text(line), "collection", line.n))
            return
        b = self.block
        if line.starts_with_note and b is not None and b.note_open:
            self._add(b, line)  # a note run on at column 0
        elif self.front:
            self._close()
            for r in line.runs:  # the preface's title and its notes, in reading order
                if r.note:
                    self._note_title(KLine(line.n, 0, [r], line.page))
                elif r.text.strip(_SPACES):
                    self.items.append(Title(r.text.strip(_SPACES), "preface", line.n))
        else:
            if b is None or b.kind != "passage" or not b.wraps:
                b = self._open("passage")
            self._add(b, line)
        if self.block is not None:
            self.block.wraps = line.cells >= LINE_CELLS

    def _one(self, line: KLine) -> None:
        if line.only_notes:
            self._note_line(line)
            return
        text = line.plain.strip(_SPACES)
        if not text:
            return  # an empty line of the printed page
        self._close()
        kind = "book" if text.startswith(self.book) or "卷" in text else "category"
        self.items.append(Title(_title_text(line), kind, line.n))
        if kind == "category":
            self.front = False

    def _rite_title(self, line: KLine) -> None:
        self._close()
        text = line.plain.strip(_SPACES)
        if not text:
            raise CorpusFormatError("a rite title line (two spaces in) with no title", path=self.path, line=line.n)
        if text == ABSTRACT:
            self.abstract = True
            self.items.append(Title(text, "abstract", line.n))
            return
        self.items.append(Title(text, "chapter", line.n))
        self.seen_rite, self.front = True, False
        intro = self._open("intro")
        notes = [r for r in line.runs if r.note]
        if notes:  # (闕/), (嘉/): a label of the title, then the introduction's own notes
            self._add(intro, KLine(line.n, 0, notes, line.page))
            intro.note_open = False

    def _indented(self, line: KLine) -> None:
        b = self.block
        first = next((r for r in line.runs if r.text.strip(_SPACES)), None)
        if first is not None and not first.note and first.text.lstrip(_SPACES).startswith("右") and line.indent == 3:
            self._check_heading(line)
            heading = self._open("heading")
            self._add(heading, line)
            text = line.plain.strip(_SPACES)
            heading.name_runs_on = (
                line.cells >= LINE_CELLS and not any(r.note for r in line.runs) and _heading_name(text) == text[1:]
            )
            return
        if line.only_notes:
            self._note_line(line)
        elif b is not None and b.kind == "heading":
            self._add(b, line, paragraph=line.indent == 4)
        else:
            self.kf.warnings.append(f"{self.path}:{line.n}: indented text outside a 「右…」 heading: read as a passage")
            if b is None or b.kind != "passage":
                b = self._open("passage")
            self._add(b, line)

    def _note_line(self, line: KLine) -> None:
        b = self.block
        if b is None:
            if self.front:
                self._note_title(line)
                return
            b = self._open("passage")
        self._add(b, line)

    def _note_title(self, line: KLine) -> None:
        """A note of the front matter (the preface's explanation), kept as a title."""
        text = "".join(r.text for r in line.runs if r.note)
        if self.items and isinstance(self.items[-1], Title) and self.items[-1].kind == "preface_note":
            last = self.items.pop()
            text = last.text + text
            self.items.append(Title(text, "preface_note", last.line))
        else:
            self.items.append(Title(text, "preface_note", line.n))

    def _check_heading(self, line: KLine) -> None:
        text = line.plain.lstrip(_SPACES)
        if not _heading_name(text):
            raise CorpusFormatError("a 「右」 heading without a stage name", path=self.path, line=line.n)


def _name_goes_on(b: _Block) -> str:
    """The rest of a heading's name on its next line, where the name filled its first line (016:996
    「右不儐尸賓獻祝佐食致爵于主人主婦酢于」, a page break, 「主人」); empty otherwise."""
    if not b.name_runs_on or len(b.pieces) < 2 or b.pieces[1].kind != "text":
        return ""
    return _heading_name("右" + b.pieces[1].text.lstrip(_SPACES))


def _heading_name(text: str) -> str:
    """The stage name of a heading run 「右X　…」: from 右 to a full-width space, a sign that is
    no character (the drum score ○□ after 「右鼔」) or the run's end."""
    text = text.lstrip(_SPACES)[1:]
    for i, ch in enumerate(text):
        if ch != MISSING and unicodedata.category(ch) != "Lo":
            return text[:i]
    return text


def _title_text(line: KLine) -> str:
    """A title line as written: runs joined, a note in brackets, blank cells as one space."""
    out = "".join(f"（{r.text}）" if r.note else r.text for r in line.runs)
    return " ".join(out.replace(INDENT, " ").split())


def parse_kanripo(text: str | bytes, path: str, *, first_rite: str | None = None, book: str = "禮經本義") -> Document:
    """Parse one Kanripo (mandoku) file.

    Raises:
        CorpusFormatError: not UTF-8, no text, a ( that is not closed, a / outside a note, a heading
            without a name.
    """
    if isinstance(text, bytes):
        text = decode(text, path)
    kf = read_lines(text, path)
    if not kf.lines:
        raise CorpusFormatError("the Kanripo file has no text lines (headers only)", path=path, line=1)
    title = kf.properties.get("TITLE", "").strip()
    reader = KanripoReader(kf, title or book)
    reader.read()
    warnings = list(kf.warnings)
    first_heading = next((i for i in reader.items if isinstance(i, Heading)), None)
    first_title = next((i for i in reader.items if isinstance(i, Title) and i.kind == "chapter"), None)
    if (
        first_heading is not None
        and first_rite is None
        and (first_title is None or first_title.line > first_heading.line)
    ):
        warnings.append(
            f"{path}:{first_heading.line}: the 「右{first_heading.name}」 heading comes before any rite title"
        )
    doc = assemble(path, reader.items, warnings, first_rite)
    if reader.abstract or not doc.rites:
        doc = replace(doc, warnings=tuple(w for w in doc.warnings if "stage headings" not in w))
    leaves = tuple((k.n, k.page) for k in kf.lines if k.page)
    return replace(doc, missing=tuple(kf.missing), leaves=leaves)
