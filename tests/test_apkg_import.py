"""End to end: packages built by ``study build`` imported into a real Anki collection."""

from __future__ import annotations

import re
import shutil
from collections import Counter
from pathlib import Path

import pytest
from anki.collection import Collection, ImportAnkiPackageRequest
from click.testing import CliRunner

from study.build import Sources, build_deck, default_specs, plan_deck
from study.cli import cli
from study.decks.apkg import NAMES
from study.decks.deckspec import load_deckspec
from study.decks.notedata import BOOK, CUSTOM
from tests.conftest import ROOT

DECKS = ROOT / "decks"
T0 = 1_800_000_000.0  # a fixed build time; later builds must be newer for Anki to take them
_STYLE = re.compile(r"<style>.*?</style>", re.S)
_ERRORS = ("No cloze", "front of this card is blank", "Please edit", "error")


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def visible(html: str) -> str:
    return re.sub(r"<[^>]+>|\s", "", _STYLE.sub("", html))


@pytest.fixture(scope="module")
def built(tmp_path_factory) -> Path:
    out = tmp_path_factory.mktemp("built")
    result = run("build", "--all", "-o", str(out))
    assert result.exit_code == 0, result.output
    return out


@pytest.fixture(scope="module")
def sources() -> Sources:
    return Sources()


@pytest.fixture
def col(tmp_path):
    collection = Collection(str(tmp_path / "collection.anki2"))
    yield collection
    collection.close()


def import_apkg(col: Collection, path: Path):
    return col.import_anki_package(ImportAnkiPackageRequest(package_path=str(path))).log


def test_build_all_writes_one_package_per_spec(built):
    assert sorted(p.name for p in built.iterdir()) == [f"{p.stem}.apkg" for p in default_specs()]


@pytest.mark.parametrize("spec_path", default_specs(), ids=lambda p: p.stem)
def test_every_package_imports_with_its_notes_and_renders_every_card(spec_path, built, col, sources):
    notes = plan_deck(load_deckspec(spec_path), sources)
    log = import_apkg(col, built / f"{spec_path.stem}.apkg")
    assert len(log.new) == len(notes) and not (log.updated or log.duplicate or log.conflicting)
    assert col.note_count() == len(notes)
    for model in set(n.model for n in notes):
        mine = [n for n in notes if n.model == model]
        assert len(col.find_notes(f'"note:{NAMES[model]}"')) == len(mine), model
        assert len(col.find_cards(f'"note:{NAMES[model]}"')) == sum(n.cards for n in mine), model
    expected_decks = {n.deck for n in notes}
    assert expected_decks <= set(col.decks.all_names())
    assert all(name.split("::")[0] in (BOOK, CUSTOM) for name in expected_decks)
    rubies = highlights = 0
    for cid in col.find_cards(""):
        card = col.get_card(cid)
        question, answer = card.question(), card.answer()
        assert visible(question) and visible(answer), (card.note().guid, card.ord)
        assert not any(e in _STYLE.sub("", question + answer) for e in _ERRORS), (card.note().guid, card.ord)
        if card.note().note_type()["name"] in (NAMES["term"], NAMES["term_reverse"]):
            assert "<ruby>" in answer and "<rt>" in answer
            rubies += 1
            highlights += 'class="hl"' in answer
    terms = [n for n in notes if n.kind == "terms"]
    assert rubies == len(terms)
    assert highlights >= rubies * 0.8  # most terms have an example sentence in the text


def test_new_cards_come_in_the_order_of_the_text(built, col, sources):
    notes = plan_deck(load_deckspec(DECKS / "xiangshe.yaml"), sources)
    import_apkg(col, built / "xiangshe.apkg")
    first = col.get_card(min(col.find_cards("is:new"), key=lambda c: col.get_card(c).due))
    assert first.note().guid == genanki_guid(notes[0])


def genanki_guid(note):
    from study.decks.apkg import note_guid

    return note_guid(note)


def _deck_folder(tmp_path: Path) -> Path:
    """A deck folder of its own: the project's texts, glossary and 燕礼 spec."""
    folder = tmp_path / "decks"
    shutil.copytree(DECKS / "texts", folder / "texts")
    shutil.copy(DECKS / "glossary.yaml", folder / "glossary.yaml")
    shutil.copy(DECKS / "yanli.yaml", folder / "yanli.yaml")
    return folder


