"""Where a commentary gloss is kept: the classical words its commentary explains (a passage, or
the 記 words before a 【…】), the words around a word there, and the glosses kept to them — a
particle's (若 = 順 in 「先妣之嗣若則有常」), a word glossed two ways in one stage (宰 of 大射儀), a
gloss of one of a passage's two uses of a word (匕, :mod:`study.terms.named`), a commentary gloss of
a word the teacher scoped (中, 个). Used by :func:`study.terms.glossary.build_terms`."""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Mapping, Sequence
from dataclasses import replace
from functools import lru_cache

from ..model import Document, Gloss, Segment, Stage
from ..text.normalize import normalize, search_key
from .curated import CuratedTerm
from .glossrules import FUNCTION
from .named import Window, in_reading_order, kept_to, named, of_its_use
from .plaincheck import head_ok
from .senses import pattern_spans

PARTICLE_WINDOW = 2  # characters kept on each side of a particle for the sentence its gloss explains
Said = Mapping[tuple[str, int], Sequence[str]]  # the commentary segments over each line


def explained_words(documents: Iterable[Document]) -> dict[tuple[str, int], set[str]]:
    """Each commentary line of the classical text: the classical words its commentary explains —
    its passage's text, or in a stage's notes (記) the words before that 【…】."""
    out: dict[tuple[str, int], set[str]] = defaultdict(set)
    for doc in documents:
        for rite in doc.rites:
            for stage in rite.stages:
                for passage in stage.passages:
                    for line in passage.lines:
                        out[(doc.file, line)].add(passage.text)
                for seg in stage.note_commentary:
                    text = note_words(stage, seg)
                    if text is not None:
                        for line in {seg.line, *(n for _, n in seg.breaks)}:
                            out[(doc.file, line)].add(text)
    return out


def note_words(stage: Stage, seg: Segment) -> str | None:
    """The classical words of a stage's notes (記) that a segment of their commentary explains:
    those before its 【…】, as written; None if the segment is not found there."""
    head = seg.text[:12]
    return next((run.strip("\u3000 ") for run, block in _note_runs(stage.notes) if head and head in block), None)


@lru_cache(maxsize=1024)
def _note_runs(notes: str) -> list[tuple[str, str]]:
    """A stage's notes as (classical words, the 【…】 after them), read once per notes."""
    return re.findall(r"([^【】]*)【([^【】]*)】", notes)


def particle(norm: str) -> bool:
    """A one-character word the commentary glosses only for the sentence at hand: a particle the
    gloss reader never takes for a word alone (即, 則, 若, 將, 在, 而 …; plaincheck.head_ok)."""
    return len(norm) == 1 and (norm in FUNCTION or not head_ok(norm))


def words_around(
    g: Gloss, norm: str, explained: Mapping[tuple[str, int], set[str]], said: Said | None = None, *, order: bool = True
) -> list[Window]:
    """The words around each use of ``norm`` (PARTICLE_WINDOW characters each side, never across
    punctuation) in the classical text the commentary of ``g`` explains, longest first; with
    ``said`` (the commentary of each line), only those the commentary speaks of if it tells
    (:func:`~study.terms.named.named`: 匕 = 所以出飯 of 甑甗匕與敦, not of 鼎匕俎; else, with
    ``order``, :func:`~study.terms.named.in_reading_order`: 羞 = 進 of 士羞, 肴美 of 庶羞 in
    「士羞庶羞」)."""
    word = r"[\u3400-\u9fff\U00020000-\U0002ffff]"
    windows: set[Window] = set()
    at_use: dict[tuple[str, int], Window] = {}
    for key in map(normalize, explained.get((g.file or "", g.line or 0), ())):
        for m in re.finditer(re.escape(norm), key):
            before = re.search(rf"{word}{{0,{PARTICLE_WINDOW}}}$", key[: m.start()])
            after = re.match(rf"{word}{{0,{PARTICLE_WINDOW}}}", key[m.end() :])
            w = (before.group(0) if before else "", after.group(0) if after else "")
            windows.add(w)
            at_use[(key, m.start())] = w
    ordered = sorted(windows, key=lambda w: (-len(w[0] + w[1]), w[0] + norm + w[1]))
    if said is None:
        return ordered
    chosen = named(g, norm, ordered, said)
    if len(chosen) < len(ordered):
        return chosen
    passages = {key for key, _ in at_use}
    if order and len(passages) == 1:
        (passage,) = passages
        at = in_reading_order(g, norm, passage, said)
        if at is not None:
            return [at_use[(passage, at)]]
    return ordered


def in_its_passage(g: Gloss, norm: str, explained: Mapping[tuple[str, int], set[str]]) -> Gloss:
    """A particle's commentary gloss kept to the words around it in the passage its commentary
    explains (若 = 順 in 「先妣之嗣若則有常」, not in 「若衣若笄」 of the same stage): its ``pattern``.
    Unchanged when the passage is not found or does not use the word."""
    windows = words_around(g, norm, explained)
    if not windows or g.pattern is not None:
        return g
    return replace(g, pattern=kept_to(norm, windows))


