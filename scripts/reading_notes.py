"""The book's own 音 notes and the readings the project shows where they stand.

    PYTHONPATH=. python scripts/reading_notes.py [FILE …] [--refused] [--yaml]

Harvests every reading note (「干音豻」, 「AB反」, 「X如字」, 「X讀為Y」) of the commentary of the
given Kanripo files (default: decks/texts/KR1d0044_0*.txt), reads the reading each implies and the
reading the project shows at every place of the classic it explains, and prints them with a count
of notes, certain ones and agreements. ``--refused`` lists every marker refused and why; ``--yaml``
prints, for each certain note the project reads otherwise, the context rule to add to
study/data/readings.yaml (under the character's ``rules``), citing the note — a person reads each
before it goes in (the table is reviewed; nothing is applied unread).
"""

from __future__ import annotations

import argparse
import sys
from collections import Counter
from pathlib import Path

import yaml

from study.terms.readingnotes import harvest, implied, places_read, table_rule
from study.text.formats import read_text
from study.text.normalize import normalize

ROOT = Path(__file__).resolve().parent.parent


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    ap.add_argument("files", nargs="*", type=Path)
    ap.add_argument("--refused", action="store_true", help="list every marker refused and why")
    ap.add_argument("--yaml", action="store_true", help="print the rules a disagreeing note asks for")
    args = ap.parse_args(argv)
    files = args.files or sorted((ROOT / "decks" / "texts").glob("KR1d0044_0*.txt"))
    counts: Counter[str] = Counter()
    why_refused: Counter[str] = Counter()
    rules: list[tuple[str, dict[str, object]]] = []
    for path in files:
        notes, refused = harvest(read_text(path.read_bytes(), path.name))
        for r in refused:
            why_refused[r.why] += 1
            if args.refused:
                print(f"refused  {r.path}:{r.line}  {r.text}  — {r.why}")
        for note in notes:
            counts["notes"] += 1
            imp = implied(note)
            read = places_read(note)
            shown = ", ".join(p.shown for p in read)
            if imp.reading is None:
                print(f"{note.path}:{note.line}  {note.text}  {note.char}: no reading ({imp.why}); shown {shown}")
                continue
            counts["certain"] += 1
            agree = [imp.reading in p.accepted for p in read]
            counts["agree"] += all(agree)
            mark = "agrees" if all(agree) else "DISAGREES"
            print(
                f"{note.path}:{note.line}  {note.text}  {note.char} → {imp.reading} ({imp.why}); shown {shown}: {mark}"
            )
            rules += [
                (normalize(note.char), table_rule(note, p.at, imp.reading))
                for p, ok in zip(read, agree, strict=True)
                if not ok
            ]
    print(
        f"\n{counts['notes']} notes, {counts['certain']} with a certain reading, {counts['agree']} agree with the reading shown"
    )
    print("refused: " + "; ".join(f"{why} {n}" for why, n in why_refused.most_common()))
    if args.yaml and rules:
        print("\n# rules to add to study/data/readings.yaml (read each before it goes in)")
        for char, rule in rules:
            print(yaml.safe_dump({char: {"rules": [rule]}}, allow_unicode=True, default_flow_style=None).rstrip())
    return 0


if __name__ == "__main__":
    sys.exit(main())
