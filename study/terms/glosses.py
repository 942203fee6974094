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
from dataclasses import replace

from ..model import Document, Gloss, Segment
from ..text.commentary import commentators, speaker_of
from ..text.normalize import normalize
from .gate import size_class, taught
from .glossrules import (
    FUNCTION,
    MAX_PHRASE,
    NOT_GLOSS,
    Context,
    clean,
    edges_ok,
    good_gloss,
    grounded,
    has_action,
    headword,
    is_speaker,
    strip_ye,
    termlike,
)
from .lexicon import category_of
from .plain import read_plain
from .plaincheck import gloss_ok, head_ok
from .review import reviewed, signed

_SENTENCE = re.compile(r"[^。；！？]+[。；！？]?")


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


def _punctuated(sentence: str, ctx: Context, before: str) -> Iterator[tuple[str, str, str, int, str]]:
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
                yield m["x"], gloss, _FORMULA[m["m"]], at, "p:inline"
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
                yield head, gloss, _FORMULA[marked[1]], at, "p:marked-next"
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
            found3 = _split_unpunctuated(c[:-1], ctx, "", max_head=2, max_gloss=6)
            if found3 and (len(found3[0]) == 2 or len(found3[1]) <= 2):
                yield found3[0], found3[1], found3[2], at, f"p:{found3[2]}-clause"
        elif c.endswith("也") and len(c) <= 5:
            pair = _tail_pair(c[:-1], ctx)
            exact = pair and len(pair[0]) + len(pair[1]) == len(c) - 1 and len(c) - 1 >= 3
            known = pair and (len(pair[0]) == 2 or category_of(pair[0]) is not None)
            if pair and exact and known and edges_ok(pair[0]):  # the clause is exactly 「XY也」
                yield pair[0], pair[1], "ye", at, "p:ye-pair"


def _unpunctuated(text: str, ctx: Context, before: str) -> Iterator[tuple[str, str, str, int, str]]:  # noqa: C901
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
        found = _split_unpunctuated(body, ctx, prior)
        if found:
            term, gloss, formula = found
            inner = _tail_pair(gloss, ctx, max_gloss=3, max_head=2) if formula == "ye" else None
            if inner and len(inner[0]) == 2 and len(gloss) > len(inner[0]) + len(inner[1]):
                # 「公有司公家有司门西宾位也」: a second short gloss closes the first one's clause
                cut = len(gloss) - len(inner[0]) - len(inner[1])
                yield term, gloss[:cut], formula, at, f"u:{formula}-split"
                yield inner[0], inner[1], "ye", at + len(term) + cut, "u:ye-split2"
            else:
                yield term, gloss, formula, at, f"u:{formula}"
            continue
        pair = _tail_pair(body, ctx, max_gloss=3, max_head=2)  # 「…XY也」: a short gloss ends the clause
        # A person followed by what they do is a sentence, not a headword and its gloss.
        if pair and category_of(pair[0]) == "role" and (has_action(pair[1]) or len(pair[1]) < 4):
            pair = None
        if pair and pair[1] in NOT_GLOSS:
            pair = None
        if pair and (len(pair[0]) == 2 or len(pair[1]) == 1 and normalize(pair[1]) not in ctx.rite_text):
            head, gloss = pair
            yield head, gloss, "ye", at + len(body) - len(head) - len(gloss), "u:ye-tail"


