"""The walk of unpunctuated commentary: ``X[者|謂|猶|猶言|即|蓋]Y`` or plain ``XY`` along one clause,
X the longest phrase of the text opening the clause (or a marker), Y running to the clause end or
to the next *anchor* — a later word of the text that opens a gloss of its own
(「𤣥端禮服至謂至于大門外」), or closing at the first 者 of a definiens (「卿執國政者大國三卿五大夫」)
or before a word opening a new statement; and a doer (「從者小臣師之屬也」). Each reading checked by
study/terms/plaincheck.py and, where it fails, kept by a narrower shape of study/terms/plainrescue.py.
Called by study/terms/plain.py on each clause without an 曰 formula.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from .glossrules import Context, person
from .lexicon import category_of
from .plainbare import before_marker, pair
from .plaincheck import NEGATION, fault, gloss_ok, has_act, head_ok
from .plainfound import FORMULA, Found
from .plainrescue import PURPOSE, again, clause_head, component, purpose, rescue, shape_of

MARKERS = ("犹言", "谓", "犹", "即", "者", "盖")
# A word opening a new statement ends the definiens before it (「問女之名将歸卜其吉凶」).
OPENERS = (
    "将",
    "故",
    "盖",
    "欲",
    "恐",
    "则",
    "乃",
    "亦",
    "若",
    "凡",
    "然",
    "既",
    "今",
    "必",
    "皆",
    "又",
    "虽",
    "此",
    "所以",
    "不敢",
    "不可",
    "言",
    "慮",
    "防",
    "按",
    "谓之",
)
SKIP = set("凡用此其言")
_MARKER_NAME = {"谓": "wei", "犹": "you", "犹言": "youyan", "即": "ji", "者": "zhe", "盖": "gai", "": "bare"}
MAX_HEAD = 6
TAILS = False
MAX_DEF = 12  # a definiens running to an anchor or 者 (one closed by 也 may be longer)


def _grounded(word: str, ctx: Context) -> int:
    """Where ``word`` stands in the classical text the note explains (-1: not there)."""
    return ctx.classical.find(word) if word else -1


def _head_at(norm: str, start: int, end: int, ctx: Context) -> str:
    """The longest phrase of the classical text opening ``norm[start:end]``."""
    for size in range(min(MAX_HEAD, end - start), 0, -1):
        if _grounded(norm[start : start + size], ctx) >= 0:
            return norm[start : start + size]
    return ""


def _anchor(norm: str, j: int, end: int, ctx: Context, after: int, said: bool = False) -> bool:
    """A later word of the text opens a gloss of its own at ``j``: the definiens before it ends."""
    head = _head_at(norm, j, end, ctx)
    if not head or not head_ok(head) or ctx.classical.find(head, after) < 0:
        return False
    rest = norm[j + len(head) : end]
    if rest.startswith(MARKERS):
        return not (said and rest == "者")  # 「沃洗謂以枓斟水而沃洗爵者也」: after 謂, 爵者 glosses nothing
    if rest.startswith(("与", "及")) or norm[j - 1] in "与及":
        return False  # 「太師少師與上工四人」: a list goes on, no word of it opens a gloss
    return len(head) >= 2 and 1 <= len(rest) <= 8 and gloss_ok(rest[: rest.find("者") + 1] if "者" in rest else rest)


def _tail(norm: str, start: int, end: int, ctx: Context) -> int | None:
    """「…XY也」: a word of the text and a definiens of at most three characters closing the clause."""
    for j in range(max(start, end - 3 - MAX_HEAD), end - 1):
        head = _head_at(norm, j, end, ctx)
        rest = norm[j + len(head) : end]
        if not head or not head_ok(head) or not 1 <= len(rest) <= 2 or not gloss_ok(rest):
            continue
        if rest in ctx.rite_text or norm[j - 1 : j + len(head)] in ctx.rite_text or set(rest) & set(head):
            continue
        return j
    return None


def _starts(norm: str, start: int, end: int, closed: bool, ctx: Context) -> list[int]:
    """Where a headword opens a gloss inside a clause."""
    out: set[int] = set()
    for at in (start, start + 1):  # 「凡行事謂…」: a leading 凡/用/此 is not part of the headword
        head = _head_at(norm, at, end, ctx)
        if head and (head_ok(head) or at == start and clause_head(head)) and (at == start or norm[start] in SKIP):
            out.add(at)
            break
    for m in re.finditer(r"犹言|谓|犹|即", norm[start:end]):
        at = start + m.start()
        for size in range(min(MAX_HEAD, at - start), 0, -1):
            head = norm[at - size : at]
            if _grounded(head, ctx) >= 0 and head_ok(head):
                out.add(at - size)
                break
    if closed and TAILS:
        tail = _tail(norm, start, end, ctx)
        if tail is not None:
            out.add(tail)
    return sorted(out)


def _cut(gloss: str, ctx: Context, head: str = "") -> int:
    """Where a definiens running past its end is cut: after the first 者 that closes a
    description (not one of a word like 使者), or before a word (or an act naming ``head`` again) opening a new statement."""
    for i, ch in enumerate(gloss):
        if (
            i >= 2
            and ch == "者"
            and gloss[i - 1 : i + 1] not in ctx.rite_text
            and category_of(gloss[i - 1 : i + 1]) is None
        ):
            return i + 1
        if i >= 2 and (gloss.startswith(OPENERS, i) and not PURPOSE.match(gloss, i - 1) or again(head, gloss[i:])):
            return i
        if i >= 1 and ch in KINDS and gloss[i - 1 : i + 1] not in ctx.rite_text and i + 1 < len(gloss):
            return i + 1  # 「宰夫太宰之屬此宰謂…」: a definiens naming a class ends there
    return len(gloss)


KINDS = set("属类长")  # 之屬, 之類, 之長, 堇類: a definiens that names the class of the word


def walk(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context
) -> Iterator[Found]:
    """Headword and definiens pairs along one clause, in the order of the classical text."""
    if pair(norm, start, end, closed, ctx.classical):  # 「即就也」: a particle of the text used as a word
        yield Found(text[start], text[start + 1 : end], "ye", start, speaker, "end", "walk-bare-pair")
    starts = _starts(norm, start, end, closed, ctx)
    for k, pos in enumerate(starts):
        stop = starts[k + 1] if k + 1 < len(starts) else end
        head = _head_at(norm, pos, stop, ctx)
        if not head:
            continue
        where = ctx.classical.find(head)
        g_start = pos + len(head)
        marker = next((mk for mk in MARKERS if norm.startswith(mk, g_start)), "")
        g_start += len(marker)
        g_end, last, kind = stop, stop == end, "next"
        for j in range(g_start + 2, stop):
            if _anchor(norm, j, stop, ctx, where + len(head), marker == "谓"):
                g_end, last, kind = j, False, "anchor"
                break
        cut = _cut(norm[g_start:g_end], ctx, head)
        if cut < g_end - g_start:
            g_end, last = g_start + cut, False
            kind = "zhe" if norm[g_end - 1] in "者属类长" else "opener"
        second = next((i for i in range(3, g_end - g_start) if norm[g_start + i] in NEGATION), 0)
        if second and norm[g_start] in NEGATION and sum(ch in NEGATION for ch in head) == 1:
            g_end, last, kind = g_start + second, False, "negation"  # 「無執不執圭玉不陳重器」
        gloss = norm[g_start:g_end]
        how = "end" if (closed and last) else kind
        if how == "zhe" and pos == start and stop == end and closed:
            # 「先生鄉中公卿大夫致仕者謀商度也」: the next word of the text opens after the 者, glossed
            # by one or two characters closed by 也 (a longer one ran two glosses together:
            # 「師具佐士其屬也」「綌粗葛錫細布也」)
            for f in walk(text, norm, g_end, end, closed, speaker, ctx):
                if f.how == "end" and len(f.gloss) <= 2:
                    yield replace(f, how="end-zhe")
        part = component(head, gloss, how, norm[g_end : g_end + 40], ctx)
        if part is None:
            continue
        # Precision first: a definiens at the clause start closed by 也, by the next word of the
        # text or by 者, or opened by 谓/犹/者, is kept; one cut before a new statement or found
        # in mid-clause was wrong more often than right (counted on the hand-checked chapters,
        # see README) and is left out.
        confident = pos == start and (
            how in ("end", "anchor", "zhe", "negation")
            and (how != "anchor" or not has_act(gloss))
            or marker in ("犹", "犹言", "者")
            or marker == "谓"
            and how != "opener"
        )
        shape = shape_of(head, gloss, marker, how, confident, norm[start:pos], norm[g_end:])
        if not shape and pos == start:  # 「𤣥端禮服至謂…」: up to the next word glossed by 謂/猶/即
            shape = before_marker(head, gloss, marker, how, last, confident)
        why = fault(head, gloss, marker, closed and last, ctx, where)
        tag = shape or (rescue(why, head, gloss, marker, how, ctx, where) if why else part or purpose(gloss))
        if confident and (not why or tag) or shape and not why:
            yield from _emit(text, pos, head, g_start, g_end, gloss, marker, speaker, how, tag)
            rest = norm[g_end:stop]
            m = re.match(r"(谓|即|犹言|犹)(.{1,8})$", rest)
            if m and gloss_ok(m[2]) and closed and stop == end:  # 「奉所奉以致命者謂束帛也」
                yield Found(
                    text[pos : pos + len(head)],
                    text[g_end + len(m[1]) : stop],
                    FORMULA[m[1]],
                    pos,
                    speaker,
                    path="tail",
                )


def _emit(
    text: str,
    pos: int,
    head: str,
    g_start: int,
    g_end: int,
    gloss: str,
    marker: str,
    speaker: str | None,
    how: str,
    tag: str = "",
) -> Iterator[Found]:
    term = text[pos : pos + len(head)]
    formula = FORMULA[marker]
    path = "walk-" + _MARKER_NAME[marker] + (f"-{tag}" if tag else "")
    inner = gloss.find("即", 2)
    if inner > 0 and not marker and 2 <= len(gloss) - inner - 1 <= 6 and not any(c in gloss[:inner] for c in "既已"):
        yield Found(term, text[g_start : g_start + inner], formula, pos, speaker, how, f"{path}-jisplit")
        yield Found(term, text[g_start + inner + 1 : g_end], "ji", pos, speaker, how, f"{path}-jisplit")
    else:
        yield Found(term, text[g_start:g_end], formula, pos, speaker, how, path)


def kind_of(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context
) -> Iterator[Found]:
    """「從者小臣師之屬也」「卦者史之屬也」「賔弔者衆賔之長也」: a word of the text ending in 者 (who
    does something) opening a clause closed by 也 that names a person or the class of officer it
    belongs to (…之屬, …之長) — not a reason (「…為節者…」), which names neither."""
    head = _head_at(norm, start, end, ctx)
    gloss = norm[start + len(head) : end]
    if (
        closed
        and 2 <= len(head) <= 3
        and head.endswith("者")
        and head_ok(head[:-1])
        and 1 <= len(gloss) <= 8
        and (gloss.endswith(("之属", "之类", "之长")) or person(gloss))
        and gloss_ok(gloss)
    ):
        yield Found(
            text[start : start + len(head)], text[start + len(head) : end], "ye", start, speaker, "end", "walk-doer"
        )
