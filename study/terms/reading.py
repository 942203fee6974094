"""Readings of the classic in context: the reviewed table first, pypinyin's phrase data for the rest.

The table (``study/data/readings.yaml``, checked by :mod:`.readtable`) is keyed by character: a
character's reading where no rule applies, context rules (the longest matching phrase wins) and the
readings a gloss of the book fixes (錫 glossed 賜 is cì: :func:`reading_by_gloss` gives them to a
term shown beside that gloss). ``also`` readings are accepted in typed answers, never shown.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from functools import lru_cache
from itertools import product

from ..model import Term
from ..text.normalize import normalize
from .readtable import NUMERAL, Entry, ReadingTableError, Rule, parse_table, table

__all__ = ["NUMERAL", "Entry", "ReadingTableError", "Rule", "parse_table", "table"]  # the table, read here

_TONED = re.compile(r"[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ]")


def _base(norm: str) -> list[str]:
    """pypinyin's reading of each character, phrase data first; a neutral tone gets the
    character's first toned reading (the classic has no neutral tones)."""
    from pypinyin import Style, lazy_pinyin, pinyin  # imported on first use: it takes 0.15 s to load

    run = lazy_pinyin(norm, style=Style.TONE, errors=lambda s: list(s))
    if len(run) != len(norm):
        run = [lazy_pinyin(c, style=Style.TONE, errors=lambda s: list(s))[0] for c in norm]
    out = []
    for ch, syl in zip(norm, run, strict=True):
        if not _TONED.search(syl) and syl != ch:
            toned = [r for r in pinyin(ch, style=Style.TONE, heteronym=True)[0] if _TONED.search(r)]
            syl = toned[0] if toned else syl
        out.append(syl)
    return out


def _choice(ctx: str, i: int) -> tuple[str | None, tuple[str, ...]]:
    """The table's reading (and accepted alternatives) of ``ctx[i]`` where it stands."""
    entry = table().get(ctx[i])
    if entry is None:
        return None, ()
    best: Rule | None = None
    for rule in entry.rules:
        start = i - rule.offset
        if start >= 0 and rule.pattern.match(ctx, start) and (best is None or rule.size > best.size):
            best = rule
    if best is not None:
        return best.reading, best.also
    return entry.reading, entry.also


def _occurrences(word: str, context: str) -> tuple[str, list[int], int]:
    """The normalised context and where the word stands in it (every occurrence, in order);
    a word that does not occur is read alone."""
    norm, ctx = normalize(word), normalize(context)
    starts = [m.start() for m in re.finditer(f"(?={re.escape(norm)})", ctx)] if norm else []
    return (ctx, starts, len(norm)) if starts else (norm, [0], len(norm))


def _at(starts: list[int], at: int | None) -> int:
    """The occurrence meant: the one starting at index ``at`` of the context (the first if None)."""
    if at is None:
        return starts[0]
    if at not in starts:
        raise ValueError(f"the word does not stand at index {at} of the context")
    return at


def reading_in(word: str, context: str = "", *, at: int | None = None) -> str:
    """The reading of ``word`` where it stands in ``context`` (the clause of the text around it),
    space-separated syllables with tone marks. ``at`` is the index in the context where the word
    meant starts (the first occurrence when None). Without a context the word is read alone."""
    ctx, starts, n = _occurrences(word, context)
    start, base = _at(starts, at), _base(ctx)
    return " ".join(_choice(ctx, i)[0] or base[i] for i in range(start, start + n))


def readings_in(word: str, context: str = "", *, at: int | None = None) -> tuple[str, ...]:
    """Every reading the references allow for ``word`` in ``context``: the shown one (of the first
    occurrence, or of the one at ``at``) first. When ``at`` is None every occurrence counts: a word
    that stands twice with two readings (請以樂樂于賔) is asked without saying which is meant."""
    ctx, starts, n = _occurrences(word, context)
    base = _base(ctx)
    found: list[str] = []
    for start in [_at(starts, at)] if at is not None else starts:
        options = []
        for i in range(start, start + n):
            read, also = _choice(ctx, i)
            options.append(tuple(dict.fromkeys((read or base[i], *also))))
        found.extend(" ".join(combo) for combo in product(*options))
    return tuple(dict.fromkeys(found))[:8]


