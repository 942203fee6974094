"""The senses of a term in one rite: one note per sense, each with its own example sentence.

A term's glosses (commentary and curated, :mod:`study.terms.senses`) each explain some of its
occurrences: :func:`~study.terms.senses.senses_at` gives the glosses that fit one occurrence.
Two glosses are one sense when they say the same (same :func:`~study.terms.senses.gloss_key`)
or explain the same occurrence; every other split is a sense of its own (主人 is 女父 in one
stage of 士昏禮 and 壻 in another). Senses are numbered by their first occurrence in the rite's
text, over the whole rite (never the stages a spec chose), so a sense note is the same in every
package. A gloss that explains no occurrence joins the sense used in its own stage (or the
nearest one); a term with no glossed occurrence has one sense made of the glosses given in this
rite (and no example of its own), or none when it is glossed only for another rite.

Example::

    senses = rite_senses(rite, document.file, terms)   # {normalised term: (Sense, …)}
    for s in senses["主人"]:
        s.number, [g.gloss for g in s.glosses], s.example.text
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass

from ..model import Example, Gloss, Rite, Stage, Term
from ..terms.senses import gloss_key, senses_at
from ..terms.snippets import EXAMPLE_CHARS, snippet
from ..text.normalize import normalize
from .clozespans import inside_word

_SENTENCE = re.compile(r"[^。；！？\u3000]+[。；！？」]*")
_STRIP = " \u3000」"


@dataclass(frozen=True)
class Sense:
    """One sense of a term in a rite: its glosses, where it is first used, its example."""

    number: int  # 0 for the first sense (its note keeps the term's fact id)
    glosses: tuple[Gloss, ...]  # in the term's order
    stage: Stage | None  # the stage of its first glossed occurrence (else of its first gloss)
    stages: frozenset[str]  # stage ids where it is used or glossed
    example: Example | None  # the first sentence using the term in this sense
    at: int = -1  # where the term stands in the example (normalised index)
    # where the term stands in the example in this sense (``at`` among them): only these are marked
    # (匕 = 所以出飯 in 「…鼎匕俎…甑甗匕與敦…」 marks the second 匕, not the tripod's spoon)
    marks: tuple[int, ...] = ()


@dataclass(frozen=True)
class _Sentence:
    stage: Stage
    stage_index: int
    text: str
    key: str
    line: int
    lines: frozenset[int] = frozenset()  # the lines of its passage (where its commentary stands)


def _sentences(rite: Rite) -> list[_Sentence]:
    """The sentences of the rite's classical text, stage by stage: its passages, then the
    classical words of its heading's notes (記)."""
    out = []
    for s_index, stage in enumerate(rite.stages):
        runs = [(p.text, p.lines[0] if p.lines else 0, frozenset(p.lines)) for p in stage.passages]
        runs.append((stage.note_text, stage.line or 0, frozenset({stage.line or 0})))
        for run, line, lines in runs:
            for m in _SENTENCE.finditer(run):
                text = m.group(0).strip(_STRIP)
                if text:
                    out.append(_Sentence(stage, s_index, text, normalize(text), line, lines))
    return out


def occurrences(key: str, word: str, *, in_words: bool = False) -> list[int]:
    """Where ``word`` (normalised) stands in ``key`` as a word of its own (not inside 主人 …;
    with ``in_words``, inside a longer word too)."""
    out, at = [], key.find(word) if word else -1
    while at != -1:
        if in_words or not inside_word(key, at, at + len(word)):
            out.append(at)
        at = key.find(word, at + len(word))
    return out


def term_senses(t: Term, rite: Rite, file: str, sentences: Sequence[_Sentence] | None = None) -> tuple[Sense, ...]:
    """The senses of ``t`` in ``rite`` (see the module's description); none if no gloss of ``t``
    applies in ``rite``."""
    sentences = _sentences(rite) if sentences is None else sentences
    n = len(t.glosses)
    parent = list(range(n))

    def find(i: int) -> int:
        while parent[i] != i:
            parent[i] = parent[parent[i]]
            i = parent[i]
        return i

    def union(a: int, b: int) -> None:
        parent[find(a)] = find(b)

    first_key: dict[str, int] = {}
    for i, g in enumerate(t.glosses):
        first_key.setdefault(gloss_key(g.gloss), i)
        union(i, first_key[gloss_key(g.gloss)])
    uses = _uses(t, rite, sentences)
    for _, _, fits in uses:
        for i in fits[1:]:
            union(i, fits[0])
    stage_pos = {st.id: i for i, st in enumerate(rite.stages)}
    roots: list[int] = []  # senses in order of first use
    for _, _, fits in uses:
        r = find(fits[0])
        if r not in roots:
            roots.append(r)
    if not roots:  # no occurrence glossed: the glosses given in this rite (or by the teacher), if any
        here = tuple(g for g in t.glosses if g.formula == "spec" or normalize(g.rite or "") == normalize(rite.name))
        if not here:
            return ()  # glossed only for another rite (卷十七 holds eight): nothing to teach here
        home = next((rite.stages[stage_pos[g.stage_id]] for g in here if g.stage_id in stage_pos), None)
        stages = frozenset(g.stage_id for g in here if g.stage_id in stage_pos)
        return (Sense(0, here, home, stages, None),)
    members: dict[int, list[int]] = {r: [] for r in roots}
    used_in: dict[int, set[str]] = {r: set() for r in roots}
    for k, _, fits in uses:
        used_in[find(fits[0])].add(sentences[k].stage.id)
    for i, g in enumerate(t.glosses):
        r = find(i)
        if r not in members:  # explains no occurrence: the sense used in its stage, or the nearest
            if g.scope and normalize(rite.name) not in g.scope:
                continue  # the teacher's gloss of another rite (纯 = 二算为纯 is not 士冠禮's 纯)
            if g.formula != "curated" and not g.scope and g.rite and normalize(g.rite) != normalize(rite.name):
                continue  # the commentary's gloss of another rite that explains nothing here
            if g.pattern is not None:
                continue  # kept to places none of which is here (序 the wall: not 禮儀有序, 'order')
            where = stage_pos.get(g.stage_id or "", -1)
            r = min(
                roots,
                key=lambda x: (
                    g.stage_id not in used_in[x],
                    min((abs(stage_pos[s] - where) for s in used_in[x]), default=0) if where >= 0 else 0,
                    roots.index(x),
                ),
            )
        members[r].append(i)
    out: list[Sense] = []
    taken: set[int] = set()  # example sentences already given to an earlier sense
    for number, r in enumerate(roots):
        glosses = tuple(t.glosses[i] for i in sorted(members[r]))
        # the sentences using it, those of the passages its glosses explain first (the commentary
        # stands with its passage): the example shows what the gloss was said of
        glossed = {g.line for g in glosses if g.line is not None and g.file == file}
        mine = sorted(
            ((k, at) for k, at, fits in uses if find(fits[0]) == r),
            key=lambda m: not (glossed & sentences[m[0]].lines),
        )
        k, first, text, at = _example(t, sentences, [m for m in mine if m[0] not in taken] + mine, glosses)
        shown, size = normalize(text), len(t.normalized)
        marks = tuple(
            sorted(
                {at}
                | {
                    p
                    for p in (a - first + at for kk, a in mine if kk == k)
                    if 0 <= p and shown[p : p + size] == t.normalized
                }
            )
        )
        taken.add(k)
        s = sentences[k]
        stages = frozenset(used_in[r] | {g.stage_id for g in glosses if g.stage_id in stage_pos})
        example = Example(text, file, s.line, rite.name, s.stage.id)
        out.append(Sense(number, glosses, s.stage, stages, example, at, marks))
    return tuple(out)


