"""The blind sample of the cards a student meets (tests/data/gold/card_sample.tsv): 150 cards of the
whole-book package imported into real Anki, drawn by kind in proportion and read front then back
(scripts/card_sample_draw.py). Its figure is its count; every card it read is still in a fresh
build (or was found wrong, which may have removed it); a fault fixed in code no longer shows."""

from __future__ import annotations

import math
import re
from collections import Counter
from pathlib import Path

import pytest

from scripts.card_sample_draw import build_all, cards
from tests.conftest import ROOT

SAMPLE = ROOT / "tests" / "data" / "gold" / "card_sample.tsv"
HEADERS = ("sample", "seed", "population", "date", "reader", "rule", "figure")
KINDS = ("词→义", "义→词", "经→译/译→经", "填空", "仪节次序", "步骤次序")
FIXED = "fixed:"  # a reason of a fault since fixed in code says so
REMOVED = "removed:"  # a card read right that a later rule removes says which and why
_FIGURE = re.compile(r"(\d+) of (\d+) right \((\d\.\d{3}); 95 % Wilson interval (\d\.\d{3})–(\d\.\d{3})\)")
_GLOSSES_BACK = re.compile(r'<hr id="?answer"?>.*?<ul class="glosses">(.*?)</ul>', re.S)


def _read(sample: Path = SAMPLE) -> tuple[dict[str, str], list[dict[str, str]]]:
    header, rows, columns = {}, [], None
    for line in sample.read_text("utf-8").splitlines():
        if line.startswith("# "):
            key, _, value = line[2:].partition(": ")
            header[key] = value
        elif columns is None:
            columns = line.split("\t")
        else:
            rows.append(dict(zip(columns, line.split("\t"), strict=True)))
    return header, rows


def _wilson(k: int, n: int, z: float = 1.959964) -> tuple[float, float]:
    p = k / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def check_header_and_rows(sample: Path) -> None:
    """The header keys, 150 distinct read rows, a reason for each wrong one, every kind drawn in proportion."""
    header, rows = _read(sample)
    assert tuple(header) == HEADERS
    assert len(rows) == 150 and len({(r["guid"], r["ord"]) for r in rows}) == 150
    assert all(r["verdict"] in ("right", "wrong") for r in rows)
    assert all(r["reason"] for r in rows if r["verdict"] == "wrong")
    assert all(not r["reason"] or r["reason"].startswith(f"({REMOVED}") for r in rows if r["verdict"] == "right")
    drawn = Counter(r["kind"] for r in rows)
    assert set(drawn) == set(KINDS)
    cards_in_all = re.match(r"([\d ]+) cards", header["population"])
    assert cards_in_all
    population = int(cards_in_all.group(1).replace(" ", ""))
    for kind in KINDS:  # the population line says how many of each kind there were and were drawn
        m = re.search(rf"{re.escape(kind)} (\d+) \(drawn (\d+)\)", header["population"])
        assert m and int(m.group(2)) == drawn[kind], kind
        assert abs(int(m.group(2)) - 150 * int(m.group(1)) / population) < 1, kind  # in proportion


def test_the_card_sample_has_its_header_and_150_read_rows_of_every_kind():
    check_header_and_rows(SAMPLE)


def check_figure(sample: Path) -> None:
    """The figure line is the count of right rows, its share and its 95 % Wilson interval."""
    header, rows = _read(sample)
    m = _FIGURE.fullmatch(header["figure"])
    assert m
    right = sum(r["verdict"] == "right" for r in rows)
    assert (int(m.group(1)), int(m.group(2))) == (right, len(rows))
    assert m.group(3) == f"{right / len(rows):.3f}"
    low, high = _wilson(right, len(rows))
    assert (m.group(4), m.group(5)) == (f"{low:.3f}", f"{high:.3f}")


def test_the_card_sample_figure_is_its_count_with_its_wilson_interval():
    check_figure(SAMPLE)


def whole_book(folder: Path) -> dict[tuple[str, int], tuple[str, str, str]]:
    """(guid, ord) → (kind, front HTML, back HTML) of every card of a fresh whole-book package in Anki."""
    return cards(build_all(folder / "build"), folder)


@pytest.fixture(scope="module")
def fresh(tmp_path_factory) -> dict[tuple[str, int], tuple[str, str, str]]:
    return whole_book(Path(tmp_path_factory.mktemp("cardsample")))


def check_still_built(sample: Path, fresh: dict[tuple[str, int], tuple[str, str, str]]) -> None:
    """Every card the sample read is in ``fresh`` with its kind, unless it was read wrong (a fix may
    remove it) or its row says why a later rule removed it (``removed:``)."""
    _, rows = _read(sample)
    for r in rows:
        key = (r["guid"], int(r["ord"]))
        if key in fresh:
            assert fresh[key][0] == r["kind"], key
        else:
            assert r["verdict"] == "wrong" or REMOVED in r["reason"], f"{key} ({r['front']}) is gone but was read right"


def test_every_card_of_the_sample_is_still_built_with_its_kind_unless_it_was_found_wrong(fresh):
    check_still_built(SAMPLE, fresh)


def test_a_cloze_found_wrong_for_glosses_naming_nobody_now_names_who_gave_each_gloss(fresh):
    """The sample found every cloze's back listing its blanks' glosses with no commentator (issue 11:
    every gloss on every card names who gave it); each now does."""
    _, rows = _read()
    fixed = [r for r in rows if r["kind"] == "填空" and f"{FIXED} each gloss of a cloze" in r["reason"]]
    assert fixed
    for r in fixed:
        key = (r["guid"], int(r["ord"]))
        if key not in fresh:
            continue
        m = _GLOSSES_BACK.search(fresh[key][2])
        assert m, key
        glosses = re.findall(r'<span class="gloss">.*?</span>(<span class="who">[^<]+</span>)?', m.group(1))
        assert glosses and all(glosses), (key, m.group(1))
        assert not re.search(r"\.txt|KR1d|[0-9a-f]{10}", m.group(1)), key  # a name, never a file or a hash


