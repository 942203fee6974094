"""The book's own 音 notes: where its commentary gives the reading of a character of the classic.

A note stands alone between note boundaries (the start of a commentary, a gap, ○, punctuation, or
the 也 that ends the sentence before it) and names a character of the classic text it follows:
「干音豻」, 「AB反」 (a 反切), 「X如字」, 「X去聲」 (平/上/去/入聲), or, inside a sentence,
「X讀為Y」 (also 讀曰/讀如/讀若, with the one it follows named: 「綪康成謂讀為䋫」). Written without the character right after it
(「還(音旋)」), a note reads the character just before it. Emendations (當為, 當作, 字之誤) name
another character, not a reading, and are refused; so is any marker that is not a note of this
shape (八音 is music, 「亦當有如字」 says a character 如 is missing).

What a note implies (:func:`implied`): 音Y the reading of Y that the character also has (or Y's
only reading); a 反切 the one reading of the character it fits (:mod:`.readingfanqie`); 如字 the
character's ordinary reading; X去聲 the one reading of the character in that tone class (平 1 or
2, 上 3, 去 4; 入 is no answer: it has no one tone today); 讀為Y, though Y is often another word
the character stands for (a loan), the reading of Y as well: the card teaches the word meant, as the reading table does for
鄭注's 讀為 (綪讀為䋫 zhēng, 被錫讀為髲鬄 tì, 參讀為三 sān, 挼讀為墮 duò). Y's reading is the one the
character also has, or Y's only one; several is no answer.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Document, Piece, Stage
from ..text.normalize import normalize
from .readingfanqie import fanqie, heteronyms
from .readingfanqie import tone as _tone

_GAP = "\u3000 ○。，；：、)）"
_LEFT = _GAP + "也"
_AFTER = r"(?:下同|注同|後同|下並同)?"
_MARKER = re.compile(r"音|反|如字|[平上去入]聲|讀[為曰如若]|当为|當為|當作|字之誤")
_SHAPES = (
    ("音", re.compile(r"(?P<x>[^\u3000 ○]?)音(?P<y>[^\u3000 ○/)）])" + _AFTER)),
    ("反切", re.compile(r"(?P<x>[^\u3000 ○]?)(?P<a>[^\u3000 ○])(?P<b>[^\u3000 ○])反" + _AFTER)),
    ("如字", re.compile(r"(?P<x>[^\u3000 ○]?)如字" + _AFTER)),
    ("聲", re.compile(r"(?P<x>[^\u3000 ○]?)(?P<t>[平上去入])聲" + _AFTER)),
)
_TONES = {"平": (1, 2), "上": (3,), "去": (4,)}  # 入 has no one tone today
_READ_AS = re.compile(
    r"(?P<x>[^\u3000 ○])(?:鄭康成|康成|鄭氏|鄭)?(?:謂|云|以為)?讀(?P<how>[為曰如若])(?P<y>[^\u3000 ○])"
)
_EMENDATION = re.compile(r"當為|當作|字之誤")
_Found = tuple[str, str, str, tuple[int, int], tuple[int, ...]]  # kind, char, said, span, places


@dataclass(frozen=True)
class Note:
    """One reading note: the character it reads, how, and the classic text it follows."""

    path: str
    line: int
    char: str  # the character of the classic, as written
    kind: str  # 音 | 反切 | 如字 | 讀為
    said: str  # Y of 音Y / 讀為Y, AB of a 反切, "" for 如字
    text: str  # the note as written
    context: str  # the classic text of its passage
    places: tuple[int, ...]  # where in the context the character it reads stands

    @property
    def ref(self) -> str:
        return f"{self.path}:{self.line} 音注 {self.text}"


@dataclass(frozen=True)
class Refusal:
    """A marker (音, 反, 如字, 讀為, 當為 …) that is no reading note, and why."""

    path: str
    line: int
    text: str  # the commentary around the marker
    why: str


@dataclass(frozen=True)
class Implied:
    """What a note says the character reads."""

    reading: str | None  # None: the note gives no reading of the character
    why: str


def harvest(doc: Document) -> tuple[list[Note], list[Refusal]]:
    """Every reading note of a document's passages, and every marker refused, in text order."""
    notes: list[Note] = []
    refused: list[Refusal] = []
    for rite in doc.rites:
        for stage in rite.stages:
            for passage in stage.passages:
                _pieces_notes(doc.file, passage.pieces, notes, refused)
            _pieces_notes(doc.file, _stage_pieces(stage), notes, refused)
    return notes, refused


def _stage_pieces(stage: Stage) -> tuple[Piece, ...]:
    """A stage heading's notes (its 記 text and their commentary) as pieces, each commentary on
    the line of the segment it opens with."""
    segments, out = list(stage.note_commentary), []
    for i, part in enumerate(re.split(r"【(.*?)】", stage.notes)):
        if i % 2 == 0:
            out.append(Piece("text", part, stage.line or 0))
            continue
        seg = next((g for g in segments if g.text and part.startswith(g.text[:4])), None)
        if seg is not None:
            segments = segments[segments.index(seg) + 1 :]
        out.append(Piece("commentary", part, seg.line if seg else stage.line or 0, breaks=seg.breaks if seg else ()))
    return tuple(p for p in out if p.text)


