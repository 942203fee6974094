"""Scoring a translation against classical rows, for the alignment (study/text/align.py).

A row's text, and its text with commentary, become a bag of normalised characters, each weighing
by its rarity in the document; a translation scores by the share of that weight it keeps, less a
penalty when its length does not fit the rows' (translations run about 1.6 times the classical
length), with a bonus for a line opening 右边是… against a heading row. :class:`Scorer` also gives
an upper bound of a run's score from its rows one by one, a line's best score anywhere in the
document, the cost of leaving a row unpaired, and whether a line is an untranslated copy.
"""

from __future__ import annotations

import math
from collections import Counter
from dataclasses import dataclass
from difflib import SequenceMatcher

from .normalize import search_key
from .translation import Row, opens_heading

COPY_RATIO = 0.95  # a translation line this close to a row of its chunk is an untranslated copy
_FLOOR = 0.22  # the kept share of classical weight at which a pair breaks even
_LOG_RATIO = math.log(1.6)  # translations run about 1.6 times the classical length
_LENGTH_SIGMA = 0.55
_LENGTH_WEIGHT = 0.04
_HEADING_BONUS = 0.25  # a line opening 右边是… against a heading row
_SKIP_TEXT = 0.05  # leaving a row of classical text, or a translation line, unpaired
_SKIP_HEADING = 0.02


@dataclass(frozen=True)
class Bag:
    """The characters of a normalised text with their counts, total weight and length."""

    counts: dict[str, int]
    weight: float
    length: int


@dataclass(frozen=True)
class Probe:
    """A translation text made ready for scoring."""

    bag: Bag
    heading: bool  # opens with 右边是… read as 「the above」
    cut: bool = False  # the excerpt may end inside it: it renders the beginning of its rows


