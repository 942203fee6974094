"""Two narrow readings of unpunctuated commentary the walk (study/terms/plainwalk.py) leaves out,
each a path of its own so the gate (study/terms/gate.py) weighs it apart:

- ``wei-edge``: ``X謂Y`` where X is a phrase of the text the walk refuses for its edge — opening
  with 其 or 將 (「其摯謂向時所執以來者也」「將走見謂將趨而出謁也」) or a doer closing with 者
  (「卒受者謂大夫也」「贊者謂佐執事不射者也」) — and Y runs to the 也 that closes the clause (or to
  the end of the note), is short and says what, not why; a doer is named by who (a person, 「…者」,
  or a few characters: 「卒受酬者謂末一人也」).
- ``spelt-in``: ``XY也`` at the start of a clause where Y is X with a few characters put in, in
  X's order (「以命升以君命升之也」「撫之撫衆矢而數之也」「夕幣夕而展幣也」): the commentary
  spells the words of the text out.
- ``yue-gu``: ``Y故曰X`` where Y is the whole stretch before 故曰 (from the clause start or the
  previous X) and says what X is (「再請之故曰固」「冒上者方正故曰質冒下身者漸狹故曰殺」), not why
  (「納徵於六禮為盛故曰重禮」: 為, a judgement) — X a word of the text that does not run on.
- ``ji-tail``: ``XA即B也`` at the start of a clause, X a word of the text (not an act) glossed by
  A and identified by B (「建鼓以木貫鼓腹植立即楹鼓也」「鄉服鄉飲之服即朝服也」「頌誦通即歌也」):
  B is read (path ji-tail), and A too unless it says the characters are interchangeable (…通);
  not 即 'go to' (即筵, 即位: 即 with a word of the text) nor 即 'then' (「戒不速賓聞戒即至…」: an
  act).
- ``weizhi-jie``: ``Y皆謂之X`` / ``Y通謂之X``, Y the clause (a leading 凡 left out) naming the things
  all called X (「米禾薪芻皆謂之積」「凡請與辭自再以後皆謂之固」), X a word of the text that does not
  run on (「…皆謂之三馬既立…」).
- ``zhiqi``: ``XY之器`` at the start of a clause or after a description closed by 者, the
  definiens closed at 之器 where no 也 follows (「韇藏筴之器上韇韇蓋也」「…在官知物價者櫝蔵圭之器繅…」).
- ``mao``: ``X[者]Y之貌`` at the start of a clause (or after 凡言): a manner glossed by how it
  looks (「蹙恭敬不寧之貌」「凡言疑者立不定之貌」), unless the commentary then rejects it (…非也).

Called by study/terms/plain.py on each clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterator

from .glossrules import Context, person
from .plaincheck import gloss_ok, has_act, head_ok, in_order
from .plainfound import Found

MAX_HEAD = 6
MAX_GLOSS = 12


def _edge_ok(head: str) -> bool:
    """A phrase the walk refuses only for its edge: 其/將 before a word, or a doer's 者."""
    if head_ok(head) or len(head) < 2:
        return False
    if head[0] in "其将":
        return head_ok(head[1:])
    return head.endswith("者") and len(head) <= 4 and head_ok(head[:-1])


def wei_edge(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context
) -> Iterator[Found]:
    """「其摯謂向時所執以來者也」: X謂Y with X a phrase of the text opening with 其/將 or closing
    with 者, Y closing the clause."""
    if not (closed or end == len(norm)):
        return
    for m in re.finditer("谓", norm[start:end]):
        at = start + m.start()
        head = next(
            (norm[at - n : at] for n in range(min(MAX_HEAD, at - start), 1, -1) if norm[at - n : at] in ctx.classical),
            "",
        )
        gloss = norm[at + 1 : end]
        if not head or not _edge_ok(head) or not 1 <= len(gloss) <= MAX_GLOSS or not gloss_ok(gloss):
            continue
        if head.endswith("者") and not (person(gloss) or gloss.endswith("者") or len(gloss) <= 5):
            continue  # a doer is named by who it is (「卒受者謂大夫也」「釋獲者謂太史也」)
        pos = at - len(head)
        yield Found(text[pos:at], text[at + 1 : end], "wei", pos, speaker, "end", "wei-edge")


def spelt_in(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context, head: str
) -> Iterator[Found]:
    """「以命升以君命升之也」: ``head`` (the phrase of the text opening the clause) glossed by itself
    with one to four characters put in, closed by 也."""
    gloss = norm[start + len(head) : end]
    if (
        closed
        and len(head) >= 2
        and gloss[:1] == head[0]
        and len(head) < len(gloss) <= len(head) + 4
        and in_order(head, gloss)
        and (head_ok(head) or head_ok(head[1:]) or head_ok(head[:-1]))
        and gloss_ok(gloss)
        and "将" not in gloss
    ):
        yield Found(
            text[start : start + len(head)], text[start + len(head) : end], "ye", start, speaker, "end", "spelt-in"
        )


