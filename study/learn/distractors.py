"""The wrong options of choice questions (study/learn/quiz.py presents them): for a term, other
terms or their main glosses drawn nearest first — its category in its rite by neighbourhood of
stages, then its rite, then every rite — never one that would also be right, never twice; for a
passage, the other side of neighbouring passages. The pools, each term's stage and main gloss, and
a passage's options are made once per catalog (in ``Catalog.memo``); ``search_key`` is remembered
for the texts seen, since presenting a question again keys the same glosses and passages.
"""

from __future__ import annotations

import random
from collections import defaultdict
from collections.abc import Iterator
from functools import lru_cache

from ..model import Term
from ..text.display import shown
from ..text.normalize import search_key as _search_key
from .catalog import Catalog, QuizItem, main_gloss, primary_rite, term_stage
from .passages import neighbours, translated

OPTIONS = 4


# Presenting a question again (to show it, then to grade the answer against the same shuffle)
# keys the same glosses and passages: a pure function of the book's text, remembered for the
# texts seen (a few MB for the whole book).
@lru_cache(maxsize=1 << 16)
def search_key(text: str) -> str:
    return _search_key(text)


class _Terms:
    """A catalog's terms as distractors need them, made once per catalog: the pools (same rite and
    category, same rite, every rite), and each term's stage index and main gloss (by ``id``: the
    catalog keeps its terms, and this, alive)."""

    def __init__(self, catalog: Catalog) -> None:
        self.catalog = catalog
        self.every = [t for ts in catalog.terms_by_rite.values() for t in ts]
        self.by_category: dict[tuple[str, str | None], list[Term]] = {}
        self.stage: dict[int, int | None] = {}
        self.gloss: dict[int, str] = {}
        self.near: dict[tuple[str, str | None, int | None], list[list[Term]]] = {}

    @staticmethod
    def of(catalog: Catalog) -> _Terms:
        memo = catalog.memo.get("terms")
        if not isinstance(memo, _Terms):
            memo = catalog.memo["terms"] = _Terms(catalog)
        return memo

    def same_category(self, rite: str, term: Term) -> list[Term]:
        key = (rite, term.category)
        if key not in self.by_category:
            self.by_category[key] = [t for t in self.catalog.terms_by_rite.get(rite, []) if t.category == term.category]
        return self.by_category[key]

    def pools(self, rite: str, term: Term) -> list[list[Term]]:
        """Where distractors for ``term`` are drawn from, nearest first: its category in its rite
        by neighbourhood of stages (nearest first), its rite, every rite."""
        here = self.stage_index(term)
        key = (rite, term.category, here)
        if key not in self.near:
            same = self.same_category(rite, term)
            if here is None:
                near = [same]
            else:
                groups: dict[int, list[Term]] = defaultdict(list)
                for t in same:
                    groups[abs((self.stage_index(t) or 0) - here) // NEIGHBOURHOOD].append(t)
                near = [groups[d] for d in sorted(groups)]
            self.near[key] = near
        return [*self.near[key], self.catalog.terms_by_rite.get(rite, []), self.every]

    def stage_index(self, term: Term) -> int | None:
        key = id(term)
        if key not in self.stage:
            self.stage[key] = _stage_index(term, self.catalog)
        return self.stage[key]

    def main_gloss(self, term: Term) -> str:
        key = id(term)
        if key not in self.gloss:
            self.gloss[key] = main_gloss(term)
        return self.gloss[key]


def _candidates(term: Term, catalog: Catalog, rng: random.Random) -> Iterator[Term]:
    """Other terms, nearest first: same rite and category (nearest stages first), then same rite,
    then any rite; in random order within each pool."""
    rite = primary_rite(term) or ""
    for pool in _Terms.of(catalog).pools(rite, term):
        yield from _drawn(pool, term.normalized, rng)


def _drawn(pool: list[Term], skip: str, rng: random.Random) -> Iterator[Term]:
    """``pool``'s terms but ``skip`` in random order, drawn only as far as the caller reads (a
    Fisher–Yates shuffle that stops when three distractors are found, rather than shuffling a
    rite's hundreds of terms for each question)."""
    left = list(pool)
    n = len(left)
    for j in range(n):
        k = j + int(rng.random() * (n - j))
        left[j], left[k] = left[k], left[j]
        if left[j].normalized != skip:
            yield left[j]


NEIGHBOURHOOD = 3  # stages this near count as one neighbourhood for distractors


def _stage_index(term: Term, catalog: Catalog) -> int | None:
    """Where in its rite the term is first glossed (the stage's index), if known."""
    stage = term_stage(term)
    info = catalog.stages.get(stage) if stage else None
    return info.index if info is not None else None


def _distractor_glosses(term: Term, catalog: Catalog, rng: random.Random) -> list[str]:
    """Glosses of other terms, never one that is also a gloss of ``term``, never twice."""
    keys = {search_key(g.gloss) for g in term.glosses}
    chosen: list[str] = []
    main = _Terms.of(catalog).main_gloss
    for t in _candidates(term, catalog, rng):
        gloss = main(t)
        key = search_key(gloss)
        if key and key not in keys:
            chosen.append(gloss)
            keys.add(key)
            if len(chosen) == OPTIONS - 1:
                break
    return chosen


def _distractor_terms(term: Term, catalog: Catalog, rng: random.Random) -> list[str]:
    """Other terms, never one sharing a gloss with ``term`` (it would be right too), never twice."""
    own = {search_key(g.gloss) for g in term.glosses}
    right = set(catalog.terms_sharing(_Terms.of(catalog).main_gloss(term)))
    chosen: list[str] = []
    seen = {term.normalized}
    for t in _candidates(term, catalog, rng):
        if t.normalized in seen or t.term in right or own & {search_key(g.gloss) for g in t.glosses}:
            continue
        chosen.append(t.term)
        seen.add(t.normalized)
        if len(chosen) == OPTIONS - 1:
            break
    return chosen


def _passage_options(item: QuizItem, catalog: Catalog) -> tuple[str, ...]:
    """The options of a passage question before they are shuffled: the right side of the passage,
    then other sides from neighbouring passages (made once per item and catalog)."""
    made = catalog.memo.setdefault("passage_options", {})
    assert isinstance(made, dict)
    if item.id not in made:
        p = item.passage
        assert p is not None
        pool = [q for q in catalog.passages_of(item.rite) if translated(q)]
        side = (lambda q: q.passage.translation or "") if item.direction == "c2t" else (lambda q: shown(q.passage.text))
        options, keys = [side(p)], {search_key(side(p))}
        for q in neighbours(p, pool, 12):
            key = search_key(side(q))
            if key and key not in keys:
                options.append(side(q))
                keys.add(key)
            if len(options) == OPTIONS:
                break
        made[item.id] = tuple(options)
    return made[item.id]
