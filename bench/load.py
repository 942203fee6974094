"""Load test: 200 learners answer through ``gunicorn -w 4`` on PostgreSQL and on SQLite, then an audit.

For each backend: a fresh database (a new database on the throw-away server of
``scripts/pg-test-server``, started if it is not running and then stopped again; a temporary
SQLite file), ``gunicorn -w 4 'web:create_app()'`` on a free 127.0.0.1 port in production mode
with FSRS fuzzing off, and one client thread per learner with its own keep-alive connection; a
quarter of the learners also answer from a second tab (a second thread and session), so that two
answers to the same card arrive at once. Each tab signs in, then up to ``--answers`` times GETs
/api/next and POSTs /api/answer with a new ``answer_id`` and a plausible answer: a guess (any
option, a shuffled order, a common character), or, for an item another learner was already told
the answer to, that answer three times in five. A request that fails with a connection error or
a 5xx is retried, the answer with the same ``answer_id`` (at most 5 attempts, within the time
limit). There is no think time: the tabs keep every worker busy, so the latencies are mostly the
wait for a free worker (about tabs / requests per second).

Printed per backend: answers/s and requests/s over the answering phase's wall time, p50/p99
latency of next and answer, errors; then the audit of the database against what the clients were
told (:mod:`study.audit`). Exit status 1 when an audit fails.

Usage: python bench/load.py [--learners 200] [--two-tabs 50] [--answers 10] [--workers 4]
                            [--limit 120] [--backend postgresql] [--backend sqlite]
"""

from __future__ import annotations

import argparse
import http.client
import os
import random
import secrets
import statistics
import subprocess
import sys
import tempfile
import threading
import time
import uuid
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import sqlalchemy as sa  # noqa: E402

from bench.jsonclient import JsonClient, find_free_port  # noqa: E402
from study.learn.audit import AuditReport, Key, audit_reviews  # noqa: E402
from study.learn.db import make_engine  # noqa: E402
from study.learn.schedule import make_scheduler  # noqa: E402

PG_ADMIN_URL = os.environ.get("STUDY_TEST_DATABASE_URL") or "postgresql+psycopg://postgres@127.0.0.1:54329/postgres"
ATTEMPTS = 5  # tries of one request (waiting 0.05, 0.1, 0.2, 0.4 s between them)
KINDS = ("vocab", "order", None)
GUESSES = ("礼", "宾", "尸", "shi", "bin", "xiang")
RIGHT = 0.6  # how often a learner gives an answer they were told


@dataclass
class Server:
    port: int
    proc: subprocess.Popen

    def workers(self) -> set[int]:
        """The live worker processes: the gunicorn master's children (read from /proc)."""
        found = set()
        for entry in os.listdir("/proc"):
            if not entry.isdigit():
                continue
            try:
                stat = Path(f"/proc/{entry}/stat").read_text()
            except OSError:
                continue
            state, ppid = stat.rsplit(")", 1)[1].split()[:2]
            if int(ppid) == self.proc.pid and state != "Z":
                found.add(int(entry))
        return found


@contextmanager
def gunicorn(
    database_url: str, *, workers: int, env: dict[str, str] | None = None, args: tuple[str, ...] = ()
) -> Iterator[Server]:
    """``gunicorn -w workers 'web:create_app()'`` on ``database_url`` and a free port, answering
    when it is yielded; stopped (SIGTERM, then SIGKILL) on exit."""
    port = find_free_port()
    cmd = [sys.executable, "-m", "gunicorn", "-w", str(workers), "-b", f"127.0.0.1:{port}"]
    cmd += ["--log-level", "warning", "--backlog", "1024", *args, "web:create_app()"]
    settings = {
        "DATABASE_URL": database_url,
        "STUDY_SECRET_KEY": secrets.token_hex(32),
        "STUDY_ENV": "production",
        "STUDY_FSRS_FUZZING": "0",  # so that the audit can replay the cards
        "STUDY_NEW_PER_DAY": "100000",  # learners never run out of new items mid-run
        "STUDY_RATELIMIT": "0",  # hundreds of learners sign in from one address
    }
    # production never creates or migrates the database itself: `study db upgrade` does, as deployed
    upgrade = [sys.executable, "-m", "study", "db", "upgrade", "--database", database_url]
    subprocess.run(upgrade, cwd=ROOT, check=True, capture_output=True)
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **settings, **(env or {})})
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with status {proc.returncode}: {' '.join(cmd)}")
            conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
            try:
                conn.request("GET", "/api/session")
                if conn.getresponse().status < 500:
                    break
            except (OSError, http.client.HTTPException):
                pass
            finally:
                conn.close()  # every probe, answered or not
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer on port {port} within 60 s")
            time.sleep(0.1)
        yield Server(port, proc)
    finally:
        proc.terminate()
        try:
            proc.wait(15)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


