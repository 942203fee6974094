"""The JSON API (a fixed interface): session, next item, answer, self-rating, introductions,
progress. See web/openapi.yaml and the README's "Web quiz" section."""

from __future__ import annotations

import random

from flask import Blueprint, abort, current_app, jsonify, request

from study.learn.accounts import Learner
from study.learn.agenda import WholeAgendaNeeded, day_start
from study.learn.catalog import Catalog, Family, Kind, QuizItem
from study.learn.db import now
from study.learn.grading import RatingName
from study.learn.progress import rite_progress
from study.learn.quiz import present
from study.learn.schedule import AlreadyRatedError, next_due, pick_next
from study.learn.teach import teaching

from . import tokens
from .answers import RATINGS, answer_item
from .i18n import interval_words, localize_teaching, prompt, t
from .learner import (
    close_reader,
    current_learner,
    json_object,
    learner_catalog,
    reader,
    sign_in,
    sign_out,
    signed_in,
)
from .security import csrf_token
from .state import get_state

bp = Blueprint("api", __name__, url_prefix="/api")
bp.teardown_app_request(close_reader)


# --- the session ---------------------------------------------------------------------------
@bp.get("/session")
def get_session():  # type: ignore[no-untyped-def]
    learner = current_learner()
    return jsonify(learner=learner.name if learner else None, csrf_token=csrf_token())


@bp.post("/session")
def post_session():  # type: ignore[no-untyped-def]
    data = json_object()
    learner = sign_in(data.get("name"), data.get("password"), data.get("class_code"), data.get("time_zone"))
    return jsonify(learner=learner.name, csrf_token=csrf_token())


@bp.delete("/session")
def delete_session():  # type: ignore[no-untyped-def]
    sign_out()
    return jsonify(learner=None, csrf_token=csrf_token())


# --- what to study ---------------------------------------------------------------------------


def _filters(catalog: Catalog) -> tuple[str | None, str | None, frozenset[str] | None]:
    args = request.args.to_dict()  # (a plain dict: MultiDict.get raises and catches for each absent key)
    rite, kind, stage, to = args.get("rite"), args.get("kind"), args.get("stage"), args.get("to")
    if rite is not None and rite not in catalog.rites:
        abort(404, description=t("err_rite", rite=rite))
    if kind is not None and kind not in tuple(Family):
        abort(400, description=t("err_kind"))
    stages = None
    if stage is not None or to is not None:
        stages = catalog.stage_range(stage if stage is not None else str(to), to)
        if stages is None:
            abort(404, description=t("err_stage"))
    return rite, kind, stages


def _public_item(learner: Learner, item: QuizItem, catalog: Catalog, seed: int) -> dict[str, object]:
    question = present(item, catalog, random.Random(seed))
    public: dict[str, object] = {
        "id": item.id,
        "kind": question.kind.value,
        "prompt": prompt(question.direction, question.subject),
        "fact": item.fact,
        "token": tokens.issue(learner.id, item.id, seed),
    }
    if item.family == Family.PASSAGE:
        public["passage"] = question.subject  # the text asked about (with a blank for a cloze)
    if question.kind == Kind.CHOICE:
        public["options"] = list(question.options)
    if question.kind == Kind.ORDER:
        public["items"] = list(question.items)
    return public


def _intro(learner: Learner, item: QuizItem, catalog: Catalog) -> dict[str, object]:
    return {
        "id": "intro:" + item.fact,
        "kind": "intro",
        "prompt": t("intro_prompt"),
        "fact": item.fact,
        "token": tokens.issue(learner.id, "intro:" + item.fact, 0),
        "intro": localize_teaching(teaching(item, catalog)),
    }


