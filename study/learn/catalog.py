"""The quiz's items, pure: what a learner is scheduled on, built from the same selection as the
Anki decks (:mod:`study.items`) — four vocabulary items per glossed term, and the ordering items
of each rite (windows over its stages, the whole rite, "what comes next", the steps of a stage).
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Collection
from dataclasses import dataclass, field
from enum import StrEnum

from ..decks.items import PassageItem, Sequence_
from ..model import Gloss, Term
from ..terms.senses import gloss_key, senses_at, terms_sharing_gloss
from ..text.normalize import normalize
from .grading import OrderMode

STAGE_WINDOW, STAGE_STEP = 6, 3
MAX_ORDER = 8  # at most this many items in one ordering question (a phone screen)
STEP_WINDOW, STEP_STEP = 6, 4
MIN_ORDER = 3


class Kind(StrEnum):
    CHOICE = "choice"
    TYPED = "typed"
    ORDER = "order"


class Family(StrEnum):
    VOCAB = "vocab"
    ORDER = "order"
    PASSAGE = "passage"  # classical text ↔ translation, and cloze deletions


# The grading mode of each kind of ordering item (Moodle's ordering modes).
ORDER_MODES: dict[str, OrderMode] = {
    "stages": OrderMode.LONGEST_SUBSEQUENCE,
    "rite": OrderMode.ABSOLUTE_POSITION,
    "steps": OrderMode.RELATIVE_NEXT,
}


@dataclass(frozen=True)
class QuizItem:
    """Something a learner is scheduled on."""

    id: str
    family: Family
    kind: Kind
    rite: str
    sort_key: tuple[int, int, int]  # text order: (document, line, n)
    stage_id: str | None = None
    term: Term | None = field(default=None, compare=False)
    direction: str = ""  # vocab: t2g, g2t, typed, pinyin; order: stages, rite, steps, next
    sequence: Sequence_ | None = field(default=None, compare=False)
    window: tuple[int, int] = (0, 0)  # (start, size) in the sequence
    passage: PassageItem | None = field(default=None, compare=False)

    @property
    def fact(self) -> str:
        """The stable id of what the item teaches: the same for every question about one term
        (and for its introduction), the item's own id for an ordering item."""
        return fact_of_id(self.id)


def fact_of_id(item_id: str) -> str:
    """The fact an item id teaches (see :attr:`QuizItem.fact`): ``vocab:<term>:<direction>`` →
    ``term:<term>``; anything else is its own fact."""
    if item_id.startswith("vocab:"):
        return "term:" + item_id[len("vocab:") :].rpartition(":")[0]
    if item_id.startswith("passage:"):  # passage:<stage>:<n>:<direction>
        return item_id.rpartition(":")[0]
    if item_id.startswith("cloze:"):  # cloze:<stage>:<n>:<term>: about the passage
        return "passage:" + item_id[len("cloze:") :].rpartition(":")[0]
    return item_id


def family_of_id(item_id: str) -> str:
    """The family (daily new limits are per family) of an item id."""
    if item_id.startswith("vocab:"):
        return Family.VOCAB
    if item_id.startswith(("passage:", "cloze:")):
        return Family.PASSAGE
    return Family.ORDER


def example_sense(term: Term) -> tuple[Gloss, ...]:
    """The glosses that explain the term where its example sentence uses it (senses_at), or none."""
    ex = term.example
    at = normalize(ex.text).find(term.normalized) if ex is not None else -1
    return senses_at(term, ex.text, at, ex.rite, ex.stage_id) if ex is not None and at >= 0 else ()


def main_gloss(term: Term) -> str:
    """The gloss a question shows: the sense of the term's example sentence (senses_at: the gloss
    that explains that occurrence, from the text first), else the first from the text, else the
    first curated one."""
    fits = example_sense(term)
    if fits:
        return next((g for g in fits if g.line is not None), fits[0]).gloss
    from_text = [g for g in term.glosses if g.line is not None]
    return (from_text or list(term.glosses))[0].gloss


def primary_rite(term: Term, within: Collection[str] | None = None) -> str | None:
    """The rite a term's questions belong to: its first glossed rite, else its most frequent one;
    among ``within`` (a class's rites) when it is glossed or used there."""
    if within is not None:
        glossed = [g.rite for g in term.glosses if g.rite in within]
        used = [f for f in term.frequency if f[0] in within]
        if glossed or used:
            return glossed[0] if glossed else max(used, key=lambda f: f[1])[0]
    glossed = [g.rite for g in term.glosses if g.rite]
    if glossed:
        return glossed[0]
    return max(term.frequency, key=lambda f: f[1])[0] if term.frequency else None


@dataclass(frozen=True)
class StageInfo:
    """A stage as the quiz names it: its rite, classical and modern names, place in the rite."""

    id: str
    rite: str
    name: str
    modern: str | None
    index: int


def item_stages(item: QuizItem) -> frozenset[str]:
    """The stages an item is about: a term's glossed stages, a window's stages, a stage's steps,
    a passage's stage."""
    if item.passage is not None:
        return frozenset({item.passage.stage.id})
    if item.term is not None:
        ids = {g.stage_id for g in item.term.glosses if g.stage_id}
        if not ids and item.term.example is not None and item.term.example.stage_id:
            ids.add(item.term.example.stage_id)
        return frozenset(ids)
    if item.direction == "stages" or item.direction == "rite":
        assert item.sequence is not None
        start, size = item.window
        return frozenset(e.id for e in item.sequence.elements[start : start + size])
    return frozenset({item.stage_id}) if item.stage_id else frozenset()


