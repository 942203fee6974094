"""What the quiz teaches around a question, pure: the introduction of a new fact (``kind:
"intro"``) and the context shown with the verdict — the term, its reading, each gloss with its
commentator (as the book writes them, and their usual name where it differs: 康成, 鄭玄) and
place, the example in its passage with the term marked, the modern stage name; for an ordering
item, the window in its right order with modern names.

Everything here is data (text as a reader sees it, :func:`~study.text.display.shown`, and character
offsets into it); the web app escapes and renders it.
"""

from __future__ import annotations

from ..decks.notedata import BOOK
from ..decks.sources import CITED_LINE
from ..model import Example, Gloss
from ..text.display import shown
from ..text.translation import usual_name
from .catalog import Catalog, Family, QuizItem, example_sense

MAX_GLOSSES = 4


def _stage(catalog: Catalog, stage_id: str | None) -> dict[str, object] | None:
    info = catalog.stages.get(stage_id) if stage_id else None
    if info is None:
        return None
    return {"id": info.id, "rite": info.rite, "name": info.name, "modern": info.modern}


def _highlight(text: str, term: str, normalized: str) -> list[int] | None:
    """[start, end) of the term in ``text`` (as written, else normalised), or None."""
    for form in (term, normalized):
        at = text.find(form) if form else -1
        if at >= 0:
            return [at, at + len(form)]
    return None


def _example_highlight(ex: Example, term: str, normalized: str) -> list[int] | None:
    """The use of the term that the example shows (the one its gloss explains, where a sentence
    uses the word twice: 甑甗匕與敦, not 鼎匕俎), in the example as shown; else the first."""
    if ex.at is not None:
        start = len(shown(ex.text[: ex.at]))
        return [start, start + len(term)]
    return _highlight(shown(ex.text), term, normalized)


def _gloss(g: Gloss, catalog: Catalog) -> dict[str, object]:
    """A gloss with its commentator and place; a curated one that cites a line of a text (the
    seeds' 「乗矢，四矢也」, 000_…txt:73) with the commentator and place of that line, in words."""
    speaker, rite, stage_id, line = g.speaker, g.rite, g.stage_id, g.line
    place = catalog.places.get((g.file or "", g.line or 0)) or None
    if g.line is None and g.speaker:
        cited = catalog.cited.get((g.speaker, g.gloss))
        if cited is not None:
            speaker, rite, stage_id, line, place = cited
        elif CITED_LINE.match(g.speaker):
            speaker = BOOK  # (a line of a text not among these: the book, never a file name)
    elif (g.file or "", g.line or 0) in catalog.openings:
        stage_id = None  # the note that opens the rite, before its first stage
    return {
        "gloss": g.gloss,
        "commentator": speaker,
        "commentator_name": usual_name(speaker),
        "rite": rite,
        "stage": _stage(catalog, stage_id),
        "line": line,
        "place": place or None,
    }


def teaching(item: QuizItem, catalog: Catalog) -> dict[str, object]:
    """What introduces ``item``'s fact and explains its answer (the same for both)."""
    if item.passage is not None:
        p = item.passage
        term = item.term
        text = shown(p.passage.text)
        return {
            "passage": text,
            "translation": p.passage.translation,
            "highlight": _highlight(text, term.term, term.normalized) if term is not None else None,
            "term": term.term if term is not None else None,
            "reading": term.pinyin if term is not None else None,
            "rite": item.rite,
            "stage": _stage(catalog, p.stage.id),
            "line": p.passage.lines[0] if p.passage.lines else None,
            "place": catalog.places.get((p.file, p.passage.lines[0])) or None if p.passage.lines else None,
        }
    if item.family == Family.VOCAB:
        term = item.term
        assert term is not None
        glosses = [_gloss(g, catalog) for g in (example_sense(term) or term.glosses)[:MAX_GLOSSES]]  # one sense
        example = None
        if term.example is not None:
            ex = term.example
            example = {
                "text": shown(ex.text),
                "highlight": _example_highlight(ex, term.term, term.normalized),
                "rite": ex.rite,
                "stage": _stage(catalog, ex.stage_id),
                "line": ex.line,
                "place": catalog.places.get((ex.file, ex.line)) or None,
            }
        return {
            "term": term.term,
            "reading": term.pinyin,
            "category": term.category,
            "glosses": glosses,
            "example": example,
            "stage": _stage(catalog, item.stage_id),
            "rite": item.rite,
        }
    seq = item.sequence
    assert seq is not None
    start, size = item.window
    window = seq.elements[start : start + size]
    return {
        "title": seq.title,
        "rite": item.rite,
        "stage": _stage(catalog, seq.stage_id or item.stage_id if item.direction == "steps" else None),
        "sequence": [{"text": shown(e.text), "modern": e.modern} for e in window],
        "position": [start + 1, len(seq.elements)],
    }