def _glossed_char(word: str, gloss: str) -> tuple[int, str] | None:
    """Which character of ``word`` the gloss explains and by what: the whole gloss (at most three
    characters) of a one-character word (放 = 置, 徧 = 一偏), or the one character a gloss of the same
    length replaces (重賜 = 加賜: 重 by 加). None when the gloss explains no single character."""
    w, g = normalize(word), normalize(gloss)
    if len(w) == 1:
        return (0, g) if 0 < len(g) <= 3 else None
    differ = [i for i in range(len(w)) if len(g) == len(w) and w[i] != g[i]]
    return (differ[0], g[differ[0]]) if len(differ) == 1 else None


def gloss_reading(word: str, gloss: str) -> tuple[int, str] | None:
    """The reading a gloss of the book fixes for one character of ``word`` (the table's ``glossed``):
    (its index in the word, its reading), or None. 錫 glossed 賜 is cì, 放 glossed 置 fàng."""
    found = _glossed_char(word, gloss)
    if found is None:
        return None
    i, said = found
    entry = table().get(normalize(word)[i])
    for rule in entry.glossed if entry else ():
        if any(b in said for b in rule.by):
            return i, rule.reading
    return None


def reading_by_gloss(word: str, glosses: Iterable[str], context: str = "", *, at: int | None = None) -> str | None:
    """``word`` read in ``context`` with the character its glosses explain read as they fix it, when
    every gloss that fixes a reading fixes the same one; None when no gloss (or no one reading) does."""
    fixed = {f for f in (gloss_reading(word, g) for g in glosses) if f}
    if len(fixed) != 1:
        return None
    (i, read), syllables = next(iter(fixed)), reading_in(word, context, at=at).split(" ")
    if len(syllables) != len(normalize(word)):
        return None
    syllables[i] = read
    return " ".join(syllables)


@lru_cache(maxsize=4096)
def pinyin(word: str) -> str:
    """The reading of ``word`` read alone (a headword without its sentence)."""
    return reading_in(word)


def term_reading_at(term: Term, context: str, at: int | None = None) -> str:
    """A term's reading where ``context`` uses it (at ``at``), for a card that shows that use (a
    sense's example, a cloze's passage): 冠 of 「執冠者」 is guān where the term's example 「乃冠」
    reads guàn. A reading the term was given (by the curated glossary or a teacher's list: one the
    reader does not give for its own example) is kept wherever it is shown; one its gloss fixed
    (:func:`reading_by_gloss`: 徧 = 一偏 piān in 「腊徧無髀」) is kept at the glossed place only."""
    if not context or term.example is None or term.normalized not in normalize(context):
        return term.pinyin
    ex = term.example
    if reading_in(term.term, ex.text, at=ex.at) != term.pinyin:
        if _glossed_here(term) and not _same_place(term.normalized, ex.text, ex.at, context, at):
            return reading_in(term.term, context, at=at)
        return term.pinyin
    return reading_in(term.term, context, at=at)


def _glossed_here(term: Term) -> bool:
    """The term's reading is the one the gloss its example stands beside (its first with a line) fixes."""
    anchor = next((g for g in term.glosses if g.line is not None), None)
    ex = term.example
    if anchor is None or ex is None:
        return False
    return reading_by_gloss(term.term, [anchor.gloss], ex.text, at=ex.at) == term.pinyin


def _same_place(word: str, example: str, i: int | None, context: str, at: int | None, reach: int = 3) -> bool:
    """The occurrence of ``word`` (normalised) at ``at`` of ``context`` (the first if None) stands
    between the same characters as the example's occurrence at ``i``."""
    ex, ctx, n = normalize(example), normalize(context), len(word)
    i, j = ex.find(word) if i is None else i, ctx.find(word) if at is None else at
    before, after = ex[max(0, i - reach) : i], ex[i + n : i + n + reach]
    return j >= len(before) and ctx[j - len(before) : j] == before and ctx[j + n : j + n + len(after)] == after
