"""Rules of the unpunctuated book's gloss reader (study/terms/plain.py and the modules it calls),
each shown on a real line of the book that it alone reads: without the rule the line's glosses
are not extracted."""

from __future__ import annotations

from functools import cache
from pathlib import Path

from study.build import load_document
from study.terms.glosses import extract_glosses

BOOK = Path(__file__).resolve().parents[1] / "decks" / "texts"


@cache
def _at(file: str, line: int) -> dict[tuple[str, str], str]:
    """(term, gloss) → rule of the glosses extracted at one line of the book."""
    glosses = extract_glosses(load_document(BOOK / file), review=False)
    return {(g.context, g.gloss): g.rule for g in glosses if g.line == line}


def test_a_chain_of_things_glossed_by_what_they_are_used_for_is_read_thing_by_thing():
    # 016:84 「…廩人掌炊黍稷者甑所以炊甗所以盛米匕所以出飯敦所以盛飯此四者皆黍稷之器…」
    found = _at("KR1d0044_016.txt", 84)
    for term, gloss in (("甑", "所以炊"), ("甗", "所以盛米"), ("匕", "所以出飯"), ("敦", "所以盛飯")):
        assert found.get((term, gloss), "").startswith("k:qi:walk-tool:"), (term, found)


def test_an_act_with_its_thing_is_not_glossed_by_what_it_is_for():
    # 009:153 「…張旜所以表其至也」: why the banner is raised, not what 張旜 means
    assert not [k for k in _at("KR1d0044_009.txt", 153) if k[0] == "張旜"]
