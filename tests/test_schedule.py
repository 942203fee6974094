from __future__ import annotations

import threading
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa

from study.learn.audit import replay
from study.learn.db import cards, make_engine, review_logs, upgrade
from study.learn.grading import RatingName
from study.learn.schedule import Agenda, ReviewStore, SignInError, UnknownClassError, make_scheduler, pick_next

T0 = datetime(2026, 1, 1, tzinfo=UTC)


def test_golden_fsrs_history_with_pinned_utc_times(store):
    learner = store.sign_in("甲", None, T0)
    history = [
        (RatingName.GOOD, "2026-01-01T00:10:00+00:00"),
        (RatingName.GOOD, "2026-01-03T00:10:00+00:00"),
        (RatingName.GOOD, "2026-01-14T00:10:00+00:00"),
        (RatingName.AGAIN, "2026-01-14T00:20:00+00:00"),
        (RatingName.GOOD, "2026-01-16T00:20:00+00:00"),
    ]
    at = T0
    for rating, due in history:
        card = store.record(learner.id, "vocab:觯:t2g", rating, score=1.0, correct=True, answer="x", now=at)
        assert card.due.isoformat() == due
        at = card.due
    row = store.cards(learner.id)["vocab:觯:t2g"]
    assert row.reps == 5 and row.due.isoformat() == "2026-01-16T00:20:00+00:00"
    assert [log.rating for log in store.logs(learner.id)] == [3, 3, 3, 1, 3]


def test_an_item_answered_right_comes_back_later_than_one_answered_wrong(store):
    learner = store.sign_in("乙", None, T0)
    right = store.record(learner.id, "a", RatingName.GOOD, score=1, correct=True, answer="x", now=T0)
    wrong = store.record(learner.id, "b", RatingName.AGAIN, score=0, correct=False, answer="y", now=T0)
    assert right.due > wrong.due
    # a new card's automatic Easy counts as Good: it goes through the learning steps first
    easy = store.record(learner.id, "c", RatingName.EASY, score=1, correct=True, answer="z", now=T0)
    assert easy.due == right.due
    later = store.record(learner.id, "a", RatingName.GOOD, score=1, correct=True, answer="x", now=right.due)
    assert later.state.name == "Review"
    easy = store.record(learner.id, "c", RatingName.GOOD, score=1, correct=True, answer="z", now=right.due)
    easy = store.record(learner.id, "c", RatingName.EASY, score=1, correct=True, answer="z", now=later.due)
    assert easy.due > later.due + (later.due - right.due)


def test_stored_card_json_round_trips(store):
    learner = store.sign_in("丙", None, T0)
    card = store.record(learner.id, "a", RatingName.HARD, score=0.7, correct=False, answer=[1, 0], now=T0)
    again = store.cards(learner.id)["a"].card
    assert again.to_dict() == card.to_dict()


def test_two_answers_to_the_same_item_at_once_lose_neither_review(database_url):
    url = database_url
    engine = make_engine(url)
    upgrade(engine)
    learner = ReviewStore(engine, make_scheduler(fuzzing=False)).sign_in("丁", None, T0)
    barrier = threading.Barrier(8)
    engines = [make_engine(url) for _ in range(8)]  # one connection pool per "worker"

    def answer(k: int) -> None:
        own = ReviewStore(engines[k], make_scheduler(fuzzing=False))
        barrier.wait()
        own.record(learner.id, "same", RatingName.GOOD, score=1, correct=True, answer=k, now=T0 + timedelta(seconds=k))

    threads = [threading.Thread(target=answer, args=(k,)) for k in range(8)]
    for th in threads:
        th.start()
    for th in threads:
        th.join()
    with engine.connect() as conn:
        logs = conn.execute(sa.select(sa.func.count()).select_from(review_logs)).scalar()
        reps = conn.execute(sa.select(cards.c.reps).where(cards.c.item_id == "same")).scalar()
    for e in [engine, *engines]:
        e.dispose()
    assert logs == 8 and reps == 8


def test_an_answer_that_waited_for_the_lock_behind_a_later_one_is_logged_after_it(store):
    learner = store.sign_in("庚", None, T0)
    later = T0 + timedelta(seconds=5)
    store.record(learner.id, "x", RatingName.GOOD, score=1, correct=True, answer="a", now=later)
    # stamped earlier, but the other tab's answer had the card first
    card = store.record(learner.id, "x", RatingName.AGAIN, score=0, correct=False, answer="b", now=T0)
    logs = store.logs(learner.id)
    assert [log.reviewed_at for log in logs] == [later, later] and card.last_review == later
    # so a replay of the logs by time (as fsrs.Scheduler.reschedule_card does) gives the stored card
    replayed = replay(make_scheduler(fuzzing=False), sorted(logs, key=lambda log: log.reviewed_at))
    assert (replayed.state, replayed.stability, replayed.difficulty, replayed.due) == (
        card.state,
        card.stability,
        card.difficulty,
        card.due,
    )


