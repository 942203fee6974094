"""Learn: quiz items and their grading, FSRS scheduling, the review store and its migrations,
progress, classes, reports, Moodle export and backups.

May import :mod:`study.text`, :mod:`study.terms` and :mod:`study.decks` (for items and specs) and
the top-level model and helpers; never :mod:`study.build`, :mod:`study.cli` or ``web``."""
