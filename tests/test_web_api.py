from __future__ import annotations

from datetime import datetime, timedelta

from tests.conftest import Api, dispose


def test_session_starts_anonymous_with_a_csrf_token(client):
    body = client.get("/api/session").get_json()
    assert body["learner"] is None and len(body["csrf_token"]) > 20


def test_sign_in_sets_the_learner(client):
    api = Api(client, "李生")
    assert client.get("/api/session").get_json()["learner"] == "李生"
    assert api.next().status_code == 200


def test_next_gives_a_vocabulary_choice_in_the_fixed_shape(api):
    body = api.next(kind="vocab", rite="乡射礼").get_json()
    item = body["item"]
    assert set(item) == {"id", "kind", "prompt", "options"}
    assert item["kind"] == "choice" and item["id"].startswith("vocab:") and len(item["options"]) == 4
    assert "「" in item["prompt"]


def test_answering_right_and_wrong(app, api):
    item = api.next(kind="vocab", rite="乡射礼").get_json()["item"]
    question, _ = app.extensions["study"].store.question(1, item["id"])
    right = question.accepted[0]
    body = api.answer(item["id"], right).get_json()
    assert body["correct"] is True and body["score"] == 1.0 and body["rating"] in ("good", "easy")
    assert body["expected"] == right
    datetime.fromisoformat(body["due"])
    wrong = next(o for o in item["options"] if o != right)
    body = api.answer(item["id"], wrong).get_json()
    assert body == body | {"correct": False, "score": 0.0, "rating": "again"}


def test_an_order_item_with_partial_credit_and_feedback(app, api):
    item = api.next(kind="order", rite="乡射礼").get_json()["item"]
    assert item["kind"] == "order" and set(item) == {"id", "kind", "prompt", "items"}
    question, _ = app.extensions["study"].store.question(1, item["id"])
    right = sorted(range(len(item["items"])), key=lambda i: question.positions[i])
    swapped = right[:]
    swapped[0], swapped[1] = swapped[1], swapped[0]
    body = api.answer(item["id"], swapped).get_json()
    assert body["correct"] is False and 0 < body["score"] < 1 and body["misplaced"] == [0, 1]
    assert body["expected"] == list(question.right_order)
    assert body["modern"][0] == "邀请宾客"
    assert api.answer(item["id"], right).get_json()["correct"] is True


def test_progress_counts_per_rite(app, api):
    item = api.next(kind="vocab").get_json()["item"]
    question, _ = app.extensions["study"].store.question(1, item["id"])
    api.answer(item["id"], question.accepted[0])
    rites = {r["rite"]: r for r in api.client.get("/api/progress").get_json()["rites"]}
    assert set(rites) == {"乡射礼", "燕礼", "特牲馈食礼"}
    assert sum(r["seen"] for r in rites.values()) == 1
    assert set(next(iter(rites.values()))) == {"rite", "total", "seen", "due", "mastered"}


def test_nothing_due_gives_null_and_the_next_due_time(database_url):
    from web import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url, "NEW_PER_DAY": 1})
    api = Api(app.test_client())
    item = api.next(kind="vocab").get_json()["item"]
    question, _ = app.extensions["study"].store.question(1, item["id"])
    api.answer(item["id"], question.accepted[0])
    body = api.next(kind="vocab").get_json()
    assert body["item"] is None  # one new item a day, and the first is not due yet
    card = app.extensions["study"].store.cards(1)[item["id"]]
    tomorrow = (card.created_at + timedelta(days=1)).replace(hour=0, minute=0, second=0, microsecond=0)
    assert datetime.fromisoformat(body["next_due"]) == min(tomorrow, card.due)  # new items wait for tomorrow
    dispose(app)


# --- bad input -----------------------------------------------------------------------------


def test_api_needs_a_signed_in_learner(client):
    assert client.get("/api/next").status_code == 401
    assert client.get("/api/progress").get_json() == {"error": "请先登录"}


def test_missing_or_wrong_csrf_token_is_refused(client):
    api = Api(client)
    item = api.next().get_json()["item"]
    r = client.post("/api/answer", json={"item_id": item["id"], "answer": "x"})
    assert r.status_code == 403 and "error" in r.get_json()
    r = client.post("/api/answer", json={"item_id": item["id"], "answer": "x"}, headers={"X-CSRFToken": "forged"})
    assert r.status_code == 403


def test_unknown_item_malformed_order_and_unasked_item(app, api):
    assert api.answer("vocab:nothing:t2g", "x").status_code == 404
    assert api.answer(123, "x").status_code == 404
    item = api.next(kind="order", rite="乡射礼").get_json()["item"]
    for bad in ([0, 0, 1, 2, 3, 4], [0, 1], "速賔", [True, 1, 2, 3, 4, 5], None):
        r = api.answer(item["id"], bad)
        assert r.status_code == 409 and r.get_json()["error"], bad
    assert api.answer("vocab:乘矢:t2g", "四矢").status_code == 409
    assert (
        api.client.post(
            "/api/answer", data="not json", headers=api.headers | {"Content-Type": "application/json"}
        ).status_code
        == 400
    )


def test_bad_filters_and_oversized_body(api):
    assert api.next(rite="不存在").status_code == 404
    assert api.next(kind="poetry").status_code == 400
    big = api.client.post("/api/answer", data="x" * 20000, headers=api.headers | {"Content-Type": "application/json"})
    assert big.status_code == 413 and "error" in big.get_json()
    item = api.next(kind="vocab").get_json()["item"]
    assert api.answer(item["id"], "字" * 500).status_code == 400


