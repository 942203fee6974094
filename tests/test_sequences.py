"""The shared helpers for ordered lists and fact ids (study.decks.sequences), on the real texts."""

from __future__ import annotations

import doctest

import pytest

import study.decks.sequences as sequences
from study.build import load_corpus
from study.decks.items import step_sequence
from study.decks.sequences import (
    LABEL_MAX,
    labels,
    passage_fact,
    short_label,
    stage_names,
    term_fact,
    window_fact,
    windows,
)


@pytest.fixture(scope="module")
def corpus():
    return load_corpus()


def test_the_examples_in_the_docstrings_hold():
    assert doctest.testmod(sequences).failed == 0


def test_every_step_label_is_short_and_unique_within_its_stage(corpus):
    checked = 0
    for _, rite in corpus.rites():
        for stage in rite.stages:
            texts = [e.text for e in step_sequence(rite, stage).elements]
            got = labels(texts)
            assert len(set(got)) == len(got), (stage.id, got)
            assert all(0 < len(x) <= LABEL_MAX for x in got), got
            checked += len(got)
    assert checked > 100


def test_a_label_is_the_first_clause_or_a_cut_one_with_an_ellipsis():
    assert short_label("主人阼阶上答拜。") == "主人阼阶上答拜"
    assert short_label("賔坐左执爵右祭脯醢奠爵于荐西兴取肺坐絶祭") == "賔坐左执爵"  # the seed's ，
    long = short_label("爵弁皮弁緇布冠各一匴執以待于西坫南南面東上")
    assert len(long) <= LABEL_MAX and long.endswith("…") and long.startswith("爵弁皮弁緇布冠各一匴執")
    assert short_label("ignored", summary="主人献賔") == "主人献賔"


def test_identical_steps_are_numbered_in_order():
    assert labels(["主人答拜。", "賔拜。", "主人答拜。"]) == ["主人答拜〔一〕", "賔拜", "主人答拜〔二〕"]


def test_a_repeated_stage_name_is_numbered_and_the_others_are_kept(corpus):
    for _, rite in corpus.rites():
        names = stage_names(rite)
        assert len(set(names.values())) == len(names)
        for stage in rite.stages:
            if stage.name:
                assert names[stage.id].startswith(stage.name)
                repeated = sum(s.name == stage.name for s in rite.stages) > 1
                assert names[stage.id].endswith("〕") == repeated


@pytest.mark.parametrize("n", [0, 1, 2, 5, 6, 7, 11, 12, 31])
def test_windows_are_at_most_the_size_and_every_two_neighbours_share_one(n):
    items = list(range(n))
    got = windows(items, 6, 1)
    assert all(len(w) <= 6 and list(w) == items[s : s + len(w)] for s, w in got)
    assert {x for _, w in got for x in w} == set(items)
    pairs = {(a, b) for _, w in got for a, b in zip(w, w[1:], strict=False)}
    assert pairs == set(zip(items, items[1:], strict=False))


def test_fact_ids_are_made_of_identities_only():
    assert term_fact("乡射礼", "賔") == "term:乡射礼:宾"
    assert term_fact("乡射礼", "中", 2) == "term:乡射礼:中:2"
    assert passage_fact("乡射礼.主人献宾#0.0-3") == "passage:乡射礼.主人献宾#0.0-3"
    assert passage_fact("x", "cloze") != passage_fact("x")
    assert window_fact("stages:乡射礼", "乡射礼.速宾").split(":") == ["order", "stages", "乡射礼", "乡射礼.速宾"]
