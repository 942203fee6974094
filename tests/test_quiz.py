from __future__ import annotations

import random

import pytest

from study.build import load_terms
from study.learn.catalog import Family, Kind, main_gloss
from study.learn.gather import build_catalog
from study.learn.grading import OrderMode, grade_order, pinyin_key, rating_for, typed_matches
from study.learn.quiz import AnswerError, grade, present
from study.text.normalize import search_key


@pytest.fixture(scope="module")
def catalog(xiangshe, tesheng):
    docs = [xiangshe, tesheng]
    return build_catalog(docs, load_terms(docs))


@pytest.mark.parametrize(
    ("submitted", "mode", "score"),
    [
        ([0, 1, 2, 3], OrderMode.ALL_OR_NOTHING, 1.0),
        ([1, 0, 2, 3], OrderMode.ALL_OR_NOTHING, 0.0),
        ([1, 0, 2, 3], OrderMode.ABSOLUTE_POSITION, 0.5),
        ([3, 0, 1, 2], OrderMode.ABSOLUTE_POSITION, 0.0),
        ([3, 0, 1, 2], OrderMode.RELATIVE_NEXT, 2 / 3),
        ([3, 0, 1, 2], OrderMode.LONGEST_SUBSEQUENCE, 0.75),
        ([3, 2, 1, 0], OrderMode.LONGEST_SUBSEQUENCE, 0.25),
        ([0, 2, 1, 3, 4], OrderMode.LONGEST_SUBSEQUENCE, 0.8),
    ],
)
def test_order_grading_follows_moodles_modes(submitted, mode, score):
    result = grade_order(submitted, mode)
    assert result.score == pytest.approx(score, abs=1e-4)
    assert result.correct == (submitted == sorted(submitted))


def test_misplaced_items_are_reported():
    assert grade_order([3, 0, 1, 2], OrderMode.ABSOLUTE_POSITION).misplaced == (0, 1, 2, 3)
    assert grade_order([0, 2, 1, 3], OrderMode.ABSOLUTE_POSITION).misplaced == (1, 2)
    with pytest.raises(ValueError):
        grade_order([0, 0, 1], OrderMode.ABSOLUTE_POSITION)


@pytest.mark.parametrize(
    ("score", "seconds", "rating"),
    [(1.0, 3, "easy"), (1.0, 30, "good"), (1.0, None, "good"), (0.8, 3, "hard"), (0.6, 3, "hard"), (0.59, 3, "again")],
)
def test_score_maps_to_rating_by_the_documented_rule(score, seconds, rating):
    assert rating_for(score, seconds=seconds, fast_seconds=10).value == rating


def test_typed_answers_are_matched_tolerantly():
    assert typed_matches("宾", ["賔"])
    assert typed_matches(" 乘 矢。", ["乗矢"])
    assert typed_matches("禮", ["礼"])
    assert not typed_matches("", ["礼"])
    assert not typed_matches("弓", ["矢"])
    assert not typed_matches("sheng shi", ["shèng shǐ"], pinyin=True)  # tone-exact (issue 11)
    assert not typed_matches("zun4", ["zūn"], pinyin=True) and typed_matches("zun1", ["zūn"], pinyin=True)
    assert typed_matches("sheng4shi3", ["shèng shǐ"], pinyin=True)
    assert typed_matches("ShèngShǐ", ["shèng shǐ"], pinyin=True)
    assert not typed_matches("cheng shi", ["shèng shǐ"], pinyin=True)
    assert pinyin_key("nǚ lǜ") == pinyin_key("nu lu")


def test_catalog_has_vocabulary_order_and_passage_items_in_text_order(catalog):
    families = {i.family for i in catalog.items}
    assert families == {Family.VOCAB, Family.ORDER, Family.PASSAGE}
    passages = catalog.select(rite="乡射礼", family="passage")
    assert {i.direction for i in passages} == {"c2t", "t2c", "cloze"}
    assert len({i.fact for i in passages}) < len(passages)  # a passage's questions share its fact
    assert catalog.get("vocab:乘矢:t2g") is not None
    assert catalog.get("order:stages:乡射礼.速宾:6") is not None
    assert catalog.get("next:乡射礼.速宾") is not None
    order = catalog.select(rite="乡射礼", family="order")
    stages = [i for i in order if i.direction == "stages"]
    assert [i.window[0] for i in stages] == sorted(i.window[0] for i in stages)
    assert all(4 <= i.window[1] <= 8 for i in stages)


def test_choice_options_never_repeat_the_answer_or_another_gloss_of_the_term(catalog):
    rng = random.Random(7)
    for item in catalog.select(family="vocab"):
        if item.direction not in ("t2g", "g2t"):
            continue
        q = present(item, catalog, rng)
        keys = [search_key(o) for o in q.options]
        assert len(set(keys)) == len(keys), q.options
        assert q.accepted[0] in q.options
        term = item.term
        own = {search_key(g.gloss) for g in term.glosses}
        if item.direction == "t2g":
            others = [o for o in q.options if o != main_gloss(term)]
            assert not any(search_key(o) in own for o in others)


