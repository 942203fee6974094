"""Learners' accounts and sessions, rate limits, and what signed questions guarantee (the JSON API)."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from alembic import command

from tests.conftest import PASSWORD, SEED_PATHS, Api, dispose, shown

STRANGER = "别人的密码-000"


def make_app(database_url: str, **config: object):
    from web import create_app

    return create_app(
        {
            "TESTING": True,
            "SECRET_KEY": "accounts",
            "DATABASE_URL": database_url,
            "RANDOM_SEED": 3,
            "FSRS_FUZZING": False,
            "TEXTS": [str(p) for p in SEED_PATHS],
        }
        | config
    )


@pytest.fixture
def app(database_url):
    app = make_app(database_url)
    yield app
    dispose(app)


def _sign_in(client, name: str, password: str, **extra: str):
    token = client.get("/api/session").get_json()["csrf_token"]
    return client.post(
        "/api/session", json={"name": name, "password": password} | extra, headers={"X-CSRFToken": token}
    )


def test_a_stranger_fails_to_sign_in_as_an_existing_learner(app):
    owner = Api(app.test_client(), "张三")
    item = owner.question(kind="vocab")
    owner.answer(item, shown(app, item).accepted[0])
    stranger = app.test_client()
    r = _sign_in(stranger, "张三", STRANGER)
    assert r.status_code == 401 and r.get_json() == {"error": "姓名或密码不对"}
    assert stranger.get("/api/session").get_json()["learner"] is None
    assert stranger.get("/api/progress").status_code == 401
    # the owner, from another browser, with the password: their progress
    again = Api(app.test_client(), "张三")
    assert sum(r["seen"] for r in again.client.get("/api/progress").get_json()["rites"]) == 1


def test_a_new_name_signs_up_and_two_people_cannot_share_one(app):
    first = _sign_in(app.test_client(), "李四", PASSWORD)
    assert first.status_code == 200 and first.get_json()["learner"] == "李四"
    assert _sign_in(app.test_client(), "李四", STRANGER).status_code == 401
    assert _sign_in(app.test_client(), "李四", PASSWORD).status_code == 200


def test_sign_out_ends_the_session_and_the_old_cookie_no_longer_works(app):
    client = app.test_client()
    api = Api(client, "王五")
    cookie = client.get_cookie("session").value
    assert api.next().status_code == 200
    r = client.delete("/api/session", headers=api.headers)
    assert r.status_code == 200 and r.get_json()["learner"] is None
    replay = app.test_client()
    replay.set_cookie("session", cookie)
    assert replay.get("/api/next").status_code == 401
    assert replay.get("/api/session").get_json()["learner"] is None


def test_sign_in_renews_the_session(app):
    client = app.test_client()
    Api(client, "赵六")
    before = client.get_cookie("session").value
    Api(client, "赵六")
    after = client.get_cookie("session").value
    assert before != after
    old = app.test_client()
    old.set_cookie("session", before)
    assert old.get("/api/next").status_code == 401


def test_a_cookie_does_not_survive_a_database_reset(database_url, tmp_path):
    first = make_app(database_url)
    client = first.test_client()
    Api(client, "钱七")
    cookie = client.get_cookie("session").value
    dispose(first)
    second = make_app(f"sqlite:///{tmp_path / 'fresh.sqlite'}")  # same secret key, empty database
    Api(second.test_client(), "钱七", password="另一个人的密码-1")  # the same name, someone else
    replay = second.test_client()
    replay.set_cookie("session", cookie)
    assert replay.get("/api/next").status_code == 401
    dispose(second)


def test_joining_a_class_keeps_the_other_class_report_its_own(app):
    from study.learn.db import now

    classes = app.extensions["study"].classes
    a = classes.create_class(classes.sign_up("甲师", PASSWORD, now()).id, "甲班", now())
    b = classes.create_class(classes.sign_up("乙师", PASSWORD, now()).id, "乙班", now())
    learner = Api(app.test_client(), "孙八", class_code=a.code)
    item = learner.question(kind="vocab")
    learner.answer(item, shown(app, item).accepted[0])
    learner = Api(app.test_client(), "孙八", class_code=b.code)  # joins another class, explicitly
    item = learner.question(kind="vocab")
    learner.answer(item, shown(app, item).accepted[0])
    assert [log.learner for log in classes.class_logs(a.id)] == ["孙八"]
    assert [log.learner for log in classes.class_logs(b.id)] == ["孙八"]
    assert classes.class_logs(a.id)[0].item_id != classes.class_logs(b.id)[0].item_id
    assert [x.name for x in classes.learners_of(a.id)] == ["孙八"]  # still in the earlier class's list
    # signing in again without a code changes nothing
    Api(app.test_client(), "孙八")
    assert app.extensions["study"].store.learner(1).class_id == b.id


def test_sign_in_and_teacher_login_are_rate_limited_with_a_localized_message(database_url):
    app = make_app(database_url, RATE_LIMITS={"sign_in": "3 per minute", "teacher_login": "2 per minute"})
    client = app.test_client()
    codes = [_sign_in(client, f"学生{n}", PASSWORD).status_code for n in range(4)]
    assert codes == [200, 200, 200, 429]
    r = _sign_in(client, "学生9", PASSWORD)
    assert r.status_code == 429 and r.get_json()["error"].startswith("尝试次数太多")
    assert 1 <= int(r.headers["Retry-After"]) <= 60
    token = client.get("/api/session").get_json()["csrf_token"]
    form = {"name": "某师", "password": STRANGER, "csrf_token": token}
    codes = [client.post("/teacher/login", data=form).status_code for _ in range(3)]
    assert codes == [400, 400, 429]
    assert "尝试次数太多" in client.post("/teacher/login", data=form).get_data(as_text=True)
    # counted in the database: another app (another worker) on it sees the same count
    other = make_app(database_url, RATE_LIMITS={"sign_in": "3 per minute"})
    assert _sign_in(other.test_client(), "学生8", PASSWORD).status_code == 429
    dispose(app)
    dispose(other)


def test_guessing_one_learners_password_is_limited_per_name(database_url):
    app = make_app(database_url, RATE_LIMITS={"sign_in": "100 per minute", "sign_in_name": "3 per minute"})
    Api(app.test_client(), "周九")
    codes = [_sign_in(app.test_client(), "周九", STRANGER + str(n)).status_code for n in range(4)]
    assert codes == [401, 401, 429, 429]  # the owner's sign-in counted too
    dispose(app)


def test_learners_from_before_passwords_keep_their_progress_and_set_one_at_next_sign_in(database_url):
    from study.learn.db import alembic_config

    engine = sa.create_engine(database_url)  # a plain engine: creates the SQLite file
    config = alembic_config(engine.url.render_as_string(hide_password=False))
    with engine.begin() as conn:
        config.attributes["connection"] = conn
        command.upgrade(config, "0003")
    t0 = datetime(2026, 1, 1, tzinfo=UTC)
    with engine.begin() as conn:
        conn.execute(
            sa.text("INSERT INTO learners (id, name, class_id, created_at) VALUES (1, '老学生', NULL, :t)"), {"t": t0}
        )
        conn.execute(
            sa.text(
                "INSERT INTO cards (learner_id, item_id, card_json, due, reps, created_at, last_review) "
                "VALUES (1, 'vocab:寻:t2g', '{}', :t, 1, :t, :t)"
            ),
            {"t": t0.replace(tzinfo=None)},
        )
    engine.dispose()
    app = make_app(database_url)  # migrates to the newest revision
    Api(app.test_client(), "老学生")  # the first sign-in sets the password
    with app.extensions["study"].store.engine.connect() as conn:
        assert conn.execute(sa.text("SELECT count(*) FROM cards WHERE learner_id = 1")).scalar() == 1
    assert _sign_in(app.test_client(), "老学生", STRANGER).status_code == 401  # from now on it is theirs
    dispose(app)


# --- signed questions ----------------------------------------------------------------------


def _right(app, item: dict) -> object:
    question = shown(app, item)
    if item["kind"] == "order":
        return sorted(range(len(item["items"])), key=lambda i: question.positions[i])
    return question.accepted[0]


def test_two_tabs_answer_two_shuffles_each_graded_against_its_own(app):
    api = Api(app.test_client(), "吴十")
    first = api.question(kind="order")
    second = api.next(kind="order").get_json()["item"]  # the other tab asks the same item again
    assert second["id"] == first["id"] and second["token"] != first["token"]
    assert first["items"] != second["items"] or len(first["items"]) < 3
    assert api.answer(first, _right(app, first)).get_json()["correct"] is True
    assert api.answer(second, _right(app, second)).get_json()["correct"] is True
    assert app.extensions["study"].store.cards(1)[first["id"]].reps == 2


def test_a_replayed_answer_counts_once_even_with_a_new_answer_id(app):
    api = Api(app.test_client(), "郑一")
    item = api.question(kind="vocab")
    first = api.answer(item, _right(app, item), answer_id="one").get_json()
    for n in range(5):
        assert api.answer(item, _right(app, item), answer_id=f"again-{n}").get_json() == first
    assert len(app.extensions["study"].store.logs(1)) == 1


def test_a_token_from_another_learner_or_item_or_forged_is_refused(app):
    a = Api(app.test_client(), "冯二")
    b = Api(app.test_client(), "陈三")
    item = a.question(kind="vocab")
    r = b.answer(item, "x")
    assert r.status_code == 409 and r.get_json()["error"] == "题目凭证无效"
    other = next(i for i in app.extensions["study"].catalog.items if i.id != item["id"])
    r = a.client.post(
        "/api/answer", json={"item_id": other.id, "answer": "x", "token": item["token"]}, headers=a.headers
    )
    assert r.status_code == 409
    forged = item["token"][:-3] + ("AAA" if not item["token"].endswith("AAA") else "BBB")
    assert a.answer(item, "x", token=forged).status_code == 409
    assert (
        a.client.post("/api/answer", json={"item_id": item["id"], "answer": "x"}, headers=a.headers).status_code == 409
    )


def test_a_learner_rates_a_right_answer_and_sees_each_interval(app):
    api = Api(app.test_client(), "褚四")
    item = api.question(kind="vocab")
    body = api.answer(item, _right(app, item)).get_json()
    easy = next(c for c in body["choices"] if c["rating"] == "easy")
    r = api.client.post("/api/rate", json={"token": item["token"], "rating": "easy"}, headers=api.headers)
    rated = r.get_json()
    assert r.status_code == 200 and rated["rating"] == "easy" and rated["due"] == easy["due"]
    assert rated["due_in"] == easy["due_in"] and rated["due_in"].endswith("天后")
    r = api.client.post("/api/rate", json={"token": item["token"], "rating": "guessed"}, headers=api.headers)
    assert r.get_json()["rating"] == "again" and r.get_json()["guessed"] is True
    logs = app.extensions["study"].store.logs(1)
    assert len(logs) == 1 and logs[0].rating == 1 and logs[0].guessed
    assert (
        api.client.post("/api/rate", json={"token": item["token"], "rating": "so-so"}, headers=api.headers).status_code
        == 400
    )


def test_a_wrong_answer_can_be_rated_only_again(app):
    api = Api(app.test_client(), "卫五")
    item = api.question(kind="vocab")
    wrong = "不对" if item["kind"] == "typed" else next(o for o in item["options"] if o != _right(app, item))
    assert api.answer(item, wrong).get_json()["correct"] is False
    r = api.client.post("/api/rate", json={"token": item["token"], "rating": "easy"}, headers=api.headers)
    assert r.status_code == 409 and r.get_json()["error"]


def test_related_questions_about_one_fact_never_come_the_same_day(app):
    api = Api(app.test_client(), "蒋六")
    facts: list[str] = []
    for _ in range(12):
        item = api.question(kind="vocab")
        assert item["fact"] not in facts, (item["id"], facts)
        facts.append(item["fact"])
        api.answer(item, _right(app, item))


def test_each_kind_has_its_own_daily_new_limit_and_the_empty_one_points_to_the_other(database_url):
    app = make_app(database_url, NEW_PER_DAY=1)
    api = Api(app.test_client(), "沈七")
    item = api.question(kind="vocab")
    api.answer(item, _right(app, item))
    body = api.next(kind="vocab").get_json()
    assert body["item"] is None and body["other_kind"] == "order"
    assert body["message"].startswith("现在没有要复习的内容") and body["next_due_in"]
    assert api.question(kind="order") is not None
    dispose(app)


def test_a_chosen_stage_gives_only_its_items(app):
    catalog = app.extensions["study"].catalog
    stage = next(s for s in catalog.stages.values() if catalog.select(stages=frozenset({s.id}), family="order"))
    api = Api(app.test_client(), "韩八")
    for _ in range(3):
        item = api.question(stage=stage.id)
        assert item is not None
        from study.learn.catalog import item_stages

        assert stage.id in item_stages(catalog.get(item["id"]))
        api.answer(item, _right(app, item))
    assert api.next(stage="没有这一节").status_code == 404


def test_the_day_starts_at_4_am_in_the_learners_zone():
    from zoneinfo import ZoneInfo

    from study.learn.agenda import day_start

    shanghai = ZoneInfo("Asia/Shanghai")
    three_am = datetime(2026, 1, 2, 3, 0, tzinfo=shanghai)
    assert day_start(three_am, shanghai) == datetime(2026, 1, 1, 4, 0, tzinfo=shanghai)
    five_am = datetime(2026, 1, 2, 5, 0, tzinfo=shanghai)
    assert day_start(five_am, shanghai) == datetime(2026, 1, 2, 4, 0, tzinfo=shanghai)
    london = ZoneInfo("Europe/London")
    assert day_start(five_am, london) == datetime(2026, 1, 1, 4, 0, tzinfo=london)
    assert day_start(five_am + timedelta(hours=20), london) == datetime(2026, 1, 2, 4, 0, tzinfo=london)


def test_intervals_read_as_words_in_both_languages(app):
    from web.i18n import interval_words

    with app.test_request_context("/?lang=zh"):
        assert interval_words(timedelta(days=8)) == "8 天后"
        assert interval_words(timedelta(minutes=10)) == "10 分钟后"
        assert interval_words(timedelta(hours=5)) == "5 小时后"
    with app.test_request_context("/?lang=en"):
        assert interval_words(timedelta(days=8)) == "in 8 days"
