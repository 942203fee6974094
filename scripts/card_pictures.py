"""Pictures of the cards for the README: each card kind's front and back, rendered by the real
Anki (the `anki` package renders the templates) and photographed in headless Chromium
(Debian's /usr/bin/chromium, driven by Playwright; nothing is downloaded).

    python3 scripts/card_pictures.py                  # docs/cards/<kind>-front.png, -back.png
    python3 scripts/card_pictures.py --sample 4 --out /tmp/cards decks/02-shihunli.yaml
                                                       # 4 cards of each kind of those specs

Pictures are 420 px wide (a phone); ``--width`` changes it.
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

from study.build import Sources, plan_deck  # noqa: E402
from study.decks.apkg import NAMES, note_guid, write_apkg  # noqa: E402
from study.decks.deckspec import load_deckspec  # noqa: E402
from study.decks.notedata import NoteData  # noqa: E402

CHROMIUM = "/usr/bin/chromium"
DECKS = ROOT / "decks"
PAGE = """<!doctype html><html><head><meta charset="utf-8">
<meta name="viewport" content="width=device-width, initial-scale=1"></head>
<body class="card{night}" style="margin:0;padding:12px 4px">{html}</body></html>"""

# (picture name, spec, what the note must be) — one of each kind, chosen to show what it teaches
KINDS: list[tuple[str, str, object]] = [
    ("term", "xiangshe", lambda n: n.model == "term" and not n.field("Sense") and "《" not in n.field("Source")),
    ("term-sense", "02-shihunli", lambda n: n.model == "term" and n.identity[2:] == ("主人", "1")),
    ("term-reverse", "xiangshe", lambda n: n.model == "term_reverse" and "亦可答" in n.field("Sense")),
    ("passage", "xiangshe", lambda n: n.model == "passage" and len(n.field("Passage")) > 20),
    ("passage-reverse", "xiangshe", lambda n: n.model == "passage_reverse" and len(n.field("Passage")) > 20),
    ("cloze", "xiangshe", lambda n: n.model == "cloze" and n.cards >= 2 and "::" in n.field("Text")),
    ("stages", "xiangshe", lambda n: n.kind == "stages"),
    ("steps", "xiangshe", lambda n: n.kind == "steps" and n.cards >= 4),
]


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
    chosen: list[tuple[str, NoteData]] = []
    for name, stem, wanted in KINDS:
        if stem not in plans:
            plans[stem] = plan_deck(load_deckspec(DECKS / f"{stem}.yaml"), sources)
        note = next(n for n in plans[stem] if wanted(n))  # type: ignore[operator]
        chosen.append((name, note))
    pages = []
    with tempfile.TemporaryDirectory() as tmp:
        cards = render([n for _, n in chosen], Path(tmp))
        for name, note in chosen:
            _, _, front, back = next(c for c in cards if c[0] is note)
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
