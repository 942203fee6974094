"""The manifest of the texts a deck folder carries (``decks/texts/manifest.yaml``)."""

from __future__ import annotations

from dataclasses import dataclass, field
from pathlib import Path

from ..errors import ManifestError
from ..yamlsrc import load_yaml, read_source

MANIFEST = "manifest.yaml"
ROLES = ("book", "translation", "excerpt")


@dataclass(frozen=True)
class TextEntry:
    """What one text file holds."""

    file: str
    rites: tuple[str, ...] = ()
    juan: tuple[int, ...] = ()
    first_rite: str | None = None
    translation: bool | None = None
    role: str | None = None  # book | translation (attaches to attach_to) | excerpt (节选, not in the corpus)
    attach_to: tuple[str, ...] = ()

    @property
    def in_corpus(self) -> bool:
        return self.role in (None, "book")


@dataclass(frozen=True)
class Manifest:
    book: str = "礼经本义"
    author: str = ""
    texts: dict[str, TextEntry] = field(default_factory=dict)

    def entry(self, file: str) -> TextEntry | None:
        return self.texts.get(file)

    def translations_for(self, file: str) -> list[str]:
        """The translation texts whose modern translation attaches to ``file``."""
        return [e.file for e in self.texts.values() if e.role == "translation" and file in e.attach_to]


def parse_manifest(text: str, path: str) -> Manifest:
    """Read a manifest; every problem is reported at once as ``path:line: …``."""
    doc = load_yaml(text, path, ManifestError)
    data = doc.data or {}
    problems: list[tuple[int | None, str]] = []
    if not isinstance(data, dict):
        raise ManifestError("the manifest must be a mapping", path=path, line=1)
    for key in data:
        if key not in ("book", "author", "texts"):
            problems.append((doc.line(key), f"unknown key {key!r}"))
    texts: dict[str, TextEntry] = {}
    raw_texts = data.get("texts") or {}
    if not isinstance(raw_texts, dict):
        problems.append((doc.line("texts"), "texts must map file names to entries"))
        raw_texts = {}
    for file, entry in raw_texts.items():
        entry = entry or {}
        if not isinstance(entry, dict):
            problems.append((doc.line("texts", file), f"{file}: entry must be a mapping"))
            continue
        for key in entry:
            if key not in ("rites", "juan", "first_rite", "translation", "role", "attach_to"):
                problems.append((doc.line("texts", file, key), f"{file}: unknown key {key!r}"))
        rites = entry.get("rites") or []
        juan = entry.get("juan") or []
        if not isinstance(rites, list) or not all(isinstance(r, str) for r in rites):
            problems.append((doc.line("texts", file, "rites"), f"{file}: rites must be a list of names"))
            rites = []
        if not isinstance(juan, list) or not all(isinstance(j, int) for j in juan):
            problems.append((doc.line("texts", file, "juan"), f"{file}: juan must be a list of numbers"))
            juan = []
        first = entry.get("first_rite")
        if first is not None and not isinstance(first, str):
            problems.append((doc.line("texts", file, "first_rite"), f"{file}: first_rite must be a name"))
            first = None
        role = entry.get("role")
        if role is not None and role not in ROLES:
            problems.append((doc.line("texts", file, "role"), f"{file}: role must be one of {', '.join(ROLES)}"))
            role = None
        attach = entry.get("attach_to") or []
        if not isinstance(attach, list) or not all(isinstance(a, str) for a in attach):
            problems.append((doc.line("texts", file, "attach_to"), f"{file}: attach_to must be a list of files"))
            attach = []
        if attach and role != "translation":
            problems.append((doc.line("texts", file, "attach_to"), f"{file}: attach_to needs role: translation"))
        texts[str(file)] = TextEntry(
            str(file), tuple(rites), tuple(juan), first, entry.get("translation"), role, tuple(attach)
        )
    if problems:
        raise ManifestError.many(problems, path=path)
    return Manifest(str(data.get("book") or "礼经本义"), str(data.get("author") or ""), texts)


def find_manifest(text_path: Path) -> Manifest:
    """The manifest beside ``text_path``, or an empty one."""
    candidate = text_path.parent / MANIFEST
    if candidate.is_file():
        return parse_manifest(read_source(candidate, ManifestError), str(candidate))
    return Manifest()
