"""Glosses of commentary written without punctuation (the whole 《禮經本義》 in the Kanripo edition).

The commentary walks through the classical passage in reading order: 「主人女父也筵設神席也户西室户
之西即户牖間也」. This module cuts a segment into *clauses* — a clause ends at 也 (or 矣/焉, a speaker's
曰, a full stop) — notes the commentator who speaks in each and skips what another book is quoted
saying, and reads each clause as

- ``Y曰X`` / ``Y謂之X`` (study/terms/plainyue.py), or
- ``X[者|謂|猶|猶言|即|蓋]Y`` or plain ``XY`` (the walk, study/terms/plainwalk.py), and a thing glossed
  by what it is used for, 所以… (study/terms/plaintool.py), and two words of the text glossed
  together, 「刲擊皆殺也」 (study/terms/plainlist.py), or by itself qualified, 「宰太宰東夾北…」
  (study/terms/plainqual.py).

Everything here works on the normalised text (same length as the original), so the function
word lists know 於/為/則/謂 through their simplified forms.
"""

from __future__ import annotations

import re
from collections.abc import Iterator, Set
from dataclasses import replace
from functools import lru_cache

from ..text.commentary import commentators
from ..text.normalize import normalize
from .bookpairs import Pair
from .glossrules import Context
from .plainattest import attested_tails, cut_before
from .plainchain import chain_splits, chain_tails
from .plaincheck import gloss_ok, head_ok
from .plainedge import gu_yue, ji_tail, jie_weizhi, mao, spelt_in, wei_edge, zhiqi
from .plainelide import doer_of_phrase, elided
from .plainfound import FORMULA, Found
from .plainlist import jie_list
from .plainmid import reason_cut, run_on, wei_zhi
from .plainqual import officer_kind, qualified, refers_to
from .plaintool import tools
from .plainwalk import _head_at, kind_of, walk
from .plainyue import crossed, read_yue


@lru_cache(maxsize=1)
def _speakers() -> re.Pattern[str]:
    names = "|".join(re.escape(n) for n in commentators())
    return re.compile(rf"({names})(则谓|则云|曰|云|谓)")


def _clauses(norm: str, intro: bool = False) -> Iterator[tuple[int, int, bool, str | None]]:
    """(start, end, closed by 也, commentator named at its start) for each clause. A rite's
    introduction opens with a statement, 「此諸侯相聘之禮」, that ends at its 之禮."""
    # (end of previous clause, start of next, speaker, whose words are only reported: NAME謂/云)
    cuts: list[tuple[int, int, str | None, bool]] = []
    opening = re.match(r"此.{1,24}?之礼", norm) if intro else None
    if opening:
        cuts.append((opening.end(), opening.end(), None, False))
    for m in re.finditer(r"[也矣焉耳。；○\s]", norm):
        cuts.append((m.start(), m.end(), None, False))
    for m in _speakers().finditer(norm):
        cuts.append((m.start(), m.end(), m.group(1), m.group(2) != "曰"))
    cuts.sort()
    # NAME曰 opens a commentator's words for the rest of the segment; NAME謂 / NAME云 report what
    # they hold, one clause long (「參侯郝仲輿謂即麋侯也干侯豻侯也」: 干侯豻侯 is the author's again).
    start, speaker, report = 0, None, None
    for end, nxt, who, reported in cuts:
        if end < start:
            continue
        if end > start:
            yield start, end, norm[end : end + 1] == "也", report or speaker
            report = None
        if who is not None and reported:
            report = who
        elif who is not None:
            speaker, report = who, None
        start = nxt
    if start < len(norm):
        yield start, len(norm), False, report or speaker


# A book quoted by the commentary: 「戴氏記曰」「詩曰」「傳云」; what follows is not its gloss.
QUOTE = re.compile(r"(记|传|诗|书|礼|经|注|疏|志|语|易|春秋)(曰|云)")


def read_plain(text: str, ctx: Context, pairs: Set[Pair] = frozenset()) -> Iterator[Found]:
    """Every gloss of one unpunctuated commentary segment: each clause read on its own, then the
    short glosses run on at a clause's end between glosses of its neighbours (study/terms/plainchain.py)
    and those closing a clause whose pair the book reads elsewhere (``pairs``, study/terms/plainattest.py)."""
    norm = normalize(text)
    found, clauses = _read(text, ctx)
    tails = list(attested_tails(text, norm, list(clauses), ctx, pairs))
    found = cut_before(text, norm, found, tails, ctx) if tails else list(found)  # 「廟謂殯宫爨竈也」: 廟 = 殯宫
    found = run_on(text, norm, found, ctx)  # 「執玉執圭璧以行禮舒徐也」: 執玉 = 執圭璧以行禮, 舒 = 徐
    yield from reason_cut(text, norm, found, ctx)  # 「南柄柄向南便執也」: 南柄 = 柄向南
    yield from tails


Clause = tuple[int, int, bool, str | None]
_READ: dict[tuple[str, str, str, bool], tuple[tuple[Found, ...], tuple[Clause, ...]]] = {}


def _read(text: str, ctx: Context) -> tuple[tuple[Found, ...], tuple[Clause, ...]]:
    """The glosses of a segment read without the book's evidence, and its clauses: kept for the
    process (the book is read twice, once for its evidence, study/terms/bookpairs.py), by what the
    readers look at — the segment, its passage, its rite's text and whether it opens the rite."""
    key = (text, ctx.classical, ctx.rite_text, ctx.intro)
    hit = _READ.get(key)
    if hit is not None:
        return hit
    norm = normalize(text)
    clauses: list[Clause] = []
    read = list(_read_clauses(text, norm, ctx, clauses))
    split = dict(chain_splits(text, norm, read, ctx))  # 「湑清伊惟也」: two glosses read as one
    found = [g for f in read for g in split.get(f, [f])]
    found += list(chain_tails(text, norm, clauses, found, ctx))  # 「…逆迎也」 between glosses of its neighbours
    if len(_READ) > 20000:
        _READ.clear()
    _READ[key] = (tuple(found), tuple(clauses))
    return _READ[key]


