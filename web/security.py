"""CSRF tokens, security headers, and the secret key."""

from __future__ import annotations

import hmac
import os
import secrets
from pathlib import Path

from flask import Flask, Response, abort, current_app, request, session

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)


def csrf_token() -> str:
    token = session.get("csrf")
    if not token:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def limit_body() -> None:
    """The JSON API takes small bodies; only the teacher's forms may carry a pasted term list."""
    if request.path.startswith("/api/"):
        request.max_content_length = current_app.config["API_MAX_CONTENT_LENGTH"]


def check_csrf() -> None:
    """Every unsafe request must carry the session's token (header X-CSRFToken or form field)."""
    if request.method not in ("POST", "PUT", "PATCH", "DELETE") or request.routing_exception is not None:
        return  # safe methods, and requests the router refuses anyway (404, 405)
    sent = request.headers.get("X-CSRFToken") or request.form.get("csrf_token", "")
    expected = session.get("csrf", "")
    if not expected or not sent or not hmac.compare_digest(sent, expected):
        abort(403, description="csrf")


def secure_headers(response: Response) -> Response:
    response.headers["Content-Security-Policy"] = CSP
    response.headers["X-Content-Type-Options"] = "nosniff"
    response.headers["Referrer-Policy"] = "same-origin"
    response.headers["X-Frame-Options"] = "DENY"
    return response


def secret_key(app: Flask, *, production: bool) -> str:
    """The secret key from config or the environment; outside production a random key is kept
    in the instance folder. In production the app refuses to start without one."""
    key = app.config.get("SECRET_KEY") or os.environ.get("STUDY_SECRET_KEY") or os.environ.get("SECRET_KEY")
    if key:
        return str(key)
    if production:
        raise RuntimeError("STUDY_SECRET_KEY is not set: refusing to start in production without a secret key")
    path = Path(app.instance_path) / "secret_key"
    if path.is_file():
        return path.read_text("utf-8").strip()
    path.parent.mkdir(parents=True, exist_ok=True)
    tmp = path.with_suffix(".tmp")
    tmp.write_text(secrets.token_hex(32), "utf-8")
    os.chmod(tmp, 0o600)
    os.replace(tmp, path)
    return path.read_text("utf-8").strip()
