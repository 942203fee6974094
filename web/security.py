"""CSRF tokens, security headers, same-site redirects, and ``harden``, which sets up the app's
checked inputs (web/inputs.py), cookie sessions (web/signing.py) and bounded ids. The secret key
is web/secretkey.py's."""

from __future__ import annotations

import hmac
import secrets
from collections.abc import Callable
from typing import Any
from urllib.parse import unquote, urlsplit

from flask import Flask, Response, abort, current_app, request, session
from werkzeug.routing import IntegerConverter

from .inputs import CONTROL, SafeJSONProvider, check_text_input, limit_body
from .signing import CookieSessions

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
HSTS = "max-age=31536000; includeSubDomains"
SIGNED_IN_KEYS = ("sid", "learner_id", "teacher_id")  # a learner's session token, a teacher


def harden(app: Flask) -> None:
    """Production cookies, bounded JSON and ids, checked text and CSRF tokens (:func:`check_request`):
    called by ``create_app`` before the blueprints are registered."""
    if app.config.get("PRODUCTION"):
        app.config["SESSION_COOKIE_SECURE"] = True  # behind TLS only (HSTS in secure_headers)
    app.json = SafeJSONProvider(app)
    app.ensure_sync = _SyncChecked(app.ensure_sync)  # type: ignore[method-assign]
    app.session_interface = CookieSessions()
    app.url_map.converters["int"] = BoundedInt
    app.before_request(check_request)


class _SyncChecked:
    """``Flask.ensure_sync`` remembered per function: Flask asks for every hook and view of every
    request whether it is a coroutine function (``inspect``, a few µs each); the answer for one
    function does not change."""

    def __init__(self, ensure_sync: Callable[[Callable[..., Any]], Callable[..., Any]]) -> None:
        self._ensure_sync = ensure_sync
        self._checked: dict[Callable[..., Any], Callable[..., Any]] = {}

    def __call__(self, func: Callable[..., Any]) -> Callable[..., Any]:
        checked = self._checked.get(func)
        if checked is None:
            if len(self._checked) > 1024:
                self._checked.clear()
            checked = self._checked[func] = self._ensure_sync(func)
        return checked


class BoundedInt(IntegerConverter):
    """``<int:…>`` up to 2³¹−1: a 20-digit id is a 404, not an overflow in the database (500)."""

    def __init__(self, map, fixed_digits=0, min=None, max=2**31 - 1, signed=False):  # type: ignore[no-untyped-def] # noqa: A002
        super().__init__(map, fixed_digits=fixed_digits, min=min, max=max, signed=signed)


def csrf_token() -> str:
    token = session.get("csrf")
    if not isinstance(token, str) or not token:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


UNSAFE = ("POST", "PUT", "PATCH", "DELETE")


def check_request() -> None:
    """Before every request, in this order: the body's limit, set before anything reads the body
    (the API's 16 KiB, not a form's); then, for a request that may change something, its form
    fields' text and its CSRF token. (One hook rather than three: a GET, most requests, stops
    after the first step.)"""
    limit_body()
    if request.method in UNSAFE:
        check_text_input()
        check_csrf()


def check_csrf() -> None:
    """Every unsafe request must carry the session's token (header X-CSRFToken or form field)."""
    if request.method not in UNSAFE or request.routing_exception is not None:
        return  # safe methods, and requests the router refuses anyway (404, 405)
    sent = request.headers.get("X-CSRFToken") or request.form.get("csrf_token", "")
    expected = session.get("csrf", "")
    if not isinstance(expected, str) or not expected or not sent:
        abort(403, description="csrf")
    # compared as bytes: compare_digest refuses str with non-ASCII characters (a TypeError, a 500)
    if not hmac.compare_digest(sent.encode("utf-8", "surrogatepass"), expected.encode("utf-8")):
        abort(403, description="csrf")


def signed_in() -> bool:
    return any(key in session for key in SIGNED_IN_KEYS)


def secure_headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["X-Frame-Options"] = "DENY"
    if current_app.config.get("PRODUCTION"):
        response.headers["Strict-Transport-Security"] = HSTS
    if signed_in() or "attachment" in response.headers.get("Content-Disposition", ""):
        response.headers["Cache-Control"] = "no-store"  # reports, progress, exports: never cached
    return response


def safe_next(target: str | None, default: str = "/") -> str:
    """``target`` if it is a path on this site, else ``default``.

    Checked after the normalisation browsers apply: they drop tabs and newlines and read ``\\`` as
    ``/``, so ``/%09/evil.example`` and ``/\\evil.example`` both lead to another host.
    """
    if not target or CONTROL.search(target) or any(c.isspace() for c in target):
        return default
    for candidate in (target, unquote(target)):
        cleaned = candidate.replace("\\", "/")
        if not cleaned.startswith("/") or cleaned.startswith("//"):
            return default
        parts = urlsplit(cleaned)
        if parts.scheme or parts.netloc:
            return default
    if any(c.isspace() or CONTROL.search(c) for c in unquote(target)):
        return default
    return target
