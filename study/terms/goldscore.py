"""Precision and recall of the gloss reader against glosses written down by hand.

A gold file (``tests/data/gold/glosses_*.tsv``) lists every formula gloss of a range of lines, read
by people who never saw the extractor's output; its last line ``# range FILE FIRST LAST NOTES`` gives
the range. The matching rule, fixed before any tuning:

- same file, lines at most one apart (a gloss may be counted on the line its term or its
  definiens stands on, and a note's two columns share a line);
- the same headword after :func:`search_key` (a trailing 者 dropped);
- the same definiens after :func:`search_key`, or one containing the other with at most two
  extra characters (「禮服」 and 「禮服也」, 「衆介」 and 「即衆介」).

*Vocabulary* glosses are those whose headword has at most three characters and whose definiens
at most twelve. Precision: of the vocabulary glosses extracted inside the range, the share that
match a gold row. Recall: of the gold vocabulary rows, the share matched by an extracted gloss.
"""

from __future__ import annotations

import csv
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from ..model import Gloss
from ..text.normalize import normalize, search_key
from .lexicon import category_of

MAX_TERM = 3
MAX_GLOSS = 12


@dataclass(frozen=True)
class GoldRow:
    file: str
    line: int
    term: str
    gloss: str
    speaker: str


@dataclass(frozen=True)
class Gold:
    file: str
    first: int
    last: int
    rows: tuple[GoldRow, ...]


@dataclass(frozen=True)
class Score:
    found: int  # vocabulary glosses extracted inside the range
    correct: int  # of those, matching a gold row
    gold: int  # gold vocabulary rows
    recalled: int  # of those, matched by an extracted gloss
    wrong: tuple[Gloss, ...]
    missed: tuple[GoldRow, ...]

    @property
    def precision(self) -> float:
        return self.correct / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.recalled / self.gold if self.gold else 1.0


def read_gold(path: Path) -> Gold:
    rows: list[GoldRow] = []
    first = last = 0
    file = ""
    with path.open(encoding="utf-8") as f:
        lines = f.read().splitlines()
    for raw in lines:
        if raw.startswith("# range"):
            _, _, file, a, b, *_ = raw.split()
            first, last = int(a), int(b)
    body = [x for x in lines if not x.startswith("#")]
    for r in csv.DictReader(body, delimiter="\t"):
        rows.append(GoldRow(r["file"], int(r["line"]), r["term"], r["gloss"], r.get("speaker") or ""))
    return Gold(file or (rows[0].file if rows else ""), first, last, tuple(rows))


def _term(text: str) -> str:
    key = search_key(text)
    return key.removesuffix("者") or key


def same_gloss(a: str, b: str) -> bool:
    x, y = search_key(a), search_key(b)
    if x == y:
        return True
    short, long = sorted((x, y), key=len)
    return bool(short) and short in long and len(long) - len(short) <= 2


def vocabulary(term: str, gloss: str) -> bool:
    return len(search_key(term)) <= MAX_TERM and len(search_key(gloss)) <= MAX_GLOSS


def matches(g: Gloss, r: GoldRow) -> bool:
    return (
        g.file == r.file
        and g.line is not None
        and abs(g.line - r.line) <= 1
        and _term(g.context) == _term(r.term)
        and same_gloss(g.gloss, r.gloss)
    )


def score(gold: Gold, extracted: Iterable[Gloss]) -> Score:
    inside = [
        g
        for g in extracted
        if g.file == gold.file
        and g.line is not None
        and gold.first <= g.line <= gold.last
        and vocabulary(g.context, g.gloss)
    ]
    wrong = tuple(g for g in inside if not any(matches(g, r) for r in gold.rows))
    vocab_rows = [r for r in gold.rows if vocabulary(r.term, r.gloss)]
    missed = tuple(r for r in vocab_rows if not any(matches(g, r) for g in inside))
    return Score(len(inside), len(inside) - len(wrong), len(vocab_rows), len(vocab_rows) - len(missed), wrong, missed)


def total(scores: Sequence[Score]) -> Score:
    return Score(
        sum(s.found for s in scores),
        sum(s.correct for s in scores),
        sum(s.gold for s in scores),
        sum(s.recalled for s in scores),
        tuple(g for s in scores for g in s.wrong),
        tuple(r for s in scores for r in s.missed),
    )


