"""Readings of the classic in context: the reviewed table first, pypinyin's phrase data for the rest.

The table (``study/data/readings.yaml``) is keyed by character. An entry may give the character's
classical reading wherever no rule applies (``read``), and context rules: a rule names the phrases
(``in``) in which the character takes a reading. Every reading cites its reference (``ref``);
``also`` lists a second reading the references allow (accepted in typed answers, never shown).
In a phrase, ``{数}`` stands for a numeral, ``{…}`` (after the character only) for one to three
characters of the same clause, and ``(X)`` marks which X is meant when X occurs twice.
The longest matching phrase wins. ``glossed`` lists the readings a gloss of the book fixes (錫 glossed
賜 is cì): :func:`gloss_reading` gives them to a term shown beside that gloss. A malformed table is a
:class:`ReadingTableError` at path:line.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources
from itertools import product

from ..errors import SourceError
from ..model import Term
from ..text.normalize import normalize
from ..yamlsrc import YamlDoc, load_yaml

NUMERAL = "一二三四五六七八九十百千两半"
GAP = "[^，。、；：！？「」『』（）()《》〈〉\\s]{1,3}?"  # {…}: one to three characters of the clause
_TONED = re.compile(r"[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ]")
_SYLLABLE = re.compile(r"^[a-zü]*[āáǎàēéěèīíǐìōóǒòūúǔùǖǘǚǜ][a-zü]*$")


class ReadingTableError(SourceError):
    """A malformed reading table, reported as ``path:line: message``."""


@dataclass(frozen=True)
class Rule:
    reading: str
    also: tuple[str, ...]
    pattern: re.Pattern[str]
    size: int  # characters in the phrase: the longest match wins
    offset: int  # where the character stands in the phrase
    ref: str


@dataclass(frozen=True)
class Glossed:
    reading: str
    also: tuple[str, ...]
    by: tuple[str, ...]  # gloss words (normalised) that fix this reading
    ref: str


@dataclass(frozen=True)
class Entry:
    reading: str | None  # the character's reading where no rule applies (None: pypinyin's)
    also: tuple[str, ...]
    rules: tuple[Rule, ...]
    ref: str
    glossed: tuple[Glossed, ...] = ()


def _reading(doc: YamlDoc, value: object, at: tuple) -> str:
    if not isinstance(value, str) or not _SYLLABLE.match(value):
        raise ReadingTableError(
            f"{' '.join(map(str, at))}: {value!r} is not one syllable of pinyin with its tone mark",
            path=doc.path,
            line=doc.line(*at),
        )
    return value


def _also(doc: YamlDoc, value: object, at: tuple) -> tuple[str, ...]:
    items = value if isinstance(value, list) else [] if value is None else [value]
    return tuple(_reading(doc, v, (*at, i)) for i, v in enumerate(items))


def _text(doc: YamlDoc, node: dict, key: str, at: tuple) -> str:
    value = node.get(key)
    if not isinstance(value, str) or not value.strip():
        raise ReadingTableError(f"{' '.join(map(str, at))}: {key} must be text", path=doc.path, line=doc.line(*at))
    return value


def _pattern(doc: YamlDoc, char: str, phrase: object, at: tuple) -> tuple[re.Pattern[str], int, int]:
    """The phrase as a regular expression with the character's position in it."""
    where = f"{char}: {phrase!r}"
    if not isinstance(phrase, str) or not phrase:
        raise ReadingTableError(f"{where} is not a phrase", path=doc.path, line=doc.line(*at))
    marked = re.fullmatch(r"(.*)\((.)\)(.*)", phrase)
    before, target, after = marked.groups() if marked else ("", "", phrase)
    if not marked:
        count = normalize(phrase).count(char)
        if count != 1:
            why = "does not contain" if count == 0 else "holds twice (mark the one meant as (X))"
            raise ReadingTableError(f"{where} {why} the character", path=doc.path, line=doc.line(*at))
        i = normalize(phrase).index(char)
        before, target, after = phrase[:i], phrase[i], phrase[i + 1 :]
    if normalize(target) != char:
        raise ReadingTableError(f"{where}: the marked character is not {char}", path=doc.path, line=doc.line(*at))

    def regex(part: str) -> tuple[str, int]:
        pieces = re.split(r"(\{数\}|\{…\})", normalize(part))
        wild = {"{数}": f"[{NUMERAL}]", "{…}": GAP}
        return "".join(wild.get(p) or re.escape(p) for p in pieces), len(
            "".join("一" if p in wild else p for p in pieces)
        )

    if "{…}" in before:
        raise ReadingTableError(f"{where}: {{…}} may stand only after the character", path=doc.path, line=doc.line(*at))
    (b, nb), (a, na) = regex(before), regex(after)
    rest = (before + after).replace("{数}", "").replace("{…}", "")
    if "{" in rest or "}" in rest:
        raise ReadingTableError(
            f"{where}: only {{数}} and {{…}} may stand in braces", path=doc.path, line=doc.line(*at)
        )
    return re.compile(f"(?={b}{re.escape(char)}{a})"), nb + 1 + na, nb


