"""Load the web quiz under gunicorn and compare it with a trivial Flask route (figures only).

Both apps run as ``gunicorn -w 2`` on free 127.0.0.1 ports, the quiz on a temporary SQLite file
whose learners already hold a review history (``--history`` cards each). 32 client threads
(http.client, one learner each) sign in through the API, then:

1. ``hello``: the trivial route, for the baseline throughput;
2. ``loop``: GET /api/next then POST /api/answer with a plausible answer, over and over;
3. ``next`` and ``answer`` alone: each endpoint's own throughput (each answer goes to a question
   token the learner was shown in the ``next`` phase, once: graded and recorded as a new answer).

Every learner has read the introductions (so /api/next gives questions) and signs in with a
password; rate limits are off (32 learners sign in from one address).

Throughput is requests per second of wall time over a fixed number of requests; the quiz's is
given as a ratio to the trivial route's (aims: ≥ 0.5 for next, ≥ 0.35 for answer), with p50/p99
latencies (aim: p99 < 50 ms). Client and servers share the machine, so compare ratios, not
absolute figures, across machines; and since the machine's other load changes from minute to
minute, the trivial, next and answer phases run ``--rounds`` times back to back and each ratio is
the median of the rounds' (each against the trivial route measured just before it). The
workers' own CPU time per request (from /proc, the gunicorn workers of each app) is printed too:
what a request costs the server, apart from the clients that share the machine.

Usage: python bench/web.py [--clients 32] [--requests 40] [--history 300] [--workers 2] [--rounds 3]
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
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from datetime import timedelta
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from bench.jsonclient import JsonClient, find_free_port  # noqa: E402
from study.learn.db import now  # noqa: E402
from study.learn.grading import RatingName  # noqa: E402

KINDS = ("vocab", "order", None)
GUESSES = ("礼", "宾", "尸", "shi", "bin", "xiang")


def workers_cpu(master: int) -> float:
    """CPU seconds (user and system) spent so far by the gunicorn master's worker processes."""
    total = 0.0
    try:
        children = Path(f"/proc/{master}/task/{master}/children").read_text().split()
    except OSError:
        return 0.0
    for pid in children:
        try:
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
        except OSError:
            continue  # a worker that just exited
        total += (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return total


@contextmanager
def gunicorn(target: str, env: dict[str, str], workers: int, ready_path: str) -> Iterator[tuple[int, int]]:
    """``gunicorn -w workers target`` on a free port (port and master pid); stopped (SIGTERM,
    then SIGKILL) on exit."""
    port = find_free_port()
    cmd = [sys.executable, "-m", "gunicorn", "-w", str(workers), "-b", f"127.0.0.1:{port}"]
    cmd += ["--log-level", "warning", "--backlog", "512", target]
    proc = subprocess.Popen(cmd, cwd=ROOT, env={**os.environ, **env})
    try:
        deadline = time.monotonic() + 60
        while True:
            if proc.poll() is not None:
                raise RuntimeError(f"gunicorn exited with status {proc.returncode}: {' '.join(cmd)}")
            try:
                conn = http.client.HTTPConnection("127.0.0.1", port, timeout=2)
                conn.request("GET", ready_path)
                if conn.getresponse().status < 500:
                    conn.close()
                    break
            except OSError:
                pass
            if time.monotonic() > deadline:
                raise RuntimeError(f"gunicorn did not answer on port {port} within 60 s")
            time.sleep(0.1)
        yield port, proc.pid
    finally:
        proc.terminate()
        try:
            proc.wait(10)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait()


def seed(database_url: str, clients: int, history: int, rng: random.Random) -> list[str]:
    """Create the learners, each with ``history`` cards reviewed over the last 30 days: the first
    learner's through the review store, copied in SQL to the others (same history, much faster)."""
    from web import create_app

    app = create_app({"TESTING": True, "SECRET_KEY": "seed", "DATABASE_URL": database_url, "FSRS_FUZZING": False})
    state = app.extensions["study"]
    names = [f"bench-{k:02d}" for k in range(clients)]
    moment = now()
    ids = [state.store.sign_in(name, None, moment).id for name in names]
    for fact in sorted(set(state.catalog.facts.values())):  # every introduction read
        state.store.introduce(ids[0], fact, moment - timedelta(days=31))
    ratings = list(RatingName)
    for item in rng.sample(state.catalog.items, min(history, len(state.catalog.items))):
        rating = rng.choice(ratings)
        good = rating in (RatingName.GOOD, RatingName.EASY)
        when = moment - timedelta(days=rng.uniform(1, 30))
        state.store.record(
            ids[0], item.id, rating, score=float(good), correct=good, answer="", now=when, duration_ms=5000
        )
    with state.store.engine.begin() as conn:
        for learner_id in ids[1:]:
            for table, columns in (
                ("intros", "fact, seen_at"),
                ("cards", "item_id, card_json, due, reps, created_at, last_review"),
                ("review_logs", "item_id, rating, score, correct, reviewed_at, duration_ms, answer_json"),
            ):
                conn.exec_driver_sql(
                    f"INSERT INTO {table} (learner_id, {columns}) SELECT ?, {columns} FROM {table} WHERE learner_id = ?",
                    (learner_id, ids[0]),
                )
    state.store.engine.dispose()
    return names


class Client(JsonClient):
    """A learner with a keep-alive connection and the questions it was shown."""

    def __init__(self, port: int) -> None:
        super().__init__(port)
        self.shown: list[dict] = []  # questions this learner was shown, newest last
        self.refused: dict[int, str] = {}  # an example response of each error status to an answer

    def call(self, method: str, path: str, body: object = None) -> tuple[int, object, float]:
        return self.request(method, path, body)

    def sign_in(self, name: str) -> None:
        status, body, _ = self.call("GET", "/api/session")
        assert status == 200 and isinstance(body, dict), (status, body)
        self.csrf = body["csrf_token"]
        status, body, _ = self.call("POST", "/api/session", {"name": name, "password": f"{name}-password"})
        assert status == 200 and isinstance(body, dict), (status, body)
        self.csrf = body["csrf_token"]


def plausible(item: dict, rng: random.Random) -> object:
    """An answer a learner might give: any option, any order, a short guess."""
    if item["kind"] == "choice":
        return rng.choice(item["options"])
    if item["kind"] == "order":
        order = list(range(len(item["items"])))
        rng.shuffle(order)
        return order
    return rng.choice(GUESSES)


@dataclass
class Phase:
    name: str
    seconds: float = 0.0
    cpu: float = 0.0  # the server's workers' CPU seconds during the phase
    latencies: dict[str, list[float]] = field(default_factory=dict)
    errors: dict[str, int] = field(default_factory=dict)

    def add(self, endpoint: str, status: int, seconds: float) -> None:
        self.latencies.setdefault(endpoint, []).append(seconds)
        if status >= 400:
            self.errors[f"{endpoint} {status}"] = self.errors.get(f"{endpoint} {status}", 0) + 1

    def rate(self, endpoint: str) -> float:
        return len(self.latencies.get(endpoint, [])) / self.seconds if self.seconds else 0.0

    def percentile(self, endpoint: str, q: int) -> float:
        values = self.latencies.get(endpoint, [])
        if len(values) < 2:
            return values[0] if values else 0.0
        return statistics.quantiles(values, n=100, method="inclusive")[q - 1]


def run(name: str, clients: list[Client], requests: int, step: Callable, *, limit: float, master: int = 0) -> Phase:
    """Every client does ``step`` ``requests`` times, all at once; the phase's wall time (and the
    CPU time of the workers of the gunicorn ``master``)."""
    phase = Phase(name)
    lock = threading.Lock()
    barrier = threading.Barrier(len(clients) + 1)
    deadline = time.monotonic() + limit
    failures: list[BaseException] = []

    def work(k: int, client: Client) -> None:
        rng = random.Random(k)
        barrier.wait()
        try:
            for i in range(requests):
                if time.monotonic() > deadline:
                    raise TimeoutError(f"phase {name} ran over {limit:.0f} s")
                for endpoint, status, seconds in step(client, rng, i):
                    with lock:
                        phase.add(endpoint, status, seconds)
        except BaseException as e:  # reported below, after every thread has stopped
            failures.append(e)

    threads = [threading.Thread(target=work, args=(k, c), daemon=True) for k, c in enumerate(clients)]
    for t in threads:
        t.start()
    cpu = workers_cpu(master) if master else 0.0
    barrier.wait()
    start = time.perf_counter()
    for t in threads:
        t.join(limit + 15)
    phase.seconds = time.perf_counter() - start
    phase.cpu = (workers_cpu(master) - cpu) if master else 0.0
    if failures:
        raise RuntimeError(f"{len(failures)} client(s) failed in phase {name}: {failures[0]!r}")
    return phase


def next_path(i: int) -> str:
    kind = KINDS[i % len(KINDS)]
    return "/api/next" + (f"?kind={kind}" if kind else "")


def step_hello(client: Client, rng: random.Random, i: int) -> list[tuple[str, int, float]]:
    status, _, seconds = client.call("GET", "/hello")
    return [("hello", status, seconds)]


def step_next(client: Client, rng: random.Random, i: int) -> list[tuple[str, int, float]]:
    status, body, seconds = client.call("GET", next_path(i))
    if status == 200 and isinstance(body, dict) and body["item"] is not None:
        client.shown.append(body["item"])
    return [("next", status, seconds)]


def step_answer(client: Client, rng: random.Random, i: int) -> list[tuple[str, int, float]]:
    item = client.shown.pop()  # each question token is answered once
    body = {
        "item_id": item["id"],
        "answer": plausible(item, rng),
        "token": item["token"],
        "answer_id": secrets.token_hex(8),
    }
    status, answer, seconds = client.call("POST", "/api/answer", body)
    if status >= 400:  # the first refusal of each status, printed with the counts
        client.refused.setdefault(status, f"{answer!r:.200} (answering {item['id']}, kind {item['kind']})")
    return [("answer", status, seconds)]


def step_loop(client: Client, rng: random.Random, i: int) -> list[tuple[str, int, float]]:
    out = step_next(client, rng, i)
    if out[0][1] == 200 and client.shown:
        out += step_answer(client, rng, 0)
    return out


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--clients", type=int, default=32)
    ap.add_argument("--requests", type=int, default=40, help="requests per client and phase")
    ap.add_argument("--history", type=int, default=300, help="reviewed cards each learner starts with")
    ap.add_argument("--workers", type=int, default=2)
    ap.add_argument("--limit", type=float, default=120.0, help="seconds a phase may take at most")
    ap.add_argument("--rounds", type=int, default=3, help="rounds of trivial, next, answer (median ratio)")
    args = ap.parse_args()
    rng = random.Random(1)

    with tempfile.TemporaryDirectory(prefix="bench-web-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite'}"
        t0 = time.perf_counter()
        names = seed(url, args.clients, args.history, rng)
        print(f"seeded {len(names)} learners x {args.history} cards in {time.perf_counter() - t0:.1f} s")
        env = {
            "DATABASE_URL": url,
            "STUDY_SECRET_KEY": secrets.token_hex(16),
            "STUDY_NEW_PER_DAY": "100000",  # learners never run out of new items mid-run
            "STUDY_RATELIMIT": "0",  # 32 learners sign in from one address
        }
        phases: dict[str, Phase] = {}
        rounds: list[dict[str, Phase]] = []
        with (
            gunicorn("bench.trivial_app:create_app()", {}, args.workers, "/hello") as (trivial_port, trivial_pid),
            gunicorn("web:create_app()", env, args.workers, "/api/session") as (quiz_port, quiz_pid),
        ):
            trivial = [Client(trivial_port) for _ in range(args.clients)]
            run("warm-up", trivial, 5, step_hello, limit=args.limit)
            quiz = [Client(quiz_port) for _ in range(args.clients)]
            for client, name in zip(quiz, names, strict=True):
                client.sign_in(name)
            run("warm-up", quiz, 3, step_loop, limit=args.limit)
            phases["loop"] = run("loop", quiz, args.requests, step_loop, limit=args.limit)
            for _ in range(args.rounds):  # each endpoint right after the trivial route: same load
                rounds.append(
                    {
                        "hello": run("hello", trivial, args.requests, step_hello, limit=args.limit, master=trivial_pid),
                        "next": run("next", quiz, args.requests, step_next, limit=args.limit, master=quiz_pid),
                        "answer": run("answer", quiz, args.requests, step_answer, limit=args.limit, master=quiz_pid),
                    }
                )
            for client in trivial + quiz:
                client.close()
    report(phases, rounds, args)
    for status, example in sorted({k: v for c in quiz for k, v in c.refused.items()}.items()):
        print(f"  an answer refused with {status}: {example}")


def pooled(phases: list[Phase], endpoint: str) -> Phase:
    """The rounds' phases of one endpoint as one (latencies together, wall times added)."""
    out = Phase(endpoint, sum(p.seconds for p in phases), sum(p.cpu for p in phases))
    for p in phases:
        out.latencies.setdefault(endpoint, []).extend(p.latencies.get(endpoint, []))
        for k, v in p.errors.items():
            out.errors[k] = out.errors.get(k, 0) + v
    return out


def report(phases: dict[str, Phase], rounds: list[dict[str, Phase]], args: argparse.Namespace) -> None:
    def ms(phase: Phase, endpoint: str) -> str:
        return (
            f"p50 {phase.percentile(endpoint, 50) * 1000:5.1f} ms, p99 {phase.percentile(endpoint, 99) * 1000:5.1f} ms"
        )

    print(
        f"{args.clients} clients x {args.requests} requests per phase, gunicorn -w {args.workers} (sync), "
        f"{len(rounds)} rounds (each endpoint right after the trivial route; median ratio)"
    )
    hello = pooled([r["hello"] for r in rounds], "hello")
    print(f"trivial GET /hello      {hello.rate('hello'):7.0f} req/s   {ms(hello, 'hello')}")
    for endpoint, path, aim in (("next", "GET /api/next", 0.5), ("answer", "POST /api/answer", 0.35)):
        ratios = [r[endpoint].rate(endpoint) / r["hello"].rate("hello") for r in rounds]
        both = pooled([r[endpoint] for r in rounds], endpoint)
        each = " ".join(f"{x:.2f}" for x in ratios)
        print(
            f"{path:<23} {both.rate(endpoint):7.0f} req/s   {ms(both, endpoint)}   "
            f"ratio {statistics.median(ratios):.2f} (rounds {each}; aim >= {aim})"
        )
    cpu = {e: pooled([r[e] for r in rounds], e) for e in ("hello", "next", "answer")}
    per = {e: p.cpu / max(len(p.latencies.get(e, [])), 1) * 1000 for e, p in cpu.items()}
    print(
        f"workers' CPU per request: trivial {per['hello']:.2f} ms, next {per['next']:.2f} ms, "
        f"answer {per['answer']:.2f} ms"
    )
    loop = phases["loop"]
    print(
        f"loop next+answer        {loop.rate('answer'):7.0f} pairs/s "
        f"next {ms(loop, 'next')}; answer {ms(loop, 'answer')} (aim p99 < 50 ms)"
    )
    every = [loop, *(p for r in rounds for p in r.values())]
    errors = {f"{p.name}: {k}": v for p in every for k, v in p.errors.items()}
    if errors:
        print(f"errors: {errors}")


if __name__ == "__main__":
    main()