@dataclass
class Catalog:
    """Every quiz item of some texts, in text order, with what distractors need."""

    items: list[QuizItem]
    by_id: dict[str, QuizItem]
    terms_by_rite: dict[str, list[Term]]
    rites: list[str]
    stages: dict[str, StageInfo] = field(default_factory=dict)  # by stage id, in text order
    excerpts: frozenset[str] = frozenset()  # rites whose text is an excerpt (节选), not the whole rite
    # a curated gloss citing a line of a text ((its source, its words)): the commentator who says
    # it there, the rite, the stage id, the line and the place in words (study.decks.sources.Places.cited)
    cited: dict[tuple[str, str], tuple[str, str, str | None, int, str]] = field(default_factory=dict)
    # the place in words of each commentary gloss's line ((file, line)): 卷, rite, stage, printed
    # page and line, as the cards say it (study.decks.sources.Places.words)
    places: dict[tuple[str, int], str] = field(default_factory=dict)
    # the lines of the notes that open a rite, before its first stage ((file, line)): a gloss said
    # there is the rite's, of no stage
    openings: frozenset[tuple[str, int]] = frozenset()
    # a cloze item's hint of each blank, in text order (empty where a blank has none), as its Anki
    # cloze shows it (study.learn.passages.blank_hints)
    hints: dict[str, tuple[str, ...]] = field(default_factory=dict)
    _selections: dict[tuple[object, ...], list[QuizItem]] = field(default_factory=dict, repr=False, compare=False)
    _sharing: dict[str, tuple[str, ...]] | None = field(default=None, repr=False, compare=False)
    _facts: dict[str, str] | None = field(default=None, repr=False, compare=False)
    _related: dict[str, tuple[str, ...]] | None = field(default=None, repr=False, compare=False)
    _passages: dict[str, list[PassageItem]] | None = field(default=None, repr=False, compare=False)
    # what presenting questions derives from the catalog, made once (study.learn.distractors)
    memo: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self) -> dict[str, object]:
        return self.__dict__ | {"memo": {}}  # made again in each process (it may key by object ids)

    def passages_of(self, rite: str) -> list[PassageItem]:
        """The passages the rite's items are about, in text order (made once)."""
        if self._passages is None:
            found: dict[str, dict[str, PassageItem]] = defaultdict(dict)
            for i in self.items:
                if i.passage is not None:
                    found[i.rite].setdefault(i.passage.id, i.passage)
            self._passages = {r: list(ps.values()) for r, ps in found.items()}
        return self._passages.get(rite, [])

    @property
    def facts(self) -> dict[str, str]:
        """Item id → fact, for every item (made once)."""
        if self._facts is None:
            self._facts = {i.id: i.fact for i in self.items}
        return self._facts

    @property
    def related(self) -> dict[str, tuple[str, ...]]:
        """Fact → the ids of every item about it (made once)."""
        if self._related is None:
            found: dict[str, list[str]] = defaultdict(list)
            for item_id, fact in self.facts.items():
                found[fact].append(item_id)
            self._related = {f: tuple(ids) for f, ids in found.items()}
        return self._related

    def terms_sharing(self, gloss: str) -> tuple[str, ...]:
        """Every headword glossed by ``gloss`` (a gloss→term question accepts each)."""
        if self._sharing is None:
            self._sharing = terms_sharing_gloss(t for ts in self.terms_by_rite.values() for t in ts)
        return self._sharing.get(gloss_key(gloss), ())

    def get(self, item_id: str) -> QuizItem | None:
        return self.by_id.get(item_id)

    def select(
        self, *, rite: str | None = None, family: str | None = None, stages: frozenset[str] | None = None
    ) -> list[QuizItem]:
        """The items of a rite, family and stages in text order; made once per filter (every
        request asks), so the list is shared: do not change it."""
        key = (rite, family, stages)
        if key not in self._selections:
            if len(self._selections) > 512:
                self._selections.clear()
            self._selections[key] = [
                i
                for i in self.items
                if (rite is None or i.rite == rite)
                and (family is None or i.family == family)
                and (stages is None or bool(item_stages(i) & stages))
            ]
        return self._selections[key]

    def select_index(
        self, *, rite: str | None = None, family: str | None = None, stages: frozenset[str] | None = None
    ) -> dict[str, QuizItem]:
        """:meth:`select` by id (made once per filter)."""
        key = ("index", rite, family, stages)
        if key not in self._selections:
            self._selections[key] = {i.id: i for i in self.select(rite=rite, family=family, stages=stages)}  # type: ignore[assignment]
        return self._selections[key]  # type: ignore[return-value]

    def stage_range(self, first: str, last: str | None = None) -> frozenset[str] | None:
        """The stage ids from ``first`` to ``last`` (inclusive, one rite), or None if unknown."""
        a, b = self.stages.get(first), self.stages.get(last or first)
        if a is None or b is None or a.rite != b.rite:
            return None
        low, high = sorted((a.index, b.index))
        return frozenset(s.id for s in self.stages.values() if s.rite == a.rite and low <= s.index <= high)


def term_stage(term: Term) -> str | None:
    """The stage a term is first glossed in (or its example's)."""
    first = next((g.stage_id for g in term.glosses if g.stage_id), None)
    return first or (term.example.stage_id if term.example is not None else None)
