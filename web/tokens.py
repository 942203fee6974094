"""Signed question tokens: /api/next writes nothing; it signs what it showed.

A token holds the learner, the seed its options or items were shuffled with and the item
(``learner:seed:item``, as text: no JSON, no compression, made on every /api/next); its signature
(itsdangerous's timestamp signer, keyed by the app's secret key) carries the time it was issued. Answering
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
from itsdangerous import BadSignature, SignatureExpired

from .signing import KeyCachingSigner

MAX_AGE = 24 * 3600  # seconds a question may stay unanswered
SALT = "study.question.2"  # (.2: the text form; a token of the JSON form before it is refused)


class TokenError(ValueError):
    """A token that is not ours, not this learner's or this item's, or too old."""


@dataclass(frozen=True)
class Shown:
    learner_id: int
    item_id: str
    seed: int
    issued: datetime
    token_id: str


def _signer() -> KeyCachingSigner:
    return _signer_for(current_app.config["SECRET_KEY"])


@lru_cache(maxsize=8)
def _signer_for(secret_key: str) -> KeyCachingSigner:
    """One signer per key (made once: each question and answer signs or reads a token)."""
    return KeyCachingSigner(secret_key, salt=SALT)


def issue(learner_id: int, item_id: str, seed: int) -> str:
    return _signer().sign(f"{learner_id}:{seed}:{item_id}").decode()


def token_id(token: str) -> str:
    return hashlib.sha256(token.encode()).hexdigest()[:40]


def read(token: object, learner_id: int, item_id: object = None) -> Shown:
    """The question a token shows, checked against the learner (and the item, when given)."""
    if not isinstance(token, str) or not 10 <= len(token) <= 1000:
        raise TokenError("token")
    try:
        value, issued = _signer().unsign(token, max_age=MAX_AGE, return_timestamp=True)
    except SignatureExpired:
        raise TokenError("expired") from None
    except BadSignature:
        raise TokenError("token") from None
    try:
        learner, seed, shown_item = value.decode().split(":", 2)
        if int(learner) != learner_id or (item_id is not None and shown_item != item_id):
            raise TokenError("token")
        number = int(seed)
    except ValueError:  # (signed with our key, so only if the form changes again)
        raise TokenError("token") from None
    return Shown(learner_id, shown_item, number, issued.astimezone(UTC), token_id(token))