def apart(glosses: list[Gloss], norm: str, explained: Mapping[tuple[str, int], set[str]]) -> list[Gloss]:
    """A word of one or two characters glossed differently within one stage (宰 = 上卿執政者 and
    宰 = 膳宰掌治官饌者 in 大射儀's 戒羣臣; 吾子 = 使者稱女父 and 吾子 = 使者 in 士昏禮's 納采; 拜辱 =
    拜迎 and 拜送): each of those glosses keeps to the words around it where its commentary stands,
    as a particle's does, so that they stay two senses rather than one card with both."""
    keys: dict[tuple[str | None, str | None], set[str]] = defaultdict(set)
    for g in glosses:
        if g.formula != "curated" and g.line is not None:
            keys[(g.rite, g.stage_id)].add(search_key(g.gloss.removesuffix("也")))
    torn = {place for place, k in keys.items() if len(k) > 1}
    return [in_its_passage(g, norm, explained) if (g.rite, g.stage_id) in torn and g.line else g for g in glosses]


def kept_to_its_use(g: Gloss, norm: str, explained: Mapping[tuple[str, int], set[str]], said: Said) -> Gloss:
    """A commentary gloss kept to the use of its word the commentary names
    (:func:`~study.terms.named.of_its_use`)."""
    if g.formula == "curated" or g.line is None:
        return g
    # the commentary's reading order tells the uses apart for a word glossed two ways here
    # (:func:`apart`), and for a gloss that puts words before its word (:func:`done_to`)
    chosen = words_around(g, norm, explained, said, order=g.pattern is not None or done_to(g, norm))
    return of_its_use(g, norm, words_around(g, norm, explained), chosen)


def done_to(g: Gloss, norm: str) -> bool:
    """Whether gloss ``g`` of ``norm`` ends with the word after words put before it (席 = 布席, 尊 =
    設酒尊): what is done with the thing at one use, not what the thing is — 鄉飲酒禮's 「乃席賔主人
    介衆賔之席皆不屬焉」 lays the mats out (乃席), then names them (衆賔之席). Where its passage uses
    the word more than once, it is said of the use the commentary's reading order gives."""
    said = normalize(g.gloss).removesuffix("也")
    return len(said) > len(norm) and said.endswith(norm)


def scoped(
    g: Gloss, norm: str, c: CuratedTerm, explained: Mapping[tuple[str, int], set[str]], said: Said | None = None
) -> Gloss:
    """A commentary gloss of a term the teacher scoped (``where``): in the teacher's rites and
    pattern when it is said of a place the pattern fits (中 = 盛算之器 at 「所設中之西」: wherever the
    tally vessel is) — but a one-character word's gloss said of another place keeps to the words
    around it there, as a particle's does (中 = 中幅侯心 at 「侯中」, 中 = 間 at 「中等」: one stage of
    鄉射禮 uses 中 in all three senses). Where the teacher scoped each gloss apart (个: the arrow at
    「一个」, the side-piece at 「左个」), it takes the where of the teacher's gloss whose pattern fits
    the place it is said of. The place is the use the commentary speaks of, where it tells
    (:func:`words_around`): 燕禮's 尊 = 設酒尊 is said of 「司宫尊于東楹」, the verb the teacher's
    尊 (the vessel) leaves out, so it keeps there and does not join the vessel's card."""
    if c.rites and g.rite and normalize(g.rite) not in c.rites:  # said of another rite: kept there
        windows = words_around(g, norm, explained, said) if len(norm) == 1 else []  # (个 = 枚 at 士虞禮's 俎釋三个)
        return replace(g, pattern=kept_to(norm, windows)) if windows else g
    patterned = list(dict.fromkeys(w for w in map(c.where, range(len(c.glosses))) if w[1] is not None))
    windows = words_around(g, norm, explained, said) if len(norm) == 1 and patterned else []
    if windows:
        fits = [(rites, pattern) for rites, pattern in patterned if any(_fits(pattern, norm, w) for w in windows)]
        if not fits:  # (its own place, its own rite: 中月而禫 of 士虞禮 is 間 too)
            return replace(g, pattern=kept_to(norm, windows))
        if len(fits) == 1 or (c.rites, c.pattern) not in fits:
            return replace(g, pattern=fits[0][1], scope=fits[0][0])
    return replace(g, pattern=c.pattern, scope=c.rites)


def _fits(pattern: str | None, norm: str, w: Window) -> bool:
    """Whether a teacher's pattern takes the use at the centre of window ``w``."""
    text, at = w[0] + norm + w[1], len(w[0])
    return any(a <= at and at + len(norm) <= b for a, b in pattern_spans(pattern or norm, text))
