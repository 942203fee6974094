"""Time parsing and aligning both texts of the project (no timed tests: figures only).

Usage: python bench/align.py [--repeat N]
"""

from __future__ import annotations

import argparse
import time
from pathlib import Path

from study.build import default_text_paths
from study.model import Document
from study.text.align import CONFIDENT, align_document, align_links
from study.text.corpus import parse_corpus
from study.text.manifest import Manifest, find_manifest


def parse(path: Path, data: bytes, manifest: Manifest) -> Document:
    entry = manifest.entry(path.name)
    return parse_corpus(
        data,
        path.name,
        first_rite=entry.first_rite if entry else None,
        book=manifest.book,
        rites=entry.rites if entry else (),
    )


def median(values: list[float]) -> float:
    return sorted(values)[len(values) // 2]


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=10)
    args = ap.parse_args()
    texts = [(p, p.read_bytes(), find_manifest(p)) for p in default_text_paths()]
    for p, data, m in texts:  # warm caches (OpenCC, variant tables, commentators)
        align_document(parse(p, data, m))
    parse_times: list[float] = []
    align_times: dict[str, list[float]] = {p.name: [] for p, _, _ in texts}
    for _ in range(args.repeat):
        t0 = time.perf_counter()
        docs = [parse(p, data, m) for p, data, m in texts]
        parse_times.append(time.perf_counter() - t0)
        for doc in docs:
            t0 = time.perf_counter()
            align_document(doc)
            align_times[doc.file].append(time.perf_counter() - t0)
    total_align = sum(median(v) for v in align_times.values())
    print(f"parse both texts: median {median(parse_times) * 1000:.1f} ms")
    for doc in docs:
        links = align_links(doc)
        confident = sum(link.confidence >= CONFIDENT for link in links)
        print(
            f"align {doc.file}: median {median(align_times[doc.file]) * 1000:.1f} ms "
            f"({len(doc.translation)} translation lines, {len(links)} pairs, {confident} confident)"
        )
    print(f"parse + align both texts: median {(median(parse_times) + total_align) * 1000:.1f} ms")


if __name__ == "__main__":
    main()
