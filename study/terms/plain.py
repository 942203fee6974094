"""Glosses of commentary written without punctuation (the whole 《禮經本義》 in the Kanripo edition).

The commentary walks through the classical passage in reading order: 「主人女父也筵設神席也户西室户
之西即户牖間也」. A *clause* ends at 也 (or 矣/焉, a speaker's 曰, a full stop). A clause is read as

- ``Y曰X`` / ``Y謂之X``: X a word of the text (1–3 characters), Y the definiens (≤ 8 characters)
  running back to the clause start or to the end of the previous formula (「推手曰揖引手曰厭」);
- ``X[者|謂|猶|猶言|即|蓋]Y`` or plain ``XY``: X the longest phrase of the text opening the clause,
  Y running to the clause end or to the next *anchor* — a later word of the text that opens a
  gloss of its own (「𤣥端禮服至謂至于大門外」), or closing at the first 者 of a definiens
  (「卿執國政者大國三卿五大夫」).

Everything here works on the normalised text (same length as the original), so the function
word lists know 於/為/則/謂 through their simplified forms.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass, replace

from ..text.commentary import commentators
from ..text.normalize import normalize
from .glossrules import Context, person, unsound
from .lexicon import category_of
from .plaincheck import NEGATION, SPEECH, fault, gloss_ok, has_act, head_ok
from .plainrescue import PURPOSE, again, clause_head, component, purpose, rescue, shape_of
from .plaintool import tools

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
_FORMULA = {"谓": "wei", "犹": "you", "犹言": "you", "即": "ji", "者": "ye", "盖": "ye", "": "ye"}
_MARKER_NAME = {"谓": "wei", "犹": "you", "犹言": "youyan", "即": "ji", "者": "zhe", "盖": "gai", "": "bare"}
MAX_HEAD = 6
TAILS = False
MAX_DEF = 12  # a definiens running to an anchor or 者 (one closed by 也 may be longer)


@dataclass(frozen=True)
class Found:
    term: str  # as written
    gloss: str  # as written
    formula: str
    offset: int  # in the segment text
    speaker: str | None = None  # a commentator named inside the segment (「髙紫超謂…」)
    how: str = ""  # where the definiens ended (end: at 也; anchor: at the next word of the text; zhe: at 者)
    path: str = ""  # which reading found it (yue, marker after yue, walk with its marker, …)

    @property
    def rule(self) -> str:
        """The rule that read it: path and boundary (study/terms/gate.py measures each)."""
        return f"{self.path}:{self.how}" if self.how else self.path


def _speakers() -> re.Pattern[str]:
    names = "|".join(re.escape(n) for n in commentators())
    return re.compile(rf"({names})(则谓|则云|曰|云|谓)")


def _grounded(word: str, ctx: Context) -> int:
    """Where ``word`` stands in the classical text the note explains (-1: not there)."""
    return ctx.classical.find(word) if word else -1


def _head_at(norm: str, start: int, end: int, ctx: Context) -> str:
    """The longest phrase of the classical text opening ``norm[start:end]``."""
    for size in range(min(MAX_HEAD, end - start), 0, -1):
        if _grounded(norm[start : start + size], ctx) >= 0:
            return norm[start : start + size]
    return ""


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


def _yue(norm: str, start: int, end: int, ctx: Context) -> Iterator[tuple[int, int, int, int, str]]:
    """(y_start, y_end, x_start, x_end, formula) of each Y曰X / Y谓之X in a clause."""
    y_start = start
    for m in re.finditer(r"谓之|曰", norm[start:end]):
        at, after = start + m.start(), start + m.end()
        if at < y_start:
            continue
        x = ""
        for size in (3, 2, 1):
            word = norm[after : after + size]
            if after + size <= end and (word in ctx.classical or word in ctx.rite_text):
                x = word
                break
        marker_after = re.match("犹言|犹|谓|即", norm[after + len(x) :])
        if len(x) > 1 and marker_after and marker_after[0] != "犹言":  # 犹言 glosses a phrase
            x = x[:-1]  # 「謂之羮定猶熟」: the marker explains the word just before it (定), not 羮定
        y_from = y_start
        cut = max(norm.rfind("者", y_start, at - 1), norm.rfind("说", y_start, at - 1))
        if at - y_from > 8 and cut >= 0 or norm[cut : cut + 1] == "说":
            y_from = cut + 1  # 「幣合于法度者十端曰束」「舊説推手曰揖」: Y opens after a 者 or a 説
        y = norm[y_from:at]
        tail = norm[after + len(x) : end]
        closes = (
            not tail
            or tail.startswith(OPENERS)
            or re.match("^.?(谓|犹|即)", tail) is not None  # 「體全曰純謂左右胖合而升之」「羮定猶熟」
            or re.match(r"^.{1,8}?(曰|谓之)", tail) is not None
            or _opens_word(tail, ctx)  # 「炊黍稷曰饎饎爨在堂」: the next word of the text follows
        )
        formula = "yue" if m.group(0) == "曰" else "weizhi"
        if x and not closes:
            # 「乾禽謂之腒夏必用雉之乾者」「疾甚曰病掃除外内之穢惡」: X closes the formula and a new
            # statement follows without 也 (not a 者: 「始虞謂之祫事者以死者神既離散」 gives a reason;
            # not words said: 「勞賓曰道路悠逺」).
            x = _open_head(norm, after, end, ctx)
            formula += "-open"
            speech = re.search("[则亦又]曰", tail) is not None  # 「勞賓曰道路悠逺…勞介則曰二三子甚勞」
            if (
                not x
                or speech
                or norm.startswith("者", after + len(x))
                or not _open_definiens(norm, y_from, at, start, ctx)
            ):
                y_start = after + len(x)
                continue
        sound = not unsound(x, y, has_act(x), quoted=True) if x and y else False
        if x and 1 <= len(y) <= 8 and head_ok(x) and gloss_ok(y) and not y.endswith(SPEECH) and sound:
            if category_of(y) != "role" and (y + m.group(0) + x) not in ctx.classical:
                yield y_from, at, after, after + len(x), formula
                y_start = after + len(x)
                continue
        y_start = after + len(x)  # 「大問曰聘小聘曰問」: the next definiens opens after X


def _open_head(norm: str, after: int, end: int, ctx: Context) -> str:
    """X of a Y曰X / Y謂之X followed by a new statement: one character of the passage or of the rite
    (「衣裳具謂之稱明衣」 glosses 稱), or a word of the rite's name in its introduction (「羊豕曰少牢」)."""
    for size in (2, 1):
        word = norm[after : after + size]
        if size > 1 and not (ctx.intro and word in ctx.classical[: ctx.classical.find("\u3000")]):
            continue  # 「手執曰舉肺為氣之主」: a longer word of the text runs on into the next statement
        longer = norm[after : after + size + 1]
        if longer in ctx.rite_text or longer in ctx.classical:
            continue  # 「君天下曰天子」: the word goes on (天子, 中離, 寡君), where it ends is not known
        if after + size <= end and head_ok(word) and (word in ctx.classical or size == 1 and word in ctx.rite_text):
            return word
    return ""


