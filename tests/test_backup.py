from __future__ import annotations

import json
import threading
from datetime import UTC, datetime, timedelta

import pytest
import sqlalchemy as sa
from click.testing import CliRunner

from study.cli import cli
from study.learn.backup import EXCLUDED, BackupError, backed_up_tables, export_progress, import_progress
from study.learn.classes import ClassStore
from study.learn.db import learners, make_engine, metadata, review_logs, upgrade
from study.learn.grading import RatingName
from study.learn.schedule import ReviewStore, make_scheduler

T0 = datetime(2026, 3, 1, 8, tzinfo=UTC)
SPEC = "name: 乡射\nrites: [乡射礼]\n"


def _filled(url: str) -> ReviewStore:
    """Two teachers (one owns a class with an assignment), learners in and out of the class,
    cards and reviews with answer ids."""
    engine = make_engine(url)
    upgrade(engine)
    store = ReviewStore(engine, make_scheduler(fuzzing=False))
    rooms = ClassStore(engine)
    owner = rooms.sign_up("王老师", "correct horse battery", T0)
    rooms.sign_up("李老师", "another long password", T0)
    room = rooms.create_class(owner.id, "甲班", T0)
    rooms.assign(room.id, SPEC, T0)
    for n, name in enumerate(("甲", "乙", "丙")):
        learner = store.sign_in(name, room.code if n < 2 else None, T0)
        for k in range(4):
            at = T0 + timedelta(minutes=10 * k + n)
            rating = (RatingName.GOOD, RatingName.AGAIN, RatingName.EASY, RatingName.HARD)[k]
            store.record(
                learner.id,
                f"item{k % 3}",
                rating,
                score=k / 3,
                correct=k != 1,
                answer=[k, "乗"],
                now=at,
                answer_id=f"a-{n}-{k}",
                describe=lambda review: {"due": review.card.due.isoformat()},
            )
    return store


def _tables(engine) -> dict[str, list[tuple]]:
    """Every row of every table, as the database gives it back."""
    with engine.connect() as conn:
        return {
            t.name: [tuple(r) for r in conn.execute(sa.select(t).order_by(*t.primary_key.columns or t.columns))]
            for t in metadata.sorted_tables
        }


def _restored(url: str, data: dict):  # type: ignore[no-untyped-def]
    engine = make_engine(url)
    upgrade(engine)
    import_progress(engine, data)
    return engine


def test_a_backup_restores_every_table_exactly_sqlite_to_database_and_back(tmp_path, database_url):
    source = _filled(f"sqlite:///{tmp_path / 'source.sqlite'}").engine
    exported = export_progress(source)
    target = _restored(database_url, exported)  # SQLite, or PostgreSQL when STUDY_TEST_DATABASE_URL is set
    back = _restored(f"sqlite:///{tmp_path / 'back.sqlite'}", export_progress(target))
    before = _tables(source)
    assert before["teachers"] and before["assignments"] and before["review_logs"]
    assert _tables(target) == before
    assert _tables(back) == before
    assert export_progress(back)["tables"] == exported["tables"]
    for engine in (source, target, back):
        engine.dispose()


def test_a_restored_database_keeps_teachers_owners_assignments_and_answer_ids(tmp_path):
    source = _filled(f"sqlite:///{tmp_path / 'a.sqlite'}").engine
    engine = _restored(f"sqlite:///{tmp_path / 'b.sqlite'}", export_progress(source))
    rooms = ClassStore(engine)
    teacher = rooms.log_in("王老师", "correct horse battery")  # the password hash came along
    assert teacher is not None
    (room,) = rooms.classes_of(teacher.id)  # the class kept its owner
    assert rooms.assignment(room.id) == SPEC  # and what it studies
    assert sorted(x.name for x in rooms.learners_of(room.id)) == ["乙", "甲"]
    store = ReviewStore(engine, make_scheduler(fuzzing=False))
    assert store.logged_result(1, answer_id="a-0-0") is not None  # a retry after the restore is not counted twice
    engine.dispose()
    source.dispose()


def test_every_table_is_backed_up_or_excluded_with_a_reason():
    names = {t.name for t in backed_up_tables()}
    assert names == {t.name for t in metadata.sorted_tables} - set(EXCLUDED)
    assert not names & set(EXCLUDED)
    assert all(reason.strip() for reason in EXCLUDED.values())
    assert {"teachers", "classes", "assignments", "learners", "cards", "review_logs"} <= names


