"""End to end in a real browser (headless Debian chromium, as tests/test_browser.py, at phone and
desktop size): a cloze question of the web quiz shows its blank's hint after the blank — the hint its
Anki cloze shows (study/decks/blankhints.py) — as text, and the term typed is graded right. The
stage and the right answer are read from the app's own catalog and question."""

from __future__ import annotations

import pytest

from study.learn.catalog import Kind
from study.learn.passages import BLANK
from tests.conftest import shown
from tests.test_browser import DESKTOP, PHONE, _question, _sign_up, _submit_and_read, book_app, browser  # noqa: F401


@pytest.mark.parametrize("size", [PHONE, DESKTOP], ids=["phone", "desktop"])
def test_a_cloze_question_shows_its_hint_after_the_blank(book_app, browser, size) -> None:  # noqa: F811  # type: ignore[no-untyped-def]
    app, base = book_app
    catalog = app.extensions["study"].catalog
    # a stage of 鄉射禮 whose first passage item (in text order) is a cloze: asked first
    stage = next(
        s
        for s in catalog.stages.values()
        if (first := catalog.select(stages=frozenset({s.id}), family="passage")) and first[0].direction == "cloze"
    )
    page = browser(size)
    _sign_up(page, base)
    page.wait_for_url(base + "/")
    item, question = _question(app, page, lambda: page.goto(base + f"/quiz?kind=passage&stage={stage.id}"))
    assert question.kind == Kind.TYPED and question.direction == "cloze", item["id"]
    hints = [h for h in catalog.hints[item["id"]] if h]
    asked = page.locator("#asked-passage")
    assert asked.inner_text() == question.subject == item["passage"]
    assert f"{BLANK}（{hints[0]}）" in asked.inner_text()
    assert asked.locator("*").count() == 0  # the hint is text, not markup
    assert page.evaluate("() => document.documentElement.scrollWidth") <= size["viewport"]["width"]
    page.fill("#typed", question.accepted[0])
    result = _submit_and_read(page)
    assert result["correct"] is True
    assert shown(app, item).subject == question.subject
    assert page.problems == []  # type: ignore[attr-defined]
