"""Where the project's decks and texts are: a checkout's own ``decks/``, ``$STUDY_DECKS`` or the working directory."""

from __future__ import annotations

import os
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def decks_dir() -> Path:
    """The deck folder: ``$STUDY_DECKS``, else the project's own ``decks/`` (a checkout), else
    ``decks/`` in the working directory (an installed package run from the project's folder)."""
    if os.environ.get("STUDY_DECKS"):
        return Path(os.environ["STUDY_DECKS"])
    own = ROOT / "decks"
    return own if own.is_dir() else Path.cwd() / "decks"


def texts_dir() -> Path:
    return decks_dir() / "texts"


def default_text_paths() -> list[Path]:
    """The texts the project carries (its corpus), in file-name order."""
    return corpus_files(texts_dir())


NOT_CORPUS = ("translation", "excerpt")  # manifest roles of texts the book supersedes


def corpus_files(folder: Path) -> list[Path]:
    """``folder``'s ``*.txt`` except those its ``manifest.yaml`` gives the role ``translation`` (a
    source of modern translation attached to the book) or ``excerpt`` (part of a rite the book
    holds whole). A manifest that cannot be read here excludes nothing; its reader reports it."""
    import yaml

    excluded: set[str] = set()
    manifest = folder / "manifest.yaml"
    if manifest.is_file():
        try:
            data = yaml.safe_load(manifest.read_text("utf-8")) or {}
            for name, entry in (data.get("texts") or {}).items():
                if isinstance(entry, dict) and entry.get("role") in NOT_CORPUS:
                    excluded.add(str(name))
        except (yaml.YAMLError, AttributeError, UnicodeDecodeError):
            pass
    return sorted(p for p in folder.glob("*.txt") if p.name not in excluded)
