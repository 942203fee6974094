"""Glosses read by hand: the verdicts on glosses the precision gate withholds.

The gate (study/terms/gate.py) teaches a gloss only when the rule that read it is measured precise
enough; the others are withheld — most of them right, some not. ``study/data/glossreview/`` holds,
per chapter of the book, a reader's verdict on each withheld gloss (worksheets:
``scripts/gloss_review_sheet.py``), one tab-separated row each::

    line  term  gloss  verdict  reason  term_fix  gloss_fix

- ``right``: the definiens is what the commentary says the word means in this place, a gloss a
  teacher would sign: it is taught;
- ``wrong``: it is not (a fragment, a run-on, a reason, narration, a wrong headword or speaker);
  ``reason`` says why; it stays withheld;
- ``fixed``: the extractor cut it wrongly but the commentary glosses this word here; ``term_fix``
  and ``gloss_fix`` are the word and its definiens as the commentary writes them (both stand in its
  segment at that line — tests/test_gloss_review.py checks it on the book): that gloss is taught,
  the cut one is not.

A second reader, who does not see the first one's verdicts, reads every gloss the first read right
or fixed (``study/data/glossreview/second/``, same key — for a fixed one, the reader's own cut —
then ``agree`` or ``disagree`` and a reason); only a gloss both readers sign is taught.

Keys are the gloss as extracted (file, line, headword, definiens as written), so a row that no
longer meets a gloss of the extractor is stale, and a test says so. A malformed row is a
``path:line:`` error.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator
from dataclasses import dataclass
from functools import cache
from importlib import resources
from pathlib import Path

from ..errors import GlossaryError

FOLDER = "data/glossreview"
VERDICTS = ("right", "wrong", "fixed")
COLUMNS = ("line", "term", "gloss", "verdict", "reason", "term_fix", "gloss_fix")

Key = tuple[str, int, str, str]  # file, line, headword, definiens (as written)


@dataclass(frozen=True)
class Verdict:
    verdict: str
    reason: str
    term_fix: str = ""
    gloss_fix: str = ""
    where: str = ""  # path:line of the row


def _rows(text: str) -> Iterator[tuple[int, list[str]]]:
    """Each row of a review file (not blank, not a ``#`` comment): its line number and its cells."""
    for n, raw in enumerate(text.splitlines(), 1):
        if raw.strip() and not raw.startswith("#"):
            yield n, [c.strip() for c in raw.split("\t")]


def parse_review(text: str, file: str, path: str) -> dict[Key, Verdict]:
    """The rows of one chapter's review; every problem at once, each as ``path:line:``."""
    out: dict[Key, Verdict] = {}
    problems: list[tuple[int | None, str]] = []
    for n, cells in _rows(text):
        cells += [""] * (len(COLUMNS) - len(cells))
        if len(cells) > len(COLUMNS):
            problems.append((n, f"{len(cells)} columns, expected at most {len(COLUMNS)}: {'  '.join(COLUMNS)}"))
            continue
        line, term, gloss, verdict, reason, term_fix, gloss_fix = cells
        if not line.isdigit():
            problems.append((n, f"line: not a line number: {line!r}"))
            continue
        if not term or not gloss:
            problems.append((n, "term and gloss are required"))
            continue
        if verdict not in VERDICTS:
            problems.append((n, f"verdict: must be one of {', '.join(VERDICTS)}, not {verdict!r}"))
            continue
        if verdict != "right" and not reason:
            problems.append((n, f"reason: a {verdict} gloss says why"))
            continue
        if (verdict == "fixed") != bool(term_fix and gloss_fix):
            problems.append((n, "term_fix and gloss_fix: given with a fixed verdict, and only then"))
            continue
        key = (file, int(line), term, gloss)
        if key in out:
            problems.append((n, f"{term} → {gloss} at line {line} is read twice (first at {out[key].where})"))
            continue
        out[key] = Verdict(verdict, reason, term_fix, gloss_fix, f"{path}:{n}")
    if problems:
        raise GlossaryError.many(problems, path=path)
    return out


Parser = Callable[[str, str, str], dict[Key, Verdict]]


def read_folder(folder: Path, parse: Parser = parse_review) -> dict[Key, Verdict]:
    """Every chapter's file in ``folder`` (``KR1d0044_0NN.tsv`` reads ``KR1d0044_0NN.txt``)."""
    out: dict[Key, Verdict] = {}
    for path in sorted(folder.glob("*.tsv")):
        out.update(parse(path.read_text("utf-8"), path.stem + ".txt", str(path)))
    return out


def _shipped(folder: str, parse: Parser) -> dict[Key, Verdict]:
    root = resources.files("study").joinpath(folder)
    return read_folder(Path(str(root)), parse) if root.is_dir() else {}


SECONDS = ("agree", "disagree")


def parse_second(text: str, file: str, path: str) -> dict[Key, Verdict]:
    """One chapter's second reading: ``line term gloss agree|disagree reason``."""
    out: dict[Key, Verdict] = {}
    problems: list[tuple[int | None, str]] = []
    for n, cells in _rows(text):
        line, term, gloss, verdict, reason = (cells + ["", ""])[:5]
        if len(cells) > 5 or not line.isdigit() or not term or not gloss:
            problems.append((n, "expected: line, term, gloss, agree|disagree, reason"))
        elif verdict not in SECONDS:
            problems.append((n, f"verdict: must be one of {', '.join(SECONDS)}, not {verdict!r}"))
        elif verdict == "disagree" and not reason:
            problems.append((n, "reason: a disagreement says why"))
        elif (file, int(line), term, gloss) in out:
            problems.append((n, f"{term} → {gloss} at line {line} is read twice"))
        else:
            out[(file, int(line), term, gloss)] = Verdict(verdict, reason, where=f"{path}:{n}")
    if problems:
        raise GlossaryError.many(problems, path=path)
    return out


@cache
def seconds() -> dict[Key, Verdict]:
    """The shipped second reading (study/data/glossreview/second/), read once."""
    return _shipped(f"{FOLDER}/second", parse_second)


def signed(key: Key) -> bool:
    """Both readers sign the gloss ``key`` (as taught: a fixed one's own cut)."""
    second = seconds().get(key)
    return second is not None and second.verdict == "agree"


@cache
def reviewed() -> dict[Key, Verdict]:
    """The shipped review (study/data/glossreview/), read once."""
    return _shipped(FOLDER, parse_review)
