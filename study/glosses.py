"""Read the classical gloss formulas (训诂) out of the commentary.

Formulas: X，Y也 / X者，Y也; X即Y也; X犹Y也 / 犹言; X谓Y; Y曰X; Y谓之X / 故谓之X; X，…之器;
and X，Y (no 也) for a short headword. A headword must be *grounded*: it occurs in the classical
text the commentary explains (its passage or stage heading) or earlier in the same commentary, so
that a clause of reasoning is not taken for a definition. Commentary without punctuation (as in
特牲馈食礼) is cut at each 也 and the headword is the longest grounded phrase opening the clause.
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import dataclass

from .commentary import commentators, speaker_of
from .lexicon import category_of
from .model import Document, Gloss, Passage, Segment, Stage
from .normalize import normalize

_SENTENCE = re.compile(r"[^。；！？]+[。；！？]?")
_QUOTES = "「」『』“”《》"
# A definiens that argues rather than defines: a reason, a purpose, a comparison with a rule.
_REASON = re.compile(
    r"故也|是故|故[曰云]|所以|之义|之意|欲|恐|示|不敢|宜|尊|避|然后|此以上|以上|可知|是也|同也|异也|非"
)
_REASON_START = ("之", "皆", "则", "乃", "若", "此", "其", "而", "于", "与", "不", "统于")
_HEDGES = ("盖", "亦")  # 「寝东，盖东壁之东也」: a hedge before the gloss is not part of it
_NOT_GLOSS = {"同", "异", "属", "然", "耳", "矣", "尸", "室", "是"}
MAX_TERM = 4
MAX_PHRASE = 6  # a phrase quoted from the text in unpunctuated commentary


@dataclass(frozen=True)
class _Context:
    """What a commentary explains: the classical text it follows, and where it stands."""

    file: str
    rite: str
    stage: Stage
    classical: str  # normalised classical text of the passage (or heading) the note belongs to
    rite_text: str = ""  # normalised classical text of the whole rite


def _clean(text: str) -> str:
    return "".join(ch for ch in text if ch not in _QUOTES).strip()


def _strip_ye(text: str) -> str:
    text = text.rstrip("。；，")
    text = text[:-1] if text.endswith("也") else text
    for hedge in _HEDGES:
        if text.startswith(hedge) and len(text) > 2:
            text = text[len(hedge) :]
    return text


def _is_speaker(text: str) -> bool:
    norm = normalize(text)
    return any(norm.endswith(name) or norm == name for name in commentators())


def _grounded(term: str, ctx: _Context, before: str) -> bool:
    norm = normalize(term)
    return bool(norm) and (norm in ctx.classical or norm in normalize(before))


def _good_gloss(gloss: str, *, strict: bool) -> bool:
    if not gloss or "▯" in gloss or len(gloss) > 24 or gloss in _NOT_GLOSS:
        return False
    if _REASON.search(gloss) or gloss.endswith("故"):
        return False
    return not (strict and gloss.startswith(_REASON_START))


def _termlike(text: str) -> bool:
    return 1 <= len(text) <= MAX_TERM and all("\u4e00" <= ch <= "\u9fff" or ch == "、" for ch in text)


_FUNCTION = set("以而言此故盖则于为所即谓其是皆亦乃若凡之也者矣焉乎")
_HEAD_START = set("以而言此故盖则于为所即谓其是之也者矣焉乎")  # never opens a quoted phrase
_GLOSS_START = set("而之其则即谓也者矣焉乎此故于")
# One character that is a direction, a negation or a comparison is not a headword on its own.
_NOT_HEAD = set("不如当众北南东西左右上下先后皆亦乃若凡与及一二三四五六七八九十")


def _edges_ok(head: str) -> bool:
    if "▯" in head:
        return False
    if len(head) == 1:
        return head not in _FUNCTION and head not in _NOT_HEAD
    return head[0] not in _HEAD_START and (head[-1] not in _FUNCTION or head[-1] == "之")


def _has_action(text: str) -> bool:
    norm = normalize(text)
    return any(category_of(norm[i : i + n]) == "action" for n in (2, 1) for i in range(len(norm) - n + 1))


def _headword(head: str, gloss: str) -> bool:
    """A headword, not a clause: no function word at its edges; a longer phrase must share a
    character with its gloss (a paraphrase), unlike a reason given for an act."""
    if not _edges_ok(head) or gloss[:1] in _GLOSS_START:
        return False
    if "▯" in head:
        return False
    content = (set(normalize(head)) & set(normalize(gloss))) - _FUNCTION
    if gloss.startswith("为"):  # 「…，为已将先取矢而揖也」: a purpose, not a meaning
        return False
    return len(head) <= 2 or len(content) >= (2 if len(head) >= 4 else 1)


_INLINE = re.compile(r"^(?P<x>[^，、]{1,6}?)(?P<m>即|犹言|犹|谓)(?!之)(?P<y>.+)$")
_YUE = re.compile(r"^(?P<y>[^，]{1,8})曰(?P<x>[^，]{1,3})$")
_WEIZHI = re.compile(r"^(?P<y>[^，]{0,14})谓之(?P<x>[^，]{1,4})$")
_FORMULA = {"即": "ji", "犹": "you", "犹言": "you", "谓": "wei"}


_CLAUSE_SPLIT = re.compile(r"[，：「」『』]")
_SPEECH_END = ("告", "命", "对", "请", "言", "云", "辞", "答", "问")


def _clauses(sentence: str) -> list[tuple[int, str]]:
    """Clauses of a sentence with their offsets, without a leading 「NAME曰」."""
    out: list[tuple[int, str]] = []
    for m in re.finditer(r"[^，：「」『』]+", sentence):
        text, at = m.group(0), m.start()
        sp = re.match(r"^(.{2,3})(曰|谓)$", text)
        if sp and _is_speaker(sp[1]):
            continue
        out.append((at, text.strip()))
    return out


def _yue(c: str, ctx: _Context, prior: str) -> tuple[str, str] | None:
    m = _YUE.match(c)
    if not m or _is_speaker(m["y"]) or m["y"].endswith(_SPEECH_END) or m["y"][-1] in "亦故则虽":
        return None
    if "▯" in m["x"] or "▯" in m["y"]:
        return None
    if _grounded(m["x"], ctx, prior) or (len(m["x"]) <= 2 and len(m["y"]) <= 4):
        return m["x"], _strip_ye(m["y"])
    return None


def _punctuated(sentence: str, ctx: _Context, before: str) -> Iterator[tuple[str, str, str, int]]:
    """(term, gloss, formula, offset) found in one punctuated sentence."""
    clauses = _clauses(sentence)
    consumed: set[int] = set()  # clauses already read as the gloss of the clause before
    for i, (at, raw) in enumerate(clauses):
        if i in consumed:
            continue
        c = _clean(raw).rstrip("。；")
        prior = before + sentence[:at]
        nxt = _clean(clauses[i + 1][1]).rstrip("。；") if i + 1 < len(clauses) else ""
        found = _yue(c, ctx, prior)
        if found:
            yield found[0], found[1], "yue", at
            continue
        m = re.match(r"^亦曰(.{1,3})$", c)
        if m and i > 0:
            prev = _yue(_clean(clauses[i - 1][1]).rstrip("。；"), ctx, prior)
            if prev:
                yield m[1], prev[1], "yue", at
            continue
        m = _WEIZHI.match(c)
        if m and _termlike(m["x"]) and not m["y"].startswith(("亦", "则", "可")):
            y = m["y"]
            if y in ("", "故") and i > 0:
                y = _clean(clauses[i - 1][1])
            if y:
                yield m["x"], _strip_ye(y.removeprefix("以其")), "weizhi", at
            continue
        m = _INLINE.match(c)
        if m and not _is_speaker(m["x"]) and _grounded(m["x"], ctx, prior) and _edges_ok(m["x"]):
            gloss = _strip_ye(m["y"])
            if not c.endswith("也") and nxt.endswith("也") and len(nxt) <= 6:
                gloss = f"{gloss}，{_strip_ye(nxt)}"
                consumed.add(i + 1)
            if _good_gloss(gloss, strict=False):
                yield m["x"], gloss, _FORMULA[m["m"]], at
            continue
        m = re.match(r"^(?P<x>.{1,2}?)(?P<y>[^，]{1,6}之器)$", c)
        if m and _grounded(m["x"], ctx, "") and m["x"][0] not in _FUNCTION:
            yield m["x"], m["y"], "qi", at
            continue
        head = c[:-1] if c.endswith("者") and len(c) > 1 else c
        marked = re.match(r"^(即|犹言|犹|谓)(?!之)(.+)$", nxt)
        if marked and 1 <= len(head) <= MAX_PHRASE and _grounded(head, ctx, prior) and not _is_speaker(head):
            gloss = _strip_ye(marked[2])
            if head[0] not in _FUNCTION and _good_gloss(gloss, strict=False):
                consumed.add(i + 1)
                yield head, gloss, _FORMULA[marked[1]], at
            continue
        if (
            nxt
            and _termlike(head)
            and _grounded(head, ctx, prior)
            and not _is_speaker(head)
            and _headword(head, _strip_ye(nxt))
        ):
            if nxt.endswith("之器"):
                consumed.add(i + 1)
                yield head, nxt, "qi", at
                continue
            after = _clean(clauses[i + 2][1]).rstrip("。；") if i + 2 < len(clauses) else ""
            extend = len(head) == 1 or c.endswith("者")
            reason = not _good_gloss(_strip_ye(after), strict=False) or _strip_ye(after).endswith("故")
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
                gloss = _strip_ye(nxt)
                consumed.add(i + 1)
                if _good_gloss(gloss, strict=True):
                    yield head, gloss, "ye", at
                continue
        starts_statement = i == 0 or clauses[i - 1][1].rstrip().endswith("也")
        if c.endswith("也") and starts_statement and len(c) <= 10:
            found3 = _split_unpunctuated(c[:-1], ctx, "", max_head=2, max_gloss=6)
            if found3 and (len(found3[0]) == 2 or len(found3[1]) <= 2):
                yield found3[0], found3[1], found3[2], at
        elif c.endswith("也") and len(c) <= 5:
            pair = _tail_pair(c[:-1], ctx)
            exact = pair and len(pair[0]) + len(pair[1]) == len(c) - 1 and len(c) - 1 >= 3
            known = pair and (len(pair[0]) == 2 or category_of(pair[0]) is not None)
            if pair and exact and known and _edges_ok(pair[0]):  # the clause is exactly 「XY也」
                yield pair[0], pair[1], "ye", at


def _unpunctuated(text: str, ctx: _Context, before: str) -> Iterator[tuple[str, str, str, int]]:  # noqa: C901
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
        if speaker and _is_speaker(speaker[1]):
            body, at = body[len(speaker[0]) :], at + len(speaker[0])
        found = _split_unpunctuated(body, ctx, prior)
        if found:
            term, gloss, formula = found
            inner = _tail_pair(gloss, ctx, max_gloss=3, max_head=2) if formula == "ye" else None
            if inner and len(inner[0]) == 2 and len(gloss) > len(inner[0]) + len(inner[1]):
                # 「公有司公家有司门西宾位也」: a second short gloss closes the first one's clause
                cut = len(gloss) - len(inner[0]) - len(inner[1])
                yield term, gloss[:cut], formula, at
                yield inner[0], inner[1], "ye", at + len(term) + cut
            else:
                yield term, gloss, formula, at
            continue
        pair = _tail_pair(body, ctx, max_gloss=3, max_head=2)  # 「…XY也」: a short gloss ends the clause
        # A person followed by what they do is a sentence, not a headword and its gloss.
        if pair and category_of(pair[0]) == "role" and (_has_action(pair[1]) or len(pair[1]) < 4):
            pair = None
        if pair and pair[1] in _NOT_GLOSS:
            pair = None
        if pair and (len(pair[0]) == 2 or len(pair[1]) == 1 and normalize(pair[1]) not in ctx.rite_text):
            head, gloss = pair
            yield head, gloss, "ye", at + len(body) - len(head) - len(gloss)


def _split_unpunctuated(
    body: str, ctx: _Context, prior: str, *, max_head: int = MAX_PHRASE, max_gloss: int = 12
) -> tuple[str, str, str] | None:
    m = re.match(
        r"^(?P<x>.{1,6}?)(?P<n>" + "|".join(commentators()) + r")?(?P<m>即|犹言|犹|谓)(?!之)(?P<y>.+)$", normalize(body)
    )
    if m and _grounded(m["x"], ctx, prior):
        x = body[: len(m["x"])]
        y = body[m.start("y") :]
        if _good_gloss(y, strict=False):
            return x, y, _FORMULA[m["m"]]
    m = re.match(r"^(?P<y>.{1,8})曰(?P<x>.{1,3})$", body)
    if m and not _is_speaker(m["y"]) and _grounded(m["x"], ctx, prior):
        return m["x"], m["y"], "yue"
    for size in range(min(max_head, len(body) - 1), 0, -1):
        head = body[:size]
        rest = body[size:]
        marker = rest.startswith("者")
        if marker:
            rest = rest[1:]
        if not _grounded(head, ctx, prior):
            continue
        # The longest phrase of the text opening the clause is the headword, or there is none;
        # a person followed by what they do is a sentence, not a headword and its gloss.
        if category_of(head) == "role" and not marker and (_has_action(rest) or len(rest) < 4):
            return None
        limit = 12 if marker or rest.endswith("者") else (5 if len(head) == 1 else 9)
        fits = len(rest) <= min(max_gloss, limit)
        shared = (set(normalize(head)) & set(normalize(rest))) - _FUNCTION
        ok = _edges_ok(head) and (len(head) <= 3 or marker or len(shared) >= 2)
        if fits and ok and _good_gloss(rest, strict=True) and not rest.startswith("为"):
            return head, rest, "ye"
        return None
    return None


def _inner_markers(body: str, ctx: _Context, at: int) -> Iterator[tuple[str, str, str, int]]:
    """「…X谓Y」 inside a clause: X the word of the text just before the marker, Y to the end."""
    norm = normalize(body)
    for m in re.finditer(r"(谓|犹|即)(?!之)", norm):
        start = m.start()
        if start < 2:  # a marker opening the clause is read by _split_unpunctuated
            continue
        if any(norm[:start].endswith(name) for name in commentators()):
            continue
        gloss = body[m.end() :]
        if not 1 <= len(gloss) <= 6 or not _good_gloss(gloss, strict=True):
            continue
        for size in (4, 3, 2, 1):
            head = body[start - size : start]
            if start - size >= 0 and normalize(head) in ctx.classical and _edges_ok(head):
                yield head, gloss, _FORMULA[m.group(1)], at + start - size
                break


def _tail_pair(body: str, ctx: _Context, *, max_gloss: int = 2, max_head: int = 3) -> tuple[str, str] | None:
    """A short gloss at the end of a clause, 「…XY也」: the longest word X of the text before it."""
    best: tuple[str, str] | None = None
    for size in range(1, max_gloss + 1):
        gloss = body[-size:]
        if len(body) <= size or gloss[0] in _FUNCTION or normalize(gloss) in ctx.classical:
            continue
        if gloss in _NOT_GLOSS or not _good_gloss(gloss, strict=True):
            continue
        for x_len in range(min(max_head, len(body) - size), 0, -1):
            head = body[-size - x_len : -size]
            if normalize(head) in ctx.classical and _edges_ok(head):
                if category_of(head) == "role" and (_has_action(gloss) or len(gloss) < 4):
                    break  # a person followed by what they do is a sentence
                if best is None or len(head) > len(best[0]):
                    best = (head, gloss)
                break
    return best


def _contexts(doc: Document) -> Iterator[tuple[_Context, Segment]]:
    for rite in doc.rites:
        whole = normalize("".join(p.text for s in rite.stages for p in s.passages))
        for stage in rite.stages:
            for passage in stage.passages:
                ctx = _Context(doc.file, rite.name, stage, normalize(_classical_of(passage)), whole)
                for seg in passage.commentary:
                    yield ctx, seg
            if stage.name is not None and stage.note_commentary:
                ctx = _Context(doc.file, rite.name, stage, normalize(stage.name + stage.note_text), whole)
                for seg in stage.note_commentary:
                    yield ctx, seg


def _classical_of(passage: Passage) -> str:
    return passage.text


def extract_glosses(doc: Document) -> list[Gloss]:
    """Every gloss formula in the commentary of ``doc``, in text order."""
    out: list[Gloss] = []
    seen: set[tuple[int, str, str]] = set()
    for ctx, seg in _contexts(doc):
        text = seg.text
        punctuated = "，" in text or "。" in text
        speaker = seg.speaker
        finder = _punctuated if punctuated else None
        found: list[tuple[str, str, str, int, str | None]] = []
        if finder is not None:
            for m in _SENTENCE.finditer(text):
                sentence = m.group(0)
                for term, gloss, formula, at in _punctuated(sentence, ctx, text[: m.start()]):
                    found.append((term, gloss, formula, m.start() + at, speaker))
        else:
            for term, gloss, formula, at in _unpunctuated(text, ctx, ""):
                found.append((term, gloss, formula, at, speaker))
        for term, gloss, formula, at, who in found:
            term = _clean(term)
            line = seg.line_at(at)
            key = (line, normalize(term), normalize(gloss))
            if key in seen or not term or not gloss:
                continue
            seen.add(key)
            inline = re.search(r"(" + "|".join(commentators()) + r")谓", normalize(text[at : at + 12]))
            out.append(
                Gloss(
                    gloss=gloss,
                    speaker=(speaker_of(text[at + inline.start() :]) if inline else None) or who,
                    rite=ctx.rite,
                    stage=ctx.stage.name,
                    file=ctx.file,
                    line=line,
                    formula=formula,
                    stage_id=ctx.stage.id,
                    context=term,
                )
            )
    return out
