"""The book's own evidence (study/terms/bookpairs.py) for a small deck, in new processes (figures
only): the terms of one 卷 (士相見禮, 卷八) need the pairs the gate teaches over the whole book.

- ``book read``: an empty cache folder — the process reads all 17 卷 for the pairs (and keeps them);
- ``kept``: the pairs an earlier process kept are loaded;
- ``looks``: the book's files looked at (stat) for the evidence while the terms of the whole book
  are built, and the time of one look; before study/terms/bookpairs.py's ``one_look`` each of the
  18 texts looked at every file.

Each timed ``--runs`` times (median; wall and processor seconds of the child).

Usage: python bench/evidence.py [--runs 3] [--file KR1d0044_008.txt]
"""

from __future__ import annotations

import argparse
import json
import os
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import json, sys, time
t0, c0 = time.perf_counter(), time.process_time()
from study.build import load_document, load_terms
from study.paths import texts_dir
terms = load_terms([load_document(texts_dir() / sys.argv[1])])
print(json.dumps([time.perf_counter() - t0, time.process_time() - c0, len(terms)]))
"""

LOOKS = """
import json, time
from study.build import load_corpus
from study.terms import bookpairs
from study.terms.glossary import build_terms
docs = load_corpus().documents
looks = []
stamp = bookpairs._stamp
bookpairs._stamp = lambda folder: looks.append(folder) or stamp(folder)
build_terms(docs)
t = time.perf_counter()
for _ in range(200):
    stamp(bookpairs.texts_dir())
print(json.dumps([len(docs), len(looks), (time.perf_counter() - t) / 200]))
"""


def _child(code: str, *args: str, cache: str) -> list[float]:
    env = {**os.environ, "STUDY_CACHE": cache, "PYTHONPATH": str(ROOT)}
    out = subprocess.run([sys.executable, "-c", code, *args], env=env, cwd=ROOT, capture_output=True, text=True)
    if out.returncode:
        sys.exit(out.stderr)
    return json.loads(out.stdout.strip().splitlines()[-1])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=3)
    parser.add_argument("--file", default="KR1d0044_008.txt")
    args = parser.parse_args()
    read, kept = [], []
    for _ in range(args.runs):
        with tempfile.TemporaryDirectory() as cache:
            read.append(_child(CHILD, args.file, cache=cache))
            kept.append(_child(CHILD, args.file, cache=cache))
    for name, runs in (("book read", read), ("kept", kept)):
        wall = statistics.median(r[0] for r in runs)
        cpu = statistics.median(r[1] for r in runs)
        print(
            f"terms of {args.file} in a new process, {name}: {wall:.2f} s wall, {cpu:.2f} s processor ({runs[0][2]} terms)"
        )
    ratio = statistics.median(r[1] for r in kept) / statistics.median(r[1] for r in read)
    print(f"ratio kept / book read (processor): {ratio:.2f}")
    with tempfile.TemporaryDirectory() as cache:
        docs, looks, each = _child(LOOKS, cache=cache)
    print(
        f"terms of the whole book ({docs} texts): the book's files looked at {looks} time(s) for the evidence"
        f" (one look {each * 1000:.2f} ms; {docs} looks before one_look: {docs * each * 1000:.1f} ms)"
    )


if __name__ == "__main__":
    main()
