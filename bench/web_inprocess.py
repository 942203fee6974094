"""The quiz's own CPU time per request, in one process without gunicorn or HTTP (figures only).

A learner with 300 reviewed cards on a temporary SQLite file with the whole book (seeded as
``bench/web.py`` does) signs in; then ``GET /api/session`` (a small route that reads the
session), ``GET /api/next`` (vocab, order, any in turn) and ``POST /api/answer`` (a plausible
answer to each question shown, once) are called through the app's WSGI callable, ``--requests``
times each in five blocks. Printed: CPU time per request (process time, the fastest block: the
least disturbed by other load), and with ``--profile`` cProfile's top functions by own time.
What ``bench/web.py``'s workers spend apart from gunicorn's accept and parse, and the clients.

Usage: python bench/web_inprocess.py [--requests 3000] [--profile]
"""

from __future__ import annotations

import argparse
import cProfile
import io
import json
import pstats
import random
import secrets
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from werkzeug.test import EnvironBuilder  # noqa: E402

from bench.web import GUESSES, KINDS, seed  # noqa: E402

BLOCKS = 5


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--requests", type=int, default=3000, help="requests per endpoint")
    ap.add_argument("--profile", action="store_true", help="also print cProfile's top 35 by own time")
    args = ap.parse_args()
    from web import create_app

    with tempfile.TemporaryDirectory(prefix="bench-web-inprocess-") as tmp:
        url = f"sqlite:///{Path(tmp) / 'bench.sqlite'}"
        (name,) = seed(url, 1, 300, random.Random(1))
        app = create_app(
            {
                "DATABASE_URL": url,
                "SECRET_KEY": secrets.token_hex(16),
                "NEW_PER_DAY": 100000,
                "RATELIMIT_ENABLED": False,
            }
        )
        client = app.test_client()
        csrf = client.get("/api/session").get_json()["csrf_token"]
        body = {"name": name, "password": f"{name}-password"}
        csrf = client.post("/api/session", json=body, headers={"X-CSRFToken": csrf}).get_json()["csrf_token"]
        cookie = f"session={client.get_cookie('session').value}"  # type: ignore[union-attr]

        def call(method: str, path: str, payload: object = None) -> tuple[str, bytes]:
            headers = {"Cookie": cookie, "Host": "127.0.0.1"}
            data = None
            if payload is not None:
                data = json.dumps(payload)
                headers |= {"Content-Type": "application/json", "X-CSRFToken": csrf}
            environ = EnvironBuilder(path=path, method=method, headers=headers, data=data).get_environ()
            status: list[str] = []
            out = app.wsgi_app(environ, lambda s, h, e=None: status.append(s))
            try:
                return status[0], b"".join(out)
            finally:
                getattr(out, "close", lambda: None)()

        shown: list[dict] = []
        rng = random.Random(2)

        def session(i: int) -> None:
            call("GET", "/api/session")

        def next_(i: int) -> None:
            kind = KINDS[i % len(KINDS)]
            status, out = call("GET", "/api/next" + (f"?kind={kind}" if kind else ""))
            assert status.startswith("200"), (status, out[:200])
            item = json.loads(out)["item"]
            if item is not None:
                shown.append(item)

        def answer(i: int) -> None:
            item = shown.pop()
            if item["kind"] == "choice":
                given: object = rng.choice(item["options"])
            elif item["kind"] == "order":
                given = rng.sample(range(len(item["items"])), len(item["items"]))
            else:
                given = rng.choice(GUESSES)
            payload = {
                "item_id": item["id"],
                "answer": given,
                "token": item["token"],
                "answer_id": secrets.token_hex(8),
            }
            status, out = call("POST", "/api/answer", payload)
            assert status.startswith("200"), (status, out[:200])

        for i in range(2 * args.requests + 200):  # warm up; questions for every answer below
            next_(i)
        for i in range(100):
            answer(i)
        routes: list[tuple[str, Callable[[int], None]]] = [
            ("GET /api/session", session),
            ("GET /api/next", next_),
            ("POST /api/answer", answer),
        ]
        for label, step in routes:
            profile = cProfile.Profile() if args.profile else None
            if profile is not None:
                profile.enable()
            blocks = []
            for _ in range(BLOCKS):
                start = time.process_time()
                for i in range(args.requests // BLOCKS):
                    step(i)
                blocks.append((time.process_time() - start) / (args.requests // BLOCKS))
            if profile is not None:
                profile.disable()
                text = io.StringIO()
                pstats.Stats(profile, stream=text).sort_stats("tottime").print_stats(35)
                print(text.getvalue())
            print(
                f"{label:<18} {min(blocks) * 1000:.3f} ms CPU per request (blocks {min(blocks) * 1000:.3f}-{max(blocks) * 1000:.3f})"
            )
        app.extensions["study"].store.engine.dispose()


if __name__ == "__main__":
    main()
