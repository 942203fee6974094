"""A teacher's choices (text, rite, stages, kinds, limit, own terms) as a deck spec of the same
format as ``decks/*.yaml``, and a class's assignment as the quiz items its learners study."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import yaml

from ..decks.deckspec import KINDS, DeckSpec, ExtraTerm, parse_deckspec
from ..decks.selection import select
from ..model import Corpus, Document, Term
from ..paths import decks_dir
from .catalog import Catalog
from .gather import build_catalog

FAMILIES = {"terms": "vocab", "stages": "stages", "steps": "steps", "passages": "passages", "cloze": "cloze"}
SPEC_SOURCE = "<teacher page>"


@dataclass(frozen=True)
class DeckChoice:
    """What the deck-builder form asks for."""

    name: str
    text: str
    rite: str
    stages: tuple[str, ...] = ()  # stage ids; empty means the whole rite
    kinds: tuple[str, ...] = KINDS
    max_terms: int | None = None
    extra_terms: tuple[ExtraTerm, ...] = ()


def spec_yaml(choice: DeckChoice) -> str:
    """The deck spec YAML for ``choice`` (what the page offers for download and assigns)."""
    data: dict[str, object] = {"name": choice.name, "texts": [choice.text], "rites": [choice.rite]}
    if choice.stages:
        data["stages"] = list(choice.stages)
    data["kinds"] = list(choice.kinds)
    if choice.max_terms:
        data["limits"] = {"terms": choice.max_terms}
    if choice.extra_terms:
        extra = []
        for t in choice.extra_terms:
            entry: dict[str, object] = {
                "term": t.term,
                "gloss": t.glosses[0] if len(t.glosses) == 1 else list(t.glosses),
            }
            if t.pinyin:
                entry["pinyin"] = t.pinyin
            if t.category != "other":
                entry["category"] = t.category
            extra.append(entry)
        data["terms"] = {"extra": extra}
    body = yaml.safe_dump(data, allow_unicode=True, sort_keys=False, width=1000)
    return f"# Deck spec made on the teacher page; build it with: study build <this file>\n{body}"


def spec_from_yaml(text: str) -> DeckSpec:
    return parse_deckspec(text, SPEC_SOURCE, folder=decks_dir())


def class_catalog(spec: DeckSpec, documents: Sequence[Document], terms: Sequence[Term]) -> Catalog:
    """The quiz items of a class: the spec's terms, its stages in order and their steps."""
    selection = select(spec, Corpus(tuple(documents)), terms)
    selection.raise_problems()
    stage_ids = {s.id for choice in selection.rites for s in choice.stages}
    families = [FAMILIES[k] for k in spec.kinds if k in FAMILIES]
    return build_catalog(
        [c.document for c in selection.rites],
        [c.term for c in selection.terms],
        stages=stage_ids,
        families=families,
        pool=terms,  # a cloze's hint as the class's Anki cloze shows it: told apart from every term
    )
