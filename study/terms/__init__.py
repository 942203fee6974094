"""Terms: the vocabulary of a text — glosses read from the commentary, the curated glossary,
lexicon categories and readings.

May import :mod:`study.text` and the top-level model and helpers; nothing from decks or learn."""
