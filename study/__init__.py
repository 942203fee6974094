"""Spaced-repetition study of the ritual texts of 《礼经本义》.

The public API is re-exported here lazily (PEP 562), so that importing one stage of the pipeline
(``study.text``, ``study.terms``, ``study.decks``, ``study.learn``) loads nothing of the later ones.
"""

from __future__ import annotations

from importlib import import_module
from typing import Any

_EXPORTS = {
    "BuildReport": "study.build",
    "build_deck": "study.build",
    "load_corpus": "study.build",
    "load_document": "study.build",
    "Corpus": "study.model",
    "Document": "study.model",
    "LineKind": "study.model",
    "Passage": "study.model",
    "Rite": "study.model",
    "Segment": "study.model",
    "Stage": "study.model",
    "Title": "study.model",
    "CorpusFormatError": "study.errors",
    "DeckSpecError": "study.errors",
    "SourceError": "study.errors",
    "StudyError": "study.errors",
    "parse_corpus": "study.text.corpus",
    "normalize": "study.text.normalize",
    "search_key": "study.text.normalize",
    "DeckSpec": "study.decks.deckspec",
    "load_deckspec": "study.decks.deckspec",
    "parse_deckspec": "study.decks.deckspec",
}

__all__ = sorted(_EXPORTS)


def __getattr__(name: str) -> Any:
    if name in _EXPORTS:
        return getattr(import_module(_EXPORTS[name]), name)
    raise AttributeError(f"module 'study' has no attribute {name!r}")


def __dir__() -> list[str]:
    return __all__
