"""The signing of session cookies and question tokens with keys derived once (web.security):
each app's own key signs and checks, whatever other apps of the process were signing with."""

from __future__ import annotations

from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature, URLSafeTimedSerializer

from web.security import CookieSessions, KeyCachingSigner


def _app(key: str, fallbacks: list[str] | None = None) -> Flask:
    app = Flask(__name__)
    app.secret_key = key
    app.config["SECRET_KEY_FALLBACKS"] = fallbacks or []
    return app


def test_cookies_are_flasks_own_and_each_apps_key_signs_and_checks_its_own():
    data = {"sid": "s" * 43, "csrf": "令牌", "lang": "en"}
    first, second = _app("a" * 40), _app("b" * 40)
    for app in (first, second, first):  # keys derived once each, never one for the other
        with app.app_context():
            ours = CookieSessions().get_signing_serializer(app)
            flasks = SecureCookieSessionInterface().get_signing_serializer(app)
            assert ours is not None and flasks is not None
            assert flasks.loads(ours.dumps(data)) == data == ours.loads(flasks.dumps(data))
    with first.app_context():
        signed = CookieSessions().get_signing_serializer(first).dumps(data)  # type: ignore[union-attr]
    with second.app_context():
        try:
            CookieSessions().get_signing_serializer(second).loads(signed)  # type: ignore[union-attr]
        except BadSignature:
            pass
        else:
            raise AssertionError("a cookie signed with another key was accepted")


def test_a_cookie_signed_with_a_fallback_key_is_still_read():
    data = {"sid": "x" * 43}
    app = _app("new" * 12, ["old" * 12])
    with app.app_context():
        old = SecureCookieSessionInterface().get_signing_serializer(_app("old" * 12)).dumps(data)  # type: ignore[union-attr]
        assert CookieSessions().get_signing_serializer(app).loads(old) == data  # type: ignore[union-attr]


def test_tokens_signed_with_one_key_are_refused_under_another():
    one = URLSafeTimedSerializer("1" * 40, salt="t", signer=KeyCachingSigner)
    two = URLSafeTimedSerializer("2" * 40, salt="t", signer=KeyCachingSigner)
    token = one.dumps({"i": "item"})
    assert one.loads(token) == {"i": "item"} and URLSafeTimedSerializer("1" * 40, salt="t").loads(token) == {
        "i": "item"
    }
    try:
        two.loads(token)
    except BadSignature:
        pass
    else:
        raise AssertionError("a token signed with another key was accepted")
