"""A blind random sample of what the whole book teaches (tests/data/gold/taught_sample.tsv): 150
of the glosses the decks and the quiz taught (build_terms' glosses with a line, 1257 then), drawn
with random.Random(20261130) before any earlier verdict was read, each read as a teacher and marked
right or wrong with a reason. The README states the precision it measures; a gloss found wrong is
no longer taught (dropped at its line in decks/glossary.yaml, or by a general rule since)."""

from __future__ import annotations

import math
import re

import pytest

from study.build import load_corpus, load_terms
from study.text.normalize import normalize
from tests.conftest import DATA, ROOT, TEXTS

SAMPLE = DATA / "gold" / "taught_sample.tsv"
COLUMNS = ["file", "line", "term", "gloss", "speaker", "verdict", "reason"]


def _rows() -> list[dict[str, str]]:
    lines = SAMPLE.read_text(encoding="utf-8").splitlines()
    assert lines[0].split("\t") == COLUMNS
    rows = []
    for n, raw in enumerate(lines[1:], start=2):
        cells = raw.split("\t")
        assert len(cells) == len(COLUMNS), f"{SAMPLE.name}:{n}: {len(cells)} columns"
        rows.append(dict(zip(COLUMNS, cells, strict=True)))
    return rows


def _wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


@pytest.fixture(scope="module")
def taught() -> set[tuple[str, int, str, str]]:
    documents = load_corpus(sorted(TEXTS.glob("KR1d0044_0*.txt"))).documents
    return {
        (g.file, g.line, normalize(g.context or t.term), g.gloss)
        for t in load_terms(documents)
        for g in t.glosses
        if g.line is not None and g.file is not None
    }


def test_every_sampled_gloss_has_a_verdict_and_a_wrong_one_its_reason():
    rows = _rows()
    assert len(rows) == 150
    assert len({(r["file"], int(r["line"]), r["term"], r["gloss"]) for r in rows}) == 150, "drawn without repeats"
    for r in rows:
        where = f"{r['file']}:{r['line']} {r['term']} = {r['gloss']}"
        assert r["verdict"] in ("right", "wrong"), where
        assert r["verdict"] == "right" or r["reason"].strip(), f"a wrong gloss gives its reason: {where}"
        assert r["speaker"], f"every taught gloss names its commentator: {where}"


def test_the_readme_states_the_sample_s_precision_and_interval():
    rows = _rows()
    right = sum(r["verdict"] == "right" for r in rows)
    readme = (ROOT / "README.md").read_text(encoding="utf-8")
    at = readme.find("**A random sample of what is taught.**")
    assert at >= 0, "README: the Glossary section's paragraph on the random sample"
    paragraph = readme[at : readme.find("\n\n", at)]
    m = re.search(r"(\d+) of (\d+) right \(0\.(\d{3}); 95 % Wilson interval 0\.(\d{3})–0\.(\d{3})\)", paragraph)
    assert m, paragraph
    low, high = _wilson(right, len(rows))
    assert (int(m[1]), int(m[2])) == (right, len(rows))
    assert (m[3], m[4], m[5]) == tuple(f"{x:.3f}"[2:] for x in (right / len(rows), low, high))


def test_no_gloss_the_sample_found_wrong_is_taught(taught):
    wrong = [r for r in _rows() if r["verdict"] == "wrong"]
    assert wrong, "the sample found some wrong: this test would pass on nothing"
    still = [
        f"{r['file']}:{r['line']} {r['term']} = {r['gloss']}"
        for r in wrong
        if (r["file"], int(r["line"]), normalize(r["term"]), r["gloss"]) in taught
    ]
    assert not still, f"found wrong in the sample and still taught: {still}"


def test_the_taught_set_the_test_reads_holds_the_sample_s_right_glosses(taught):
    """The check above compares like with like: most glosses the sample found right are taught
    (a general rule may since have withheld a few)."""
    right = [r for r in _rows() if r["verdict"] == "right"]
    kept = sum((r["file"], int(r["line"]), normalize(r["term"]), r["gloss"]) in taught for r in right)
    assert kept >= 0.9 * len(right)
