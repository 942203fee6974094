from __future__ import annotations

import re
from pathlib import Path

import pytest

from study.build import Sources, default_specs, plan_deck
from study.decks.deckspec import (
    DEFAULT_ORDER,
    KINDS,
    DeckSpec,
    Overlap,
    StageRef,
    load_deckspec,
    parse_deckspec,
)
from study.decks.selection import select
from study.errors import DeckSpecError
from tests.conftest import ROOT, XIANGSHE

SPECS = sorted((ROOT / "decks").glob("*.yaml"))
SPECS = [p for p in SPECS if p.name not in ("glossary.yaml", "translations.yaml")]


@pytest.fixture(scope="module")
def sources() -> Sources:
    return Sources()


def spec_of(text: str, tmp_path: Path, name: str = "a.yaml") -> DeckSpec:
    path = tmp_path / name
    path.write_text(text, "utf-8")
    return load_deckspec(path)


def test_the_project_carries_a_spec_per_rite_and_one_for_everything(book):
    assert [p.name for p in SPECS] == [p.name for p in default_specs()]
    assert load_deckspec(ROOT / "decks" / "all.yaml").rites == ()  # all.yaml: the whole book
    named = [r for p in SPECS for r in load_deckspec(p).rites]
    assert len(named) == len(set(named))  # one spec per rite
    # Every rite of the book with stages (all but 饗禮 and 軍禮, which the book gives as 闕) has its spec.
    rites = [r.name for d in book.documents for r in d.rites if r.stages]
    assert sorted(named) == sorted(rites) and len(rites) == 24


@pytest.mark.parametrize("path", SPECS, ids=lambda p: p.name)
def test_every_spec_in_decks_loads_and_builds(path, sources):
    spec = load_deckspec(path)
    assert spec.problems == ()
    notes = plan_deck(spec, sources)
    assert {n.kind for n in notes} == set(spec.kinds)


def test_a_full_spec_reads_into_its_dataclass():
    spec = parse_deckspec(
        """
name: 乡射礼 · 射
texts: [000_5ea6dcd6bccc2da6.txt]
rites: 乡射礼
stages: [请射..再射, {from: 旅酬, to: 彻俎}, 乡射礼.取矢视算.2]
kinds: [term, cloze, stages]
order: [next, prev]
limits: {terms: 80, cloze: 4}
terms:
  extra:
    - {term: 乏, gloss: 获者御矢之具, pinyin: fá, category: implement}
    - {term: 楅, glosses: [承矢器, 以韦为之]}
  exclude: [賔许]
overlap: {before: 2, prompt: 1, after: 0, window: 12}
""",
        "a.yaml",
    )
    assert spec == DeckSpec(
        name="乡射礼 · 射",
        texts=(XIANGSHE,),
        rites=("乡射礼",),
        stages=(StageRef("请射", "再射"), StageRef("旅酬", "彻俎"), StageRef("乡射礼.取矢视算.2")),
        kinds=("terms", "cloze", "stages"),
        order=("next", "previous"),
        max_terms=80,
        max_cloze=4,
        extra_terms=spec.extra_terms,
        exclude_terms=("賔许",),
        overlap=Overlap(before=2, prompt=1, after=0, window=12),
    )
    assert [(x.term, x.glosses, x.pinyin, x.category) for x in spec.extra_terms] == [
        ("乏", ("获者御矢之具",), "fá", "implement"),
        ("楅", ("承矢器", "以韦为之"), None, "other"),
    ]
    assert spec.stages[1].line == 5 and spec.stages[1].key == "stages[1]"


def test_defaults_mean_everything():
    spec = parse_deckspec("name: x\n", "x.yaml")
    assert (spec.texts, spec.rites, spec.stages) == ((), (), ())
    assert (spec.kinds, spec.order, spec.max_terms, spec.overlap) == (KINDS, DEFAULT_ORDER, None, Overlap())


