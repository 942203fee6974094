"""Normalised forms for matching and search; display always keeps the text as written.

Variants become standard characters (賔→宾, 髙→高, 乗→乘) through ``char-converter``, traditional
becomes simplified through OpenCC, and a small reviewed table (``data/variants.yaml``) corrects
what those libraries get wrong for this book.
"""

from __future__ import annotations

import unicodedata
from functools import lru_cache
from importlib import resources

import opencc
import yaml
from char_converter import CharConverter

_PUNCT_CATEGORIES = ("P", "Z", "S", "C")


@lru_cache(maxsize=1)
def _overrides() -> dict[str, str]:
    raw = resources.files("study").joinpath("data/variants.yaml").read_text("utf-8")
    return {str(k): str(v) for k, v in (yaml.safe_load(raw) or {}).items()}


@lru_cache(maxsize=1)
def _converters() -> tuple[CharConverter, opencc.OpenCC]:
    return CharConverter("v2s"), opencc.OpenCC("t2s.json")


@lru_cache(maxsize=65536)
def _char(ch: str) -> str:
    overrides = _overrides()
    if ch in overrides:
        return overrides[ch]
    variants, t2s = _converters()
    return t2s.convert(variants.convert(ch)) or ch


class _Table(dict):
    """``str.translate`` table filled on first sight of each character (a one-character form, or
    the character itself), so that normalising runs at C speed once a text's characters are known."""

    def __missing__(self, code: int) -> str:
        ch = chr(code)
        n = _char(ch)
        self[code] = out = n if len(n) == 1 else ch
        return out


_TABLE = _Table()


def normalize(text: str) -> str:
    """The normalised form of ``text``: same length, variants and traditional forms replaced."""
    return text.translate(_TABLE)


def is_punct(ch: str) -> bool:
    """True for punctuation, spaces and symbols (Chinese and ASCII alike)."""
    return unicodedata.category(ch)[0] in _PUNCT_CATEGORIES


def search_key(text: str) -> str:
    """Normalised text without punctuation or spaces: the form used for matching answers."""
    return "".join(ch for ch in normalize(text) if not is_punct(ch)).lower()


def is_variant(ch: str) -> bool:
    """True if ``ch`` is written differently from its normalised form."""
    return _char(ch) != ch
