"""Glosses measured on chapters read by hand, loaded through the project's reader.

Development set: tests/data/gold/glosses_*.tsv (the rules are tuned on it). Held-out set:
tests/data/gold/heldout/glosses_*.tsv — read by hand while the rules were written and never
looked at row by row: only its totals are asserted. Seeds: tests/data/glosses_gold.tsv.
The matching rule and the definition of a vocabulary gloss are in study/terms/goldscore.py."""

from __future__ import annotations

from pathlib import Path

import pytest

from study.build import load_document
from study.terms import gate
from study.terms.glosses import extract_glosses
from study.terms.goldscore import (
    gold_files,
    judged,
    judged_seeds,
    read_gold,
    rule_evidence,
    same_gloss,
    score_chapters,
    score_seeds,
    total,
)
from study.terms.referential import referential
from tests.conftest import DATA, ROOT, TESHENG, XIANGSHE

BOOK = Path(__file__).resolve().parents[1] / "decks" / "texts"  # the project's own copy of the book
DEV = gold_files(DATA / "gold")
HELDOUT = gold_files(DATA / "gold" / "heldout")
# Measured figures (README, Glossary) held as floors; issue 11's targets are 0.95 / 0.80.
# What the extractor reads (every rule):
DEV_PRECISION, DEV_RECALL = 0.94, 0.655  # eight chapters (0.940 / 0.658); the targets are not met
# (0.807 / 0.428: the gloss-chain rules read two right and one wrong here, 0.811 / 0.419 before them)
HELDOUT_PRECISION, HELDOUT_RECALL = 0.805, 0.425
SEED_PRECISION, SEED_RECALL = 0.93, 0.85  # the figures before issue 11
# What is taught (rules passing the precision gate, study/terms/gate.py): precision target met,
# recall far below it.
# (0.993 / 0.256 and held out 0.963 / 0.121 with the gloss-chain rules; 0.992 / 0.247 and 1.000 / 0.112
# before them, once glosses saying who or which is meant were never taught, study/terms/referential.py)
TAUGHT_DEV_PRECISION, TAUGHT_DEV_RECALL = 0.98, 0.255
TAUGHT_HELDOUT_PRECISION, TAUGHT_HELDOUT_RECALL = 0.95, 0.12
TARGET_PRECISION = 0.95
# What is shipped: the gate's glosses and those of the withheld ones both hand readers signed
# (study/data/glossreview/). The review read the held-out chapters' glosses too (not their gold).
# Dev 0.980 / 0.562 (296/302), held out 0.958 / 0.316 (68/71). Dev precision stays near 0.98 since both
# readers re-cut two glosses shorter than the gold's reader: 結于面 → 結于胸前 (008:100; the gold keeps
# 以繩維四足出背上結于胸前) and 戒射 → 戒 = 預告 (006:19): more than two characters apart, counted wrong.
# Since the referential check (study/terms/referential.py): dev 0.979 / 0.537 (283/289), held out
# 0.969 / 0.288 (62/64); with the gloss-chain rules dev 0.980 / 0.546 (288/294), held out 0.955 / 0.298 (64/67);
# with its placeholder, owner and pointer shapes (某 = 使者名, 有司 = 賓介之執事者, 户西 = 室户之西: the gold
# counts them right) dev 0.979 / 0.539 (284/290), held out 0.955 / 0.293 (63/66); with its ``which`` shapes
# (厥明 = 死之明日, 筵末 = 席之西端, 致命 = 致其君聘問之命: the third reading's hand drops, the gold counts
# them right) dev 0.982 / 0.522 (275/280), held out unchanged.
SHIPPED_DEV_PRECISION, SHIPPED_DEV_RECALL = 0.975, 0.52
SHIPPED_HELDOUT_PRECISION, SHIPPED_HELDOUT_RECALL = 0.95, 0.29


def _extract(file: str):
    """The method alone: the extractor and its gate, without the hand review of withheld glosses."""
    return extract_glosses(load_document(BOOK / file), review=False)


def _taught(file: str):
    return [g for g in _extract(file) if g.taught]


@pytest.fixture(scope="module")
def dev():
    return [s for _, s in score_chapters(DEV, _extract)]


@pytest.fixture(scope="module")
def heldout():
    return [s for _, s in score_chapters(HELDOUT, _extract)]


def test_eight_development_chapters_outside_the_seeds_are_read_by_hand():
    assert len(DEV) >= 8
    for path in DEV:
        gold = read_gold(path)
        assert gold.last > gold.first and len(gold.rows) >= 40


