"""The third blind sample of the cards a student meets (tests/data/gold/card_sample3.tsv): 150 cards
of the whole-book package at commit bec5dbe, after the cloze hints, the empty glosses and the
reverse cards' sentences, drawn with a third seed (``scripts/card_sample_draw.py --seed 20261206``)
and read front then back before either earlier sample's verdicts. The checks are the first
sample's; a card an earlier draw holds too is read alike unless its fault was fixed between."""

from __future__ import annotations

import re
from collections import Counter
from pathlib import Path

import pytest

from tests.conftest import ROOT
from tests.test_card_sample import (
    FIXED,
    SAMPLE,
    _read,
    check_figure,
    check_header_and_rows,
    check_still_built,
    whole_book,
)
from tests.test_card_sample2 import SAMPLE2

SAMPLE3 = ROOT / "tests" / "data" / "gold" / "card_sample3.tsv"
COMMIT = "bec5dbe"


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> dict[tuple[str, int], tuple[str, str, str]]:
    return whole_book(tmp_path_factory.mktemp("cardsample3"))


def test_the_third_sample_has_150_read_rows_of_every_kind_and_its_figure_is_their_count():
    check_header_and_rows(SAMPLE3)
    check_figure(SAMPLE3)


def test_the_third_sample_names_its_seed_and_commit_and_no_other_samples():
    header, _ = _read(SAMPLE3)
    assert "random.Random(20261206)" in header["seed"] and "--seed 20261206" in header["sample"]
    assert f"commit {COMMIT}" in header["sample"]
    for other in (SAMPLE, SAMPLE2):
        assert _read(other)[0]["seed"] != header["seed"], other.name


@pytest.mark.parametrize("earlier", [SAMPLE, SAMPLE2], ids=["first", "second"])
def test_a_card_an_earlier_sample_drew_too_is_read_alike_unless_fixed_between(earlier: Path):
    """Blind readers agree: 4 cards are in each earlier draw too (~150²/6106 expected)."""
    then = {(r["guid"], r["ord"]): r for r in _read(earlier)[1]}
    pairs = [(then[key], r) for r in _read(SAMPLE3)[1] if (key := (r["guid"], r["ord"])) in then]
    assert len(pairs) == 4
    for old, new in pairs:
        assert new["verdict"] == old["verdict"] or FIXED in old["reason"], (new["front"], old["reason"])


def test_every_card_of_the_third_sample_is_still_built_with_its_kind_unless_it_was_found_wrong(built):
    check_still_built(SAMPLE3, built)


def test_the_readme_gives_the_third_sample_its_commit_its_figure_and_each_kind():
    """The paragraph naming card_sample3.tsv says the commit, the figure and k/n right per kind."""
    header, rows = _read(SAMPLE3)
    paragraphs = (ROOT / "README.md").read_text("utf-8").split("\n\n")
    said = " ".join(re.sub(r"\s+", " ", p) for p in paragraphs if "card_sample3.tsv" in p)
    assert header["figure"] in said and COMMIT in said, "README: the third sample's paragraph"
    for kind, n in Counter(r["kind"] for r in rows).items():
        right = sum(r["verdict"] == "right" for r in rows if r["kind"] == kind)
        assert f"{kind} {right}/{n}" in said, kind