def _split_unpunctuated(
    body: str, ctx: Context, prior: str, *, max_head: int = MAX_PHRASE, max_gloss: int = 12
) -> tuple[str, str, str] | None:
    m = re.match(
        r"^(?P<x>.{1,6}?)(?P<n>" + "|".join(commentators()) + r")?(?P<m>即|犹言|犹|谓)(?!之)(?P<y>.+)$", normalize(body)
    )
    if m and grounded(m["x"], ctx, prior):
        x = body[: len(m["x"])]
        y = body[m.start("y") :]
        if good_gloss(y, strict=False):
            return x, y, _FORMULA[m["m"]]
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
        if start < 2:  # a marker opening the clause is read by _split_unpunctuated
            continue
        if any(norm[:start].endswith(name) for name in commentators()):
            continue
        gloss = body[m.end() :]
        if not 1 <= len(gloss) <= 6 or not good_gloss(gloss, strict=True):
            continue
        for size in (4, 3, 2, 1):
            head = body[start - size : start]
            if start - size >= 0 and normalize(head) in ctx.classical and edges_ok(head):
                yield head, gloss, _FORMULA[m.group(1)], at + start - size, f"u:{_FORMULA[m.group(1)]}-inner"
                break


def _tail_pair(body: str, ctx: Context, *, max_gloss: int = 2, max_head: int = 3) -> tuple[str, str] | None:
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


_JUAN = re.compile(r"卷([一二三四五六七八九十〇]+)")


def juan_of_rite(doc: Document, rite_name: str) -> str | None:
    """The 卷 a rite stands in, from the book titles of its document (「禮經本義卷二」 → 卷二):
    the last such title before the rite's first line."""
    rite = doc.rite(rite_name)
    first = [p.lines[0] for s in rite.stages for p in s.passages if p.lines] if rite else []
    at = rite.line if rite is not None and rite.line is not None else min(first, default=None)
    found = None
    for title in doc.titles:
        if title.kind != "book":
            continue
        if at is not None and title.line > at:
            break
        m = _JUAN.search(title.text)
        if m:
            found = f"卷{m[1]}"
    return found


def _contexts(doc: Document) -> Iterator[tuple[Context, Segment]]:
    for rite in doc.rites:
        whole = normalize("".join(p.text for s in rite.stages for p in s.passages))
        if rite.commentary and rite.stages:
            # The note introducing the rite (「此諸侯相聘之禮大問曰聘小聘曰問…」) explains its name
            # and words of its whole text; its glosses stand before the first stage.
            ctx = Context(doc.file, rite.name, rite.stages[0], normalize(rite.name) + "\u3000" + whole, whole, True)
            for seg in rite.commentary:
                yield ctx, seg
        for stage in rite.stages:
            for passage in stage.passages:
                ctx = Context(doc.file, rite.name, stage, normalize(passage.text), whole)
                for seg in passage.commentary:
                    yield ctx, seg
            if stage.name is not None and stage.note_commentary:
                ctx = Context(doc.file, rite.name, stage, normalize(stage.name + stage.note_text), whole)
                for seg in stage.note_commentary:
                    yield ctx, seg


def book_author(doc: Document) -> str:
    """Who speaks where no commentator is named: the book's author, 蔡德晉, written in the
    script of the document (蔡德晋 in the simplified seeds)."""
    for t in doc.titles:
        if t.kind == "author" and ("晉" in t.text or "晋" in t.text):
            return "蔡德晉" if "晉" in t.text else "蔡德晋"
    sample = "".join(p.text for r in doc.rites for s in r.stages for p in s.passages)
    traditional = sum(ch in "於為則謂與禮說時來見長門東階賓" for ch in sample)
    simplified = sum(ch in "于为则谓与礼说时来见长门东阶宾" for ch in sample)
    return "蔡德晉" if traditional > simplified else "蔡德晋"