def test_development_chapters_hold_the_measured_precision_and_recall(dev):
    t = total(dev)
    assert t.precision >= DEV_PRECISION, [(g.context, g.gloss, g.line) for g in t.wrong]
    assert t.recall >= DEV_RECALL


def test_held_out_chapters_hold_the_measured_precision_and_recall(heldout):
    if not HELDOUT:
        pytest.skip("no held-out gold files yet")
    t = total(heldout)
    precision, recall = t.precision, t.recall  # only the totals: a failure must not print held-out rows
    assert precision >= HELDOUT_PRECISION and recall >= HELDOUT_RECALL, (precision, recall)


def _seed(name: str):
    path = next(p for p in (ROOT / "decks" / "texts" / name, DATA / name) if p.is_file())
    return extract_glosses(load_document(path), review=False)


def test_the_seeds_figures_do_not_drop():
    s = score_seeds(DATA / "glosses_gold.tsv", _seed(XIANGSHE) + _seed(TESHENG))
    assert s.recall >= SEED_RECALL and s.precision >= SEED_PRECISION, (s.recall, s.precision)


def test_every_extracted_gloss_names_a_commentator(dev):
    assert all(g.speaker for s in dev for g in s.wrong)


def test_the_matching_rule_allows_an_equivalent_form_only():
    assert same_gloss("禮服", "禮服也") and same_gloss("衆介", "即衆介")
    assert not same_gloss("家臣", "家臣之長也") and not same_gloss("女父", "女母")


def test_taught_glosses_meet_the_precision_target_on_development_and_held_out_chapters():
    dev = total([s for _, s in score_chapters(DEV, _taught)])
    assert dev.precision >= max(TAUGHT_DEV_PRECISION, TARGET_PRECISION), [(g.context, g.gloss) for g in dev.wrong]
    assert dev.recall >= TAUGHT_DEV_RECALL
    held = total([s for _, s in score_chapters(HELDOUT, _taught)])
    found, precision, recall = held.found, held.precision, held.recall  # totals only, never rows
    assert found >= 15  # enough taught glosses for the figure to mean something
    assert precision >= max(TAUGHT_HELDOUT_PRECISION, TARGET_PRECISION), precision
    assert recall >= TAUGHT_HELDOUT_RECALL, recall


def _shipped(file: str):
    return [g for g in extract_glosses(load_document(BOOK / file)) if g.taught]


def test_the_reviewed_glosses_hold_the_measured_precision_and_raise_recall():
    dev = total([s for _, s in score_chapters(DEV, _shipped)])
    assert dev.precision >= max(SHIPPED_DEV_PRECISION, TARGET_PRECISION), [(g.context, g.gloss) for g in dev.wrong]
    assert dev.recall >= SHIPPED_DEV_RECALL > TAUGHT_DEV_RECALL
    held = total([s for _, s in score_chapters(HELDOUT, _shipped)])
    precision, recall = held.precision, held.recall  # totals only, never rows
    assert precision >= SHIPPED_HELDOUT_PRECISION, precision
    assert recall >= SHIPPED_HELDOUT_RECALL > TAUGHT_HELDOUT_RECALL, recall


def test_the_gate_table_is_the_evidence_measured_now():
    """study/data/glossgate.yaml holds each rule's (correct, found) on the development chapters and
    the seeds; a rule change without ``python bench/glossary.py --write-gate`` fails here."""
    pairs = []
    for path in DEV:
        gold = read_gold(path)
        pairs += judged(gold, _extract(gold.file))
    pairs += judged_seeds(DATA / "glosses_gold.tsv", _seed(XIANGSHE) + _seed(TESHENG))
    measured = {rule: gate.Evidence(c, n) for rule, (c, n) in rule_evidence(pairs).items()}
    assert measured == gate.evidence()


def test_every_extracted_gloss_names_its_rule_and_is_taught_as_the_gate_decides():
    glosses = _extract("KR1d0044_009.txt") + _seed(XIANGSHE)
    sizes = {"short", "mid", "long", "over"}
    assert glosses and all(g.rule.split(":")[0] in {"k", "ku", "p", "u"} for g in glosses)
    assert all(g.rule.split(":")[1] == g.formula and g.rule.rsplit(":", 1)[1] in sizes for g in glosses)
    assert {g.taught for g in glosses} == {True, False}
    # a gloss that says who or which thing is meant is never taught (study/terms/referential.py)
    assert all(
        g.taught == (gate.decide(g.rule, gate.evidence()) and not referential(g.context, g.gloss)) for g in glosses
    )
