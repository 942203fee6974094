"""Move all learners' progress between databases (SQLite ↔ PostgreSQL): export to one JSON file,
import in one transaction. Importing the same file twice changes nothing."""

from __future__ import annotations

import json
from dataclasses import dataclass
from datetime import datetime
from pathlib import Path
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from ..atomic import atomic_write
from ..errors import StudyError
from .db import cards, classes, learners, review_logs

FORMAT = "study-progress"
VERSION = 1


class BackupError(StudyError):
    """A progress file that cannot be imported."""


@dataclass(frozen=True)
class BackupReport:
    classes: int
    learners: int
    cards: int
    reviews: int


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _dt(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def export_progress(engine: Engine) -> dict[str, Any]:
    """Every class, learner, card and review, keyed by class code and learner name."""
    with engine.connect() as conn:
        class_rows = conn.execute(sa.select(classes).order_by(classes.c.id)).all()
        code_of = {c.id: c.code for c in class_rows}
        learner_rows = conn.execute(sa.select(learners).order_by(learners.c.id)).all()
        name_of = {r.id: r.name for r in learner_rows}
        card_rows = conn.execute(sa.select(cards).order_by(cards.c.learner_id, cards.c.item_id)).all()
        log_rows = conn.execute(sa.select(review_logs).order_by(review_logs.c.id)).all()
    return {
        "format": FORMAT,
        "version": VERSION,
        "classes": [{"code": c.code, "name": c.name, "created_at": _iso(c.created_at)} for c in class_rows],
        "learners": [
            {"name": r.name, "class_code": code_of.get(r.class_id), "created_at": _iso(r.created_at)}
            for r in learner_rows
        ],
        "cards": [
            {
                "learner": name_of[r.learner_id],
                "item_id": r.item_id,
                "card": json.loads(r.card_json),
                "due": _iso(r.due),
                "reps": r.reps,
                "created_at": _iso(r.created_at),
                "last_review": _iso(r.last_review),
            }
            for r in card_rows
        ],
        "reviews": [
            {
                "learner": name_of[r.learner_id],
                "item_id": r.item_id,
                "rating": r.rating,
                "score": r.score,
                "correct": bool(r.correct),
                "reviewed_at": _iso(r.reviewed_at),
                "duration_ms": r.duration_ms,
                "answer": json.loads(r.answer_json),
                "answer_id": r.answer_id,
                "result": json.loads(r.result_json) if r.result_json else None,
            }
            for r in log_rows
        ],
    }


def write_export(engine: Engine, path: Path) -> BackupReport:
    """Export to ``path`` atomically (a locked temporary file, then a rename)."""
    data = export_progress(engine)
    body = json.dumps(data, ensure_ascii=False, indent=1).encode("utf-8")
    atomic_write(path, lambda f: f.write(body))
    return BackupReport(len(data["classes"]), len(data["learners"]), len(data["cards"]), len(data["reviews"]))


def _ids(conn: Connection, table: sa.Table, key: str) -> dict[str, int]:
    return {row[1]: row[0] for row in conn.execute(sa.select(table.c.id, table.c[key])).all()}


def import_progress(engine: Engine, data: dict[str, Any], *, path: str = "<data>") -> BackupReport:
    """Merge an export into ``engine``'s database in one transaction.

    Classes and learners are matched by code and name; a card is replaced when the file's copy
    was reviewed later; reviews already present (same learner, item, time and rating) are skipped.
    """
    if not isinstance(data, dict) or data.get("format") != FORMAT:
        raise BackupError(f"{path}: not a study progress file")
    if data.get("version") != VERSION:
        raise BackupError(f"{path}: unsupported version {data.get('version')!r}")
    added = {"classes": 0, "learners": 0, "cards": 0, "reviews": 0}
    try:
        with engine.begin() as conn:
            codes = _ids(conn, classes, "code")
            for c in data.get("classes", []):
                if c["code"] not in codes:
                    codes[c["code"]] = conn.execute(
                        classes.insert().values(code=c["code"], name=c["name"], created_at=_dt(c["created_at"]))
                    ).inserted_primary_key[0]
                    added["classes"] += 1
            names = _ids(conn, learners, "name")
            for r in data.get("learners", []):
                if r["name"] not in names:
                    names[r["name"]] = conn.execute(
                        learners.insert().values(
                            name=r["name"], class_id=codes.get(r.get("class_code")), created_at=_dt(r["created_at"])
                        )
                    ).inserted_primary_key[0]
                    added["learners"] += 1
            for c in data.get("cards", []):
                learner_id = names[c["learner"]]
                key = (cards.c.learner_id == learner_id) & (cards.c.item_id == c["item_id"])
                existing = conn.execute(sa.select(cards.c.last_review).where(key)).first()
                values = {
                    "card_json": json.dumps(c["card"]),
                    "due": _dt(c["due"]),
                    "reps": c["reps"],
                    "created_at": _dt(c["created_at"]),
                    "last_review": _dt(c["last_review"]),
                }
                if existing is None:
                    conn.execute(cards.insert().values(learner_id=learner_id, item_id=c["item_id"], **values))
                    added["cards"] += 1
                elif (existing.last_review or datetime.min.replace(tzinfo=values["due"].tzinfo)) < (
                    values["last_review"] or existing.last_review
                ):
                    conn.execute(cards.update().where(key).values(**values))
            seen = {
                (row.learner_id, row.item_id, _iso(row.reviewed_at), row.rating)
                for row in conn.execute(
                    sa.select(
                        review_logs.c.learner_id, review_logs.c.item_id, review_logs.c.reviewed_at, review_logs.c.rating
                    )
                ).all()
            }
            for r in data.get("reviews", []):
                learner_id = names[r["learner"]]
                key_ = (learner_id, r["item_id"], _iso(_dt(r["reviewed_at"])), r["rating"])
                if key_ in seen:
                    continue
                seen.add(key_)
                conn.execute(
                    review_logs.insert().values(
                        learner_id=learner_id,
                        item_id=r["item_id"],
                        rating=r["rating"],
                        score=r["score"],
                        correct=r["correct"],
                        reviewed_at=_dt(r["reviewed_at"]),
                        duration_ms=r["duration_ms"],
                        answer_json=json.dumps(r["answer"], ensure_ascii=False),
                        answer_id=r.get("answer_id"),
                        result_json=json.dumps(r["result"], ensure_ascii=False)
                        if r.get("result") is not None
                        else None,
                    )
                )
                added["reviews"] += 1
    except (KeyError, TypeError, ValueError) as e:
        raise BackupError(f"{path}: malformed progress file ({e!r}); nothing was imported") from None
    return BackupReport(**added)


def read_import(engine: Engine, path: Path) -> BackupReport:
    try:
        data = json.loads(path.read_text("utf-8"))
    except (OSError, UnicodeDecodeError, json.JSONDecodeError) as e:
        raise BackupError(f"{path}: cannot read the progress file: {e}") from None
    return import_progress(engine, data, path=str(path))
