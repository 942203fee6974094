"""Render a note's cards as Anki shows them, for the teacher's preview (no Anki needed).

A subset of Anki's template language, enough for this project's note types (study.templates):
``{{Field}}``, ``{{#Field}}…{{/Field}}``, ``{{^Field}}…{{/Field}}``, ``{{FrontSide}}`` and
``{{cloze:Field}}`` with ``{{cN::text::hint}}`` deletions. Tests check it against the real
``anki`` package's rendering of the same notes.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from .notedata import NoteData
from .templates import CSS, TEMPLATES

_SECTION = re.compile(r"\{\{([#^])([^}]+)\}\}(.*?)\{\{/\2\}\}", re.S)
_TAG = re.compile(r"\{\{([^#^/}][^}]*)\}\}")
_CLOZE = re.compile(r"\{\{c(\d+)::(.*?)(?:::(.*?))?\}\}", re.S)
_STRIP = re.compile(r"<[^>]+>")


@dataclass(frozen=True)
class CardPreview:
    name: str
    front: str
    back: str


def _nonempty(value: str) -> bool:
    return bool(_STRIP.sub("", value).strip())


def _cloze(value: str, ordinal: int, *, back: bool) -> str:
    """Anki shows a cloze field only on the cards of the deletions it holds."""
    if not any(int(n) == ordinal for n in re.findall(r"\{\{c(\d+)::", value)):
        return ""

    def replace(m: re.Match[str]) -> str:
        n, text, hint = int(m.group(1)), m.group(2), m.group(3)
        if n != ordinal:
            return text
        if back:
            return f'<span class="cloze">{text}</span>'
        return f'<span class="cloze">[{hint or "..."}]</span>'

    return _CLOZE.sub(replace, value)


def render(template: str, fields: dict[str, str], *, ordinal: int = 1, back: bool = False, front: str = "") -> str:
    """One side of one card."""

    def sections(text: str) -> str:
        while True:
            m = _SECTION.search(text)
            if m is None:
                return text
            kind, name, inner = m.group(1), m.group(2).strip(), m.group(3)
            value = fields.get(name, "")
            if name.startswith("cloze:"):
                value = fields.get(name[6:], "")
            shown = _nonempty(value) if kind == "#" else not _nonempty(value)
            text = text[: m.start()] + (inner if shown else "") + text[m.end() :]

    def tag(m: re.Match[str]) -> str:
        name = m.group(1).strip()
        if name == "FrontSide":
            return front
        if name.startswith("cloze:"):
            return _cloze(fields.get(name[6:], ""), ordinal, back=back)
        return fields.get(name.split(":")[-1], "")

    return _TAG.sub(tag, sections(template))


def card_previews(note: NoteData) -> list[CardPreview]:
    """Every card Anki makes of ``note`` (a card whose front is empty is not made)."""
    fields = dict(note.fields)
    out: list[CardPreview] = []
    templates = TEMPLATES[note.model]
    if note.model in ("cloze", "overlap"):
        name, qfmt, afmt = templates[0]
        numbers = sorted({int(n) for value in fields.values() for n in re.findall(r"\{\{c(\d+)::", value)})
        for n in numbers:
            front = render(qfmt, fields, ordinal=n)
            out.append(CardPreview(f"{name} {n}", front, render(afmt, fields, ordinal=n, back=True, front=front)))
        return out
    for name, qfmt, afmt in templates:
        front = render(qfmt, fields)
        if _nonempty(front):
            out.append(CardPreview(name, front, render(afmt, fields, back=True, front=front)))
    return out


def plain_text(html: str) -> str:
    """What a reader sees of a rendered side: tags dropped, spaces collapsed."""
    return re.sub(r"\s+", " ", _STRIP.sub(" ", html)).strip()


STYLE = CSS