class Scorer:
    """Scores translations against classical rows; a character weighs by its rarity in the document."""

    def __init__(self, rows: dict[int, Row]) -> None:
        self.rows = rows
        self.keys = {n: search_key("".join(r.full)) for n, r in rows.items()}
        df = Counter(ch for key in self.keys.values() for ch in set(key))
        total = len(rows) + 1
        self.weight = {ch: math.log(total / (k + 1)) + 0.05 for ch, k in df.items()}
        self.full = {n: self.bag(key) for n, key in self.keys.items()}
        # The text alone, where the row also holds commentary a translation may leave out.
        self.text_keys = {n: search_key("".join(r.text)) for n, r in rows.items() if r.segments}
        self.text = {n: self.bag(key) for n, key in self.text_keys.items()}
        self._probes: dict[tuple[str, bool], Probe] = {}
        self._memo: dict[tuple[int, int], float] = {}
        self._postings: dict[str, list[tuple[int, int]]] = {}
        for n, bag in [*self.full.items(), *((-n, bag) for n, bag in self.text.items())]:
            for ch, k in bag.counts.items():
                self._postings.setdefault(ch, []).append((n, k))

    def bag(self, key: str) -> Bag:
        counts = Counter(key)
        return Bag(dict(counts), sum(self.weight.get(ch, 0.0) * k for ch, k in counts.items()), len(key))

    def probe(self, text: str, *, cut: bool = False) -> Probe:
        if (text, cut) not in self._probes:
            self._probes[(text, cut)] = Probe(self.bag(search_key(text)), opens_heading(text), cut)
        return self._probes[(text, cut)]

    def similarity(self, translation: Bag, classical: Bag) -> float:
        """The kept share of the classical weight in the translation, less a length-misfit penalty."""
        if not classical.weight:
            return -math.inf
        return self._net(self._kept(translation, classical), translation, classical)

    def _kept(self, translation: Bag, classical: Bag) -> float:
        small, large = sorted((translation.counts, classical.counts), key=len)
        weight = self.weight
        return sum(weight.get(ch, 0.0) * min(k, large.get(ch, 0)) for ch, k in small.items())

    def _net(self, kept: float, translation: Bag, classical: Bag) -> float:
        misfit = (math.log((translation.length + 1) / (classical.length + 1)) - _LOG_RATIO) / _LENGTH_SIGMA
        return kept / classical.weight - _FLOOR - _LENGTH_WEIGHT * misfit * misfit

    def score(self, probe: Probe, run: list[int]) -> float:
        """How well a translation renders a run of rows: their text alone, or with their commentary."""
        if probe.cut:
            return self._score_cut(probe, run)
        sides = [[self.full[n] for n in run]]
        if any(n in self.text for n in run):
            sides.append([self.text.get(n, self.full[n]) for n in run])
        best = -math.inf
        for bags in sides:
            merged = _merge(bags)
            if merged.weight:
                kept = self._single(probe, merged) if len(bags) == 1 else self._kept(probe.bag, merged)
                best = max(best, self._net(kept, probe.bag, merged))
        return best + self._heading_bonus(probe, run)

    def _score_cut(self, probe: Probe, run: list[int]) -> float:
        """A line cut short can only render the beginning of its rows: score it against that."""
        size = math.ceil(probe.bag.length / math.exp(_LOG_RATIO))
        keys = ["".join(self.keys[n] for n in run), "".join(self.text_keys.get(n, self.keys[n]) for n in run)]
        best = max(self.similarity(probe.bag, self.bag(key[:size])) for key in keys)
        return best + self._heading_bonus(probe, run)

    def _heading_bonus(self, probe: Probe, run: list[int]) -> float:
        return _HEADING_BONUS if probe.heading and self.rows[run[0]].stage is not None else 0.0

    def bound(self, probe: Probe, run: list[int]) -> float:
        """An upper bound of :meth:`score`, from the rows one by one (each counted once, memoised)."""
        best = -math.inf
        for side in (self.full, self.text):
            bags = [side.get(n, self.full[n]) for n in run]
            merged = Bag({}, sum(b.weight for b in bags), sum(b.length for b in bags))
            if merged.weight:
                kept = sum(self._single(probe, b) for b in bags)
                best = max(best, self._net(kept, probe.bag, merged))
        return best + self._heading_bonus(probe, run)

    def _single(self, probe: Probe, bag: Bag) -> float:
        key = (id(probe), id(bag))
        if key not in self._memo:
            self._memo[key] = self._kept(probe.bag, bag)
        return self._memo[key]

    def best_anywhere(self, probe: Probe) -> float:
        """The best score ``probe`` reaches against any single row of the document."""
        if probe.cut:
            return max(self._score_cut(probe, [n]) for n in self.rows)
        kept: Counter[int] = Counter()
        for ch, k in probe.bag.counts.items():
            w = self.weight.get(ch, 0.0)
            for n, kn in self._postings.get(ch, ()):
                kept[n] += w * (k if k < kn else kn)
        best = -math.inf
        for n, value in kept.items():
            row = self.rows[abs(n)]
            score = self._net(value, probe.bag, self.full[n] if n > 0 else self.text[-n])
            if probe.heading and row.stage is not None:
                score += _HEADING_BONUS
            best = max(best, score)
        return best

    def skip_cost(self, n: int) -> float:
        row = self.rows[n]
        return _SKIP_TEXT if row.passages else _SKIP_HEADING if row.stage is not None else 0.0

    def is_copy(self, text: str, run: list[int]) -> bool:
        key = search_key(text)
        return any(
            min(len(key), len(self.keys[n])) >= COPY_RATIO * max(len(key), len(self.keys[n]))
            and SequenceMatcher(None, key, self.keys[n], autojunk=False).ratio() >= COPY_RATIO
            for n in run
        )


def _merge(bags: list[Bag]) -> Bag:
    if len(bags) == 1:
        return bags[0]
    counts: Counter[str] = Counter()
    for b in bags:
        counts.update(b.counts)
    return Bag(dict(counts), sum(b.weight for b in bags), sum(b.length for b in bags))