def _pieces_notes(path: str, pieces: tuple[Piece, ...], notes: list[Note], refused: list[Refusal]) -> None:
    context = "".join(p.text for p in pieces if p.kind != "commentary")
    before = 0  # characters of the classic read so far
    for k, piece in enumerate(pieces):
        if piece.kind != "commentary":
            before += len(piece.text)
            continue
        inline = k > 0 and pieces[k - 1].kind == "text"  # right after the classic it reads
        taken: set[int] = set()
        for m in _MARKER.finditer(piece.text):
            if m.start() in taken:
                continue
            line = _line(piece, m.start())
            found = _note_at(piece.text, m, context[:before], inline)
            around = piece.text[max(0, m.start() - 6) : m.end() + 4]
            if isinstance(found, str):
                refused.append(Refusal(path, line, around, found))
                continue
            kind, char, said, span, places = found
            taken.update(range(*span))
            notes.append(Note(path, line, char, kind, said, piece.text[span[0] : span[1]], context, places))


def _line(piece: Piece, offset: int) -> int:
    line = piece.line
    for start, n in piece.breaks:
        if offset >= start:
            line = n
    return line


def _alone(text: str, start: int, end: int) -> bool:
    return (start == 0 or text[start - 1] in _LEFT) and (end == len(text) or text[end] in _GAP)


def _note_at(text: str, m: re.Match[str], classic: str, inline: bool) -> _Found | str:
    """The note the marker at ``m`` belongs to, or why it is none."""
    if _EMENDATION.match(text, m.start()):
        return "an emendation names another character, not a reading"
    if m.group().startswith("讀"):
        return _read_as(text, m, classic)
    for kind, shape in _SHAPES:
        if not (m.group().endswith("聲") if kind == "聲" else m.group().startswith(kind[0])):
            continue
        for named in (True, False):  # the note with its character first, then without it
            start = m.start() - named - (2 if kind == "反切" else 0)
            hit = shape.match(text, start) if start >= 0 else None
            if hit is None or bool(hit.group("x")) != named or not _alone(text, hit.start(), hit.end()):
                continue
            if not named and (hit.start() != 0 or not inline):
                return "a note without its character stands right after the classic text"
            g = hit.groupdict()
            said = g.get("y") or g.get("t") or (g["a"] + g["b"] if "a" in g else "")  # 如字: ""
            char = hit.group("x") if named else classic[-1]
            places = _places(char, classic, named)
            if not places:
                return f"{char} is not in the classic text before the note"
            return kind, char, said, (hit.start(), hit.end()), places
        return f"{m.group()} inside a sentence, not a note of its own"
    return f"{m.group()} is no reading marker"


def _read_as(text: str, m: re.Match[str], classic: str) -> _Found | str:
    for hit in _READ_AS.finditer(text, max(0, m.start() - 6), m.end() + 1):
        if hit.start("how") - 1 != m.start() or not (hit.start() == 0 or text[hit.start() - 1] in _LEFT):
            continue
        places = _places(hit.group("x"), classic, True)
        if places:
            return "讀為", hit.group("x"), hit.group("y"), (hit.start(), hit.end()), places
    return "讀為 without a character of the classic standing before it"


def _places(char: str, classic: str, named: bool) -> tuple[int, ...]:
    """Where the note's character stands in the classic before it: the character just before an
    unnamed note; every occurrence of a named one."""
    if not named:
        return (len(classic) - 1,)
    key, norm = normalize(char), normalize(classic)
    return tuple(i for i, c in enumerate(norm) if c == key)


def implied(note: Note) -> Implied:
    """The reading a note gives its character, or None with the reason."""
    own = heteronyms(note.char) or heteronyms(normalize(note.char))
    if note.kind == "如字":
        return Implied(own[0], "如字: the ordinary reading") if own else Implied(None, "no reading known")
    if note.kind == "聲":
        fit = [r for r in own if _tone(r) in _TONES.get(note.said, ())]
        if len(fit) == 1:
            return Implied(fit[0], f"{note.said}聲: {fit[0]} alone of {note.char}'s readings")
        return Implied(None, f"{note.said}聲 fits {len(fit)} readings of {note.char}")
    if note.kind == "反切":
        fit = fanqie(note.char, note.said[0], note.said[1])
        if len(fit) == 1:
            return Implied(fit[0], f"{note.said}反 fits {fit[0]} alone")
        return Implied(None, f"{note.said}反 fits {len(fit)} readings of {note.char}")
    theirs = heteronyms(note.said)
    shared = [r for r in theirs if r in own]
    if len(shared) == 1:
        return Implied(shared[0], f"{note.said} {shared[0]}, a reading {note.char} has")
    if len(theirs) == 1:
        return Implied(theirs[0], f"{note.said} has one reading")
    return Implied(None, f"{note.said} has {len(theirs)} readings, {len(shared)} of them {note.char}'s")


@dataclass(frozen=True)
class Place:
    """How the project reads the note's character at one place it explains."""

    at: int  # index in the note's context
    shown: str
    accepted: tuple[str, ...]  # shown first, then the table's ``also``


def places_read(note: Note) -> tuple[Place, ...]:
    """The reading shown (and accepted) at every place the note explains."""
    from .reading import reading_in, readings_in

    return tuple(
        Place(i, reading_in(note.char, note.context, at=i), readings_in(note.char, note.context, at=i))
        for i in note.places
    )


def table_rule(note: Note, at: int, reading: str, reach: int = 2) -> dict[str, object]:
    """A context rule for the reading table (``study/data/readings.yaml``) that reads the note's
    character as the note says at one place: the classic around it (``reach`` characters a side),
    the character marked (X) when the phrase holds it twice, the note as its reference."""
    phrase = note.context[max(0, at - reach) : at + reach + 1]
    i = at - max(0, at - reach)
    if normalize(phrase).count(normalize(note.char)) > 1:
        phrase = f"{phrase[:i]}({phrase[i]}){phrase[i + 1 :]}"
    return {"read": reading, "in": [phrase], "ref": note.ref}
