"""Spaced-repetition study of the ritual texts of 《礼经本义》."""

from .build import Corpus, load_corpus, load_document
from .corpus import parse_corpus
from .errors import CorpusFormatError, DeckSpecError, SourceError, StudyError
from .model import Document, LineKind, Passage, Rite, Segment, Stage, Title
from .normalize import normalize, search_key

__all__ = [
    "Corpus",
    "CorpusFormatError",
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
    "load_corpus",
    "load_document",
    "normalize",
    "parse_corpus",
    "search_key",
]
