"""Attach an excerpt's modern translation to the book's matching passages and stage headings.

The excerpt (simplified, punctuated, re-flowed) and the book (traditional, unpunctuated) hold the
same words: passages are matched on :func:`~study.text.normalize.search_key` of their classical
text, exactly or, failing that, by a close match inside the same rite; a stage heading by its
name. The book stays the rite's structure; only translations move.
"""

from __future__ import annotations

from dataclasses import dataclass, replace
from difflib import SequenceMatcher

from ..model import Document, Passage, Rite, Stage
from .normalize import search_key

CLOSE = 0.85  # a passage this similar (after normalisation) is the same passage
_MIN_KEY = 4  # shorter passages match only exactly


@dataclass(frozen=True)
class AttachReport:
    """How many of the excerpt's translated passages and named stages found their place."""

    passages: int
    attached: int
    stages: int
    stages_attached: int


def _key(p: Passage) -> str:
    return search_key(p.text.replace("【句】", "").replace("【读】", ""))


def _translated(doc: Document) -> tuple[dict[str, list[Passage]], dict[str, list[Stage]]]:
    passages: dict[str, list[Passage]] = {}
    stages: dict[str, list[Stage]] = {}
    for rite in doc.rites:
        r = search_key(rite.name)
        for stage in rite.stages:
            if stage.modern_name and stage.name:
                stages.setdefault(r, []).append(stage)
            for p in stage.passages:
                if p.translation and _key(p):
                    passages.setdefault(r, []).append(p)
    return passages, stages


def _best(key: str, candidates: dict[str, Passage]) -> Passage | None:
    if key in candidates:
        return candidates[key]
    if len(key) < _MIN_KEY:
        return None
    best, score = None, CLOSE
    for other, p in candidates.items():
        if abs(len(other) - len(key)) > max(len(key), len(other)) * (1 - CLOSE):
            continue
        ratio = SequenceMatcher(None, key, other, autojunk=False).ratio()
        if ratio >= score:
            best, score = p, ratio
    return best


def attach_translations(book: Document, excerpt: Document) -> tuple[Document, AttachReport]:
    """``book`` with the translations of ``excerpt`` on its matching passages and headings."""
    passages, stages = _translated(excerpt)
    total = sum(len(v) for v in passages.values())
    total_stages = sum(len(v) for v in stages.values())
    used: set[int] = set()
    used_stages: set[int] = set()
    rites: list[Rite] = []
    for rite in book.rites:
        r = search_key(rite.name)
        candidates = {_key(p): p for p in passages.get(r, [])}
        by_name: dict[str, list[Stage]] = {}
        for s in stages.get(r, []):
            by_name.setdefault(search_key(s.name or ""), []).append(s)
        new_stages = []
        for stage in rite.stages:
            new_passages = []
            for p in stage.passages:
                found = _best(_key(p), candidates) if not p.translation and _key(p) else None
                if found is not None and id(found) not in used:
                    used.add(id(found))
                    p = replace(p, translation=found.translation)
                new_passages.append(p)
            same = by_name.get(search_key(stage.name or ""))
            if same and stage.modern_name is None:  # repeated names (取矢視算) pair in order
                modern = same.pop(0)
                used_stages.add(id(modern))
                stage = replace(stage, modern_name=modern.modern_name)
            new_stages.append(replace(stage, passages=tuple(new_passages)))
        rites.append(replace(rite, stages=tuple(new_stages)))
    report = AttachReport(total, len(used), total_stages, len(used_stages))
    return replace(book, rites=tuple(rites)), report
