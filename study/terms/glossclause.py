"""Glosses of commentary written without punctuation, read clause by clause: each clause ends at
也 and its headword is the longest grounded phrase opening it (X即Y, X猶Y, X謂Y, Y曰X, X者Y, XY), or a
short gloss closes it (「…XY也」), or a marker stands inside it (「…X謂Y」). Tuned on the seeds'
edition (simplified script, 【…】 notes, 特牲 unpunctuated); the Kanripo book is read by
study/terms/plain.py and keeps only this reader's 猶 glosses. :func:`split_unpunctuated` and
:func:`tail_pair` also read short clauses of punctuated commentary (study/terms/glosspunct.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from ..text.commentary import commentators
from ..text.normalize import normalize
from .glossrules import (
    FUNCTION,
    MAX_PHRASE,
    NOT_GLOSS,
    Context,
    edges_ok,
    good_gloss,
    grounded,
    has_action,
    is_speaker,
)
from .lexicon import category_of

FORMULA = {"即": "ji", "犹": "you", "犹言": "you", "谓": "wei"}


def read_unpunctuated(text: str, ctx: Context, before: str) -> Iterator[tuple[str, str, str, int, str]]:  # noqa: C901
    """Glosses of commentary written without punctuation: clauses end at 也."""
    pos = 0
    for m in re.finditer(r"[^也]+也?", text):
        clause, at = m.group(0), m.start()
        pos = at
        body = clause[:-1] if clause.endswith("也") else clause
        yield from _inner_markers(body, ctx, at)
        if not clause.endswith("也") or len(body) < 2:
            continue
        prior = before + text[:pos]
        speaker = re.match(r"^(.{2,3})曰", body)
        if speaker and is_speaker(speaker[1]):
            body, at = body[len(speaker[0]) :], at + len(speaker[0])
        found = split_unpunctuated(body, ctx, prior)
        if found:
            term, gloss, formula = found
            inner = tail_pair(gloss, ctx, max_gloss=3, max_head=2) if formula == "ye" else None
            if inner and len(inner[0]) == 2 and len(gloss) > len(inner[0]) + len(inner[1]):
                # 「公有司公家有司门西宾位也」: a second short gloss closes the first one's clause
                cut = len(gloss) - len(inner[0]) - len(inner[1])
                yield term, gloss[:cut], formula, at, f"u:{formula}-split"
                yield inner[0], inner[1], "ye", at + len(term) + cut, "u:ye-split2"
            else:
                yield term, gloss, formula, at, f"u:{formula}"
            continue
        pair = tail_pair(body, ctx, max_gloss=3, max_head=2)  # 「…XY也」: a short gloss ends the clause
        # A person followed by what they do is a sentence, not a headword and its gloss.
        if pair and category_of(pair[0]) == "role" and (has_action(pair[1]) or len(pair[1]) < 4):
            pair = None
        if pair and pair[1] in NOT_GLOSS:
            pair = None
        if pair and (len(pair[0]) == 2 or len(pair[1]) == 1 and normalize(pair[1]) not in ctx.rite_text):
            head, gloss = pair
            yield head, gloss, "ye", at + len(body) - len(head) - len(gloss), "u:ye-tail"


def split_unpunctuated(
    body: str, ctx: Context, prior: str, *, max_head: int = MAX_PHRASE, max_gloss: int = 12
) -> tuple[str, str, str] | None:
    m = re.match(
        r"^(?P<x>.{1,6}?)(?P<n>" + "|".join(commentators()) + r")?(?P<m>即|犹言|犹|谓)(?!之)(?P<y>.+)$", normalize(body)
    )
    if m and grounded(m["x"], ctx, prior):
        x = body[: len(m["x"])]
        y = body[m.start("y") :]
        if good_gloss(y, strict=False):
            return x, y, FORMULA[m["m"]]
    m = re.match(r"^(?P<y>.{1,8})曰(?P<x>.{1,3})$", body)
    if m and not is_speaker(m["y"]) and grounded(m["x"], ctx, prior):
        return m["x"], m["y"], "yue"
    for size in range(min(max_head, len(body) - 1), 0, -1):
        head = body[:size]
        rest = body[size:]
        marker = rest.startswith("者")
        if marker:
            rest = rest[1:]
        if not grounded(head, ctx, prior):
            continue
        # The longest phrase of the text opening the clause is the headword, or there is none;
        # a person followed by what they do is a sentence, not a headword and its gloss.
        if category_of(head) == "role" and not marker and (has_action(rest) or len(rest) < 4):
            return None
        limit = 12 if marker or rest.endswith("者") else (5 if len(head) == 1 else 9)
        fits = len(rest) <= min(max_gloss, limit)
        shared = (set(normalize(head)) & set(normalize(rest))) - FUNCTION
        ok = edges_ok(head) and (len(head) <= 3 or marker or len(shared) >= 2)
        if fits and ok and good_gloss(rest, strict=True) and not rest.startswith("为"):
            return head, rest, "ye"
        return None
    return None


def _inner_markers(body: str, ctx: Context, at: int) -> Iterator[tuple[str, str, str, int, str]]:
    """「…X谓Y」 inside a clause: X the word of the text just before the marker, Y to the end."""
    norm = normalize(body)
    for m in re.finditer(r"(谓|犹|即)(?!之)", norm):
        start = m.start()
        if start < 2:  # a marker opening the clause is read by split_unpunctuated
            continue
        if any(norm[:start].endswith(name) for name in commentators()):
            continue
        gloss = body[m.end() :]
        if not 1 <= len(gloss) <= 6 or not good_gloss(gloss, strict=True):
            continue
        for size in (4, 3, 2, 1):
            head = body[start - size : start]
            if start - size >= 0 and normalize(head) in ctx.classical and edges_ok(head):
                yield head, gloss, FORMULA[m.group(1)], at + start - size, f"u:{FORMULA[m.group(1)]}-inner"
                break


def tail_pair(body: str, ctx: Context, *, max_gloss: int = 2, max_head: int = 3) -> tuple[str, str] | None:
    """A short gloss at the end of a clause, 「…XY也」: the longest word X of the text before it."""
    best: tuple[str, str] | None = None
    for size in range(1, max_gloss + 1):
        gloss = body[-size:]
        if len(body) <= size or gloss[0] in FUNCTION or normalize(gloss) in ctx.classical:
            continue
        if gloss in NOT_GLOSS or not good_gloss(gloss, strict=True):
            continue
        for x_len in range(min(max_head, len(body) - size), 0, -1):
            head = body[-size - x_len : -size]
            if normalize(head) in ctx.classical and edges_ok(head):
                if category_of(head) == "role" and (has_action(gloss) or len(gloss) < 4):
                    break  # a person followed by what they do is a sentence
                if best is None or len(head) > len(best[0]):
                    best = (head, gloss)
                break
    return best
