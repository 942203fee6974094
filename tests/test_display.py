"""The book's sentence marks (【句】, kept in the model for matching and clause detection) are shown
to a reader as 「，」 in every card field, CSV/TSV cell and quiz question of the real book."""

from __future__ import annotations

import random
import re
from pathlib import Path

import pytest

from study.build import Sources, default_specs, load_terms, plan_deck
from study.decks.deckspec import load_deckspec
from study.decks.export import write_csv, write_tsv
from study.learn.gather import build_catalog
from study.learn.quiz import present
from study.learn.teach import teaching
from study.terms.snippets import snippet
from study.text.display import clear_of_marks, has_mark, shown


def test_a_sentence_mark_is_shown_as_a_comma_and_adds_nothing_beside_punctuation():
    assert shown("具【句】羮定【句】甸人陳鼎七") == "具，羮定，甸人陳鼎七"
    assert shown("賔對【句】。主人【读】，拜") == "賔對。主人，拜"
    assert shown("宿【句】【读】前宿一日") == "宿，前宿一日"
    assert shown("主人戒賔") == "主人戒賔"


def test_a_cut_never_splits_a_mark_nor_opens_or_closes_on_one():
    text = "拜賔【句】賔降筵"
    for cut in range(len(text) + 1):
        start, end = clear_of_marks(text, cut, len(text))
        assert not has_mark(text[start:end].replace("【句】", "")) and not text[start:end].startswith("【")
        start, end = clear_of_marks(text, 0, cut)
        assert not has_mark(text[start:end].replace("【句】", "")) and not text[start:end].endswith("】")


def test_an_example_cut_around_its_term_keeps_no_piece_of_a_mark():
    text = "主人坐奠爵拜賔【句】賔降筵北面答拜主人坐取爵興"
    for at in range(len(text) - 2):
        for limit in (8, 12, 20):
            cut, _ = snippet(text, at, 1, limit)
            assert not has_mark(cut.replace("【句】", "")), cut


@pytest.fixture(scope="module")
def packages() -> dict[str, list]:
    sources = Sources()
    return {path.name: plan_deck(load_deckspec(path), sources) for path in default_specs()}


def test_no_field_of_any_shipped_package_shows_an_internal_mark(packages, tmp_path):
    shown_marks = 0
    for name, notes in packages.items():
        for note in notes:
            for field, value in note.fields:
                assert not has_mark(value), f"{name} {note.identity} {field}: {value[:80]}"
                shown_marks += "，" in value
        assert not has_mark(open_text(write_csv, notes, tmp_path / "x.csv")), name
        assert not has_mark(open_text(write_tsv, notes, tmp_path / "x.tsv")), name
    assert shown_marks > 100  # the marks are there, as commas (the book itself has no other punctuation)


def open_text(write, notes, path) -> str:
    write(notes, path)
    return path.read_text("utf-8")


def test_the_models_text_keeps_the_marks_the_cards_show_as_commas(book):
    marked = [
        p.text for d in book.documents for r in d.rites for s in r.stages for p in s.passages if "【句】" in p.text
    ]
    assert len(marked) > 50


def test_no_quiz_question_or_its_teaching_shows_an_internal_mark(book):
    catalog = build_catalog(book.documents, load_terms(book.documents))
    rng = random.Random(7)
    marked = 0
    for item in catalog.items:
        question, taught = present(item, catalog, rng), teaching(item, catalog)
        assert not has_mark(repr(question.to_dict()) + repr(taught)), item.id
        marked += bool(item.passage and "【句】" in item.passage.passage.text)
    assert marked > 20  # questions about marked passages were asked


def test_a_stage_lists_back_shows_the_modern_name_under_the_stage_not_the_name_again(packages):
    backs = [n.field("Full") for n in packages["xiangshe.yaml"] if n.kind == "stages"]
    pairs = [p for full in backs for p in re.findall(r'cname">([^<]+)</span><span class="full">([^<]+)<', full)]
    assert pairs and all(not under.startswith(name) for name, under in pairs), pairs[:3]
    assert ("速賔", "邀请宾客") in pairs


def test_a_commentators_name_is_shown_once_before_his_words(packages):
    rows = [
        re.sub(r"<[^>]+>", "|", li)
        for n in packages["xiangshe.yaml"]
        if n.model in ("passage", "cloze")
        for li in re.findall(r"<li>(.*?)</li>", n.field("Commentary"))
    ]
    named = [r for r in rows if "曰" in r[:16]]
    assert named and not [r for r in named if re.match(r"\|([^|]+)\|\|?\1曰", r)], named[:3]


def test_an_examples_highlight_marks_the_use_its_gloss_explains_not_the_first():
    """少牢饋食禮 (KR1d0044_016.txt:81–82) writes 匕 twice in one sentence: 鼎匕俎 (the tripod's
    spoon, cleaned by 饔人) and 甑甗匕與敦 (所以出飯, cleaned by 廩人). An example that shows the
    second marks the second, also where the text holds a mark before it."""
    from study.learn.teach import _example_highlight
    from study.model import Example

    book = Path(__file__).resolve().parents[1] / "decks" / "texts"
    lines = (book / "KR1d0044_016.txt").read_text(encoding="utf-8").splitlines()
    text = lines[80].rstrip("¶") + "【句】" + lines[81].rstrip("¶")
    second = text.index("匕", text.index("甗"))
    example = Example(text, "KR1d0044_016.txt", 82, "少牢饋食禮", at=second)
    start, end = _example_highlight(example, "匕", "匕")
    assert shown(text)[start:end] == "匕" and shown(text)[start - 1] == "甗"
    first = _example_highlight(Example(text, "KR1d0044_016.txt", 81, "少牢饋食禮"), "匕", "匕")
    assert shown(text)[first[0] - 1] == "鼎"  # without a place: the first, as before


def test_every_gloss_the_quiz_teaches_names_a_commentator_and_a_place_never_a_file(book):
    """A curated gloss citing a line (the seeds' 「乗矢，四矢也」, 000_…txt:73; the 特牲 excerpt's
    祝接神佐食接尸, 004_…txt:20, not shipped) is shown with the commentator and the place of that
    line, or where the book says the same words."""
    catalog = build_catalog(book.documents, load_terms(book.documents))
    told = 0
    for item in catalog.items:
        if item.family.value == "vocab" and item.direction == "t2g":
            for g in teaching(item, catalog)["glosses"]:
                assert g["commentator"] and ".txt" not in g["commentator"], (item.id, g)
                assert g["rite"] or g["commentator"].startswith("《"), (item.id, g)
                told += 1
    assert told > 500
    zhu = teaching(catalog.by_id["vocab:祝:t2g"], catalog)["glosses"]
    assert any(g["gloss"] == "祝接神佐食接尸" and g["rite"] == "特牲饋食禮" and g["line"] for g in zhu), zhu
    # said in the note that opens 覲禮 (卷十 line 13, 覲見也): the rite's, not its first stage's
    jin = teaching(catalog.by_id["vocab:觐:t2g"], catalog)["glosses"]
    assert {(g["gloss"], g["rite"], g["stage"]) for g in jin} >= {("見", "覲禮", None)}, jin
