"""Senses in their place: where a gloss comes from in words, terms that share a gloss, and a
curated gloss kept to the contexts it fits."""

from __future__ import annotations

from pathlib import Path

import pytest

from study.build import load_document
from study.model import Gloss, Term
from study.terms.glosses import extract_glosses
from study.terms.senses import accepted_terms, gloss_place, terms_sharing_gloss
from tests.conftest import ROOT, XIANGSHE

BOOK = Path(__file__).resolve().parents[2] / "shared" / "texts" / "kanripo-KR1d0044"


def test_a_gloss_names_its_juan_from_the_document_title_not_the_file_name():
    glosses = extract_glosses(load_document(ROOT / "decks" / "texts" / XIANGSHE))
    first = next(g for g in glosses if g.rite == "乡射礼")
    last = next(g for g in reversed(glosses) if g.rite == "燕礼")
    assert first.juan == "卷四" and last.juan == "卷五"  # the seed's file name holds no 卷
    assert gloss_place(first).startswith(f"{first.speaker} · 卷四 乡射礼 · ")
    assert gloss_place(first).endswith(f"第{first.line}行")


def test_every_gloss_of_the_book_gives_its_place_in_words():
    glosses = extract_glosses(load_document(BOOK / "KR1d0044_007.txt"))
    assert glosses and all(g.juan == "卷七" for g in glosses)
    assert all(".txt" not in gloss_place(g) and g.speaker for g in glosses)


def _term(word: str, *glosses: str) -> Term:
    return Term(
        term=word,
        normalized=word,
        pinyin="",
        category="other",
        glosses=tuple(Gloss(gloss=g) for g in glosses),
        example=None,
        frequency=(),
    )


def test_terms_that_share_a_gloss_are_all_accepted():
    terms = [_term("釋", "奠也"), _term("奠", "置"), _term("藉", "薦"), _term("苴", "藉"), _term("置", "奠")]
    assert accepted_terms("奠", terms) == ("釋", "置")
    assert accepted_terms("薦也", terms) == ("藉",)
    assert terms_sharing_gloss(terms)["奠"] == ("釋", "置")
    assert accepted_terms("无此義", terms) == ()


@pytest.mark.parametrize("sep", ["", "也"])
def test_a_gloss_key_ignores_the_final_ye(sep):
    assert accepted_terms("生牲" + sep, [_term("餼", "生牲也")]) == ("餼",)
