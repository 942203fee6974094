"""Where the clauses of a classical sentence end, for a text that may carry no punctuation.

The book (Kanripo edition of 礼经本义) is unpunctuated; a short label for a step must still end
where a clause ends, never mid-word. Boundaries come from three sources, in order of trust:

1. **marks** — the text's own punctuation: the book's sentence marks (``(句/)``, read as 【句】
   and 【读】) and any ，。； of a punctuated text;
2. **guide** — a punctuated edition of the same words (the seed excerpt of 乡射礼 and 燕礼),
   matched on normalised text (:func:`~study.text.normalize.search_key`): its punctuation is
   carried over;
3. **rules** — a heuristic for ritual prose (study/text/clauserules.py), used where no guide
   matches: a clause ends before a new subject that is followed by its act (主人, 宾, 大夫, 司射 …;
   「戒宾宾出迎」: the second 宾), before a clause-initial connective (乃, 遂, 既, 则, 若), and after
   an act that closes (再拜, 答拜, 稽首, 兴, 退, 许, 反位 …) when no object or place follows it.

No boundary falls inside a protected word (the lexicon's terms, the subjects, 再拜, 西面 …).

Example (the rules; the last end is the text's own)::

    >>> s = split("主人戒賔賔出迎再拜主人答再拜")
    >>> s.clauses(), s.source
    (['主人戒賔', '賔出迎再拜', '主人答再拜'], 'rules')

udkanbun (UD-Kanbun, installed here) was measured and not used: it parses each step as one
sentence (no clause ends found in 80 steps of the book) at 2.5–7 ms a step after 1.7 s loading.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

from ..paths import texts_dir
from .clauserules import SUBJECTS, rule_ends
from .formats import read_text
from .manifest import MANIFEST, find_manifest
from .normalize import normalize, search_key

MARKS = ("【句】", "【读】", "【讀】")
STOPS = "，。；：！？,.;:!?"  # clause punctuation (、 joins a list and ends no clause)
_SKIP = "「」『』“”‘’（）() \u3000\n"

# Word shapes never cut: 西面, 北上, 东荣 …
_COMPOUND = re.compile(r"[东西南北][面上下方向首乡荣序塾阶楹堂房夹]")
PROTECTED = (
    "再拜",
    "答拜",
    "稽首",
    "拜送",
    "拜受",
    "拜既爵",
    "揖让",
    "如初",
    "亦如之",
    "许诺",
    "三揖",
    "三让",
    "辞降",
    "辞洗",
)
# A cut never leaves one of these dangling at a label's end (它们引出后面的词).
DANGLING = set("于以自与及如其而之所在为当则乃遂既若皆亦不又从将")


@dataclass(frozen=True)
class Split:
    """A text without its punctuation and marks (``plain``), and where its clauses end.

    ``ends`` are offsets into ``plain``: a clause ends before ``plain[i]`` (the last is
    ``len(plain)``); ``source`` says where the boundaries came from: "marks", "guide" or "rules".
    ``inside`` are the offsets a cut must never fall on (inside a protected word)."""

    plain: str
    ends: tuple[int, ...]
    source: str
    inside: frozenset[int] = frozenset()
    own: frozenset[int] = frozenset()  # the ends the text marks itself (its punctuation, 【句】)

    def clauses(self) -> list[str]:
        out, start = [], 0
        for end in self.ends:
            out.append(self.plain[start:end])
            start = end
        return out


def strip(text: str) -> tuple[str, set[int]]:
    """``text`` without marks and punctuation, and the offsets where those stood (clause ends)."""
    for mark in MARKS:
        text = text.replace(mark, "，")
    out: list[str] = []
    ends: set[int] = set()
    for ch in text:
        if ch in STOPS:
            ends.add(len(out))
        elif ch in _SKIP or ch == "、":
            continue
        else:
            out.append(ch)
    n = len(out)
    return "".join(out), {e for e in ends if 0 < e < n}


@dataclass(frozen=True)
class Guide:
    """Punctuated texts, normalised and run together, with the offsets where a clause ended."""

    key: str
    ends: frozenset[int]

    @classmethod
    def of(cls, texts: Iterable[str]) -> Guide:
        parts: list[str] = []
        ends: set[int] = set()
        at = 0
        for text in texts:
            plain, marks = strip(text)
            key = normalize(plain)
            parts.append(key + "|")
            ends.update(at + e for e in marks)
            ends.add(at + len(key))
            at += len(key) + 1
        return cls("".join(parts), frozenset(ends))

    def find(self, plain: str, min_len: int = 8) -> set[int] | None:
        """The clause ends inside ``plain`` as the guide punctuates the same words, or None when
        the guide does not hold them (or ``plain`` is too short to be placed with confidence)."""
        key = normalize(plain)
        if len(key) < min_len:
            return None
        at = self.key.find(key)
        if at < 0:
            return None
        return {e - at for e in self.ends if at < e < at + len(key)}


EMPTY = Guide("", frozenset())


def protected_offsets(key: str, words: Iterable[str]) -> set[int]:
    """Offsets of normalised ``key`` that fall strictly inside one of ``words`` (or of a
    direction compound like 西面): a clause never ends there."""
    inside: set[int] = set()
    for word in words:
        if len(word) < 2:
            continue
        at = key.find(word)
        while at >= 0:
            inside.update(range(at + 1, at + len(word)))
            at = key.find(word, at + 1)
    for m in _COMPOUND.finditer(key):
        inside.add(m.start() + 1)
    return inside


def split(text: str, *, guide: Guide = EMPTY, words: Iterable[str] = ()) -> Split:
    """The clauses of ``text``: its own marks and punctuation, else a matching ``guide``'s, else
    the rules, never cutting inside ``words`` (normalised; the subjects and 再拜 … always)."""
    return _split(text, guide, tuple(words))


@lru_cache(maxsize=8192)
def _split(text: str, guide: Guide, words: tuple[str, ...]) -> Split:
    plain, marks = strip(text)
    key = normalize(plain)
    inside = protected_offsets(key, (*words, *SUBJECTS, *PROTECTED))
    found = guide.find(plain)
    bare = text
    for mark in MARKS:
        bare = bare.replace(mark, "")
    if found is not None:
        ends, source = marks | found, "guide"
    elif any(ch in STOPS for ch in bare):  # a punctuated text: its punctuation is all there is
        ends, source = marks, "marks"
    else:
        rules = rule_ends(key, inside)
        ends, source = marks | rules, ("marks" if marks and not rules else "rules")
    return Split(plain, tuple(sorted({*ends, len(plain)})), source, frozenset(inside), frozenset(marks))


def safe_cut(sp: Split, limit: int) -> int:
    """The last offset ≤ ``limit`` of ``sp.plain`` where a word may end: not inside a protected
    word and not after a word that leads into the next (于, 以, 之 …); at least 1."""
    key = normalize(sp.plain)
    for at in range(min(limit, len(key)), 1, -1):
        if at not in sp.inside and key[at - 1] not in DANGLING:
            return at
    return max(1, min(limit, len(key)))


def guide_key(text: str) -> str:
    """The form a text is looked up in a guide by (normalised, no punctuation)."""
    return search_key(text)


def default_guide(folder: Path | None = None) -> Guide:
    """The guide made of the punctuated texts that ``folder``'s manifest (default: the project's
    texts) names as a translation or an excerpt of the book: their classical passages."""
    folder = folder if folder is not None else texts_dir()
    manifest = _stamp(folder / MANIFEST)
    if manifest == (0, 0):
        return EMPTY
    files = _punctuated(folder, manifest)
    return _guide(folder, tuple((f, _stamp(folder / f)) for f in files))


@lru_cache(maxsize=4)
def _punctuated(folder: Path, _manifest: tuple[int, int]) -> tuple[str, ...]:
    manifest = find_manifest(folder / MANIFEST)
    return tuple(sorted(e.file for e in manifest.texts.values() if e.role in ("translation", "excerpt")))


def _stamp(path: Path) -> tuple[int, int]:
    try:
        st = path.stat()
    except OSError:
        return (0, 0)
    return (st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=4)
def _guide(folder: Path, stamp: tuple[tuple[str, tuple[int, int]], ...]) -> Guide:
    manifest = find_manifest(folder / MANIFEST)
    texts: list[str] = []
    for name, (_, size) in stamp:
        if not size:
            continue
        entry = manifest.entry(name)
        doc = read_text((folder / name).read_bytes(), name, first_rite=entry.first_rite if entry else None)
        texts.extend(p.text for rite in doc.rites for stage in rite.stages for p in stage.passages if p.text)
    return Guide.of(texts)
