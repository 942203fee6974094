"""Learners' accounts: a name and a password (hashed with Werkzeug's scrypt, as teachers'), the
classes a learner has joined, and sign-in sessions kept as rows.

A session is a random token held by the learner's cookie; the database keeps only its SHA-256.
The cookie works while the row exists: signing out deletes it, and a reset database knows no
cookie. Class membership is explicit (a class code) and cumulative: joining a new class makes it
the one studied, and the learner stays a member of the earlier ones (their reviews there stay in
those classes' reports, see ``review_logs.class_id``).
"""

from __future__ import annotations

import hashlib
import re
import secrets
from contextlib import nullcontext
from dataclasses import dataclass
from datetime import datetime
from zoneinfo import ZoneInfo, ZoneInfoNotFoundError

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Connection, Engine
from werkzeug.security import check_password_hash, generate_password_hash

from ..errors import Said, StudyError
from .db import class_members, classes, learner_sessions, learners, reading
from .prepared import Prepared

NAME_RE = re.compile(r"^[^\x00-\x1f<>]{1,40}$")
MIN_PASSWORD = 8
MAX_PASSWORD = 200
PASSWORD_LENGTH = Said(
    "password_length", "a password has {min} to {max} characters", min=MIN_PASSWORD, max=MAX_PASSWORD
)
DEFAULT_TIME_ZONE = "Asia/Shanghai"


class SignInError(StudyError):
    """A bad learner name or password (its form, not a wrong password)."""


class UnknownClassError(StudyError):
    """A class code that no class has."""


class WrongPasswordError(StudyError):
    """The name exists and the password is not its password (the web app answers 401)."""


@dataclass(frozen=True)
class Learner:
    id: int
    name: str
    class_id: int | None
    time_zone: str = DEFAULT_TIME_ZONE

    @property
    def zone(self) -> ZoneInfo:
        return zone_of(self.time_zone)


def zone_of(name: str | None) -> ZoneInfo:
    try:
        return ZoneInfo(name or DEFAULT_TIME_ZONE)
    except (ZoneInfoNotFoundError, ValueError):
        return ZoneInfo(DEFAULT_TIME_ZONE)


def valid_zone(name: object) -> str | None:
    """``name`` if it is an IANA time zone this machine knows, else None."""
    if not isinstance(name, str) or not 1 <= len(name) <= 64 or not re.fullmatch(r"[A-Za-z0-9_+\-/]+", name):
        return None
    try:
        ZoneInfo(name)
    except (ZoneInfoNotFoundError, ValueError):
        return None
    return name


def _learner(row: sa.Row) -> Learner:
    return Learner(row.id, row.name, row.class_id, row.time_zone or DEFAULT_TIME_ZONE)


def _matches(password_hash: str | None, password: str) -> bool:
    return password_hash is not None and check_password_hash(password_hash, password)


