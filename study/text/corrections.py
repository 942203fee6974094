"""A teacher's corrections of the modern translations (``decks/translations.yaml``), as
``decks/glossary.yaml`` corrects glosses: each says what to find in a translation text's lines,
what to put instead, where (the file; optionally a rite, a stage, a passage's classical text) and
why (the reference). Read with every problem reported at once as ``path:line: …``.

A correction is applied to the translation lines of the file it names, after the alignment has
paired them with the classical lines (:func:`study.text.align.align_document`), so that the
pairing is the one read off the text as written and everything rendered from a line — a
passage's translation, a commentary's, a stage's modern name — shows the corrected words. It
must find exactly as many occurrences in its scope as its ``count`` says (1 if it says none: a
second one would be ambiguous); one that finds none is an error too. Corrections apply in the
order written, each to the text the ones before it left.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from ..errors import TranslationsError
from ..yamlsrc import load_yaml, read_source
from .normalize import search_key

TRANSLATIONS_FILE = "translations.yaml"
_ENTRY_KEYS = ("file", "rite", "stage", "passage", "find", "replace", "count", "reason")
_SCOPE_KEYS = ("rite", "stage", "passage")
Problem = tuple[int | None, str]


@dataclass(frozen=True)
class Correction:
    """Replace ``find`` by ``replace`` in the translation lines of ``file`` that lie in its scope."""

    file: str
    find: str
    replace: str
    reason: str
    count: int = 1  # the occurrences in scope, each replaced; more or fewer is an error
    rite: str | None = None  # as written; matched on the normalised form (鄉射禮 = 乡射礼)
    stage: str | None = None  # a stage name, as above
    passage: str | None = None  # words of the classical text the line renders, as above
    line: int = field(default=0, compare=False)

    @property
    def scope(self) -> str:
        """Where the correction looks, in words: 「000_….txt, rite 乡射礼, passage 命上射曰」."""
        parts = [self.file] + [f"{k} {getattr(self, k)}" for k in _SCOPE_KEYS if getattr(self, k)]
        return ", ".join(parts)


@dataclass(frozen=True)
class Place:
    """What one translation line renders: its rites and stages, and the classical texts of the
    passages (or headings) it renders — all normalised (:func:`search_key`)."""

    rites: frozenset[str] = frozenset()
    stages: frozenset[str] = frozenset()
    texts: tuple[str, ...] = ()


@dataclass(frozen=True)
class Corrections:
    """The corrections of one file (``decks/translations.yaml``), in the order written."""

    entries: tuple[Correction, ...] = ()
    path: str = TRANSLATIONS_FILE

    def for_file(self, name: str) -> tuple[Correction, ...]:
        return tuple(c for c in self.entries if c.file == name)

    def check_files(self, folder: Path) -> None:
        """Every file named is a text of ``folder`` (the texts folder these corrections are read with)."""
        problems = [
            (c.line, f"file: no text {c.file!r} in {folder}") for c in self.entries if not (folder / c.file).is_file()
        ]
        if problems:
            raise TranslationsError.many(problems, path=self.path)


def parse_corrections(text: str, path: str) -> Corrections:
    """Read a corrections file; every problem is reported at once as ``path:line: …``."""
    doc = load_yaml(text, path, TranslationsError)
    data = doc.data if doc.data is not None else {}
    if not isinstance(data, dict):
        raise TranslationsError("the file must be a mapping with 'corrections'", path=path, line=1)
    problems: list[Problem] = []
    for key in data:
        if key not in ("version", "corrections"):
            problems.append((doc.line(key), f"unknown key {key!r} (expected version, corrections)"))
    raw = data.get("corrections") or []
    if not isinstance(raw, list):
        problems.append((doc.line("corrections"), "corrections must be a list"))
        raw = []
    entries = []
    for i, entry in enumerate(raw):
        got = _entry(entry, ("corrections", i), doc.line, problems)
        if got is not None:
            entries.append(got)
    if problems:
        raise TranslationsError.many(problems, path=path)
    return Corrections(tuple(entries), path)


def _entry(
    raw: object, at: tuple[object, ...], line_of: Callable[..., int], problems: list[Problem]
) -> Correction | None:
    """One entry of ``corrections:``, or None with its problems added (each at its key's line)."""
    line = line_of(*at)
    if not isinstance(raw, dict):
        problems.append(
            (line, "a correction is a mapping {file, find, replace, reason, count?, rite?, stage?, passage?}")
        )
        return None
    before = len(problems)
    for key in raw:
        if key not in _ENTRY_KEYS:
            problems.append((line_of(*at, key), f"unknown key {key!r} in a correction ({', '.join(_ENTRY_KEYS)})"))
    values: dict[str, str | None] = {}
    for key in ("file", "find", "replace", "reason", *_SCOPE_KEYS):
        value = raw.get(key)
        required = key in ("file", "find", "replace", "reason")
        if value is None and not required:
            values[key] = None
        elif not isinstance(value, str) or not value.strip():
            said = "missing" if value is None else f"not {value!r}"
            problems.append((line_of(*at, key), f"{key}: must be non-empty text ({said})"))
        else:
            values[key] = value.strip() if key in ("file", "reason", *_SCOPE_KEYS) else value
    count = raw.get("count", 1)
    if isinstance(count, bool) or not isinstance(count, int) or count < 1:
        problems.append(
            (line_of(*at, "count"), f"count: must be a whole number of occurrences, 1 or more (not {count!r})")
        )
    find, replace = values.get("find"), values.get("replace")
    if find is not None and find == replace:
        problems.append((line_of(*at, "replace"), f"replace: the same as find ({find!r})"))
    file = values.get("file")
    if file is not None and ("/" in file or "\\" in file or not file.endswith(".txt")):
        problems.append((line_of(*at, "file"), f"file: a text's file name (….txt beside the others), not {file!r}"))
    if len(problems) > before:
        return None
    assert file is not None and find is not None and replace is not None
    return Correction(
        file,
        find,
        replace,
        str(values["reason"]),
        count,
        values.get("rite"),
        values.get("stage"),
        values.get("passage"),
        line,
    )


def load_corrections(path: Path) -> Corrections:
    return parse_corrections(read_source(path, TranslationsError), str(path))


def _in_scope(c: Correction, place: Place) -> bool:
    if c.rite and search_key(c.rite) not in place.rites:
        return False
    if c.stage and search_key(c.stage) not in place.stages:
        return False
    return not c.passage or any(search_key(c.passage) in text for text in place.texts)


def apply_corrections(
    corrections: Sequence[Correction], texts: Mapping[int, str], places: Mapping[int, Place], *, path: str
) -> dict[int, str]:
    """``texts`` (translation line → its text) with ``corrections`` applied, in order.

    Raises :class:`TranslationsError` (at ``path``, the corrections' file) for each correction
    that finds nothing in its scope, or another number of occurrences than its ``count``.
    """
    out = dict(texts)
    problems: list[Problem] = []
    for c in corrections:
        lines = [n for n in sorted(out) if c.find in out[n] and _in_scope(c, places.get(n, Place()))]
        found = sum(out[n].count(c.find) for n in lines)
        if found == 0:
            elsewhere = [n for n in sorted(out) if c.find in out[n]]
            where = f" (it is on line {_lines(elsewhere)}, outside the scope)" if elsewhere else ""
            problems.append((c.line, f"{c.find!r} matches nothing in {c.scope}{where}"))
            continue
        if found != c.count:
            if c.count == 1:
                said = f"is ambiguous: {found} occurrences in {c.scope} (lines {_lines(lines)}); say count: {found} to replace every one, or narrow it with rite, stage or passage"
            else:
                said = f"has {found} occurrences in {c.scope} (lines {_lines(lines)}), not count: {c.count}"
            problems.append((c.line, f"{c.find!r} {said}"))
            continue
        for n in lines:
            out[n] = out[n].replace(c.find, c.replace)
    if problems:
        raise TranslationsError.many(problems, path=path)
    return out


def _lines(lines: Sequence[int]) -> str:
    shown = ", ".join(map(str, lines[:8]))
    return shown + (f" … ({len(lines)} lines)" if len(lines) > 8 else "")
