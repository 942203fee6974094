"""A gloss chain: short glosses of the passage's words run on at the end of a clause, between
glosses of its neighbouring words (a path of its own, ``chain-tail``, so the gate (study/terms/gate.py)
weighs it apart).

The commentary walks the passage in its order, and often closes one clause with a short gloss of the
next word without a 也 between: 「凡俎貴骨骨貴正與前脊正骨也脅肩前骨也臂肩下骨也」 (the passage 「賔俎脊
脅肩肺」), 「…故宰命司馬戒之逆迎也」 (「司馬戒衆介衆介皆逆命」). A one- or two-character tail is not read
everywhere (mostly narration: 「…升堂也」); it is read only where the clauses around it are themselves
glosses of the same passage in the passage's order — the word before it glossed in the clause
before, or the word after it in the clause after, a few characters away in the passage — or where
the words just before it quote the passage up to the place where the word stands.

Called by study/terms/plain.py once a segment's clauses are read.
"""

from __future__ import annotations

from collections.abc import Iterator

from ..text.normalize import normalize
from .glossrules import Context
from .plaincheck import gloss_ok, head_ok
from .plainfound import Found

NEAR = 8  # how far apart in the passage two neighbouring glossed words may stand
MAX_HEAD = 1
# A character before the headword that joins it to what goes before (an object, a verb's
# complement, a word of the sentence, a verb's object): 「以【布】覆鬲」「順【俎】直載」「為卿設【重】席禮也」
# 「就【葛】絰帶也」 — narration.
LINKS = set("以为而先是曰尚言象顺执其故此可兼特众于之则乃亦用令使将欲得与及或各每凡不无在当如所皆设就")
# A definiens opening with these says what is done or how much (「一寸為度」「醴尚質」「拜無答」), not a word.
GLOSS_BAD = set("为所言无可尚各向贵不")
RARE = 3  # how often the headword may stand in the rite's text


def _rare(head: str, ctx: Context) -> bool:
    """A word of one character that the rite's text writes at most :data:`RARE` times — a thing
    the commentary names in passing (脊, 綴, 翣, 笴), not a word its narration keeps retelling (拜,
    公, 賓, 入, 筵: 「再拜拜貺也」「揖食揖賓進食也」)."""
    return len(head) == 1 and max(ctx.rite_text.count(head), ctx.classical.count(head)) <= RARE


def _head_at(norm: str, j: int, end: int, ctx: Context) -> str:
    for size in range(min(MAX_HEAD, end - j), 0, -1):
        if norm[j : j + size] in ctx.classical:
            return norm[j : j + size]
    return ""


def _tails(norm: str, start: int, end: int, ctx: Context) -> Iterator[tuple[int, str, str]]:
    """(offset, headword, definiens) of a word of the passage and one or two characters closing
    the clause after it."""
    for j in range(max(start + 1, end - 2 - MAX_HEAD), end - 1):
        head = _head_at(norm, j, end, ctx)
        gloss = norm[j + len(head) : end]
        if not head or not head_ok(head) or not 1 <= len(gloss) <= 2 or not gloss_ok(gloss):
            continue
        joined = norm[j - 1 : j + len(head)]
        if gloss in ctx.rite_text or joined in ctx.rite_text or joined in ctx.classical or set(gloss) & set(head):
            continue  # the definiens is a word of the text, or the headword part of a longer one (幼志)
        if norm[j - 1] == head:
            continue  # 「特殺殺一牲也」: the word just said, told again
        if norm.startswith(head, start):
            continue  # 「撫以手撫摩之也」: the clause opens with the word, glossed whole (撫 is not 摩之)
        yield j, head, gloss


def _near(a: str, b: str, passage: str) -> bool:
    """``b`` stands after ``a`` in the passage, at most :data:`NEAR` characters on."""
    return any(0 <= q - p - len(a) <= NEAR for p in positions(a, passage) for q in positions(b, passage))


def chain_tails(
    text: str,
    norm: str,
    clauses: list[tuple[int, int, bool, str | None]],
    found: list[Found],
    ctx: Context,
) -> Iterator[Found]:
    """The short tail glosses of a segment's clauses (``clauses``: start, end, closed by 也,
    speaker, as read; ``found``: the glosses read in them)."""
    opening = {f.offset: f for f in found}
    for k, (start, end, closed, speaker) in enumerate(clauses):
        if not closed:
            continue
        for j, head, gloss in _tails(norm, start, end, ctx):
            if any(start <= f.offset < end and _reach(text, f) > j for f in found):
                break  # a gloss read in the clause reaches the tail
            before = next((f for f in found if clauses[k - 1][0] <= f.offset < start), None) if k else None
            nxt = opening.get(clauses[k + 1][0]) if k + 1 < len(clauses) else None
            ordered = (before is not None and _near(norm_of(before), head, ctx.classical)) or (
                nxt is not None and _near(head, norm_of(nxt), ctx.classical)
            )
            if ordered and _rare(head, ctx) and norm[j - 1] not in LINKS and gloss[0] not in GLOSS_BAD:
                yield Found(text[j : j + len(head)], text[j + len(head) : end], "ye", j, speaker, "end", "chain-tail")
                break


def _reach(text: str, f: Found) -> int:
    """Where the definiens of ``f`` ends in the segment."""
    at = text.find(f.gloss, f.offset + len(f.term))
    return at + len(f.gloss) if at >= 0 else f.offset + len(f.term)


def norm_of(f: Found) -> str:
    return normalize(f.term)


def positions(word: str, passage: str) -> list[int]:
    out, at = [], passage.find(word)
    while at >= 0:
        out.append(at)
        at = passage.find(word, at + 1)
    return out


def chain_splits(text: str, norm: str, found: list[Found], ctx: Context) -> Iterator[tuple[Found, list[Found]]]:
    """Two short glosses read as one: 「湑清伊惟也」「胾切肉鮨膾也」 — a bare definiens closed by 也 that
    holds, after one or two characters, the next word of the passage (one character, rare in the
    rite's text, a few characters on from the headword) and one or two characters glossing it. Each
    gloss found so is given with the two it splits into (path ``chain-split``)."""
    for f in found:
        if f.path != "walk-bare" or f.how != "end":
            continue
        term, gloss = normalize(f.term), normalize(f.gloss)
        at = text.find(f.gloss, f.offset + len(f.term))
        for i in (1, 2):
            word, first, rest = gloss[i : i + 1], gloss[:i], gloss[i + 1 :]
            if not word or not 1 <= len(rest) <= 2 or not (head_ok(word) and _rare(word, ctx)):
                continue
            if not (gloss_ok(first) and gloss_ok(rest)) or first[0] in GLOSS_BAD or set(first) & set(term):
                continue  # 「袒為行變也」, 「西東西列東列也」
            if gloss[i - 1 : i + 1] in ctx.rite_text or gloss[i : i + 2] in ctx.rite_text:
                continue  # the character is part of a longer word
            if at < 0 or not _near(term, word, ctx.classical):
                continue
            yield (
                f,
                [
                    Found(f.term, text[at : at + i], f.formula, f.offset, f.speaker, "end", "chain-split"),
                    Found(
                        text[at + i], text[at + i + 1 : at + len(gloss)], "ye", at + i, f.speaker, "end", "chain-split"
                    ),
                ],
            )
            break
