"""A deck spec can ask for simplified cards (OpenCC), with the variants the simplified edition keeps."""

from __future__ import annotations

import pytest

from study.build import Sources, plan_deck
from study.decks.apkg import note_guid
from study.decks.deckspec import load_deckspec
from study.decks.script import to_simplified
from study.errors import DeckSpecError


@pytest.fixture(scope="module")
def sources() -> Sources:
    return Sources()


def spec(tmp_path, text: str):
    path = tmp_path / "s.yaml"
    path.write_text(text, "utf-8")
    return load_deckspec(path)


def test_simplified_keeps_the_variants_the_simplified_edition_keeps():
    assert to_simplified("主人獻賔，賔酢主人。髙乗") == "主人献賔，賔酢主人。髙乗"
    assert to_simplified('<span class="cname">鄉射禮</span>{{c1::觶}}') == '<span class="cname">乡射礼</span>{{c1::觯}}'


def test_a_spec_can_ask_for_simplified_cards_as_notes_of_their_own(tmp_path, sources):
    body = "rites: [燕禮]\nkinds: [terms, stages]\n"
    plain = plan_deck(spec(tmp_path, "name: 燕礼\n" + body), sources)
    simple = plan_deck(spec(tmp_path, "name: 燕礼 简体\nscript: simplified\n" + body), sources)
    assert len(simple) == len(plain)
    assert any("禮" in v or "賔" in v for n in plain for _, v in n.fields)
    for a, b in zip(plain, simple, strict=True):
        assert [k for k, _ in b.fields] == [k for k, _ in a.fields]
        assert all(v == to_simplified(w) for (_, v), (_, w) in zip(b.fields, a.fields, strict=True))
        assert not any(ch in v for _, v in b.fields for ch in "禮鄉獻觶爲"), b.fields
        assert b.deck.startswith("自定::燕礼 简体::") and note_guid(a) != note_guid(b)
    assert any("賔" in v for n in simple for _, v in n.fields)  # kept as written


def test_an_unknown_script_is_a_problem_at_its_line(tmp_path):
    with pytest.raises(DeckSpecError) as e:
        plan_deck(spec(tmp_path, "name: x\nrites: [燕禮]\nscript: pinyin\n"))
    assert "s.yaml:3: script: must be one of original, simplified, not 'pinyin'" in str(e.value)


def test_the_quiz_serves_the_table_for_simplified_display(database_url):
    from tests.conftest import TEXTS, dispose
    from web import create_app

    app = create_app(
        {"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url, "TEXTS": [str(TEXTS / "KR1d0044_005.txt")]}
    )
    client = app.test_client()
    table = client.get("/script/t2s.json").get_json()
    assert table["禮"] == "礼" and table["獻"] == "献" and table["觶"] == "觯"
    assert "賔" not in table and "燕" not in table  # a kept variant; a character that is the same
    assert all(len(k) == 1 and len(v) == 1 for k, v in table.items())
    page = client.get("/").get_data(as_text=True)
    assert 'src="/static/script.js"' in page and 'data-table="/script/t2s.json"' in page
    dispose(app)