def test_no_cloze_of_the_whole_book_lists_a_gloss_without_who_gave_it(fresh):
    for key, (kind, _, back) in fresh.items():
        if kind != "填空":
            continue
        m = _GLOSSES_BACK.search(back)
        if m:
            glosses = re.findall(r'<span class="gloss">.*?</span>(<span class="who">[^<]+</span>)?', m.group(1))
            assert all(glosses), (key, m.group(1))


def _answer(back: str) -> str:
    big = re.search(r'<div class="big">(.*?)</div>', back.split('id="answer"')[-1], re.S)
    assert big
    return re.sub(r"<[^>]+>", "", re.sub(r"<rt>.*?</rt>", "", big.group(1)))


def test_a_reverse_card_found_ambiguous_on_a_short_gloss_now_shows_its_sentence_with_the_answer_masked(fresh):
    """起 → ? could be 作, 興 or 起; 「三獻～止爵尸卒爵酢」 with it asks 作 only."""
    _, rows = _read()
    fixed = [r for r in rows if r["kind"] == "义→词" and FIXED in r["reason"]]
    assert len(fixed) == 16
    for r in fixed:
        key = (r["guid"], int(r["ord"]))
        if key not in fresh:
            continue
        front, back = fresh[key][1], fresh[key][2]
        sentence = re.search(r'<div class="example">([^<]+)</div>', front)
        assert sentence and "～" in sentence.group(1), key
        answer = _answer(back)
        assert answer not in re.sub(r"<style>.*?</style>|<[^>]+>", "", front, flags=re.S), key


def test_no_reverse_card_of_the_whole_book_on_clues_of_two_characters_at_most_lacks_its_sentence(fresh):
    """Unless the sentence, its answer masked, still holds every character of a longer answer."""
    for key, (kind, front, back) in fresh.items():
        if kind != "义→词":
            continue
        clues = re.findall(r'<span class="gloss">([^<]*)</span>', front)
        short = all(len(re.sub(r"[～，、；。也\s]", "", c)) <= 2 for c in clues)
        example = re.search(r'<div class="example">(.*?)</div>', back.split('id="answer"')[-1], re.S)
        if short and example and '<div class="example">' not in front:  # left out: it spells the answer
            shown = re.sub(r"<[^>]+>", "", re.sub(r'<b class="hl">.*?</b>', "～", example.group(1)))
            answer = _answer(back)
            assert len(answer) > 1 and set(answer) <= set(shown), (key, clues, shown)


def _big(html: str) -> str:
    big = re.search(r'<div class="big">(.*?)</div>', html, re.S)
    assert big
    return re.sub(r"<[^>]+>", "", re.sub(r"<rt>.*?</rt>", "", big.group(1)))


def test_a_character_found_asked_alone_for_a_special_sense_now_shows_its_sentence(fresh):
    """積 alone asks 聚; 「皮弁服素【積】緇帶素韠」 asks 辟 (and 側 獨, 淳 沃, 作 使, 樂 奏)."""
    _, rows = _read()
    fixed = [r for r in rows if r["kind"] == "词→义" and f"{FIXED} the front now shows its sentence" in r["reason"]]
    assert len(fixed) == 5
    for r in fixed:
        key = (r["guid"], int(r["ord"]))
        if key not in fresh:
            continue
        front = fresh[key][1]
        term = _big(front)
        assert re.search(rf'<div class="example">[^<]*<b class="hl">{re.escape(term)}</b>', front), key


def test_no_card_of_the_whole_book_asks_a_character_alone_where_its_sentence_would_show_the_sense(fresh):
    """A one-character term's 词→义 front shows its sentence, unless the sentence holds a gloss of
    it (the answer would be on the front) or the sense has none."""
    for key, (kind, front, back) in fresh.items():
        if kind != "词→义" or len(_big(front)) != 1 or '<div class="example">' in front:
            continue
        after = back.split('id="answer"')[-1]
        example = re.search(r'<div class="example">(.*?)</div>', after, re.S)
        if example:
            shown = re.sub(r"<[^>]+>", "", example.group(1))
            glosses = [
                re.sub(r"[，、；。也\s]", "", g) for g in re.findall(r'<span class="gloss">([^<]*)</span>', after)
            ]
            assert any(g and g in shown for g in glosses), (key, shown, glosses)


def test_a_gloss_found_explaining_nothing_or_holding_its_headword_is_gone(fresh):
    """請 = 請事 (士昏禮 · 問名) answered itself: no card asks it. 嘏 = 尸传神意致福嘏于主人 held its
    headword (and was 尸's gloss too), so 少牢's 「其嘏亦如儐」 blanked 嘏 with no hint: the card now
    hints 尸传神意致福, and no card shows that note as 尸's (nor 嘏's) whole."""
    _, rows = _read()
    (qing,) = [r for r in rows if f"{FIXED} 請事 dropped" in r["reason"]]
    assert (qing["guid"], int(qing["ord"])) not in fresh
    (xia,) = [r for r in rows if f"{FIXED} 嘏 = 尸传神意致福" in r["reason"]]
    kind, front, _ = fresh[(xia["guid"], int(xia["ord"]))]
    assert kind == "填空" and "[尸传神意致福]" in front, front[-300:]
    assert not any("尸传神意致福嘏" in front + back for _, front, back in fresh.values())  # (the book: 傳)
