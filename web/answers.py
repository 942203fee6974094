"""Answering a question: graded against the question its token shows, recorded once (a token
or answer_id answered before gets its first result back), with the self-ratings it allows."""

from __future__ import annotations

import random

from flask import abort, current_app, g
from sqlalchemy.exc import IntegrityError

from study.learn.accounts import Learner
from study.learn.catalog import Kind
from study.learn.db import now
from study.learn.grading import RatingName
from study.learn.quiz import AnswerError, Question, grade, present
from study.learn.schedule import RATINGS as FSRS_RATINGS
from study.learn.teach import teaching

from . import tokens
from .i18n import interval_words, localize_teaching, t
from .learner import learner_catalog
from .state import get_state

MAX_ANSWER = 200  # characters of a typed answer
RATINGS = tuple(RatingName)


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

    catalog = learner_catalog(learner)
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
