"""Time gloss extraction and term building on the project's texts (figures only, no timed tests).

Usage: python bench/glossary.py [--repeat N]
"""

from __future__ import annotations

import argparse
import time

from study.build import default_glossary_path, default_text_paths, load_document
from study.terms.glossary import build_terms, load_curated
from study.terms.glosses import extract_glosses


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    docs = [load_document(p) for p in default_text_paths()]
    curated = load_curated(default_glossary_path())
    build_terms(docs, curated)  # warm caches (pypinyin, lexicon)
    extract, build = [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        glosses = [g for d in docs for g in extract_glosses(d)]
        extract.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        terms = build_terms(docs, curated)
        build.append(time.perf_counter() - t0)
    med = sorted(extract)[len(extract) // 2]
    med_b = sorted(build)[len(build) // 2]
    print(f"extract glosses from {len(docs)} texts: median {med * 1000:.1f} ms ({len(glosses)} glosses)")
    print(f"build terms (extraction + merge + readings + examples): median {med_b * 1000:.1f} ms ({len(terms)} terms)")
    print(f"ratio to the 1 s budget: {med_b:.2f}x")


if __name__ == "__main__":
    main()
