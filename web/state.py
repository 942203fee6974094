"""What one app holds: the parsed texts, the terms, the quiz catalog and the review store.

Built once per app (not at import time) and kept in ``app.extensions["study"]``.
"""

from __future__ import annotations

import gc
import hashlib
import random
from dataclasses import dataclass, field
from functools import lru_cache
from pathlib import Path

import fsrs
from flask import Flask, current_app
from sqlalchemy.engine import Connection

from study.build import default_glossary_path, default_translations_path, load_document, load_terms
from study.learn.catalog import Catalog
from study.learn.classdeck import class_catalog, spec_from_yaml
from study.learn.classes import ClassStore
from study.learn.db import check_current, make_engine, upgrade
from study.learn.gather import build_catalog
from study.learn.schedule import ReviewStore, make_scheduler
from study.model import Document, Term
from study.terms.reading import reading_in

from .bookcache import cached


@dataclass
class StudyState:
    documents: list[Document]
    terms: list[Term]
    catalog: Catalog
    store: ReviewStore
    scheduler: fsrs.Scheduler
    rng: random.Random
    classes: ClassStore
    _class_catalogs: dict[str, Catalog] = field(default_factory=dict)

    def document_of(self, rite: str) -> Document | None:
        return next((d for d in self.documents if d.rite(rite) is not None), None)

    def catalog_for(self, class_id: int | None, conn: Connection | None = None) -> Catalog:
        """What a learner studies: the class's assignment, or everything (read on ``conn``
        when given, a request's read connection)."""
        text = self.classes.assignment(class_id, conn)
        if text is None:
            return self.catalog
        key = hashlib.sha256(text.encode()).hexdigest()
        if key not in self._class_catalogs:
            if len(self._class_catalogs) > 256:
                self._class_catalogs.clear()
            self._class_catalogs[key] = class_catalog(spec_from_yaml(text), self.documents, self.terms)
        return self._class_catalogs[key]


def init_state(app: Flask) -> StudyState:
    texts = [Path(p) for p in app.config["TEXTS"]]
    if not texts:
        raise RuntimeError("no texts to study: set STUDY_DECKS to a folder with texts/*.txt (the project's decks/)")
    glossary = app.config.get("GLOSSARY")
    translations = app.config.get("TRANSLATIONS")  # None: translations.yaml beside the texts' folder
    manifests = sorted({p.parent / "manifest.yaml" for p in texts})
    corrections = sorted({default_translations_path(p) for p in texts}) if not translations else []
    folder = app.config.get("BOOK_CACHE")
    documents, terms, catalog = _loaded(
        tuple(_stamp(p) for p in texts),
        _stamp(Path(glossary)) if glossary else None,
        # what else the texts are read with
        tuple(_stamp(p) for p in [*manifests, *corrections, default_glossary_path()]),
        str(folder) if folder else None,
        _stamp(Path(translations)) if translations else None,
    )
    scheduler = make_scheduler(app.config["DESIRED_RETENTION"], fuzzing=app.config["FSRS_FUZZING"])
    engine = make_engine(app.config["DATABASE_URL"], timeout=app.config["DATABASE_TIMEOUT"])
    if app.config["PRODUCTION"] and not app.testing:
        check_current(engine)  # production never creates or migrates a database: `study db upgrade` does
    else:
        upgrade(engine)
    seed = app.config.get("RANDOM_SEED")
    state = StudyState(
        documents,
        terms,
        catalog,
        ReviewStore(engine, scheduler),
        scheduler,
        random.Random(seed) if seed is not None else random.Random(),
        ClassStore(engine, random.Random(seed) if seed is not None else None),
    )
    app.extensions["study"] = state
    return state


Stamp = tuple[str, int, int]  # a file's path, modification time and size


def _stamp(path: Path) -> Stamp:
    try:
        st = path.stat()
    except OSError:
        return (str(path), 0, 0)  # the reader reports the missing file
    return (str(path), st.st_mtime_ns, st.st_size)


@lru_cache(maxsize=4)
def _loaded(
    texts: tuple[Stamp, ...],
    glossary: Stamp | None,
    read_with: tuple[Stamp, ...],
    folder: str | None,
    translations: Stamp | None = None,
) -> tuple[list[Document], list[Term], Catalog]:
    """The parsed texts, their terms and the quiz catalog, made once per process for the same
    files (every app of a process, e.g. each test's, shares them) and, with a cache ``folder``,
    once per content of those files and the code (web/bookcache.py: the whole book takes seconds
    to read, its pickle a tenth of one). A changed file has a new stamp and is read again. None of
    the three is changed after this."""

    def build() -> tuple[list[Document], list[Term], Catalog]:
        chosen = Path(translations[0]) if translations else None
        documents = [load_document(Path(p), translations=chosen) for p, _, _ in texts]
        terms = load_terms(documents, Path(glossary[0]) if glossary else None)
        return documents, terms, build_catalog(documents, terms)

    if folder is None:
        loaded = build()
    else:
        inputs = [Path(p) for p, _, _ in texts] + [Path(glossary[0]) if glossary else None]
        inputs += [Path(translations[0])] if translations else []
        loaded = cached(Path(folder), inputs + [Path(p) for p, _, _ in read_with], build)
    # made now rather than in some learner's request: what a pinyin question reads with (pypinyin
    # and the readings table, 0.4 s), the catalog's fact and shared-gloss indexes
    reading_in("賔主")
    loaded[2].facts, loaded[2].related, loaded[2].terms_sharing("")
    # Millions of objects that live as long as the process: kept out of the garbage collector's
    # full collections, each of which would otherwise walk them all (half a second, in the middle
    # of some request; the first full one comes soon after the book is loaded from the cache).
    gc.freeze()
    return loaded


def get_state() -> StudyState:
    return current_app.extensions["study"]