@dataclass
class Ledger:
    """What the clients sent and were told, shared by all client threads."""

    acknowledged: dict[Key, object] = field(default_factory=dict)  # HTTP 200 bodies
    unsure: set[Key] = field(default_factory=set)  # sent, outcome never learnt
    rejected: set[Key] = field(default_factory=set)  # refused with a 4xx
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: Counter[str] = field(default_factory=Counter)
    retried: dict[Key, datetime] = field(default_factory=dict)  # answers sent again: when, the last time
    dropped: int = 0  # requests that failed with a connection error
    knowledge: dict[str, object] = field(default_factory=dict)  # item id -> the answer learners were told
    lock: threading.Lock = field(default_factory=threading.Lock)

    def record(self, endpoint: str, status: int | str, seconds: float | None) -> None:
        with self.lock:
            if seconds is not None:
                self.latencies.setdefault(endpoint, []).append(seconds)
            if not isinstance(status, int) or status >= 400:
                self.errors[f"{endpoint} {status}"] += 1

    def requests(self) -> int:
        """Requests answered while learners answered (sign-ins not included)."""
        return len(self.latencies.get("next", ())) + len(self.latencies.get("answer", ()))

    def percentile(self, endpoint: str, q: int) -> float:
        values = self.latencies.get(endpoint, [])
        if len(values) < 2:
            return values[0] if values else 0.0
        return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


class Learner(JsonClient):
    """One learner's browser as the API sees it: a session cookie, a CSRF token, one connection."""

    def __init__(self, port: int, name: str, ledger: Ledger, rng: random.Random, deadline: float) -> None:
        super().__init__(port, timeout=15)
        self.port, self.name, self.ledger, self.rng, self.deadline = port, name, ledger, rng, deadline
        self.sent_at = datetime.now(UTC)  # when the last request went out

    def _attempt(self, method: str, path: str, body: object) -> tuple[int, object, float]:
        self.sent_at = datetime.now(UTC)
        return self.request(method, path, body)

    def call(self, endpoint: str, method: str, path: str, body: object = None) -> tuple[int | None, object, bool]:
        """The request, retried after a connection error or a 5xx: (status or None when every
        attempt failed, body, whether some attempt's outcome is unknown)."""
        unknown = False
        for attempt in range(ATTEMPTS):
            if attempt and time.monotonic() > self.deadline:
                break
            try:
                status, data, seconds = self._attempt(method, path, body)
            except (OSError, http.client.HTTPException) as e:
                self.ledger.record(endpoint, type(e).__name__, None)
                with self.ledger.lock:
                    self.ledger.dropped += 1
                self.conn.close()  # the next request opens a new connection
                unknown = True
            else:
                self.ledger.record(endpoint, status, seconds)
                if status < 500:
                    return status, data, unknown
                unknown = True
            if attempt + 1 < ATTEMPTS:
                time.sleep(0.05 * 2**attempt)
        return None, None, unknown

    def sign_in(self) -> None:
        status, body, _ = self.call("session", "GET", "/api/session")
        if status != 200 or not isinstance(body, dict):
            raise RuntimeError(f"{self.name}: GET /api/session gave {status}")
        self.csrf = body["csrf_token"]
        credentials = {"name": self.name, "password": f"{self.name}-password"}
        status, body, _ = self.call("session", "POST", "/api/session", credentials)
        if status != 200 or not isinstance(body, dict):
            raise RuntimeError(f"{self.name}: sign-in gave {status} {body}")
        self.csrf = body["csrf_token"]  # a new session at sign-in, with a new token

    def step(self, i: int) -> bool:
        """GET /api/next, then answer it; False when there is nothing left to do."""
        kind = KINDS[i % len(KINDS)]
        for _ in range(10):
            status, body, _ = self.call("next", "GET", "/api/next" + (f"?kind={kind}" if kind else ""))
            if status != 200 or not isinstance(body, dict) or body.get("item") is None:
                return False  # nothing left to study, or failed (counted in the ledger)
            item = body["item"]
            if item["kind"] != "intro":
                break
            # an introduction: read it, then its question comes
            status, _, _ = self.call("intro", "POST", "/api/intro", {"token": item["token"]})
            if status != 200:
                return False
        else:
            return False
        key = (self.name, uuid.uuid4().hex)
        answer = {"item_id": item["id"], "answer": self.plausible(item), "answer_id": key[1], "token": item["token"]}
        status, result, unknown = self.call("answer", "POST", "/api/answer", answer)
        with self.ledger.lock:
            if unknown:
                self.ledger.retried[key] = self.sent_at
            if status == 200:
                self.ledger.acknowledged[key] = result
                if isinstance(result, dict):
                    self.ledger.knowledge[item["id"]] = result.get("expected")
            elif unknown:
                self.ledger.unsure.add(key)
            else:
                self.ledger.rejected.add(key)
        return True

    def plausible(self, item: dict) -> object:
        told = self.ledger.knowledge.get(item["id"])
        if told is not None and self.rng.random() < RIGHT:
            right = right_answer(item, told)
            if right is not None:
                return right
        if item["kind"] == "choice":
            return self.rng.choice(item["options"])
        if item["kind"] == "order":
            order = list(range(len(item["items"])))
            self.rng.shuffle(order)
            return order
        return self.rng.choice(GUESSES)

    def close(self) -> None:
        self.conn.close()


