"""HTML pages: sign-in and home, the quiz page (driven by static/quiz.js), progress, language."""

from __future__ import annotations

import json

from flask import Blueprint, redirect, render_template, request, session, url_for
from werkzeug.wrappers import Response

from study.learn.catalog import Family
from study.learn.db import now
from study.learn.progress import accuracy_history, forecast, rite_progress, timeline

from . import charts
from .api import sign_in
from .i18n import LANGUAGES, STRINGS, lang, t
from .security import safe_next
from .state import get_state

bp = Blueprint("pages", __name__)


def _learner():  # type: ignore[no-untyped-def]
    learner_id = session.get("learner_id")
    return get_state().store.learner(learner_id) if isinstance(learner_id, int) else None


@bp.get("/")
def index():  # type: ignore[no-untyped-def]
    learner = _learner()
    state = get_state()
    catalog = state.catalog_for(learner.class_id) if learner else state.catalog
    return render_template("index.html", learner=learner, rites=catalog.rites)


@bp.post("/signin")
def signin() -> Response:
    sign_in(request.form.get("name", ""), request.form.get("class_code") or None)
    return redirect(url_for("pages.index"))


@bp.post("/signout")
def signout() -> Response:
    session.pop("learner_id", None)
    return redirect(url_for("pages.index"))


@bp.get("/lang/<code>")
def set_lang(code: str) -> Response:
    if code in LANGUAGES:
        session["lang"] = code
    return redirect(safe_next(request.args.get("next")))


@bp.get("/quiz")
def quiz():  # type: ignore[no-untyped-def]
    learner = _learner()
    if learner is None:
        return redirect(url_for("pages.index"))
    state = get_state()
    kind = request.args.get("kind") if request.args.get("kind") in (Family.VOCAB, Family.ORDER) else ""
    rite = request.args.get("rite") if request.args.get("rite") in state.catalog.rites else ""
    strings = {key: value[lang()] for key, value in STRINGS.items()}
    return render_template(
        "quiz.html", learner=learner, kind=kind, rite=rite, strings=json.dumps(strings, ensure_ascii=False)
    )


@bp.get("/progress")
def progress():  # type: ignore[no-untyped-def]
    learner = _learner()
    if learner is None:
        return redirect(url_for("pages.index"))
    state = get_state()
    moment = now()
    known = state.store.cards(learner.id)
    catalog = state.catalog_for(learner.class_id)
    stats = rite_progress(catalog.items, known, state.scheduler, moment)
    timelines = []
    for rite in catalog.rites:
        doc = state.document_of(rite)
        if doc is None:
            continue
        stages = timeline(doc, rite, catalog.items, known, state.scheduler, moment)
        if stages:
            timelines.append((rite, charts.timeline_cells(stages, t("not_studied"))))
    return render_template(
        "progress.html",
        learner=learner,
        stats=stats,
        recall=charts.recall_bars(stats),
        forecast=charts.forecast_bars(forecast(known, moment)),
        accuracy=charts.accuracy_bars(accuracy_history(state.store.logs(learner.id), moment)),
        timelines=timelines,
        chart={"width": charts.WIDTH, "height": charts.HEIGHT, "pad": charts.PAD},
    )
