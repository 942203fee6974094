"""End to end in a real browser: Debian's chromium driven by Playwright, against the real app
served by werkzeug on a free 127.0.0.1 port, at desktop size (mouse, keyboard) and at phone size
(390×844, touch).

A learner signs up through the form, reads an introduction, answers its question with the
keyboard, rates themselves, orders sequences with the mouse, the keyboard and a finger, studies a
chosen stage, answers in two tabs, replays an answer, and finds the reviews on the progress page;
a stranger fails to sign in as them. The right answers come from the app's own data (the question
rebuilt from the token the page was given), never from hard-coded text; rites and stages are read
from the catalog.

Set ``STUDY_SCREENSHOTS=/some/dir`` to keep screenshots of each page (the README's phone
screenshots are made so, from the seed texts).
"""

from __future__ import annotations

import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from study.learn.catalog import Kind, item_stages
from study.learn.quiz import Question
from tests.conftest import SEED_PATHS, serving, shown
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
PASSWORD = "张三的密码-2026"
PHONE = {"viewport": {"width": 390, "height": 844}, "has_touch": True, "is_mobile": True, "device_scale_factor": 2}
DESKTOP = {"viewport": {"width": 1000, "height": 1100}}


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


def _served(tmp_path: Path, texts: list[Path]) -> Iterator[tuple[object, str]]:
    """The real app on ``texts`` and a temporary SQLite file, served in a background thread."""
    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "browser-test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'study.sqlite'}",
            "RANDOM_SEED": 7,
            "FSRS_FUZZING": False,
            "TEXTS": [str(p) for p in texts],
        }
    )
    with serving(app) as base:
        yield app, base


@pytest.fixture
def live_app(tmp_path: Path) -> Iterator[tuple[object, str]]:
    """The real app on the seed texts."""
    yield from _served(tmp_path, SEED_PATHS)


@pytest.fixture
def browser(tmp_path: Path):  # type: ignore[no-untyped-def]
    sync_playwright = _require_browser()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        pages: list = []

        def open_page(size: dict = DESKTOP):  # type: ignore[no-untyped-def]
            context = browser.new_context(locale="zh-CN", **size)
            page = context.new_page()
            page.set_default_timeout(5000)
            problems: list[str] = []
            page.on("pageerror", lambda e: problems.append(f"page error: {e}"))
            page.on(
                "console",
                lambda m: (
                    problems.append(f"console {m.type}: {m.text}")
                    if m.type == "error" and "401" not in m.text and "409" not in m.text
                    else None
                ),
            )
            page.problems = problems  # type: ignore[attr-defined]
            pages.append(page)
            return page

        try:
            yield open_page
        except BaseException:
            for n, page in enumerate(pages):
                page.screenshot(path=str(tmp_path / f"failure-{n}.png"), full_page=True)
            raise
        finally:
            browser.close()


def _shot(page, name: str) -> None:  # type: ignore[no-untyped-def]
    folder = os.environ.get("STUDY_SCREENSHOTS")
    if folder:
        Path(folder).mkdir(parents=True, exist_ok=True)
        page.screenshot(path=str(Path(folder) / f"{name}.png"), full_page=True)


def _sign_up(page, base: str, name: str = LEARNER, password: str = PASSWORD) -> None:  # type: ignore[no-untyped-def]
    page.goto(base + "/")
    page.fill("input[name=name]", name)
    page.fill("input[name=password]", password)
    page.click("form.signin button[type=submit]")


def _item(page, action) -> dict:  # type: ignore[no-untyped-def]
    """Do ``action`` (which makes the page ask /api/next): the item the page received."""
    with page.expect_response(lambda r: "/api/next" in r.url) as info:
        action()
    item = info.value.json()["item"]
    assert item is not None, "nothing to study"
    page.wait_for_selector("#body > *")
    return item