def test_every_problem_of_a_spec_is_reported_at_once_with_line_and_key(tmp_path, sources):
    spec = spec_of(
        """name: bad
texts: [000_5ea6dcd6bccc2da6.txt, 999_missing.txt]
rites: [乡射礼, 乡饮酒礼]
stages: [速賔, 尸食x, 请射..速賔]
kinds: [terms, passage, flashcards]
colour: red
limits: {terms: many}
terms:
  exclude: [不存在之词]
overlap: {window: 1}
""",
        tmp_path,
    )
    with pytest.raises(DeckSpecError) as e:
        plan_deck(spec, sources)
    path = str(tmp_path / "a.yaml")
    lines = str(e.value).split("\n")
    assert [re.match(rf"{re.escape(path)}:(\d+): ([\w.\[\]]+):", x).groups() for x in lines] == [
        ("2", "texts[1]"),
        ("3", "rites[1]"),
        ("4", "stages[1]"),
        ("4", "stages[2]"),
        ("5", "kinds[2]"),
        ("6", "colour"),
        ("7", "limits.terms"),
        ("9", "terms.exclude[0]"),
        ("10", "overlap.window"),
    ]
    assert lines[1].endswith("rites[1]: unknown rite '乡饮酒礼' (known: 乡射礼、燕礼)")
    assert lines[2].startswith(f"{path}:4: stages[1]: unknown stage '尸食x' (known: 速賔、迎賔、")
    assert lines[3].endswith("stages[2]: '速賔' does not come after '请射' in 乡射礼")
    assert lines[4].endswith("kinds[2]: unknown kind 'flashcards' (expected terms, passages, cloze, stages, steps)")
    assert lines[5].endswith(
        "colour: unknown key 'colour' (expected name, texts, rites, stages, kinds, order, "
        "limits, terms, overlap, glossary, translations, script)"
    )
    assert lines[6].endswith("limits.terms: must be a whole number at least 1, not 'many'")
    assert lines[7].endswith("terms.exclude[0]: no term '不存在之词' in the texts")
    assert e.value.problems[0][0] == 2 and len(e.value.problems) == 9


def test_a_kind_that_yields_no_card_is_a_problem_at_its_line(tmp_path, sources):
    spec = spec_of("name: 特牲\nrites: [特牲馈食礼]\nkinds:\n  - terms\n  - passages\n", tmp_path)
    with pytest.raises(DeckSpecError) as e:
        plan_deck(spec, sources)
    assert str(e.value) == (
        f"{tmp_path / 'a.yaml'}:5: kinds[1]: 'passages' yields no card "
        "(none of the chosen passages has a modern translation)"
    )


def test_a_spec_that_selects_nothing_says_so(seed_decks, sources):
    # On the seeds, where 燕礼 is only its opening stage (the book holds all 29 of its stages).
    spec = spec_of("name: 燕礼\nrites: [燕礼]\nkinds: [stages]\n", seed_decks)
    with pytest.raises(DeckSpecError) as e:
        plan_deck(spec, sources)
    assert e.value.problems == [
        (1, "the spec selects no card"),
        (3, "kinds[0]: 'stages' yields no card (no chosen rite has two named stages)"),
    ]


