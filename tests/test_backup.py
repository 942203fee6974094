from __future__ import annotations

import json
from datetime import UTC, datetime, timedelta

import pytest
from click.testing import CliRunner

from study.cli import cli
from study.learn.backup import BackupError, export_progress, import_progress
from study.learn.db import make_engine, upgrade
from study.learn.grading import RatingName
from study.learn.schedule import ReviewStore, make_scheduler

T0 = datetime(2026, 3, 1, 8, tzinfo=UTC)


def _filled(url: str) -> ReviewStore:
    engine = make_engine(url)
    upgrade(engine)
    store = ReviewStore(engine, make_scheduler(fuzzing=False))
    for n, name in enumerate(("甲", "乙", "丙")):
        learner = store.sign_in(name, None, T0)
        for k in range(4):
            at = T0 + timedelta(minutes=10 * k + n)
            rating = (RatingName.GOOD, RatingName.AGAIN, RatingName.EASY, RatingName.HARD)[k]
            store.record(learner.id, f"item{k % 3}", rating, score=k / 3, correct=k != 1, answer=[k, "乗"], now=at)
    return store


def _comparable(data: dict) -> dict:
    return json.loads(json.dumps(data, sort_keys=True))


def test_export_import_round_trip_between_databases(tmp_path, database_url):
    source = _filled(f"sqlite:///{tmp_path / 'source.sqlite'}")
    exported = export_progress(source.engine)
    assert len(exported["learners"]) == 3 and len(exported["cards"]) == 9 and len(exported["reviews"]) == 12
    target_engine = make_engine(database_url)  # SQLite, or PostgreSQL when STUDY_TEST_DATABASE_URL is set
    upgrade(target_engine)
    report = import_progress(target_engine, exported)
    assert (report.learners, report.cards, report.reviews) == (3, 9, 12)
    assert _comparable(export_progress(target_engine)) == _comparable(exported)
    again = import_progress(target_engine, exported)  # idempotent: nothing twice
    assert (again.learners, again.cards, again.reviews) == (0, 0, 0)
    back = make_engine(f"sqlite:///{tmp_path / 'back.sqlite'}")
    upgrade(back)
    import_progress(back, export_progress(target_engine))
    assert _comparable(export_progress(back)) == _comparable(exported)
    for engine in (source.engine, target_engine, back):
        engine.dispose()


def test_a_malformed_file_imports_nothing(database_url):
    engine = make_engine(database_url)
    upgrade(engine)
    with pytest.raises(BackupError, match="not a study progress file"):
        import_progress(engine, {"hello": 1})
    bad = {
        "format": "study-progress",
        "version": 1,
        "learners": [{"name": "甲", "created_at": T0.isoformat()}],
        "cards": [{"learner": "nobody"}],
    }
    with pytest.raises(BackupError, match="nothing was imported"):
        import_progress(engine, bad)
    assert export_progress(engine)["learners"] == []  # the transaction rolled back
    engine.dispose()


def test_cli_export_and_import(tmp_path):
    _filled(f"sqlite:///{tmp_path / 'a.sqlite'}").engine.dispose()
    out = tmp_path / "progress.json"
    runner = CliRunner()
    result = runner.invoke(cli, ["export-progress", "-o", str(out), "--database", f"sqlite:///{tmp_path / 'a.sqlite'}"])
    assert result.exit_code == 0, result.output
    assert "3 learners, 9 cards, 12 reviews" in result.output
    result = runner.invoke(cli, ["import-progress", str(out), "--database", f"sqlite:///{tmp_path / 'b.sqlite'}"])
    assert result.exit_code == 0 and "imported 3 learners, 9 cards, 12 reviews" in result.output
    (tmp_path / "broken.json").write_text("{not json", "utf-8")
    result = runner.invoke(
        cli, ["import-progress", str(tmp_path / "broken.json"), "--database", f"sqlite:///{tmp_path / 'b.sqlite'}"]
    )
    assert result.exit_code == 1 and "cannot read the progress file" in result.output
