"""Start-up of the web quiz on the whole book (figures only): a fresh Python process imports the
app and calls ``create_app`` on a new SQLite database, as each gunicorn worker does.

Three ways, each timed ``--runs`` times in new processes (median, min):

- ``no cache``: the book cache off (``BOOK_CACHE`` None): every start parses the texts, extracts
  the terms and builds the catalog (the app before web/bookcache.py);
- ``cold cache``: an empty cache folder: the same work, plus writing the pickle;
- ``warm cache``: the pickle written by an earlier start is loaded.

Usage: python bench/startup.py [--runs 3]
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]

CHILD = """
import sys, time
t0 = time.perf_counter()
from web import create_app
t1 = time.perf_counter()
cache = sys.argv[2] if sys.argv[2] != "-" else None
create_app({"TESTING": True, "SECRET_KEY": "bench", "DATABASE_URL": "sqlite:///" + sys.argv[1], "BOOK_CACHE": cache})
t2 = time.perf_counter()
print(f"{t1 - t0:.4f} {t2 - t1:.4f}")
"""


def start(database: Path, cache: Path | None) -> tuple[float, float]:
    """Seconds to import the app and to create it, in a new process."""
    out = subprocess.run(
        [sys.executable, "-c", CHILD, str(database), str(cache) if cache else "-"],
        cwd=ROOT,
        check=True,
        capture_output=True,
        text=True,
    ).stdout.split()
    return float(out[0]), float(out[1])


def main() -> None:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--runs", type=int, default=3)
    args = ap.parse_args()
    with tempfile.TemporaryDirectory(prefix="bench-startup-") as tmp:
        folder = Path(tmp)
        rows: dict[str, list[tuple[float, float]]] = {"no cache": [], "cold cache": [], "warm cache": []}
        for run in range(args.runs):
            rows["no cache"].append(start(folder / f"none-{run}.sqlite", None))
            rows["cold cache"].append(start(folder / f"cold-{run}.sqlite", folder / f"cache-{run}"))
            rows["warm cache"].append(start(folder / f"warm-{run}.sqlite", folder / f"cache-{run}"))
    print(f"start-up of the web quiz on the whole book, {args.runs} new processes each (import + create_app)")
    base = statistics.median(i + c for i, c in rows["no cache"])
    for name, times in rows.items():
        total = [i + c for i, c in times]
        med = statistics.median(total)
        print(
            f"{name:<11} {med:6.2f} s (min {min(total):5.2f}; import {statistics.median(i for i, _ in times):4.2f} s, "
            f"create_app {statistics.median(c for _, c in times):5.2f} s)   {base / med:4.1f}x faster than no cache"
        )


if __name__ == "__main__":
    main()
