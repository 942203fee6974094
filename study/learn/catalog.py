"""The quiz's items, pure: what a learner is scheduled on, built from the same selection as the
Anki decks (:mod:`study.items`) — four vocabulary items per glossed term, and the ordering items
of each rite (windows over its stages, the whole rite, "what comes next", the steps of a stage).
"""

from __future__ import annotations

import dataclasses
from collections import defaultdict
from collections.abc import Collection, Iterable, Sequence
from dataclasses import dataclass, field
from enum import StrEnum

from ..decks.items import PassageItem, Sequence_, stage_sequence, step_sequence
from ..decks.sequences import stage_names
from ..model import Document, Rite, Term
from ..terms.senses import gloss_key, senses_at, terms_sharing_gloss
from ..text.normalize import normalize
from .grading import OrderMode
from .passages import clozes, rite_passages, translated

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


def main_gloss(term: Term) -> str:
    """The gloss a question shows: the sense of the term's example sentence (senses_at: the gloss
    that explains that occurrence, from the text first), else the first from the text, else the
    first curated one."""
    ex = term.example
    at = normalize(ex.text).find(term.normalized) if ex is not None else -1
    if ex is not None and at >= 0:
        fits = senses_at(term, ex.text, at, ex.rite, ex.stage_id)
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
    _selections: dict[tuple[object, ...], list[QuizItem]] = field(default_factory=dict, repr=False, compare=False)
    _sharing: dict[str, tuple[str, ...]] | None = field(default=None, repr=False, compare=False)
    _facts: dict[str, str] | None = field(default=None, repr=False, compare=False)
    _passages: dict[str, list[PassageItem]] | None = field(default=None, repr=False, compare=False)
    # what presenting questions derives from the catalog, made once (study.learn.quiz)
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


def _doc_line(term: Term, files: dict[str, int]) -> tuple[int, int]:
    g = next((g for g in term.glosses if g.line is not None), None)
    if g is not None and g.file in files:
        return files[g.file], g.line or 0
    if term.example is not None and term.example.file in files:
        return files[term.example.file], term.example.line
    return len(files), 0


def _order_items(d_index: int, rite: Rite, stages: Collection[str] | None, *, excerpt: bool = False) -> list[QuizItem]:
    """Ordering items of a rite: windows over its (selected) stages, the whole list, "what comes
    next", and windows over the steps of each (selected) stage. Ids name the first element and
    the size of a window, so a class that studies part of a rite shares them with everyone.

    An excerpt (节选) holds part of the rite: its stage list is titled so, and never asked as the
    whole rite in order."""
    items: list[QuizItem] = []
    full = stage_sequence(rite)
    names = stage_names(rite)  # a name the rite gives two stages is numbered: one right answer
    elements = tuple(
        dataclasses.replace(e, text=names.get(e.id, e.text)) for e in full.elements if stages is None or e.id in stages
    )
    seq = Sequence_(full.id, full.kind, full.rite, f"{full.title}（节选）" if excerpt else full.title, elements)
    if len(elements) >= MIN_ORDER:
        for start, window in seq.windows(STAGE_WINDOW, STAGE_STEP):
            items.append(
                QuizItem(
                    f"order:stages:{window[0].id}:{len(window)}",
                    Family.ORDER,
                    Kind.ORDER,
                    rite.name,
                    (d_index, window[0].line or 0, 10),
                    None,
                    None,
                    "stages",
                    seq,
                    (start, len(window)),
                )
            )
        if STAGE_WINDOW < len(elements) <= MAX_ORDER and not excerpt:
            items.append(
                QuizItem(
                    f"order:rite:{elements[0].id}:{len(elements)}",
                    Family.ORDER,
                    Kind.ORDER,
                    rite.name,
                    (d_index, elements[-1].line or 0, 20),
                    None,
                    None,
                    "rite",
                    seq,
                    (0, len(elements)),
                )
            )
        for k, element in enumerate(elements[:-1]):
            items.append(
                QuizItem(
                    f"next:{element.id}",
                    Family.ORDER,
                    Kind.CHOICE,
                    rite.name,
                    (d_index, element.line or 0, 11),
                    element.id,
                    None,
                    "next",
                    seq,
                    (k, 2),
                )
            )
    for stage in rite.stages:
        if stages is not None and stage.id not in stages:
            continue
        steps = step_sequence(rite, stage)
        if len(steps.elements) < MIN_ORDER:
            continue
        line = stage.line or (stage.passages[0].span[0] if stage.passages else 0)
        for start, window in steps.windows(STEP_WINDOW, STEP_STEP):
            items.append(
                QuizItem(
                    f"order:steps:{window[0].id}:{len(window)}",
                    Family.ORDER,
                    Kind.ORDER,
                    rite.name,
                    (d_index, line, 12 + start),
                    stage.id,
                    None,
                    "steps",
                    steps,
                    (start, len(window)),
                )
            )
    return items


