"""CSRF tokens, security headers, the secret key, and the checks every input passes: JSON depth
and sizes, control characters and lone surrogates, same-site redirects."""

from __future__ import annotations

import errno
import hmac
import json
import os
import re
import secrets
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any
from urllib.parse import unquote, urlsplit

from flask import Flask, Request, Response, abort, current_app, request, session
from flask.json.provider import DefaultJSONProvider
from flask.json.tag import TaggedJSONSerializer
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface
from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer
from werkzeug.routing import IntegerConverter

from .i18n import lang

CSP = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "object-src 'none'; base-uri 'none'; frame-ancestors 'none'; form-action 'self'"
)
HSTS = "max-age=31536000; includeSubDomains"
MIN_SECRET_BYTES = 32
MAX_JSON_DEPTH = 16
MAX_JSON_STRING = 4096  # characters of one string in a JSON body (answers are at most 200)
# C0 and C1 controls (tab, newline and carriage return allowed) and lone surrogates
CONTROL = re.compile(r"[\x00-\x08\x0b\x0c\x0e-\x1f\x7f-\x9f\ud800-\udfff]")
TEXT_FIELDS = ("name", "class_code", "password", "item_id", "answer", "answer_id", "token", "time_zone")
SIGNED_IN_KEYS = ("sid", "learner_id", "teacher_id")  # a learner's session token, a teacher

MESSAGES = {
    "control": {"zh": "输入含有不允许的控制字符", "en": "The input contains a control character that is not allowed"},
    "depth": {"zh": "JSON 嵌套太深（最多 {n} 层）", "en": "The JSON is nested too deeply (at most {n} levels)"},
    "string": {
        "zh": "JSON 中的文字太长（最多 {n} 个字符）",
        "en": "A text in the JSON is too long (at most {n} characters)",
    },
    "json": {"zh": "请求体不是有效的 JSON", "en": "The body is not valid JSON"},
}


def harden(app: Flask) -> None:
    """Production cookies, bounded JSON and ids, checked text: called by ``create_app`` before
    the blueprints are registered."""
    if app.config.get("PRODUCTION"):
        app.config["SESSION_COOKIE_SECURE"] = True  # behind TLS only (HSTS in secure_headers)
    app.json = SafeJSONProvider(app)
    app.ensure_sync = _SyncChecked(app.ensure_sync)  # type: ignore[method-assign]
    app.session_interface = CookieSessions()
    app.url_map.converters["int"] = BoundedInt
    # The body's limit is set before anything reads the body (the API's 16 KiB, not a form's).
    app.before_request(limit_body)
    app.before_request(check_text_input)


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


def message(key: str, **values: object) -> str:
    try:
        chosen = lang()
    except RuntimeError:  # outside a request
        chosen = "zh"
    return MESSAGES[key][chosen].format(**values)


def csrf_token() -> str:
    token = session.get("csrf")
    if not isinstance(token, str) or not token:
        token = secrets.token_urlsafe(32)
        session["csrf"] = token
    return token


def limit_body() -> None:
    """The JSON API takes small bodies; only the teacher's forms may carry a pasted term list."""
    if request.path.startswith("/api/"):
        request.max_content_length = current_app.config["API_MAX_CONTENT_LENGTH"]


def check_text_input() -> None:
    """Refuse control characters in form fields (400): nothing stored or shown carries one.
    (Query parameters only select things, and ``next`` is checked by :func:`safe_next`.)"""
    if request.method not in ("POST", "PUT", "PATCH") or request.mimetype not in (
        "application/x-www-form-urlencoded",
        "multipart/form-data",
    ):
        return
    if any(CONTROL.search(v) for v in request.form.values()):
        abort(400, description=message("control"))


def check_csrf() -> None:
    """Every unsafe request must carry the session's token (header X-CSRFToken or form field)."""
    if request.method not in ("POST", "PUT", "PATCH", "DELETE") or request.routing_exception is not None:
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


# --- JSON bodies ---------------------------------------------------------------------------


def _depth(text: str) -> int:
    """The deepest nesting of ``[`` and ``{`` outside strings (before parsing anything)."""
    depth = deepest = 0
    in_string = escaped = False
    for ch in text:
        if in_string:
            if escaped:
                escaped = False
            elif ch == "\\":
                escaped = True
            elif ch == '"':
                in_string = False
        elif ch == '"':
            in_string = True
        elif ch in "[{":
            depth += 1
            deepest = max(deepest, depth)
        elif ch in "]}":
            depth -= 1
    return deepest