def test_distractors_come_from_the_same_category_and_rite_when_there_are_enough(catalog):
    rng = random.Random(3)
    item = catalog.get("vocab:觯:g2t")
    q = present(item, catalog, rng)
    by_term = {t.term: t for ts in catalog.terms_by_rite.values() for t in ts}
    categories = {by_term[o].category for o in q.options if o in by_term}
    assert categories == {"vessel"}


def test_distractors_come_from_the_nearest_stages_first_and_vary_with_the_shuffle(catalog):
    """A choice question's other glosses are drawn from its category's terms in the nearest
    stages (by neighbourhood of NEIGHBOURHOOD stages) before farther ones, at random within them."""
    from study.learn.catalog import primary_rite, term_stage
    from study.learn.distractors import NEIGHBOURHOOD

    def distance(t, here):
        info = catalog.stages.get(term_stage(t)) if term_stage(t) else None
        return abs((info.index if info is not None else 0) - here) // NEIGHBOURHOOD

    checked = varied = 0
    for item in catalog.select(family="vocab"):
        term = item.term
        info = catalog.stages.get(term_stage(term)) if item.direction == "t2g" and term_stage(term) else None
        if info is None:
            continue
        same = [
            t
            for t in catalog.terms_by_rite.get(primary_rite(term) or "", [])
            if t.category == term.category and t.normalized != term.normalized
        ]
        own = {search_key(g.gloss) for g in term.glosses}
        by_gloss = {}  # each other gloss: its nearest same-category term's distance
        for t in same:
            key = search_key(main_gloss(t))
            if key not in own:
                by_gloss[key] = min(by_gloss.get(key, 99), distance(t, info.index))
        if len(by_gloss) < 3:
            continue
        needed = sorted(by_gloss.values())[2]  # the neighbourhoods that hold three other glosses
        shown = set()
        for seed in range(8):
            q = present(item, catalog, random.Random(seed))
            others = [search_key(o) for o in q.options if o != q.accepted[0]]
            assert all(by_gloss.get(k, 99) <= needed for k in others), (item.id, q.options)
            shown.update(others)
        checked += 1
        varied += len(shown) > 3
    assert checked > 20 and varied > checked // 4


def test_order_question_is_shuffled_and_graded_against_what_was_shown(catalog):
    rng = random.Random(1)
    item = catalog.get("order:stages:乡射礼.速宾:6")
    q = present(item, catalog, rng)
    assert q.kind == Kind.ORDER and list(q.items) != list(q.right_order)
    right = sorted(range(len(q.items)), key=lambda i: q.positions[i])
    g = grade(q, right, seconds=5)
    assert g.correct and g.score == 1.0 and g.expected == list(q.right_order)
    wrong = list(reversed(right))
    assert not grade(q, wrong).correct
    with pytest.raises(AnswerError):
        grade(q, [0, 0, 1, 2, 3, 4])
    with pytest.raises(AnswerError):
        grade(q, "速賔")


def test_repeated_stage_names_are_numbered_so_each_question_has_one_answer(catalog):
    rng = random.Random(5)
    order = catalog.select(rite="乡射礼", family="order")
    names = [e.text for e in order[0].sequence.elements]
    assert len(names) == len(set(names)) and any(n.endswith("〔二〕") for n in names)
    for item in order:
        if item.direction == "next":
            q = present(item, catalog, rng)
            assert len(set(q.options)) == len(q.options) and sum(o in q.accepted for o in q.options) == 1
            assert q.subject not in q.options  # the prompt never holds the answer


def test_typed_and_pinyin_questions(catalog):
    rng = random.Random(2)
    q = present(catalog.get("vocab:乘矢:typed"), catalog, rng)
    assert grade(q, "乘矢").correct and grade(q, "乗 矢").correct and not grade(q, "四矢").correct
    q = present(catalog.get("vocab:乘矢:pinyin"), catalog, rng)
    assert grade(q, "sheng4 shi3").correct and grade(q, "shèng shǐ").correct
    assert not grade(q, "sheng shi").correct and not grade(q, "cheng2 shi3").correct  # tone-exact (issue 11)


def test_distractors_come_from_the_stages_nearby_when_there_are_enough(catalog):
    from study.learn.distractors import NEIGHBOURHOOD, _stage_index

    rng = random.Random(3)
    checked = 0
    for item in catalog.select(rite="乡射礼", family="vocab"):
        if item.direction != "g2t":
            continue
        term = item.term
        here = _stage_index(term, catalog)
        near = [
            t
            for t in catalog.terms_by_rite["乡射礼"]
            if t.category == term.category
            and t.normalized != term.normalized
            and abs((_stage_index(t, catalog) or 0) - (here or 0)) // NEIGHBOURHOOD == 0
        ]
        if here is None or len(near) < 5:
            continue
        q = present(item, catalog, rng)
        if q.direction != "g2t":  # its gloss gives the term away (senses.gives_away): asked term→gloss
            continue
        by_term = {t.term: t for t in catalog.terms_by_rite["乡射礼"]}
        for option in q.options:
            if option not in q.accepted:
                assert by_term[option] in near, (term.term, option)
        checked += 1
    assert checked >= 1
