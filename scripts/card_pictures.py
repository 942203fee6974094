"""Pictures of the cards for the README: each card kind's front and back, rendered by the real
Anki (the `anki` package renders the templates) and photographed in headless Chromium
(Debian's /usr/bin/chromium, driven by Playwright; nothing is downloaded).

    python3 scripts/card_pictures.py                  # docs/cards/<kind>-front.png, -back.png
    python3 scripts/card_pictures.py --sample 4 --out /tmp/cards decks/02-shihunli.yaml
                                                       # 4 cards of each kind of those specs

Pictures are 420 px wide (a phone); ``--width`` changes it. The book's rarer characters (𤣥, the
taboo form of 玄, is in CJK Extension B) need a font that has them, as a student's device does
(Windows' SimSun-ExtB, …): here Debian's fonts-hanazono (``apt-get install fonts-hanazono``).
"""

from __future__ import annotations

import argparse
import random
import re
import sys
import tempfile
from pathlib import Path

from anki.collection import Collection, ImportAnkiPackageRequest
from playwright.sync_api import sync_playwright

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from study.build import Sources, default_specs, plan_deck  # noqa: E402
from study.decks.apkg import NAMES, note_guid, write_apkg  # noqa: E402
from study.decks.deckspec import load_deckspec  # noqa: E402
from study.decks.notedata import NoteData  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DECKS = ROOT / "decks"
PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body class="card{night}" style="margin:0;padding:12px 4px">{html}</body></html>"""

# (picture name, specs, what the note must be) — one of each kind, chosen to show what it teaches;
# the first of the specs that has such a note ("*": then every shipped spec)
KINDS: list[tuple[str, tuple[str, ...], object]] = [
    ("term", ("xiangshe",), lambda n: n.model == "term" and not n.field("Sense") and "《" not in n.field("Source")),
    ("term-sense", ("02-shihunli",), lambda n: n.model == "term" and n.identity[2:] == ("主人", "1")),
    # a gloss two terms share (聘禮: 祖 and 俶, both 始): the back names every term it accepts
    (
        "term-reverse",
        ("xiangshe", "09-pinli", "*"),
        lambda n: n.model == "term_reverse" and "亦可答" in n.field("Sense"),
    ),
    ("passage", ("xiangshe",), lambda n: n.model == "passage" and len(n.field("Passage")) > 20),
    ("passage-reverse", ("xiangshe",), lambda n: n.model == "passage_reverse" and len(n.field("Passage")) > 20),
    ("cloze", ("xiangshe",), lambda n: n.model == "cloze" and n.cards >= 2 and "::" in n.field("Text")),
    ("stages", ("xiangshe",), lambda n: n.kind == "stages"),
    ("steps", ("xiangshe",), lambda n: n.kind == "steps" and n.cards >= 4),
]
# When no shipped spec has a kind's note: a plainer one, and a word for the README's caption.
FALLBACKS: dict[str, tuple[str, object, str]] = {
    "term-reverse": (
        "xiangshe",
        lambda n: n.model == "term_reverse",
        "no shipped deck has a gloss two terms share: term-reverse-*.png show a plain 义→词 card; "
        "say so in the README's caption",
    ),
}


def render(notes: list[NoteData], folder: Path) -> list[tuple[NoteData, int, str, str]]:
    """(note, card ordinal, front HTML, back HTML) of every card of ``notes``, as Anki renders them."""
    apkg = folder / "cards.apkg"
    write_apkg(notes, apkg)
    col = Collection(str(folder / "c.anki2"))
    try:
        col.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg)))
        by_guid = {note_guid(n): n for n in notes}
        out = []
        for cid in col.find_cards(""):
            card = col.get_card(cid)
            out.append((by_guid[card.note().guid], card.ord, card.question(), card.answer()))
        return sorted(out, key=lambda x: (x[0].due, x[1]))
    finally:
        col.close()


def photograph(pages: list[tuple[Path, str]], width: int, *, night: bool = False) -> None:
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=CHROMIUM)
        try:
            page = browser.new_page(viewport={"width": width, "height": 200}, device_scale_factor=2)
            for path, html in pages:
                page.set_content(PAGE.format(html=html, night=" nightMode" if night else ""))
                page.wait_for_timeout(50)
                path.parent.mkdir(parents=True, exist_ok=True)
                page.screenshot(path=str(path), full_page=True)
        finally:
            browser.close()


def readme_pictures(out: Path, width: int) -> list[Path]:
    sources = Sources()
    plans: dict[str, list[NoteData]] = {}

    def plan(stem: str) -> list[NoteData]:
        if stem not in plans:
            plans[stem] = plan_deck(load_deckspec(DECKS / f"{stem}.yaml"), sources)
        return plans[stem]

    chosen: list[tuple[str, NoteData]] = []
    for name, stems, wanted in KINDS:
        order = [s for s in stems if s != "*"] + ([p.stem for p in default_specs()] if "*" in stems else [])
        note = next((n for stem in dict.fromkeys(order) for n in plan(stem) if wanted(n)), None)  # type: ignore[operator]
        if note is None and name in FALLBACKS:
            stem, plainer, word = FALLBACKS[name]
            note = next((n for n in plan(stem) if plainer(n)), None)  # type: ignore[operator]
            print(f"{name}: {word}", file=sys.stderr)
        if note is None:
            raise SystemExit(f"{name}: no note of this kind in {', '.join(order)}")
        chosen.append((name, note))
    pages = []
    with tempfile.TemporaryDirectory() as tmp:
        cards = render([n for _, n in chosen], Path(tmp))
        for name, note in chosen:
            mine = [c for c in cards if c[0] is note]
            # an order note: its last card, which shows the items before the one it asks
            _, _, front, back = mine[-1] if note.kind in ("stages", "steps") else mine[0]
            pages += [(out / f"{name}-front.png", front), (out / f"{name}-back.png", back)]
    photograph(pages, width)
    return [p for p, _ in pages]


def sample(specs: list[Path], per_kind: int, out: Path, width: int, seed: int) -> list[Path]:
    sources, rng, pages = Sources(), random.Random(seed), []
    for spec in specs:
        notes = plan_deck(load_deckspec(spec), sources)
        picked = []
        for model in NAMES:
            mine = [n for n in notes if n.model == model]
            picked += rng.sample(mine, min(per_kind, len(mine)))
        with tempfile.TemporaryDirectory() as tmp:
            for note, ordinal, front, back in render(picked, Path(tmp)):
                stem = f"{spec.stem}-{note.model}-{note.due}-{ordinal}"
                stem = re.sub(r"[^\w.-]", "_", stem)
                pages += [(out / f"{stem}-front.png", front), (out / f"{stem}-back.png", back)]
    photograph(pages, width)
    return [p for p, _ in pages]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("specs", nargs="*", type=Path)
    parser.add_argument("--out", type=Path, default=ROOT / "docs" / "cards")
    parser.add_argument("--width", type=int, default=420)
    parser.add_argument("--sample", type=int, default=0, help="cards of each kind per spec (0: the README's)")
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    if args.sample:
        made = sample(args.specs, args.sample, args.out, args.width, args.seed)
    else:
        made = readme_pictures(args.out, args.width)
    print(f"{len(made)} pictures in {args.out}")


if __name__ == "__main__":
    main()
