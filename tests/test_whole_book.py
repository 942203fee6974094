"""The whole book as the project's corpus: the quiz offers every rite, a class can be given any
rite or any range of its stages."""

from __future__ import annotations

import re

import pytest

from study.build import load_terms
from study.learn.catalog import item_stages
from study.learn.classdeck import DeckChoice, class_catalog, spec_from_yaml, spec_yaml
from tests.conftest import ROOT, Api, dispose

# The rites of the book with stages, in book order (饗禮 and 軍禮 are titles only: 闕).
RITES = (
    "士冠禮 士昏禮 鄉飲酒禮 鄉射禮 燕禮 大射儀 公食大夫禮 士相見之禮 聘禮 覲禮 喪服 士喪禮上 士喪禮下 士虞禮 "
    "特牲饋食禮 少牢饋食禮 投壺禮 巡守禮 出師禮 奔䘮禮 弔禮 諸侯釁廟禮 諸侯遷廟禮 祫于太廟禮"
).split()


@pytest.fixture(scope="module")
def book_terms(book):
    return load_terms(book.documents)


@pytest.fixture
def book_app(database_url):
    """The quiz as served by default: every text of decks/texts (the whole book)."""
    from web import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url, "RANDOM_SEED": 3})
    yield app
    dispose(app)


def test_the_rites_of_the_book_are_the_ones_the_readme_lists(book):
    assert [r.name for d in book.documents for r in d.rites if r.stages] == RITES


def test_the_readme_lists_every_rite_with_its_stage_count(book):
    readme = (ROOT / "README.md").read_text("utf-8")
    table = readme[readme.index("| 卷 | rite") : readme.index("`KR1d0044_000.txt` is the")]
    listed = re.findall(r"([^\s|,;:—(]+) (\d+)(?=[\s,;|(—])", table)
    counts = [(r.name, str(len(r.stages))) for d in book.documents for r in d.rites if r.stages]
    assert listed == counts
    assert "饗禮 (title only: 闕" in table and "軍禮 (title only: 闕" in table
    assert {r.name for d in book.documents for r in d.rites if not r.stages} == {"饗禮", "軍禮"}


def test_the_default_quiz_offers_every_rite_of_the_book(book_app):
    state = book_app.extensions["study"]
    assert [d.file for d in state.documents] == [f"KR1d0044_{n:03d}.txt" for n in range(18)]
    assert [r for r in state.catalog.rites if r in RITES] == RITES  # every rite, in book order
    api = Api(book_app.test_client())
    for rite in ("士冠禮", "聘禮", "少牢饋食禮", "祫于太廟禮"):
        item = api.question(rite=rite)
        assert item is not None and state.catalog.get(item["id"]).rite == rite, (rite, item)


@pytest.mark.parametrize("rite", RITES)
def test_a_class_can_be_assigned_any_rite_or_a_range_of_its_stages(book, book_terms, rite):
    doc = next(d for d in book.documents if d.rite(rite) is not None)
    stages = [s for s in doc.rite(rite).stages if s.name]
    whole = class_catalog(spec_from_yaml(spec_yaml(DeckChoice(rite, doc.file, rite))), book.documents, book_terms)
    assert whole.items and {i.rite for i in whole.items} == {rite}
    ordered = {i.id for i in whole.items if i.direction in ("stages", "rite")}
    assert ordered, f"{rite}: no question on the order of its stages"
    # A range from the second stage to the one before last (the teacher page's from/to), or the
    # first three of a short rite: enough stages for a question on their order.
    chosen = stages[1:-1] if len(stages) >= 5 else stages[:3]
    ids = tuple(s.id for s in chosen)
    part = class_catalog(spec_from_yaml(spec_yaml(DeckChoice(rite, doc.file, rite, ids))), book.documents, book_terms)
    assert part.items and {i.rite for i in part.items} == {rite}
    order = [i for i in part.items if i.term is None]  # stage windows, "what comes next", steps
    assert order and all(item_stages(i) <= set(ids) for i in order), rite
    assert len(part.items) < len(whole.items)