def _question(app, page, action, shot: str | None = None) -> tuple[dict, Question]:  # type: ignore[no-untyped-def]
    """The next question, reading any introduction on the way (as a learner would)."""
    item = _item(page, action)
    while item["kind"] == "intro":
        assert page.locator("#prompt").inner_text() == "新内容"
        if shot:
            _shot(page, shot)
        item = _item(page, lambda: page.click("#intro-done"))
    return item, shown(app, item)


def _right_indices(question: Question) -> list[int]:
    """The presented items' indices (the page's data-index) in the right order."""
    return sorted(range(len(question.items)), key=lambda i: question.positions[i])


def _order(page) -> list[int]:  # type: ignore[no-untyped-def]
    return [
        int(i) for i in page.locator("#order-list .order-item").evaluate_all("els => els.map(e => e.dataset.index)")
    ]


def _submit_and_read(page, submit=None) -> dict:  # type: ignore[no-untyped-def]
    with page.expect_response(lambda r: "/api/answer" in r.url) as info:
        (submit or (lambda: page.click("#submit")))()
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


class Finger:
    """A finger on a phone's screen: touch events through the DevTools protocol (Playwright's
    touchscreen only taps)."""

    def __init__(self, page) -> None:  # type: ignore[no-untyped-def]
        self.page = page
        self.cdp = page.context.new_cdp_session(page)

    def _send(self, kind: str, x: float, y: float) -> None:
        points = [] if kind == "touchEnd" else [{"x": x, "y": y}]
        self.cdp.send("Input.dispatchTouchEvent", {"type": kind, "touchPoints": points})

    def drag(self, x: float, y: float, to_y: float, steps: int = 16, hold: int = 0) -> None:
        self._send("touchStart", x, y)
        for k in range(1, steps + 1):
            self._send("touchMove", x, y + (to_y - y) * k / steps)
            self.page.wait_for_timeout(16)
        for _ in range(hold):  # keep the finger still (near the screen's edge: the page scrolls)
            self._send("touchMove", x, to_y)
            self.page.wait_for_timeout(50)
        self._send("touchEnd", x, to_y)
        self.page.wait_for_timeout(50)


def _settle(page) -> None:  # type: ignore[no-untyped-def]
    """Wait until the page stops scrolling (a tap during a fling only stops the fling)."""
    last = None
    for _ in range(40):
        now = page.evaluate("() => window.scrollY")
        if now == last:
            return
        last = now
        page.wait_for_timeout(100)


def _touch_into_order(page, finger: Finger, target: list[int]) -> None:  # type: ignore[no-untyped-def]
    """Selection sort with a finger on each item's handle."""
    for k, index in enumerate(target):
        if _order(page)[k] == index:
            continue
        items = page.locator("#order-list .order-item")
        items.nth(k).scroll_into_view_if_needed()
        handle = page.locator(f'#order-list .order-item[data-index="{index}"] .handle')
        handle.scroll_into_view_if_needed()
        box = handle.bounding_box()
        place = items.nth(k).bounding_box()
        finger.drag(box["x"] + box["width"] / 2, box["y"] + box["height"] / 2, place["y"] + 3)
        assert _order(page)[k] == index, f"the finger did not bring item {index} to place {k}: {_order(page)}"


