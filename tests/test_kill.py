"""Faults that kill processes: a gunicorn worker dies mid-request, a deck build dies mid-write.

Nothing a client was told is lost or counted twice, and nothing half-written is left behind.
"""

from __future__ import annotations

import os
import random
import re
import signal
import sqlite3
import subprocess
import sys
import threading
import time
import zipfile
from collections.abc import Callable
from datetime import datetime
from pathlib import Path
from typing import TypeVar

import sqlalchemy as sa
from anki.collection import Collection, ImportAnkiPackageRequest

from bench.load import Ledger, Run, audit, gunicorn, run_learners
from study.learn.audit import Key
from study.learn.db import make_engine, review_logs
from tests.conftest import ROOT

T = TypeVar("T")
LEARNERS = [f"kill-{k:02d}" for k in range(10)] * 2  # ten learners, each answering from two tabs
# gunicorn server hooks: each worker writes down the request it is handling ("" between requests)
HOOKS = """
import os

def _doing(worker, what):
    with open(os.path.join({folder!r}, str(worker.pid)), "w") as f:
        f.write(what)

def pre_request(worker, req):
    _doing(worker, req.method + " " + req.path)

def post_request(worker, req, environ, resp):
    _doing(worker, "")
"""
KILLS = 4  # workers killed while they handle an answer
MAX_KILLS = 16  # … and more, until at least one kill has cut an answer off (timing is chance)


def _wait(condition: Callable[[], T], limit: float, *, step: float = 0.02) -> T | None:
    """The first true value of ``condition()`` within ``limit`` seconds, else None."""
    deadline = time.monotonic() + limit
    while not (value := condition()):
        if time.monotonic() > deadline:
            return None
        time.sleep(step)
    return value


def _committed_before_retry(database_url: str, retried: dict[Key, datetime]) -> int:
    """How many retried answers the killed worker had committed: those logged before the retry
    went out (the others it had not reached, or rolled back when it died; the retry counted them)."""
    engine = make_engine(database_url)
    try:
        with engine.connect() as conn:
            logged = dict(
                conn.execute(
                    sa.select(review_logs.c.answer_id, review_logs.c.reviewed_at).where(
                        review_logs.c.answer_id.in_([answer_id for _, answer_id in retried])
                    )
                ).all()
            )
    finally:
        engine.dispose()
    return sum(1 for (_, answer_id), sent in retried.items() if logged[answer_id] < sent)


def test_killed_workers_lose_no_acknowledged_answer_and_count_none_twice(database_url, tmp_path):
    doing = tmp_path / "doing"
    doing.mkdir()
    hooks = tmp_path / "hooks.py"
    hooks.write_text(HOOKS.format(folder=str(doing)))
    ledger = Ledger()
    stop = threading.Event()
    runs: list[Run | BaseException] = []
    killed: list[int] = []
    rng = random.Random(8)

    def learners() -> None:
        try:
            runs.append(run_learners(port, LEARNERS, answers=200, limit=50, stop=stop, ledger=ledger))
        except BaseException as e:  # asserted on below
            runs.append(e)

    def answering() -> list[int]:
        """The workers handling an answer now."""
        found = []
        for pid in server.workers():
            try:
                if (doing / str(pid)).read_text() == "POST /api/answer":
                    found.append(pid)
            except FileNotFoundError:
                continue
        return found

    def serving(more: int) -> bool:
        """Two workers have handled requests (the last victim's replacement too), and ``more``
        answers got through since."""
        if not _wait(lambda: len(w := server.workers()) == 2 and all((doing / str(p)).exists() for p in w), 30):
            return False
        done = len(ledger.acknowledged)
        return bool(_wait(lambda: len(ledger.acknowledged) >= done + more, 20))

    with gunicorn(database_url, workers=2, args=("-c", str(hooks))) as server:
        port = server.port
        thread = threading.Thread(target=learners)
        thread.start()
        try:
            # Kill a worker while it handles an answer (at some point in the next few ms: reading,
            # grading, in the transaction, after it), each time once the last victim's replacement
            # serves, so that one worker always answers and the retries get through.
            n = 0
            while n < KILLS or (not ledger.retried and n < MAX_KILLS):
                n += 1
                assert serving(10), f"answers stopped before kill {n}"
                victims = _wait(answering, 10, step=0.0005)
                assert victims, "no worker was handling an answer"
                time.sleep(rng.uniform(0, 0.004))
                os.kill(victims[0], signal.SIGKILL)
                killed.append(victims[0])
            assert serving(30), "answers did not resume after the last kill"
            workers = server.workers()
        finally:
            stop.set()
            thread.join(60)
    assert not thread.is_alive()
    [run] = runs
    assert isinstance(run, Run), run
    assert not set(killed) & workers and len(workers) == 2  # gunicorn replaced the killed workers
    assert ledger.retried, f"no kill cut off an answer ({len(killed)} kills)"
    # every answer was eventually acknowledged: retries with the same answer_id got through
    assert not ledger.unsure and not ledger.rejected
    report = audit(database_url, run)
    committed = _committed_before_retry(database_url, ledger.retried)
    print(
        f"\n{database_url.split(':')[0]}: {len(killed)} workers killed, {ledger.dropped} requests cut off, "
        f"{len(ledger.retried)} answers retried ({committed} committed by the killed worker, "
        f"{len(ledger.retried) - committed} counted by the retry); {report.summary()}"
    )
    assert report.ok, report.summary()
    assert report.acknowledged == report.logs > 0


