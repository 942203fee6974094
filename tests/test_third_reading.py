"""A third reading, with one question, of every gloss the decks teach because the hand review of
withheld glosses signed it (study/data/glossreview/): is it a meaning of the word a student can learn
and be asked both ways, or does it say who or which thing is meant in its passage, what is done or
finished there, restate the clause around the word, or is it a fragment? Three readers, one per
range of chapters (tests/data/gold/third_reading_NNN-MMM.tsv: file, line, term, gloss, verdict,
reason). A wrong one is dropped at its line in decks/glossary.yaml or withheld by the general check
of study/terms/referential.py; a right one is still taught unless that check or a later teacher's
exclusion at its line withholds it."""

from __future__ import annotations

from dataclasses import dataclass
from functools import cache

import pytest

from study.build import default_glossary_path, load_corpus, load_terms
from study.terms.curated import load_curated
from study.terms.glosses import extract_glosses
from study.terms.referential import referential
from study.text.normalize import normalize
from tests.conftest import DATA, TEXTS

COLUMNS = ["file", "line", "term", "gloss", "verdict", "reason"]
Key = tuple[str, int, str, str]


@dataclass(frozen=True)
class Reading:
    name: str  # third_reading_NNN-MMM.tsv
    chapters: tuple[str, ...]
    rows: int
    wrong: int


READINGS = (
    Reading("third_reading_001-005.tsv", ("001", "002", "003", "004", "005"), 229, 79),  # 士冠禮 … 燕禮
    Reading("third_reading_006-011.tsv", ("006", "007", "008", "009", "010", "011"), 201, 51),  # 大射儀 … 喪服
    Reading("third_reading_012-017.tsv", ("012", "013", "014", "015", "016", "017"), 240, 73),  # 士喪禮 … 逸禮
)


@cache
def _rows(name: str) -> tuple[dict[str, str], ...]:
    """The verdicts, without the file's comment lines (#) and its header."""
    rows = []
    for n, raw in enumerate((DATA / "gold" / name).read_text(encoding="utf-8").splitlines(), start=1):
        if raw.startswith("#") or not raw.strip() or raw.split("\t") == COLUMNS:
            continue
        cells = raw.split("\t")
        assert len(cells) == len(COLUMNS), f"{name}:{n}: {len(cells)} columns"
        rows.append(dict(zip(COLUMNS, cells, strict=True)))
    return tuple(rows)


def _key(r: dict[str, str]) -> Key:
    return (r["file"], int(r["line"]), normalize(r["term"]), r["gloss"])


def _written(r: dict[str, str]) -> Key:
    return (r["file"], int(r["line"]), r["term"], r["gloss"])


def _where(r: dict[str, str]) -> str:
    return f"{r['file']}:{r['line']} {r['term']} = {r['gloss']}"


def _withheld(r: dict[str, str]) -> bool:
    """Dropped by a teacher's exclusion at its line, or said referential by the general check."""
    dropped = load_curated(default_glossary_path()).dropped
    at = (normalize(r["term"]), r["file"], int(r["line"]))
    return (*at, r["gloss"]) in dropped or (*at, None) in dropped or referential(r["term"], r["gloss"]) is not None


@cache
def _built(chapters: tuple[str, ...]) -> tuple[frozenset[Key], frozenset[Key]]:
    """What the decks and the quiz teach of these chapters (build_terms' glosses with a line), and
    every gloss the extractor reads there (as the hand review left them)."""
    documents = load_corpus([TEXTS / f"KR1d0044_{n}.txt" for n in chapters]).documents
    taught = frozenset(
        (g.file, g.line, normalize(g.context or t.term), g.gloss)
        for t in load_terms(documents)
        for g in t.glosses
        if g.line is not None and g.file is not None
    )
    read = frozenset((g.file, g.line, normalize(g.context), g.gloss) for d in documents for g in extract_glosses(d))
    return taught, read


each = pytest.mark.parametrize("reading", READINGS, ids=[r.name for r in READINGS])


@each
def test_every_gloss_read_has_a_verdict_and_a_reason(reading):
    rows = _rows(reading.name)
    assert len(rows) == reading.rows
    assert len({_key(r) for r in rows}) == len(rows), "each gloss read once"
    assert {r["file"][9:12] for r in rows} == set(reading.chapters)
    for r in rows:
        assert r["verdict"] in ("right", "wrong"), _where(r)
        assert r["reason"].strip(), f"every verdict gives its reason: {_where(r)}"
    assert sum(r["verdict"] == "wrong" for r in rows) == reading.wrong


