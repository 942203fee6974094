"""Spaced-repetition study of the ritual texts of 《礼经本义》."""

from .build import BuildReport, Corpus, build_deck, load_corpus, load_document
from .corpus import parse_corpus
from .deckspec import DeckSpec, load_deckspec, parse_deckspec
from .errors import CorpusFormatError, DeckSpecError, SourceError, StudyError
from .model import Document, LineKind, Passage, Rite, Segment, Stage, Title
from .normalize import normalize, search_key

__all__ = [
    "BuildReport",
    "Corpus",
    "CorpusFormatError",
    "DeckSpec",
    "DeckSpecError",
    "Document",
    "LineKind",
    "Passage",
    "Rite",
    "Segment",
    "SourceError",
    "Stage",
    "StudyError",
    "Title",
    "build_deck",
    "load_corpus",
    "load_deckspec",
    "load_document",
    "normalize",
    "parse_corpus",
    "parse_deckspec",
    "search_key",
]
