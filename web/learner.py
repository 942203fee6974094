"""The request's learner: the one read connection, the session's learner, signing in and out,
the catalog they study, and the JSON object a request posts (web/api.py, web/pages.py)."""

from __future__ import annotations

from flask import abort, g, request, session
from sqlalchemy.engine import Connection

from study.errors import Said
from study.learn.accounts import Learner, SignInError, UnknownClassError, WrongPasswordError
from study.learn.catalog import Catalog
from study.learn.db import now

from . import ratelimit
from .i18n import t
from .state import get_state


def reader() -> Connection:
    """The request's one read connection (/api/next: the session, the agenda and an
    introduction, each a read of its own on SQLite; /api/answer: the session, before the answer
    is written on it), given back when the request ends."""
    if "reader" not in g:
        g.reader = get_state().store.readers.take()
    return g.reader


def close_reader(_error: BaseException | None) -> None:
    """At the end of every request (registered by the API's blueprint): the connection kept."""
    conn = g.pop("reader", None)
    if conn is not None:
        get_state().store.readers.give_back(conn)


def current_learner() -> Learner | None:
    """The learner whose open session the cookie holds (read once per request)."""
    if "learner" not in g:
        sid = session.get("sid")
        g.learner = get_state().store.accounts.session_learner(sid, g.get("reader")) if sid else None
    return g.learner


def signed_in() -> Learner:
    learner = current_learner()
    if learner is None:
        abort(401)
    return learner


def json_object() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description=t("err_json"))
    return data


def _renew(learner: Learner) -> None:
    """A new session (and CSRF token) at every sign-in; the old session row is closed."""
    accounts = get_state().store.accounts
    accounts.close_session(session.get("sid"))
    language = session.get("lang")
    session.clear()
    if language:
        session["lang"] = language
    session["sid"] = accounts.open_session(learner.id, now())
    g.learner = learner


def sign_in(name: object, password: object, class_code: object, time_zone: object = None) -> Learner:
    """Sign in or sign up (a new name); 400 on a malformed name or password, 401 on a wrong one."""
    if not isinstance(name, str) or not isinstance(password, str):
        abort(400, description=t("err_name_password"))
    if class_code is not None and not isinstance(class_code, str):
        abort(400, description=t("err_name_password"))
    ratelimit.check("sign_in")
    ratelimit.check("sign_in_name", "name:" + name.strip()[:40])
    try:
        learner = get_state().store.accounts.sign_in(
            name, password, class_code or None, now(), time_zone=time_zone if isinstance(time_zone, str) else None
        )
    except WrongPasswordError:
        abort(401, description=t("err_login"))
    except UnknownClassError:
        abort(404, description=t("err_class_code"))
    except SignInError as e:
        password = isinstance(e.args[0], Said) and e.args[0].key == "password_length"
        abort(400, description=t("err_password") if password else t("err_name"))
    _renew(learner)
    return learner


def sign_out() -> None:
    get_state().store.accounts.close_session(session.get("sid"))
    session.pop("sid", None)
    session.pop("csrf", None)
    g.learner = None


def learner_catalog(learner: Learner) -> Catalog:
    """What the learner studies (their class's assignment, read once per request)."""
    if "catalog" not in g or g.catalog_of != learner.class_id:
        g.catalog, g.catalog_of = get_state().catalog_for(learner.class_id, g.get("reader")), learner.class_id
    return g.catalog