def test_sign_in_validates_name_and_class_code(store):
    with pytest.raises(SignInError):
        store.sign_in("<script>", None, T0)
    with pytest.raises(SignInError):
        store.sign_in("", None, T0)
    with pytest.raises(UnknownClassError, match="unknown class code"):
        store.sign_in("戊", "NOPE", T0)
    assert store.sign_in(" 己 ", None, T0).name == "己"
    assert store.sign_in("己", None, T0).id == store.sign_in("己", None, T0).id


def test_due_items_first_then_new_ones_in_text_order_up_to_the_daily_limit(store, xiangshe, tesheng):
    from study.build import load_terms
    from study.learn.gather import build_catalog

    docs = [xiangshe, tesheng]
    catalog = build_catalog(docs, load_terms(docs))
    items = catalog.select(rite="乡射礼", family="order")
    learner = store.sign_in("庚", None, T0)
    first = pick_next(items, Agenda.of(store.cards(learner.id), T0), new_limit=2)
    assert first is items[0]
    store.record(learner.id, first.id, RatingName.AGAIN, score=0, correct=False, answer=[], now=T0)
    second = pick_next(items, Agenda.of(store.cards(learner.id), T0), new_limit=2)
    assert second is items[1]  # the failed one is not due yet (one minute learning step)
    store.record(learner.id, second.id, RatingName.GOOD, score=1, correct=True, answer=[], now=T0)
    assert pick_next(items, Agenda.of(store.cards(learner.id), T0), new_limit=2) is None  # daily limit reached
    later = T0 + timedelta(minutes=2)
    assert pick_next(items, Agenda.of(store.cards(learner.id), later), new_limit=2) is first  # due again
    tomorrow = T0 + timedelta(days=1, hours=1)
    nxt = pick_next(items, Agenda.of(store.cards(learner.id), tomorrow), new_limit=2)
    assert nxt is not None


def test_the_most_overdue_cards_read_first_choose_as_the_whole_agenda_does(store, xiangshe, tesheng):
    """ReviewStore.agenda reads only the DUE_FIRST most overdue cards; when none of them fits the
    filter (or the choice ties with a card cut off), pick_next asks for the whole agenda."""
    from study.build import load_terms
    from study.learn.agenda import WholeAgendaNeeded
    from study.learn.gather import build_catalog
    from study.learn.schedule import DUE_FIRST

    docs = [xiangshe, tesheng]
    catalog = build_catalog(docs, load_terms(docs))
    vocab, order = catalog.select(family="vocab"), catalog.select(family="order")
    assert len(vocab) > DUE_FIRST + 5 and len(order) > 3
    learner = store.sign_in("辛", None, T0)
    # the vocabulary cards are the most overdue; the ordering ones fall due after them
    for k, item in enumerate(vocab[: DUE_FIRST + 5] + order[:3]):
        store.record(
            learner.id, item.id, RatingName.AGAIN, score=0, correct=False, answer="", now=T0 + timedelta(seconds=k)
        )
    later = T0 + timedelta(days=3)  # everything due, nothing answered today
    cut = store.agenda(learner.id, later)
    whole = store.agenda(learner.id, later, whole=True)
    assert cut.due_cut and len(cut.due) == DUE_FIRST and not whole.due_cut and len(whole.due) == DUE_FIRST + 8
    by_vocab, by_order = catalog.select_index(family="vocab"), catalog.select_index(family="order")
    assert pick_next(vocab, cut, new_limit=0, by_id=by_vocab) is vocab[0] is pick_next(vocab, whole, new_limit=0)
    with pytest.raises(WholeAgendaNeeded):  # the ordering cards are all beyond the first DUE_FIRST
        pick_next(order, cut, new_limit=0, by_id=by_order)
    assert pick_next(order, whole, new_limit=0, by_id=by_order) is order[0]