def test_a_learner_signs_up_is_taught_then_tested_and_rates_themselves(live_app, browser) -> None:  # type: ignore[no-untyped-def]
    app, base = live_app
    page = browser(DESKTOP)
    _sign_up(page, base)
    page.wait_for_url(base + "/")
    assert LEARNER in page.locator("h1").inner_text()
    assert page.locator("#dashboard #due-count").inner_text() == "0"

    # the first thing met is an introduction: term, reading, glosses with commentators, example
    intro = _item(page, lambda: page.goto(base + "/quiz?kind=vocab"))
    assert intro["kind"] == "intro"
    taught = intro["intro"]
    assert page.locator(".teaching .term").inner_text() == taught["term"]
    assert page.locator(".teaching .reading").inner_text() == taught["reading"]
    assert page.locator(".teaching mark").inner_text() in (taught["term"], taught["term"].strip())
    commentators = [g["commentator"] for g in taught["glosses"] if g["commentator"]]
    assert commentators and commentators[0] in page.locator(".teaching .glosses").inner_text()
    _shot(page, "desktop-1-intro")

    # then its question: chosen with the keyboard (1–4, Enter)
    item = _item(page, lambda: page.click("#intro-done"))
    assert item["fact"] == intro["fact"] and item["kind"] == "choice"
    question = shown(app, item)
    key = str(list(question.options).index(question.accepted[0]) + 1)
    page.keyboard.press(key)
    assert page.locator(f'.option[data-key="{key}"]').get_attribute("aria-checked") == "true"
    result = _submit_and_read(page, lambda: page.keyboard.press("Enter"))
    assert result["correct"] is True and result["rating"] == "good"
    assert page.locator("#feedback .verdict").inner_text().startswith("正确")
    assert page.locator("#feedback .teaching .term").inner_text() == taught["term"]
    assert page.locator("#due-line").inner_text().endswith("分钟后")
    # the learner rates themselves: each button shows when the item would come back
    buttons = page.locator(".self-rating .rate")
    assert buttons.count() == 5
    easy = next(c for c in result["choices"] if c["rating"] == "easy")
    assert page.locator('.rate[data-rating="easy"] .rate-when').inner_text() == easy["due_in"]
    with page.expect_response(lambda r: "/api/rate" in r.url) as info:
        page.click('.rate[data-rating="easy"]')
    assert info.value.json()["due"] == easy["due"]
    page.wait_for_function("() => document.getElementById('due-line').textContent.startsWith('已记下')")
    assert "简单" in page.locator("#due-line").inner_text()
    _shot(page, "desktop-2-rated")
    card = app.extensions["study"].store.cards(1)[item["id"]]
    assert card.due.isoformat() == easy["due"]

    # an ordering question, put right with the mouse (by the handle)
    item, question = _question(app, page, lambda: page.goto(base + "/quiz?kind=order"))
    assert question.kind == Kind.ORDER and 3 <= len(item["items"]) <= 8
    right = _right_indices(question)
    assert _order(page) != right
    _drag_into_order(page, right)
    result = _submit_and_read(page)
    assert result["correct"] is True and result["misplaced"] == []
    shown_right = page.locator("#feedback .right-order li").all_inner_texts()
    assert [s.split("（")[0] for s in shown_right] == list(question.right_order)

    # the progress page counts both reviews and says what 已掌握 means
    page.goto(base + "/progress")
    seen = sum(int(x) for x in page.locator("table.stats td.seen").all_inner_texts())
    assert seen == 2
    assert "21 天" in page.locator("#mastered-note").inner_text()
    assert page.problems == []  # type: ignore[attr-defined]


def test_a_stranger_fails_to_sign_in_as_an_existing_learner(live_app, browser) -> None:  # type: ignore[no-untyped-def]
    app, base = live_app
    owner = browser(DESKTOP)
    _sign_up(owner, base)
    owner.wait_for_url(base + "/")
    stranger = browser(PHONE)
    _sign_up(stranger, base, LEARNER, "我猜的密码-123")
    assert stranger.locator("form.signin .error").inner_text() == "姓名或密码不对"
    assert stranger.locator("form.signin").count() == 1
    assert stranger.context.request.get(base + "/api/progress").status == 401
    _shot(stranger, "phone-0-stranger")


