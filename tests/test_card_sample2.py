"""The second blind sample of the cards a student meets (tests/data/gold/card_sample2.tsv): 150 cards
of the whole-book package at commit e9a745f, drawn with another seed (``scripts/card_sample_draw.py
--seed 20261205``) after three classes the first sample found were fixed, and read front then back
before the first sample's verdicts. Its figure is its count; every card it read is still in a fresh
build (or was found wrong, which may have removed it). The checks are the first sample's."""

from __future__ import annotations

import re

import pytest

from scripts.card_sample_draw import SEED
from tests.conftest import ROOT
from tests.test_card_sample import FIXED, _read, check_figure, check_header_and_rows, check_still_built, whole_book

SAMPLE2 = ROOT / "tests" / "data" / "gold" / "card_sample2.tsv"


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> dict[tuple[str, int], tuple[str, str, str]]:
    return whole_book(tmp_path_factory.mktemp("cardsample2"))


def test_the_second_card_sample_has_its_header_and_150_read_rows_of_every_kind():
    check_header_and_rows(SAMPLE2)


def test_the_second_card_sample_is_drawn_with_its_own_seed_at_a_named_commit():
    header, _ = _read(SAMPLE2)
    assert f"random.Random({SEED})" not in header["seed"]
    assert "random.Random(20261205)" in header["seed"] and "--seed 20261205" in header["sample"]
    assert "commit e9a745f" in header["sample"]


def test_a_card_both_samples_drew_is_read_alike_unless_its_fault_was_fixed_between():
    """Two blind readers: the 4 cards both draws hold (~150²/6363 expected) get the same verdict."""
    _, first = _read()
    _, second = _read(SAMPLE2)
    before = {(r["guid"], r["ord"]): r for r in first}
    both = [(before[(r["guid"], r["ord"])], r) for r in second if (r["guid"], r["ord"]) in before]
    assert len(both) == 4
    for old, new in both:
        assert old["verdict"] == new["verdict"] or FIXED in old["reason"], (old["front"], new["reason"])


def test_the_second_card_sample_figure_is_its_count_with_its_wilson_interval():
    check_figure(SAMPLE2)


def test_every_card_of_the_second_sample_is_still_built_with_its_kind_unless_it_was_found_wrong(fresh):
    check_still_built(SAMPLE2, fresh)


def test_the_readme_gives_the_second_sample_and_its_figure():
    header, _ = _read(SAMPLE2)
    readme = re.sub(r"\s+", " ", (ROOT / "README.md").read_text("utf-8"))
    at = readme.find("card_sample2.tsv")
    assert at >= 0, "README names card_sample2.tsv"
    assert header["figure"] in readme[at : at + 600], "README: the second sample's figure follows its name"


def test_no_card_of_the_whole_book_shows_a_translation_a_teacher_corrected(fresh):
    """The samples read 袒 as the right arm, 某御於子 as 我侍奉您, 獲者 as 射中靶心的人, 中 as the
    middle, 膳篚 north of itself; decks/translations.yaml corrects the seed's translation, and no
    card of the whole book shows those words any more."""
    false = ("袒露右臂", "我侍奉您", "某侍奉您", "在膳篚的北面设置膳篚", "从中间前进", "中西位置", "射中靶心的人")
    for key, (_, front, back) in fresh.items():
        assert not [w for w in false if w in front + back], key
