"""Draw the fourth blind sample of what the whole book teaches (tests/data/gold/taught_sample4.tsv).

    python3 scripts/taught_sample4_draw.py            # prints the population size and the draw

Drawn after the fourth reading, to measure what is taught now. The population is every gloss the
cards and the quiz teach on the whole book with a file and a line (`taught` of
scripts/taught_sample3_draw.py: the precision gate and the teacher's exclusions in
decks/glossary.yaml applied), keyed (file, line, normalised term, gloss) — all of them, those
samples 1–3 and the fourth readings read included, so the figure is the share of what is taught
now. From that list, sorted, ``random.Random(20261203).sample(population, 150)`` draws the rows;
the header line counts how many repeat samples 1–3. They are printed in the sample's columns
(verdict and reason left empty for the reader) with the place a card names, to be read before any
other verdict is looked at.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from scripts.taught_sample3_draw import sampled, taught  # noqa: E402

SEED = 20261203
SIZE = 150
GOLD = ROOT / "tests" / "data" / "gold"
EARLIER = (GOLD / "taught_sample.tsv", GOLD / "taught_sample2.tsv", GOLD / "taught_sample3.tsv")


def main() -> None:
    everything = taught()
    earlier = set().union(*(sampled(p) for p in EARLIER))
    population = sorted(everything)
    drawn = random.Random(SEED).sample(population, SIZE)
    print(
        f"# population (taught with a line): {len(population)}; in samples 1–3: {len(everything.keys() & earlier)};"
        f" drawn rows repeating samples 1–3: {len(set(drawn) & earlier)}"
    )
    for key in drawn:
        file, line, _, gloss = key
        shown, speaker, place = everything[key]
        print("\t".join((file, str(line), shown, gloss, speaker, place)))


if __name__ == "__main__":
    main()
