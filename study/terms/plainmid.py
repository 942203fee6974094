"""Narrow readings of unpunctuated commentary for words the walk (study/terms/plainwalk.py) cannot
take as headwords, each a path of its own so the gate (study/terms/gate.py) weighs it apart:

- ``wei-zhi``: ``X之謂Y`` at the start of a clause, X之 a phrase of the passage (a verb and the
  之 of its object, which the walk refuses at a headword's end): 「實之謂至尊所酌酒以實於爵也」,
  「釋之謂解去之也」. Y runs to the 也 closing the clause, or to a 所謂 that quotes a saying
  (「先見之謂先拜見之禮所謂主人敬客則先拜客也」: what follows is the saying, not the gloss); not a
  definiens holding a new statement (「郤之謂折陳時美面向上今美面向下也」: narration) nor a clause
  of the text (卒射右挾之).

- ``run-on``: a definiens closed by 也 that ran on into the next word of the passage and its own
  short gloss (「執玉執圭璧以行禮舒徐也」 on 「執玉…舒武」: 執玉 = 執圭璧以行禮, 舒 = 徐): the word is
  one character the rite's text writes rarely, standing a few characters after the headword in the
  passage, not part of a longer word of the text, and its gloss one or two characters closing the
  clause. The first gloss is cut there (path ``run-on-cut``) and the second read (``run-on``).

- ``reason-cut``: a definiens closed by 也 that runs on into why the thing is so — 便…, 以便…, 明為…,
  取…之義 closing the clause (「南柄柄向南便執也」: 南柄 = 柄向南; 「邇移之使近人以便食也」; 「明衣浴竟所著親身之衣取明
  潔之義也」) — is cut before it.

``wei_zhi`` is called by study/terms/plain.py on each clause, ``run_on`` and ``reason_cut`` on a
segment's glosses.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Sequence
from dataclasses import replace

from ..text.normalize import normalize
from .glossrules import Context
from .plainchain import GLOSS_BAD, LINKS, NEAR, positions
from .plainchain import _rare as rare
from .plaincheck import fault, gloss_ok, head_ok
from .plainfound import Found
from .plainwalk import OPENERS

MAX_HEAD = 4  # X of at most three characters and its 之
MAX_GLOSS = 12


def wei_zhi(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context
) -> Iterator[Found]:
    """「實之謂至尊所酌酒以實於爵也」: X之謂Y opening a clause closed by 也."""
    if not closed:
        return
    at = norm.find("之谓", start, min(end, start + MAX_HEAD + 1))
    if at <= start:
        return
    head = norm[start : at + 1]
    if ctx.classical.find(head) < 0 or not head_ok(head[:-1]) or "之" in head[:-1]:
        return
    g_start = at + 2
    g_end = norm.find("所谓", g_start + 2, end)
    g_end = end if g_end < 0 else g_end
    gloss = norm[g_start:g_end]
    if not 1 <= len(gloss) <= MAX_GLOSS or not gloss_ok(gloss) or gloss == head:
        return
    if any(gloss.startswith(OPENERS, i) for i in range(2, len(gloss))):
        return  # 「郤之謂折陳時美面向上今美面向下也」: a new statement inside, narration of the act
    # 「釋之謂解去之也」: a definiens that takes the same 之 is checked without it, as the verb's
    check = (head[:-1], gloss[:-1]) if len(gloss) >= 2 and gloss.endswith("之") else (head, gloss)
    if fault(*check, "谓", g_end == end, ctx, ctx.classical.find(head), frozenset({"form"})):
        return
    yield Found(text[start : at + 1], text[g_start:g_end], "wei", start, speaker, "end", "wei-zhi")


RUN_ON_PATHS = ("walk-bare", "walk-wei", "walk-ji", "walk-zhe", "walk-you")


def _tail_word(norm: str, at: int, head: str, gloss: str, ctx: Context) -> int:
    """Where in ``gloss`` (the definiens of ``head`` at ``at`` in ``norm``) the next word of the
    passage opens with its own gloss of one or two characters closing the clause (-1: nowhere)."""
    for i in (len(gloss) - 3, len(gloss) - 2):
        if i < 2:
            continue  # the first gloss keeps two characters at least
        word, rest = gloss[i], gloss[i + 1 :]
        if not (head_ok(word) and rare(word, ctx)) or set(rest) & set(word + head):
            continue
        if gloss[i - 1 : i + 1] in ctx.rite_text or gloss[i : i + 2] in ctx.rite_text or rest in ctx.rite_text:
            continue  # the character is part of a longer word of the text, or its gloss is one
        if gloss[i - 1] in LINKS or gloss[i - 1] in "入出":
            continue  # 「執言手入越淺也」: the word is the object of the definiens (the hand goes into the 越)
        after = [q - p - len(head) for p in positions(head, ctx.classical) for q in positions(word, ctx.classical)]
        if any(0 <= d <= NEAR for d in after) and gloss_ok(rest) and rest[0] not in GLOSS_BAD:
            return i
    return -1


def run_on(text: str, norm: str, found: Sequence[Found], ctx: Context) -> list[Found]:
    """``found`` with each definiens closed by 也 that ran on into the next word of the passage and
    its gloss cut there, and that word's gloss added after it (「執玉執圭璧以行禮舒徐也」)."""
    out: list[Found] = []
    for f in found:
        out.append(f)
        if f.how != "end" or f.path not in RUN_ON_PATHS:
            continue
        head, gloss = normalize(f.term), normalize(f.gloss)
        at = text.find(f.gloss, f.offset + len(f.term))
        i = _tail_word(norm, f.offset, head, gloss, ctx) if at >= 0 else -1
        if i < 0 or gloss[0] == "言" or fault(head, gloss[:i], "", False, ctx, ctx.classical.find(head)):
            continue
        out[-1] = replace(f, gloss=f.gloss[:i], how="cut", path="run-on-cut")
        out.append(Found(f.gloss[i], f.gloss[i + 1 :], "ye", at + i, f.speaker, "end", "run-on"))
    return out


# Why the thing is so, closing a definiens: 便執 (handy to hold), 以便食, 明為賓, 取明潔之義.
REASON_TAIL = re.compile(r"(?:以便|便|明为|取.{1,4}之义).{0,6}$")


def reason_cut(text: str, norm: str, found: Sequence[Found], ctx: Context) -> list[Found]:
    """``found`` with each definiens closed by 也 that runs on into a reason cut before it."""
    out: list[Found] = []
    for f in found:
        gloss = normalize(f.gloss)
        m = REASON_TAIL.search(gloss, 2) if f.how == "end" and f.path in RUN_ON_PATHS else None
        head = normalize(f.term)
        if (
            m
            and gloss_ok(gloss[: m.start()])
            and not fault(head, gloss[: m.start()], "", False, ctx, ctx.classical.find(head))
        ):
            f = replace(f, gloss=f.gloss[: m.start()], how="cut", path="reason-cut")
        out.append(f)
    return out
