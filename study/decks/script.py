"""Simplified cards: a deck spec's ``script: simplified`` shows the text in simplified characters.

OpenCC's ``t2s`` converts traditional forms (禮→礼, 鄉→乡, 獻→献) and leaves the variant forms the
simplified edition of the book keeps as written (賔, 髙, 乗); markup and cloze syntax are ASCII and
pass unchanged. A simplified note is a note of its own (its GUID is the fact id with 简 added) in
the spec's own deck, so the standard packages and a simplified one coexist in one collection.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import replace
from functools import lru_cache

import opencc

from .notedata import NoteData, custom_deck

MARK = "简"


@lru_cache(maxsize=1)
def _t2s() -> opencc.OpenCC:
    return opencc.OpenCC("t2s.json")


def to_simplified(text: str) -> str:
    return _t2s().convert(text) if text else text


def simplified_notes(notes: Iterable[NoteData], spec_name: str) -> list[NoteData]:
    """``notes`` with every field, tag and export text in simplified characters, as notes of their
    own in the deck ``自定::<spec name>::<rite>``."""
    out = []
    for n in notes:
        rite = n.deck.rsplit("::", 1)[-1]
        out.append(
            replace(
                n,
                identity=(*n.identity, MARK),
                deck=to_simplified(custom_deck(spec_name, rite)),
                fields=tuple((k, to_simplified(v)) for k, v in n.fields),
                tags=tuple(to_simplified(t) for t in n.tags),
                plain=(to_simplified(n.plain[0]), to_simplified(n.plain[1])) if n.plain else None,
                later_than=f"{n.later_than}:{MARK}" if n.later_than else None,
            )
        )
    return out
