"""The attacks of issue 15, each as a test: what came in, and what must come out instead."""

from __future__ import annotations

import csv
import io
import json
import secrets
import shutil
import sqlite3
import subprocess
import sys
import time
import xml.etree.ElementTree as ET
import zipfile

import pytest
from click.testing import CliRunner

from study.cli import cli
from study.decks.deckspec import parse_deckspec
from study.errors import DeckSpecError, GlossaryError
from study.learn.classes import ClassStore
from study.terms.curated import parse_curated
from study.yamlsrc import MAX_CHARS
from tests.conftest import ROOT, dispose

# --- YAML and spec files -------------------------------------------------------------------

BOMB = (
    "name: bomb\n"
    'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
)


def _build(tmp_path, spec_text: str):  # type: ignore[no-untyped-def]
    spec = tmp_path / "deck.yaml"
    spec.write_text(spec_text, "utf-8")
    return CliRunner().invoke(cli, ["build", str(spec), "-o", str(tmp_path / "out.apkg")])


def test_a_yaml_alias_bomb_is_refused_at_once_with_its_line(tmp_path):
    started = time.perf_counter()
    result = _build(tmp_path, BOMB)
    assert time.perf_counter() - started < 5
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{tmp_path / 'deck.yaml'}:3: invalid YAML: aliases (*a) are not allowed" in result.output
    with pytest.raises(GlossaryError, match=r"g.yaml:2: invalid YAML: aliases"):
        parse_curated("terms: &t []\nexclude: *t\n", "g.yaml")


def test_a_control_character_in_a_spec_is_reported_with_its_line(tmp_path):
    result = _build(tmp_path, "name: 乡射\nrites: [乡射礼\x01]\n")
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # no traceback
    assert f"{tmp_path / 'deck.yaml'}:2: control character U+0001 is not allowed" in result.output
    for text, line in (("name: a\x7f\n", 1), ("name: a\n\nrites: [\ud800]\n", 3)):
        with pytest.raises(DeckSpecError) as err:
            parse_deckspec(text, "s.yaml")
        assert err.value.line == line and "control character" in str(err.value)


def test_a_yaml_file_over_the_size_limit_is_refused(tmp_path):
    with pytest.raises(DeckSpecError, match="too large"):
        parse_deckspec("name: x\n#" + "x" * MAX_CHARS + "\n", "big.yaml")
    result = _build(tmp_path, "name: x\n#" + "x" * MAX_CHARS + "\n")
    assert result.exit_code == 1 and "too large" in result.output


@pytest.mark.parametrize("glossary", ["/etc/shadow", "/etc/passwd", "../../../../../../etc/passwd", "../outside.yaml"])
def test_a_spec_glossary_outside_its_folder_and_decks_is_refused_unread(tmp_path, glossary):
    (tmp_path / "outside.yaml").write_text("secret-first-line: [1\n", "utf-8")
    folder = tmp_path / "specs"
    folder.mkdir()
    spec = folder / "deck.yaml"
    spec.write_text(f"name: 乡射\nrites: [乡射礼]\nglossary: {glossary}\n", "utf-8")
    result = CliRunner().invoke(cli, ["build", str(spec), "-o", str(tmp_path / "out.apkg")])
    assert result.exit_code == 1
    assert f"{spec}:3: glossary: {glossary!r} is not a file in" in result.output
    assert "root:" not in result.output and "secret-first-line" not in result.output
    assert not (tmp_path / "out.apkg").exists()


def test_a_spec_glossary_beside_the_spec_is_still_used(tmp_path):
    shutil.copy(ROOT / "decks" / "glossary.yaml", tmp_path / "mine.yaml")
    result = _build(tmp_path, "name: 乡射\nrites: [乡射礼]\nkinds: [terms]\nglossary: mine.yaml\n")
    assert result.exit_code == 0, result.output


# --- the web app ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "target",
    [
        "/%09/evil.example",
        "/%0A/evil.example",
        "/%0D%0A/evil.example",
        "//evil.example",
        "/\\evil.example",
        "/%5C/evil.example",
        "https://evil.example/",
        "/%252F%252Fevil.example",
        "%2F%2Fevil.example",
        "\\\\evil.example",
    ],
)
def test_the_language_switch_redirects_only_within_the_site(client, target):
    r = client.get(f"/lang/en?next={target}")
    assert r.status_code == 302 and r.headers["Location"] == "/"


def test_the_language_switch_keeps_a_path_on_the_site(client):
    r = client.get("/lang/en?next=/quiz%3Fkind%3Dvocab")
    assert r.headers["Location"] == "/quiz?kind=vocab"


