"""Time parsing both texts of the project (no timed tests: figures only).

Usage: python bench/parse.py [--repeat N]
"""

from __future__ import annotations

import argparse
import time
import tracemalloc

from study.build import default_text_paths, load_document
from study.text.corpus import parse_corpus
from study.text.manifest import find_manifest


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=20)
    args = ap.parse_args()
    paths = default_text_paths()
    datas = [(p, p.read_bytes(), find_manifest(p)) for p in paths]
    load_document(paths[0])  # warm caches (OpenCC, variant tables)
    times, full = [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        for p, data, m in datas:
            e = m.entry(p.name)
            parse_corpus(data, p.name, first_rite=e.first_rite if e else None)
        times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for p in paths:
            load_document(p)
        full.append(time.perf_counter() - t0)
    tracemalloc.start()
    for p in paths:
        load_document(p)
    _, peak = tracemalloc.get_traced_memory()
    size = sum(len(d) for _, d, _ in datas)
    best, med = min(times), sorted(times)[len(times) // 2]
    print(f"texts: {len(paths)} files, {size / 1024:.0f} KiB")
    print(f"parse both texts: best {best * 1000:.1f} ms, median {med * 1000:.1f} ms (budget 500 ms: {med / 0.5:.2f}x)")
    print(f"parse + align (load_document): median {sorted(full)[len(full) // 2] * 1000:.1f} ms")
    print(f"throughput: {size / med / 1024 / 1024:.2f} MiB/s; peak memory of one load: {peak / 1024 / 1024:.1f} MiB")


if __name__ == "__main__":
    main()
