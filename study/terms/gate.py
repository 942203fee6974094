"""Which extracted glosses are taught: a gate on each extraction rule's measured precision.

Every extracted gloss carries the name of the rule that read it, ``READER:FORMULA:PATH:SIZE``:

- READER — ``k`` the clause reader of the unpunctuated book (study/terms/plain.py), ``ku`` its
  猶 fallback, ``p`` punctuated commentary, ``u`` the seeds' unpunctuated clause rules;
- FORMULA — ye, wei, you, ji, yue, weizhi, qi;
- PATH — how the reader found it and where the definiens ended (``walk-bare:end``: a headword
  opening the clause, the definiens closed by 也; ``walk-bare:zhe``: closed at a 者; ``anchor``: at
  the next word of the text; ``yue``: Y曰X …);
- SIZE — the definiens' length: ``short`` (1–2 characters: 采，擇取也), ``mid`` (3–6), ``long``
  (7–12), ``over`` (a headword over 3 or a definiens over 12 characters: not a vocabulary gloss,
  never measured, never taught).

The evidence, (correct, found) per rule, is measured on the hand-read development chapters (the
book's readers) and on the seeds' gold list (the seeds' readers) and kept in
``study/data/glossgate.yaml`` (written by ``python bench/glossary.py --write-gate``; a test checks
it against a new measurement). A rule is taught when the Wilson 95 % lower bound of its precision
(one-sided 95 %) is at least :data:`THRESHOLD` — or when none of its glosses was wrong and its
family passes (the same reader's edition and definiens size pooled: ``book:short``), so a rare
path of a sound shape is not lost for want of examples of its own. A rule with an error must pass
on its own evidence; a rule never seen in the evidence is withheld.
"""

from __future__ import annotations

import math
from dataclasses import dataclass
from functools import cache
from importlib import resources

import yaml

from ..text.normalize import search_key

THRESHOLD = 0.9  # the Wilson lower bound a rule's precision must reach to be taught
Z = 1.645  # one-sided 95 %: the precision is at least the bound with 95 % confidence
TABLE = "data/glossgate.yaml"


def size_class(term: str, gloss: str) -> str:
    t, g = len(search_key(term)), len(search_key(gloss))
    if t > 3 or g > 12:
        return "over"
    return "short" if g <= 2 else "mid" if g <= 6 else "long"


def wilson_lower(correct: int, found: int, z: float = Z) -> float:
    """Lower bound of the Wilson score interval for a proportion ``correct / found``."""
    if found == 0:
        return 0.0
    p = correct / found
    d = 1 + z * z / found
    centre = p + z * z / (2 * found)
    spread = z * math.sqrt(p * (1 - p) / found + z * z / (4 * found * found))
    return (centre - spread) / d


@dataclass(frozen=True)
class Evidence:
    correct: int
    found: int

    @property
    def precision(self) -> float:
        return self.correct / self.found if self.found else 0.0

    @property
    def lower(self) -> float:
        return wilson_lower(self.correct, self.found)


def family(rule: str) -> str:
    """The edition the reader works on and the definiens size: ``book:short``, ``seeds:mid``."""
    reader, *_, size = rule.split(":")
    return f"{'book' if reader.startswith('k') else 'seeds'}:{size}"


def families(table: dict[str, Evidence]) -> dict[str, Evidence]:
    out: dict[str, list[int]] = {}
    for rule, e in table.items():
        c = out.setdefault(family(rule), [0, 0])
        c[0] += e.correct
        c[1] += e.found
    return {k: Evidence(c, n) for k, (c, n) in out.items()}


# Paths whose definiens says whom or what a word points at in its passage (子指宗人, 一人拜受爵謂
# 太師也), not what the word means: right where they stand, but a card built on one asks the person
# for the word (宗人 → 子). Never taught by the gate, whatever their evidence; the hand review decides.
REFERENTIAL = ("zhi", "doer-phrase")


def _path(rule: str) -> str:
    """The PATH's first part of ``READER:FORMULA:PATH:SIZE`` (``zhi`` of ``k:wei:zhi:end:short``)."""
    parts = rule.split(":")
    return parts[2] if len(parts) > 3 else ""


def decide(rule: str, table: dict[str, Evidence]) -> bool:
    """Whether glosses read by ``rule`` are taught, on the evidence ``table``."""
    if rule == "curated":
        return True
    own = table.get(rule)
    if own is None or own.found == 0 or rule.endswith(":over") or _path(rule) in REFERENTIAL:
        return False
    if own.lower >= THRESHOLD:
        return True
    fam = families(table).get(family(rule))
    return own.correct == own.found and fam is not None and fam.lower >= THRESHOLD


@cache
def evidence() -> dict[str, Evidence]:
    """The measured evidence shipped with the package."""
    text = resources.files("study").joinpath(TABLE).read_text("utf-8")
    data = yaml.safe_load(text) or {}
    return {str(k): Evidence(int(v[0]), int(v[1])) for k, v in (data.get("rules") or {}).items()}


@cache
def taught(rule: str) -> bool:
    return decide(rule, evidence())


def dump(table: dict[str, Evidence]) -> str:
    """The YAML of ``table`` (study/data/glossgate.yaml), with each rule's decision as a comment."""
    lines = [
        "# Evidence for the gloss gate (study/terms/gate.py): per extraction rule, [correct, found]",
        "# vocabulary glosses on the hand-read development chapters (book readers k/ku) and on the",
        "# seeds' gold list (readers p/u). Written by `python bench/glossary.py --write-gate`; do not edit.",
        "rules:",
    ]
    for rule in sorted(table, key=lambda r: (-table[r].found, r)):
        e = table[rule]
        mark = "taught" if decide(rule, table) else "withheld"
        lines.append(f'  "{rule}": [{e.correct}, {e.found}]  # {e.precision:.3f}, lower {e.lower:.3f}, {mark}')
    return "\n".join(lines) + "\n"
