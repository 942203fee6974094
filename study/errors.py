"""Errors the user can fix: bad texts, bad specs, bad requests."""

from __future__ import annotations


class Said(str):
    """A message in English (what the command line prints) that keeps its key and values, so that
    the web app says it in the interface's language by its key (web/messages.py), never by
    matching the English words."""

    key: str
    values: dict[str, object]

    def __new__(cls, key: str, template: str, **values: object) -> Said:
        said = super().__new__(cls, template.format(**values))
        said.key, said.values = key, values
        return said

    def worded(self, text: str) -> Said:
        """The same message (key and values) in other English words, e.g. with its place before it."""
        said = str.__new__(Said, text)
        said.key, said.values = self.key, self.values
        return said


class StudyError(Exception):
    """A failure the user can fix; the CLI prints it, the web app shows it."""


class SourceError(StudyError):
    """Bad input text or YAML, reported as ``path:line: message``."""

    def __init__(self, message: str, *, path: str, line: int | None) -> None:
        where = f"{path}:{line}" if line else path
        super().__init__(f"{where}: {message}")
        self.path, self.line, self.message = path, line, message
        self.problems: list[tuple[int | None, str]] = [(line, message)]

    @classmethod
    def many(cls, problems: list[tuple[int | None, str]], *, path: str) -> SourceError:
        """One error listing every problem of a file, each on its own ``path:line:`` line."""
        problems = sorted(problems, key=lambda p: p[0] or 0)
        (line, first), rest = problems[0], problems[1:]
        more = "".join(f"\n{path}:{n}: {m}" if n else f"\n{path}: {m}" for n, m in rest)
        err = cls(first + more, path=path, line=line)
        err.problems = problems
        return err


class CorpusFormatError(SourceError):
    """A text that cannot be read as 《礼经本义》: bad encoding, unbalanced 【】, empty."""


class ManifestError(SourceError):
    """A malformed ``decks/texts/manifest.yaml``."""


class GlossaryError(SourceError):
    """A malformed curated glossary (``decks/glossary.yaml``)."""


class TranslationsError(SourceError):
    """A teacher's corrections of the modern translations (``decks/translations.yaml``) that are
    malformed, or that match nothing, or more than they say, in the text they correct."""


class DeckSpecError(SourceError):
    """A deck spec with one or more problems, each reported as ``path:line: key: message``."""


class UnknownRiteError(StudyError):
    """A rite name that no loaded text contains."""
