"""Time parsing the project's texts, the whole book (no timed tests: figures only).

Usage: python bench/parse.py [--repeat N]

Prints the median time to read every text of the default corpus (the 18 files of the Kanripo
edition) with the reader its content calls for, then the same with alignment and the seed
translation attached (as ``load_document`` does, each 卷 read anew; the seed that attaches to two
卷 is read once per process, as in a build), against the budget of 2 s.
"""

from __future__ import annotations

import argparse
import statistics
import time
import tracemalloc

from study.build import _load, default_text_paths, load_document
from study.text.formats import read_text
from study.text.manifest import find_manifest

BUDGET = 2.0  # seconds for the whole book (issue 12)


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=7)
    args = ap.parse_args()
    paths = default_text_paths()
    datas = [(p, p.read_bytes(), find_manifest(p)) for p in paths]
    load_document(paths[0])  # warm caches (OpenCC, variant tables)
    times, full = [], []
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        for p, data, m in datas:
            e = m.entry(p.name)
            read_text(data, p.name, first_rite=e.first_rite if e else None, rites=e.rites if e else ())
        times.append(time.perf_counter() - t0)
        t0 = time.perf_counter()
        for p, _, m in datas:
            _load(p, m)  # read and align anew; the seed attached to 卷四 and 卷五 is read once, as in a build
        full.append(time.perf_counter() - t0)
    tracemalloc.start()
    for p, _, m in datas:
        _load(p, m)
    _, peak = tracemalloc.get_traced_memory()
    tracemalloc.stop()
    size = sum(len(d) for _, d, _ in datas)
    med, med_full = statistics.median(times), statistics.median(full)
    print(f"texts: {len(paths)} files, {size / 1024:.0f} KiB")
    print(f"read every text: best {min(times) * 1000:.0f} ms, median {med * 1000:.0f} ms")
    print(
        f"read + align + attach (load_document, not cached): median {med_full * 1000:.0f} ms "
        f"(budget {BUDGET:.0f} s: {med_full / BUDGET:.2f}x)"
    )
    print(f"throughput: {size / med / 1024 / 1024:.2f} MiB/s; peak Python allocations: {peak / 2**20:.1f} MiB")


if __name__ == "__main__":
    main()
