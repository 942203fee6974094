"""The teacher's whole flow in a real browser (Debian chromium, Playwright): sign up, create a
class, build a deck with an own term, preview it, download the .apkg (imported here into a real
Anki collection), assign the quiz; a learner joins with the code and answers; the teacher's report
shows the answer."""

from __future__ import annotations

from pathlib import Path

import pytest
from anki.collection import Collection, ImportAnkiPackageRequest

from tests.conftest import SEED_PATHS, serving
from tests.test_browser import ARGS, CHROMIUM, _require_browser


@pytest.fixture
def served(database_url):
    from web import create_app

    texts = [str(p) for p in SEED_PATHS]  # the teacher flow on the seed's 乡射礼 (a known small text)
    app = create_app(
        {"TESTING": True, "SECRET_KEY": "teacher-flow", "DATABASE_URL": database_url, "RANDOM_SEED": 11, "TEXTS": texts}
    )
    with serving(app) as base:
        yield app, base


def test_teacher_builds_assigns_and_reads_the_report(served, tmp_path: Path):
    app, base = served
    sync_playwright = _require_browser()
    with sync_playwright() as p:
        browser = p.chromium.launch(executable_path=str(CHROMIUM), args=ARGS, headless=True)
        try:
            teacher = browser.new_context(accept_downloads=True, locale="zh-CN").new_page()
            teacher.set_default_timeout(10000)
            errors: list[str] = []
            teacher.on("pageerror", lambda e: errors.append(str(e)))

            teacher.goto(f"{base}/teacher/")
            teacher.fill("#signup input[name=name]", "周老师")
            teacher.fill("#signup input[name=password]", "secret123")
            teacher.click("#signup button[type=submit]")
            teacher.fill("#new-class input[name=name]", "射礼班")
            teacher.click("#new-class button[type=submit]")
            code = teacher.locator("#classes td.code").first.inner_text().strip()
            assert len(code) == 6

            teacher.click("text=制作卡组与测验")
            teacher.fill("input[name=name]", "射礼第一周")
            teacher.select_option("#rite", value="000_5ea6dcd6bccc2da6.txt|乡射礼")
            stages = teacher.locator('fieldset.stages[data-rite="000_5ea6dcd6bccc2da6.txt|乡射礼"]')
            stages.locator("select[name=from]").select_option(value="乡射礼.请射")
            stages.locator("select[name=to]").select_option(value="乡射礼.取矢")
            teacher.fill("input[name=limit]", "20")
            teacher.fill("input[name=term_1]", "射位")
            teacher.fill("input[name=gloss_1]", "射者所立之位")
            teacher.select_option("select[name=category_1]", value="place")
            teacher.click("button[value=preview]")
            teacher.wait_for_selector("#previews .preview-pair")
            assert teacher.locator("#previews .card.anki").count() >= 4
            # the first note of each kind is previewed (the teacher's 射位 is checked in the package below)
            assert "词语" in teacher.locator("#previews").inner_text()

            with teacher.expect_download() as info:
                teacher.click("button[value=apkg]")
            apkg = tmp_path / "deck.apkg"
            info.value.save_as(apkg)
            col = Collection(str(tmp_path / "c.anki2"))
            log = col.import_anki_package(ImportAnkiPackageRequest(package_path=str(apkg))).log
            assert len(log.new) > 20
            assert any("射位" in col.get_note(n).fields[0] for n in col.find_notes("射位"))
            col.close()

            teacher.select_option("select[name=class_id]", index=0)
            teacher.click("button[value=assign]")
            teacher.wait_for_selector(".notice")

            learner = browser.new_context(locale="zh-CN").new_page()
            learner.set_default_timeout(10000)
            learner.goto(base + "/")
            learner.fill("input[name=name]", "学生甲")
            learner.fill("input[name=password]", "学生甲的密码-1")
            learner.fill("input[name=class_code]", code)
            learner.click("form.signin button[type=submit]")
            learner.click("text=词语测验 >> nth=0")
            learner.click("#intro-done")  # a new term is introduced before it is asked
            learner.wait_for_selector("#body .option")
            learner.locator("#body .option").first.click()
            with learner.expect_response(lambda r: "/api/answer" in r.url) as answered:
                learner.click("#submit")
            assert answered.value.status == 200
            learner.wait_for_selector("#feedback .verdict")

            teacher.reload()
            table = teacher.locator("#learners").inner_text()
            assert "学生甲" in table and "1" in table
            assert teacher.locator("#items tbody tr").count() >= 1
            assert not errors
        finally:
            browser.close()
