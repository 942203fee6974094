"""The crossed pair of study/terms/plainyue.py (yue-cross) on the real sentence of the book, and the
near shapes it must refuse."""

from __future__ import annotations

from pathlib import Path

from study.build import load_document
from study.terms.glosses import _contexts
from study.terms.plainyue import crossed
from study.text.normalize import normalize
from tests.conftest import rules_at

BOOK = Path(__file__).resolve().parents[1] / "decks" / "texts"


def _intro_of_pin_li():
    """The note opening 聘禮 (「此諸侯相聘之禮大問曰聘小聘曰問…」) and its context."""
    doc = load_document(BOOK / "KR1d0044_009.txt")
    return next((ctx, seg) for ctx, seg in _contexts(doc) if ctx.intro and "大問曰聘" in seg.text)


def test_two_words_glossed_by_each_other_qualified_are_both_read():
    # 009:13 「大問曰聘小聘曰問」: 問 is a word said and the 記 writes 小聘曰問 itself, so the single
    # Y曰X reading refuses both; the crossed pair reads them
    found = rules_at("KR1d0044_009.txt", 13)
    assert found.get(("聘", "大問")) == "k:yue:intro-yue-cross:short"
    assert found.get(("問", "小聘")) == "k:yue:intro-yue-cross:short"


def test_a_pair_with_one_qualifier_or_words_outside_the_text_is_not_crossed():
    ctx, _ = _intro_of_pin_li()
    same = normalize("大問曰聘大聘曰問")  # both qualified alike: no contrast
    assert not list(crossed(same, 0, len(same), ctx))
    outside = normalize("大鼗曰鼙小鼙曰鼗")  # neither word stands in 聘禮
    assert not list(crossed(outside, 0, len(outside), ctx))
    real = normalize("大問曰聘小聘曰問")
    assert len(list(crossed(real, 0, len(real), ctx))) == 2