def test_bad_sign_in(client):
    token = client.get("/api/session").get_json()["csrf_token"]
    h = {"X-CSRFToken": token}
    assert client.post("/api/session", json={"name": ""}, headers=h).status_code == 400
    assert client.post("/api/session", json={"name": "<b>x</b>"}, headers=h).status_code == 400
    assert client.post("/api/session", json={"name": ["x"]}, headers=h).status_code == 400
    r = client.post("/api/session", json={"name": "甲", "class_code": "ZZZZ"}, headers=h)
    assert r.status_code == 404 and "unknown class code" in r.get_json()["error"]


# --- pages ---------------------------------------------------------------------------------


def test_pages_render_in_chinese_and_english(client):
    home = client.get("/").get_data(as_text=True)
    assert "你的名字" in home and 'name="csrf_token"' in home
    token = home.split('name="csrf_token" value="')[1].split('"')[0]
    r = client.post("/signin", data={"name": "王生", "csrf_token": token})
    assert r.status_code == 302
    home = client.get("/").get_data(as_text=True)
    assert "你好，王生" in home and "词语测验" in home
    assert "Vocabulary quiz" in client.get("/?lang=en").get_data(as_text=True)
    client.get("/lang/en")
    assert "Progress" in client.get("/progress").get_data(as_text=True)
    quiz = client.get("/quiz?kind=order&rite=乡射礼").get_data(as_text=True)
    assert 'data-kind="order"' in quiz and "quiz.js" in quiz


def test_sign_in_form_without_token_is_refused(client):
    assert client.post("/signin", data={"name": "王生"}).status_code == 403


def test_everything_rendered_is_escaped(tmp_path, database_url):
    from web import create_app

    text = tmp_path / "hostile.txt"
    text.write_text("乡射礼\n主人<b>拜</b>&amp;【拜，<i>礼</i>也】\n右<script>x\n甲\n右乙\n丙\n右丁\n", "utf-8")
    app = create_app({"TESTING": True, "SECRET_KEY": "t", "DATABASE_URL": database_url, "TEXTS": [str(text)]})
    client = app.test_client()
    Api(client, "甲乙")
    html = client.get("/progress").get_data(as_text=True)
    dispose(app)
    assert "&lt;script&gt;x" in html and "<script>x" not in html


def test_every_page_sets_a_content_security_policy_without_inline_scripts(client):
    Api(client)
    for path in ("/", "/quiz?kind=vocab", "/progress", "/api/session", "/nowhere"):
        r = client.get(path)
        csp = r.headers["Content-Security-Policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        html = r.get_data(as_text=True)
        assert "<script>" not in html and " onclick=" not in html and "style=" not in html
    assert client.get("/nowhere").status_code == 404
    assert client.get("/api/nowhere").get_json()["error"]


def test_session_cookie_is_httponly_and_samesite(client):
    Api(client)
    cookie = client.get_cookie("session")
    assert cookie.http_only and cookie.same_site == "Lax"


def test_progress_page_shows_reviews_and_the_timeline(app, client):
    api = Api(client)
    item = api.next(kind="order", rite="乡射礼").get_json()["item"]
    question, _ = app.extensions["study"].store.question(1, item["id"])
    api.answer(item["id"], sorted(range(len(item["items"])), key=lambda i: question.positions[i]))
    html = client.get("/progress").get_data(as_text=True)
    assert '<td class="seen">1</td>' in html
    assert html.count("<svg") >= 3 and "邀请宾客" in html and "速賔" in html


def test_reviews_survive_a_restart_of_the_app(database_url):
    from web import create_app

    config = {
        "TESTING": True,
        "SECRET_KEY": "same",
        "DATABASE_URL": database_url,
        "RANDOM_SEED": 2,
    }
    first = create_app(config)
    api = Api(first.test_client(), "持久")
    item = api.next(kind="vocab").get_json()["item"]
    question, _ = first.extensions["study"].store.question(1, item["id"])
    due = api.answer(item["id"], question.accepted[0]).get_json()["due"]
    second = create_app(config)
    again = Api(second.test_client(), "持久")
    rows = second.extensions["study"].store.cards(1)
    assert rows[item["id"]].due.isoformat() == due
    progress = again.client.get("/api/progress").get_json()["rites"]
    dispose(first)
    dispose(second)
    assert sum(r["seen"] for r in progress) == 1


def test_production_refuses_to_start_without_a_secret_key(tmp_path, monkeypatch):
    import pytest

    from web import create_app

    monkeypatch.delenv("STUDY_SECRET_KEY", raising=False)
    monkeypatch.delenv("SECRET_KEY", raising=False)
    with pytest.raises(RuntimeError, match="secret key"):
        create_app({"PRODUCTION": True, "DATABASE_URL": f"sqlite:///{tmp_path / 'p.sqlite'}"})


def test_a_retried_answer_with_the_same_answer_id_counts_once(app, api):
    item = api.next(kind="vocab").get_json()["item"]
    question, _ = app.extensions["study"].store.question(1, item["id"])
    body = {"item_id": item["id"], "answer": question.accepted[0], "answer_id": "a-1"}
    first = api.client.post("/api/answer", json=body, headers=api.headers).get_json()
    again = api.client.post("/api/answer", json=body, headers=api.headers).get_json()
    assert again == first
    logs = app.extensions["study"].store.logs(1)
    assert [log.answer_id for log in logs] == ["a-1"]
    assert app.extensions["study"].store.cards(1)[item["id"]].reps == 1
    bad = api.client.post("/api/answer", json=body | {"answer_id": "x" * 65}, headers=api.headers)
    assert bad.status_code == 400