def gu_yue(text: str, norm: str, start: int, end: int, speaker: str | None, ctx: Context) -> Iterator[Found]:
    """「奠之而已無他禮儀故曰奠」: Y故曰X, Y the clause up to 故曰 (or from the previous X)."""
    y_from = start
    for m in re.finditer("故曰", norm[start:end]):
        at, after = start + m.start(), start + m.end()
        x = next(
            (
                norm[after : after + n]
                for n in (3, 2, 1)
                if after + n <= end and norm[after : after + n] in ctx.classical
            ),
            "",
        )
        gloss = norm[y_from:at]
        if (
            x
            and head_ok(x)
            and not (after + len(x) < end and norm[after : after + len(x) + 1] in ctx.classical)  # 「客使自下」 runs on
            and 2 <= len(gloss) <= MAX_GLOSS
            and gloss_ok(gloss)
            and "为" not in gloss
        ):
            yield Found(text[after : after + len(x)], text[y_from:at], "yue", after, speaker, "", "yue-gu")
        y_from = after + len(x)


def mao(text: str, norm: str, start: int, end: int, speaker: str | None, ctx: Context) -> Iterator[Found]:
    """「蹙恭敬不寧之貌」: a word of the text opening the clause glossed by how it looks."""
    pos = start + 2 if norm.startswith("凡言", start) else start
    head = next((norm[pos : pos + n] for n in (3, 2, 1) if norm[pos : pos + n] in ctx.classical), "")
    g_start = pos + len(head) + (norm[pos + len(head) : pos + len(head) + 1] == "者")
    m = re.compile("之貌|之皃").search(norm, g_start, min(end, g_start + MAX_GLOSS) + 2)
    if not head or not head_ok(head) or m is None:
        return
    gloss = norm[g_start : m.end()]
    if 4 <= len(gloss) <= 10 and not re.search("谓|故|盖|将|所以|非", gloss) and not norm.startswith("非", m.end()):
        yield Found(text[pos : pos + len(head)], text[g_start : m.end()], "ye", pos, speaker, "", "mao")


def ji_tail(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context, head: str
) -> Iterator[Found]:
    """「建鼓以木貫鼓腹植立即楹鼓也」: ``head`` (the word of the text opening the clause) glossed by
    what stands before 即 and identified by what follows it."""
    at = norm.rfind("即", start + len(head), end)
    if not closed or not head or len(head) > 3 or not head_ok(head) or has_act(head) or at < 0:
        return
    said, same = norm[start + len(head) : at], norm[at + 1 : end]
    if not (2 <= len(said) <= 8 and 1 <= len(same) <= 6 and gloss_ok(said) and gloss_ok(same)):
        return
    if "谓" in said or "即" in said or "即" + same[:1] in ctx.rite_text:
        return
    term = text[start : start + len(head)]
    if not said.endswith("通"):  # 「頌誦通」: the characters are interchangeable, not a meaning
        yield Found(term, text[start + len(head) : at], "ye", start, speaker, "end", "ji-tail-head")
    yield Found(term, text[at + 1 : end], "ji", start, speaker, "end", "ji-tail")


def zhiqi(text: str, norm: str, start: int, end: int, speaker: str | None, ctx: Context) -> Iterator[Found]:
    """「櫝蔵圭之器」: a thing of the text named by what it holds, closed at 之器."""
    for m in re.finditer("之器", norm[start:end]):
        at = start + m.start()
        for j in range(max(start, at - 8), at - 1):
            if j != start and norm[j - 1] != "者":
                continue
            head = next(
                (norm[j : j + n] for n in range(min(MAX_HEAD, at - j), 0, -1) if norm[j : j + n] in ctx.classical), ""
            )
            gloss = norm[j + len(head) : at + 2]
            if head and head_ok(head) and 3 <= len(gloss) <= 8 and gloss_ok(gloss):
                yield Found(text[j : j + len(head)], text[j + len(head) : at + 2], "qi", j, speaker, "", "zhiqi")
                break


def jie_weizhi(text: str, norm: str, start: int, end: int, speaker: str | None, ctx: Context) -> Iterator[Found]:
    """「米禾薪芻皆謂之積」: the things of the clause all called X."""
    m = re.compile("(皆|通)谓之").search(norm, start, end)
    if m is None:
        return
    after = m.end()
    x = next(
        (norm[after : after + n] for n in (3, 2, 1) if after + n <= end and norm[after : after + n] in ctx.classical),
        "",
    )
    y_from = start + (norm[start] == "凡")
    gloss = norm[y_from : m.start()]
    if (
        x
        and head_ok(x)
        and not (after + len(x) < end and norm[after : after + len(x) + 1] in ctx.classical)
        and 2 <= len(gloss) <= MAX_GLOSS
        and gloss_ok(gloss)
    ):
        yield Found(text[after : after + len(x)], text[y_from : m.start()], "weizhi", after, speaker, "", "weizhi-jie")
