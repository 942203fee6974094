"""Simplified display in the web quiz: the character table the page converts with.

The quiz shows the texts as written (the book in traditional characters). A learner who picks
简体 on the page (kept in the browser, ``static/script.js``) sees every text converted character by
character with this table: OpenCC ``t2s`` for each character of the app's texts and terms that
it changes to one other character; the variant forms the simplified edition keeps (賔, 髙, 乗) are
not in it. Display only: answers are the options and positions the API gave, and typed answers are
matched on the normalised form anyway.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator

from flask import Blueprint, current_app, jsonify

from study.decks.script import to_simplified
from study.model import Document, Term

from .state import get_state

bp = Blueprint("script", __name__)


def _texts(documents: Iterable[Document], terms: Iterable[Term]) -> Iterator[str]:
    for doc in documents:
        for rite in doc.rites:
            yield rite.name
            for stage in rite.stages:
                yield (stage.name or "") + (stage.modern_name or "")
                for p in stage.passages:
                    yield p.text
                    yield from (seg.text for seg in p.commentary)
    for term in terms:
        yield term.term
        yield from (g.gloss for g in term.glosses)


def _table(documents: Iterable[Document], terms: Iterable[Term]) -> dict[str, str]:
    chars = sorted({ch for text in _texts(documents, terms) for ch in text if ord(ch) > 0x2E7F})
    out = {}
    for ch in chars:
        simple = to_simplified(ch)
        if simple != ch and len(simple) == 1:
            out[ch] = simple
    return out


def table() -> dict[str, str]:
    """The table of this app's texts and terms (made once per app)."""
    ext = current_app.extensions
    if "study.t2s" not in ext:
        state = get_state()
        ext["study.t2s"] = _table(state.documents, state.terms)
    return ext["study.t2s"]


@bp.get("/script/t2s.json")
def t2s():  # type: ignore[no-untyped-def]
    response = jsonify(table())
    response.headers["Cache-Control"] = "public, max-age=86400"
    return response