def extract_glosses(doc: Document, *, review: bool = True) -> list[Gloss]:
    """Every gloss formula in the commentary of ``doc``, in text order. ``review``: as the hand
    review of withheld glosses left them (study/terms/review.py); without it, as the extractor and
    its gate alone decide (what bench/glossary.py measures as the method)."""
    out: list[Gloss] = []
    seen: set[tuple[int, str, str]] = set()
    author = book_author(doc)
    juans: dict[str, str | None] = {}
    # The seeds' edition (simplified script, 【…】 notes, 特牲 unpunctuated) glosses short words in
    # mid-clause, 「門西賔位也」, and is read by the clause rules tuned on it (_unpunctuated); in
    # the Kanripo book the same shapes are mostly narration (held-out precision 0.70 with them),
    # so it is read by study/terms/plain.py.
    edited = author == "蔡德晋"
    for ctx, seg in _contexts(doc):
        text = seg.text
        punctuated = "，" in text or "。" in text
        speaker = seg.speaker
        finder = _punctuated if punctuated else None
        found: list[tuple[str, str, str, int, str | None, str]] = []
        if finder is not None:
            for m in _SENTENCE.finditer(text):
                sentence = m.group(0)
                for term, gloss, formula, at, rule in _punctuated(sentence, ctx, text[: m.start()]):
                    found.append((term, gloss, formula, m.start() + at, speaker, rule))
        elif edited:
            for term, gloss, formula, at, rule in _unpunctuated(text, ctx, ""):
                found.append((term, gloss, formula, at, speaker, rule))
        else:
            for f in read_plain(text, ctx):
                found.append((f.term, f.gloss, f.formula, f.offset, f.speaker or speaker, f"k:{f.rule}"))
            taken = {normalize(f[0]) for f in found}
            said = {normalize(f[1]) for f in found}
            for term, gloss, formula, at, rule in _unpunctuated(text, ctx, ""):
                nt, ng = normalize(term), normalize(gloss)
                if (
                    formula == "you"
                    and nt not in taken
                    and ng not in said
                    and head_ok(nt)
                    and gloss_ok(ng)
                    and not re.search(r"(?<!^)[也谓即犹]", ng)
                ):
                    found.append((term, gloss, formula, at, speaker, f"k{rule}"))
        for term, gloss, formula, at, who, rule in found:
            term = clean(term)
            line = seg.line_at(at)
            key = (line, normalize(term), normalize(gloss))
            if key in seen or not term or not gloss:
                continue
            seen.add(key)
            reader, _, path = rule.partition(":")
            path = f"intro-{path}" if ctx.intro else path
            rule = f"{reader}:{formula}:{path}:{size_class(term, gloss)}"
            # A name between the term and its gloss speaks it (「詩鄭康成謂承也」); a name after the
            # gloss (「徵召也賈洺州謂…」) opens the next speaker's words.
            said = text.find(gloss, at + len(term))
            before_gloss = text[at : said if said >= 0 else at + len(term)]
            inline = re.search(r"(" + "|".join(commentators()) + r")谓", normalize(before_gloss))
            found_gloss = Gloss(
                gloss=gloss,
                speaker=(speaker_of(text[at + inline.start() :]) if inline else None) or who or author,
                rite=ctx.rite,
                stage=ctx.stage.name,
                file=ctx.file,
                line=line,
                formula=formula,
                stage_id=ctx.stage.id,
                context=term,
                juan=juans.setdefault(ctx.rite, juan_of_rite(doc, ctx.rite)),
                rule=rule,
                taught=taught(rule),
            )
            for g in _as_reviewed(found_gloss) if review else [found_gloss]:
                mine = (line, normalize(g.context), normalize(g.gloss))
                if mine == key or mine not in seen:  # a re-cut gloss read elsewhere already is not repeated
                    seen.add(mine)
                    out.append(g)
    return out


def _as_reviewed(g: Gloss) -> list[Gloss]:
    """The gloss as the hand review (study/terms/review.py) left it: taught when read right (and
    signed by the second reader), not taught when read wrong, and replaced by the reader's own cut
    (taught when signed) when read as cut wrongly."""
    key = (g.file or "", g.line or 0, g.context, g.gloss)
    verdict = reviewed().get(key)
    if verdict is None:
        return [g]
    if verdict.verdict != "fixed":
        return [replace(g, taught=verdict.verdict == "right" and signed(key))]
    cut = (key[0], key[1], verdict.term_fix, verdict.gloss_fix)
    fixed = replace(g, context=verdict.term_fix, gloss=verdict.gloss_fix, rule=f"review:{g.rule}", taught=signed(cut))
    return [replace(g, taught=False), fixed]