def _uses(t: Term, rite: Rite, sentences: Sequence[_Sentence]) -> list[tuple[int, int, tuple[int, ...]]]:
    """Each occurrence of ``t`` some of its glosses explain: (sentence, at, gloss indices) in text
    order. A word used only inside longer words of the lexicon is looked for there (楹 in 楹間);
    and a gloss kept to a pattern that fits none of its uses as a word of its own is looked for
    inside them too, as its pattern says (个 = 偏侧为个 in 左个, 右个: the target's side-pieces)."""
    index = {id(g): i for i, g in enumerate(t.glosses)}

    def found(in_words: bool, only: frozenset[int] | None = None) -> list[tuple[int, int, tuple[int, ...]]]:
        out = []
        for k, s in enumerate(sentences):
            if t.normalized not in s.key:
                continue
            for at in occurrences(s.key, t.normalized, in_words=in_words):
                if only is not None and not inside_word(s.key, at, at + len(t.normalized)):
                    continue  # (seen as a word of its own)
                fits = tuple(index[id(g)] for g in senses_at(t, s.text, at, rite.name, s.stage.id))
                fits = fits if only is None else tuple(i for i in fits if i in only)
                if fits:
                    out.append((k, at, fits))
        return out

    uses = found(False)
    if not uses:
        return found(True)
    used = {i for _, _, fits in uses for i in fits}
    kept = frozenset(i for i, g in enumerate(t.glosses) if i not in used and g.pattern is not None)
    return sorted(uses + found(True, kept)) if kept else uses


def _example(
    t: Term, sentences: Sequence[_Sentence], candidates: Sequence[tuple[int, int]], glosses: Sequence[Gloss]
) -> tuple[int, int, str, int]:
    """The example of a sense: the first candidate sentence (cut around the term, shorter if need
    be) that does not contain one of the sense's glosses, so that showing it never gives the
    answer; else the first candidate. (sentence, the term's place in it, the example, its place
    in the example)"""
    keys = [k for k in (normalize(g.gloss).rstrip("也") for g in glosses) if len(k) >= 2]
    for k, at in candidates:
        for limit in (EXAMPLE_CHARS, 20, 12, 8):
            text, where = snippet(sentences[k].text, at, len(t.normalized), limit)
            if not any(g in normalize(text) for g in keys):
                return k, at, text, where
    k, at = candidates[0]
    return k, at, *snippet(sentences[k].text, at, len(t.normalized))


def first_use(
    t: Term, rite: Rite, file: str, sentences: Sequence[_Sentence], glosses: Sequence[Gloss]
) -> tuple[Example, int] | None:
    """The rite's first sentence using ``t`` as a word of its own, cut as a sense's example is
    (:func:`_example`, clear of ``glosses``), and where the term stands in it — for a sense with no
    glossed use, whose gloss stands where the text does not use the term (儐尸 = 繹祭 at the heading
    右新儐尸之禮; the classic writes 儐尸 once, in 不儐尸's 「若不儐尸則祝侑亦如之」). None if the
    rite's text never uses it so (特牲, 少牢: only their rites' names)."""
    candidates = [(k, at) for k, s in enumerate(sentences) for at in occurrences(s.key, t.normalized)]
    if not candidates:
        return None
    k, _, text, at = _example(t, sentences, candidates, glosses)
    s = sentences[k]
    return Example(text, file, s.line, rite.name, s.stage.id), at


def rite_senses(rite: Rite, file: str, terms: Sequence[Term]) -> dict[str, tuple[Sense, ...]]:
    """The senses of each of ``terms`` in ``rite``, by normalised term."""
    sentences = _sentences(rite)
    return {t.normalized: term_senses(t, rite, file, sentences) for t in terms}
