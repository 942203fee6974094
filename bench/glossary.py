"""Gloss and reading quality on hand-checked data, and the time for the terms of the whole book.

Prints, per gold chapter (tests/data/gold/glosses_*.tsv) and overall, the precision and recall of
vocabulary glosses (headword ≤ 3 characters, definiens ≤ 12; matching rule in
study/terms/goldscore.py); the seeds' figures against tests/data/glosses_gold.tsv; the accuracy of
readings in context on tests/data/gold/readings.tsv; and the time to build the terms of all 18
files of the book (budget 3 s).

Usage: python bench/glossary.py [--repeat N] [--verbose]
"""

from __future__ import annotations

import argparse
import csv
import time
from pathlib import Path

from study.build import default_glossary_path, default_text_paths, load_document
from study.terms.glossary import build_terms, load_curated
from study.terms.glosses import extract_glosses
from study.terms.goldscore import read_gold, score, total
from study.terms.lexicon import category_of
from study.terms.reading import reading_in
from study.text.normalize import normalize

ROOT = Path(__file__).resolve().parents[1]
GOLD = ROOT / "tests" / "data" / "gold"
BOOK = ROOT.parent / "shared" / "texts" / "kanripo-KR1d0044"
CORE = {"ye", "ji", "you", "wei", "yue", "weizhi", "qi"}


def _chapters(verbose: bool) -> None:
    scores = []
    for path in sorted(GOLD.glob("glosses_*.tsv")):
        gold = read_gold(path)
        s = score(gold, extract_glosses(load_document(BOOK / gold.file)))
        scores.append(s)
        print(
            f"{gold.file} lines {gold.first}–{gold.last}: precision {s.precision:.3f} ({s.correct}/{s.found}), "
            f"recall {s.recall:.3f} ({s.recalled}/{s.gold})"
        )
        if verbose:
            for g in s.wrong:
                print(f"    wrong  {g.line} {g.context} → {g.gloss} ({g.speaker})")
            for r in s.missed:
                print(f"    missed {r.line} {r.term} → {r.gloss}")
    t = total(scores)
    print(f"gold chapters overall: precision {t.precision:.3f}, recall {t.recall:.3f} (target 0.95 / 0.80)")


def _seeds() -> None:
    def key(file: str, line: int, term: str) -> tuple[str, int, str]:
        n = normalize(term)
        return file, line, n.removesuffix("者") or n

    with (ROOT / "tests" / "data" / "glosses_gold.tsv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    gold = {key(r["file"], int(r["line"]), r["term"]): r for r in rows}
    vocab = {
        k
        for k, r in gold.items()
        if r["formula"] in CORE and (len(r["term"]) <= 2 or category_of(r["term"])) and len(r["gloss"]) <= 12
    }
    docs = [load_document(p) for p in default_text_paths()]
    found = {key(g.file or "", g.line or 0, g.context) for d in docs for g in extract_glosses(d)}
    print(
        f"seeds: recall {len(vocab & found) / len(vocab):.3f} (vocabulary), "
        f"precision {len(found & set(gold)) / len(found):.3f} (before issue 11: 0.852 / 0.931)"
    )


def _readings() -> None:
    with (GOLD / "readings.tsv").open(encoding="utf-8") as f:
        rows = list(csv.DictReader(f, delimiter="\t"))
    ok = sum(reading_in(r["word"], r["context"]) in {r["pinyin"], r["also"]} - {""} for r in rows)
    print(f"readings in context: {ok}/{len(rows)} = {ok / len(rows):.3f} (target 0.99)")


def _speed(repeat: int) -> None:
    paths = sorted(BOOK.glob("KR1d0044_*.txt"))
    docs = [load_document(p) for p in paths]
    curated = load_curated(default_glossary_path())
    build_terms(docs, curated)  # warm caches (pypinyin, lexicon)
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        terms = build_terms(docs, curated)
        times.append(time.perf_counter() - t0)
    med = sorted(times)[len(times) // 2]
    print(
        f"terms of the whole book ({len(docs)} files): median {med:.2f} s, {len(terms)} terms; ratio to 3 s {med / 3:.2f}"
    )


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--verbose", action="store_true")
    args = ap.parse_args()
    _chapters(args.verbose)
    _seeds()
    _readings()
    _speed(args.repeat)


if __name__ == "__main__":
    main()
