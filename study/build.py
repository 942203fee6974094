"""Use-cases shared by the CLI and the web app: loading texts, building decks."""

from __future__ import annotations

import os
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from .align import align_document
from .corpus import parse_corpus
from .errors import CorpusFormatError, GlossaryError, UnknownRiteError
from .glossary import CURATED_FILE, build_terms, load_curated
from .manifest import Manifest, find_manifest
from .model import Document, Rite, Term

ROOT = Path(__file__).resolve().parents[1]


def decks_dir() -> Path:
    """The deck folder: ``$STUDY_DECKS`` or the project's own ``decks/``."""
    return Path(os.environ.get("STUDY_DECKS") or ROOT / "decks")


def texts_dir() -> Path:
    return decks_dir() / "texts"


def default_text_paths() -> list[Path]:
    """The texts the project carries, in file-name order."""
    return sorted(texts_dir().glob("*.txt"))


def load_document(path: Path, manifest: Manifest | None = None) -> Document:
    """Read and parse one text; the manifest beside it names the rite it opens in."""
    manifest = manifest if manifest is not None else find_manifest(path)
    entry = manifest.entry(path.name)
    try:
        data = path.read_bytes()
    except OSError as e:
        raise CorpusFormatError(f"cannot read: {e.strerror}", path=str(path), line=None) from None
    doc = parse_corpus(
        data,
        path.name,
        first_rite=entry.first_rite if entry else None,
        book=manifest.book,
        rites=entry.rites if entry else (),
    )
    return align_document(doc)


@dataclass(frozen=True)
class Corpus:
    """Several parsed texts."""

    documents: tuple[Document, ...]

    def rites(self) -> list[tuple[Document, Rite]]:
        return [(d, r) for d in self.documents for r in d.rites]

    def rite(self, name: str) -> tuple[Document, Rite]:
        for d, r in self.rites():
            if r.name == name:
                return d, r
        known = "、".join(r.name for _, r in self.rites())
        raise UnknownRiteError(f"unknown rite {name!r} (known: {known})")

    def document(self, file: str) -> Document | None:
        for d in self.documents:
            if d.file == file:
                return d
        return None


def default_glossary_path() -> Path:
    return decks_dir() / CURATED_FILE


def load_terms(documents: Sequence[Document], glossary: Path | None = None) -> list[Term]:
    """The terms of ``documents`` merged with the curated glossary (default ``decks/glossary.yaml``)."""
    path = glossary if glossary is not None else default_glossary_path()
    curated = load_curated(path) if path.is_file() else None
    if glossary is not None and curated is None:
        raise GlossaryError("no such glossary file", path=str(glossary), line=None)
    return build_terms(documents, curated)


def load_corpus(paths: Iterable[Path] | None = None) -> Corpus:
    """Parse ``paths`` (default: the project's texts)."""
    chosen: Sequence[Path] = list(paths) if paths is not None else default_text_paths()
    return Corpus(tuple(load_document(p) for p in chosen))
