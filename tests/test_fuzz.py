"""Fuzzing the inputs a user writes: any text or any YAML structure gives a result or the
documented error (with file and line), never a crash. Bounded: a few hundred examples each."""

from __future__ import annotations

import os

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from study.decks.deckspec import read_deckspec
from study.decks.termlist import TermListError, parse_csv
from study.errors import CorpusFormatError, DeckSpecError, GlossaryError, ManifestError
from study.terms.curated import parse_curated
from study.text.corpus import parse_corpus
from study.text.manifest import parse_manifest

FAST = settings(
    max_examples=int(os.environ.get("STUDY_FUZZ_EXAMPLES", "300")),
    deadline=None,
    suppress_health_check=list(HealthCheck),
)

scalars = st.one_of(
    st.none(),
    st.booleans(),
    st.integers(-5, 5000),
    st.floats(allow_nan=False, allow_infinity=False),
    st.sampled_from(
        [
            "乡射礼",
            "特牲馈食礼",
            "乡射礼.请射",
            "速賔..取矢",
            "terms",
            "stages",
            "000_5ea6dcd6bccc2da6.txt",
            "<script>",
            "",
        ]
    ),
    st.text(max_size=12),
)
KEYS = [
    "name",
    "texts",
    "rites",
    "stages",
    "kinds",
    "order",
    "limits",
    "terms",
    "overlap",
    "glossary",
    "extra",
    "exclude",
    "term",
    "gloss",
    "pinyin",
    "category",
    "before",
    "after",
    "window",
    "prompt",
    "from",
    "to",
    "version",
    "glosses",
    "source",
    "juan",
    "first_rite",
    "translation",
    "book",
    "x",
]
trees = st.recursive(
    scalars,
    lambda children: st.one_of(
        st.lists(children, max_size=4), st.dictionaries(st.sampled_from(KEYS), children, max_size=6)
    ),
    max_leaves=25,
)


def _yaml(tree: object) -> str:
    return yaml.safe_dump(tree, allow_unicode=True)


@FAST
@given(trees)
def test_deck_specs_of_any_shape_load_or_report_their_problems(tree):
    try:
        spec = read_deckspec(_yaml(tree), "fuzz.yaml")
    except DeckSpecError as e:
        assert str(e).startswith("fuzz.yaml")
        return
    for line, message in spec.problems:
        assert line is None or line >= 1
        assert message


@FAST
@given(
    st.lists(
        st.sampled_from(list("name: []{},-'\"\n\t#&*!|>乡射礼") + ["..", "\\", "stages:", "kinds:"]), max_size=40
    ).map("".join)
)
def test_deck_spec_text_of_any_kind_loads_or_fails_with_a_line(text):
    try:
        read_deckspec(text, "fuzz.yaml")
    except DeckSpecError as e:
        assert str(e).startswith("fuzz.yaml")


@FAST
@given(trees)
def test_curated_glossaries_and_manifests_of_any_shape(tree):
    text = _yaml(tree)
    try:
        parse_curated(text, "g.yaml")
    except GlossaryError as e:
        assert str(e).startswith("g.yaml")
    try:
        parse_manifest(text, "m.yaml")
    except ManifestError as e:
        assert str(e).startswith("m.yaml")


@FAST
@given(st.binary(max_size=200))
def test_any_bytes_parse_or_raise_the_corpus_error(data):
    try:
        parse_corpus(data, "f.txt", first_rite="乡射礼")
    except CorpusFormatError as e:
        assert str(e).startswith("f.txt:")


@FAST
@given(st.lists(st.sampled_from(list(',\t\n"<>a射位义') + ["vessel", "shè"]), max_size=60).map("".join))
def test_pasted_term_lists_give_terms_or_name_their_bad_rows(text):
    try:
        terms = parse_csv(text)
    except TermListError as e:
        assert e.problems and all(n >= 1 for n, _ in e.problems)
        return
    assert all(t.term and t.glosses[0] and "<" not in t.term for t in terms)
