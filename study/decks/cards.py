"""The notes of a deck, as plain data (no genanki): terms, passages, clozes and orders.

Every field is HTML made by :mod:`study.markup`, so all text from the corpus, the glossary and
the teacher's spec is escaped exactly once.
"""

from __future__ import annotations

from dataclasses import replace

from ..model import Gloss, Passage, Stage
from .items import PassageItem
from .markup import cloze_text, esc, highlight, items, mask, ruby, span
from .notedata import NoteData, deck_name, stage_label, tag
from .ordercards import order_notes
from .selection import Selection, TermChoice, cloze_spans, passage_choices

CATEGORY_LABELS = {
    "vessel": "器皿",
    "implement": "器物",
    "garment": "服饰",
    "action": "动作",
    "place": "处所",
    "role": "人物",
    "measure": "度量",
    "other": "其他",
}
MAX_GLOSSES = 5
HINT_CHARS = 12  # a cloze hint (the term's first gloss) is cut to this length
_KIND_RANK = {"terms": 0, "passages": 1, "cloze": 2, "steps": 3, "stages": 4}


def _glosses(glosses: tuple[Gloss, ...], term: str, *, masked: bool) -> tuple[list[str], list[str]]:
    """Distinct glosses (with who gave them) as HTML list items, and as plain text."""
    merged: dict[str, list[str]] = {}
    for g in glosses:
        who = g.speaker or (g.file if g.formula == "spec" else None)
        names = merged.setdefault(g.gloss, [])
        if who and who not in names:
            names.append(who)
    html, text = [], []
    for gloss, names in list(merged.items())[:MAX_GLOSSES]:
        shown = mask(gloss, [term]) if masked else gloss
        html.append(span("gloss", shown) + span("who", "、".join(names)))
        text.append(shown)
    return html, text


def _where(rite: str | None, stage: str | None, file: str | None, line: int | None) -> str:
    parts = [p for p in (rite, stage, f"{file}:{line}" if file and line else file) if p]
    return " · ".join(parts)


def _term_source(choice: TermChoice) -> str:
    t = choice.term
    located = next((g for g in t.glosses if g.line is not None), None)
    if located:
        return _where(located.rite, stage_label(located.stage), located.file, located.line)
    if t.example:
        stage = choice.stage.name if choice.stage and choice.stage.id == t.example.stage_id else None
        return _where(t.example.rite, stage, t.example.file, t.example.line)
    first = t.glosses[0]
    return _where(None, None, first.file, None) + (f"（{first.speaker}）" if first.speaker else "")


def term_note(choice: TermChoice) -> NoteData:
    t = choice.term
    glosses, plain_glosses = _glosses(t.glosses, t.term, masked=False)
    clues, _ = _glosses(t.glosses, t.term, masked=True)
    example = t.example.text if t.example else ""
    fields = (
        ("Term", esc(t.term)),
        ("Reading", ruby(t.term, t.pinyin)),
        ("Pinyin", esc(t.pinyin)),
        ("Glosses", items(glosses, "glosses")),
        ("Clue", items(clues, "glosses")),
        ("Category", esc(CATEGORY_LABELS.get(t.category, t.category))),
        ("Example", highlight(example, t.term)),
        ("ExampleClue", esc(mask(example, [t.term])).replace("～", '<b class="hl">～</b>')),
        ("Source", esc(_term_source(choice))),
    )
    stage = stage_label(choice.stage.name) if choice.stage else None
    tags = [tag("kind", "terms"), tag("category", t.category), tag(choice.rite, *([stage] if stage else []))]
    return NoteData(
        "terms",
        "term",
        ("term", choice.rite, t.normalized),
        deck_name(choice.rite, "terms"),
        fields,
        tuple(tags),
        choice.order,
        2,
        (f"{t.term} ({t.pinyin})" if t.pinyin else t.term, "；".join(plain_glosses)),
    )


def _context(rite: str, stage: Stage) -> str:
    modern = f"（{stage.modern_name}）" if stage.modern_name else ""
    return f"{rite} · {stage_label(stage.name)}{modern}"


def _commentary(passage: Passage) -> str:
    return items((span("who", s.speaker) + esc(s.text) for s in passage.commentary), "commentary")