def _production(tmp_path, monkeypatch, **config):  # type: ignore[no-untyped-def]
    from web import create_app

    monkeypatch.delenv("STUDY_SECRET_KEY", raising=False)
    url = f"sqlite:///{tmp_path / 'prod.sqlite'}"
    assert CliRunner().invoke(cli, ["db", "upgrade", "--database", url]).exit_code == 0
    return create_app({"PRODUCTION": True, "SECRET_KEY": secrets.token_hex(32), "DATABASE_URL": url} | config)


def test_production_cookies_are_secure_and_https_is_required(tmp_path, monkeypatch):
    app = _production(tmp_path, monkeypatch)
    r = app.test_client().get("/api/session")
    assert "Secure" in r.headers["Set-Cookie"] and "HttpOnly" in r.headers["Set-Cookie"]
    assert r.headers["Strict-Transport-Security"].startswith("max-age=")
    dispose(app)


@pytest.mark.parametrize("key", ["x", "0123456789abcdef", "a" * 64])
def test_production_refuses_a_short_or_trivial_secret_key(tmp_path, monkeypatch, key):
    with pytest.raises(RuntimeError, match="at least 32 random bytes"):
        _production(tmp_path, monkeypatch, SECRET_KEY=key)


def test_production_never_creates_a_database(tmp_path, monkeypatch):
    from study.learn.db import MissingDatabaseError
    from web import create_app

    missing = tmp_path / "none.sqlite"
    config = {"PRODUCTION": True, "SECRET_KEY": secrets.token_hex(32), "DATABASE_URL": f"sqlite:///{missing}"}
    with pytest.raises(MissingDatabaseError, match="study db upgrade"):
        create_app(config)
    assert not missing.exists()
    empty = tmp_path / "empty.sqlite"
    sqlite3.connect(empty).close()  # a file without tables: not migrated implicitly either
    with pytest.raises(MissingDatabaseError, match="study db upgrade"):
        create_app(config | {"DATABASE_URL": f"sqlite:///{empty}"})


KEY_SCRIPT = """
import sys, time
from pathlib import Path
from web.secretkey import _key_file
start = float(sys.argv[2])
while time.time() < start:
    pass
print(_key_file(Path(sys.argv[1])))
"""


def test_workers_starting_together_share_one_secret_key(tmp_path):
    path = tmp_path / "instance" / "secret_key"
    start = time.time() + 1.5
    procs = [
        subprocess.Popen(
            [sys.executable, "-c", KEY_SCRIPT, str(path), str(start)], cwd=ROOT, stdout=subprocess.PIPE, text=True
        )
        for _ in range(8)
    ]
    keys = {p.communicate(timeout=60)[0].strip() for p in procs}
    assert all(p.returncode == 0 for p in procs)
    assert len(keys) == 1 and keys == {path.read_text("utf-8").strip()} and len(keys.pop()) == 64
    assert [p.name for p in path.parent.iterdir()] == ["secret_key"]  # no temporary file left


def test_class_codes_come_from_the_system_random_source(app):
    assert isinstance(ClassStore(app.extensions["study"].store.engine).rng, secrets.SystemRandom)


def test_signed_in_pages_and_exports_are_not_cached(app, client, api):
    assert "no-store" not in app.test_client().get("/").headers.get("Cache-Control", "")  # signed out
    for path in ("/progress", "/api/progress", "/api/session"):
        assert client.get(path).headers.get("Cache-Control") == "no-store", path


def test_a_twenty_digit_class_id_is_a_404_signed_in_or_out(client):
    assert client.get("/teacher/classes/99999999999999999999/report").status_code == 404
    assert client.get("/teacher/classes/99999999999999999999/moodle.xml").status_code == 404


def test_a_non_ascii_csrf_token_is_refused_not_a_crash(client, api):
    r = client.post("/api/answer", json={"item_id": "x", "answer": "y"}, headers={"X-CSRFToken": "令牌"})
    assert r.status_code == 403
    r = client.post("/teacher/login", data={"name": "a", "password": "b", "csrf_token": "令牌"})
    assert r.status_code == 403


def test_json_nested_5000_deep_is_a_400(client, api):
    body = "[" * 5000 + "]" * 5000
    r = client.post("/api/answer", data=body, content_type="application/json", headers=api.headers)
    assert r.status_code == 400 and "JSON" in r.get_json()["error"]
    deep = '{"item_id": "x", "answer": ' + "[" * 40 + "]" * 40 + "}"
    r = client.post("/api/answer", data=deep, content_type="application/json", headers=api.headers)
    assert r.status_code == 400 and "嵌套" in r.get_json()["error"]


@pytest.mark.parametrize("field", ["name", "class_code"])
def test_a_lone_surrogate_or_control_character_in_a_name_is_a_400(client, field):
    token = client.get("/api/session").get_json()["csrf_token"]
    for bad in ('"\\ud800"', '"甲\\u0001"', '"甲\\udfff乙"'):
        body = '{"name": "甲", "' + field + '": ' + bad + "}" if field != "name" else '{"name": ' + bad + "}"
        r = client.post("/api/session", data=body, content_type="application/json", headers={"X-CSRFToken": token})
        assert r.status_code == 400 and "控制字符" in r.get_json()["error"], (field, bad)


