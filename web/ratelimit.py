"""Rate limits (the ``limits`` library, the engine of Flask-Limiter): sign-in, sign-up and teacher
login, counted where every worker sees the same count — the app's database (a small storage
backend below, on the project's SQLAlchemy engine), or Redis when ``RATELIMIT_STORAGE_URI`` names
one.

Use: ``@rate_limited("sign_in")`` on a view, or ``check("sign_in", key)`` inside one (for a key
from the request body, such as the name signed in as). The rules are in ``RATE_LIMITS`` (config):
``{"sign_in": "10 per minute;100 per hour", …}``; a request over a limit is answered 429 with a
localized message and ``Retry-After``.
"""

from __future__ import annotations

import functools
import time
from collections.abc import Callable
from typing import Any

import sqlalchemy as sa
from flask import Flask, current_app, request
from limits import parse_many
from limits.storage import Storage, storage_from_string
from limits.strategies import FixedWindowRateLimiter
from sqlalchemy.dialects import postgresql, sqlite
from sqlalchemy.engine import Engine
from werkzeug.exceptions import TooManyRequests

from study.learn.db import rate_limits

from .i18n import t

DEFAULT_LIMITS = {
    "sign_in": "10 per minute;60 per hour",  # per client address
    "sign_in_name": "10 per 10 minutes",  # per learner name signed in as (guessing one password)
    "teacher_login": "10 per minute;60 per hour",
    "deck_build": "20 per minute",
}


class DatabaseStorage(Storage):
    """Fixed-window counters in the ``rate_limits`` table (one row per key and window)."""

    STORAGE_SCHEME = ["study+db"]

    def __init__(self, uri: str | None = None, wrap_exceptions: bool = False, **options: Any) -> None:
        super().__init__(uri, wrap_exceptions=wrap_exceptions)
        self.engine: Engine = options["engine"]

    @property
    def base_exceptions(self) -> type[Exception] | tuple[type[Exception], ...]:
        return sa.exc.SQLAlchemyError

    def incr(self, key: str, expiry: int, amount: int = 1) -> int:
        now = time.time()
        with self.engine.begin() as conn:
            dialect = postgresql if conn.dialect.name == "postgresql" else sqlite
            conn.execute(
                dialect.insert(rate_limits)
                .values(key=key, count=0, expires_at=now + expiry)
                .on_conflict_do_nothing(index_elements=["key"])
            )
            query = sa.select(rate_limits).where(rate_limits.c.key == key)
            if conn.dialect.name != "sqlite":
                query = query.with_for_update()
            row = conn.execute(query).one()
            count, expires = (0, now + expiry) if row.expires_at <= now else (row.count, row.expires_at)
            count += amount
            conn.execute(rate_limits.update().where(rate_limits.c.key == key).values(count=count, expires_at=expires))
            if count == amount:  # a new window: sweep windows long over now and then
                conn.execute(rate_limits.delete().where(rate_limits.c.expires_at < now - 3600))
        return count

    def get(self, key: str) -> int:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(rate_limits).where(rate_limits.c.key == key)).first()
        return row.count if row is not None and row.expires_at > time.time() else 0

    def get_expiry(self, key: str) -> float:
        with self.engine.connect() as conn:
            row = conn.execute(sa.select(rate_limits.c.expires_at).where(rate_limits.c.key == key)).first()
        return float(row.expires_at) if row is not None else time.time()

    def check(self) -> bool:
        try:
            with self.engine.connect() as conn:
                conn.execute(sa.select(1))
        except sa.exc.SQLAlchemyError:
            return False
        return True

    def reset(self) -> int | None:
        with self.engine.begin() as conn:
            return conn.execute(rate_limits.delete()).rowcount

    def clear(self, key: str) -> None:
        with self.engine.begin() as conn:
            conn.execute(rate_limits.delete().where(rate_limits.c.key == key))


def init_app(app: Flask, engine: Engine) -> None:
    uri = app.config.get("RATELIMIT_STORAGE_URI") or "study+db://"
    options = {"engine": engine} if uri.startswith("study+db") else {}
    storage = storage_from_string(uri, **options)
    rules = DEFAULT_LIMITS | dict(app.config.get("RATE_LIMITS") or {})
    app.extensions["study_limits"] = (FixedWindowRateLimiter(storage), rules)


def check(rule: str, key: str | None = None) -> None:
    """Count one request against ``rule`` for ``key`` (default: the client's address); 429 when
    the rule's limit is reached."""
    limiter, rules = current_app.extensions["study_limits"]
    spec = rules.get(rule)
    if not spec or not current_app.config.get("RATELIMIT_ENABLED", True):
        return
    who = key if key is not None else (request.remote_addr or "-")
    for limit in parse_many(spec):
        if not limiter.hit(limit, rule, who):
            reset, _ = limiter.get_window_stats(limit, rule, who)
            wait = max(int(reset - time.time()) + 1, 1)
            raise TooManyRequests(t("err_rate_limited", seconds=wait), retry_after=wait)


def rate_limited(rule: str) -> Callable[[Callable[..., Any]], Callable[..., Any]]:
    """A view decorator: :func:`check` ``rule`` per client address before the view runs
    (safe methods are not counted)."""

    def decorate(view: Callable[..., Any]) -> Callable[..., Any]:
        @functools.wraps(view)
        def wrapped(*args: Any, **kwargs: Any) -> Any:
            if request.method not in ("GET", "HEAD", "OPTIONS"):
                check(rule)
            return view(*args, **kwargs)

        return wrapped

    return decorate