def test_on_a_phone_a_chosen_stage_and_an_ordering_window_sorted_by_touch(live_app, browser) -> None:  # type: ignore[no-untyped-def]
    app, base = live_app
    catalog = app.extensions["study"].catalog
    page = browser(PHONE)
    _sign_up(page, base)
    page.wait_for_url(base + "/")
    # the header is one line, nothing is wider than the screen
    header = page.locator("header.top").bounding_box()
    assert header["height"] < 60
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    _shot(page, "phone-1-home")

    # a stage whose steps are ordered, chosen on the home page (read from the catalog)
    stage = next(
        s
        for s in catalog.stages.values()
        if any(i.direction == "steps" for i in catalog.select(stages=frozenset({s.id}), family="order"))
    )
    page.select_option("#stage-from", stage.id)
    page.select_option("#stage-kind", "order")
    item, question = _question(app, page, lambda: page.click("#stage-pick button[type=submit]"), "phone-2-intro")
    for _ in range(8):
        if question.kind == Kind.ORDER:
            break
        page.get_by_role("radio", name=question.accepted[0]).tap()  # "which comes next" on the way
        _submit_and_read(page, lambda: page.locator("#submit").tap())
        item, question = _question(app, page, lambda: page.locator("#next").tap())
    assert item is not None and question.kind == Kind.ORDER
    assert stage.id in item_stages(catalog.get(item["id"]))
    assert len(item["items"]) <= 8
    _shot(page, "phone-2-order")

    finger = Finger(page)
    # a swipe over an item's text scrolls the page and moves nothing
    before = _order(page)
    page.evaluate("() => window.scrollTo(0, 0)")
    text = page.locator("#order-list .order-item .text").last.bounding_box()
    scrollable = page.evaluate("() => document.documentElement.scrollHeight > window.innerHeight")
    finger.drag(text["x"] + 10, text["y"] + text["height"] / 2, text["y"] - 250)
    assert _order(page) == before
    if scrollable:
        assert page.evaluate("() => window.scrollY") > 0
    # dragging a handle to the screen's edge scrolls the page under it (a short screen: the list
    # is longer than the window), and the item goes along
    page.set_viewport_size({"width": 390, "height": 420})
    page.evaluate("() => window.scrollTo(0, 0)")
    first_item = _order(page)[0]
    handle = page.locator("#order-list .order-item .handle").first.bounding_box()
    finger.drag(handle["x"] + handle["width"] / 2, handle["y"] + handle["height"] / 2, 410, hold=20)
    assert page.evaluate("() => window.scrollY") > 0
    assert _order(page).index(first_item) > 0
    page.set_viewport_size(PHONE["viewport"])
    _settle(page)
    # tap an item, then tap where it goes
    right = _right_indices(question)
    first = page.locator(f'#order-list .order-item[data-index="{right[0]}"] .text')
    first.scroll_into_view_if_needed()
    first.tap()
    page.locator("#order-list .order-item .text").first.tap()
    assert _order(page)[0] == right[0]
    # the rest by dragging each handle with a finger
    _touch_into_order(page, finger, right)
    assert _order(page) == right
    page.wait_for_function("() => !document.querySelector('.order-item.dragging')")
    _settle(page)
    result = _submit_and_read(page, lambda: page.locator("#submit").tap())
    assert result["correct"] is True
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    _shot(page, "phone-3-order-feedback")

    page.goto(base + "/progress")
    assert page.evaluate("() => document.documentElement.scrollWidth") <= 390
    rite_cell = page.locator("table.stats tbody th").first.bounding_box()
    assert rite_cell["height"] < 40  # a rite's name on one line, not a character per line
    _shot(page, "phone-4-progress")
    assert page.problems == []  # type: ignore[attr-defined]


