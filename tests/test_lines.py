from __future__ import annotations

from study.model import LineKind
from study.text.lines import classify_lines
from tests.conftest import TEXTS, XIANGSHE


def test_every_line_of_000_is_labelled_as_checked_by_hand(xiangshe, line_labels):
    wrong = []
    for n, kind in enumerate(xiangshe.line_kinds, 1):
        expected = (
            LineKind.TITLE
            if n in line_labels["title"]
            else LineKind.TRANSLATION
            if n in line_labels["translation"]
            else LineKind.CLASSICAL
        )
        if kind != expected:
            wrong.append((n, kind.value, expected.value))
    total = len(xiangshe.line_kinds)
    print(f"line labelling of {XIANGSHE}: {total - len(wrong)}/{total} = {(total - len(wrong)) / total:.1%}")
    assert total == 416
    assert wrong == []


def test_translation_lines_are_reported_in_the_document(xiangshe, line_labels):
    assert xiangshe.translation_lines == sorted(line_labels["translation"])


def test_untranslated_copies_inside_a_block_stay_in_the_block(xiangshe):
    kinds = xiangshe.line_kinds
    for n in (348, 401, 402, 403, 404, 405, 406, 416):
        assert kinds[n - 1] == LineKind.TRANSLATION, n


def test_a_short_classical_line_right_after_a_block_is_classical():
    lines = (TEXTS / XIANGSHE).read_text("utf-8").split("\n")
    kinds = classify_lines(lines)
    assert kinds[67] == LineKind.CLASSICAL  # 未旅, right after the block ending on line 67
    assert kinds[70] == LineKind.CLASSICAL  # 右立司正, right after the one-line block 70


def test_a_text_without_translation_is_all_classical(tesheng):
    assert tesheng.translation_lines == []
    assert {k for k in tesheng.line_kinds} <= {LineKind.CLASSICAL, LineKind.BLANK, LineKind.TITLE}