def right_answer(item: dict, expected: object) -> object:
    """The answer to ``item`` given what the server said was expected (None if it does not fit)."""
    if item["kind"] == "order":
        if not isinstance(expected, list):
            return None
        free = list(range(len(item["items"])))
        order = []
        for text in expected:  # the indices of the items in the right order; equal texts in turn
            index = next((i for i in free if item["items"][i] == text), None)
            if index is None:
                return None
            free.remove(index)
            order.append(index)
        return order
    if item["kind"] == "choice" and expected not in item["options"]:
        return None
    return expected if isinstance(expected, str) else None


@dataclass
class Run:
    ledger: Ledger
    tabs: int
    seconds: float  # wall time of the answering phase


def run_learners(
    port: int,
    names: list[str],
    *,
    answers: int,
    limit: float,
    stop: threading.Event | None = None,
    ledger: Ledger | None = None,
    seed: int = 1,
) -> Run:
    """Every learner signs in, then all answer at once, each at most ``answers`` times, until
    ``limit`` seconds have passed or ``stop`` is set. A name given twice is a learner with two
    tabs: two clients with their own sessions. ``ledger`` (a new one by default) fills as they go."""
    ledger = ledger if ledger is not None else Ledger()
    deadline = time.monotonic() + limit
    barrier = threading.Barrier(len(names) + 1)
    failures: list[BaseException] = []
    stop = stop or threading.Event()

    def work(k: int, name: str) -> None:
        learner = Learner(port, name, ledger, random.Random(seed * 100_003 + k), deadline)
        try:
            try:
                learner.sign_in()
            finally:
                barrier.wait(limit)
            for i in range(answers):
                if stop.is_set() or time.monotonic() > deadline or not learner.step(i):
                    break
        except BaseException as e:  # reported below, once every thread has stopped
            failures.append(e)
        finally:
            learner.close()

    threads = [threading.Thread(target=work, args=(k, n), daemon=True) for k, n in enumerate(names)]
    for t in threads:
        t.start()
    barrier.wait(limit)
    start = time.perf_counter()
    for t in threads:
        t.join(max(deadline - time.monotonic(), 0) + 20)
    seconds = time.perf_counter() - start
    if failures:
        raise RuntimeError(f"{len(failures)} learner(s) failed: {failures[0]!r}")
    if any(t.is_alive() for t in threads):
        raise RuntimeError("learners still running after the time limit")
    return Run(ledger, len(names), seconds)