def test_a_lone_surrogate_in_an_answer_or_answer_id_is_a_400(client, api):
    item = api.next(kind="vocab").get_json()["item"]
    for body in (
        '{"item_id": "' + item["id"] + '", "answer": "\\ud800"}',
        '{"item_id": "' + item["id"] + '", "answer": "x", "answer_id": "\\udc00"}',
        '{"item_id": "\\ud83d", "answer": "x"}',
    ):
        r = client.post("/api/answer", data=body, content_type="application/json", headers=api.headers)
        assert r.status_code == 400 and r.get_json()["error"], body


def test_a_control_character_in_a_form_is_a_400_with_a_message(client):
    html = client.get("/teacher/").get_data(as_text=True)
    token = html.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    r = client.post("/teacher/signup", data={"name": "王\x01", "password": "x" * 12, "csrf_token": token})
    assert r.status_code == 400 and "控制字符" in r.get_data(as_text=True)


# --- files written for other programs --------------------------------------------------------


def test_a_deck_name_with_markup_stays_text_in_the_anki_description(tmp_path):
    name = "<img src=x onerror=alert(1)>"
    result = _build(tmp_path, f"name: '{name}'\nrites: [乡射礼]\nkinds: [terms]\n")
    assert result.exit_code == 0, result.output
    with zipfile.ZipFile(tmp_path / "out.apkg") as z:
        (tmp_path / "col.anki2").write_bytes(z.read("collection.anki2"))
    with sqlite3.connect(tmp_path / "col.anki2") as conn:
        decks = json.loads(conn.execute("SELECT decks FROM col").fetchone()[0])
    descriptions = [d["desc"] for d in decks.values() if d.get("desc")]
    assert descriptions and all("<" not in d and ">" not in d for d in descriptions)
    assert any("&lt;img src=x onerror=alert(1)&gt;" in d for d in descriptions)


def test_the_deck_csv_neutralises_spreadsheet_formulas(tmp_path):
    spec = (
        "name: 公式\nrites: [乡射礼]\nkinds: [terms]\nterms:\n  extra:\n"
        '    - {term: 射侯, gloss: "=HYPERLINK(\\"http://evil.example\\",\\"x\\")"}\n'
        '    - {term: 乏, gloss: "+1+1"}\n'
    )
    (tmp_path / "deck.yaml").write_text(spec, "utf-8")
    result = CliRunner().invoke(cli, ["build", str(tmp_path / "deck.yaml"), "-o", str(tmp_path / "out"), "-f", "csv"])
    assert result.exit_code == 0, result.output
    rows = list(csv.reader(io.StringIO((tmp_path / "out.csv").read_text("utf-8"))))
    cells = [cell for row in rows if not row[0].startswith("#") for cell in row]
    assert any("HYPERLINK" in c for c in cells)
    assert not [c for c in cells if c[:1] in ("=", "+", "-", "@")]


def test_moodle_xml_parses_whatever_text_it_is_given():
    from study.learn.moodle import _text

    root = ET.Element("quiz")
    _text(root, "name", "甲\x01乙\x0b丙\ud800")
    parsed = ET.fromstring(ET.tostring(root, encoding="utf-8"))
    assert parsed.find("name/text").text == "甲乙丙"


def test_a_control_character_in_the_deck_builder_is_refused(client):
    html = client.get("/teacher/").get_data(as_text=True)
    token = html.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    r = client.post("/teacher/deck", data={"term_1": "射", "gloss_1": "\x01", "action": "moodle", "csrf_token": token})
    assert r.status_code == 400


def test_deck_builds_take_turns_and_a_teacher_has_a_rate(app, client, tmp_path):
    import fcntl
    import os
    from pathlib import Path

    html = client.get("/teacher/").get_data(as_text=True)
    token = html.split('name="csrf_token" value="', 1)[1].split('"', 1)[0]
    client.post("/teacher/signup", data={"name": "建卡", "password": "long enough pw", "csrf_token": token})
    form = {"rite": "x|y", "action": "preview", "csrf_token": token}
    assert client.post("/teacher/deck", data=form).status_code == 400  # the slot is free: built (a bad choice)
    fd = os.open(Path(app.instance_path) / "deck-build.lock", os.O_RDWR | os.O_CREAT)
    fcntl.flock(fd, fcntl.LOCK_EX)  # another worker is building
    try:
        r = client.post("/teacher/deck", data=form)
        assert r.status_code == 429 and int(r.headers["Retry-After"]) > 0
    finally:
        os.close(fd)
    codes = [client.post("/teacher/deck", data=form).status_code for _ in range(25)]
    assert codes[0] == 400 and 429 in codes  # the deck_build rate per teacher