@pytest.mark.parametrize(
    ("text", "message"),
    [
        ("name: [x]\n", "1: name: must be non-empty text, not ['x']"),
        ("texts: [a.txt]\n", "1: name: is required"),
        ("name: x\nkinds: []\n", "2: kinds: must list at least one of terms, passages, cloze, stages, steps"),
        ("name: x\nlimits: 5\n", "2: limits: must be a mapping with keys terms, cloze"),
        ("name: x\nlimits: {cloze: 21}\n", "2: limits.cloze: must be a whole number from 1 to 20, not 21"),
        ("name: x\noverlap: {before: true}\n", "2: overlap.before: must be a whole number from 0 to 5, not True"),
        ("name: x\nstages: [请射..]\n", "2: stages[0]: a range '请射..' needs a stage on each side of '..'"),
        ("name: x\nstages: [{from: 请射}]\n", "2: stages[0]: a range needs 'from' and 'to', each a stage name or id"),
        ("name: x\nterms: {extra: [{term: 乏}]}\n", "2: terms.extra[0]: 乏: needs a gloss"),
        (
            "name: x\nterms:\n  extra:\n    - term: 乏\n      gloss: 获者御矢之具\n      category: tool\n",
            "6: terms.extra[0].category: 'tool' is not one of vessel, implement, garment, action, place, role, "
            "measure, other",
        ),
        (
            "name: x\norder: [next, sideways]\n",
            "2: order[1]: unknown order card 'sideways' (expected next, previous, position, overlap)",
        ),
        ("name: x\nrites: {a: 1}\n", "2: rites: must be a list of text"),
        (
            "name: x\nterms:\n  extra:\n    - {term: 賔, gloss: a}\n    - {term: 宾, gloss: b}\n",
            "5: terms.extra[1].term: 宾 is already an extra term",
        ),
        ("name: x\n  bad: [\n", "2: invalid YAML: mapping values are not allowed here"),
        ("- a\n- b\n", "1: a deck spec is a mapping with at least 'name'"),
    ],
)
def test_each_kind_of_mistake_has_its_message(text, message):
    with pytest.raises(DeckSpecError) as e:
        parse_deckspec(text, "s.yaml")
    assert str(e.value) == f"s.yaml:{message}"


@pytest.mark.parametrize(
    ("stages", "names"),
    [
        ("[请射..再射]", ["请射", "诱射", "初射", "取矢", "再请射", "再射"]),
        ("[速宾]", ["速賔"]),  # a name matches in its normalised form
        ("[取矢视算]", ["取矢视算", "取矢视算"]),  # a repeated name names both stages
        ("[乡射礼.取矢视算.2, 乡射礼.宾出]", ["取矢视算", "賔出"]),
        (
            "[{from: 射事毕, to: 息司正}]",
            ["射事毕", "旅酬", "二人举觯", "彻俎", "无算爵", "賔出", "拜赐拜辱", "息司正"],
        ),
    ],
)
def test_stages_are_chosen_by_name_id_or_range(stages, names, sources, corpus):
    spec = parse_deckspec(f"name: x\nrites: [乡射礼]\nstages: {stages}\n", "x.yaml")
    selection = select(spec, corpus, [])
    assert selection.problems == ()
    assert [s.name for s in selection.rites[0].stages] == names


def test_a_spec_names_texts_relative_to_texts_beside_it(tmp_path, sources):
    (tmp_path / "texts").mkdir()
    for p in (ROOT / "decks" / "texts").iterdir():
        (tmp_path / "texts" / p.name).write_bytes(p.read_bytes())
    spec = spec_of("name: 燕礼\ntexts: [000_5ea6dcd6bccc2da6.txt]\nrites: [燕礼]\n", tmp_path)
    notes = plan_deck(spec, sources)
    assert {n.kind for n in notes} == {"terms", "passages", "cloze"}


def test_the_readme_example_spec_builds(tmp_path, sources):
    readme = (ROOT / "README.md").read_text("utf-8")
    section = readme[readme.index("### Deck specs") :]
    example = section[section.index("```yaml\n") + 8 : section.index("```\n", section.index("```yaml\n") + 8)]
    for name in ("glossary.yaml", "translations.yaml"):  # the files the example names, beside it
        (tmp_path / name).write_bytes((ROOT / "decks" / name).read_bytes())
    spec = spec_of(example, tmp_path)
    notes = plan_deck(spec, sources)
    assert {n.kind for n in notes} == set(KINDS)
    assert any(n.identity[:3] == ("term", "乡射礼", "乏") and n.deck.startswith("自定::") for n in notes)
