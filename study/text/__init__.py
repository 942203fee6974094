"""Text: reads each supported format (seed paragraphs, translations) into the data model of
:mod:`study.model`, normalises characters for matching, and aligns modern translations.

May import only :mod:`study.model`, :mod:`study.errors` and the shared helpers at the top of
``study`` (``paths``, ``atomic``, ``yamlsrc``); nothing from terms, decks or learn."""
