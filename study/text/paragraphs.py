"""Read the classical lines of a text into paragraphs of pieces (text, commentary, marks).

One pass over the lines keeps the state of an open 【 across lines: a commentary cut by a
translation block runs on after it, a sentence cut mid-way is rejoined, a commentary-only line
joins the paragraph before it, and title lines stand alone.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from ..errors import CorpusFormatError
from ..model import LineKind, Piece, Title
from .titles import title_kind

MARKS = ("【句】", "【读】")  # inline punctuation marks, not commentary
HEADING_STOPS = "，。：【\u3000"
SENTENCE_END = "。！？；」』】"
SPACES = " \t\u3000"


@dataclass
class Para:
    """A paragraph being assembled: pieces in source order and the lines they came from."""

    pieces: list[Piece] = field(default_factory=list)
    lines: list[int] = field(default_factory=list)
    leading_fragment: bool = False

    def ends_sentence(self) -> bool:
        if not self.pieces:
            return True
        last = self.pieces[-1]
        if last.kind != "text":
            return True
        text = last.text.rstrip(SPACES)
        punctuated = any("，" in p.text or "。" in p.text for p in self.pieces if p.kind == "text")
        return not punctuated or not text or text[-1] in SENTENCE_END

    def starts_heading(self) -> bool:
        return bool(self.pieces) and heading_name(self.pieces[0].text) is not None


def heading_name(text: str) -> str | None:
    """The stage name of a heading piece 「右X…」, or None if ``text`` is no heading."""
    text = text.lstrip(SPACES)
    if not text.startswith("右"):
        return None
    end = len(text)
    for i, ch in enumerate(text[1:], 1):
        if ch in HEADING_STOPS:
            end = i
            break
    name = text[1:end]
    if not name or len(name) > 20 or any(ch in "；！？「」" for ch in name):
        return None
    return name


class Reader:
    """Walks the classical lines once, keeping the state of an open 【 across lines."""

    def __init__(self, path: str, lines: list[str], kinds: list[LineKind], book: str, rites: Iterable[str]):
        self.path, self.lines, self.kinds = path, lines, kinds
        self.book, self.rites = book, tuple(rites)
        self.items: list[Title | Para] = []
        self.cur: Para | None = None
        self.open_line: int | None = None
        self.open_buf: list[str] = []
        self.open_breaks: list[tuple[int, int]] = []  # (offset in the body, line) where it runs on
        self.seen_bracket = False
        self.warnings: list[str] = []

    def error(self, message: str, line: int | None) -> CorpusFormatError:
        return CorpusFormatError(message, path=self.path, line=line)

    def _flush(self) -> None:
        if self.cur is not None and self.cur.pieces:
            self.items.append(self.cur)
        self.cur = None

    def read(self) -> None:
        cut = False
        for n, (raw, kind) in enumerate(zip(self.lines, self.kinds, strict=True), 1):
            if kind == LineKind.TRANSLATION:
                cut = True
                continue
            if kind == LineKind.BLANK:
                continue
            self._line(n, raw.strip().strip(SPACES), cut)
            cut = False
        if self.open_line is not None:
            if self.kinds and self._ends_with_translation():
                self.warnings.append(
                    f"{self.path}:{self.open_line}: the commentary opened here is cut off by the end of the excerpt"
                )
                self._close_commentary(truncated=True)
            else:
                raise self.error("【 opened here is never closed", self.open_line)
        self._flush()

    def _ends_with_translation(self) -> bool:
        for kind in reversed(self.kinds):
            if kind != LineKind.BLANK:
                return kind == LineKind.TRANSLATION
        return False

    def _line(self, n: int, line: str, cut: bool) -> None:
        if self.open_line is None:
            kind = title_kind(line, book=self.book, rites=self.rites)
            if kind is not None:
                self._flush()
                self.kinds[n - 1] = LineKind.TITLE
                self.items.append(Title(line, kind, n))
                return
            cur = self.cur
            join = cur is not None and (
                (cut and not cur.starts_heading() and not cur.ends_sentence())
                or (line.startswith("【") and not line.startswith(MARKS))
            )
            if not join:
                self._flush()
                self.cur = Para()
        assert self.cur is not None
        self.cur.lines.append(n)
        if self.open_line is not None:
            self.open_breaks.append((len(self.open_buf), n))
        self._scan(n, line)

    def _scan(self, n: int, line: str) -> None:
        para = self.cur
        assert para is not None
        run: list[str] = []

        def flush_run() -> None:
            if run:
                para.pieces.append(Piece("text", "".join(run), n))
                run.clear()

        i = 0
        while i < len(line):
            ch = line[i]
            if ch == "【" and line.startswith(MARKS, i) and self.open_line is None:
                flush_run()
                para.pieces.append(Piece("mark", line[i : i + 3], n))
                i += 3
                continue
            if ch == "【":
                if self.open_line is not None:
                    raise self.error(
                        f"【 opened on line {self.open_line} is never closed (another 【 on line {n})",
                        self.open_line,
                    )
                flush_run()
                self.seen_bracket = True
                self.open_line, self.open_buf, self.open_breaks = n, [], []
            elif ch == "】":
                if self.open_line is not None:
                    self._close_commentary()
                elif not self.seen_bracket:
                    # The excerpt opens inside a commentary: what precedes is its tail.
                    para.pieces.append(Piece("commentary", "".join(run), n, n, truncated=True))
                    para.leading_fragment = True
                    run.clear()
                    self.warnings.append(f"{self.path}:{n}: the text opens inside a commentary")
                elif run and para.pieces and para.pieces[-1].kind == "commentary":
                    # A 】 closed the commentary too early: the text up to this one belongs to it.
                    last = para.pieces.pop()
                    para.pieces.append(Piece("commentary", last.text + "".join(run), last.line, n))
                    run.clear()
                    self.warnings.append(
                        f"{self.path}:{n}: 】 without 【: the text before it is joined to the commentary"
                    )
                else:
                    raise self.error(f"】 at column {i + 1} has no opening 【", n)
                self.seen_bracket = True
            elif self.open_line is not None:
                self.open_buf.append(ch)
            else:
                run.append(ch)
            i += 1
        flush_run()

    def _close_commentary(self, *, truncated: bool = False) -> None:
        assert self.cur is not None and self.open_line is not None
        last = self.cur.lines[-1] if self.cur.lines else self.open_line
        body = "".join(self.open_buf)
        piece = Piece("commentary", body, self.open_line, last, truncated, tuple(self.open_breaks))
        self.cur.pieces.append(piece)
        self.open_line, self.open_buf, self.open_breaks = None, [], []