def test_a_rebuilt_package_updates_notes_in_place_and_keeps_the_reviews(tmp_path, col):
    folder = _deck_folder(tmp_path)
    out = tmp_path / "yanli.apkg"
    report = build_deck(load_deckspec(folder / "yanli.yaml"), out, timestamp=T0)
    import_apkg(col, out)
    assert col.note_count() == report.total_notes
    (nid,) = col.find_notes(f'"note:{NAMES["term"]}" Term:篚')
    (cid,) = [c.id for c in col.get_note(nid).cards() if c.ord == 0]
    col.sched.reposition_new_cards(card_ids=[cid], starting_from=0, step_size=1, randomize=False, shift_existing=True)
    col.decks.select(col.get_card(cid).did)
    card = col.sched.getCard()
    assert card.id == cid
    col.sched.answerCard(card, 4)  # Easy: the card graduates to a review card
    reviewed = col.get_card(cid)
    state = (reviewed.type, reviewed.queue, reviewed.ivl, reviewed.due, reviewed.reps)
    assert state[:2] == (2, 2) and reviewed.reps == 1

    glossary = folder / "glossary.yaml"
    glossary.write_text(glossary.read_text("utf-8").replace("gloss: 篚以陈爵、觯", "gloss: 盛爵觯之竹器"), "utf-8")
    build_deck(load_deckspec(folder / "yanli.yaml"), out, timestamp=T0)
    import_apkg(col, out)
    assert "篚以陈爵" in col.get_note(nid)["Glosses"]  # Anki ignores a package that is not newer

    build_deck(load_deckspec(folder / "yanli.yaml"), out, timestamp=T0 + 60)
    log = import_apkg(col, out)
    assert len(log.new) == 0 and len(log.updated) >= 1
    assert col.note_count() == report.total_notes
    note = col.get_note(nid)
    assert "盛爵觯之竹器" in note["Glosses"] and "篚以陈爵" not in note["Glosses"]
    kept = col.get_card(cid)
    assert (kept.type, kept.queue, kept.ivl, kept.due, kept.reps) == state
    assert col.db.scalar("select count() from revlog where cid = ?", cid) == 1
    assert "盛爵觯之竹器" in kept.answer()


def test_a_teachers_term_with_markup_shows_as_text(tmp_path, col):
    spec = tmp_path / "teacher.yaml"
    spec.write_text(
        "name: 教师\nrites: [燕礼]\nkinds: [terms]\nterms:\n  extra:\n"
        "    - term: '<script>alert(\"x\")</script>'\n      gloss: 'A & B <b>粗</b>'\n",
        "utf-8",
    )
    result = run("build", str(spec), "-o", str(tmp_path / "teacher.apkg"))
    assert result.exit_code == 0, result.output
    import_apkg(col, tmp_path / "teacher.apkg")
    (nid, *_) = sorted(col.find_notes('"Term:*alert*"'))
    front_card = col.get_note(nid).cards()[0]
    question = _STYLE.sub("", front_card.question())
    assert "&lt;script&gt;alert(&quot;x&quot;)&lt;/script&gt;" in question
    assert "<script>alert" not in question
    answer = _STYLE.sub("", front_card.answer())
    assert "A &amp; B &lt;b&gt;粗&lt;/b&gt;" in answer and "<b>粗</b>" not in answer


def test_build_writes_csv_and_tsv_beside_the_package(tmp_path):
    result = run(
        "build", str(DECKS / "yanli.yaml"), "-o", str(tmp_path / "y.apkg"), "-f", "apkg", "-f", "tsv", "-f", "csv"
    )
    assert result.exit_code == 0, result.output
    assert sorted(p.name for p in tmp_path.iterdir()) == ["y.apkg", "y.csv", "y.tsv"]
    assert result.stdout.startswith("yanli.yaml: ") and "每天 20 张新卡需" in result.stdout
    tsv = (tmp_path / "y.tsv").read_text("utf-8").splitlines()
    assert tsv and all(line.count("\t") == 1 for line in tsv)


def test_a_bad_spec_is_an_error_with_its_line_and_exit_status_1(tmp_path):
    spec = tmp_path / "bad.yaml"
    spec.write_text("name: x\nrites: [乡饮酒之礼]\nkinds: [terms]\n", "utf-8")
    result = CliRunner().invoke(cli, ["build", str(spec), "-o", str(tmp_path / "x.apkg")])
    assert result.exit_code == 1
    assert f"Error: {spec}:2: rites[0]: unknown rite '乡饮酒之礼' (known: 士冠禮、士昏禮、鄉飲酒禮、" in result.output
    assert not (tmp_path / "x.apkg").exists()


def test_build_needs_specs_or_all():
    result = CliRunner().invoke(cli, ["build"])
    assert result.exit_code == 2 and "give deck spec files or --all" in result.output


def test_several_specs_go_into_a_folder(tmp_path):
    out = tmp_path / "decks"
    result = run("build", str(DECKS / "yanli.yaml"), str(DECKS / "tesheng.yaml"), "-o", str(out))
    assert result.exit_code == 0, result.output
    assert Counter(p.suffix for p in out.iterdir()) == {".apkg": 2}