def _check_strings(value: Any) -> None:
    """Every string at most :data:`MAX_JSON_STRING` long; the fields the app stores or shows
    (:data:`TEXT_FIELDS`) without control characters or lone surrogates. Fields it does not know
    are ignored, as the API description allows."""
    if isinstance(value, dict):
        for key in TEXT_FIELDS:
            field = value.get(key)
            texts = field if isinstance(field, list) else [field]
            if any(isinstance(x, str) and CONTROL.search(x) for x in texts):
                abort(400, description=message("control"))
    stack = [value]
    while stack:
        item = stack.pop()
        if isinstance(item, str):
            if len(item) > MAX_JSON_STRING:
                abort(400, description=message("string", n=MAX_JSON_STRING))
        elif isinstance(item, dict):
            stack.extend(item.keys())
            stack.extend(item.values())
        elif isinstance(item, list):
            stack.extend(item)


class SafeJSONProvider(DefaultJSONProvider):
    """Request bodies: at most :data:`MAX_JSON_DEPTH` levels, strings of at most
    :data:`MAX_JSON_STRING` characters, no control characters or lone surrogates — each a 400
    with a localized message instead of a RecursionError or a database encoding error (500).

    Responses: UTF-8 rather than \\u escapes (a Chinese character in 3 bytes, not 6, for the
    phone to receive and parse), keys in the order the app gives them."""

    ensure_ascii = False
    sort_keys = False

    def dumps(self, obj: Any, **kwargs: Any) -> str:
        return self._encoded(obj, **kwargs)[0]

    def _encoded(self, obj: Any, **kwargs: Any) -> tuple[str, bytes]:
        text = super().dumps(obj, **kwargs)
        try:
            return text, text.encode("utf-8")
        except UnicodeEncodeError:  # a lone surrogate from somewhere: escaped, as JSON allows
            text = super().dumps(obj, **kwargs | {"ensure_ascii": True})
            return text, text.encode("ascii")

    def response(self, *args: Any, **kwargs: Any) -> Response:
        """Flask's ``jsonify``, with the body encoded once (the check above already encodes it)."""
        obj = self._prepare_response_obj(args, kwargs)
        if (self.compact is None and self._app.debug) or self.compact is False:
            _, body = self._encoded(obj, indent=2)
        else:
            _, body = self._encoded(obj, separators=(",", ":"))
        return self._app.response_class(body + b"\n", mimetype=self.mimetype)

    def loads(self, s: str | bytes, **kwargs: Any) -> Any:
        text = s.decode("utf-8", "replace") if isinstance(s, bytes) else s
        # (no deeper than the number of brackets: the usual small body needs no scan)
        if text.count("[") + text.count("{") > MAX_JSON_DEPTH and _depth(text) > MAX_JSON_DEPTH:
            abort(400, description=message("depth", n=MAX_JSON_DEPTH))
        try:
            data = json.loads(text, **kwargs)
        except RecursionError:  # pragma: no cover - the depth check comes first
            abort(400, description=message("depth", n=MAX_JSON_DEPTH))
        _check_strings(data)
        return data


# --- the session cookie ----------------------------------------------------------------------


class _CookieJSON(TaggedJSONSerializer):
    """Flask's session serializer on the standard library's json, not the app's JSON provider:
    a cookie is read only once its signature is checked (it is the app's own), so the checks that
    request bodies pass are not needed for it. The same bytes as Flask's."""

    def dumps(self, value: Any) -> str:
        return json.dumps(self.tag(value), separators=(",", ":"), sort_keys=True, default=DefaultJSONProvider.default)

    def loads(self, value: str | bytes) -> Any:
        return self._untag_scan(json.loads(value))


class KeyCachingSigner(TimestampSigner):
    """itsdangerous's timestamp signer, deriving its HMAC key from the secret key and salt once
    rather than at every signature made or checked (a signer is made for each; the session
    cookie and a question token are signed or checked on every request)."""

    _derived: dict[tuple[object, ...], bytes] = {}

    def derive_key(self, secret_key: str | bytes | None = None) -> bytes:
        secret = self.secret_keys[-1] if secret_key is None else secret_key  # (None: the current key)
        key = (secret, self.salt, self.key_derivation, self.digest_method)
        derived = self._derived.get(key)
        if derived is None:
            if len(self._derived) > 64:
                self._derived.clear()
            derived = self._derived[key] = super().derive_key(secret_key)
        return derived