@cache
def _notes(chapters: tuple[str, ...]) -> dict[tuple[str, int], str]:
    """The commentary over each line: the text of every segment that runs over it."""
    out: dict[tuple[str, int], str] = {}
    for d in load_corpus([TEXTS / f"KR1d0044_{n}.txt" for n in chapters]).documents:
        for rite in d.rites:
            segments = [*rite.commentary]
            for stage in rite.stages:
                segments += [s for p in stage.passages for s in p.commentary] + list(stage.note_commentary)
            for s in segments:
                for n in {s.line, *(n for _, n in s.breaks)}:
                    out[(d.file, n)] = out.get((d.file, n), "") + "\u3000" + s.text
    return out


@each
def test_every_gloss_read_is_one_the_commentary_gives_at_its_line(reading):
    """The rows are the extractor's glosses as the hand review left them (a misspelt row would
    pass the next tests on nothing). A row read wrong and dropped at its line that the extractor no
    longer reads (004:176 執 = 手入越淺: the reader now puts back the cell the transcription moved,
    「執越者執言手入越淺也」) still names words of the note at that line."""
    _, read = _built(reading.chapters)
    notes = _notes(reading.chapters)

    def gone(r: dict[str, str]) -> bool:
        note = notes.get((r["file"], int(r["line"])), "")
        return r["verdict"] == "wrong" and _withheld(r) and r["term"] in note and r["gloss"] in note

    absent = [_where(r) for r in _rows(reading.name) if _key(r) not in read and not gone(r)]
    assert not absent, f"not a gloss of the commentary at that line: {absent}"


@each
def test_no_gloss_the_third_reading_found_wrong_is_taught(reading):
    taught, _ = _built(reading.chapters)
    wrong = [r for r in _rows(reading.name) if r["verdict"] == "wrong"]
    still = [_where(r) for r in wrong if _key(r) in taught]
    assert not still, f"found wrong in the third reading and still taught: {still}"
    loose = [_where(r) for r in wrong if not _withheld(r)]
    assert not loose, f"wrong, but neither excluded at its line nor withheld by a rule: {loose}"


@each
def test_the_glosses_found_right_are_still_taught(reading):
    """A right one may since be withheld by the referential check or dropped by a later reading
    at its line; none is lost otherwise, and most are taught (the set read is the decks')."""
    taught, _ = _built(reading.chapters)
    right = [r for r in _rows(reading.name) if r["verdict"] == "right"]
    lost = [_where(r) for r in right if _key(r) not in taught and not _withheld(r)]
    assert not lost, f"read right but no longer taught: {lost}"
    assert sum(_key(r) in taught for r in right) >= 0.9 * len(right)


def test_the_meanings_that_stay_beside_the_wrong_ones_are_taught():
    """Near the wrong ones of 卷一–五, true meanings are kept: an office by what it does, a kind, a
    word spelt out, a stand by what it holds; and the kinds found wrong are there (冠 = 緇布冠 which
    cap, 卒 = 獻諸大夫畢 what is finished)."""
    reading = READINGS[0]
    taught, _ = _built(reading.chapters)
    for file, n, term, gloss in (
        ("KR1d0044_001.txt", 46, "筮人", "有司主筮事者"),
        ("KR1d0044_001.txt", 267, "柶", "所以扱取醴者"),
        ("KR1d0044_001.txt", 125, "東領", "衣領向東"),
        ("KR1d0044_001.txt", 179, "序", "堂東西牆"),
        ("KR1d0044_005.txt", 63, "小臣師", "小臣之長"),
        ("KR1d0044_002.txt", 334, "良席", "良人之席"),
        ("KR1d0044_005.txt", 37, "豐", "所以盛瓦大者"),
    ):
        assert (file, n, normalize(term), gloss) in taught, (file, n, term, gloss)
    wrong = {(r["term"], r["gloss"]) for r in _rows(reading.name) if r["verdict"] == "wrong"}
    assert wrong >= {("冠", "緇布冠"), ("卒", "獻諸大夫畢")}
