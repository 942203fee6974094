"""One note to write, as plain data: what :mod:`study.decks.cards` makes and :mod:`.apkg` writes.

Decks: one per rite, ``礼经本义::04 乡射礼`` (the 卷 number first, so that rites sort in the order
of the book under Anki's default "gather new cards by deck"), holding every kind of card of the
rite in one queue. A note whose content a spec option changes (a teacher's glosses, another cloze
limit, next/previous/position order cards) is a different note in the spec's own deck
``自定::<spec name>::<rite>``.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from ..model import Document, Rite
from .sequences import numeral

BOOK = "礼经本义"  # the top deck
CUSTOM = "自定"  # the top deck of notes a spec option changed
END_STAGE = "篇末"  # label of the unnamed stage an excerpt ends in
CARD_KINDS = {  # card kind → what the report and the tags call it
    "term": "词→义",
    "term_reverse": "义→词",
    "passage": "经→译",
    "passage_reverse": "译→经",
    "cloze": "填空",
    "stages": "仪节次序",
    "steps": "步骤次序",
    "order": "上下·第几",
}
KIND_TAGS = {  # deck-spec kind → Chinese tag
    "terms": "词语",
    "passages": "经文",
    "cloze": "填空",
    "stages": "仪节",
    "steps": "步骤",
}
_NUM = {c: i for i, c in enumerate("〇一二三四五六七八九")}
_JUAN = re.compile(r"卷([〇一二三四五六七八九十百]+)")


@dataclass(frozen=True)
class NoteData:
    """A note: note type, identity (its GUID), deck, fields (HTML), tags and place in the text."""

    kind: str  # a deck-spec kind: terms | passages | cloze | stages | steps
    model: str  # a note type of study.decks.apkg (see CARD_KINDS)
    identity: tuple[str, ...]  # stable: never the text of a field; the fact id split at ":"
    deck: str
    fields: tuple[tuple[str, str], ...]  # (field name, HTML)
    tags: tuple[str, ...]
    order: tuple[int, ...]  # where it stands in the text; new cards come in this order
    cards: int  # how many cards Anki makes of it
    plain: tuple[str, str] | None = None  # (front, back) as plain text, for CSV/TSV export
    due: int = 0  # set by make_notes: 1-based position among the new cards
    later_than: str | None = None  # a reverse note: the fact it must not share a day with

    def field(self, name: str) -> str:
        return dict(self.fields)[name]

    @property
    def fact(self) -> str:
        return ":".join(self.identity)


def chinese_number(text: str) -> int | None:
    """四 → 4, 十七 → 17, 二十 → 20 (up to 999); None if ``text`` is not such a numeral."""
    if not text or any(c not in _NUM and c not in "十百" for c in text):
        return None
    total, digit = 0, None
    for c in text:
        if c in _NUM:
            digit = _NUM[c]
        else:
            total += (digit if digit is not None else 1) * (10 if c == "十" else 100)
            digit = None
    return total + (digit or 0)


def juan_of(document: Document, rite: Rite) -> int | None:
    """The 卷 the rite is in, read from the book titles of its text (礼经本义卷四 → 4)."""
    found = None
    for title in document.titles:
        if title.kind != "book":
            continue
        if rite.line is not None and title.line > rite.line:
            break
        m = _JUAN.search(title.text)
        if m:
            found = chinese_number(m.group(1))
        if rite.line is None:
            break
    return found


def juan_label(document: Document, rite: Rite) -> str:
    """``礼经本义 卷四`` (or just ``礼经本义`` when the text does not say)."""
    n = juan_of(document, rite)
    return f"{BOOK} 卷{numeral(n)}" if n else BOOK


def printed_label(document: Document, line: int | None) -> str | None:
    """Where ``line`` stands in the printed edition the text transcribes, as a reader cites it:
    ``頁1b第3行`` (page 1, verso, third column of 《四庫全書》's 卷; Kanripo's <pb:…_014-1b>), or
    None when the text has no page marks."""
    found = document.printed(line) if line else None
    if found is None:
        return None
    page, column = found
    return f"頁{page.rsplit('-', 1)[-1]}第{column}行"


def rite_deck(document: Document, rite: Rite) -> str:
    """``礼经本义::04 乡射礼`` (the 卷 number, zero-padded, sorts the rites in book order)."""
    n = juan_of(document, rite)
    return f"{BOOK}::{n:02d} {rite.name}" if n is not None else f"{BOOK}::{rite.name}"


def custom_deck(spec_name: str, rite: str) -> str:
    return f"{CUSTOM}::{re.sub(r'::+', '·', spec_name)}::{rite}"


def tag(*parts: str) -> str:
    """A hierarchical tag ``a::b`` (Anki tags cannot hold spaces)."""
    return "::".join(re.sub(r"\s+", "_", p.strip()) or "_" for p in parts)


def stage_label(name: str | None) -> str:
    return name or END_STAGE
