"""Anki packages: the note types and the writer. The only module that imports genanki.

Note types have fixed ids and frozen field lists: a field added later would fork the note type
in every collection that imported an earlier deck. Templates and CSS may change (Anki updates a
note type from a newer package when its fields are the same). GUIDs come from each note's
identity, so a rebuilt package updates the notes a student has, keeping their reviews.
"""

from __future__ import annotations

import hashlib
import html
import itertools
import sqlite3
import time
import zipfile
from collections.abc import Sequence
from pathlib import Path
from typing import BinaryIO

import genanki

from ..atomic import atomic_write
from .notedata import NoteData
from .ordercards import OVERLAP_FIELDS
from .templates import CSS, TEMPLATES

MODEL_IDS = {  # never change these
    "term": 1739480201,  # 1739480101 held term notes with both directions (before the 词语 split)
    "term_reverse": 1739480202,
    "passage": 1739480203,  # 1739480102: whole paragraphs, both directions
    "passage_reverse": 1739480204,
    "cloze": 1739480103,
    "order": 1739480104,
    "overlap": 1739480105,
}
DECK_ID_BASE = 1_700_000_000_000  # deck id = base + a hash of the deck's name
_TERM = ("Term", "Reading", "Sense", "Glosses", "Example", "Context", "Source")
_PASSAGE = ("Passage", "Translation", "Before", "Commentary", "Context", "Source")
FIELDS = {  # frozen: only ever rename a field together with a new model id
    "term": _TERM,
    "term_reverse": ("Clue", *_TERM),
    "passage": _PASSAGE,
    "passage_reverse": _PASSAGE,
    "cloze": ("Text", "Glosses", "Translation", "Commentary", "Context", "Source"),
    "order": (
        "Title",
        "Unit",
        "Position",
        "Count",
        "Item",
        "Prev",
        "Next",
        "AskNext",
        "AskPrev",
        "AskPosition",
        "Source",
    ),
    "overlap": ("Title", *OVERLAP_FIELDS, "Full", "Source"),
}
NAMES = {
    "term": "礼经本义 · 词→义",
    "term_reverse": "礼经本义 · 义→词",
    "passage": "礼经本义 · 经→译",
    "passage_reverse": "礼经本义 · 译→经",
    "cloze": "礼经本义 · 填空",
    "order": "礼经本义 · 次序",
    "overlap": "礼经本义 · 次序填空",
}
SORT_FIELD = {"order": 4, "term_reverse": 1}  # the element, the headword


def _model(kind: str) -> genanki.Model:
    return genanki.Model(
        MODEL_IDS[kind],
        NAMES[kind],
        fields=[{"name": name, "font": "Noto Serif CJK SC", "size": 24} for name in FIELDS[kind]],
        templates=[{"name": name, "qfmt": q, "afmt": a} for name, q, a in TEMPLATES[kind]],
        css=CSS,
        model_type=genanki.Model.CLOZE if kind in ("cloze", "overlap") else genanki.Model.FRONT_BACK,
        sort_field_index=SORT_FIELD.get(kind, 0),
    )


def deck_id(name: str) -> int:
    """A stable id for a deck name."""
    return DECK_ID_BASE + int.from_bytes(hashlib.sha256(name.encode()).digest()[:4], "big")


def note_guid(note: NoteData) -> str:
    """The GUID of the note's fact (``genanki.guid_for`` of the fact id's parts)."""
    return genanki.guid_for(*note.identity)


def _note(note: NoteData, model: genanki.Model) -> genanki.Note:
    values = dict(note.fields)
    names = FIELDS[note.model]
    if set(values) != set(names):
        raise ValueError(f"{note.identity}: fields {sorted(values)} do not match note type {note.model} {names}")
    return genanki.Note(
        model=model, fields=[values[n] for n in names], tags=list(note.tags), guid=note_guid(note), due=note.due
    )


def package(notes: Sequence[NoteData], *, description: str = "") -> genanki.Package:
    """The genanki package of ``notes``, one deck per deck name."""
    models = {kind: _model(kind) for kind in MODEL_IDS}
    decks: dict[str, genanki.Deck] = {}
    for n in notes:
        if n.deck not in decks:
            # Anki desktop shows the description as HTML: a deck named <img onerror=…> stays text
            decks[n.deck] = genanki.Deck(deck_id(n.deck), n.deck, html.escape(description))
        decks[n.deck].add_note(_note(n, models[n.model]))
    return genanki.Package(list(decks.values()))


def write_package(pkg: genanki.Package, out: Path, *, timestamp: float | None = None) -> None:
    """Write ``pkg`` to ``out`` atomically (a temporary file beside it, then a rename).

    Unlike ``Package.write_to_file``, the collection is built in memory, so no scratch database is
    left in the system's temporary folder, and the zip entries carry the build time, so the same
    ``timestamp`` gives the same bytes. Anki only updates notes from a package that is newer than
    what the collection holds: leave ``timestamp`` to the build time except in tests.
    """
    stamp = time.time() if timestamp is None else timestamp
    conn = sqlite3.connect(":memory:")
    try:
        pkg.write_to_db(conn.cursor(), stamp, itertools.count(int(stamp * 1000)))
        conn.commit()
        data = conn.serialize()
    finally:
        conn.close()
    when = time.gmtime(max(stamp, 315532800))[:6]  # zip dates start in 1980
    atomic_write(out, lambda f: _zip(f, data, when))


def _zip(f: BinaryIO, data: bytes, when: tuple[int, ...]) -> None:
    with zipfile.ZipFile(f, "w") as z:
        z.writestr(zipfile.ZipInfo("collection.anki2", when), data, compress_type=zipfile.ZIP_DEFLATED)
        z.writestr(zipfile.ZipInfo("media", when), "{}")


def write_apkg(notes: Sequence[NoteData], out: Path, *, timestamp: float | None = None, description: str = "") -> None:
    """Write ``notes`` as an Anki package at ``out``."""
    write_package(package(notes, description=description), out, timestamp=timestamp)
