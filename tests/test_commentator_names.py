"""A commentator the book calls by a courtesy name (康成, 敖君善, 郝仲輿) is shown with the person's
usual name beside it — 「康成（鄭玄）曰」 — on Anki cards and in the web quiz, in the book's
traditional script; a name that is already the usual one (萬斯大, 蔡德晉) is shown once. Matching
(who said a gloss) reads the table in normalised form and is unchanged."""

from __future__ import annotations

import re
from importlib import resources

import opencc
import pytest
import yaml
from anki.collection import Collection, ImportAnkiPackageRequest
from click.testing import CliRunner

from study.cli import cli
from study.decks.apkg import NAMES
from study.learn.teach import teaching
from study.text.translation import known_as, person, usual_name
from tests import test_browser
from tests.conftest import ROOT, Api, shown
from tests.test_browser import PHONE, _item, _served, _sign_up

# Names OpenCC's s2t writes wrongly, each checked by hand: the value stands, s2t's form beside it.
S2T_ERRS = {"范汪": "範汪"}  # the surname 范 is not 範 (范汪, 東晉)


def _table() -> dict[str, str]:
    raw = resources.files("study").joinpath("data/commentators.yaml").read_text("utf-8")
    return {str(k): str(v) for k, v in yaml.safe_load(raw).items()}


def test_every_usual_name_of_the_table_is_written_in_traditional_characters():
    s2t = opencc.OpenCC("s2t")
    wrong = {v: s2t.convert(v) for v in set(_table().values()) if s2t.convert(v) != v and v not in S2T_ERRS}
    assert wrong == {}  # a simplified value (郑玄, 贾公彦) converts to another form
    assert {v: s2t.convert(v) for v in S2T_ERRS} == S2T_ERRS  # each exception still what was reviewed
    assert set(S2T_ERRS) <= set(_table().values())


def test_who_said_a_gloss_is_matched_as_before_in_normalised_form():
    assert person("康成") == person("鄭玄") == person("郑玄") == "郑玄"
    assert person("郝仲輿") == "郝敬" and person("任翼聖") == "任启运" and person("賈洺州") == "贾公彦"
    assert person("范汪") == "范汪" and person("黃直卿") == "黄干"


def test_a_courtesy_name_has_the_usual_name_beside_it_and_a_usual_name_is_shown_once():
    assert known_as("康成") == "康成（鄭玄）" and known_as("鄭康成") == "鄭康成（鄭玄）"
    assert known_as("敖君善") == "敖君善（敖繼公）" and known_as("郝仲輿") == "郝仲輿（郝敬）"
    assert known_as("華霞峰") == "華霞峰（華學泉）" and known_as("楊信齋") == "楊信齋（楊復）"
    assert known_as("朱熹") == "朱熹" and known_as("萬斯大") == "萬斯大"
    assert known_as("賈公彦") == "賈公彦"  # the book's 彦 and the table's 彥 are one name
    assert known_as("蔡德晉") == "蔡德晉" and known_as("《说文解字》") == "《说文解字》"  # not in the table
    assert usual_name("康成") == "鄭玄" and usual_name("朱熹") is None and usual_name(None) is None


def _visible(html: str) -> str:
    return re.sub(r"<style.*?</style>|<[^>]+>|\s", "", html, flags=re.S)


@pytest.fixture(scope="module")
def imported(tmp_path_factory) -> dict[str, dict[str, str]]:
    """Notes of 士喪禮上 (卷十二) and 鄉射禮 as a real Anki collection holds them, by front field."""
    folder = tmp_path_factory.mktemp("names")
    col = Collection(str(folder / "collection.anki2"))
    try:
        for spec in ("12-shisanglishang", "xiangshe"):
            out = folder / f"{spec}.apkg"
            result = CliRunner().invoke(cli, ["build", str(ROOT / "decks" / f"{spec}.yaml"), "-o", str(out)])
            assert result.exit_code == 0, result.output
            col.import_anki_package(ImportAnkiPackageRequest(package_path=str(out)))
        notes: dict[str, dict[str, str]] = {}
        for nid in col.find_notes(""):
            note = col.get_note(nid)
            answer = _visible(note.cards()[0].answer())
            notes[f"{note.note_type()['name']}:{note.fields[0]}:{nid}"] = {**dict(note.items()), "_answer": answer}
        return notes
    finally:
        col.close()


def _term(notes: dict[str, dict[str, str]], term: str, rite: str) -> dict[str, str]:
    return next(n for k, n in notes.items() if k.startswith(f"{NAMES['term']}:{term}:") and rite in n["Context"])


