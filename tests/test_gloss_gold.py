"""Glosses measured on chapters read by hand (tests/data/gold), loaded through the project's reader.

The matching rule and the definition of a vocabulary gloss are in study/terms/goldscore.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from study.build import load_document
from study.terms.glosses import extract_glosses
from study.terms.goldscore import read_gold, score, total
from tests.conftest import DATA

BOOK = Path(__file__).resolve().parents[2] / "shared" / "texts" / "kanripo-KR1d0044"
GOLD = sorted((DATA / "gold").glob("glosses_KR1d0044_*.tsv"))
# What the reader reaches today (see README, Glossary): the floors these tests hold it to.
FLOOR_PRECISION, FLOOR_RECALL = 0.80, 0.40
# What issue 11 asks for; not reached yet.
TARGET_PRECISION, TARGET_RECALL = 0.95, 0.80


@pytest.fixture(scope="module")
def scores():
    out = []
    for path in GOLD:
        gold = read_gold(path)
        out.append(score(gold, extract_glosses(load_document(BOOK / gold.file))))
    return out


def test_three_chapters_outside_the_seeds_are_read_by_hand():
    assert len(GOLD) >= 3
    for path in GOLD:
        gold = read_gold(path)
        assert gold.last > gold.first and len(gold.rows) >= 40


def test_vocabulary_glosses_hold_the_measured_precision_and_recall(scores):
    t = total(scores)
    for s in scores:
        assert s.precision >= FLOOR_PRECISION - 0.1, [(g.context, g.gloss, g.line) for g in s.wrong]
    assert t.precision >= FLOOR_PRECISION, [(g.context, g.gloss, g.line) for g in t.wrong]
    assert t.recall >= FLOOR_RECALL


@pytest.mark.xfail(reason="issue 11's target (P ≥ 0.95, R ≥ 0.80) is not reached yet", strict=False)
def test_vocabulary_glosses_reach_the_issue_target(scores):
    for s in scores:
        assert s.precision >= TARGET_PRECISION and s.recall >= TARGET_RECALL


def test_every_extracted_gloss_names_a_commentator(scores):
    assert all(g.speaker for s in scores for g in s.wrong)


def test_the_matching_rule_allows_an_equivalent_form_only():
    from study.terms.goldscore import same_gloss

    assert same_gloss("禮服", "禮服也") and same_gloss("衆介", "即衆介")
    assert not same_gloss("家臣", "家臣之長也") and not same_gloss("女父", "女母")