def test_importing_twice_changes_nothing(tmp_path, database_url):
    source = _filled(f"sqlite:///{tmp_path / 'a.sqlite'}").engine
    exported = export_progress(source)
    target = _restored(database_url, exported)
    again = import_progress(target, exported)
    assert sum(again.rows.values()) == 0
    assert _tables(target) == _tables(source)
    source.dispose()
    target.dispose()


def test_a_conflicting_row_stops_the_import_in_one_line_and_changes_nothing(tmp_path, database_url):
    exported = export_progress(_filled(f"sqlite:///{tmp_path / 'a.sqlite'}").engine)
    engine = make_engine(database_url)
    upgrade(engine)
    store = ReviewStore(engine, make_scheduler(fuzzing=False))
    other = store.sign_in("别人", None, T0)  # takes learner id 1 with another name
    before = _tables(engine)
    with pytest.raises(BackupError) as err:
        import_progress(engine, exported, path="progress.json")
    message = str(err.value)
    assert "\n" not in message and message.startswith("progress.json: learners, row 1: id=1")
    assert "nothing was imported" in message
    assert _tables(engine) == before and other.id == 1
    engine.dispose()


def test_an_answer_id_already_used_is_a_one_line_error(tmp_path, database_url):
    exported = export_progress(_filled(f"sqlite:///{tmp_path / 'a.sqlite'}").engine)
    engine = _restored(database_url, exported)
    logs = exported["tables"]["review_logs"]
    columns = logs["columns"]
    row = list(logs["rows"][0])
    row[columns.index("id")] = 999  # a new log that reuses the learner's answer id "a-0-0"
    clash = {**exported, "tables": {"review_logs": {"columns": columns, "rows": [row]}}}
    before = _tables(engine)
    with pytest.raises(BackupError, match=r"learner_id=1, answer_id='a-0-0'.*nothing was imported") as err:
        import_progress(engine, clash, path="p.json")
    assert "\n" not in str(err.value)
    assert _tables(engine) == before
    engine.dispose()


def test_a_version_1_file_with_an_answer_id_already_used_is_a_one_line_error(tmp_path, database_url):
    store = _filled(database_url)
    at = T0.isoformat()
    old = {
        "format": "study-progress",
        "version": 1,
        "classes": [],
        "learners": [{"name": "甲", "class_code": None, "created_at": at}],
        "cards": [],
        "reviews": [
            {
                "learner": "甲",
                "item_id": "item9",
                "rating": 3,
                "score": 1.0,
                "correct": True,
                "reviewed_at": at,
                "duration_ms": 5,
                "answer": "x",
                "answer_id": "a-0-0",
                "result": None,
            }
        ],
    }
    before = _tables(store.engine)
    with pytest.raises(BackupError, match=r"^old.json: conflicts with the database \(.*\); nothing was imported$"):
        import_progress(store.engine, old, path="old.json")
    assert _tables(store.engine) == before
    store.engine.dispose()


def test_the_export_is_one_snapshot_while_answers_are_written(tmp_path, database_url):
    """A learner, card and review committed between the export's first and last query are in the
    export whole or not at all (on PostgreSQL, separate READ COMMITTED selects mixed them)."""
    store = _filled(database_url)
    engine = store.engine
    writer = make_engine(database_url, timeout=5)
    other = ReviewStore(writer, make_scheduler(fuzzing=False))
    done: list[BaseException | None] = []

    def write_during_the_export() -> None:
        try:
            learner = other.sign_in("丁", None, T0)
            other.record(learner.id, "item0", RatingName.GOOD, score=1, correct=True, answer="x", now=T0)
            done.append(None)
        except BaseException as e:  # noqa: BLE001 - reported by the assertion below
            done.append(e)

    fired: list[bool] = []

    @sa.event.listens_for(engine, "after_cursor_execute")
    def after(conn, cursor, statement, *args):  # type: ignore[no-untyped-def]
        if not fired and "FROM classes" in statement:  # a table read, then a writer commits
            fired.append(True)
            thread = threading.Thread(target=write_during_the_export)
            thread.start()
            thread.join(10)

    exported = export_progress(engine)
    assert fired and done == [None]
    tables = exported["tables"]
    names = [r[tables["learners"]["columns"].index("name")] for r in tables["learners"]["rows"]]
    learner_ids = {r[0] for r in tables["learners"]["rows"]}
    card_learners = {r[tables["cards"]["columns"].index("learner_id")] for r in tables["cards"]["rows"]}
    log_learners = {r[tables["review_logs"]["columns"].index("learner_id")] for r in tables["review_logs"]["rows"]}
    assert "丁" not in names  # the snapshot began before the writer committed
    assert card_learners <= learner_ids and log_learners <= learner_ids
    with engine.connect() as conn:  # and the writer did commit
        assert conn.execute(sa.select(sa.func.count()).select_from(learners)).scalar() == 4
        assert conn.execute(sa.select(sa.func.count()).select_from(review_logs)).scalar() == 13
    engine.dispose()
    writer.dispose()