def test_a_gloss_of_kangcheng_names_zheng_xuan_on_its_built_card(imported):
    you = _term(imported, "纋", "士喪禮")  # 「康成曰纋冠之垂者」
    assert you["Source"].endswith(" · 康成（鄭玄）曰") and "康成（鄭玄）曰" in you["_answer"]
    bo = _term(imported, "博", "鄉射禮")
    assert bo["Source"].endswith(" · 鄭康成（鄭玄）曰")


def test_a_commentator_written_by_the_usual_name_is_named_once_on_the_card(imported):
    zao = _term(imported, "蚤", "士喪禮")
    assert zao["Source"].endswith(" · 萬斯大曰") and "（" not in zao["Source"]
    author = [n["Source"] for n in imported.values() if n.get("Source", "").endswith("蔡德晉曰")]
    assert author and not any("蔡德晉（" in s for s in author)


def test_a_passage_cards_commentary_names_the_person_where_its_words_open(imported):
    """「敖君善曰禮戒速同服…」 on the back of 鄉射禮 速賔's passage card, the name not repeated."""
    passage = next(
        n for k, n in imported.items() if k.startswith(NAMES["passage"] + ":") and "敖君善" in n["Commentary"]
    )
    assert "敖君善（敖繼公）曰" in passage["Commentary"] and passage["Commentary"].count("敖君善") == 1


@pytest.fixture
def book_app(database_url):
    from web import create_app

    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": database_url,
            "RANDOM_SEED": 1,
            "FSRS_FUZZING": False,
            "TEXTS": [str(ROOT / "decks" / "texts" / "KR1d0044_012.txt")],  # 士喪禮上, the book
        }
    )


def test_the_quiz_teaches_a_gloss_of_kangcheng_with_zheng_xuans_name(book_app):
    """The introduction of 纋 (「康成曰纋冠之垂者」) and the feedback on its first question."""
    api = Api(book_app.test_client())
    stage = "士丧礼上.陈沐浴袭饭含之具"
    taught: dict = {}
    for _ in range(60):  # the stage's terms in text order: each introduced, then asked, until 纋's answer
        item = api.next(kind="vocab", stage=stage).get_json()["item"]
        if item["kind"] == "intro":
            taught[item["intro"]["term"]] = item["intro"]
            api.client.post("/api/intro", json={"token": item["token"]}, headers=api.headers)
            continue
        body = api.answer(item, shown(book_app, item).accepted[0]).get_json()
        if body["context"]["term"] == "纋":
            break
    assert "纋" in taught, list(taught)
    for told in (taught["纋"], body["context"]):
        gloss = next(g for g in told["glosses"] if g["commentator"] == "康成")  # as written: a fixed field
        assert gloss["commentator_name"] == "鄭玄"
    catalog = book_app.extensions["study"].catalog
    all_glosses = [g for i in catalog.items if i.id.endswith(":t2g") for g in teaching(i, catalog)["glosses"]]
    assert {(g["commentator"], g["commentator_name"]) for g in all_glosses if g["commentator"] == "萬斯大"} == {
        ("萬斯大", None)
    }
    assert all(g["commentator_name"] == usual_name(g["commentator"]) for g in all_glosses)


browser = test_browser.browser  # headless Chromium (Debian's), as the quiz's browser tests use it


@pytest.fixture
def book_server(tmp_path):
    yield from _served(tmp_path, [ROOT / "decks" / "texts" / "KR1d0044_012.txt"])


def test_the_quiz_page_shows_the_usual_name_beside_the_written_one(book_server, browser):
    """士喪禮上 君使人襚's term 襚 = 衣服: 「注家：敖君善（敖繼公）」 (君視大斂's 位 = 阼階下位, 敖's, was
    the example before it was dropped as saying which place, not what 位 means)."""
    _, base = book_server
    page = browser(PHONE)
    _sign_up(page, base)
    page.wait_for_url(base + "/")
    intro = _item(page, lambda: page.goto(base + "/quiz?kind=vocab&stage=士丧礼上.君使人襚"))
    assert intro["kind"] == "intro"
    names = {g["commentator"]: g["commentator_name"] for g in intro["intro"]["glosses"]}
    assert names == {"敖君善": "敖繼公"}
    shown_words = page.locator(".teaching .glosses").inner_text()
    assert "注家：敖君善（敖繼公）" in shown_words and "衣服" in shown_words
    # and where it is said: 卷, rite, stage, the printed page and line (012:132, 《四庫全書》 page 7 verso, column 8)
    assert "礼经本义 卷十二 · 士喪禮上 · 君使人襚 · 頁7b第8行" in shown_words
    # the example too says where it stands in the printed book, not the text file's line
    example = next(t for t in page.locator(".teaching .label").all_inner_texts() if t.startswith("例句"))
    assert re.search(r"出处：礼经本义 卷十二 · 士喪禮上 · 君使人襚 · 頁\d+[ab]第[1-8]行", example), example
    assert page.problems == []
