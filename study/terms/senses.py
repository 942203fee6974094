"""What a gloss may show: a prompt that does not give its answer away.

For the cards (study/decks/) and the quiz (study/learn/):

- :func:`masked_gloss` — the gloss with its headword masked (「士即衆賔」 for 衆賔 → 「士即～」), or
  ``None`` when masking would leave nothing to ask (the gloss is the headword itself);
- :func:`terms_sharing_gloss` / :func:`accepted_terms` — every headword that shares a gloss, so a
  gloss→term question accepts each of them (or is not asked);
- :func:`gloss_prompt` — a gloss→term question's prompt (its answers masked) and the headwords it
  accepts (not one the gloss itself names: 「祝接神佐食接尸」 asks 祝 as 「～接神佐食接尸」);
- :func:`gives_away` — whether a prompt, its answers masked, still answers itself: it holds an
  answer, spells one out (衣衮而冠冕 → 衮冕) or holds two of its characters running (結于胸前 →
  結于面); such a gloss→term question is not asked.

A gloss's place in words (卷, rite, stage, printed page and line, commentator) is said by
study/decks/sources.py (``Places``), for the cards and the quiz alike.
"""

from __future__ import annotations

import re
from collections import defaultdict
from collections.abc import Iterable, Sequence

from ..model import Gloss, Term
from ..text.normalize import normalize, search_key

MASK = "～"


def masked_gloss(term: str, gloss: str) -> str | None:
    """``gloss`` with every occurrence of ``term`` (matched on the normalised text) replaced by
    ～; a one-character headword is masked only as a whole word inside a longer gloss."""
    norm_t, norm_g = normalize(term), normalize(gloss)
    if not norm_t or norm_t not in norm_g:
        return gloss
    out, i = [], 0
    while i < len(gloss):
        if norm_g.startswith(norm_t, i):
            out.append(MASK)
            i += len(norm_t)
        else:
            out.append(gloss[i])
            i += 1
    masked = "".join(out)
    return None if not masked.replace(MASK, "").strip() else masked


def gloss_key(gloss: str) -> str:
    """The form under which two glosses are the same answer (normalised, without 也 and punctuation)."""
    return search_key(gloss).removesuffix("也")


def terms_sharing_gloss(terms: Iterable[Term]) -> dict[str, tuple[str, ...]]:
    """For each gloss (by :func:`gloss_key`), the headwords (as written, first one first) glossed by it.

    A gloss→term question on a gloss listed here with several headwords accepts each of them."""
    out: dict[str, list[str]] = defaultdict(list)
    for t in terms:
        for g in t.glosses:
            key = gloss_key(g.gloss)
            if key and t.term not in out[key]:
                out[key].append(t.term)
    return {k: tuple(v) for k, v in out.items()}


def accepted_terms(gloss: str, terms: Iterable[Term]) -> tuple[str, ...]:
    """Every headword a gloss→term question on ``gloss`` must accept (empty: no term has it)."""
    return terms_sharing_gloss(terms).get(gloss_key(gloss), ())


def gloss_prompt(term: str, gloss: str, sharing: Iterable[str] = ()) -> tuple[str | None, tuple[str, ...]]:
    """A gloss→term question on ``gloss`` asking ``term``: the headwords it accepts — ``term``, then
    each of ``sharing`` (the headwords glossed the same way) that the gloss does not name itself
    (「祝接神佐食接尸」 asks 祝 and shows 佐食) — and its prompt, the gloss with each of them masked
    (None when that leaves nothing to ask)."""
    said = normalize(gloss)
    accepted = tuple(
        dict.fromkeys([term, *(o for o in sharing if normalize(o) != normalize(term) and normalize(o) not in said)])
    )
    prompt: str | None = gloss
    for word in accepted:
        prompt = masked_gloss(word, prompt) if prompt is not None else None
    return (None if prompt is None or gives_away(accepted, [prompt]) else prompt), accepted


def gives_away(answers: Sequence[str], clues: Sequence[str]) -> bool:
    """Whether a gloss→term prompt (``clues``, its answers already masked) answers itself: a clue
    holds an answer; or holds every character of one of two or more in its order, other characters
    between (升堂而歌 → 升歌, 衣衮而冠冕 → 衮冕), or in any order (趾向北 → 北趾, 面向西 → 西面: the
    student turns the clue round); or holds two characters running of one, the term's own words beyond
    its masked headword (結于胸前 → 結于面, 小臣之長 → 小臣正)."""
    keys = [normalize(c) for c in clues]
    for a in (normalize(x) for x in answers):
        for c in keys:
            if a in c or (len(a) > 1 and set(a) <= set(c)) or any(a[i : i + 2] in c for i in range(len(a) - 1)):
                return True
    return False


def gloss_fits(g: Gloss, term: str, text: str, index: int, rite: str, stage_id: str | None = None) -> bool:
    """Whether gloss ``g`` of ``term`` explains the occurrence at ``text[index:]`` in ``rite``
    (and stage ``stage_id``). A gloss of a term with a curated ``where`` applies in its rites, at
    places its pattern matches around the occurrence; otherwise a gloss read from the commentary applies in its own rite, and
    for a word of one or two characters only in its own stage (遂 "armlet" is not 遂 "then")."""
    norm, key = normalize(text), normalize(term)
    if not norm.startswith(key, index):
        return False
    if g.scope and normalize(rite) not in g.scope:
        return False
    if g.pattern is not None and not any(
        a <= index and index + len(key) <= b for a, b in pattern_spans(g.pattern, norm)
    ):
        return False
    if g.formula == "curated" or g.scope:
        return True  # where the teacher says it applies
    if g.rite is not None and normalize(g.rite) != normalize(rite):
        return False
    if g.pattern is not None:
        return True  # the words around it where its commentary stands (windows.particle …)
    return len(key) > 2 or stage_id is None or g.stage_id is None or g.stage_id == stage_id


def pattern_spans(pattern: str, text: str) -> list[tuple[int, int]]:
    """Every (start, end) where ``pattern`` matches ``text``, overlapping ones too: a gloss kept to
    「朝一溢米夕」 and 「夕一溢米不」 fits both 溢 of 「朝一溢米夕一溢米不」 (the two share 夕)."""
    return [(m.start(), m.start() + len(m[1])) for m in re.finditer(f"(?=({pattern}))", text) if m[1]]


def senses_at(t: Term, text: str, index: int, rite: str, stage_id: str | None = None) -> tuple[Gloss, ...]:
    """The glosses of ``t`` that explain its occurrence at ``text[index:]`` (for cloze hints and
    examples): empty when none fits, and then the occurrence is not glossed."""
    return tuple(g for g in t.glosses if gloss_fits(g, t.term, text, index, rite, stage_id))