# --- an interrupted deck build ------------------------------------------------------------


def _build(out: Path) -> subprocess.Popen:
    cmd = [sys.executable, "-m", "study", "build", str(ROOT / "decks" / "xiangshe.yaml"), "-o", str(out)]
    return subprocess.Popen(cmd, cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)


def _temps(folder: Path) -> list[str]:
    return sorted(p.name for p in folder.iterdir() if p.name.endswith(".part"))


def _kill_while_writing(out: Path) -> bool:
    """Build ``out`` and SIGKILL the build as soon as its temporary file appears; False if the
    build finished first."""
    earlier = set(_temps(out.parent))  # left by builds killed before
    proc = _build(out)
    deadline = time.monotonic() + 30
    try:
        while proc.poll() is None and time.monotonic() < deadline:
            if set(_temps(out.parent)) - earlier:
                proc.kill()
                proc.wait()
                return True
            time.sleep(0.0005)
        return False
    finally:
        proc.kill()
        proc.communicate()


def _kill_after(out: Path, delay: float) -> None:
    proc = _build(out)
    try:
        proc.wait(delay)
    except subprocess.TimeoutExpired:
        proc.kill()
    proc.communicate()


def _assert_complete(apkg: Path, tmp: Path) -> None:
    """A whole package: every zip member intact, the collection a sound SQLite file with notes."""
    with zipfile.ZipFile(apkg) as z:
        assert z.testzip() is None
        assert z.namelist() == ["collection.anki2", "media"]
        collection = tmp / "check.anki2"
        collection.write_bytes(z.read("collection.anki2"))
    with sqlite3.connect(collection) as db:
        assert db.execute("PRAGMA integrity_check").fetchone() == ("ok",)
        assert db.execute("SELECT count(*) FROM notes").fetchone()[0] > 0
    collection.unlink()


def _two_killed_first_writes(tmp_path: Path) -> tuple[Path, Path]:
    """A folder where two builds were killed while writing the first package. On a loaded
    machine a build may finish before its temporary file is seen: then it is tried again in a
    new folder (a finished build sweeps the killed ones' files), at most five times."""
    for attempt in range(5):
        folder = tmp_path / f"out{attempt}"
        folder.mkdir()
        out = folder / "x.apkg"
        if _kill_while_writing(out) and _kill_while_writing(out):
            return folder, out
    raise AssertionError("five times a build finished before its temporary file was seen")


def _kill_while_rewriting(out: Path) -> bytes:
    """Kill a build while it rewrites ``out``; the bytes ``out`` held before (tried again, at most
    five times, when the build finished first)."""
    for _ in range(5):
        before = out.read_bytes()
        if _kill_while_writing(out):
            return before
    raise AssertionError("five times a build finished before its temporary file was seen")


def test_a_killed_build_leaves_no_partial_package(tmp_path):
    # killed while writing the first package: no package, only the killed writers' temporary files
    folder, out = _two_killed_first_writes(tmp_path)
    assert not out.exists()
    assert len(_temps(folder)) == 2

    # a later build completes and removes what the killed ones left
    proc = _build(out)
    stdout, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 0, stderr
    notes = int(re.search(r"(\d+) notes", stdout).group(1))
    _assert_complete(out, tmp_path)
    assert _temps(folder) == []

    # killed while rewriting it: the old package stays, byte for byte
    before = _kill_while_rewriting(out)
    assert out.read_bytes() == before and len(_temps(folder)) == 1
    # killed at any other moment: a whole package (old or new) is there
    for delay in (0.3, 0.8, 1.3):
        _kill_after(out, delay)
        _assert_complete(out, tmp_path)

    proc = _build(out)
    _, stderr = proc.communicate(timeout=60)
    assert proc.returncode == 0, stderr
    assert _temps(folder) == [] and os.listdir(folder) == ["x.apkg"]
    col = Collection(str(tmp_path / "collection.anki2"))
    try:
        col.import_anki_package(ImportAnkiPackageRequest(package_path=str(out)))
        assert col.note_count() == notes
    finally:
        col.close()
