"""Teachers, their classes (joined with a short code) and what each class studies.

Passwords are hashed with Werkzeug's maintained ``generate_password_hash`` (scrypt).
"""

from __future__ import annotations

import random
import re
import secrets
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime

import sqlalchemy as sa
from sqlalchemy.engine import Connection, Engine
from sqlalchemy.exc import IntegrityError
from werkzeug.security import check_password_hash, generate_password_hash

from ..errors import Said, StudyError
from .accounts import NAME_RE, PASSWORD_LENGTH, Learner
from .db import assignments, cards, class_members, classes, learners, reading, review_logs, teachers
from .prepared import Prepared

_ASSIGNMENT = Prepared(sa.select(assignments.c.spec_yaml).where(assignments.c.class_id == sa.bindparam("class_id")))

CODE_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZ23456789"  # no 0/O, 1/I
CODE_LENGTH = 6
MIN_PASSWORD = 8
MAX_PASSWORD = 200


class AccountError(StudyError):
    """A bad teacher name, password or class."""


@dataclass(frozen=True)
class Teacher:
    id: int
    name: str


@dataclass(frozen=True)
class ClassRoom:
    id: int
    code: str
    name: str
    teacher_id: int | None


def _class(row: sa.Row) -> ClassRoom:
    return ClassRoom(row.id, row.code, row.name, row.teacher_id)


class ClassStore:
    def __init__(self, engine: Engine, rng: random.Random | None = None) -> None:
        self.engine = engine
        self.rng = rng or secrets.SystemRandom()  # codes nobody can predict from earlier ones

    # --- teachers -------------------------------------------------------------------------
    def sign_up(self, name: str, password: str, now: datetime) -> Teacher:
        name = name.strip()
        if not NAME_RE.match(name):
            raise AccountError(Said("name_form", "a name is 1 to 40 characters, without < or >"))
        if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
            raise AccountError(PASSWORD_LENGTH)
        try:
            with self.engine.begin() as conn:
                new_id = conn.execute(
                    teachers.insert().values(name=name, password_hash=generate_password_hash(password), created_at=now)
                ).inserted_primary_key[0]
        except IntegrityError:
            raise AccountError(Said("name_taken", "the name {name!r} is taken", name=name)) from None
        return Teacher(int(new_id), name)

    def log_in(self, name: str, password: str) -> Teacher | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(teachers).where(teachers.c.name == name.strip())).first()
        if row is None or not check_password_hash(row.password_hash, password):
            return None
        return Teacher(row.id, row.name)

    def teacher(self, teacher_id: int) -> Teacher | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(teachers).where(teachers.c.id == teacher_id)).first()
        return Teacher(row.id, row.name) if row else None

    # --- classes --------------------------------------------------------------------------
    def create_class(self, teacher_id: int, name: str, now: datetime) -> ClassRoom:
        name = name.strip()
        if not 1 <= len(name) <= 100 or re.search(r"[<>\x00-\x1f]", name):
            raise AccountError(Said("class_name", "a class name is 1 to 100 characters, without < or >"))
        for _ in range(20):
            code = "".join(self.rng.choice(CODE_ALPHABET) for _ in range(CODE_LENGTH))
            try:
                with self.engine.begin() as conn:
                    new_id = conn.execute(
                        classes.insert().values(code=code, name=name, teacher_id=teacher_id, created_at=now)
                    ).inserted_primary_key[0]
                return ClassRoom(int(new_id), code, name, teacher_id)
            except IntegrityError:
                continue
        raise AccountError(Said("no_free_code", "could not find a free class code; try again"))

    def classes_of(self, teacher_id: int) -> list[ClassRoom]:
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(classes).where(classes.c.teacher_id == teacher_id).order_by(classes.c.id)
            ).all()
        return [_class(r) for r in rows]

    def class_room(self, class_id: int) -> ClassRoom | None:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(classes).where(classes.c.id == class_id)).first()
        return _class(row) if row else None

    def learners_of(self, class_id: int) -> list[Learner]:
        """Everyone who joined the class (also those who went on to another class since)."""
        members = sa.select(class_members.c.learner_id).where(class_members.c.class_id == class_id)
        with self.engine.connect() as conn:
            rows = conn.execute(
                sa.select(learners)
                .where((learners.c.class_id == class_id) | learners.c.id.in_(members))
                .order_by(learners.c.name)
            ).all()
        return [Learner(r.id, r.name, r.class_id) for r in rows]

    # --- assignments ----------------------------------------------------------------------
    def assign(self, class_id: int, spec_yaml: str, now: datetime) -> None:
        """Make ``spec_yaml`` (a deck spec) what the class studies, replacing any earlier one."""
        with self.engine.begin() as conn:
            key = assignments.c.class_id == class_id
            if conn.execute(assignments.update().where(key).values(spec_yaml=spec_yaml, updated_at=now)).rowcount == 0:
                conn.execute(assignments.insert().values(class_id=class_id, spec_yaml=spec_yaml, updated_at=now))

    def assignment(self, class_id: int | None, conn: Connection | None = None) -> str | None:
        """The class's assigned deck spec (YAML), if any: every quiz request of a class's learner
        asks (on ``conn`` when given, a request's read connection; never the write lock)."""
        if class_id is None:
            return None
        with nullcontext(conn) if conn is not None else reading(self.engine) as c:
            row = _ASSIGNMENT.first(c, {"class_id": class_id})
        return row[0] if row is not None else None

    # --- what the class did ---------------------------------------------------------------
    def class_logs(self, class_id: int) -> list[sa.Row]:
        """The reviews made in the class (a learner's reviews elsewhere are not the class's)."""
        query = (
            sa.select(review_logs, learners.c.name.label("learner"))
            .join(learners, learners.c.id == review_logs.c.learner_id)
            .where(review_logs.c.class_id == class_id)
            .order_by(review_logs.c.id)
        )
        with self.engine.connect() as conn:
            return list(conn.execute(query).all())

    def class_cards(self, class_id: int) -> list[sa.Row]:
        query = (
            sa.select(cards.c.item_id, cards.c.due, cards.c.last_review, learners.c.name.label("learner"))
            .join(learners, learners.c.id == cards.c.learner_id)
            .where(learners.c.class_id == class_id)  # the class's cards: its learners' who study it now
        )
        with self.engine.connect() as conn:
            return list(conn.execute(query).all())