# --- the measured sets -------------------------------------------------------------------------
#
# Development: tests/data/gold/glosses_*.tsv (rules may be tuned on them). Held out:
# tests/data/gold/heldout/glosses_*.tsv — only their totals are ever printed or asserted.
# Seeds: tests/data/glosses_gold.tsv over the two seed texts (simplified, 【…】 commentary), scored
# by headword and line as before issue 11, so the figures compare with the old ones.

SEED_FORMULAS = frozenset({"ye", "ji", "you", "wei", "yue", "weizhi", "qi"})


@dataclass(frozen=True)
class SeedScore:
    found: int  # distinct (file, line, headword) extracted
    in_gold: int  # of those, listed in the gold file
    vocabulary: int  # gold vocabulary rows
    recalled: int  # of those, extracted

    @property
    def precision(self) -> float:
        return self.in_gold / self.found if self.found else 1.0

    @property
    def recall(self) -> float:
        return self.recalled / self.vocabulary if self.vocabulary else 1.0


def gold_files(folder: Path) -> list[Path]:
    return sorted(folder.glob("glosses_*.tsv"))


def score_chapters(paths: Sequence[Path], extract: Callable[[str], Iterable[Gloss]]) -> list[tuple[Gold, Score]]:
    """Each gold file scored against the glosses ``extract(file name)`` returns."""
    out = []
    for path in paths:
        gold = read_gold(path)
        out.append((gold, score(gold, extract(gold.file))))
    return out


def _seed_key(file: str, line: int, term: str) -> tuple[str, int, str]:
    norm = normalize(term)
    return file, line, norm.removesuffix("者") or norm


def score_seeds(path: Path, extracted: Iterable[Gloss]) -> SeedScore:
    """Glosses of other files than the two seeds are ignored.
    The seeds' figures: vocabulary rows (a core formula, a word of ≤ 2 characters or of the
    lexicon, a gloss ≤ 12) recalled by headword and line; precision of headwords by line."""
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    gold = {_seed_key(r["file"], int(r["line"]), r["term"]): r for r in rows}
    vocab = {
        k
        for k, r in gold.items()
        if r["formula"] in SEED_FORMULAS
        and (len(r["term"]) <= 2 or category_of(r["term"]) is not None)
        and len(r["gloss"]) <= 12
    }
    files = {r["file"] for r in rows}
    found = {_seed_key(g.file or "", g.line or 0, g.context) for g in extracted if g.file in files}
    return SeedScore(len(found), len(found & set(gold)), len(vocab), len(vocab & found))


# --- evidence for the gate (study/terms/gate.py) ------------------------------------------------


def judged(gold: Gold, extracted: Iterable[Gloss]) -> list[tuple[Gloss, bool]]:
    """Each vocabulary gloss extracted inside the gold range, and whether it matches a gold row."""
    return [
        (g, any(matches(g, r) for r in gold.rows))
        for g in extracted
        if g.file == gold.file
        and g.line is not None
        and gold.first <= g.line <= gold.last
        and vocabulary(g.context, g.gloss)
    ]


def judged_seeds(path: Path, extracted: Iterable[Gloss]) -> list[tuple[Gloss, bool]]:
    """Each vocabulary gloss of the seeds (one per file, line and headword, as score_seeds counts),
    and whether its headword is listed at that line."""
    with path.open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    gold = {_seed_key(r["file"], int(r["line"]), r["term"]) for r in rows}
    files = {r["file"] for r in rows}
    out: list[tuple[Gloss, bool]] = []
    seen: set[tuple[str, int, str]] = set()
    for g in extracted:
        key = _seed_key(g.file or "", g.line or 0, g.context)
        if g.file in files and key not in seen and vocabulary(g.context, g.gloss):
            seen.add(key)
            out.append((g, key in gold))
    return out


def rule_evidence(pairs: Iterable[tuple[Gloss, bool]]) -> dict[str, tuple[int, int]]:
    """(correct, found) per extraction rule."""
    out: dict[str, list[int]] = {}
    for g, ok in pairs:
        c = out.setdefault(g.rule, [0, 0])
        c[0] += ok
        c[1] += 1
    return {k: (c, n) for k, (c, n) in out.items()}
