from __future__ import annotations

from pathlib import Path

import pytest
import yaml

from study.build import Corpus, load_corpus, load_document
from study.model import Document

ROOT = Path(__file__).resolve().parents[1]
TEXTS = ROOT / "decks" / "texts"
DATA = Path(__file__).resolve().parent / "data"
XIANGSHE = "000_5ea6dcd6bccc2da6.txt"
TESHENG = "004_b33f8e7c4f66e3ba.txt"


def ranges(items: list[int | str]) -> set[int]:
    """Line numbers from a YAML list like [1, 370-375]."""
    out: set[int] = set()
    for item in items:
        a, _, b = str(item).partition("-")
        out.update(range(int(a), int(b or a) + 1))
    return out


@pytest.fixture(scope="session")
def text_paths() -> list[Path]:
    paths = sorted(TEXTS.glob("*.txt"))
    assert paths, f"no texts under {TEXTS}"
    return paths


@pytest.fixture(scope="session")
def xiangshe() -> Document:
    return load_document(TEXTS / XIANGSHE)


@pytest.fixture(scope="session")
def tesheng() -> Document:
    return load_document(TEXTS / TESHENG)


@pytest.fixture(scope="session")
def corpus(text_paths: list[Path]) -> Corpus:
    return load_corpus(text_paths)


@pytest.fixture(scope="session")
def line_labels() -> dict[str, set[int]]:
    raw = yaml.safe_load((DATA / "line_labels_000.yaml").read_text("utf-8"))
    return {k: ranges(v) for k, v in raw.items()}


@pytest.fixture
def app(tmp_path):
    from web import create_app

    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "test",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'study.sqlite'}",
            "RANDOM_SEED": 1,
            "FSRS_FUZZING": False,
        }
    )


@pytest.fixture
def client(app):
    return app.test_client()


class Api:
    """A signed-in JSON client: remembers the CSRF token like the quiz page does."""

    def __init__(self, client, name: str = "学生甲", class_code: str | None = None) -> None:
        self.client = client
        self.token = client.get("/api/session").get_json()["csrf_token"]
        body = {"name": name} | ({"class_code": class_code} if class_code else {})
        r = client.post("/api/session", json=body, headers=self.headers)
        assert r.status_code == 200, r.get_json()

    @property
    def headers(self) -> dict[str, str]:
        return {"X-CSRFToken": self.token}

    def next(self, **params: str):
        return self.client.get("/api/next", query_string=params)

    def answer(self, item_id: str, answer: object):
        return self.client.post("/api/answer", json={"item_id": item_id, "answer": answer}, headers=self.headers)


@pytest.fixture
def api(client):
    return Api(client)
