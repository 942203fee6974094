"""Reviewed reference data: the category lexicon and the reading overrides (``study/data``)."""

from __future__ import annotations

from functools import lru_cache
from importlib import resources

import yaml

from ..model import CATEGORIES
from ..text.normalize import normalize


def _data(name: str) -> object:
    return yaml.safe_load(resources.files("study").joinpath(f"data/{name}").read_text("utf-8"))


@lru_cache(maxsize=1)
def categories() -> dict[str, str]:
    """Normalised headword -> category, from ``data/categories.yaml``."""
    raw = _data("categories.yaml") or {}
    assert isinstance(raw, dict)
    out: dict[str, str] = {}
    for category, words in raw.items():
        if category not in CATEGORIES:
            raise ValueError(f"study/data/categories.yaml: unknown category {category!r}")
        for word in words or ():
            out.setdefault(normalize(str(word)), str(category))
    return out


def category_of(term: str) -> str | None:
    """The reviewed category of ``term``, if the lexicon lists it."""
    return categories().get(normalize(term))
