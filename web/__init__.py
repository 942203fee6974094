"""The quiz web app: ``create_app(test_config)`` (flaskr's factory)."""

from __future__ import annotations

import os
from collections.abc import Mapping
from datetime import datetime
from typing import Any

from flask import Flask, jsonify, render_template, request
from sqlalchemy.exc import DBAPIError, OperationalError
from werkzeug.exceptions import HTTPException

from study.build import default_glossary_path
from study.errors import StudyError
from study.learn.schedule import UnknownClassError
from study.paths import default_text_paths

from . import api, pages, ratelimit, script, teacher
from .i18n import t
from .messages import localize
from .secretkey import secret_key
from .security import csrf_token, harden, secure_headers
from .state import init_state


def create_app(test_config: Mapping[str, Any] | None = None) -> Flask:
    app = Flask(__name__, instance_relative_config=True)
    os.makedirs(app.instance_path, exist_ok=True)
    app.config.from_mapping(
        DATABASE_URL=os.environ.get("DATABASE_URL") or f"sqlite:///{os.path.join(app.instance_path, 'study.sqlite')}",
        TEXTS=[str(p) for p in default_text_paths()],
        GLOSSARY=str(default_glossary_path()),
        TRANSLATIONS=None,  # corrections of the translations; None: translations.yaml beside the texts' folder
        BOOK_CACHE=os.path.join(app.instance_path, "cache"),  # the parsed book (web/bookcache.py); None: off
        NEW_PER_DAY=int(os.environ.get("STUDY_NEW_PER_DAY", "20")),
        DAILY_GOAL=int(os.environ.get("STUDY_DAILY_GOAL", "30")),
        RATELIMIT_STORAGE_URI=os.environ.get("STUDY_RATELIMIT_STORAGE") or None,
        RATELIMIT_ENABLED=os.environ.get("STUDY_RATELIMIT", "1") != "0",
        DESIRED_RETENTION=float(os.environ.get("STUDY_DESIRED_RETENTION", "0.9")),
        FSRS_FUZZING=os.environ.get("STUDY_FSRS_FUZZING", "1") != "0",
        FAST_SECONDS=10.0,
        MAX_CONTENT_LENGTH=512 * 1024,  # the teacher's pasted term lists; the API takes 16 KiB
        MAX_FORM_MEMORY_SIZE=512 * 1024,
        API_MAX_CONTENT_LENGTH=16 * 1024,
        SESSION_COOKIE_HTTPONLY=True,
        SESSION_COOKIE_SAMESITE="Lax",
        PRODUCTION=os.environ.get("STUDY_ENV") == "production",
        RANDOM_SEED=None,
        DATABASE_TIMEOUT=float(os.environ.get("STUDY_DATABASE_TIMEOUT", "10")),
    )
    if test_config is None:
        app.config.from_pyfile("config.py", silent=True)
    else:
        app.config.update(test_config)
    app.config["SECRET_KEY"] = secret_key(app, production=bool(app.config["PRODUCTION"]) and not app.testing)
    harden(app)
    state = init_state(app)
    ratelimit.init_app(app, state.store.engine)

    app.after_request(secure_headers)
    app.context_processor(lambda: {"t": t, "csrf_token": csrf_token})
    app.register_blueprint(api.bp)
    app.register_blueprint(pages.bp)
    app.register_blueprint(teacher.bp)
    app.register_blueprint(script.bp)
    _errors(app)
    return app


def _errors(app: Flask) -> None:
    def wants_json() -> bool:
        return request.path.startswith("/api/")

    @app.errorhandler(HTTPException)
    def http_error(e: HTTPException):  # type: ignore[no-untyped-def]
        messages = {401: t("err_sign_in"), 403: t("err_csrf"), 404: t("err_not_found"), 413: t("err_too_large")}
        custom = e.description if e.description not in (type(e).description, "csrf") else None
        message = custom or messages.get(e.code or 500, e.name)
        # keep the exception's own headers (Allow on a 405, Retry-After …)
        headers = [(k, v) for k, v in e.get_headers() if k.lower() != "content-type"]
        if wants_json():
            return jsonify(error=message), e.code, headers
        return render_template("error.html", message=message, code=e.code), e.code, headers

    @app.errorhandler(StudyError)
    def study_error(e: StudyError):  # type: ignore[no-untyped-def]
        code = 404 if isinstance(e, UnknownClassError) else 400
        message = localize(e.args[0] if e.args else e)  # study/ says it in English; here by its key
        if wants_json():
            return jsonify(error=message), code
        return render_template("error.html", message=message, code=code), code

    @app.errorhandler(DBAPIError)
    def database_down(e: DBAPIError):  # type: ignore[no-untyped-def]
        if not (isinstance(e, OperationalError) or e.connection_invalidated):  # a bug, not an outage
            app.logger.exception("database error")
            return (jsonify(error=e.__class__.__name__), 500) if wants_json() else ("Internal Server Error", 500)
        # unreachable, read-only (the connection was discarded: the next request reconnects), locked
        app.logger.error("database unavailable: %s", e)
        if wants_json():
            return jsonify(error=t("err_db")), 503
        return render_template("error.html", message=t("err_db"), code=503), 503

    @app.template_filter("when")
    def when(value: datetime) -> str:
        """A time as the class's readers read it: Beijing time (the learners' default zone)."""
        from study.learn.accounts import zone_of

        return value.astimezone(zone_of(None)).strftime("%Y-%m-%d %H:%M")
