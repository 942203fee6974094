"""List the population of a fourth reading (tests/data/gold/fourth_reading_NNN-MMM.tsv).

    python3 scripts/fourth_reading_population.py 001 006     # chapters 001–006, inclusive

Every gloss the whole book teaches now with a file and a line (the population of
scripts/taught_sample3_draw.py: `load_terms` over decks/texts/KR1d0044_0*.txt, the precision gate and
the teacher's exclusions of decks/glossary.yaml applied) in the chapters given, less the keys of taught
samples 1–3, sorted by file and line: file, line, term as shown, gloss, speaker, place (tab-separated),
for a reader to mark right or wrong at each line.
"""

from __future__ import annotations

import sys
from pathlib import Path

HERE = Path(__file__).resolve().parent
sys.path.insert(0, str(HERE))

from taught_sample3_draw import GOLD, sampled, taught  # noqa: E402

SAMPLES = ("taught_sample.tsv", "taught_sample2.tsv", "taught_sample3.tsv")


def main(lo: str, hi: str) -> None:
    every = taught()
    earlier = set().union(*(sampled(GOLD / name) for name in SAMPLES))
    population = sorted(k for k in every if k not in earlier and lo <= k[0][9:12] <= hi)
    print(f"# population {lo}–{hi}: {len(population)} (of {len(every)} taught with a line; samples 1–3 left out)")
    for k in population:
        shown, speaker, place = every[k]
        print("\t".join((k[0], str(k[1]), shown, k[3], speaker, place)))


if __name__ == "__main__":
    main(*sys.argv[1:3])
