"""The book's evidence (study/terms/bookpairs.py) kept between processes and looked up cheaply: a
small deck of one 卷 read the whole book in every process, and every text of a load looked at every
file of the book again."""

from __future__ import annotations

import os
import shutil

import pytest

from study.terms import bookpairs
from study.terms.bookpairs import book_pairs, cache_file, one_look
from study.terms.glosses import extract_glosses
from tests.conftest import TEXTS


def _method(doc):
    return extract_glosses(doc, review=False)


@pytest.fixture
def book(tmp_path, monkeypatch):
    """A book of one 卷 (士相見禮) with its manifest, and an empty cache folder."""
    folder = tmp_path / "texts"
    folder.mkdir()
    for name in ("KR1d0044_008.txt", "manifest.yaml"):
        shutil.copy(TEXTS / name, folder / name)
    monkeypatch.setenv("STUDY_CACHE", str(tmp_path / "cache"))
    bookpairs._pairs.cache_clear()
    yield folder
    bookpairs._pairs.cache_clear()


def test_the_pairs_are_read_once_and_kept_for_the_next_process(book, monkeypatch):
    read = book_pairs(_method, book)
    assert read and ("妥", "安") in read
    kept = cache_file(_method, book, bookpairs._stamp(book))
    assert kept.is_file() and kept.parent == book.parent / "cache"
    bookpairs._pairs.cache_clear()  # a new process: the book is not read again

    def unread(*args):
        raise AssertionError("the book was read again")

    monkeypatch.setattr(bookpairs, "_read_book", unread)
    assert book_pairs(_method, book) == read


def test_a_changed_file_of_the_book_is_read_again(book):
    before = cache_file(_method, book, bookpairs._stamp(book))
    book_pairs(_method, book)
    path = book / "KR1d0044_008.txt"
    path.write_bytes(path.read_bytes().replace("結于面".encode(), "結于胸".encode(), 1))
    assert cache_file(_method, book, bookpairs._stamp(book)) != before
    assert book_pairs(_method, book)  # read again (the first file stays, for the old book)


def test_an_unwritable_cache_only_costs_the_read(book, monkeypatch, tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    monkeypatch.setenv("STUDY_CACHE", str(blocker / "cache"))  # under a file: cannot be made
    assert ("妥", "安") in book_pairs(_method, book)


def test_a_load_looks_at_the_books_files_once(book, monkeypatch):
    book_pairs(_method, book)
    looks = []
    stamp = bookpairs._stamp
    monkeypatch.setattr(bookpairs, "_stamp", lambda folder: looks.append(folder) or stamp(folder))
    with one_look():
        for _ in range(18):
            book_pairs(_method, book)
    assert looks == [book]
    book_pairs(_method, book)
    book_pairs(_method, book)
    assert len(looks) == 3  # outside a load, each call looks (a file changed between two builds is seen)


def test_only_the_newest_pairs_are_kept(book, tmp_path):
    cache = tmp_path / "cache"
    cache.mkdir()
    for k in range(bookpairs.KEEP + 5):
        (cache / f"bookpairs-old{k}.json").write_text("[]")
        os.utime(cache / f"bookpairs-old{k}.json", (1e9 + k, 1e9 + k))  # older than the one written now
    book_pairs(_method, book)
    kept = sorted(cache.glob("bookpairs-*.json"))
    assert len(kept) == bookpairs.KEEP and cache_file(_method, book, bookpairs._stamp(book)) in kept
