"""The JSON API (a fixed interface): session, next item, answer, self-rating, introductions,
progress. See web/openapi.yaml and the README's "Web quiz" section."""

from __future__ import annotations

import random

from flask import Blueprint, abort, current_app, g, jsonify, request, session
from sqlalchemy.engine import Connection
from sqlalchemy.exc import IntegrityError

from study.learn.accounts import Learner, SignInError, UnknownClassError, WrongPasswordError
from study.learn.agenda import WholeAgendaNeeded, day_start
from study.learn.catalog import Catalog, Family, Kind, QuizItem
from study.learn.db import now
from study.learn.grading import RatingName
from study.learn.progress import rite_progress
from study.learn.quiz import AnswerError, Question, grade, present
from study.learn.schedule import RATINGS as FSRS_RATINGS
from study.learn.schedule import AlreadyRatedError, next_due, pick_next
from study.learn.teach import teaching

from . import ratelimit, tokens
from .i18n import interval_words, localize_teaching, prompt, t
from .security import csrf_token
from .state import get_state

bp = Blueprint("api", __name__, url_prefix="/api")
MAX_ANSWER = 200  # characters of a typed answer
RATINGS = tuple(RatingName)


# --- the signed-in learner -------------------------------------------------------------------
def reader() -> Connection:
    """The request's one connection, a read snapshot (/api/next: the session, the agenda and an
    introduction; /api/answer: the session, before the answer is written on it), closed when the
    request ends."""
    if "reader" not in g:
        g.reader = get_state().store.readers.take()
    return g.reader


@bp.teardown_app_request
def _close_reader(_error: BaseException | None) -> None:
    conn = g.pop("reader", None)
    if conn is not None:
        get_state().store.readers.give_back(conn)


def current_learner() -> Learner | None:
    """The learner whose open session the cookie holds (read once per request)."""
    if "learner" not in g:
        sid = session.get("sid")
        g.learner = get_state().store.accounts.session_learner(sid, g.get("reader")) if sid else None
    return g.learner


def _signed_in() -> Learner:
    learner = current_learner()
    if learner is None:
        abort(401)
    return learner


def _json_object() -> dict:
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
        abort(400, description=t("err_password") if "password" in str(e) else t("err_name"))
    _renew(learner)
    return learner


def sign_out() -> None:
    get_state().store.accounts.close_session(session.get("sid"))
    session.pop("sid", None)
    session.pop("csrf", None)
    g.learner = None


@bp.get("/session")
def get_session():  # type: ignore[no-untyped-def]
    learner = current_learner()
    return jsonify(learner=learner.name if learner else None, csrf_token=csrf_token())


@bp.post("/session")
def post_session():  # type: ignore[no-untyped-def]
    data = _json_object()
    learner = sign_in(data.get("name"), data.get("password"), data.get("class_code"), data.get("time_zone"))
    return jsonify(learner=learner.name, csrf_token=csrf_token())


@bp.delete("/session")
def delete_session():  # type: ignore[no-untyped-def]
    sign_out()
    return jsonify(learner=None, csrf_token=csrf_token())


# --- what to study ---------------------------------------------------------------------------
def _catalog(learner: Learner) -> Catalog:
    """What the learner studies (their class's assignment, read once per request)."""
    if "catalog" not in g or g.catalog_of != learner.class_id:
        g.catalog, g.catalog_of = get_state().catalog_for(learner.class_id, g.get("reader")), learner.class_id
    return g.catalog


def _filters(catalog: Catalog) -> tuple[str | None, str | None, frozenset[str] | None]:
    rite, kind = request.args.get("rite"), request.args.get("kind")
    stage, to = request.args.get("stage"), request.args.get("to")
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
    catalog = _catalog(learner)
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
    learner = _signed_in()
    rite, kind, stages = _filters(_catalog(learner))
    return jsonify(next_question(learner, rite, kind, stages))


@bp.post("/intro")
def post_intro():  # type: ignore[no-untyped-def]
    """The learner has read an introduction: its fact's questions may come now."""
    learner = _signed_in()
    data = _json_object()
    try:
        shown = tokens.read(data.get("token"), learner.id)
    except tokens.TokenError:
        abort(409, description=t("err_token"))
    if not shown.item_id.startswith("intro:"):
        abort(409, description=t("err_token"))
    fact = shown.item_id[len("intro:") :]
    get_state().store.introduce(learner.id, fact, now())
    return jsonify(fact=fact)


# --- answers ---------------------------------------------------------------------------------
def _choices(before, moment) -> list[dict[str, object]]:  # type: ignore[no-untyped-def]
    """Each self-rating with the due date it would give (from the card before the answer)."""
    scheduler = get_state().scheduler
    out = []
    for name in RATINGS:
        card, _ = scheduler.review_card(before, FSRS_RATINGS[name], moment)
        out.append({"rating": name.value, "due": card.due.isoformat(), "due_in": interval_words(card.due - moment)})
    return out