def parse_table(doc: YamlDoc) -> dict[str, Entry]:
    """Check and compile the table; the first problem is raised with its line."""
    if not isinstance(doc.data, dict):
        raise ReadingTableError("must be a mapping of characters", path=doc.path, line=1)
    table: dict[str, Entry] = {}
    for key, node in doc.data.items():
        char = normalize(str(key))
        if len(char) != 1 or not isinstance(node, dict):
            raise ReadingTableError(f"{key}: one character with a mapping", path=doc.path, line=doc.line(key))
        unknown = set(node) - {"read", "also", "ref", "rules", "glossed"}
        if unknown:
            raise ReadingTableError(f"{key}: unknown key {sorted(unknown)[0]!r}", path=doc.path, line=doc.line(key))
        reading = _reading(doc, node["read"], (key, "read")) if "read" in node else None
        ref = _text(doc, node, "ref", (key,)) if reading else str(node.get("ref") or "")
        rules = []
        for i, rule in enumerate(node.get("rules") or []):
            at = (key, "rules", i)
            if not isinstance(rule, dict) or set(rule) - {"read", "also", "in", "ref"}:
                raise ReadingTableError(
                    f"{key}: a rule has read, in, ref (and also)", path=doc.path, line=doc.line(*at)
                )
            phrases = rule.get("in")
            if not isinstance(phrases, list) or not phrases:
                raise ReadingTableError(
                    f"{key}: a rule needs a list of phrases (in)", path=doc.path, line=doc.line(*at)
                )
            read = _reading(doc, rule.get("read"), (*at, "read"))
            also, why = _also(doc, rule.get("also"), (*at, "also")), _text(doc, rule, "ref", at)
            for j, phrase in enumerate(phrases):
                pattern, size, offset = _pattern(doc, char, phrase, (*at, "in", j))
                rules.append(Rule(read, also, pattern, size, offset, why))
        if char in table:
            raise ReadingTableError(f"{key}: listed twice", path=doc.path, line=doc.line(key))
        also = _also(doc, node.get("also"), (key, "also"))
        table[char] = Entry(reading, also, tuple(rules), ref, _glossed(doc, key, node.get("glossed")))
    return table


def _glossed(doc: YamlDoc, key: object, items: object) -> tuple[Glossed, ...]:
    """The ``glossed`` list of an entry: {read, by: [gloss words], ref (and also)}."""
    out = []
    for i, item in enumerate(items if isinstance(items, list) else [] if items is None else [items]):
        at = (key, "glossed", i)
        words = item.get("by") if isinstance(item, dict) else None
        if set(item if isinstance(item, dict) else {"?"}) - {"read", "also", "by", "ref"} or not (
            isinstance(words, list) and words and all(isinstance(w, str) and w for w in words)
        ):
            raise ReadingTableError(
                f"{key}: a glossed reading has read, by (gloss words), ref (and also)",
                path=doc.path,
                line=doc.line(*at),
            )
        read, also = _reading(doc, item.get("read"), (*at, "read")), _also(doc, item.get("also"), (*at, "also"))
        out.append(Glossed(read, also, tuple(normalize(w) for w in words), _text(doc, item, "ref", at)))
    return tuple(out)


@lru_cache(maxsize=1)
def table() -> dict[str, Entry]:
    """The reviewed table, checked at load."""
    text = resources.files("study").joinpath("data/readings.yaml").read_text("utf-8")
    return parse_table(load_yaml(text, "study/data/readings.yaml", ReadingTableError))


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
    reads guàn. A reading the term was given (by the curated glossary or a teacher's list: one
    the reader does not give for its own example) is kept wherever it is shown."""
    if not context or term.example is None or term.normalized not in normalize(context):
        return term.pinyin
    if reading_in(term.term, term.example.text, at=term.example.at) != term.pinyin:
        return term.pinyin
    return reading_in(term.term, context, at=at)
