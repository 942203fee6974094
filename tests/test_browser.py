"""End to end in a real browser: Debian's chromium driven by Playwright, against the real app
served by werkzeug on a free 127.0.0.1 port (datasette's find_free_port / wait_for_server).

A learner signs in through the form, answers a vocabulary question, orders one sequence with the
mouse (real pointer drag) and another with the keyboard only, reads the feedback, and finds the
reviews on the progress page. The right answers come from the app's own data (the question stored
when it was shown), never from hard-coded text.

Set ``STUDY_SCREENSHOTS=/some/dir`` to keep screenshots of each page for a look by eye.
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from study.decks.items import stage_sequence
from study.learn.catalog import Kind
from study.learn.quiz import Question
from study.learn.schedule import day_start
from tests.conftest import serving
from web import create_app

CHROMIUM = Path("/usr/bin/chromium")
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--no-first-run",
]
LEARNER = "张三"


def _require_browser():  # type: ignore[no-untyped-def]
    """Playwright's sync API, or a skip (locally) / failure (in CI) saying what is missing."""
    try:
        from playwright.sync_api import sync_playwright
    except ImportError as e:
        missing = f"Python playwright is not installed ({e})"
    else:
        if CHROMIUM.is_file() and os.access(CHROMIUM, os.X_OK):
            return sync_playwright
        missing = f"chromium is not installed at {CHROMIUM} (apt-get install chromium)"
    if os.environ.get("CI") == "true":
        pytest.fail(f"the browser test must run in CI: {missing}")
    pytest.skip(missing)


