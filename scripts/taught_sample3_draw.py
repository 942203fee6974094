"""Draw the third blind sample of what the whole book teaches (tests/data/gold/taught_sample3.tsv).

    python3 scripts/taught_sample3_draw.py            # prints the population size and the draw

The population is the one the second sample drew from: the glosses the cards and the quiz teach on
the whole book (`load_terms` over decks/texts/KR1d0044_0*.txt — the precision gate and the
teacher's exclusions in decks/glossary.yaml applied — keeping the glosses with a file and a line),
keyed (file, line, normalised term, gloss), less every key of the first two samples. From that
list, sorted, ``random.Random(20261202).sample(population, 150)`` draws the rows; they are printed
in the sample's columns (verdict and reason left empty for the reader) with the place a card
names, to be read before any other verdict is looked at.
"""

from __future__ import annotations

import random
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from study.build import load_corpus, load_terms  # noqa: E402
from study.text.normalize import normalize  # noqa: E402

SEED = 20261202
SIZE = 150
GOLD = ROOT / "tests" / "data" / "gold"
EARLIER = (GOLD / "taught_sample.tsv", GOLD / "taught_sample2.tsv")

Key = tuple[str, int, str, str]


def sampled(path: Path) -> set[Key]:
    """The (file, line, normalised term, gloss) keys of an earlier sample's rows."""
    rows = [r.split("\t") for r in path.read_text(encoding="utf-8").splitlines() if r and not r.startswith("#")]
    return {(f, int(n), normalize(t), g) for f, n, t, g, *_ in rows[1:]}


def taught() -> dict[Key, tuple[str, str, str]]:
    """Every taught gloss with a line of the whole book → (term as shown, speaker, place)."""
    documents = load_corpus(sorted((ROOT / "decks" / "texts").glob("KR1d0044_0*.txt"))).documents
    out: dict[Key, tuple[str, str, str]] = {}
    for t in load_terms(documents):
        for g in t.glosses:
            if g.line is None or g.file is None:
                continue
            shown = g.context or t.term
            place = " ".join(p for p in (g.juan, g.rite, g.stage) if p)
            out.setdefault((g.file, g.line, normalize(shown), g.gloss), (shown, g.speaker or "", place))
    return out


def main() -> None:
    everything = taught()
    earlier = set().union(*(sampled(p) for p in EARLIER))
    population = sorted(k for k in everything if k not in earlier)
    print(
        f"# taught with a line: {len(everything)}; in samples 1–2: {len(everything.keys() & earlier)}; population: {len(population)}"
    )
    for key in random.Random(SEED).sample(population, SIZE):
        file, line, _, gloss = key
        shown, speaker, place = everything[key]
        print("\t".join((file, str(line), shown, gloss, speaker, place)))


if __name__ == "__main__":
    main()
