"""The hand review of withheld glosses (study/data/glossreview/, study/terms/review.py): every row
meets a gloss the extractor reads in the book, every fix is the commentary's own words at its line,
and the verdicts decide what is taught."""

from __future__ import annotations

from collections import defaultdict

import pytest

from study.build import load_document
from study.errors import GlossaryError
from study.model import Gloss
from study.terms.gate import taught as gate_taught
from study.terms.glosses import _contexts, extract_glosses
from study.terms.referential import referential
from study.terms.review import parse_review, parse_second, reviewed, seconds, signed
from study.text.normalize import normalize
from tests.conftest import TEXTS


@pytest.fixture(scope="module")
def by_file() -> dict[str, list[Gloss]]:
    files = sorted({file for file, *_ in reviewed()})
    return {f: extract_glosses(load_document(TEXTS / f)) for f in files}


def test_every_review_row_meets_a_gloss_the_extractor_reads(by_file):
    found = {(g.file, g.line, g.context, g.gloss) for gs in by_file.values() for g in gs}
    stale = sorted((v.where, k) for k, v in reviewed().items() if k not in found)
    assert not stale, f"review rows no gloss of the extractor meets (re-read them): {stale[:5]}"


def test_the_verdicts_decide_what_is_taught(by_file):
    """Taught: read right (or re-cut) by the first reader and signed by the second — unless it says
    who or which thing is meant in its passage (study/terms/referential.py overrides the readers:
    房 = 東房 is true of 001:125, the 义→词 card would ask 東房 for 房)."""
    glosses = {(g.file, g.line, g.context, g.gloss): g for gs in by_file.values() for g in gs}
    for key, v in reviewed().items():
        file, line, term, gloss = key
        meant = referential(term, gloss) is not None
        assert glosses[key].taught is (v.verdict == "right" and signed(key) and not meant), v.where
        if v.verdict == "fixed":
            cut = (file, line, v.term_fix, v.gloss_fix)
            fixed = glosses.get(cut)
            assert fixed is not None and fixed.rule.startswith("review:"), v.where
            assert fixed.taught is (signed(cut) and referential(v.term_fix, v.gloss_fix) is None), v.where


def test_the_second_reader_read_only_what_the_first_signed():
    first = reviewed()
    signed_first = {k for k, v in first.items() if v.verdict == "right"}
    signed_first |= {(k[0], k[1], v.term_fix, v.gloss_fix) for k, v in first.items() if v.verdict == "fixed"}
    stray = sorted(v.where for k, v in seconds().items() if k not in signed_first)
    assert not stray, f"second readings of glosses the first reader did not sign: {stray[:5]}"


def test_a_second_reading_names_its_line_when_malformed():
    with pytest.raises(GlossaryError) as err:
        parse_second(
            "5\t采\t擇取\tagree\n6\t筵\t設神席\tdisagree\n7\t筵\t設神席\tyes\tx\n", "KR1d0044_002.txt", "s.tsv"
        )
    message = str(err.value)
    assert "s.tsv:2: reason: a disagreement says why" in message
    assert "s.tsv:3: verdict: must be one of agree, disagree, not 'yes'" in message


def test_every_fix_is_the_commentarys_own_words_at_its_line_and_its_term_a_word_of_the_text():
    fixes = [(k, v) for k, v in reviewed().items() if v.verdict == "fixed"]
    docs = {f: load_document(TEXTS / f) for f in {k[0] for k, _ in fixes}}
    for (file, line, _, _), v in fixes:
        near = defaultdict(str)
        for ctx, seg in _contexts(docs[file]):
            if seg.line_at(0) - 1 <= line <= seg.line_at(max(len(seg.text) - 1, 0)) + 1:
                near["note"] += seg.text
                near["text"] += ctx.rite_text + ctx.classical
        assert v.term_fix in near["note"] and v.gloss_fix in near["note"], f"{v.where}: not in the commentary there"
        assert normalize(v.term_fix) in near["text"], f"{v.where}: {v.term_fix} is not a word of the text"
        assert not v.gloss_fix.endswith("也"), v.where


def test_a_reviewed_gloss_is_taught_though_its_rule_is_withheld(by_file):
    """What the review adds: glosses the gate alone would not teach."""
    right = [k for k, v in reviewed().items() if v.verdict == "right" and signed(k)]
    glosses = {(g.file, g.line, g.context, g.gloss): g for gs in by_file.values() for g in gs}
    added = [k for k in right if not gate_taught(glosses[k].rule) and glosses[k].taught]
    assert len(added) >= 500  # 1,185 taught on the whole book with the review, 561 by the gate alone


def test_a_malformed_row_is_refused_naming_its_line():
    text = "# line\tterm\tgloss\tverdict\treason\n12\t采\t擇取\tright\n13\t筵\t設神席\tmaybe\n14\t干\t侯豻侯\tfixed\tboundary\n"
    with pytest.raises(GlossaryError) as err:
        parse_review(text, "KR1d0044_002.txt", "r.tsv")
    message = str(err.value)
    assert "r.tsv:3: verdict: must be one of right, wrong, fixed, not 'maybe'" in message
    assert "r.tsv:4: term_fix and gloss_fix" in message


def test_a_wrong_verdict_gives_its_reason_and_a_row_is_read_once():
    with pytest.raises(GlossaryError) as err:
        parse_review("5\t俟\t俟射\twrong\n6\t采\t擇取\tright\n6\t采\t擇取\tright\n", "KR1d0044_004.txt", "r.tsv")
    message = str(err.value)
    assert "r.tsv:1: reason: a wrong gloss says why" in message
    assert "r.tsv:3: 采 → 擇取 at line 6 is read twice (first at r.tsv:2)" in message
    good = parse_review("6\t采\t擇取\tright\n7\t干\t侯豻侯\tfixed\tboundary\t干侯\t豻侯\n", "KR1d0044_004.txt", "r.tsv")
    assert good[("KR1d0044_004.txt", 7, "干", "侯豻侯")].term_fix == "干侯"
