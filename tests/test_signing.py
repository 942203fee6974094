"""The signing of session cookies and question tokens with keys derived once (web.signing):
each app's own key signs and checks, whatever other apps of the process were signing with."""

from __future__ import annotations

import time

from flask import Flask
from flask.sessions import SecureCookieSessionInterface
from itsdangerous import BadSignature, URLSafeTimedSerializer

from web.signing import CookieSessions, KeyCachingSigner


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


def _opened(interface: CookieSessions, app: Flask, cookie: str):  # type: ignore[no-untyped-def]
    with app.test_request_context("/", headers={"Cookie": f"session={cookie}"}):
        from flask import request

        return interface.open_session(app, request)


def test_a_cookie_read_again_gives_the_same_session_until_it_expires_and_never_a_changed_one(monkeypatch):
    import web.signing as signing

    app = _app("k" * 40)
    data = {"sid": "s" * 43, "csrf": "令牌", "lang": "en"}
    interface = CookieSessions()
    with app.app_context():
        cookie = interface.get_signing_serializer(app).dumps(data)  # type: ignore[union-attr]
    first = _opened(interface, app, cookie)
    assert dict(first) == data
    first["sid"] = "changed by a view"  # a view's change is its own session's, not the next request's
    assert dict(_opened(interface, app, cookie)) == data
    assert dict(_opened(interface, app, cookie[:-2] + ("AA" if cookie[-2:] != "AA" else "BB"))) == {}
    assert dict(_opened(CookieSessions(), _app("o" * 40), cookie)) == {}  # another key: refused
    assert dict(_opened(interface, _app("o" * 40), cookie)) == {}  # also by an interface that read it
    later = time.time() + app.permanent_session_lifetime.total_seconds() + 5
    monkeypatch.setattr(signing.time, "time", lambda: later)  # the cookie is too old now
    assert dict(_opened(interface, app, cookie)) == {}


def test_the_session_cookie_is_read_from_the_header_as_werkzeug_parses_it():
    from werkzeug.test import EnvironBuilder
    from werkzeug.wrappers import Request

    from web.signing import _cookie

    app = _app("c" * 40)
    with app.app_context():
        signed = CookieSessions().get_signing_serializer(app).dumps({"sid": "s" * 43})  # type: ignore[union-attr]
    headers = [
        f"session={signed}",  # the usual request: read from the header as it is
        f"session={signed}; theme=dark",
        f"theme=dark; session={signed}",
        f"sessionid=1; session={signed}",
        'session="a\\"b"',
        "session=a%20b",
        "session=a b",
        "session=",
        "SESSION=x",
        "theme=dark",
        "",
    ]
    for header in headers:
        request = Request(EnvironBuilder(headers={"Cookie": header} if header else {}).get_environ())
        assert _cookie(request, "session") == request.cookies.get("session"), header


def test_saving_a_session_gives_the_same_headers_as_flasks_own():
    app = _app("d" * 40)
    app.config["SESSION_REFRESH_EACH_REQUEST"] = True

    def headers(interface: SecureCookieSessionInterface, state: str, vary: str | None) -> list[tuple[str, str]]:
        with app.test_request_context("/"):
            session = interface.session_class({"sid": "s" * 43} if state != "empty" else {})
            if state in ("read", "empty-read"):
                session.get("sid")
            if state == "changed":
                session["lang"] = "en"
            if state == "cleared":
                session.clear()
            if state == "permanent":
                session.permanent = True
            response = app.response_class("x")
            if vary:
                response.headers["Vary"] = vary
            interface.save_session(app, session, response)
            shown = []
            for key, value in response.headers.items():
                if key == "Set-Cookie":  # the cookie's name and settings (its value holds the second)
                    name, _, settings = value.partition(";")
                    value = name.split("=")[0] + ";" + ";".join(p for p in settings.split(";") if "Expires" not in p)
                shown.append((key, value))
            return sorted(shown)

    for state in ("untouched", "read", "empty", "empty-read", "changed", "cleared", "permanent"):
        for vary in (None, "Accept-Encoding"):
            assert headers(CookieSessions(), state, vary) == headers(SecureCookieSessionInterface(), state, vary), (
                state,
                vary,
            )