@pytest.fixture
def live_app(tmp_path: Path) -> Iterator[tuple[object, str]]:
    """The real app on a temporary SQLite file, served in a background thread."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'study.sqlite'}",
            "RANDOM_SEED": 7,
            "FSRS_FUZZING": False,
        }
    )
    with serving(app) as base:
        yield app, base


@pytest.fixture
def page(live_app, tmp_path: Path):  # type: ignore[no-untyped-def]
    sync_playwright = _require_browser()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        context = browser.new_context(viewport={"width": 1000, "height": 1100}, locale="zh-CN")
        page = context.new_page()
        page.set_default_timeout(5000)
        problems: list[str] = []
        page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
        page.on("console", lambda m: problems.append(f"console {m.type}: {m.text}") if m.type == "error" else None)
        page.problems = problems  # type: ignore[attr-defined]
        try:
            yield page
        except BaseException:
            page.screenshot(path=str(tmp_path / "failure.png"), full_page=True)
            raise
        finally:
            context.close()
            browser.close()


def _shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    folder = os.environ.get("STUDY_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _learner_id(app) -> int:  # type: ignore[no-untyped-def]
    store = app.extensions["study"].store
    with store.engine.connect() as conn:
        return conn.exec_driver_sql("SELECT id FROM learners WHERE name = ?", (LEARNER,)).scalar_one()


def _shown(app, page, open_item) -> tuple[dict, Question]:  # type: ignore[no-untyped-def]
    """Do ``open_item`` (which makes the page ask /api/next); the item the page received and the
    question the app stored for it."""
    with page.expect_response(lambda r: "/api/next" in r.url) as info:
        open_item()
    item = info.value.json()["item"]
    assert item is not None, "nothing to study"
    page.wait_for_selector("#body > *")
    found = app.extensions["study"].store.question(_learner_id(app), item["id"])
    assert found is not None
    return item, found[0]


def _right_indices(question: Question) -> list[int]:
    """The presented items' indices (the page's data-index) in the right order."""
    return sorted(range(len(question.items)), key=lambda i: question.positions[i])


def _catalog_order(app, item_id: str) -> list[str]:  # type: ignore[no-untyped-def]
    item = app.extensions["study"].catalog.get(item_id)
    start, size = item.window
    return [e.text for e in item.sequence.elements[start : start + size]]


def _order(page) -> list[int]:  # type: ignore[no-untyped-def]
    return [
        int(i) for i in page.locator("#order-list .order-item").evaluate_all("els => els.map(e => e.dataset.index)")
    ]


def _submit_and_read(page) -> dict:  # type: ignore[no-untyped-def]
    with page.expect_response(lambda r: "/api/answer" in r.url) as info:
        page.click("#submit")
    page.wait_for_selector("#feedback .verdict")
    return info.value.json()


def _drag_into_order(page, target: list[int]) -> None:  # type: ignore[no-untyped-def]
    """Selection sort with the mouse: press on an item's handle, move it (in steps, so the
    browser sees a real pointer drag) just below the item that must come before it, release."""
    for k, index in enumerate(target):
        if _order(page)[k] == index:
            continue
        handle = page.locator(f'#order-list .order-item[data-index="{index}"] .handle').bounding_box()
        items = page.locator("#order-list .order-item")
        if k == 0:
            y = items.nth(0).bounding_box()["y"] + 2
        else:
            above = items.nth(k - 1).bounding_box()
            y = above["y"] + above["height"] + 2
        page.mouse.move(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2)
        page.mouse.down()
        page.mouse.move(handle["x"] + handle["width"] / 2, y, steps=12)
        page.mouse.up()
        assert _order(page)[k] == index, f"the drag did not bring item {index} to place {k}: {_order(page)}"


def _focused_index(page) -> int | None:  # type: ignore[no-untyped-def]
    value = page.evaluate("() => document.activeElement && document.activeElement.dataset.index")
    return None if value is None else int(value)


def _tab_to(page, predicate, *, backwards: bool = False, limit: int = 60) -> None:  # type: ignore[no-untyped-def]
    for _ in range(limit):
        if predicate():
            return
        page.keyboard.press("Shift+Tab" if backwards else "Tab")
    raise AssertionError("Tab never reached the element")


def _keyboard_into_order(page, target: list[int]) -> None:  # type: ignore[no-untyped-def]
    """Selection sort with the keyboard only: Tab to an item, ArrowUp until it is in place."""
    for k, index in enumerate(target):
        position = _order(page).index(index)
        if position == k:
            continue
        focused = _focused_index(page)
        backwards = focused is not None and _order(page).index(focused) > position
        _tab_to(page, lambda index=index: _focused_index(page) == index, backwards=backwards)
        for _ in range(position - k):
            page.keyboard.press("ArrowUp")
        assert _order(page)[k] == index


def _answer_choice(app, page, question: Question) -> dict:  # type: ignore[no-untyped-def]
    page.get_by_role("radio", name=question.accepted[0], exact=True).click()
    return _submit_and_read(page)


def test_learner_studies_in_a_real_browser(live_app, page) -> None:  # type: ignore[no-untyped-def]
    app, base = live_app
    catalog = app.extensions["study"].catalog
    answered: list[str] = []

    # sign in through the form
    page.goto(base + "/")
    assert page.locator("html").get_attribute("lang") == "zh-Hans"
    _shot(page, "1-signin")
    page.fill("input[name=name]", LEARNER)
    page.click("form.signin button[type=submit]")
    page.wait_for_url(base + "/")
    assert LEARNER in page.locator("h1").inner_text()

    # a vocabulary question, multiple choice, answered right
    item, question = _shown(app, page, lambda: page.goto(base + "/quiz?kind=vocab"))
    assert question.kind == Kind.CHOICE and item["options"] == list(question.options)
    assert page.locator("#prompt").inner_text() == item["prompt"]
    assert page.locator(".option").all_inner_texts() == list(question.options)
    _shot(page, "2-vocab")
    result = _answer_choice(app, page, question)
    answered.append(item["id"])
    assert result["correct"] is True
    assert page.locator("#feedback .verdict").inner_text().startswith("正确")
    assert page.locator(".option.right").inner_text() == question.accepted[0]
    _shot(page, "2-vocab-feedback")

    # an ordering question, put right with the mouse
    item, question = _shown(app, page, lambda: page.goto(base + "/quiz?kind=order"))
    assert question.kind == Kind.ORDER
    assert list(question.right_order) == _catalog_order(app, item["id"])
    assert page.locator("#order-list .text").all_inner_texts() == list(question.items)
    right = _right_indices(question)
    assert _order(page) != right  # the app never shows a list already in order
    _shot(page, "3-order-before")
    _drag_into_order(page, right)
    assert _order(page) == right
    assert [question.items[i] for i in _order(page)] == _catalog_order(app, item["id"])
    result = _submit_and_read(page)
    answered.append(item["id"])
    assert result["correct"] is True and result["misplaced"] == []
    assert page.locator("#feedback .verdict").inner_text().startswith("正确")
    assert page.locator("#order-list .mark").count() == 0
    shown_right = page.locator("#feedback .right-order li").all_inner_texts()
    assert [s.split("（")[0] for s in shown_right] == list(question.right_order)
    _shot(page, "4-order-mouse-feedback")

    # the next ordering question (answering "which comes next" choices on the way), by keyboard
    for _ in range(5):
        item, question = _shown(app, page, lambda: page.click("#next"))
        if question.kind == Kind.ORDER:
            break
        assert _answer_choice(app, page, question)["correct"] is True
        answered.append(item["id"])
    assert question.kind == Kind.ORDER, "no second ordering question"
    right = _right_indices(question)
    # everything in place but the first two swapped: the feedback must mark exactly those two
    wrong = [right[1], right[0], *right[2:]]
    _keyboard_into_order(page, wrong)
    assert _order(page) == wrong
    _tab_to(page, lambda: page.evaluate("() => document.activeElement.id") == "submit")
    with page.expect_response(lambda r: "/api/answer" in r.url) as info:
        page.keyboard.press("Enter")
    page.wait_for_selector("#feedback .verdict")
    result = info.value.json()
    answered.append(item["id"])
    assert result["correct"] is False and result["misplaced"] == [0, 1]
    assert page.locator("#feedback .verdict").inner_text().startswith("错误")
    marked = page.locator("#order-list .order-item.misplaced")
    assert marked.count() == 2
    assert [int(i) for i in marked.evaluate_all("els => els.map(e => e.dataset.index)")] == wrong[:2]
    assert page.locator("#order-list .mark").all_inner_texts() == ["位置不对", "位置不对"]
    shown_right = page.locator("#feedback .right-order li").all_inner_texts()
    assert [s.split("（")[0] for s in shown_right] == _catalog_order(app, item["id"])
    _shot(page, "5-order-keyboard-feedback")

    # the progress page counts every review
    page.goto(base + "/progress")
    _shot(page, "6-progress")
    seen = {}
    for row in page.locator("table.stats tbody tr").all():
        seen[row.locator("th").inner_text()] = int(row.locator("td.seen").inner_text())
    expected = {rite: 0 for rite in catalog.rites}
    for item_id in answered:
        expected[catalog.get(item_id).rite] += 1
    assert seen == expected and sum(seen.values()) == len(answered)
    for chart in ("recall-chart", "forecast-chart", "accuracy-chart"):
        assert page.locator(f"#{chart} svg rect.bar").count() > 0
    forecast = page.locator("#forecast-chart text.val").all_text_contents()
    cards = app.extensions["study"].store.cards(_learner_id(app))
    assert sorted(cards) == sorted(answered)
    this_week = day_start(datetime.now(UTC)) + timedelta(days=7)
    assert sum(int(v) for v in forecast) == sum(1 for c in cards.values() if c.due < this_week)
    accuracy = page.locator("#accuracy-chart text.val").all_text_contents()
    assert accuracy[-1] == f"{len(answered) - 1}/{len(answered)}" and set(accuracy[:-1]) == {"–"}
    # the stage whose steps were just ordered is coloured on the rite's timeline, the others not
    state = app.extensions["study"]
    ordered = catalog.get(item["id"])
    stages = stage_sequence(state.document_of(ordered.rite).rite(ordered.rite)).elements
    place = [e.id for e in stages].index(ordered.stage_id)
    timeline = page.locator("section.timeline", has=page.locator("h3", has_text=ordered.rite))
    cells = timeline.locator("ol.stages > li")
    assert timeline.locator(".classical").all_inner_texts() == [e.text for e in stages]
    mastery = cells.locator(".mastery").all_inner_texts()
    assert mastery[place].endswith("%")
    assert mastery[:place] + mastery[place + 1 :] == ["未学"] * (len(stages) - 1)
    assert page.problems == []  # type: ignore[attr-defined]