def _passage_items(
    d_index: int,
    doc: Document,
    rite: Rite,
    terms: list[Term],
    stages: Collection[str] | None,
    families: Collection[str],
) -> list[QuizItem]:
    """A passage's classical text ↔ translation (choices), and its glossed terms blanked (typed)."""
    items: list[QuizItem] = []
    for p in rite_passages(doc, rite, terms, stages):
        line = p.passage.lines[0] if p.passage.lines else (p.stage.line or 0)
        if "passages" in families and translated(p):
            for n, direction in enumerate(("c2t", "t2c")):
                items.append(
                    QuizItem(
                        f"{p.id}:{direction}",
                        Family.PASSAGE,
                        Kind.CHOICE,
                        rite.name,
                        (d_index, line, 30 + n),
                        p.stage.id,
                        None,
                        direction,
                        passage=p,
                    )
                )
        if "cloze" in families:
            for term in clozes(p):
                items.append(
                    QuizItem(
                        f"cloze:{p.id[len('passage:') :]}:{term.normalized}",
                        Family.PASSAGE,
                        Kind.TYPED,
                        rite.name,
                        (d_index, line, 32),
                        p.stage.id,
                        term,
                        "cloze",
                        passage=p,
                    )
                )
    return items


def build_catalog(
    documents: Sequence[Document],
    terms: Iterable[Term],
    *,
    stages: Collection[str] | None = None,
    families: Collection[str] = ("vocab", "stages", "steps", "passages", "cloze"),
) -> Catalog:
    """The quiz items of ``documents``: four per glossed term, and the ordering items per rite.

    ``stages`` (stage ids) and ``families`` narrow it to what a class is assigned: the terms given,
    the chosen stages in order and the steps of those stages.
    """
    files = {d.file: n for n, d in enumerate(documents)}
    items: list[QuizItem] = []
    terms_by_rite: dict[str, list[Term]] = defaultdict(list)
    own = [r.name for d in documents for r in d.rites if stages is None or any(s.id in stages for s in r.stages)]
    for term in terms:
        rite = primary_rite(term, own)  # a class's terms are asked under its own rites
        if stages is not None and own and rite not in own:
            rite = own[0]  # a class's term (its stages use it) counted only elsewhere in the book
        if rite is None or not term.glosses:
            continue
        terms_by_rite[rite].append(term)
        if "vocab" not in families:
            continue
        d, line = _doc_line(term, files)
        for n, (direction, kind) in enumerate(
            (("t2g", Kind.CHOICE), ("g2t", Kind.CHOICE), ("typed", Kind.TYPED), ("pinyin", Kind.TYPED))
        ):
            items.append(
                QuizItem(
                    f"vocab:{term.normalized}:{direction}",
                    Family.VOCAB,
                    kind,
                    rite,
                    (d, line, n),
                    term_stage(term),
                    term,
                    direction,
                )
            )
    rites: list[str] = []
    excerpts: set[str] = set()
    infos: dict[str, StageInfo] = {}
    for d_index, doc in enumerate(documents):
        for rite in doc.rites:
            if stages is not None and not any(s.id in stages for s in rite.stages):
                continue
            rites.append(rite.name)
            if doc.excerpt:
                excerpts.add(rite.name)
            for n, stage in enumerate(rite.stages):
                if stage.name and (stages is None or stage.id in stages):
                    infos[stage.id] = StageInfo(stage.id, rite.name, stage.name, stage.modern_name, n)
            for item in _order_items(d_index, rite, stages, excerpt=doc.excerpt):
                wanted = "steps" if item.direction == "steps" else "stages"
                if wanted in families:
                    items.append(item)
            if "passages" in families or "cloze" in families:
                items.extend(_passage_items(d_index, doc, rite, terms_by_rite.get(rite.name, []), stages, families))
    items.sort(key=lambda i: i.sort_key)
    return Catalog(items, {i.id: i for i in items}, dict(terms_by_rite), rites, infos, frozenset(excerpts))
