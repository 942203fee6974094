"""An excerpt (节选: part of a rite, such as a teacher's own file) never passes for the whole rite:
its cards and quiz questions state no position or count in the rite and say 节选."""

from __future__ import annotations

import random

from study.build import Sources, load_terms, plan_deck
from study.decks.deckspec import load_deckspec
from study.learn.gather import build_catalog
from study.learn.quiz import present


def _order_notes(folder, rite: str, text: str | None = None):
    lines = [f"name: {rite} 次序", f"rites: [{rite}]", "kinds: [stages]", "order: [overlap, next, position]"]
    if text:
        lines.insert(1, f"texts: [{text}]")
    spec = folder / "order.yaml"
    spec.write_text("\n".join(lines) + "\n", "utf-8")
    return [n for n in plan_deck(load_deckspec(spec), Sources()) if n.kind == "stages"]


def test_an_excerpts_stage_cards_state_no_position_or_count(seed_decks, tesheng):
    assert tesheng.excerpt
    notes = _order_notes(seed_decks, "特牲馈食礼")
    windows = [n for n in notes if n.model == "overlap"]
    asked = [n for n in notes if n.model == "order"]
    assert windows and asked  # the order is still taught, and "what comes next" still asked
    for n in notes:
        fields = dict(n.fields)
        assert fields["Title"].startswith("特牲馈食礼（节选）"), fields["Title"]
        assert "始" not in "".join(fields.values()) and "<ol" not in "".join(fields.values())
        assert not fields.get("AskPosition"), fields
        assert n.plain is None or "第" not in n.plain[0]
    first = next(n for n in windows if dict(n.fields)["Text1"])
    assert "⋯" in dict(first.fields)["Text1"]


def test_the_book_states_the_position_of_a_stage_in_its_rite(tmp_path):
    notes = _order_notes(tmp_path, "特牲馈食礼", "KR1d0044_015.txt")
    asked = [dict(n.fields) for n in notes if n.model == "order"]
    assert asked and all(f["AskPosition"] == "1" and f["Count"] == "32" for f in asked)
    assert asked[0]["Title"] == "特牲饋食禮" and asked[0]["Position"] == "1"
    assert "始" in dict(next(n for n in notes if n.model == "overlap").fields)["Text1"]


def test_an_excerpts_quiz_is_titled_so_and_never_asks_the_whole_rite(tesheng, book):
    excerpt = build_catalog([tesheng], load_terms([tesheng]))
    ordered = [i for i in excerpt.items if i.direction in ("stages", "rite", "next")]
    assert ordered and not [i for i in ordered if i.direction == "rite"]
    for item in ordered:
        assert item.sequence.title == "特牲馈食礼（节选）"
    question = present(next(i for i in ordered if i.direction == "stages"), excerpt, random.Random(1))
    assert "节选" in question.subject
    whole_doc = next(d for d in book.documents if d.rite("特牲饋食禮") is not None)
    whole = build_catalog([whole_doc], [])
    assert all("节选" not in i.sequence.title for i in whole.items if i.sequence is not None)


def test_the_quiz_home_page_marks_an_excerpts_rite_as_such(client, api, tmp_path):
    """The home page lists each rite to study; the seeds' rites (excerpts) say 节选, the book's not."""
    from study.paths import texts_dir
    from tests.conftest import Api, dispose
    from web import create_app

    page = client.get("/").get_data(as_text=True)
    assert ">特牲馈食礼（节选）</a>" in page and ">乡射礼（节选）</a>" in page
    assert ">特牲馈食礼 (excerpt)</a>" in client.get("/?lang=en").get_data(as_text=True)
    whole = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'book.sqlite'}",
            "TEXTS": [str(texts_dir() / "KR1d0044_004.txt")],
        }
    )
    try:
        book = whole.test_client()
        Api(book)
        home = book.get("/").get_data(as_text=True)
        assert ">鄉射禮</a>" in home and "节选" not in home
    finally:
        dispose(whole)
