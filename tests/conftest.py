from __future__ import annotations

import os
import re
import socket
import threading
import time
import uuid
from collections.abc import Iterator
from contextlib import contextmanager
from functools import cache
from pathlib import Path

import pytest
import yaml
from hypothesis import settings

from study.build import Corpus, load_corpus, load_document, load_terms
from study.model import Document, Gloss, Term
from study.terms.glosses import extract_glosses
from study.text.normalize import normalize

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ROOT / "decks" / "texts"
DATA = Path(__file__).resolve().parent / "data"
XIANGSHE = "000_5ea6dcd6bccc2da6.txt"  # seed: the end of 乡射礼 and the start of 燕礼, with translation
TESHENG = "004_b33f8e7c4f66e3ba.txt"  # a teacher's own excerpt (节选): the middle of 特牲馈食礼
XIANGSHE_PATH = TEXTS / XIANGSHE  # shipped: its translation attaches to the book
TESHENG_PATH = DATA / TESHENG  # a test fixture only
# Small known texts for tests of card, quiz and glossary logic; the shipped decks read the whole
# book (decks/texts/KR1d0044_*.txt, the default corpus).
SEED_PATHS = [XIANGSHE_PATH, TESHENG_PATH]


@cache
def book_glosses(file: str) -> tuple[Gloss, ...]:
    """What the extractor and its gate alone read in one file of the book (no hand review), read
    once per session for the tests of the gloss rules."""
    return tuple(extract_glosses(load_document(TEXTS / file), review=False))


def rules_at(file: str, line: int) -> dict[tuple[str, str], str]:
    """(term, gloss) → rule of the glosses read at one line of the book."""
    return {(g.context, g.gloss): g.rule for g in book_glosses(file) if g.line == line}


_CLOZE = re.compile(r"\{\{c\d+::(.*?)(?:::(.*?))?\}\}")


def book_terms(file: str, glossary: Path | None = None) -> dict[str, Term]:
    """The terms of one file of the book by normalised headword, withheld glosses too, with the
    project's curated glossary (or ``glossary``: a bare one shows what the commentary says)."""
    doc = load_document(TEXTS / file)
    return {t.normalized: t for t in load_terms([doc], glossary, withheld=True)}


def shown_glosses(notes) -> set[tuple[str, str]]:  # type: ignore[no-untyped-def]
    """(term, gloss), normalised, on the term cards and as cloze hints of planned notes."""
    out = set()
    for n in notes:
        f = dict(n.fields)
        if "Term" in f:
            plain = re.sub(r"<[^>]+>", "|", f["Glosses"])
            out |= {(normalize(f["Term"]), normalize(p)) for p in plain.split("|") if p}
        for answer, hint in _CLOZE.findall(f.get("Text", "")):
            if hint:
                out.add((normalize(re.sub(r"<[^>]+>", "", answer)), normalize(hint)))
    return out


def ranges(items: list[int | str]) -> set[int]:
    """Line numbers from a YAML list like [1, 370-375]."""
    out: set[int] = set()
    for item in items:
        a, _, b = str(item).partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


@pytest.fixture(scope="session")
def text_paths() -> list[Path]:
    """The seed texts (not the shipped corpus): small, known, hand-checked."""
    return list(SEED_PATHS)


@pytest.fixture(scope="session")
def xiangshe() -> Document:
    return load_document(XIANGSHE_PATH)


@pytest.fixture(scope="session")
def tesheng() -> Document:
    return load_document(TESHENG_PATH)


@pytest.fixture(scope="session")
def corpus(text_paths: list[Path]) -> Corpus:
    """The seeds, parsed once per session."""
    return load_corpus(text_paths)


@pytest.fixture(scope="session")
def seed_decks(tmp_path_factory) -> Path:
    """A deck folder whose texts are the two seeds (both 节选) and whose glossary is the project's:
    for deck-spec logic on small known texts. Specs written here read ``texts/`` beside them."""
    folder = tmp_path_factory.mktemp("seed_decks")
    (folder / "texts").mkdir()
    for path in SEED_PATHS:
        (folder / "texts" / path.name).write_bytes(path.read_bytes())
    entries = {XIANGSHE: {"rites": ["乡射礼", "燕礼"], "first_rite": "乡射礼"}, TESHENG: {"first_rite": "特牲馈食礼"}}
    manifest = {"book": "礼经本义", "texts": entries}
    (folder / "texts" / "manifest.yaml").write_text(yaml.safe_dump(manifest, allow_unicode=True), "utf-8")
    (folder / "glossary.yaml").write_bytes((ROOT / "decks" / "glossary.yaml").read_bytes())
    return folder


@pytest.fixture(scope="session")
def book() -> Corpus:
    """The project's default corpus (the whole book, decks/texts), parsed once per session."""
    return load_corpus()


@pytest.fixture(scope="session")
def line_labels() -> dict[str, set[int]]:
    raw = yaml.safe_load((DATA / "line_labels_000.yaml").read_text("utf-8"))
    return {k: ranges(v) for k, v in raw.items()}


# CI explores the same examples every run (a red build must mean a change broke something);
# local runs draw new ones.
settings.register_profile("ci", derandomize=True, print_blob=True)
if os.environ.get("CI") == "true":
    settings.load_profile("ci")

