"""The precision gate (study/terms/gate.py): which extraction rules are taught, on what evidence."""

from __future__ import annotations

import pytest

from study.build import load_document, load_terms
from study.terms import gate
from study.terms.gate import Evidence, decide, size_class, wilson_lower
from tests.conftest import TEXTS, XIANGSHE

from .test_gloss_gold import BOOK


def test_the_wilson_lower_bound_is_below_the_observed_share_and_rises_with_evidence():
    assert wilson_lower(0, 0) == 0.0
    assert wilson_lower(10, 10) == pytest.approx(0.787, abs=0.001)  # one-sided 95 %: z = 1.645
    assert wilson_lower(10, 10) < wilson_lower(40, 40) < 1.0
    assert wilson_lower(39, 40) < 39 / 40


def test_a_rule_with_an_error_must_pass_on_its_own_evidence():
    table = {"k:ye:a:end:short": Evidence(60, 60), "k:ye:b:end:short": Evidence(9, 10)}
    assert decide("k:ye:a:end:short", table)
    assert not decide("k:ye:b:end:short", table)  # 0.9 observed, lower bound far below


def test_a_rare_rule_without_error_is_judged_by_its_family():
    sound = {"k:ye:a:end:short": Evidence(60, 60), "k:you:c:end:short": Evidence(2, 2)}
    assert decide("k:you:c:end:short", sound)
    weak = {"k:ye:a:end:mid": Evidence(50, 60), "k:you:c:end:mid": Evidence(2, 2)}
    assert not decide("k:you:c:end:mid", weak)
    assert family_of_seeds_is_not_the_books()


def family_of_seeds_is_not_the_books() -> bool:
    table = {"k:ye:a:end:short": Evidence(60, 60), "p:ye:c:ye-next:short": Evidence(2, 2)}
    return not decide("p:ye:c:ye-next:short", table)


def test_a_rule_saying_whom_a_word_points_at_is_never_taught_whatever_its_evidence():
    """子指宗人 (016:72), 一人拜受爵謂太師也 (006:252): right where they stand, but not what the word
    means; their reverse cards would ask 宗人 → 子, 太師 → 一人."""
    table = {"k:wei:zhi:end:short": Evidence(30, 30), "k:ye:walk-bare:end:short": Evidence(300, 300)}
    assert not decide("k:wei:zhi:end:short", table)
    assert not decide("k:wei:doer-phrase:end:short", {"k:wei:doer-phrase:end:short": Evidence(30, 30)})
    assert decide("k:ye:walk-bare:end:short", table)
    from study.terms.glosses import extract_glosses

    (zi,) = [g for g in extract_glosses(load_document(BOOK / "KR1d0044_016.txt")) if (g.line, g.gloss) == (72, "宗人")]
    assert zi.rule.startswith("k:wei:zhi:") and not zi.taught


def test_unmeasured_rules_and_glosses_beyond_vocabulary_are_withheld_curated_ones_taught():
    table = {"k:ye:a:end:over": Evidence(100, 100)}
    assert not decide("k:ye:a:end:over", table) and not decide("k:ye:z:end:short", table)
    assert decide("curated", {})
    assert size_class("采", "擇取") == "short" and size_class("摯", "執之而至以將其厚意者") == "long"
    assert (
        size_class("左頭奉之", "奉雉者必以頭向左") == "over"
        and size_class("賓", "一二三四五六七八九十一二三") == "over"
    )


def test_the_shipped_table_says_what_it_decides():
    table = gate.evidence()
    assert table and any(decide(r, table) for r in table) and not all(decide(r, table) for r in table)
    dumped = gate.dump(table)
    for rule in table:
        assert f'"{rule}"' in dumped and ("taught" if decide(rule, table) else "withheld") in dumped


def test_terms_for_decks_and_quiz_hold_only_taught_glosses_and_the_review_list_holds_all():
    docs = [load_document(BOOK / "KR1d0044_009.txt")]
    taught = load_terms(docs)
    everything = load_terms(docs, withheld=True)
    assert all(g.taught for t in taught for g in t.glosses)
    withheld = [g for t in everything for g in t.glosses if not g.taught]
    assert withheld and all(g.formula != "curated" for g in withheld)
    assert len(taught) < len(everything)


def test_the_seed_texts_teach_their_curated_glosses(xiangshe):
    terms = load_terms([load_document(TEXTS / XIANGSHE)])
    assert terms and all(g.taught for t in terms for g in t.glosses)
    assert any(g.formula == "curated" for t in terms for g in t.glosses)
