"""Draw the places of the fourth development list of readings (tests/data/gold/readings_dev4.tsv).

    python3 scripts/readings_dev4_draw.py            # prints the population size and the draw

The population is every place of the classic text (passages and the 記 of stage headings, not the
commentary) of 卷九–十七 (decks/texts/KR1d0044_009.txt … _017.txt) where a word stands: a term of
`study terms --json` over the whole book of one to three characters, or a polyphonic character —
one pypinyin gives two readings or more, or the reviewed table (study/data/readings.yaml) does.
A place is (file, line, word, context): the context is about 16 characters of the classic around
the word, started after any earlier occurrence of the word so that its first occurrence is the one
meant. Places of the earlier lists (readings.tsv, readings_dev2.tsv, readings_dev3.tsv) are left
out silently: a row's (word, context, file), or the same word where a row's context covers it.
``random.Random(20261205)`` shuffles the sorted population; the draw keeps at most two places of a
word until it has 220. Only the candidates are printed, never the project's reading nor any row of
the earlier lists, so that the readings are written blind.
"""

from __future__ import annotations

import json
import random
import subprocess
import sys
from collections import Counter
from collections.abc import Iterator
from functools import cache
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from study.build import load_document  # noqa: E402
from study.terms.readinggold import reading_rows  # noqa: E402
from study.terms.readtable import table  # noqa: E402
from study.text.normalize import normalize  # noqa: E402

SEED = 20261205
SIZE = 220
PER_WORD = 2
WIDTH = 16
GOLD = ROOT / "tests" / "data" / "gold"
EARLIER = ("readings.tsv", "readings_dev2.tsv", "readings_dev3.tsv")
FILES = [ROOT / "decks" / "texts" / f"KR1d0044_{n:03d}.txt" for n in range(9, 18)]

Unit = tuple[str, list[int]]  # a run of the classic and the source line of each character


def units(path: Path) -> Iterator[Unit]:
    """The classic of a file: each passage (its text pieces joined) and each stage's 記."""
    doc = load_document(path)
    for rite in doc.rites:
        for stage in rite.stages:
            for passage in stage.passages:
                text, lines = "", []
                for piece in passage.pieces:
                    if piece.kind == "text":
                        lines += [_line_at(piece.line, piece.breaks, k) for k in range(len(piece.text))]
                        text += piece.text
                yield text, lines
            for part in stage.note_text.split("\u3000"):
                if part.strip():
                    yield part.strip(), _note_lines(path, stage.line or 0, part.strip())


def _note_lines(path: Path, heading: int, part: str) -> list[int]:
    """The source line of each character of a 記 part: the part found in the file's classic
    characters (outside (…) notes and <…> marks) from the heading's line on."""
    chars: list[tuple[str, int]] = []
    depth, first = 0, max(heading, 1)
    for n, raw in enumerate(_lines(path)[first - 1 :], start=first):
        for ch in raw.split("<")[0] if raw.startswith("<") else raw:
            depth += (ch == "(") - (ch == ")")
            if not depth and ch not in "()¶\u3000 ":
                chars.append((ch, n))
    at = "".join(c for c, _ in chars).find(part)
    return [n for _, n in chars[at : at + len(part)]] if at >= 0 else [heading] * len(part)


@cache
def _lines(path: Path) -> list[str]:
    return path.read_text(encoding="utf-8").split("\n")


def _line_at(line: int, breaks: tuple[tuple[int, int], ...], offset: int) -> int:
    for start, n in breaks:
        if offset >= start:
            line = n
    return line


def terms() -> set[str]:
    """The headwords (as written) of the book's terms of one to three characters."""
    paths = [str(p) for p in sorted((ROOT / "decks" / "texts").glob("KR1d0044_0*.txt"))]
    out = subprocess.run(["study", "terms", *paths, "--json"], capture_output=True, text=True, check=True).stdout
    return {t["term"] for t in json.loads(out) if 1 <= len(t["term"]) <= 3}


@cache
def polyphonic(char: str) -> bool:
    from pypinyin import Style, pinyin

    norm = normalize(char)
    if len(norm) != 1:
        return False
    if len(set(pinyin(norm, style=Style.TONE, heteronym=True)[0])) >= 2:
        return True
    entry = table().get(norm)
    if entry is None:
        return False
    readings = (
        {entry.reading, *entry.also} | {r.reading for r in entry.rules} | {a for r in entry.rules for a in r.also}
    )
    return len(readings - {None}) >= 2


def context(text: str, start: int, word: str) -> tuple[str, int]:
    """About WIDTH characters around the word, its first occurrence the one meant."""
    lo = max(0, start - WIDTH // 2)
    earlier = text.rfind(word, lo, start)
    while earlier != -1:
        lo = earlier + 1
        earlier = text.rfind(word, lo, start)
    return text[lo : max(lo + WIDTH, start + len(word))], start - lo


def earlier_rows() -> list[tuple[str, str, str]]:
    """(word, context, file) of every row of the earlier lists, read but never printed."""
    rows = []
    for name in EARLIER:
        rows += [(r["word"], r["context"], r["file"]) for r in reading_rows(GOLD / name)]
    return rows


def covered(text: str, start: int, word: str, file: str, rows: list[tuple[str, str, str]]) -> bool:
    """Whether an earlier row stands for this place: its (word, context, file), or the same word
    in the same file with a context found in the classic around this occurrence."""
    for w, ctx, f in rows:
        if f != file or w != word or not ctx:
            continue
        at = text.find(ctx)
        while at != -1:
            if at <= start and start + len(word) <= at + len(ctx):
                return True
            at = text.find(ctx, at + 1)
    return False


def population() -> list[tuple[str, int, int, int, str]]:
    """(file, unit, offset, line, word) of every place, sorted."""
    words = terms()
    out = []
    for path in FILES:
        for u, (text, lines) in enumerate(units(path)):
            for i in range(len(text)):
                here = {text[i : i + n] for n in (1, 2, 3) if text[i : i + n] in words}
                if polyphonic(text[i]):
                    here.add(text[i])
                out += [(path.name, u, i, lines[i], w) for w in here if i + len(w) <= len(text)]
    return sorted(out)


def main() -> None:
    places = population()
    texts = {(p.name, u): text for p in FILES for u, (text, _) in enumerate(units(p))}
    rows = earlier_rows()
    order = places[:]
    random.Random(SEED).shuffle(order)
    taken: Counter[str] = Counter()
    drawn: list[tuple[str, str, str, int]] = []
    seen = set(rows)
    for file, u, i, line, word in order:
        if len(drawn) == SIZE:
            break
        if taken[word] >= PER_WORD:
            continue
        text = texts[(file, u)]
        ctx, _ = context(text, i, word)
        if (word, ctx, file) in seen or covered(text, i, word, file, rows):
            continue
        taken[word] += 1
        drawn.append((word, ctx, file, line))
    print(f"# population: {len(places)} places, {len({p[4] for p in places})} words; drawn {len(drawn)}")
    for word, ctx, file, line in drawn:
        print("\t".join((word, ctx, file, str(line))))


if __name__ == "__main__":
    main()