def answer_item(
    learner: Learner, item_id: object, answer: object, token: object = None, answer_id: object = None
) -> dict:
    state = get_state()
    if answer_id is not None and not (isinstance(answer_id, str) and 1 <= len(answer_id) <= 64):
        abort(400, description=t("err_answer_id"))
    shown, problem = None, None
    if token is not None:
        try:
            shown = tokens.read(token, learner.id, item_id)
        except tokens.TokenError as e:
            problem = e
    aid = answer_id if isinstance(answer_id, str) else None
    tid = shown.token_id if shown is not None else None

    catalog = _catalog(learner)
    item = catalog.get(item_id) if isinstance(item_id, str) else None
    refused: tuple[int, str] | None = None
    if item is None:
        refused = (404, t("err_item"))
    elif isinstance(answer, str) and len(answer) > MAX_ANSWER and item.kind != Kind.CHOICE:
        refused = (400, t("err_answer_long", n=MAX_ANSWER))  # (a choice may be a long option: below)
    elif token is None:
        refused = (409, t("err_not_asked"))
    elif shown is None:
        refused = (409, t("err_token_expired" if str(problem) == "expired" else "err_token"))
    else:
        question = present(item, catalog, random.Random(shown.seed))
        moment = now()
        seconds = max((moment - shown.issued).total_seconds(), 0.0)
        if isinstance(answer, str) and len(answer) > MAX_ANSWER and answer not in question.options:
            refused = (400, t("err_answer_long", n=MAX_ANSWER))  # (the options shown may be longer)
        else:
            try:
                result = grade(question, answer, seconds=seconds, fast_seconds=current_app.config["FAST_SECONDS"])
            except AnswerError as e:  # well-formed, but not an answer to the question asked
                refused = (409, t("err_answer_shape", detail=str(e)))
    if refused is not None:
        # what cannot be graded may still be the retry of an answer that was: its first result
        earlier = state.store.logged_result(learner.id, answer_id=aid, token_id=tid)
        if earlier is not None:
            return earlier
        abort(refused[0], description=refused[1])
    assert item is not None and shown is not None
    context = localize_teaching(teaching(item, catalog))

    told: list[dict] = []

    def describe(review) -> dict:  # type: ignore[no-untyped-def]
        card = review.card
        body: dict[str, object] = {
            "correct": result.correct,
            "score": result.score,
            "rating": review.rating.value,
            "expected": result.expected,
            "due": card.due.isoformat(),
            "due_in": interval_words(card.due - moment),
            "fact": item.fact,
            "token": token,
            "context": context,
        }
        if result.correct:
            body["choices"] = _choices(review.before, moment)
        if question.kind == Kind.ORDER:
            body["misplaced"] = list(result.misplaced)
            body["modern"] = list(question.modern)
        told.append(body)
        return body

    conn = g.get("reader")  # the session was read on it: its read transaction ends, it writes now
    if conn is not None:
        conn.rollback()
    try:
        state.store.record(
            learner.id,
            item_id,
            result.rating,
            score=result.score,
            correct=result.correct,
            answer=_logged_answer(question, answer, result),
            now=moment,
            duration_ms=int(seconds * 1000),
            answer_id=answer_id if isinstance(answer_id, str) else None,
            token_id=shown.token_id,
            class_id=learner.class_id,
            describe=describe,
            conn=conn,
        )
    except IntegrityError:
        # answered before (this answer id or this question's token): the transaction rolled back,
        # nothing counted twice; the first result is the answer (also when two arrive at once)
        earlier = state.store.logged_result(learner.id, answer_id=aid, token_id=shown.token_id)
        if earlier is None:
            raise
        return earlier
    return told[-1]


def _logged_answer(question: Question, answer: object, result) -> object:  # type: ignore[no-untyped-def]
    """What the review log keeps: the answer, and for an order the right positions as given, so
    that a report can tell which neighbouring items were swapped."""
    if question.kind == Kind.ORDER:
        return {"answer": answer, "submitted": list(result.submitted), "right": list(question.right_order)}
    return {"answer": answer, "expected": question.accepted[0]}


@bp.post("/answer")
def post_answer():  # type: ignore[no-untyped-def]
    reader()  # one connection for the request: the session is read on it, then the answer written
    learner = _signed_in()
    data = _json_object()
    return jsonify(
        answer_item(learner, data.get("item_id"), data.get("answer"), data.get("token"), data.get("answer_id"))
    )


@bp.post("/rate")
def post_rate():  # type: ignore[no-untyped-def]
    """The learner's own rating of their last answer to an item (again/hard/good/easy/guessed)."""
    learner = _signed_in()
    data = _json_object()
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
    learner = _signed_in()
    state = get_state()
    moment = now()
    known = state.store.cards(learner.id)
    stats = rite_progress(_catalog(learner).items, known, state.scheduler, moment)
    body: dict[str, object] = {"rites": [s.to_dict() for s in stats]}
    body["day_start"] = day_start(moment, learner.zone).isoformat()
    return jsonify(body)


@bp.get("/openapi.json")
def openapi():  # type: ignore[no-untyped-def]
    """The OpenAPI description of this API."""
    from importlib import resources

    import yaml

    return jsonify(yaml.safe_load(resources.files("web").joinpath("openapi.yaml").read_text("utf-8")))
