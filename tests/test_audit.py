"""The audit of bench/load.py and tests/test_kill.py finds what it is there to find."""

from __future__ import annotations

import json

import fsrs
import sqlalchemy as sa

from study.learn.audit import audit_reviews
from study.learn.db import cards, review_logs
from study.learn.schedule import make_scheduler

NAME = "学生甲"  # the Api fixture's learner


def _answer(api, item: dict, answer_id: str) -> dict:
    body = {"item_id": item["id"], "answer": "礼", "answer_id": answer_id, "token": item["token"]}
    r = api.client.post("/api/answer", json=body, headers=api.headers)
    assert r.status_code == 200, r.get_json()
    return r.get_json()


def test_the_audit_finds_lost_doubled_unasked_and_half_written_answers(app, api):
    engine = app.extensions["study"].store.engine
    scheduler = make_scheduler(0.9, fuzzing=False)
    shown = api.question(kind="vocab")
    again = api.next(kind="vocab").get_json()["item"]  # the same question in a second tab
    assert again["id"] == shown["id"]
    first = shown["id"]
    acked = {(NAME, "a1"): _answer(api, shown, "a1"), (NAME, "a2"): _answer(api, again, "a2")}
    other = api.question(kind="vocab")
    second = other["id"]
    acked[(NAME, "a3")] = _answer(api, other, "a3")
    report = audit_reviews(engine, scheduler, acked)
    assert report.ok, report.summary()
    assert (report.acknowledged, report.logs, report.cards) == (3, 3, 2)

    # a logged answer nobody was told about, unless its outcome was unknown; one refused, yet logged
    told = {k: v for k, v in acked.items() if k != (NAME, "a3")}
    assert audit_reviews(engine, scheduler, told).problems == [
        f"('{NAME}', 'a3'): logged 1 times, never sent or acknowledged"
    ]
    assert audit_reviews(engine, scheduler, told, unsure={(NAME, "a3")}).unsure_logged == 1
    assert "refused with a 4xx, yet logged" in audit_reviews(engine, scheduler, told, rejected={(NAME, "a3")}).summary()
    # told something else than the log keeps
    assert "the client was told" in audit_reviews(engine, scheduler, acked | {(NAME, "a1"): {}}).problems[0]

    with engine.begin() as conn:  # a card written without its review: half-written
        row = conn.execute(sa.select(cards).where(cards.c.item_id == first)).one()
        card = fsrs.Card.from_json(row.card_json)
        card.stability = (card.stability or 0) * 2
        conn.execute(cards.update().where(cards.c.item_id == first).values(card_json=card.to_json()))
    problems = audit_reviews(engine, scheduler, acked).problems
    assert len(problems) == 1 and "stability" in problems[0] and "stored" in problems[0]

    with engine.begin() as conn:  # an acknowledged answer lost
        conn.execute(review_logs.delete().where(review_logs.c.answer_id == "a3"))
    problems = audit_reviews(engine, scheduler, acked).problems
    assert f"('{NAME}', 'a3'): acknowledged, logged 0 times" in problems
    assert f"card ({NAME}, {second}): reps 1 but no logs" in problems

    with engine.begin() as conn:  # an answer counted twice (as without the unique key)
        log = conn.execute(sa.select(review_logs).where(review_logs.c.answer_id == "a1")).one()
        copy = {k: v for k, v in log._mapping.items() if k not in ("id", "answer_id", "token_id")}
        conn.execute(review_logs.insert().values(**copy, answer_id=None))
    problems = audit_reviews(engine, scheduler, acked).problems
    assert any("no answer_id" in p for p in problems)
    assert any(f"card ({NAME}, {first}): reps 2 but 3 logs" in p for p in problems)
    assert json.loads(log.result_json) == acked[(NAME, "a1")]
