"""A term only the curated glossary gives is shown as the text being studied writes it: the entry is
written in the seeds' simplified script (丰, 获者, 觯), the book writes 豐, 獲者, 觶 — original
characters are kept for display, matching uses the normalised form."""

from __future__ import annotations

from pathlib import Path

from study.build import default_glossary_path, load_document
from study.model import Term
from study.terms.curated import load_curated
from study.terms.glossary import build_terms

TEXTS = Path(__file__).resolve().parents[1] / "decks" / "texts"


def _built(name: str) -> list[Term]:
    return build_terms([load_document(TEXTS / name)], load_curated(default_glossary_path()))


def _terms(name: str) -> dict[str, str]:
    return {t.normalized: t.term for t in _built(name)}


def test_a_curated_term_is_shown_as_the_book_writes_it():
    dashe = _terms("KR1d0044_006.txt")  # 大射儀
    assert dashe["丰"] == "豐" and dashe["获者"] == "獲者" and dashe["觯"] == "觶" and dashe["阶"] == "階"
    for t in _built("KR1d0044_006.txt"):  # every headword stands in the text as written (where the text uses it)
        if t.example is not None and t.example.at is not None:
            assert t.example.text[t.example.at : t.example.at + len(t.term)] == t.term, (t.term, t.example.text)


def test_a_curated_term_keeps_the_seeds_simplified_form_in_the_seed_text():
    seed = _terms("000_5ea6dcd6bccc2da6.txt")  # 乡射礼/燕礼 excerpt, simplified script
    assert seed["觯"] == "觯" and seed["获者"] == "获者"
