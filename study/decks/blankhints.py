"""The hint of one blank wherever the rite's text is asked as a cloze: the Anki cloze of a unit
(study/decks/cards.py) and the web quiz's cloze of a passage (study/learn/passages.py) show the same
hint for the same occurrence — :func:`~study.decks.clozehints.cloze_hint` of the glosses explaining
it, told apart from the glosses of the terms of its text alone (:func:`text_terms`, as a deck of that
text reads them: study/build.py ``plan_deck``).
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import replace

from ..model import Term
from ..terms.senses import senses_at
from .clozehints import cloze_hint


def text_terms(pool: Iterable[Term], file: str) -> list[Term]:
    """The terms of ``pool`` (read from several texts) as a deck of the text ``file`` alone knows
    them: with the glosses read in that text and the curated ones; a term left with none is not one
    of that text."""
    out = []
    for t in pool:
        kept = tuple(g for g in t.glosses if g.file == file or g.formula == "curated")
        if kept:
            out.append(t if len(kept) == len(t.glosses) else replace(t, glosses=kept))
    return out


def occurrence_hint(
    term: Term, text: str, at: int, rite: str, stage_id: str | None, shared: Mapping[str, frozenset[str]]
) -> str:
    """The hint of the blank of ``term`` at ``text[at:]`` (normalised index) in a stage of ``rite``:
    :func:`~study.decks.clozehints.cloze_hint` of the glosses explaining that occurrence, ``shared``
    the :func:`~study.decks.clozehints.shared_glosses` of its text; empty if none makes one."""
    return cloze_hint(term, senses_at(term, text, at, rite, stage_id), shared)