def _open_definiens(norm: str, y_from: int, at: int, start: int, ctx: Context) -> bool:
    """Y of such a formula opens the clause (or follows a 者 / 説 that closes what went before) and
    is short: a definiens, not the end of a sentence running into 曰."""
    y = norm[y_from:at]
    if _quoting(y):
        return False
    return (y_from == start or norm[y_from - 1] in "者说") and 2 <= at - y_from <= 6


# Who is quoted before a 曰: a book or a chapter (「戴氏記曰」「大司樂職曰」「白虎通曰」「特牲曰」),
# a master (「曾子曰」), or the words of a speech (「請賔其辭卒曰」).
SOURCES = ("孟子", "曾子", "孔子", "子夏", "特牲", "少牢")


def _quoting(y: str) -> bool:
    return y[-1:] in set("记传职通礼经注疏志语易诗书篇") or y in SOURCES or any(ch in y for ch in "辞云言告命问答对")


def _opens_word(tail: str, ctx: Context) -> bool:
    """The text after a formula opens with a word of the classical text (of two characters or
    more, or one the passage writes alone), as the next gloss of a commentary does."""
    for size in (3, 2):
        if len(tail) > size and tail[:size] in ctx.classical and head_ok(tail[:size]):
            return True
    return False


def _anchor(norm: str, j: int, end: int, ctx: Context, after: int, said: bool = False) -> bool:
    """A later word of the text opens a gloss of its own at ``j``: the definiens before it ends."""
    head = _head_at(norm, j, end, ctx)
    if not head or not head_ok(head) or ctx.classical.find(head, after) < 0:
        return False
    rest = norm[j + len(head) : end]
    if rest.startswith(MARKERS):
        return not (said and rest == "者")  # 「沃洗謂以枓斟水而沃洗爵者也」: after 謂, 爵者 glosses nothing
    return len(head) >= 2 and 1 <= len(rest) <= 8 and gloss_ok(rest[: rest.find("者") + 1] if "者" in rest else rest)


