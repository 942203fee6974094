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
    """The texts the project carries, in file-name order."""
    return sorted(texts_dir().glob("*.txt"))
