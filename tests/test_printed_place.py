"""Where a gloss is said, in words a student can look up: the printed page and line of the edition
the Kanripo text transcribes (《四庫全書》, its <pb:…> marks), on cards and in the quiz."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from study.build import Sources, load_document, load_terms, plan_deck
from study.decks.deckspec import load_deckspec
from study.decks.notedata import printed_label
from study.learn.gather import build_catalog
from study.learn.teach import teaching

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ROOT / "decks" / "texts"
PLACE = re.compile(r"^礼经本义 卷[一二三四五六七八九十]+ · [^·]+( · [^·]+)? · 頁\d+[ab]第[1-8]行$")


def test_a_line_of_the_book_is_found_on_its_printed_page_and_column():
    """卷十四 opens on page 1a (欽定四庫全書, the title, the author, 凶禮, 士虞禮, then the rite's note
    in column 6); 「祭用黍稷曰饋食」 is page 1b's second column; a page mark's own line is no column."""
    doc = load_document(TEXTS / "KR1d0044_014.txt")
    assert doc.printed(8) == ("KR1d0044_WYG_014-1a", 1)  # 欽定四庫全書
    assert doc.printed(13) == ("KR1d0044_WYG_014-1a", 6)  # (此言士喪既𦵏而虞祭之禮鄭康成曰虞安也…
    assert doc.printed(16) is None  # <pb:KR1d0044_WYG_014-1b>
    assert doc.printed(18) == ("KR1d0044_WYG_014-1b", 2)
    assert printed_label(doc, 18) == "頁1b第2行"
    assert printed_label(doc, 3) is None  # a header line


def test_every_printed_page_of_the_book_has_the_editions_eight_columns():
    """The edition prints eight columns a half-leaf: every page of the 18 files counts eight lines
    (the book's last page five), so a column number is a line of the printed page."""
    sizes: Counter[int] = Counter()
    for path in sorted(TEXTS.glob("KR1d0044_0*.txt")):
        sizes.update(Counter(page for _, page in load_document(path).leaves).values())
    assert sizes[8] > 1000 and set(sizes) <= {8, 5} and sizes[5] == 1


def test_a_text_without_page_marks_has_no_printed_place():
    seed = load_document(TEXTS / "000_5ea6dcd6bccc2da6.txt")
    assert seed.leaves == () and seed.printed(73) is None and printed_label(seed, 73) is None


@pytest.fixture(scope="module")
def catalog():
    docs = [load_document(TEXTS / f) for f in ("KR1d0044_012.txt", "KR1d0044_014.txt", "KR1d0044_017.txt")]
    return build_catalog(docs, load_terms(docs))


def test_every_commentary_gloss_the_quiz_teaches_names_its_printed_page_and_line(catalog):
    glosses = [g for i in catalog.items if i.id.endswith(":t2g") for g in teaching(i, catalog)["glosses"]]
    said = [g for g in glosses if g["line"] is not None]
    assert len(said) > 150
    wrong = [g for g in said if not PLACE.match(g["place"] or "")]
    assert not wrong, wrong[:5]
    # 士虞禮's 饋食 = 祭用黍稷 (014:18): page 1b, second column, in the stage 陳饌具
    kuishi = next(g for g in glosses if g["gloss"] == "祭用黍稷")
    assert kuishi["place"] == "礼经本义 卷十四 · 士虞禮 · 陳饌具 · 頁1b第2行"
    # a reference work's gloss has no place in the book
    assert all(g["place"] is None for g in glosses if g["line"] is None and (g["commentator"] or "").startswith("《"))


def test_every_term_card_of_a_commentary_gloss_names_its_printed_page_and_line():
    notes = plan_deck(load_deckspec(ROOT / "decks" / "14-shiyuli.yaml"), Sources())
    cards = [n for n in notes if n.model == "term" and n.field("Source").endswith("曰")]
    assert len(cards) > 50
    for n in cards:
        assert re.search(r" · 頁\d+[ab]第[1-8]行 · [^·]+曰$", n.field("Source")), (n.identity, n.field("Source"))


def test_the_quiz_says_where_an_example_and_a_passage_stand_in_the_printed_book(catalog):
    examples = [teaching(i, catalog)["example"] for i in catalog.items if i.id.endswith(":t2g")]
    examples = [e for e in examples if e is not None]
    assert len(examples) > 100
    assert all(PLACE.match(e["place"] or "") for e in examples), [
        e for e in examples if not PLACE.match(e["place"] or "")
    ][:3]
    passages = [teaching(i, catalog) for i in catalog.items if i.passage is not None]
    assert passages and all(PLACE.match(p["place"] or "") for p in passages if p["line"] is not None)


def test_a_gloss_of_the_note_opening_a_rite_names_no_stage():
    """士虞禮's opening note (014:13, 「鄭康成曰虞安也」) stands before the rite's first stage: its gloss
    names the rite and no stage, in `study terms --json` too; the card says 卷十四 · 士虞禮 · 頁1a第6行."""
    from study.terms.glosses import extract_glosses

    doc = load_document(TEXTS / "KR1d0044_014.txt")
    yu = next(g for g in extract_glosses(doc) if g.line == 13 and g.context == "虞")
    assert yu.gloss == "安" and yu.rite == "士虞禮" and yu.stage is None and yu.to_dict()["stage"] is None
