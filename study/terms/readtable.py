"""The reviewed table of readings (``study/data/readings.yaml``), checked and compiled at load.

An entry may give the character's classical reading wherever no rule applies (``read``), context
rules (``rules``: the phrases ``in`` which it takes a reading) and the readings a gloss of the book
fixes (``glossed``: 錫 glossed 賜 is cì). Every reading cites its reference (``ref``); ``also`` lists a
second reading the references allow. In a phrase, ``{数}`` stands for a numeral, ``{…}`` (after the
character only) for one to three characters of the same clause, and ``(X)`` marks which X is meant
when X occurs twice. A malformed table is a :class:`ReadingTableError` at path:line.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from importlib import resources

from ..errors import SourceError
from ..text.normalize import normalize
from ..yamlsrc import YamlDoc, load_yaml

NUMERAL = "一二三四五六七八九十百千两半"
GAP = "[^，。、；：！？「」『』（）()《》〈〉\\s]{1,3}?"  # {…}: one to three characters of the clause
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
