"""The blind random samples of what the whole book teaches (tests/data/gold/taught_sample*.tsv):
each drawn at random from the glosses the cards and the quiz taught then (with a file and a line),
read as a teacher at its line of the commentary and marked right or wrong with a reason. A sample's
header (``# key: value`` lines) records its seed, population, date, reader, rule, how many rows
repeat an earlier sample, and the figure measured. The rows stay as found — a sample is a
measurement, not a list of fixes; the wrong ones were then dropped at their lines in
decks/glossary.yaml, so none is taught.

    1  random.Random(20261130), 150 of 1,257
    2  random.Random(20261201), 120 of 962 (not in sample 1)
    3  random.Random(20261202), 150 of 789 (not in samples 1–2; scripts/taught_sample3_draw.py)
    4  random.Random(20261203), 150 of 1,005 (everything taught after the fourth reading, samples 1–3
       and the readings included: 48 rows repeat samples 1–3; scripts/taught_sample4_draw.py)

The fourth readings (tests/data/gold/fourth_reading_NNN-MMM.tsv) are not samples but the rest: every
gloss taught in chapters NNN–MMM that no sample drew, read by one reader per range under the samples'
rule (scripts/fourth_reading_population.py lists them). Their rows are checked as the samples' are.
"""

from __future__ import annotations

import math
import re
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import pytest

from study.build import Sources, default_glossary_path, load_corpus, load_terms, plan_deck
from study.decks.deckspec import load_deckspec
from study.terms.curated import Curated, load_curated
from study.text.normalize import normalize
from tests.conftest import DATA, ROOT, TEXTS, shown_glosses

GOLD = DATA / "gold"
FILES = ("taught_sample.tsv", "taught_sample2.tsv", "taught_sample3.tsv", "taught_sample4.tsv")
COLUMNS = ["file", "line", "term", "gloss", "speaker", "verdict", "reason"]
HEADER = ("sample", "seed", "population", "repeats of earlier samples", "date", "reader", "rule", "figure")
FIGURE = re.compile(r"(\d+) of (\d+) right \(([01]\.\d{3}); 95 % Wilson interval ([01]\.\d{3})–([01]\.\d{3})\)")

Key = tuple[str, int, str, str]


@dataclass(frozen=True)
class Sample:
    path: Path
    header: dict[str, str]
    rows: tuple[dict[str, str], ...]

    def keys(self) -> set[Key]:
        return {key(r) for r in self.rows}


def key(r: dict[str, str]) -> Key:
    """A row's (file, line, normalised term, gloss): 纯 and 純 are one headword."""
    return r["file"], int(r["line"]), normalize(r["term"]), r["gloss"]


def read(path: Path) -> Sample:
    header: dict[str, str] = {}
    lines = path.read_text(encoding="utf-8").splitlines()
    while lines and lines[0].startswith("#"):
        name, sep, value = lines.pop(0)[1:].partition(":")
        assert sep, f"{path.name}: a header line is '# key: value'"
        header[name.strip()] = value.strip()
    assert lines and lines[0].split("\t") == COLUMNS, f"{path.name}: the columns follow the header"
    rows = []
    for n, raw in enumerate(lines[1:], start=len(header) + 2):
        cells = raw.split("\t")
        assert len(cells) == len(COLUMNS), f"{path.name}:{n}: {len(cells)} columns"
        rows.append(dict(zip(COLUMNS, cells, strict=True)))
    return Sample(path, header, tuple(rows))


def wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def figure(rows: tuple[dict[str, str], ...]) -> str:
    """The share right and its Wilson interval, as a header and the README write it."""
    right = sum(r["verdict"] == "right" for r in rows)
    low, high = wilson(right, len(rows))
    share, low, high = (f"{x:.3f}" for x in (right / len(rows), low, high))
    return f"{right} of {len(rows)} right ({share}; 95 % Wilson interval {low}–{high})"


READINGS = tuple(sorted(p.name for p in GOLD.glob("fourth_reading_*.tsv")))
READING_HEADER = ("reading", "population", "date", "reader", "rule", "figure")
SAMPLES = [pytest.param(i, id=f"sample{i + 1}") for i in range(len(FILES))]
FOURTH = [pytest.param(i, id=READINGS[i - len(FILES)][:-4]) for i in range(len(FILES), len(FILES) + len(READINGS))]
VERDICTS = SAMPLES + FOURTH  # what is checked row by row holds for both


def sample(i: int) -> Sample:
    return read(GOLD / (FILES + READINGS)[i])