def test_the_agenda_of_a_request_reads_todays_cards_and_not_every_card_and_chooses_as_all_the_cards_do(
    store, xiangshe, tesheng
):
    """ReviewStore.agenda reads today's cards (from the index on last_review) and the most overdue
    ones, not every card's id (``seen`` None): a due item is chosen from it; when only new items
    fit, pick_next asks for the whole agenda, which then chooses as an agenda of every card does."""
    from study.build import load_terms
    from study.learn.agenda import WholeAgendaNeeded
    from study.learn.gather import build_catalog

    docs = [xiangshe, tesheng]
    items = build_catalog(docs, load_terms(docs)).select(rite="乡射礼", family="vocab")
    learner = store.sign_in("壬", None, T0)
    for k, item in enumerate(items[:4]):  # yesterday (the day starts at 4 a.m. in Shanghai)
        store.record(
            learner.id, item.id, RatingName.AGAIN, score=0, correct=False, answer="", now=T0 + timedelta(seconds=k)
        )
    today = T0 + timedelta(days=1)
    store.record(learner.id, items[1].id, RatingName.GOOD, score=1, correct=True, answer="", now=today)  # again today
    store.record(learner.id, items[4].id, RatingName.GOOD, score=1, correct=True, answer="", now=today)  # new today
    moment = today + timedelta(hours=1)
    every = Agenda.of(store.cards(learner.id), moment)
    agenda = store.agenda(learner.id, moment)
    assert agenda.seen is None and not agenda.due_cut
    assert agenda.created_today == every.created_today == {items[4].id}
    assert agenda.reviewed_today == {items[1].id, items[4].id}
    assert set(agenda.due) == set(every.due) and items[0].id in agenda.due
    assert pick_next(items, agenda, new_limit=5) is items[0] is pick_next(items, every, new_limit=5)
    fresh = items[5:]  # only new items fit
    with pytest.raises(WholeAgendaNeeded):
        pick_next(fresh, agenda, new_limit=5)
    whole = store.whole_agenda(agenda, learner.id, moment)
    assert whole.seen == every.seen == {i.id for i in items[:5]}
    assert pick_next(fresh, whole, new_limit=5) is items[5] is pick_next(fresh, every, new_limit=5)
    assert pick_next(fresh, whole, new_limit=1) is None  # one new item today already
    assert store.agenda(learner.id, moment, whole=True).seen == every.seen


def test_related_items_found_from_the_catalogs_index_choose_as_the_facts_of_todays_answers_do(xiangshe, tesheng):
    """pick_next with ``related`` (fact → its items) waits a day for the same items as when it
    works out the fact of every item answered today, and chooses the due item a scan of every
    item would; on many random agendas of two whole rites."""
    import random

    from study.build import load_terms
    from study.learn.gather import build_catalog

    docs = [xiangshe, tesheng]
    catalog = build_catalog(docs, load_terms(docs))
    rng = random.Random(5)
    ids = [i.id for i in catalog.items]
    skipped = 0  # agendas whose most overdue item was not chosen (waiting a day, or another family)
    for _ in range(300):
        seen = frozenset(rng.sample(ids, rng.randrange(1, 200)))
        today = frozenset(rng.sample(sorted(seen), rng.randrange(0, len(seen) + 1)))
        # (due at the same time in threes: a tie goes to the text's first)
        due = {i: k // 3 for k, i in enumerate(rng.sample(sorted(seen), min(len(seen), rng.randrange(0, 40))))}
        agenda = Agenda(seen, due, len(today), today, today)
        family = rng.choice([None, "vocab", "order"])
        items, by_id = catalog.select(family=family), catalog.select_index(family=family)
        plain = pick_next(items, agenda, new_limit=30, facts=catalog.facts, by_id=by_id)
        indexed = pick_next(items, agenda, new_limit=30, facts=catalog.facts, by_id=by_id, related=catalog.related)
        scanned = pick_next(items, agenda, new_limit=30, facts=catalog.facts)  # every item looked at
        assert plain is indexed is scanned
        first_due = min(due, key=due.get) if due else None
        skipped += first_due is not None and plain is not None and plain.id != first_due
    assert skipped > 20


def test_the_agendas_reads_of_todays_and_due_cards_touch_only_indexes(tmp_path):
    """/api/next reads a learner's today's cards and most overdue cards on every request: from
    indexes holding every column asked (0005, 0006), not the cards' rows (their FSRS JSON)."""
    from study.learn.cardreads import _DUE_FIRST, _TODAY

    engine = make_engine(f"sqlite:///{tmp_path / 'plan.sqlite'}")
    upgrade(engine)
    params = {"learner_id": 1, "start": T0, "now": T0}
    with engine.connect() as conn:
        for statement in (_TODAY, _DUE_FIRST):
            statement.rows(conn, params)  # compiled for the dialect
            form = statement._forms["sqlite"]  # noqa: SLF001
            plan = conn.exec_driver_sql("EXPLAIN QUERY PLAN " + form.sql, form.args(params)).all()
            assert any("USING COVERING INDEX" in row[-1] for row in plan), plan
    engine.dispose()
