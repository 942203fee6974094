"""Draw the places of the second held-out list of readings (tests/data/gold/heldout/readings_heldout2.tsv).

    python3 scripts/readings_heldout2_draw.py        # prints the population size and the draw

The draw of scripts/readings_dev4_draw.py (its places, contexts, polyphone test and leaving out of
earlier rows, imported from it), with three differences: the population is the classic text
(passages and the 記 of stage headings, not the commentary) of the whole book, 卷一–十七
(decks/texts/KR1d0044_001.txt … _017.txt); the places of all four earlier lists (readings.tsv,
readings_dev2.tsv, readings_dev3.tsv, readings_dev4.tsv) are left out silently; and the draw is rich
in polyphones. ``random.Random(20261207)`` shuffles the sorted population once; walking it, a place
is taken while its word has fewer than two places and its kind's quota is open — 150 places of a
polyphonic word, 90 of other words — 240 in all. A word is polyphonic when a character of it passes
``polyphonic`` of the dev-4 draw (two readings or more in pypinyin or the reviewed table; it says
only that) and stands in CLASSICAL, a list written by hand from 王力古漢語字典 and 廣韻 of the
characters read two ways or more in classical use with a difference of sense. (A first draw with
``polyphonic`` alone gave about 50 such places of 150 — pypinyin's second readings of 之, 以, 一,
上, 北 … are modern or of names only — too few for 100 rows read two ways; CLASSICAL was written
then, from the dictionaries, some of its characters noticed in that draw, and the draw run again.) Only word, context, file and line are printed,
never a reading nor any row of the earlier lists, so that the readings are written blind.
"""

from __future__ import annotations

import random
import sys
from collections import Counter
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import scripts.readings_dev4_draw as dev4  # noqa: E402

SEED = 20261207
POLY = 150
OTHER = 90
PER_WORD = 2
FILES = [ROOT / "decks" / "texts" / f"KR1d0044_{n:03d}.txt" for n in range(1, 18)]
EARLIER = ("readings.tsv", "readings_dev2.tsv", "readings_dev3.tsv", "readings_dev4.tsv")
CLASSICAL = (  # read two ways or more in classical use, the sense deciding (王力古漢語字典, 廣韻)
    "相樂與齊衰適還長朝見食說辟差數期射少為令共閒間宿屬純縮祝告卒殺從中重將降散大正乘賈應藏衣"
    "勝弟免挾敦臑去唯拾夫妻冠更興好惡行先處著要遺傳分稱勞量難監幾度遠語王雨假比施盛奇參召當載"
    "縣治鮮畜解夾被帥率卷折女麗否曾亡蓋和縫足厭斂含綴繫稽首予舍藉燕賓儐胖腊亨車陳莞繅括緣父占"
    "嘏墮聞聽飲鄉喪干合屏瓦脫內養御枕任強莫廣觀知識且兩瑱冒遣省禁酢有"
)


@cache
def is_poly(word: str) -> bool:
    classical = {dev4.normalize(ch) for ch in CLASSICAL}
    return any(dev4.polyphonic(ch) and dev4.normalize(ch) in classical for ch in word)


def main() -> None:
    dev4.FILES, dev4.EARLIER = FILES, EARLIER  # the dev-4 functions over the whole book and all four lists
    places = dev4.population()
    texts = {(p.name, u): text for p in FILES for u, (text, _) in enumerate(dev4.units(p))}
    rows = dev4.earlier_rows()
    seen = set(rows)
    order = places[:]
    random.Random(SEED).shuffle(order)
    quota = {True: POLY, False: OTHER}
    taken: Counter[str] = Counter()
    drawn: list[tuple[str, str, str, int]] = []
    for file, u, i, line, word in order:
        if not any(quota.values()):
            break
        kind = is_poly(word)
        if not quota[kind] or taken[word] >= PER_WORD:
            continue
        text = texts[(file, u)]
        ctx, _ = dev4.context(text, i, word)
        if (word, ctx, file) in seen or dev4.covered(text, i, word, file, rows):
            continue
        quota[kind] -= 1
        taken[word] += 1
        drawn.append((word, ctx, file, line))
    polys = sum(is_poly(w) for w, *_ in drawn)
    print(
        f"# population: {len(places)} places, {len({p[4] for p in places})} words;"
        f" drawn {len(drawn)}, {polys} of a polyphonic word"
    )
    for word, ctx, file, line in drawn:
        print("\t".join((word, ctx, file, str(line))))


if __name__ == "__main__":
    main()