def audit(database_url: str, run: Run) -> AuditReport:
    """The audit of the database against ``run``'s ledger, with the app's scheduler settings."""
    engine = make_engine(database_url)
    try:
        ledger = run.ledger
        scheduler = make_scheduler(0.9, fuzzing=False)
        return audit_reviews(engine, scheduler, ledger.acknowledged, unsure=ledger.unsure, rejected=ledger.rejected)
    finally:
        engine.dispose()


def _admin(sql: str) -> None:
    engine = sa.create_engine(PG_ADMIN_URL, isolation_level="AUTOCOMMIT", poolclass=sa.pool.NullPool)
    try:
        with engine.connect() as conn:
            conn.exec_driver_sql(sql)
    finally:
        engine.dispose()


@contextmanager
def postgresql_server() -> Iterator[None]:
    """The pg-test-server running; started (and stopped afterwards) if it was not."""
    try:
        _admin("SELECT 1")
        started = False
    except sa.exc.OperationalError:
        subprocess.run([ROOT / "scripts" / "pg-test-server", "start"], check=True, capture_output=True)
        started = True
    try:
        yield
    finally:
        if started:
            subprocess.run([ROOT / "scripts" / "pg-test-server", "stop"], check=True)


@contextmanager
def database(backend: str) -> Iterator[str]:
    """A fresh, empty database's URL: a new PostgreSQL database or a temporary SQLite file."""
    if backend == "sqlite":
        with tempfile.TemporaryDirectory(prefix="bench-load-") as tmp:
            yield f"sqlite:///{Path(tmp) / 'load.sqlite'}"
        return
    name = f"load_{uuid.uuid4().hex[:12]}"
    with postgresql_server():
        _admin(f'CREATE DATABASE "{name}"')
        try:
            yield sa.engine.make_url(PG_ADMIN_URL).set(database=name).render_as_string(hide_password=False)
        finally:
            _admin(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


def figures(backend: str, run: Run, learners: int, workers: int) -> str:
    ledger = run.ledger

    def ms(endpoint: str) -> str:
        p50, p99 = ledger.percentile(endpoint, 50), ledger.percentile(endpoint, 99)
        return f"{endpoint} p50 {p50 * 1000:6.1f} ms, p99 {p99 * 1000:6.1f} ms"

    answered = len(ledger.acknowledged)
    right = sum(1 for r in ledger.acknowledged.values() if isinstance(r, dict) and r.get("correct"))
    lines = [
        f"{backend}: {learners} learners in {run.tabs} tabs, gunicorn -w {workers}: {answered} answers "
        f"({right / max(answered, 1):.0%} right) in {run.seconds:.1f} s",
        f"  {answered / run.seconds:7.1f} answers/s, {ledger.requests() / run.seconds:7.1f} requests/s "
        f"(a worker spends {workers * run.seconds / max(ledger.requests(), 1) * 1000:.1f} ms on a request)",
        f"  {ms('next')}; {ms('answer')}",
        f"  errors: {dict(ledger.errors) or 'none'}; answers retried: {len(ledger.retried)}",
    ]
    return "\n".join(lines)


def main() -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--learners", type=int, default=200)
    ap.add_argument("--two-tabs", type=int, default=50, help="learners who also answer from a second tab")
    ap.add_argument("--answers", type=int, default=10, help="answers per learner")
    ap.add_argument("--workers", type=int, default=4)
    ap.add_argument("--limit", type=float, default=120.0, help="seconds the answering may take at most")
    ap.add_argument("--backend", action="append", choices=("postgresql", "sqlite"))
    args = ap.parse_args()
    names = [f"load-{k:03d}" for k in range(args.learners)]
    names += names[: args.two_tabs]
    ok = True
    for backend in args.backend or ("postgresql", "sqlite"):
        with database(backend) as url:
            with gunicorn(url, workers=args.workers) as server:
                run = run_learners(server.port, names, answers=args.answers, limit=args.limit)
            print(figures(backend, run, args.learners, args.workers))
            report = audit(url, run)
            print(f"  {report.summary()}", flush=True)
            ok = ok and report.ok
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
