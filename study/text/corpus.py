"""Parse a text of 《礼经本义》 into rites, stages, passages and commentary.

Pure: text in, :class:`~study.model.Document` out. Lines are first labelled classical or
translation (:mod:`study.lines`); the classical lines are then rejoined across the chunk cuts
(an open 【 or a sentence cut mid-way continues after the translation block), split into
pieces of text, commentary and marks, grouped into passages (a commentary-only line belongs to
the passage before it), and closed into stages by their 「右…」 headings.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, replace

from ..errors import CorpusFormatError
from ..model import Document, LineKind, Passage, Piece, Rite, Segment, Stage, Title, TranslationLine
from .commentary import split_commentary
from .lines import classify_lines
from .normalize import normalize
from .paragraphs import SPACES, Para, Reader, heading_name

UNNAMED = "~"


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


def _segments(pieces: Iterable[Piece]) -> tuple[Segment, ...]:
    out: list[Segment] = []
    for p in pieces:
        if p.kind == "commentary":
            out.extend(split_commentary(p.text, line=p.line, truncated=p.truncated, breaks=p.breaks))
    return tuple(out)


def _passage(pieces: list[Piece], lines: list[int], *, continued: bool = False) -> Passage:
    text = "".join(p.text for p in pieces if p.kind in ("text", "mark")).strip(SPACES)
    return Passage(
        text=text,
        commentary=_segments(pieces),
        lines=tuple(sorted(set(lines))),
        pieces=tuple(pieces),
        continued=continued,
    )


def _raw(pieces: Iterable[Piece]) -> str:
    return "".join(f"【{p.text}】" if p.kind == "commentary" else p.text for p in pieces)


@dataclass
class Heading:
    """A 「右…」 stage heading: its name, the notes after the name, as written, and its pieces."""

    name: str
    notes: str
    heading: str
    line: int
    pieces: list[Piece]
    id_name: str | None = None  # a name run over a page keeps the id of the part on its first line


def _split_para(para: Para) -> list[Passage | Heading]:
    """A paragraph as passages and headings (a heading may follow a 】 inside a line)."""
    pieces = list(para.pieces)
    out: list[Passage | Heading] = []
    if para.leading_fragment and pieces and pieces[0].kind == "commentary":
        out.append(_passage([pieces[0]], [pieces[0].line], continued=True))
        pieces = pieces[1:]
    starts = [
        k
        for k, p in enumerate(pieces)
        if p.kind == "text"
        and heading_name(p.text) is not None
        and (k == 0 or (pieces[k - 1].kind == "commentary" and _mid_line_heading(p.text)))
    ]
    bounds = [0, *starts, len(pieces)]
    for a, b in zip(bounds, bounds[1:], strict=False):
        part = pieces[a:b]
        if not part:
            continue
        lines = _part_lines(part, para)
        name = heading_name(part[0].text) if a in starts else None
        if name is None:
            out.append(_passage(part, lines, continued=para.leading_fragment and a == 0))
            continue
        raw = _raw(part).strip(SPACES)
        notes = raw[1 + len(name) :].lstrip("，。：" + SPACES)
        out.append(Heading(name, notes, raw, lines[0], part))
    return out


def _part_lines(part: list[Piece], para: Para) -> list[int]:
    """The paragraph's lines that this part's pieces start on, run across, or close on."""
    lo, hi = min(p.line for p in part), max(p.end for p in part)
    return [n for n in para.lines if lo <= n <= hi]


def _mid_line_heading(text: str) -> bool:
    """After a 】, only a heading ended by a full-width space, 。 or the line counts."""
    name = heading_name(text)
    assert name is not None
    rest = text.lstrip(SPACES)[1 + len(name) :]
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
    if not any(line.strip(SPACES + "\n\ufeff") for line in lines):
        raise CorpusFormatError("the file is empty", path=path, line=1)
    kinds = classify_lines(lines)
    reader = Reader(path, lines, kinds, book, [*rites, *([first_rite] if first_rite else [])])
    reader.read()
    translation, chunks = _translation(lines, kinds)
    doc = assemble(path, reader.items, reader.warnings, first_rite)
    return replace(doc, translation=translation, line_kinds=tuple(kinds), chunks=chunks)


Item = Title | Para | Passage | Heading


def assemble(path: str, items: Iterable[Item], reader_warnings: Iterable[str], first_rite: str | None) -> Document:
    """Rites and stages from a reader's items: titles, paragraphs (split here) or passages and
    headings already split (a reader that knows where headings are)."""
    warnings = list(reader_warnings)
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

    for item in items:
        if isinstance(item, Title):
            titles.append(item)
            if item.kind == "chapter":
                close_rite()
                name, rite_line, after_chapter = item.text, item.line, True
            continue
        for part in _split_para(item) if isinstance(item, Para) else (item,):
            if isinstance(part, Passage):
                if after_chapter and not part.text and part.commentary:
                    rite_commentary += part.commentary
                else:
                    pending.append(part)
            else:
                headings += 1
                stages.append(
                    Stage(
                        id=stage_id(rite_name(), part.id_name or part.name, seen),
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
    if headings == 0 and rites:
        warnings.append(f"{path}: no 「右…」 stage headings: each rite is one unnamed stage")
    return Document(file=path, rites=tuple(rites), titles=tuple(titles), warnings=tuple(warnings))


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
            out.append(TranslationLine(n, lines[n - 1].strip().strip(SPACES), max(len(chunks) - 1, 0)))
    if current:
        chunks.append(tuple(current))
    return tuple(out), tuple(chunks)