def test_two_tabs_answer_their_own_shuffles_and_a_replayed_answer_counts_once(live_app, browser) -> None:  # type: ignore[no-untyped-def]
    app, base = live_app
    page = browser(DESKTOP)
    _sign_up(page, base)
    page.wait_for_url(base + "/")
    first, q1 = _question(app, page, lambda: page.goto(base + "/quiz?kind=order"))
    assert q1.kind == Kind.ORDER
    other = page.context.new_page()
    second = _item(other, lambda: other.goto(base + "/quiz?kind=order"))
    assert second["id"] == first["id"] and second["token"] != first["token"]
    q2 = shown(app, second)
    # the second tab answers first, then the first tab: each graded against what it shows
    _drag_into_order(other, _right_indices(q2))
    assert _submit_and_read(other)["correct"] is True
    _drag_into_order(page, _right_indices(q1))
    with page.expect_request(lambda r: "/api/answer" in r.url) as sent:
        result = _submit_and_read(page)
    assert result["correct"] is True
    body = sent.value.post_data_json
    assert body["token"] == first["token"] and body["answer_id"]
    # the same post again (a retry, a double tap): the first result, counted once
    replay = page.evaluate(
        """async (body) => {
            const r = await fetch('/api/answer', {method: 'POST', credentials: 'same-origin',
              headers: {'Content-Type': 'application/json', 'X-CSRFToken': document.getElementById('quiz').dataset.csrf},
              body: JSON.stringify(body)});
            return await r.json();
        }""",
        body,
    )
    assert replay == result
    logs = app.extensions["study"].store.logs(1)
    assert [log.item_id for log in logs] == [first["id"], first["id"]]
    assert app.extensions["study"].store.cards(1)[first["id"]].reps == 2


@pytest.fixture
def book_app(tmp_path: Path) -> Iterator[tuple[object, str]]:
    """The real app on one chapter of the book (traditional characters: 鄉射禮)."""
    from study.paths import texts_dir

    yield from _served(tmp_path, [texts_dir() / "KR1d0044_004.txt"])


def test_the_simplified_display_converts_the_page_and_answers_still_count(book_app, browser) -> None:  # type: ignore[no-untyped-def]
    """简体 converts what the page shows with the app's own table, stays on across pages in this
    browser, leaves what is submitted alone (the answer is graded right), and 原文 turns it off."""
    app, base = book_app
    page = browser(PHONE)
    _sign_up(page, base)
    page.wait_for_url(base + "/")
    table = page.context.request.get(base + "/script/t2s.json").json()

    def simplified(text: str) -> str:
        return "".join(table.get(ch, ch) for ch in text)

    intro = _item(page, lambda: page.goto(base + "/quiz?kind=vocab"))
    assert intro["kind"] == "intro"
    passage = page.locator(".teaching").inner_text()  # the glosses and the example in its passage
    assert simplified(passage) != passage, "the introduction should hold a character 简体 changes"
    toggle = page.locator("#script-toggle")
    assert toggle.inner_text() == "简体" and toggle.get_attribute("aria-pressed") == "false"

    again = _item(page, lambda: toggle.click())  # the page reloads and asks /api/next again
    assert again["fact"] == intro["fact"] and again["kind"] == "intro"
    page.wait_for_function("want => document.querySelector('.teaching').innerText === want", arg=simplified(passage))
    assert page.locator("#script-toggle").inner_text() == "原文"
    assert page.locator("#script-toggle").get_attribute("aria-pressed") == "true"
    assert page.locator(".teaching .term").inner_text() == simplified(intro["intro"]["term"])

    # the question is answered on the converted page: what is sent is the app's own option
    item = _item(page, lambda: page.click("#intro-done"))
    question = shown(app, item)
    key = str(list(question.options).index(question.accepted[0]) + 1)
    page.keyboard.press(key)
    result = _submit_and_read(page, lambda: page.keyboard.press("Enter"))
    assert result["correct"] is True

    # another page of the app is converted too, and 原文 turns it off again
    page.goto(base + "/progress")
    page.wait_for_selector("#script-toggle")
    assert page.locator("#script-toggle").inner_text() == "原文"
    heading = page.locator("h1").inner_text()
    with page.expect_navigation():
        page.click("#script-toggle")
    page.wait_for_selector("#script-toggle")
    assert page.locator("#script-toggle").inner_text() == "简体"
    assert page.locator("h1").inner_text() == heading or simplified(page.locator("h1").inner_text()) == heading
    assert page.problems == []  # type: ignore[attr-defined]
