"""Draw the blind sample of the cards a student meets (tests/data/gold/card_sample.tsv).

    PYTHONPATH=. python3 scripts/card_sample_draw.py [all.apkg] [--dump FILE] [--seed N] [--size N]

The whole-book package (``study build --all``'s all.apkg; built afresh into a temporary folder when
no path is given) is imported into a new, real Anki collection (the ``anki`` package) and every
card is rendered as Anki shows it. The population is every card, keyed (note guid, card ord) and
sorted; each card's kind is what the build report calls it (词→义, 义→词, 经→译/译→经 as one kind,
填空, 仪节次序, 步骤次序). ``random.Random(20261204)`` (``--seed N``) draws 150 (``--size N``)
cards stratified by kind in proportion (largest remainders; a kind is drawn from its own sorted
keys, kinds in sorted order).
Printed: the population per kind, then one block per drawn card — front, then back, as text — to
be read front first. ``--dump FILE`` writes every card (guid, ord, kind, front, back) as TSV, to
look up other cards with the same front.
"""

from __future__ import annotations

import html
import random
import re
import sys
import tempfile
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

SEED = 20261204
SIZE = 150
_STYLE = re.compile(r"<style>.*?</style>", re.S)
_BREAK = re.compile(r"<(?:br|hr|/div|/p|/li)[^>]*>", re.I)
_TAG = re.compile(r"<[^>]+>")
_RT = re.compile(r"<rt>(.*?)</rt>", re.S)
_MODEL_KIND = {
    "礼经本义 · 词→义": "词→义",
    "礼经本义 · 义→词": "义→词",
    "礼经本义 · 经→译": "经→译/译→经",
    "礼经本义 · 译→经": "经→译/译→经",
    "礼经本义 · 填空": "填空",
}
_ORDER_TAGS = {"仪节": "仪节次序", "步骤": "步骤次序"}


def text(card_html: str) -> str:
    """A card's HTML as the text a student reads: blocks on lines of their own, ruby as 字(pinyin)."""
    s = _STYLE.sub("", card_html)
    s = _RT.sub(lambda m: f"({m.group(1)})", s)
    s = _BREAK.sub("\n", s).replace('<span class="who">', " —— ")
    s = re.sub(r'<(?:b class="hl"|span class="cloze"[^>]*)>(.*?)</(?:b|span)>', r"【\1】", s)
    s = html.unescape(_TAG.sub("", s))
    lines = (re.sub(r"[ \t\u3000]+", " ", line).strip() for line in s.split("\n"))
    return " / ".join(line for line in lines if line)


def kind(model: str, tags: list[str]) -> str:
    if model in _MODEL_KIND:
        return _MODEL_KIND[model]
    for tag, name in _ORDER_TAGS.items():
        if tag in tags:
            return name
    raise ValueError(f"card of note type {model} with tags {tags}: no kind")


def build_all(folder: Path) -> Path:
    from click.testing import CliRunner

    from study.cli import cli

    result = CliRunner().invoke(cli, ["build", "--all", "-o", str(folder)], catch_exceptions=False)
    if result.exit_code:
        raise SystemExit(result.output)
    return folder / "all.apkg"


def cards(apkg: Path, folder: Path) -> dict[tuple[str, int], tuple[str, str, str]]:
    """(guid, ord) → (kind, front text, back text) of every card of ``apkg`` in a fresh collection."""
    from anki.collection import Collection, ImportAnkiPackageRequest

    col = Collection(str(folder / "sample.anki2"))
    try:
        col.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg)))
        out = {}
        for cid in col.find_cards(""):
            card = col.get_card(cid)
            note = card.note()
            key = (note.guid, card.ord)
            out[key] = (kind(note.note_type()["name"], note.tags), card.question(), card.answer())
        return out
    finally:
        col.close()


def draw(keys_by_kind: dict[str, list[tuple[str, int]]], size: int = SIZE, seed: int = SEED) -> list:
    """``size`` keys stratified by kind in proportion (largest remainders), one Random for all."""
    total = sum(len(v) for v in keys_by_kind.values())
    quota = {k: size * len(v) / total for k, v in keys_by_kind.items()}
    take = {k: int(q) for k, q in quota.items()}
    for k in sorted(quota, key=lambda k: (-(quota[k] - take[k]), k))[: size - sum(take.values())]:
        take[k] += 1
    rng = random.Random(seed)
    return [(k, key) for k in sorted(keys_by_kind) for key in rng.sample(sorted(keys_by_kind[k]), take[k])]


def _option(argv: list[str], name: str) -> tuple[str | None, list[str]]:
    """The value given after ``name`` in ``argv`` (None if absent) and ``argv`` without the two."""
    if name not in argv:
        return None, argv
    i = argv.index(name)
    return argv[i + 1], argv[:i] + argv[i + 2 :]


def main(argv: list[str]) -> None:
    dump, argv = _option(argv, "--dump")
    seed, argv = _option(argv, "--seed")
    size, argv = _option(argv, "--size")
    with tempfile.TemporaryDirectory() as tmp:
        apkg = Path(argv[0]) if argv else build_all(Path(tmp) / "build")
        everything = cards(apkg, Path(tmp))
    by_kind: dict[str, list[tuple[str, int]]] = {}
    for key, (k, _, _) in everything.items():
        by_kind.setdefault(k, []).append(key)
    counts = Counter({k: len(v) for k, v in by_kind.items()})
    print(f"# population: {len(everything)} cards; " + ", ".join(f"{k} {n}" for k, n in sorted(counts.items())))
    if dump:
        rows = ("\t".join((g, str(o), k, text(q), text(a))) for (g, o), (k, q, a) in sorted(everything.items()))
        Path(dump).write_text("\n".join(rows) + "\n", "utf-8")
    drawn = draw(by_kind, int(size) if size else SIZE, int(seed) if seed else SEED)
    for n, (k, key) in enumerate(drawn, 1):
        _, q, a = everything[key]
        a = re.split(r'<hr id="?answer"?>', a)[-1]  # the back below the line (the front is above it)
        print(f"\n## {n}\t{key[0]}\t{key[1]}\t{k}\nQ: {text(q)}\nA: {text(a)}")


if __name__ == "__main__":
    main(sys.argv[1:])
