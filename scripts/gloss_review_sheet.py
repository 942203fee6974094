"""Worksheets for reading the glosses the precision gate withholds, chapter by chapter.

For each 卷 of the book (decks/texts/KR1d0044_0NN.txt) it prints every gloss the extractor reads
but the gate withholds (study/terms/gate.py; vocabulary size only: headword ≤ 3, definiens ≤ 12
characters), each with what a reader needs to judge it: the rite and stage, the classical passage,
the commentary segment with the headword marked 【】 and the definiens 〔〕, the speaker credited,
and the rule that read it. A reader writes a verdict for each one into
study/data/glossreview/KR1d0044_0NN.tsv (format: study/terms/review.py).

Usage: python scripts/gloss_review_sheet.py 001 002 … [--all | --second] > sheet.txt
(--all also lists the glosses the gate teaches; --second lists the glosses the first reader signed,
right or re-cut, without their verdicts, for the second reader: study/data/glossreview/second/).
"""

from __future__ import annotations

import argparse
from dataclasses import replace
from pathlib import Path

from study.build import load_document
from study.terms.gate import size_class
from study.terms.glosses import _contexts, extract_glosses
from study.terms.review import reviewed, seconds
from study.terms.windows import note_words

BOOK = Path(__file__).resolve().parents[1] / "decks" / "texts"


def _mark(text: str, term: str, gloss: str) -> str:
    at = text.find(term)
    while at >= 0:
        after = text.find(gloss, at + len(term))
        if after >= 0 and after - at - len(term) <= 12:
            return (
                text[:at]
                + "【"
                + term
                + "】"
                + text[at + len(term) : after]
                + "〔"
                + gloss
                + "〕"
                + text[after + len(gloss) :]
            )
        at = text.find(term, at + 1)
    return text


def _second(path: Path, doc) -> list:  # type: ignore[no-untyped-def]
    """The glosses the first reader signed (right, or their own cut), without the verdicts."""
    first = reviewed()
    out = []
    for g in extract_glosses(doc, review=False):
        v = first.get((path.name, g.line, g.context, g.gloss))
        if v is not None and v.verdict == "right":
            out.append(g)
        elif v is not None and v.verdict == "fixed":
            out.append(replace(g, context=v.term_fix, gloss=v.gloss_fix, rule=f"review:{g.rule}"))
    return [g for g in out if (path.name, g.line, g.context, g.gloss) not in seconds()]


def sheet(number: str, everything: bool, second: bool = False) -> None:
    path = BOOK / f"KR1d0044_{number}.txt"
    doc = load_document(path)
    segments = [(ctx, seg, seg.line_at(0), seg.line_at(max(len(seg.text) - 1, 0))) for ctx, seg in _contexts(doc)]
    seen = reviewed()
    n = 0
    for g in _second(path, doc) if second else extract_glosses(doc, review=False):
        if not second and (size_class(g.context, g.gloss) == "over" or (g.taught and not everything)):
            continue
        key = (path.name, g.line, g.context, g.gloss)
        if key in seen and not second:
            continue
        place = next(
            (
                (ctx, seg)
                for ctx, seg, a, b in segments
                if a <= (g.line or 0) <= b and g.context in seg.text and g.gloss in seg.text
            ),
            None,
        )
        n += 1
        print(f"### {path.name}\t{g.line}\t{g.context}\t{g.gloss}")
        rule = "" if second else f" · rule {g.rule}{' · TAUGHT' if g.taught else ''}"
        print(f"    {g.rite} · {g.stage or '（无节名）'} · 说者 {g.speaker}{rule}")
        if place is not None:
            ctx, seg = place
            passage = next(
                (
                    p.text
                    for s in doc.rites
                    for st in s.stages
                    if st is ctx.stage
                    for p in st.passages
                    if seg in p.commentary
                ),
                note_words(ctx.stage, seg) or ctx.stage.note_text,  # (the notes of a heading, as written)
            )
            print(f"    经: {passage}")
            print(f"    注: {_mark(seg.text, g.context, g.gloss)}")
        print()
    print(f"# {path.name}: {n} glosses to read")


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("chapters", nargs="+", help="chapter numbers: 001 … 017")
    ap.add_argument("--all", action="store_true", help="also the glosses the gate teaches")
    ap.add_argument("--second", action="store_true", help="the first reader's signed glosses, for a second reading")
    args = ap.parse_args()
    for number in args.chapters:
        sheet(number.zfill(3), args.all, args.second)


if __name__ == "__main__":
    main()
