"""The built term cards of 喪服 (卷十一) as a reader found them: a fragment of 上曰衰下曰裳, glosses that
say which garment or which parents are meant, and two that add a character to their word (the
reverse card showing its answer) dropped at their lines."""

from __future__ import annotations

from pathlib import Path

import pytest

from study.build import Sources, plan_deck
from study.decks.deckspec import load_deckspec
from study.text.normalize import normalize
from tests.conftest import book_terms, shown_glosses

ROOT = Path(__file__).resolve().parents[1]
FILE = "KR1d0044_011.txt"

DROPPED = [  # (line, term, gloss)
    (15, "裳", "下"),  # a fragment of 下曰裳
    (81, "衆臣", "衆家臣"),  # the reverse card holds its answer
    (120, "衣", "衰"),  # which garment (衣即衰也)
    (386, "其父母", "本生父母"),  # which parents
    (418, "無主", "無祭主"),  # the reverse card holds its answer
]


@pytest.fixture(scope="module")
def said(tmp_path_factory):
    bare = tmp_path_factory.mktemp("g") / "glossary.yaml"
    bare.write_text("version: 1\n", "utf-8")
    return book_terms(FILE, bare)


@pytest.mark.parametrize(("line", "term", "gloss"), DROPPED)
def test_a_fragment_or_a_gloss_saying_which_is_dropped_at_its_line(line, term, gloss, said):
    assert (gloss, line) in {(g.gloss, g.line) for g in said[normalize(term)].glosses}  # the commentary says it
    t = book_terms(FILE).get(normalize(term))
    assert t is None or (gloss, line) not in {(g.gloss, g.line) for g in t.glosses}


def test_no_term_card_of_the_rite_shows_a_dropped_gloss():
    notes = plan_deck(load_deckspec(ROOT / "decks" / "11-sangfu.yaml"), Sources())
    shown = shown_glosses(notes)
    for _, term, gloss in DROPPED:
        assert (normalize(term), normalize(gloss)) not in shown, (term, gloss)
    for term, gloss in (("齊", "緝"), ("袪", "袖口"), ("貴妾", "姪娣"), ("庶母", "父有子妾")):
        assert (normalize(term), normalize(gloss)) in shown, (term, gloss)