def chapters(s: Sample) -> tuple[str, str]:
    """fourth_reading_007-012.tsv → ('007', '012')."""
    m = re.fullmatch(r"fourth_reading_(\d{3})-(\d{3})\.tsv", s.path.name)
    assert m, s.path.name
    return m[1], m[2]


def where(r: dict[str, str]) -> str:
    return f"{r['file']}:{r['line']} {r['term']} = {r['gloss']}"


@pytest.fixture(scope="module")
def book() -> tuple[set[Key], dict[Key, str]]:
    """What the whole book teaches now, and what the precision gate withholds (with its rule)."""
    documents = load_corpus(sorted(TEXTS.glob("KR1d0044_0*.txt"))).documents
    taught: set[Key] = set()
    withheld: dict[Key, str] = {}
    for t in load_terms(documents, withheld=True):
        for g in t.glosses:
            if g.line is None or g.file is None:
                continue
            k = (g.file, g.line, normalize(g.context or t.term), g.gloss)
            if g.taught:
                taught.add(k)
            else:
                withheld[k] = g.rule
    return taught, withheld


@cache
def curated() -> Curated:
    return load_curated(default_glossary_path())


def dropped_at_its_line(k: Key) -> bool:
    """A teacher's exclusion in decks/glossary.yaml (its reason required by the reader) of this
    gloss at its line, or of every gloss of the headword there, or of the headword."""
    file, line, term, gloss = k
    return term in curated().exclude or bool({(term, file, line, None), (term, file, line, gloss)} & curated().dropped)


@pytest.mark.parametrize("i", SAMPLES)
def test_the_header_records_how_the_sample_was_drawn_and_read(i):
    s = sample(i)
    assert tuple(s.header) == HEADER, f"{s.path.name}: header keys"
    assert s.header["sample"] == str(i + 1)
    assert re.search(r"random\.Random\(\d{8}\)", s.header["seed"]), s.header["seed"]
    assert re.match(r"[\d,]+ ", s.header["population"]), s.header["population"]
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", s.header["date"])
    assert s.header["reader"] and s.header["rule"]


@pytest.mark.parametrize("i", VERDICTS)
def test_every_row_has_a_verdict_and_every_wrong_one_its_reason(i):
    s = sample(i)
    m = FIGURE.fullmatch(s.header["figure"])
    assert m, s.header["figure"]
    assert len(s.rows) == int(m[2])
    assert len(s.keys()) == len(s.rows), "drawn without repeats"
    for r in s.rows:
        assert r["verdict"] in ("right", "wrong"), where(r)
        assert r["verdict"] == "right" or r["reason"].strip(), f"a wrong gloss gives its reason: {where(r)}"
        assert r["verdict"] == "wrong" or not r["reason"].strip(), f"a right gloss needs no reason: {where(r)}"
        assert r["speaker"], f"every taught gloss names its commentator: {where(r)}"


@pytest.mark.parametrize("i", VERDICTS)
def test_the_header_s_figure_is_the_count_of_the_verdicts(i):
    s = sample(i)
    assert s.header["figure"] == figure(s.rows)


@pytest.mark.parametrize("i", VERDICTS)
def test_the_readme_states_the_sample_s_figure_by_its_file(i):
    s = sample(i)
    readme = re.sub(r"\s+", " ", (ROOT / "README.md").read_text(encoding="utf-8"))
    at = readme.find("**A random sample of what is taught.**")
    assert at >= 0, "README: the Glossary section's paragraph on the random samples"
    named = readme.find(f"`tests/data/gold/{s.path.name}`", at)
    assert named >= 0, f"README names {s.path.name}"
    assert figure(s.rows) in readme[named : named + 120], f"README: {s.path.name}'s figure follows its name"


@pytest.mark.parametrize("i", SAMPLES)
def test_no_row_repeats_an_earlier_sample_but_those_its_header_counts(i):
    s = sample(i)
    earlier = set().union(*(sample(j).keys() for j in range(i)))
    stated = int(s.header["repeats of earlier samples"].split()[0])
    assert len(s.keys() & earlier) == stated


@pytest.mark.parametrize("i", VERDICTS)
def test_every_gloss_is_read_at_its_line_of_the_commentary(i):
    for r in sample(i).rows:
        lines = (TEXTS / r["file"]).read_text(encoding="utf-8").splitlines()
        n = int(r["line"])
        # a clause may begin on the line before and run on over the column break (/) and the next lines
        around = normalize(re.sub(r"[¶/\s()]|<pb:[^>]*>", "", "".join(lines[n - 2 : n + 3])))
        assert normalize(r["gloss"]) in around, where(r)


