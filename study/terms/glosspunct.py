"""Glosses of punctuated commentary, read sentence by sentence and clause by clause (cut at ，：「」):
X，Y也 / X者，Y也; X即Y也; X猶Y也 / 猶言; X謂Y; Y曰X (亦曰X); Y謂之X / 故謂之X; X，…之器; and X，Y
(no 也) for a short headword, each headword grounded in the text the commentary explains.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .glossclause import FORMULA, split_unpunctuated, tail_pair
from .glossrules import (
    FUNCTION,
    MAX_PHRASE,
    Context,
    clean,
    edges_ok,
    good_gloss,
    grounded,
    headword,
    is_speaker,
    strip_ye,
    termlike,
)
from .lexicon import category_of

_INLINE = re.compile(r"^(?P<x>[^，、]{1,6}?)(?P<m>即|犹言|犹|谓)(?!之)(?P<y>.+)$")
_YUE = re.compile(r"^(?P<y>[^，]{1,8})曰(?P<x>[^，]{1,3})$")
_WEIZHI = re.compile(r"^(?P<y>[^，]{0,14})谓之(?P<x>[^，]{1,4})$")


_CLAUSE_SPLIT = re.compile(r"[，：「」『』]")
_SPEECH_END = ("告", "命", "对", "请", "言", "云", "辞", "答", "问")


def _clauses(sentence: str) -> list[tuple[int, str]]:
    """Clauses of a sentence with their offsets, without a leading 「NAME曰」."""
    out: list[tuple[int, str]] = []
    for m in re.finditer(r"[^，：「」『』]+", sentence):
        text, at = m.group(0), m.start()
        sp = re.match(r"^(.{2,3})(曰|谓)$", text)
        if sp and is_speaker(sp[1]):
            continue
        out.append((at, text.strip()))
    return out


def _yue(c: str, ctx: Context, prior: str) -> tuple[str, str] | None:
    m = _YUE.match(c)
    if not m or is_speaker(m["y"]) or m["y"].endswith(_SPEECH_END) or m["y"][-1] in "亦故则虽":
        return None
    if "▯" in m["x"] or "▯" in m["y"]:
        return None
    if grounded(m["x"], ctx, prior) or (len(m["x"]) <= 2 and len(m["y"]) <= 4):
        return m["x"], strip_ye(m["y"])
    return None


def read_punctuated(sentence: str, ctx: Context, before: str) -> Iterator[tuple[str, str, str, int, str]]:
    """(term, gloss, formula, offset, rule) found in one punctuated sentence."""
    clauses = _clauses(sentence)
    consumed: set[int] = set()  # clauses already read as the gloss of the clause before
    for i, (at, raw) in enumerate(clauses):
        if i in consumed:
            continue
        c = clean(raw).rstrip("。；")
        prior = before + sentence[:at]
        nxt = clean(clauses[i + 1][1]).rstrip("。；") if i + 1 < len(clauses) else ""
        found = _yue(c, ctx, prior)
        if found:
            yield found[0], found[1], "yue", at, "p:yue"
            continue
        m = re.match(r"^亦曰(.{1,3})$", c)
        if m and i > 0:
            prev = _yue(clean(clauses[i - 1][1]).rstrip("。；"), ctx, prior)
            if prev:
                yield m[1], prev[1], "yue", at, "p:yiyue"
            continue
        m = _WEIZHI.match(c)
        if m and termlike(m["x"]) and not m["y"].startswith(("亦", "则", "可")):
            y = m["y"]
            if y in ("", "故") and i > 0:
                y = clean(clauses[i - 1][1])
            if y:
                yield m["x"], strip_ye(y.removeprefix("以其")), "weizhi", at, "p:weizhi"
            continue
        m = _INLINE.match(c)
        if m and not is_speaker(m["x"]) and grounded(m["x"], ctx, prior) and edges_ok(m["x"]):
            gloss = strip_ye(m["y"])
            if not c.endswith("也") and nxt.endswith("也") and len(nxt) <= 6:
                gloss = f"{gloss}，{strip_ye(nxt)}"
                consumed.add(i + 1)
            if good_gloss(gloss, strict=False):
                yield m["x"], gloss, FORMULA[m["m"]], at, "p:inline"
            continue
        m = re.match(r"^(?P<x>.{1,2}?)(?P<y>[^，]{1,6}之器)$", c)
        if m and grounded(m["x"], ctx, "") and m["x"][0] not in FUNCTION:
            yield m["x"], m["y"], "qi", at, "p:qi"
            continue
        head = c[:-1] if c.endswith("者") and len(c) > 1 else c
        marked = re.match(r"^(即|犹言|犹|谓)(?!之)(.+)$", nxt)
        if marked and 1 <= len(head) <= MAX_PHRASE and grounded(head, ctx, prior) and not is_speaker(head):
            gloss = strip_ye(marked[2])
            if head[0] not in FUNCTION and good_gloss(gloss, strict=False):
                consumed.add(i + 1)
                yield head, gloss, FORMULA[marked[1]], at, "p:marked-next"
            continue
        if (
            nxt
            and termlike(head)
            and grounded(head, ctx, prior)
            and not is_speaker(head)
            and headword(head, strip_ye(nxt))
        ):
            if nxt.endswith("之器"):
                consumed.add(i + 1)
                yield head, nxt, "qi", at, "p:qi-next"
                continue
            after = clean(clauses[i + 2][1]).rstrip("。；") if i + 2 < len(clauses) else ""
            extend = len(head) == 1 or c.endswith("者")
            reason = not good_gloss(strip_ye(after), strict=False) or strip_ye(after).endswith("故")
            if (
                not nxt.endswith("也")
                and after.endswith("也")
                and len(nxt) + len(after) <= 12
                and extend
                and not reason
            ):
                nxt = f"{nxt}，{after}"
                consumed.add(i + 2)
            if nxt.endswith("也"):
                gloss = strip_ye(nxt)
                consumed.add(i + 1)
                if good_gloss(gloss, strict=True):
                    yield head, gloss, "ye", at, "p:ye-next" + ("2" if "，" in gloss else "")
                continue
        starts_statement = i == 0 or clauses[i - 1][1].rstrip().endswith("也")
        if c.endswith("也") and starts_statement and len(c) <= 10:
            found3 = split_unpunctuated(c[:-1], ctx, "", max_head=2, max_gloss=6)
            if found3 and (len(found3[0]) == 2 or len(found3[1]) <= 2):
                yield found3[0], found3[1], found3[2], at, f"p:{found3[2]}-clause"
        elif c.endswith("也") and len(c) <= 5:
            pair = tail_pair(c[:-1], ctx)
            exact = pair and len(pair[0]) + len(pair[1]) == len(c) - 1 and len(c) - 1 >= 3
            known = pair and (len(pair[0]) == 2 or category_of(pair[0]) is not None)
            if pair and exact and known and edges_ok(pair[0]):  # the clause is exactly 「XY也」
                yield pair[0], pair[1], "ye", at, "p:ye-pair"
