"""Decks: a deck spec selects from texts and terms, and becomes notes, Anki packages, CSV/TSV and
card previews; also the study items (passages, order sequences) that the quiz reuses.

May import :mod:`study.text`, :mod:`study.terms` and the top-level model and helpers; nothing
from learn."""
