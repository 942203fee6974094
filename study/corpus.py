"""Parse a text of 《礼经本义》 into rites, stages, passages and commentary.

Pure: text in, :class:`~study.model.Document` out. Lines are first labelled classical or
translation (:mod:`study.lines`); the classical lines are then rejoined across the chunk cuts
(an open 【 or a sentence cut mid-way continues after the translation block), split into
pieces of text, commentary and marks, grouped into passages (a commentary-only line belongs to
the passage before it), and closed into stages by their 「右…」 headings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from .commentary import split_commentary
from .errors import CorpusFormatError
from .lines import classify_lines
from .model import Document, LineKind, Passage, Piece, Rite, Segment, Stage, Title, TranslationLine
from .normalize import normalize
from .titles import title_kind

MARKS = ("【句】", "【读】")  # inline punctuation marks, not commentary
HEADING_STOPS = "，。：【\u3000"
_SENTENCE_END = "。！？；」』】"
_SPACES = " \t\u3000"
UNNAMED = "~"


@dataclass
class _Para:
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
        text = last.text.rstrip(_SPACES)
        punctuated = any("，" in p.text or "。" in p.text for p in self.pieces if p.kind == "text")
        return not punctuated or not text or text[-1] in _SENTENCE_END

    def starts_heading(self) -> bool:
        return bool(self.pieces) and _heading_name(self.pieces[0].text) is not None


def decode(data: bytes, path: str) -> str:
    """UTF-8 text of ``data``, or a :class:`CorpusFormatError` naming the line and byte offset."""
    try:
        return data.decode("utf-8-sig")
    except UnicodeDecodeError as e:
        line = data.count(b"\n", 0, e.start) + 1
        raise CorpusFormatError(
            f"not UTF-8: byte 0x{data[e.start]:02x} at byte offset {e.start} cannot be decoded",
            path=path,
            line=line,
        ) from None


def _heading_name(text: str) -> str | None:
    """The stage name of a heading piece 「右X…」, or None if ``text`` is no heading."""
    text = text.lstrip(_SPACES)
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


class _Reader:
    """Walks the classical lines once, keeping the state of an open 【 across lines."""

    def __init__(self, path: str, lines: list[str], kinds: list[LineKind], book: str, rites: Iterable[str]):
        self.path, self.lines, self.kinds = path, lines, kinds
        self.book, self.rites = book, tuple(rites)
        self.items: list[Title | _Para] = []
        self.cur: _Para | None = None
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
            self._line(n, raw.strip().strip(_SPACES), cut)
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
                self.cur = _Para()
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


def _segments(pieces: Iterable[Piece]) -> tuple[Segment, ...]:
    out: list[Segment] = []
    for p in pieces:
        if p.kind == "commentary":
            out.extend(split_commentary(p.text, line=p.line, truncated=p.truncated, breaks=p.breaks))
    return tuple(out)


def _passage(pieces: list[Piece], lines: list[int]) -> Passage:
    text = "".join(p.text for p in pieces if p.kind in ("text", "mark")).strip(_SPACES)
    return Passage(
        text=text,
        commentary=_segments(pieces),
        lines=tuple(sorted(set(lines))),
        pieces=tuple(pieces),
    )


def _raw(pieces: Iterable[Piece]) -> str:
    return "".join(f"【{p.text}】" if p.kind == "commentary" else p.text for p in pieces)


@dataclass
class _Heading:
    name: str
    notes: str
    heading: str
    line: int
    pieces: list[Piece]


def _split_para(para: _Para) -> list[Passage | _Heading]:
    """A paragraph as passages and headings (a heading may follow a 】 inside a line)."""
    pieces = list(para.pieces)
    out: list[Passage | _Heading] = []
    if para.leading_fragment and pieces and pieces[0].kind == "commentary":
        out.append(_passage([pieces[0]], [pieces[0].line]))
        pieces = pieces[1:]
    starts = [
        k
        for k, p in enumerate(pieces)
        if p.kind == "text"
        and _heading_name(p.text) is not None
        and (k == 0 or (pieces[k - 1].kind == "commentary" and _mid_line_heading(p.text)))
    ]
    bounds = [0, *starts, len(pieces)]
    for a, b in zip(bounds, bounds[1:], strict=False):
        part = pieces[a:b]
        if not part:
            continue
        lines = _part_lines(part, para)
        name = _heading_name(part[0].text) if a in starts else None
        if name is None:
            out.append(_passage(part, _part_lines(part, para)))
            continue
        raw = _raw(part).strip(_SPACES)
        notes = raw[1 + len(name) :].lstrip("，。：" + _SPACES)
        out.append(_Heading(name, notes, raw, lines[0], part))
    return out


def _part_lines(part: list[Piece], para: _Para) -> list[int]:
    """The paragraph's lines that this part's pieces start on, run across, or close on."""
    lo, hi = min(p.line for p in part), max(p.end for p in part)
    return [n for n in para.lines if lo <= n <= hi]


def _mid_line_heading(text: str) -> bool:
    """After a 】, only a heading ended by a full-width space, 。 or the line counts."""
    name = _heading_name(text)
    assert name is not None
    rest = text.lstrip(_SPACES)[1 + len(name) :]
    return len(name) >= 2 and (not rest or rest[0] in "\u3000。【")


def stage_id(rite: str, name: str | None, seen: dict[str, int]) -> str:
    """A stable id: rite and normalised stage name, numbered from the second occurrence on."""
    base = f"{normalize(rite)}.{normalize(name) if name else UNNAMED}"
    seen[base] = seen.get(base, 0) + 1
    return base if seen[base] == 1 else f"{base}.{seen[base]}"


def parse_corpus(
    text: str | bytes,
    path: str,
    *,
    first_rite: str | None = None,
    book: str = "礼经本义",
    rites: Iterable[str] = (),
) -> Document:
    """Parse one text file.

    Args:
        text: the file's contents (bytes are decoded as UTF-8).
        path: the file name used in messages and in ``Document.file``.
        first_rite: the name of the rite the text opens in, when the text does not title it.
        book: the book title, recognised as a title line (with or without 卷N).
        rites: extra rite names recognised as chapter titles.

    Raises:
        CorpusFormatError: not UTF-8, empty, or a 【 / 】 that does not match.
    """
    if isinstance(text, bytes):
        text = decode(text, path)
    lines = text.replace("\r\n", "\n").replace("\r", "\n").split("\n")
    if not any(line.strip(_SPACES + "\n\ufeff") for line in lines):
        raise CorpusFormatError("the file is empty", path=path, line=1)
    kinds = classify_lines(lines)
    reader = _Reader(path, lines, kinds, book, [*rites, *([first_rite] if first_rite else [])])
    reader.read()
    return _assemble(path, lines, kinds, reader, first_rite)


def _assemble(path: str, lines: list[str], kinds: list[LineKind], reader: _Reader, first_rite: str | None) -> Document:
    warnings = list(reader.warnings)
    titles: list[Title] = []
    rites: list[Rite] = []
    name: str | None = first_rite
    rite_line: int | None = None
    rite_commentary: tuple[Segment, ...] = ()
    stages: list[Stage] = []
    pending: list[Passage] = []
    seen: dict[str, int] = {}
    after_chapter = False
    headings = 0

    def rite_name() -> str:
        nonlocal name
        if name is None:
            warnings.append(f"{path}: the text does not name its first rite; give it in the manifest")
            name = "未题"
        return name

    def close_rite() -> None:
        nonlocal stages, pending, rite_commentary
        if pending:
            stages.append(Stage(stage_id(rite_name(), None, seen), None, tuple(pending)))
        if stages or rite_commentary:
            rites.append(Rite(rite_name(), tuple(stages), rite_commentary, rite_line))
        stages, pending, rite_commentary = [], [], ()

    for item in reader.items:
        if isinstance(item, Title):
            titles.append(item)
            if item.kind == "chapter":
                close_rite()
                name, rite_line, after_chapter = item.text, item.line, True
            continue
        for part in _split_para(item):
            if isinstance(part, Passage):
                if after_chapter and not part.text and part.commentary:
                    rite_commentary += part.commentary
                else:
                    pending.append(part)
            else:
                headings += 1
                stages.append(
                    Stage(
                        id=stage_id(rite_name(), part.name, seen),
                        name=part.name,
                        passages=tuple(pending),
                        notes=part.notes,
                        heading=part.heading,
                        line=part.line,
                        note_commentary=_segments(part.pieces),
                    )
                )
                pending = []
            after_chapter = False
    close_rite()
    if headings == 0:
        warnings.append(f"{path}: no 「右…」 stage headings: each rite is one unnamed stage")
    translation, chunks = _translation(lines, kinds)
    return Document(
        file=path,
        rites=tuple(rites),
        titles=tuple(titles),
        translation=translation,
        line_kinds=tuple(kinds),
        chunks=chunks,
        warnings=tuple(warnings),
    )


def _translation(
    lines: list[str], kinds: list[LineKind]
) -> tuple[tuple[TranslationLine, ...], tuple[tuple[int, ...], ...]]:
    """Translation lines, each tagged with the chunk of classical lines before its block."""
    out: list[TranslationLine] = []
    chunks: list[tuple[int, ...]] = []
    current: list[int] = []
    for n, kind in enumerate(kinds, 1):
        if kind in (LineKind.CLASSICAL, LineKind.TITLE):
            current.append(n)
        elif kind == LineKind.TRANSLATION:
            if current:
                chunks.append(tuple(current))
                current = []
            out.append(TranslationLine(n, lines[n - 1].strip().strip(_SPACES), max(len(chunks) - 1, 0)))
    if current:
        chunks.append(tuple(current))
    return tuple(out), tuple(chunks)