def _source(file: str, passage: Passage) -> str:
    first, last = passage.span
    return f"{file}:{first}" + (f"–{last}" if last != first else "")


def passage_note(item: PassageItem, order: tuple[int, ...]) -> NoteData:
    p = item.passage
    fields = (
        ("Passage", esc(p.text)),
        ("Translation", esc(p.translation)),
        ("Commentary", _commentary(p)),
        ("Context", esc(_context(item.rite, item.stage))),
        ("Source", esc(_source(item.file, p))),
    )
    return NoteData(
        "passages",
        "passage",
        ("passage", item.id),
        deck_name(item.rite, "passages"),
        fields,
        (tag("kind", "passages"), tag(item.rite, stage_label(item.stage.name))),
        order,
        2,
        (p.text, p.translation or ""),
    )


def cloze_note(item: PassageItem, order: tuple[int, ...], max_terms: int) -> NoteData | None:
    """A cloze over the glossed terms of a passage (every occurrence of a term shares its number);
    None when the passage contains none, since a cloze note needs a deletion."""
    spans = cloze_spans(item, max_terms=max_terms)
    if not spans:
        return None
    numbers: dict[str, int] = {}
    for _, _, t in spans:
        numbers.setdefault(t.normalized, len(numbers) + 1)
    text, pos, out = item.passage.text, 0, []
    for start, end, t in spans:
        hint = mask(t.glosses[0].gloss, [t.term])[:HINT_CHARS] if t.glosses else ""
        hint_part = f"::{cloze_text(hint)}" if hint else ""
        out += [
            cloze_text(text[pos:start]),
            f"{{{{c{numbers[t.normalized]}::{cloze_text(text[start:end])}{hint_part}}}}}",
        ]
        pos = end
    out.append(cloze_text(text[pos:]))
    terms = {t.normalized: t for _, _, t in spans}
    glossed = [
        ruby(t.term, t.pinyin) + span("gloss", "；".join(dict.fromkeys(g.gloss for g in t.glosses[:3])))
        for t in terms.values()
    ]
    words = [t.term for t in terms.values()]
    fields = (
        ("Text", "".join(out)),
        ("Glosses", items(glossed, "glosses")),
        ("Translation", esc(item.passage.translation)),
        ("Commentary", _commentary(item.passage)),
        ("Context", esc(mask(_context(item.rite, item.stage), words))),
        ("Source", esc(_source(item.file, item.passage))),
    )
    return NoteData(
        "cloze",
        "cloze",
        ("cloze", item.id),
        deck_name(item.rite, "cloze"),
        fields,
        (tag("kind", "cloze"), tag(item.rite, stage_label(item.stage.name))),
        order,
        len(numbers),
    )


def _passage_notes(selection: Selection) -> list[NoteData]:
    spec = selection.spec
    # Clozes draw on every term of the scope, not only the deck's N most frequent: a passage's
    # clozes then stay the same from deck to deck, and updating one never orphans a cloze card.
    terms = selection.cloze_pool
    out: list[NoteData] = []
    for choice in selection.rites:
        for item in passage_choices(choice, terms):
            at = (choice.index, choice.position(item.stage))
            if "passages" in spec.kinds and item.passage.translation:
                out.append(passage_note(item, (*at, _KIND_RANK["passages"], item.index)))
            if "cloze" in spec.kinds:
                note = cloze_note(item, (*at, _KIND_RANK["cloze"], item.index), spec.max_cloze)
                if note is not None:
                    out.append(note)
    return out


def make_notes(selection: Selection) -> list[NoteData]:
    """Every note of the deck, in the order of the text, each with its new-card position (``due``)."""
    spec = selection.spec
    notes: list[NoteData] = []
    if "terms" in spec.kinds:
        notes += [
            replace(n, order=(*n.order, _KIND_RANK["terms"], i)) for i, n in enumerate(map(term_note, selection.terms))
        ]
    notes += _passage_notes(selection)
    for kind in ("stages", "steps"):
        if kind in spec.kinds:
            notes += order_notes(selection, kind, rank=_KIND_RANK[kind])
    notes.sort(key=lambda n: n.order)
    return [replace(n, due=i) for i, n in enumerate(notes, 1)]
