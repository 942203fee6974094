"""Signing: Flask's signed-cookie sessions with one signing serializer per secret key and cookies
remembered once checked (:class:`CookieSessions`), and itsdangerous's timestamp signer deriving its
HMAC key once (:class:`KeyCachingSigner`, also signing question tokens, web/tokens.py). The same
cookies and signatures as Flask's and itsdangerous's."""

from __future__ import annotations

import json
import re
import time
from typing import Any

from flask import Flask, Request, Response
from flask.json.provider import DefaultJSONProvider
from flask.json.tag import TaggedJSONSerializer
from flask.sessions import SecureCookieSession, SecureCookieSessionInterface, SessionMixin
from itsdangerous import BadSignature, TimestampSigner, URLSafeTimedSerializer


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


_PLAIN_VALUE = re.compile(r"[A-Za-z0-9_.-]*")


def _cookie(request: Request, name: str) -> str | None:
    """The value of the cookie ``name``: when the request's Cookie header is that one cookie with
    a plain value (a signed session: base64url and dots, as the app sets it, the usual case) read
    from the header as it is, else as werkzeug parses it (quoting, escapes, other cookies).
    The same value either way; the header is not parsed on every request."""
    header = request.environ.get("HTTP_COOKIE", "")
    if header.startswith(name) and header[len(name) : len(name) + 1] == "=":
        value = header[len(name) + 1 :]
        if _PLAIN_VALUE.fullmatch(value):
            return value
    return request.cookies.get(name)


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
        value = _cookie(request, self.get_cookie_name(app))
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

    def save_session(self, app: Flask, session: SessionMixin, response: Response) -> None:
        """Flask's; a session that sets no cookie (most requests: not changed, not refreshed on
        every request) only adds ``Vary: Cookie`` when it was read, without first looking up the
        cookie's seven settings as Flask's does. The same headers as Flask's."""
        if not session.modified and not (session.permanent and app.config["SESSION_REFRESH_EACH_REQUEST"]):
            if session.accessed:
                if "Vary" in response.headers:
                    response.vary.add("Cookie")
                else:
                    response.headers["Vary"] = "Cookie"
            return
        super().save_session(app, session, response)

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