def read_plain(text: str, ctx: Context) -> Iterator[Found]:
    """Every gloss of one unpunctuated commentary segment."""
    norm = normalize(text)
    quotes = [m.end() for m in QUOTE.finditer(norm)]
    voices = [m.end() for m in _speakers().finditer(norm)]
    for start, end, closed, named in _clauses(norm, ctx.intro):
        speaker = _as_written(text, norm, named, start)
        quote = max((q for q in quotes if q <= start), default=-1)
        if quote >= 0 and not any(quote < v <= start for v in voices):
            continue  # 「戴氏記曰…嚌肺嘗禮也」: another book quoted, until a commentator speaks again
        yue = list(_yue(norm, start, end, ctx))
        for ys, ye, xs, xe, formula in yue:
            yield Found(text[xs:xe], text[ys:ye], formula.removesuffix("-open"), ys, speaker, path=formula)
        if yue and yue[0][0] > start + 2 and norm[yue[0][0] - 1] == "者":
            # 「宰夫士之主膳羞者熟食曰飱」「幣制幣合于法度者十端曰束」: the gloss before Y closes at its 者
            for f in _walk(text, norm, start, yue[0][0], True, speaker, ctx):
                yield replace(f, how=f"{f.how}-yue")
        if yue:
            xs, xe = yue[-1][2], yue[-1][3]
            m = re.match(r"(.?)(犹言|谓|犹|即)(.{1,12})$", norm[xe:end])
            if m and m[1]:  # 「羮定猶熟」: the word after X is glossed in its turn
                xs, xe = xe, xe + 1
            if closed and m and gloss_ok(m[3]) and head_ok(norm[xs:xe]):  # 「體全曰純謂左右胖合而升之也」
                yield Found(text[xs:xe], text[xe + len(m[2]) : end], _FORMULA[m[2]], xs, speaker, path="yue-marker")
            continue
        yield from _walk(text, norm, start, end, closed, speaker, ctx)
        yield from _kind_of(text, norm, start, end, closed, speaker, ctx)
        for hs, he, gs, ge, how in tools(norm, start, end, closed, ctx):  # 「甑所以炊甗所以盛米」
            yield Found(text[hs:he], text[gs:ge], "qi", hs, speaker, how, "walk-tool")


def _as_written(text: str, norm: str, name: str | None, before: int) -> str | None:
    """A commentator's name as the segment writes it (髙紫超, 郝仲輿), not its normalised form: the
    last place the name stands before ``before`` (normalising keeps each character's offset)."""
    at = norm.rfind(name, 0, before) if name else -1
    return text[at : at + len(name)] if name and at >= 0 else name


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


def _walk(
    text: str, norm: str, start: int, end: int, closed: bool, speaker: str | None, ctx: Context
) -> Iterator[Found]:
    """Headword and definiens pairs along one clause, in the order of the classical text."""
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
            for f in _walk(text, norm, g_end, end, closed, speaker, ctx):
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
                    _FORMULA[m[1]],
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
    formula = _FORMULA[marker]
    path = "walk-" + _MARKER_NAME[marker] + (f"-{tag}" if tag else "")
    inner = gloss.find("即", 2)
    if inner > 0 and not marker and 2 <= len(gloss) - inner - 1 <= 6 and not any(c in gloss[:inner] for c in "既已"):
        yield Found(term, text[g_start : g_start + inner], formula, pos, speaker, how, f"{path}-jisplit")
        yield Found(term, text[g_start + inner + 1 : g_end], "ji", pos, speaker, how, f"{path}-jisplit")
    else:
        yield Found(term, text[g_start:g_end], formula, pos, speaker, how, path)


def _kind_of(
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
