"""The parsed book on disk (web/bookcache.py): built once, loaded by later start-ups, read again
when a text, the glossary or the code changes, rebuilt when the file is damaged."""

from __future__ import annotations

import shutil
from pathlib import Path

from study.build import default_glossary_path, load_document, load_terms
from study.learn.gather import build_catalog
from tests.conftest import SEED_PATHS, XIANGSHE_PATH, dispose
from web.bookcache import PREFIX, SUFFIX, cached


class Builder:
    """Reads the given texts as the app does, counting how often it had to."""

    def __init__(self, paths: list[Path]) -> None:
        self.paths, self.calls = paths, 0

    def __call__(self):  # type: ignore[no-untyped-def]
        self.calls += 1
        documents = [load_document(p) for p in self.paths]
        terms = load_terms(documents, default_glossary_path())
        return documents, terms, build_catalog(documents, terms)


def _files(folder: Path) -> list[Path]:
    return sorted(folder.glob(f"{PREFIX}*{SUFFIX}"))


def test_a_second_start_loads_the_book_the_first_built(tmp_path: Path) -> None:
    build = Builder(list(SEED_PATHS))
    inputs = [*SEED_PATHS, default_glossary_path()]
    documents, terms, catalog = cached(tmp_path, inputs, build)
    again = cached(tmp_path, inputs, build)
    assert build.calls == 1 and len(_files(tmp_path)) == 1
    assert again[0] == documents and again[1] == terms
    assert [i.id for i in again[2].items] == [i.id for i in catalog.items] and len(catalog.items) > 100
    # the loaded catalog's terms are the loaded terms (one object each, as built)
    loaded_terms = {id(t) for t in again[1]}
    assert all(i.term is None or id(i.term) in loaded_terms for i in again[2].items if i.family == "vocab")


def test_a_changed_text_is_read_again(tmp_path: Path) -> None:
    texts = tmp_path / "texts"
    texts.mkdir()
    copy = texts / XIANGSHE_PATH.name
    shutil.copy(XIANGSHE_PATH, copy)
    build = Builder([copy])
    first = cached(tmp_path / "cache", [copy], build)
    copy.write_text(copy.read_text("utf-8").replace("賔", "宾", 1), "utf-8")
    second = cached(tmp_path / "cache", [copy], build)
    assert build.calls == 2 and len(_files(tmp_path / "cache")) == 2
    assert first[0] != second[0]


def test_a_damaged_cache_file_is_rebuilt_and_replaced(tmp_path: Path) -> None:
    build = Builder([XIANGSHE_PATH])
    cached(tmp_path, [XIANGSHE_PATH], build)
    (path,) = _files(tmp_path)
    path.write_bytes(path.read_bytes()[:1000])  # a truncated pickle
    documents, _, _ = cached(tmp_path, [XIANGSHE_PATH], build)
    assert build.calls == 2 and documents[0].rites
    cached(tmp_path, [XIANGSHE_PATH], build)
    assert build.calls == 2  # the rebuilt file is read


def test_an_unwritable_cache_folder_only_costs_the_build(tmp_path: Path) -> None:
    blocked = tmp_path / "file"
    blocked.write_text("not a folder")
    build = Builder([XIANGSHE_PATH])
    documents, _, catalog = cached(blocked / "cache", [XIANGSHE_PATH], build)
    assert documents[0].rites and catalog.items and build.calls == 1


def test_the_app_writes_its_book_into_the_cache_folder(tmp_path: Path) -> None:
    from web import create_app

    app = create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "cache",
            "DATABASE_URL": f"sqlite:///{tmp_path / 'db.sqlite'}",
            "TEXTS": [str(p) for p in SEED_PATHS],
            "BOOK_CACHE": str(tmp_path / "cache"),
        }
    )
    try:
        assert len(_files(tmp_path / "cache")) == 1
        assert app.extensions["study"].catalog.items
    finally:
        dispose(app)