class CookieSessions(SecureCookieSessionInterface):
    """Flask's signed-cookie sessions, with one signing serializer per secret key instead of a
    new one for every request (reading and writing the cookie are on every request's path), and
    its key derived once (:class:`KeyCachingSigner`). The same cookies as Flask's."""

    serializer = _CookieJSON()
    MAX_VERIFIED = 4096  # cookies remembered as checked (a learner's cookie changes at sign-in)

    def __init__(self) -> None:
        self._signers: dict[tuple[object, ...], URLSafeTimedSerializer | None] = {}
        self._verified: dict[tuple[object, str], tuple[dict[str, Any], int]] = {}

    def open_session(self, app: Flask, request: Request) -> SecureCookieSession | None:
        """Flask's, remembering the cookies it has checked: the same cookie on the next request
        (a learner's usually is) is not checked and decoded again, only its age. Only sessions of
        plain values (strings, numbers) are remembered, so a view changing one changes a copy."""
        signer = self.get_signing_serializer(app)
        if signer is None:
            return None
        value = request.cookies.get(self.get_cookie_name(app))
        if not value:
            return self.session_class()
        max_age = int(app.permanent_session_lifetime.total_seconds())
        known = self._verified.get((signer, value))
        if known is not None:
            data, signed = known
            if 0 <= int(time.time()) - signed <= max_age:  # (as itsdangerous checks the age)
                return self.session_class(data)
        try:
            data, when = signer.loads(value, max_age=max_age, return_timestamp=True)
        except BadSignature:
            return self.session_class()
        if isinstance(data, dict) and all(isinstance(v, str | int | float | None) for v in data.values()):
            if len(self._verified) >= self.MAX_VERIFIED:
                self._verified.clear()
            self._verified[(signer, value)] = (data, int(when.timestamp()))
        return self.session_class(data)

    def get_signing_serializer(self, app: Flask) -> URLSafeTimedSerializer | None:
        keys = (*(app.config.get("SECRET_KEY_FALLBACKS") or ()), app.secret_key)  # the current key last
        signer = self._signers.get(keys)
        if signer is None:
            if len(self._signers) > 8:
                self._signers.clear()
            signer = None
            if app.secret_key:
                signer = URLSafeTimedSerializer(
                    list(keys),  # type: ignore[arg-type]
                    salt=self.salt,
                    serializer=self.serializer,
                    signer=KeyCachingSigner,
                    signer_kwargs={"key_derivation": self.key_derivation, "digest_method": self.digest_method},
                )
            self._signers[keys] = signer
        return signer


# --- the secret key ------------------------------------------------------------------------


def _strong(key: str) -> bool:
    return len(key.encode("utf-8")) >= MIN_SECRET_BYTES and len(set(key)) >= 10


def secret_key(app: Flask, *, production: bool) -> str:
    """The secret key from config or the environment.

    In production the app refuses to start without one, or with one shorter than 32 bytes (make
    one with ``python -c 'import secrets; print(secrets.token_hex(32))'``). Elsewhere a random key
    is kept in the instance folder: created once, atomically (written to a temporary file, then
    linked to its name only if no key is there yet), so workers that start together share one key.
    """
    key = app.config.get("SECRET_KEY") or os.environ.get("STUDY_SECRET_KEY") or os.environ.get("SECRET_KEY")
    if production and not (key and _strong(str(key))):
        raise RuntimeError(
            "STUDY_SECRET_KEY is not set or too weak: refusing to start in production without a secret key "
            f"of at least {MIN_SECRET_BYTES} random bytes (python -c 'import secrets; print(secrets.token_hex(32))')"
        )
    if key:
        return str(key)
    return _key_file(Path(app.instance_path) / "secret_key")


def _key_file(path: Path) -> str:
    for _ in range(50):
        try:
            text = path.read_text("utf-8").strip()
            if text:
                return text
        except FileNotFoundError:
            pass
        path.parent.mkdir(parents=True, exist_ok=True)
        tmp = path.with_name(f".{path.name}.{os.getpid()}.{secrets.token_hex(4)}")
        fd = os.open(tmp, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        try:
            os.write(fd, secrets.token_hex(32).encode())
            os.fsync(fd)
        finally:
            os.close(fd)
        try:
            os.link(tmp, path)  # atomic, and fails if another worker's key is already there
        except OSError as e:
            if e.errno != errno.EEXIST:
                raise
        finally:
            os.unlink(tmp)
    raise RuntimeError(f"{path}: cannot create the secret key file")
