"""HTML pages: sign-in and home (with today's dashboard), the quiz page (driven by
static/quiz.js), progress, language."""

from __future__ import annotations

import json

from flask import Blueprint, redirect, render_template, request, session, url_for
from werkzeug.exceptions import HTTPException
from werkzeug.wrappers import Response

from study.learn.catalog import Family
from study.learn.db import now
from study.learn.progress import accuracy_history, dashboard, forecast, rite_progress, timeline

from . import charts
from .i18n import LANGUAGES, STRINGS, lang, t
from .learner import current_learner, sign_in, sign_out
from .security import safe_next
from .state import get_state

bp = Blueprint("pages", __name__)


def _home(learner, error: str | None = None, status: int = 200):  # type: ignore[no-untyped-def]
    state = get_state()
    catalog = state.catalog_for(learner.class_id) if learner else state.catalog
    today = None
    if learner is not None:
        moment = now()
        today = dashboard(
            catalog.items,
            state.store.cards(learner.id),
            state.store.logs(learner.id),
            moment,
            learner.zone,
            new_per_day=int(state_config("NEW_PER_DAY")),
            goal=int(state_config("DAILY_GOAL")),
        )
    stages = [s for s in catalog.stages.values()]
    rites = [(r, t("excerpt_of", rite=r) if r in catalog.excerpts else r) for r in catalog.rites]
    return (
        render_template("index.html", learner=learner, rites=rites, stages=stages, today=today, error=error),
        status,
    )


def state_config(key: str) -> object:
    from flask import current_app

    return current_app.config[key]


@bp.get("/")
def index():  # type: ignore[no-untyped-def]
    return _home(current_learner())


@bp.post("/signin")
def signin():  # type: ignore[no-untyped-def]
    try:
        sign_in(
            request.form.get("name", ""),
            request.form.get("password", ""),
            request.form.get("class_code") or None,
            request.form.get("time_zone") or None,
        )
    except HTTPException as e:
        if e.code == 429:
            raise
        return _home(None, error=e.description, status=e.code or 400)
    return redirect(url_for("pages.index"))


@bp.post("/signout")
def signout() -> Response:
    sign_out()
    return redirect(url_for("pages.index"))


@bp.get("/lang/<code>")
def set_lang(code: str) -> Response:
    if code in LANGUAGES:
        session["lang"] = code
    return redirect(safe_next(request.args.get("next")))


@bp.get("/quiz")
def quiz():  # type: ignore[no-untyped-def]
    learner = current_learner()
    if learner is None:
        return redirect(url_for("pages.index"))
    catalog = get_state().catalog_for(learner.class_id)
    kind = request.args.get("kind") if request.args.get("kind") in tuple(Family) else ""
    rite = request.args.get("rite") if request.args.get("rite") in catalog.rites else ""
    stage = request.args.get("stage") if request.args.get("stage") in catalog.stages else ""
    to = request.args.get("to") if request.args.get("to") in catalog.stages else ""
    strings = {key: value[lang()] for key, value in STRINGS.items()}
    return render_template(
        "quiz.html",
        learner=learner,
        kind=kind,
        rite=rite,
        stage=stage,
        to=to,
        strings=json.dumps(strings, ensure_ascii=False),
    )


@bp.get("/progress")
def progress():  # type: ignore[no-untyped-def]
    learner = current_learner()
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
        if catalog.stages:
            stages = [s for s in stages if s.stage_id in catalog.stages]
        if stages:
            timelines.append((rite, charts.timeline_cells(stages, t("not_studied"))))
    return render_template(
        "progress.html",
        learner=learner,
        stats=stats,
        recall=charts.recall_bars(stats),
        forecast=charts.forecast_bars(forecast(known, moment, learner.zone)),
        accuracy=charts.accuracy_bars(accuracy_history(state.store.logs(learner.id), moment, learner.zone)),
        timelines=timelines,
        chart={"width": charts.WIDTH, "height": charts.HEIGHT, "pad": charts.PAD},
    )
