"""Signed question tokens: /api/next writes nothing; it signs what it showed.

A token holds the learner, the item and the seed its options or items were shuffled with; its
signature (itsdangerous, keyed by the app's secret key) carries the time it was issued. Answering
rebuilds the very question shown from the seed, so two tabs holding two shuffles of one item are
each graded against their own. A token is answered once: its id (a hash of it) is stored with the
review and a second answer with it gets the first result back. Nothing in a token tells the answer.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from datetime import UTC, datetime
from functools import lru_cache

from flask import current_app
from itsdangerous import BadSignature, SignatureExpired, URLSafeTimedSerializer

from .security import KeyCachingSigner

MAX_AGE = 24 * 3600  # seconds a question may stay unanswered
SALT = "study.question"


class TokenError(ValueError):
    """A token that is not ours, not this learner's or this item's, or too old."""


@dataclass(frozen=True)
class Shown:
    learner_id: int
    item_id: str
    seed: int
    issued: datetime
    token_id: str


def _serializer() -> URLSafeTimedSerializer:
    return _serializer_for(current_app.config["SECRET_KEY"])


@lru_cache(maxsize=8)
def _serializer_for(secret_key: str) -> URLSafeTimedSerializer:
    """One serializer per key (made once: each question and answer signs or reads a token)."""
    return URLSafeTimedSerializer(secret_key, salt=SALT, signer=KeyCachingSigner)


def issue(learner_id: int, item_id: str, seed: int) -> str:
    return _serializer().dumps({"l": learner_id, "i": item_id, "s": seed})


def token_id(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:40]


def read(token: object, learner_id: int, item_id: object = None) -> Shown:
    """The question a token shows, checked against the learner (and the item, when given)."""
    if not isinstance(token, str) or not 10 <= len(token) <= 1000:
        raise TokenError("token")
    try:
        data, issued = _serializer().loads(token, max_age=MAX_AGE, return_timestamp=True)
    except SignatureExpired:
        raise TokenError("expired") from None
    except BadSignature:
        raise TokenError("token") from None
    if not isinstance(data, dict) or data.get("l") != learner_id or not isinstance(data.get("i"), str):
        raise TokenError("token")
    if item_id is not None and data["i"] != item_id:
        raise TokenError("token")
    return Shown(learner_id, data["i"], int(data.get("s", 0)), issued.astimezone(UTC), token_id(token))
