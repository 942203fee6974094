"""Read the classical gloss formulas (训诂) out of the commentary.

Formulas: X，Y也 / X者，Y也; X即Y也; X犹Y也 / 犹言; X谓Y; Y曰X; Y谓之X / 故谓之X; X，…之器;
and X，Y (no 也) for a short headword. A headword must be *grounded*: it occurs in the classical
text the commentary explains (its passage or stage heading) or earlier in the same commentary, so
that a clause of reasoning is not taken for a definition. This module walks the commentary of a
document (its contexts, the 卷 of each rite, who speaks) and hands each segment to its reader:
punctuated commentary to study/terms/glosspunct.py; commentary without punctuation (as in
特牲馈食礼) to study/terms/glossclause.py in the seeds' edition, cut at each 也, and to
study/terms/plain.py in the Kanripo book; then gates each gloss, applies the hand review, and withholds a gloss that says who or which
thing is meant in its passage (study/terms/referential.py).
"""

from __future__ import annotations

import re
from collections.abc import Iterator
from dataclasses import replace

from ..model import Document, Gloss, Segment
from ..text.commentary import commentators, speaker_of
from ..text.kanripo_cells import LACUNA
from ..text.normalize import normalize
from .bookpairs import Pair, book_pairs
from .gate import size_class, taught
from .glossclause import read_unpunctuated
from .glosspunct import read_punctuated
from .glossrules import Context, clean
from .plain import read_plain
from .plaincheck import gloss_ok, head_ok
from .referential import referential
from .review import reviewed, signed

_SENTENCE = re.compile(r"[^。；！？]+[。；！？]?")


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
    # mid-clause, 「門西賔位也」, and is read by the clause rules tuned on it (read_unpunctuated); in
    # the Kanripo book the same shapes are mostly narration (held-out precision 0.70 with them),
    # so it is read by study/terms/plain.py.
    edited = author == "蔡德晋"
    pairs = frozenset() if edited else book_evidence()
    for ctx, seg in _contexts(doc):
        text = seg.text
        punctuated = "，" in text or "。" in text
        speaker = seg.speaker
        finder = read_punctuated if punctuated else None
        found: list[tuple[str, str, str, int, str | None, str]] = []
        if finder is not None:
            for m in _SENTENCE.finditer(text):
                sentence = m.group(0)
                for term, gloss, formula, at, rule in read_punctuated(sentence, ctx, text[: m.start()]):
                    found.append((term, gloss, formula, m.start() + at, speaker, rule))
        elif edited:
            for term, gloss, formula, at, rule in read_unpunctuated(text, ctx, ""):
                found.append((term, gloss, formula, at, speaker, rule))
        else:
            for f in read_plain(text, ctx, pairs):
                found.append((f.term, f.gloss, f.formula, f.offset, f.speaker or speaker, f"k:{f.rule}"))
            taken = {normalize(f[0]) for f in found}
            said = {normalize(f[1]) for f in found}
            for term, gloss, formula, at, rule in _fallback(text, ctx):
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
            if key in seen or not term or not gloss or _across_lacuna(text, at, term, gloss):
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
                stage=None if ctx.intro else ctx.stage.name,  # the note opening a rite stands before its stages
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
                if g.taught and referential(g.context, g.gloss):
                    # says who or which thing is meant in the passage (士 = 衆介, 門 = 大門), not what
                    # the word means: never taught, whatever the gate or the hand review said
                    # (study/terms/referential.py); a teacher who wants it curates it.
                    g = replace(g, taught=False)
                mine = (line, normalize(g.context), normalize(g.gloss))
                if mine == key or mine not in seen:  # a re-cut gloss read elsewhere already is not repeated
                    seen.add(mine)
                    out.append(g)
    return out


def _across_lacuna(text: str, at: int, term: str, gloss: str) -> bool:
    """A gloss is not read across a gap of the text (□, study/text/kanripo_cells.py): what is
    missing may be part of the word or of its definiens (「米水謂之潘□經温煑謂之渜」: not 渜 = □經温煑)."""
    if LACUNA in term or LACUNA in gloss:
        return True
    said = text.find(gloss, at + len(term))  # X也 / X謂Y: the definiens after the word
    if said < 0:
        said = text.rfind(gloss, 0, at)  # Y曰X / Y謂之X: before it
    if said < 0:
        return False
    return LACUNA in text[min(at, said) : max(at + len(term), said + len(gloss))]


_FALLBACK: dict[tuple[str, str, str, bool], tuple[tuple[str, str, str, int, str], ...]] = {}


def _fallback(text: str, ctx: Context) -> tuple[tuple[str, str, str, int, str], ...]:
    """The seeds' clause rules on a segment of the book (its 猶 glosses are kept), read once per
    process by what they look at: the book is read twice, once for its evidence (book_evidence)."""
    key = (text, ctx.classical, ctx.rite_text, ctx.intro)
    hit = _FALLBACK.get(key)
    if hit is None:
        if len(_FALLBACK) > 20000:
            _FALLBACK.clear()
        hit = _FALLBACK[key] = tuple(read_unpunctuated(text, ctx, ""))
    return hit


def _method(doc: Document) -> list[Gloss]:
    return extract_glosses(doc, review=False)


def book_evidence() -> frozenset[Pair]:
    """The (headword, definiens) pairs the method teaches somewhere in the book: the evidence a
    clause-end gloss is read on (study/terms/bookpairs.py, study/terms/plainattest.py)."""
    return book_pairs(_method)


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