def next_question(learner: Learner, rite: str | None, kind: str | None, stages: frozenset[str] | None = None) -> dict:
    """The next item for the learner as the API shows it; writes nothing."""
    state = get_state()
    catalog = learner_catalog(learner)
    items = catalog.select(rite=rite, family=kind, stages=stages)
    moment = now()
    agenda = state.store.agenda(learner.id, moment, learner.zone, conn=reader())
    facts, related = catalog.facts, catalog.related
    by_id = catalog.select_index(rite=rite, family=kind, stages=stages)
    new_limit = current_app.config["NEW_PER_DAY"]
    try:
        item = pick_next(items, agenda, new_limit=new_limit, facts=facts, by_id=by_id, related=related)
    except WholeAgendaNeeded:  # no due card read fits the filter: every card's id, every due card
        agenda = state.store.whole_agenda(agenda, learner.id, moment, conn=reader())
        item = pick_next(items, agenda, new_limit=new_limit, facts=facts, by_id=by_id, related=related)
    if item is None:  # rare: only then are all the cards loaded, for the date of the next one
        known = state.store.cards(learner.id)
        when = next_due(items, known, moment, learner.zone)
        other = None
        for family in (f for f in Family if kind is not None and f != kind):
            others = catalog.select(rite=rite, family=family)
            if pick_next(others, agenda, new_limit=new_limit, facts=facts, related=related) is not None:
                other = str(family)
                break
        return {
            "item": None,
            "next_due": when.isoformat(),
            "next_due_in": interval_words(when - moment),
            "message": t("nothing_due", when=interval_words(when - moment)),
            "other_kind": other,
        }
    # a new fact (no question about it answered yet, its introduction not read) is introduced first
    # (a due item has a card; a new one was chosen from a whole agenda, which has every card's id)
    known_fact = item.id in agenda.due or any(i in (agenda.seen or ()) for i in related.get(item.fact, ()))
    if not known_fact and not state.store.introduced(learner.id, item.fact, reader()):
        return {"item": _intro(learner, item, catalog)}
    return {"item": _public_item(learner, item, catalog, state.rng.getrandbits(48))}


@bp.get("/next")
def get_next():  # type: ignore[no-untyped-def]
    reader()  # the session is read on it too
    learner = signed_in()
    rite, kind, stages = _filters(learner_catalog(learner))
    return jsonify(next_question(learner, rite, kind, stages))


@bp.post("/intro")
def post_intro():  # type: ignore[no-untyped-def]
    """The learner has read an introduction: its fact's questions may come now."""
    learner = signed_in()
    data = json_object()
    try:
        shown = tokens.read(data.get("token"), learner.id)
    except tokens.TokenError:
        abort(409, description=t("err_token"))
    if not shown.item_id.startswith("intro:"):
        abort(409, description=t("err_token"))
    fact = shown.item_id[len("intro:") :]
    get_state().store.introduce(learner.id, fact, now())
    return jsonify(fact=fact)


@bp.post("/answer")
def post_answer():  # type: ignore[no-untyped-def]
    reader()  # one connection for the request: the session is read on it, then the answer written
    learner = signed_in()
    data = json_object()
    return jsonify(
        answer_item(learner, data.get("item_id"), data.get("answer"), data.get("token"), data.get("answer_id"))
    )


@bp.post("/rate")
def post_rate():  # type: ignore[no-untyped-def]
    """The learner's own rating of their last answer to an item (again/hard/good/easy/guessed)."""
    learner = signed_in()
    data = json_object()
    rating = data.get("rating")
    if rating not in (*[r.value for r in RATINGS], "guessed"):
        abort(400, description=t("err_rating"))
    try:
        shown = tokens.read(data.get("token"), learner.id)
    except tokens.TokenError:
        abort(409, description=t("err_token"))
    store = get_state().store
    moment = now()
    try:
        card, log = store.rate(
            learner.id,
            shown.token_id,
            RatingName.AGAIN if rating == "guessed" else RatingName(rating),
            guessed=rating == "guessed",
        )
    except KeyError:
        abort(409, description=t("err_not_answered"))
    except AlreadyRatedError:
        abort(409, description=t("err_rated"))
    body = store.logged_result(learner.id, token_id=shown.token_id) or {}
    body.update(
        {
            "rating": RatingName.AGAIN.value if rating == "guessed" else rating,
            "guessed": rating == "guessed",
            "due": card.due.isoformat(),
            "due_in": interval_words(card.due - moment),
        }
    )
    body.pop("choices", None)
    return jsonify(body)


# --- progress --------------------------------------------------------------------------------
@bp.get("/progress")
def get_progress():  # type: ignore[no-untyped-def]
    learner = signed_in()
    state = get_state()
    moment = now()
    known = state.store.cards(learner.id)
    stats = rite_progress(learner_catalog(learner).items, known, state.scheduler, moment)
    body: dict[str, object] = {"rites": [s.to_dict() for s in stats]}
    body["day_start"] = day_start(moment, learner.zone).isoformat()
    return jsonify(body)


@bp.get("/openapi.json")
def openapi():  # type: ignore[no-untyped-def]
    """The OpenAPI description of this API."""
    from importlib import resources

    import yaml

    return jsonify(yaml.safe_load(resources.files("web").joinpath("openapi.yaml").read_text("utf-8")))