def _read_clauses(text: str, norm: str, ctx: Context, read: list[tuple[int, int, bool, str | None]]) -> Iterator[Found]:
    """The glosses of each clause; ``read`` collects the clauses read (not another book's words)."""
    quotes = [m.end() for m in QUOTE.finditer(norm)]
    voices = [m.end() for m in _speakers().finditer(norm)]
    for start, end, closed, named in _clauses(norm, ctx.intro):
        speaker = _as_written(text, norm, named, start)
        quote = max((q for q in quotes if q <= start), default=-1)
        if quote >= 0 and not any(quote < v <= start for v in voices):
            continue  # 「戴氏記曰…嚌肺嘗禮也」: another book quoted, until a commentator speaks again
        read.append((start, end, closed, speaker))
        yield from gu_yue(text, norm, start, end, speaker, ctx)  # 「再請之故曰固」
        yield from jie_weizhi(text, norm, start, end, speaker, ctx)  # 「米禾薪芻皆謂之積」
        yue = list(read_yue(norm, start, end, ctx))
        pair = list(crossed(norm, start, end, ctx))  # 「大問曰聘小聘曰問」
        yue = sorted(set(yue) | set(pair)) if pair else yue
        for ys, ye, xs, xe, formula in yue:
            yield Found(text[xs:xe], text[ys:ye], formula.split("-")[0], ys, speaker, path=formula)
        if yue and yue[0][0] > start + 2 and norm[yue[0][0] - 1] == "者":
            # 「宰夫士之主膳羞者熟食曰飱」「幣制幣合于法度者十端曰束」: the gloss before Y closes at its 者
            for f in walk(text, norm, start, yue[0][0], True, speaker, ctx):
                yield replace(f, how=f"{f.how}-yue")
        if yue:
            xs, xe = yue[-1][2], yue[-1][3]
            m = re.match(r"(.?)(犹言|谓|犹|即)(.{1,12})$", norm[xe:end])
            if m and m[1]:  # 「羮定猶熟」: the word after X is glossed in its turn
                xs, xe = xe, xe + 1
            if closed and m and gloss_ok(m[3]) and head_ok(norm[xs:xe]):  # 「體全曰純謂左右胖合而升之也」
                yield Found(text[xs:xe], text[xe + len(m[2]) : end], FORMULA[m[2]], xs, speaker, path="yue-marker")
            continue
        walked = list(walk(text, norm, start, end, closed, speaker, ctx))
        quoted = elided(text, norm, start, end, closed, speaker, ctx, _head_at(norm, start, end, ctx))
        if quoted:  # 「賜爵酌酒以賜也」: the text's 賜之爵 quoted without 之, not 賜 run on
            walked = [f for f in walked if f.offset != start] + quoted
        pointed = refers_to(text, norm, start, end, closed, speaker, ctx, _head_at(norm, start, end, ctx))
        if pointed:  # 「子指宗人宗人掌禮事」: what the word points at, not 指… as its gloss
            walked = [f for f in walked if f.offset != start] + pointed
        yield from walked
        yield from kind_of(text, norm, start, end, closed, speaker, ctx)
        said = {f.offset for f in walked}
        yield from (f for f in wei_edge(text, norm, start, end, closed, speaker, ctx) if f.offset not in said)
        zhi = wei_zhi(text, norm, start, end, closed, speaker, ctx)  # 「實之謂…」
        yield from (f for f in zhi if f.offset not in said)
        yield from (f for f in mao(text, norm, start, end, speaker, ctx) if f.offset not in said)  # 「蹙恭敬不寧之貌」
        yield from (f for f in zhiqi(text, norm, start, end, speaker, ctx) if f.offset not in said)  # 「櫝蔵圭之器」
        listed = jie_list(text, norm, start, end, closed, speaker, ctx)  # 「刲擊皆殺也」
        yield from doer_of_phrase(text, norm, start, end, closed, speaker, ctx)  # 「一人拜受爵謂太師也」
        yield from (f for f in listed if f.offset not in said)
        if start not in said:  # 「以命升以君命升之也」
            head = _head_at(norm, start, end, ctx)
            yield from spelt_in(text, norm, start, end, closed, speaker, ctx, head)
            yield from ji_tail(text, norm, start, end, closed, speaker, ctx, head)  # 「頌誦通即歌也」
            yield from qualified(text, norm, start, end, speaker, ctx, head)  # 「宰太宰東夾北…」
            yield from officer_kind(text, norm, start, end, speaker, ctx)  # 「饔正饔人之長饔府饔正之屬」
        for hs, he, gs, ge, how in tools(norm, start, end, closed, ctx):  # 「甑所以炊甗所以盛米」
            yield Found(text[hs:he], text[gs:ge], "qi", hs, speaker, how, "walk-tool")


def _as_written(text: str, norm: str, name: str | None, before: int) -> str | None:
    """A commentator's name as the segment writes it (髙紫超, 郝仲輿), not its normalised form: the
    last place the name stands before ``before`` (normalising keeps each character's offset)."""
    at = norm.rfind(name, 0, before) if name else -1
    return text[at : at + len(name)] if name and at >= 0 else name
