"""The queue of writers of a SQLite file (study.learn.writers): an answer waits for the turn of
the writer before it, and never longer than the queue's timeout."""

from __future__ import annotations

import fcntl
import os
import threading
import time

from study.learn.writers import SUFFIX, WriteQueue


def _other_writer(database):  # another open file: as another process holds the lock
    return os.open(database.with_name(database.name + SUFFIX), os.O_RDWR | os.O_CREAT, 0o600)


def test_a_turn_excludes_other_writers_and_waits_for_the_one_before(tmp_path):
    database = tmp_path / "study.sqlite"
    queue = WriteQueue(database, timeout=5)
    other = _other_writer(database)
    with queue.turn():
        try:
            fcntl.flock(other, fcntl.LOCK_EX | fcntl.LOCK_NB)
            raise AssertionError("another writer got the lock during a turn")
        except BlockingIOError:
            pass
    fcntl.flock(other, fcntl.LOCK_EX)  # free again after the turn
    threading.Timer(0.2, fcntl.flock, (other, fcntl.LOCK_UN)).start()
    start = time.monotonic()
    with queue.turn():  # waits until the other writer is done
        assert time.monotonic() - start >= 0.15
    os.close(other)


def test_a_writer_held_up_past_the_timeout_goes_on_to_sqlites_own_wait(tmp_path):
    database = tmp_path / "study.sqlite"
    other = _other_writer(database)
    fcntl.flock(other, fcntl.LOCK_EX)  # never released while the queue waits
    start = time.monotonic()
    with WriteQueue(database, timeout=0.2).turn():
        assert 0.2 <= time.monotonic() - start < 5
    os.close(other)


def test_other_databases_have_no_queue():
    queue = WriteQueue(None)
    assert queue.path is None
    with queue.turn():
        pass


def test_without_fcntl_the_module_imports_and_a_turn_takes_the_thread_lock_only(tmp_path, monkeypatch):
    import importlib
    import sys

    import study.learn.writers as writers

    monkeypatch.setitem(sys.modules, "fcntl", None)  # as on a platform without it (import fails)
    try:
        bare = importlib.reload(writers)
        assert bare.fcntl is None
        queue = bare.WriteQueue(tmp_path / "study.sqlite", timeout=1)
        with queue.turn():
            assert not queue._threads.acquire(blocking=False)  # this process's other threads wait
        assert not (tmp_path / ("study.sqlite" + bare.SUFFIX)).exists()
    finally:
        monkeypatch.undo()
        importlib.reload(writers)