PG_ADMIN_URL = os.environ.get("STUDY_TEST_DATABASE_URL")  # e.g. from scripts/pg-test-server start


def pytest_collection_modifyitems(items):
    """Tests that use a database are marked ``database``: CI runs them again on PostgreSQL."""
    for item in items:
        if "database_url" in getattr(item, "fixturenames", ()):
            item.add_marker(pytest.mark.database)


@pytest.fixture
def database_url(tmp_path):
    """A fresh, empty database: a SQLite file, or a new PostgreSQL database when
    STUDY_TEST_DATABASE_URL names a server (dropped after the test)."""
    if not PG_ADMIN_URL:
        yield f"sqlite:///{tmp_path / 'study.sqlite'}"
        return
    import sqlalchemy as sa

    name = f"t_{uuid.uuid4().hex[:12]}"

    def admin(sql: str) -> None:  # a fresh connection each time: a test may restart the server
        engine = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
        with engine.connect() as conn:
            conn.exec_driver_sql(sql)
        engine.dispose()

    admin(f'CREATE DATABASE "{name}"')
    yield sa.engine.make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False)
    admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def dispose(app) -> None:
    """Close an app's database connections (before its test database is dropped)."""
    app.extensions["study"].store.readers.close()
    app.extensions["study"].store.engine.dispose()


@pytest.fixture
def store(database_url):
    """A review store on a migrated test database (SQLite, or PostgreSQL in CI's second run)."""
    from study.learn.db import make_engine, upgrade
    from study.learn.schedule import ReviewStore, make_scheduler

    engine = make_engine(database_url)
    upgrade(engine)
    yield ReviewStore(engine, make_scheduler(fuzzing=False))
    engine.dispose()


@pytest.fixture
def app(database_url):
    from web import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": database_url,
            "RANDOM_SEED": 1,
            "FSRS_FUZZING": False,
            "TEXTS": [str(p) for p in SEED_PATHS],  # the quiz's logic on small known texts
        }
    )
    yield app
    dispose(app)


@pytest.fixture
def client(app):
    return app.test_client()


PASSWORD = "口令-12345678"


class Api:
    """A signed-in JSON client: remembers the CSRF token like the quiz page does, and the token of
    each item it was shown (so ``answer(item_id, …)`` answers the question last shown)."""

    def __init__(self, client, name: str = "学生甲", class_code: str | None = None, password: str = PASSWORD) -> None:
        self.client = client
        self.token = client.get("/api/session").get_json()["csrf_token"]
        self.shown: dict[str, str] = {}
        body = {"name": name, "password": password} | ({"class_code": class_code} if class_code else {})
        r = client.post("/api/session", json=body, headers=self.headers)
        assert r.status_code == 200, r.get_json()
        self.token = r.get_json()["csrf_token"]  # a new session at sign-in, with a new token

    @property
    def headers(self) -> dict[str, str]:
        return {"X-CSRFToken": self.token}

    def next(self, **params: str):
        r = self.client.get("/api/next", query_string=params)
        item = (r.get_json() or {}).get("item") if r.status_code == 200 else None
        if item:
            self.shown[item["id"]] = item["token"]
        return r

    def question(self, **params: str) -> dict:
        """The next question, past any introductions (each read, as a learner would)."""
        for _ in range(20):
            item = self.next(**params).get_json()["item"]
            if item is None or item["kind"] != "intro":
                return item
            r = self.client.post("/api/intro", json={"token": item["token"]}, headers=self.headers)
            assert r.status_code == 200, r.get_json()
        raise AssertionError("introductions without end")

    def answer(self, item, answer: object, **extra: object):
        item_id = item["id"] if isinstance(item, dict) else item
        token = (
            item["token"] if isinstance(item, dict) else self.shown.get(item_id) if isinstance(item_id, str) else None
        )
        body = {"item_id": item_id, "answer": answer} | ({"token": token} if token else {}) | extra
        return self.client.post("/api/answer", json=body, headers=self.headers)


def shown(app, item: dict):
    """The question an item (as /api/next gave it) shows, rebuilt from its signed token."""
    import random

    from study.learn.quiz import present
    from web import tokens

    state = app.extensions["study"]
    with app.test_request_context():
        value = tokens._signer().unsign(item["token"]).decode()
    learner_id, seed, item_id = value.split(":", 2)
    learner = state.store.learner(int(learner_id))
    catalog = state.catalog_for(learner.class_id)
    return present(catalog.get(item_id), catalog, random.Random(int(seed)))


@pytest.fixture
def api(client):
    return Api(client)


def find_free_port() -> int:
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


def wait_for_server(port: int, timeout: float = 10.0) -> None:
    deadline = time.monotonic() + timeout
    while True:
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=0.5):
                return
        except OSError:
            if time.monotonic() > deadline:
                raise
            time.sleep(0.05)


@contextmanager
def serving(app) -> Iterator[str]:
    """Serve ``app`` on a free 127.0.0.1 port in a background thread; yields its base URL."""
    from werkzeug.serving import make_server

    port = find_free_port()
    server = make_server("127.0.0.1", port, app, threaded=True)
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        wait_for_server(port)
        yield f"http://127.0.0.1:{port}"
    finally:
        server.shutdown()
        server.server_close()
        thread.join(5)
        dispose(app)
