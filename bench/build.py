"""Time ``study build --all`` against genanki's own write of the same notes (figures only).

Usage: python bench/build.py [--repeat N]

Prints, for the project's deck specs:
- the command ``study build --all`` end to end (a fresh process: imports, parsing, writing), and
  the peak memory (max RSS) of that process;
- in this process: the whole build (parse texts, terms, select, notes, write every package),
  its parts, and genanki's ``Package.write_to_file`` of the very same notes; the ratio of the
  two is the figure the issue asks for (aim: within 2x), with the peak of Python allocations.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import tempfile
import time
import tracemalloc
from pathlib import Path

from study.build import Sources, _load_beside, build_deck, default_specs, plan_deck
from study.decks.apkg import package, write_package
from study.decks.deckspec import load_deckspec
from study.terms.glossary import _EXTRACTED

T = 1_800_000_000.0


def median_time(fn, repeat: int) -> float:
    times = []
    for _ in range(repeat):
        t0 = time.perf_counter()
        fn()
        times.append(time.perf_counter() - t0)
    return statistics.median(times)


def command(out: Path, repeat: int) -> tuple[float, float]:
    """Median wall time of the command and the largest RSS of its processes (MiB)."""
    argv = [sys.executable, "-m", "study", "build", "--all", "-o", str(out)]
    took = median_time(lambda: subprocess.run(argv, check=True, capture_output=True), repeat)
    rss_kib = resource.getrusage(resource.RUSAGE_CHILDREN).ru_maxrss  # KiB on Linux
    return took, rss_kib / 1024


def forget() -> None:
    """Drop the per-process caches of parsed texts and extracted glosses."""
    _load_beside.cache_clear()
    _EXTRACTED.clear()


def main() -> None:
    ap = argparse.ArgumentParser()
    ap.add_argument("--repeat", type=int, default=5)
    args = ap.parse_args()
    specs = [load_deckspec(p) for p in default_specs()]
    with tempfile.TemporaryDirectory() as tmp:
        out = Path(tmp)
        tempfile.tempdir = tmp  # genanki's scratch databases land (and are removed) here

        def whole() -> None:
            forget()  # each run parses the texts and extracts the glosses again, as a fresh process does
            sources = Sources()
            for spec in specs:
                build_deck(spec, out / f"{spec.name}.apkg", timestamp=T, sources=sources)

        whole()  # warm the caches of pypinyin, OpenCC and the normaliser
        forget()
        sources = Sources()
        t0 = time.perf_counter()
        for spec in specs:
            plan_deck(spec, sources)  # first call parses texts and builds terms
        t_first_plan = time.perf_counter() - t0
        notes = [plan_deck(s, sources) for s in specs]
        t_plan = median_time(lambda: [plan_deck(s, sources) for s in specs], args.repeat)
        t_objects = median_time(lambda: [package(n) for n in notes], args.repeat)
        pkgs = [package(n) for n in notes]
        t_ours = median_time(
            lambda: [write_package(p, out / f"o{i}.apkg", timestamp=T) for i, p in enumerate(pkgs)], args.repeat
        )
        t_genanki = median_time(
            lambda: [package(n).write_to_file(str(out / f"g{i}.apkg"), timestamp=T) for i, n in enumerate(notes)],
            args.repeat,
        )
        t_genanki_write = t_genanki - t_objects
        t_whole = median_time(whole, args.repeat)
        tracemalloc.start()
        whole()
        _, peak = tracemalloc.get_traced_memory()
        tracemalloc.stop()
        t_cmd, rss = command(out / "cmd", max(args.repeat // 2, 3))

    n_notes = sum(len(n) for n in notes)
    n_cards = sum(x.cards for n in notes for x in n)
    print(f"{len(specs)} specs, {n_notes} notes, {n_cards} cards")
    print(f"command `study build --all`: median {t_cmd:.2f} s (aim < 15 s for the whole book); peak RSS {rss:.0f} MiB")
    print("in process (median of", args.repeat, "runs):")
    print(f"  whole build (parse, terms, select, notes, write):  {t_whole * 1000:7.1f} ms")
    print(f"    parse texts + terms + first selection:           {t_first_plan * 1000:7.1f} ms")
    print(f"    select + notes (texts parsed):                   {t_plan * 1000:7.1f} ms")
    print(f"    genanki objects (Model/Note/Deck):               {t_objects * 1000:7.1f} ms")
    print(f"    write (in-memory collection, zip, rename):       {t_ours * 1000:7.1f} ms")
    print(
        f"  genanki Package.write_to_file of the same notes:   {t_genanki * 1000:7.1f} ms"
        f"  (objects + {t_genanki_write * 1000:.1f} ms of writing)"
    )
    print(f"  ratio whole build / genanki write_to_file:         {t_whole / t_genanki:7.2f}x (aim <= 2x)")
    print(f"  ratio our write / genanki's write:                 {t_ours / t_genanki_write:7.2f}x")
    print(f"  peak Python allocations of the whole build:        {peak / 2**20:7.1f} MiB")


if __name__ == "__main__":
    main()