@pytest.mark.parametrize("i", VERDICTS)
def test_no_gloss_a_sample_found_wrong_is_taught_and_each_was_dropped_at_its_line(i, book):
    taught, withheld = book
    wrong = [r for r in sample(i).rows if r["verdict"] == "wrong"]
    # samples 1–3 each found some wrong (else this test would pass on nothing); sample 4, drawn from what
    # was taught after the fourth reading had dropped every gloss read wrong, found none
    assert wrong or i >= 3, "samples 1–3 each found some wrong: this test would pass on nothing"
    assert not [where(r) for r in wrong if key(r) in taught]
    unexplained = [where(r) for r in wrong if not (dropped_at_its_line(key(r)) or key(r) in withheld)]
    assert not unexplained, "a wrong gloss is dropped at its line (with a reason) or withheld by a rule"


@pytest.mark.parametrize("i", VERDICTS)
def test_every_right_gloss_is_still_taught_or_its_withdrawal_explained(i, book):
    """The wrong ones above compare like with like: a gloss the sample read right is taught, or a
    later reading dropped it at its line with a reason, or a general rule now withholds it."""
    taught, withheld = book
    right = [r for r in sample(i).rows if r["verdict"] == "right"]
    assert right
    unexplained = [
        where(r) for r in right if not (key(r) in taught or key(r) in withheld or dropped_at_its_line(key(r)))
    ]
    assert not unexplained, f"read right, no longer taught, no reason given: {unexplained}"


@pytest.fixture(scope="module")
def shown() -> set[tuple[str, str]]:
    """(term, gloss) on the term cards and cloze hints of the whole-book package."""
    return shown_glosses(plan_deck(load_deckspec(ROOT / "decks" / "all.yaml"), Sources()))


@pytest.mark.parametrize("i", VERDICTS)
def test_no_card_shows_a_gloss_a_sample_found_wrong(i, book, shown):
    """Cards name no line, so a pair is shown only where the commentary says it at another line too."""
    taught, _ = book
    assert shown
    elsewhere = {(t, normalize(g)) for _, _, t, g in taught}
    for r in sample(i).rows:
        pair = (normalize(r["term"]), normalize(r["gloss"]))
        if r["verdict"] == "wrong":
            assert pair not in shown or pair in elsewhere, where(r)


@pytest.mark.parametrize("i", FOURTH)
def test_a_fourth_reading_s_header_records_its_population_and_reader(i):
    s = sample(i)
    assert tuple(s.header) == READING_HEADER, f"{s.path.name}: header keys"
    assert s.header["reading"] == "4"
    m = re.match(r"(\d+) ", s.header["population"])
    assert m and int(m[1]) == len(s.rows), f"{s.path.name}: the population is every row"
    assert re.fullmatch(r"\d{4}-\d{2}-\d{2}", s.header["date"])
    assert s.header["reader"] and s.header["rule"]
    lo, hi = chapters(s)
    assert all(lo <= r["file"][9:12] <= hi for r in s.rows), f"{s.path.name}: rows of its chapters only"


@pytest.mark.parametrize("i", FOURTH)
def test_a_fourth_reading_reads_no_gloss_a_sample_or_another_reading_read(i):
    s = sample(i)
    # samples 1–3 came before it; a later sample draws from everything taught, the read too
    others = set().union(
        *(sample(j).keys() for j in (*range(3), *range(len(FILES), len(FILES) + len(READINGS))) if j != i)
    )
    assert len(s.keys()) == len(s.rows), "each gloss read once"
    assert not s.keys() & others


@pytest.mark.parametrize("i", FOURTH)
def test_a_fourth_reading_covers_what_its_chapters_teach(i, book):
    """Every gloss taught in its chapters is read by a sample or by it; a gloss a later rule added is
    listed here until someone reads it (at most one in twenty of the reading's rows)."""
    s = sample(i)
    taught, _ = book
    lo, hi = chapters(s)
    read_by_someone = set().union(*(sample(j).keys() for j in range(len(FILES)))) | s.keys()
    unread = sorted(k for k in taught if lo <= k[0][9:12] <= hi and k not in read_by_someone)
    assert len(unread) <= len(s.rows) // 20, f"taught in {lo}–{hi} and read by nobody: {unread}"