def test_a_version_1_file_is_still_merged(tmp_path, database_url):
    old = {
        "format": "study-progress",
        "version": 1,
        "classes": [{"code": "ABCDEF", "name": "旧班", "created_at": T0.isoformat()}],
        "learners": [{"name": "甲", "class_code": "ABCDEF", "created_at": T0.isoformat()}],
        "cards": [],
        "reviews": [],
    }
    engine = make_engine(database_url)
    upgrade(engine)
    report = import_progress(engine, old)
    assert (report.classes, report.learners, report.reviews) == (1, 1, 0)
    assert import_progress(engine, old).learners == 0
    engine.dispose()


def test_a_malformed_file_imports_nothing(database_url):
    engine = make_engine(database_url)
    upgrade(engine)
    with pytest.raises(BackupError, match="not a study progress file"):
        import_progress(engine, {"hello": 1})
    with pytest.raises(BackupError, match="unsupported version 7"):
        import_progress(engine, {"format": "study-progress", "version": 7})
    bad = {
        "format": "study-progress",
        "version": 2,
        "tables": {
            "learners": {"columns": ["id", "name", "created_at"], "rows": [[1, "甲", T0.isoformat()]]},
            "cards": {"columns": ["learner_id", "item_id"], "rows": [[1]]},
        },
    }
    with pytest.raises(BackupError, match="cards, row 1: expected 2 values; nothing was imported"):
        import_progress(engine, bad)
    assert _tables(engine)["learners"] == []  # the transaction rolled back
    with pytest.raises(BackupError, match="unknown table 'secrets'"):
        import_progress(engine, {"format": "study-progress", "version": 2, "tables": {"secrets": {}}})
    engine.dispose()


def test_cli_export_and_import(tmp_path):
    _filled(f"sqlite:///{tmp_path / 'a.sqlite'}").engine.dispose()
    out = tmp_path / "progress.json"
    runner = CliRunner()
    result = runner.invoke(cli, ["export-progress", "-o", str(out), "--database", f"sqlite:///{tmp_path / 'a.sqlite'}"])
    assert result.exit_code == 0, result.output
    assert "2 teachers" in result.output and "3 learners" in result.output and "12 review_logs" in result.output
    assert json.loads(out.read_text("utf-8"))["version"] == 2
    result = runner.invoke(cli, ["import-progress", str(out), "--database", f"sqlite:///{tmp_path / 'b.sqlite'}"])
    assert result.exit_code == 0 and "imported" in result.output and "2 teachers" in result.output
    (tmp_path / "broken.json").write_text("{not json", "utf-8")
    result = runner.invoke(
        cli, ["import-progress", str(tmp_path / "broken.json"), "--database", f"sqlite:///{tmp_path / 'b.sqlite'}"]
    )
    assert result.exit_code == 1 and "cannot read the progress file" in result.output
    result = runner.invoke(cli, ["import-progress", str(out), "--database", f"sqlite:///{tmp_path / 'c.sqlite'}"])
    assert result.exit_code == 0
    result = runner.invoke(cli, ["import-progress", str(out), "--database", f"sqlite:///{tmp_path / 'a.sqlite'}"])
    assert result.exit_code == 0 and ", 0 teachers," in result.output  # its own backup: nothing new


def test_export_of_a_missing_database_is_an_error_and_creates_nothing(tmp_path):
    runner = CliRunner()
    missing = tmp_path / "none.sqlite"
    result = runner.invoke(
        cli, ["export-progress", "-o", str(tmp_path / "p.json"), "--database", f"sqlite:///{missing}"]
    )
    assert result.exit_code == 1 and "study db upgrade" in result.output
    assert not missing.exists()
    result = runner.invoke(cli, ["db", "upgrade", "--database", f"sqlite:///{missing}"])
    assert result.exit_code == 0 and missing.exists()
