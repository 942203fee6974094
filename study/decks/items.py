"""What there is to study: the one code path that decides what an item is, for the Anki decks
and for the web quiz alike.

- a **term** (vocabulary: headword ↔ glosses),
- a **passage** (classical text ↔ translation; a cloze over its glossed terms),
- a **sequence**: the named stages of a rite in order, or the steps of one stage in order
  (steps are the sentences of the stage's classical text; a text without punctuation gives one
  step per passage).

Ids are stable identities (rite, stage id, kind, normalised term), never the text of a field, so
that a corrected text or gloss updates what a learner already studies.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from ..model import Document, Passage, Rite, Stage, Term
from ..terms.lexicon import category_of
from ..text.normalize import normalize

_STEP = re.compile(r"[^。；！？]+[。；！？」]*")
MIN_STEP = 4  # a clause shorter than this joins the step before it (「賔对。」)


@dataclass(frozen=True)
class Element:
    """One thing to put in order: a stage of a rite or a step of a stage."""

    id: str
    text: str  # classical
    modern: str | None = None
    line: int | None = field(default=None, compare=False)


@dataclass(frozen=True)
class Sequence_:
    """An ordered list to learn: ``kind`` is "stages" (of a rite) or "steps" (of a stage)."""

    id: str
    kind: str
    rite: str
    title: str  # the rite's name, or the stage's classical name
    elements: tuple[Element, ...]
    stage_id: str | None = None

    def windows(self, size: int, step: int = 1) -> list[tuple[int, tuple[Element, ...]]]:
        """Overlapping windows ``(start, elements)`` of ``size`` (the whole list if shorter)."""
        n = len(self.elements)
        if n <= size:
            return [(0, self.elements)]
        starts = list(range(0, n - size + 1, max(step, 1)))
        if starts[-1] != n - size:
            starts.append(n - size)
        return [(s, self.elements[s : s + size]) for s in starts]


@dataclass(frozen=True)
class PassageItem:
    """A passage of a stage, with the glossed terms it contains (for cloze deletions)."""

    id: str
    rite: str
    stage: Stage
    index: int  # position among the stage's passages
    passage: Passage
    terms: tuple[Term, ...] = ()
    file: str = ""


def stage_sequence(rite: Rite) -> Sequence_:
    """The named stages of ``rite`` in text order (the unnamed tail of an excerpt is left out)."""
    elements = tuple(Element(s.id, s.name or "", s.modern_name, s.line) for s in rite.stages if s.name)
    return Sequence_(f"stages:{normalize(rite.name)}", "stages", rite.name, rite.name, elements)


def stage_steps(stage: Stage) -> tuple[Element, ...]:
    """The steps of ``stage``: the sentences of its classical text, in order.

    A step's id is its stage, passage and sentence index inside the passage, so a correction
    elsewhere in the stage does not renumber it.
    """
    out: list[Element] = []
    for p_index, passage in enumerate(stage.passages):
        text = passage.text
        if not text or passage.continued:  # begun before the excerpt: no step of this stage
            continue
        pieces = [m.group(0).strip() for m in _STEP.finditer(text)] if "。" in text else [text]
        mine: list[str] = []
        for piece in pieces:
            if mine and len(piece.strip("。；，」「")) < MIN_STEP:
                mine[-1] += piece
            elif piece:
                mine.append(piece)
        out.extend(Element(f"{stage.id}#{p_index}.{k}", piece, None, passage.span[0]) for k, piece in enumerate(mine))
    return tuple(out)


def step_sequence(rite: Rite, stage: Stage) -> Sequence_:
    return Sequence_(
        f"steps:{stage.id}",
        "steps",
        rite.name,
        stage.name or "",
        stage_steps(stage),
        stage_id=stage.id,
    )


def passage_items(doc: Document, rite: Rite, terms: Sequence[Term] = ()) -> list[PassageItem]:
    """Every passage of ``rite`` with text, with the terms (of ``terms``) it contains."""
    out: list[PassageItem] = []
    for stage in rite.stages:
        for index, passage in enumerate(stage.passages):
            if not passage.text:
                continue
            key = normalize(passage.text)
            inside = tuple(t for t in terms if t.normalized and t.normalized in key)
            out.append(PassageItem(f"passage:{stage.id}:{index}", rite.name, stage, index, passage, inside, doc.file))
    return out


def cloze_terms(text: str, terms: Sequence[Term], *, max_terms: int = 6) -> tuple[Term, ...]:
    """The glossed terms to blank out in (normalised) ``text``: longest first, never overlapping,
    at most ``max_terms``, in text order."""
    taken = [False] * len(text)
    chosen: list[Term] = []
    for t in sorted(terms, key=lambda t: (-len(t.normalized), t.normalized)):
        if len(t.normalized) == 1 and category_of(t.normalized) is None:
            continue  # a lone character outside the lexicon (人, 面 …) is no word to recall
        at = text.find(t.normalized)
        while at != -1 and any(taken[at : at + len(t.normalized)]):
            at = text.find(t.normalized, at + 1)
        if at == -1:
            continue
        for i in range(at, at + len(t.normalized)):
            taken[i] = True
        chosen.append(t)
        if len(chosen) >= max_terms:
            break
    return tuple(sorted(chosen, key=lambda t: text.find(t.normalized)))
