"""One note to write, as plain data: what :mod:`study.cards` makes and :mod:`study.apkg` writes."""

from __future__ import annotations

import re
from dataclasses import dataclass

BOOK = "礼经本义"  # the top deck
DECK_LABELS = {  # subdeck of each kind, under 礼经本义::<rite>
    "terms": "词语",
    "passages": "经文",
    "cloze": "填空",
    "stages": "仪节次序",
    "steps": "步骤次序",
}
END_STAGE = "篇末"  # label of the unnamed stage an excerpt ends in


@dataclass(frozen=True)
class NoteData:
    """A note: its note type, identity (for the GUID), deck, fields (HTML), tags and place in the text."""

    kind: str  # a deck-spec kind: terms | passages | cloze | stages | steps
    model: str  # a note type of study.apkg: term | passage | cloze | order | overlap
    identity: tuple[str, ...]  # stable: never the text of a field
    deck: str
    fields: tuple[tuple[str, str], ...]  # (field name, HTML)
    tags: tuple[str, ...]
    order: tuple[int, ...]  # where it stands in the text; new cards come in this order
    cards: int  # how many cards Anki makes of it
    plain: tuple[str, str] | None = None  # (front, back) as plain text, for CSV/TSV export
    due: int = 0  # set by make_notes: 1-based position among the new cards

    def field(self, name: str) -> str:
        return dict(self.fields)[name]


def deck_name(rite: str, kind: str) -> str:
    return f"{BOOK}::{rite}::{DECK_LABELS[kind]}"


def tag(*parts: str) -> str:
    """A hierarchical tag ``a::b`` (Anki tags cannot hold spaces)."""
    return "::".join(re.sub(r"\s+", "_", p.strip()) or "_" for p in parts)


def stage_label(name: str | None) -> str:
    return name or END_STAGE
