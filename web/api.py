"""The JSON API (a fixed interface): session, next item, answer, progress."""

from __future__ import annotations

from flask import Blueprint, abort, current_app, g, jsonify, request, session
from sqlalchemy.exc import IntegrityError

from study.errors import StudyError
from study.learn.catalog import Family, Kind
from study.learn.db import now
from study.learn.progress import rite_progress
from study.learn.quiz import AnswerError, grade, present
from study.learn.schedule import Learner, next_due, pick_next

from .i18n import prompt
from .security import csrf_token
from .state import get_state

bp = Blueprint("api", __name__, url_prefix="/api")
MAX_ANSWER = 200  # characters of a typed answer


def _learner(learner_id: int) -> Learner | None:
    """The learner, read once per request (the sign-in check and the class catalog both ask)."""
    if "learner" not in g or g.learner_key != learner_id:
        g.learner, g.learner_key = get_state().store.learner(learner_id), learner_id
    return g.learner


def _learner_id() -> int:
    learner_id = session.get("learner_id")
    if not isinstance(learner_id, int) or _learner(learner_id) is None:
        abort(401)
    return learner_id


def _json_object() -> dict:
    data = request.get_json(silent=True)
    if not isinstance(data, dict):
        abort(400, description="the body must be a JSON object")
    return data


@bp.get("/session")
def get_session():  # type: ignore[no-untyped-def]
    learner = None
    if isinstance(session.get("learner_id"), int):
        found = get_state().store.learner(session["learner_id"])
        learner = found.name if found else None
    return jsonify(learner=learner, csrf_token=csrf_token())


def sign_in(name: object, class_code: object) -> str:
    if not isinstance(name, str) or (class_code is not None and not isinstance(class_code, str)):
        raise StudyError("name and class_code must be text")
    learner = get_state().store.sign_in(name, class_code or None, now())
    session["learner_id"] = learner.id
    return learner.name


@bp.post("/session")
def post_session():  # type: ignore[no-untyped-def]
    data = _json_object()
    name = sign_in(data.get("name"), data.get("class_code"))
    return jsonify(learner=name, csrf_token=csrf_token())


def _filters() -> tuple[str | None, str | None]:
    state = get_state()
    rite = request.args.get("rite") or None
    kind = request.args.get("kind") or None
    if rite is not None and rite not in state.catalog.rites:
        abort(404, description=f"unknown rite {rite!r}")
    if kind is not None and kind not in (Family.VOCAB, Family.ORDER):
        abort(400, description="kind is vocab or order")
    return rite, kind


def _catalog(learner_id: int):  # type: ignore[no-untyped-def]
    learner = _learner(learner_id)
    return get_state().catalog_for(learner.class_id if learner else None)


def next_question(learner_id: int, rite: str | None, kind: str | None) -> dict:
    """The next item for the learner as the API shows it (also used by the quiz page)."""
    state = get_state()
    catalog = _catalog(learner_id)
    items = catalog.select(rite=rite, family=kind)
    moment = now()
    limit = current_app.config["NEW_PER_DAY"]
    item = pick_next(items, state.store.agenda(learner_id, moment), new_limit=limit)
    if item is None:  # rare: only then are all the cards loaded, for the date of the next one
        known = state.store.cards(learner_id)
        return {"item": None, "next_due": next_due(items, known, moment).isoformat()}
    question = present(item, catalog, state.rng)
    state.store.save_question(learner_id, question, moment)
    public: dict[str, object] = {
        "id": item.id,
        "kind": question.kind.value,
        "prompt": prompt(question.direction, question.subject),
    }
    if question.kind == Kind.CHOICE:
        public["options"] = list(question.options)
    if question.kind == Kind.ORDER:
        public["items"] = list(question.items)
    return {"item": public}


@bp.get("/next")
def get_next():  # type: ignore[no-untyped-def]
    learner_id = _learner_id()
    rite, kind = _filters()
    return jsonify(next_question(learner_id, rite, kind))


def answer_item(learner_id: int, item_id: object, answer: object, answer_id: object = None) -> dict:
    state = get_state()
    if answer_id is not None and not (isinstance(answer_id, str) and 1 <= len(answer_id) <= 64):
        abort(400, description="answer_id is 1 to 64 characters")
    if answer_id is not None:
        earlier = state.store.logged_result(learner_id, answer_id)
        if earlier is not None:
            return earlier  # a retry: the answer was already counted
    if not isinstance(item_id, str) or _catalog(learner_id).get(item_id) is None:
        abort(404, description="unknown item")
    if isinstance(answer, str) and len(answer) > MAX_ANSWER:
        abort(400, description=f"an answer is at most {MAX_ANSWER} characters")
    found = state.store.question(learner_id, item_id)
    if found is None:
        abort(409, description="this item was not asked: get it from /api/next first")
    question, presented_at = found
    moment = now()
    seconds = (moment - presented_at).total_seconds()
    try:
        result = grade(question, answer, seconds=seconds, fast_seconds=current_app.config["FAST_SECONDS"])
    except AnswerError as e:  # well-formed, but not an answer to the question asked
        abort(409, description=str(e))

    def describe(card) -> dict:  # type: ignore[no-untyped-def]
        body: dict[str, object] = {
            "correct": result.correct,
            "score": result.score,
            "rating": result.rating.value,
            "expected": result.expected,
            "due": card.due.isoformat(),
        }
        if question.kind == Kind.ORDER:
            body["misplaced"] = list(result.misplaced)
            body["modern"] = list(question.modern)
        return body

    try:
        card = state.store.record(
            learner_id,
            item_id,
            result.rating,
            score=result.score,
            correct=result.correct,
            answer=_logged_answer(question, answer, result),
            now=moment,
            duration_ms=int(seconds * 1000),
            answer_id=answer_id if isinstance(answer_id, str) else None,
            describe=describe,
        )
    except IntegrityError:
        earlier = state.store.logged_result(learner_id, str(answer_id)) if answer_id is not None else None
        if earlier is None:
            raise
        return earlier  # the same answer arrived twice at once: counted once
    return describe(card)


def _logged_answer(question, answer: object, result) -> object:  # type: ignore[no-untyped-def]
    """What the review log keeps: the answer, and for an order the right positions as given, so
    that a report can tell which neighbouring items were swapped."""
    if question.kind == Kind.ORDER:
        return {"answer": answer, "submitted": list(result.submitted), "right": list(question.right_order)}
    return {"answer": answer, "expected": question.accepted[0]}


@bp.post("/answer")
def post_answer():  # type: ignore[no-untyped-def]
    learner_id = _learner_id()
    data = _json_object()
    return jsonify(answer_item(learner_id, data.get("item_id"), data.get("answer"), data.get("answer_id")))


@bp.get("/progress")
def get_progress():  # type: ignore[no-untyped-def]
    learner_id = _learner_id()
    state = get_state()
    known = state.store.cards(learner_id)
    stats = rite_progress(_catalog(learner_id).items, known, state.scheduler, now())
    return jsonify(rites=[s.to_dict() for s in stats])


@bp.get("/openapi.json")
def openapi():  # type: ignore[no-untyped-def]
    """The OpenAPI description of this API."""
    from importlib import resources

    import yaml

    return jsonify(yaml.safe_load(resources.files("web").joinpath("openapi.yaml").read_text("utf-8")))