def _hash_token(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()


def check_name(name: str) -> str:
    if len(name) > 40 or not NAME_RE.match(name.strip()):
        raise SignInError(Said("name_form", "a name is 1 to 40 characters, without < or >"))
    return name.strip()


def check_password(password: str) -> None:
    if not MIN_PASSWORD <= len(password) <= MAX_PASSWORD:
        raise SignInError(PASSWORD_LENGTH)


def _insert_ignore(conn: Connection, table: sa.Table, keys: list[str], **values: object) -> int:
    dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
    stmt = dialect.insert(table).values(**values).on_conflict_do_nothing(index_elements=keys)
    return conn.execute(stmt).rowcount


_BY_NAME = sa.select(learners).where(learners.c.name == sa.bindparam("name"))
# the learner of an open session: read on every request (a prepared statement, study.learn.prepared)
_BY_SESSION = Prepared(
    sa.select(learners.c.id, learners.c.name, learners.c.class_id, learners.c.time_zone)
    .join(learner_sessions, learner_sessions.c.learner_id == learners.c.id)
    .where(learner_sessions.c.token_hash == sa.bindparam("token_hash"))
)


class Accounts:
    def __init__(self, engine: Engine) -> None:
        self.engine = engine

    def sign_in(
        self,
        name: str,
        password: str | None,
        class_code: str | None,
        now: datetime,
        *,
        time_zone: str | None = None,
    ) -> Learner:
        """The learner called ``name``: created when the name is new, else signed in when
        ``password`` is theirs (a learner from before passwords takes it as theirs). With
        ``class_code`` the learner joins that class. ``password=None`` skips the password (tools
        and tests that act for a learner, never the web app)."""
        name = check_name(name)
        if password is not None:
            check_password(password)
        zone = valid_zone(time_zone)
        with reading(self.engine) as conn:
            class_id = self._class_id(conn, class_code)
            row = conn.execute(_BY_NAME, {"name": name}).first()
        # hashing takes ~50 ms: done outside any transaction that holds the write lock
        new_hash = None
        if row is None or (row.password_hash is None and password is not None):
            new_hash = generate_password_hash(password) if password is not None else None
        elif password is not None and not check_password_hash(row.password_hash, password):
            raise WrongPasswordError("wrong name or password")
        with self.engine.begin() as conn:
            if row is None:
                values = {"name": name, "class_id": class_id, "created_at": now, "password_hash": new_hash}
                if zone:
                    values["time_zone"] = zone
                inserted = _insert_ignore(conn, learners, ["name"], **values)
                row = conn.execute(_BY_NAME, {"name": name}).one()
                if not inserted and password is not None and not _matches(row.password_hash, password):
                    raise WrongPasswordError("wrong name or password")  # someone else took the name just now
            else:
                changes: dict[str, object] = {}
                if new_hash is not None:
                    # claim a password-less (pre-0004) account only if nobody claimed it meanwhile
                    claimed = conn.execute(
                        learners.update()
                        .where((learners.c.id == row.id) & learners.c.password_hash.is_(None))
                        .values(password_hash=new_hash)
                    ).rowcount
                    if not claimed:
                        raise WrongPasswordError("wrong name or password")
                if class_id is not None and row.class_id != class_id:
                    changes["class_id"] = class_id
                if zone and zone != row.time_zone:
                    changes["time_zone"] = zone
                if changes:
                    conn.execute(learners.update().where(learners.c.id == row.id).values(**changes))
                row = conn.execute(_BY_NAME, {"name": name}).one()
            if class_id is not None:
                _insert_ignore(
                    conn, class_members, ["class_id", "learner_id"], class_id=class_id, learner_id=row.id, joined_at=now
                )
        return _learner(row)

    def _class_id(self, conn: Connection, class_code: str | None) -> int | None:
        if not class_code or not class_code.strip():
            return None
        class_id = conn.execute(sa.select(classes.c.id).where(classes.c.code == class_code.strip().upper())).scalar()
        if class_id is None:
            raise UnknownClassError(f"unknown class code {class_code.strip()!r}")
        return int(class_id)

    def learner(self, learner_id: int) -> Learner | None:
        with reading(self.engine) as conn:
            row = conn.execute(sa.select(learners).where(learners.c.id == learner_id)).first()
        return _learner(row) if row else None

    # --- sessions -------------------------------------------------------------------------
    def open_session(self, learner_id: int, now: datetime) -> str:
        """A new session for the learner; the token goes into the cookie."""
        token = secrets.token_urlsafe(32)
        with self.engine.begin() as conn:
            conn.execute(
                learner_sessions.insert().values(token_hash=_hash_token(token), learner_id=learner_id, created_at=now)
            )
        return token

    def session_learner(self, token: object, conn: Connection | None = None) -> Learner | None:
        """The learner whose session ``token`` is, while that session is open (one query; on
        ``conn`` when given, e.g. a request's one read connection)."""
        if not isinstance(token, str) or not 20 <= len(token) <= 100:
            return None
        with nullcontext(conn) if conn is not None else reading(self.engine) as c:
            row = _BY_SESSION.first(c, {"token_hash": _hash_token(token)})
        if row is None:
            return None
        learner_id, name, class_id, time_zone = row
        return Learner(learner_id, name, class_id, time_zone or DEFAULT_TIME_ZONE)

    def close_session(self, token: object) -> None:
        if isinstance(token, str):
            with self.engine.begin() as conn:
                conn.execute(learner_sessions.delete().where(learner_sessions.c.token_hash == _hash_token(token)))
