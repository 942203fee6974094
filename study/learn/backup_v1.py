"""Version 1 progress files (before teachers, owners and assignments were kept): merged by class
code and learner name in one transaction. Importing the same file twice changes nothing.
:mod:`study.learn.backup` writes version 2 and reads both."""

from __future__ import annotations

import json
from datetime import datetime
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine

from .db import cards, classes, learners, review_logs


def _iso(value: datetime | None) -> str | None:
    return value.isoformat() if value is not None else None


def _dt(value: str | None) -> datetime | None:
    return datetime.fromisoformat(value) if value else None


def _ids(conn: Connection, table: sa.Table, key: str) -> dict[str, int]:
    return {row[1]: row[0] for row in conn.execute(sa.select(table.c.id, table.c[key])).all()}


def import_v1(engine: Engine, data: dict[str, Any], *, path: str = "<data>") -> dict[str, int]:
    """Merge an export into ``engine``'s database in one transaction.

    Classes and learners are matched by code and name; a card is replaced when the file's copy
    was reviewed later; reviews already present (same learner, item, time and rating) are skipped.
    """
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
    except (KeyError, TypeError, ValueError, AttributeError) as e:
        raise ValueError(f"{path}: malformed progress file ({e!r}); nothing was imported") from None
    return added
