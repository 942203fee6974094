"""The attacks of issue 15, each as a test: what came in, and what must come out instead."""

from __future__ import annotations

import shutil
import time

import pytest
from click.testing import CliRunner

from study.cli import cli
from study.decks.deckspec import parse_deckspec
from study.errors import DeckSpecError, GlossaryError
from study.terms.glossary import parse_curated
from study.yamlsrc import MAX_CHARS
from tests.conftest import ROOT

# --- YAML and spec files -------------------------------------------------------------------

BOMB = (
    "name: bomb\n"
    'a: &a ["x","x","x","x","x","x","x","x","x"]\n'
    "b: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a]\n"
    "c: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b]\n"
    "d: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c]\n"
    "e: [*d,*d,*d,*d,*d,*d,*d,*d,*d]\n"
)


def _build(tmp_path, spec_text: str):  # type: ignore[no-untyped-def]
    spec = tmp_path / "deck.yaml"
    spec.write_text(spec_text, "utf-8")
    return CliRunner().invoke(cli, ["build", str(spec), "-o", str(tmp_path / "out.apkg")])


def test_a_yaml_alias_bomb_is_refused_at_once_with_its_line(tmp_path):
    started = time.perf_counter()
    result = _build(tmp_path, BOMB)
    assert time.perf_counter() - started < 5
    assert result.exit_code == 1 and result.exception is None or isinstance(result.exception, SystemExit)
    assert f"{tmp_path / 'deck.yaml'}:3: invalid YAML: aliases (*a) are not allowed" in result.output
    with pytest.raises(GlossaryError, match=r"g.yaml:2: invalid YAML: aliases"):
        parse_curated("terms: &t []\nexclude: *t\n", "g.yaml")


def test_a_control_character_in_a_spec_is_reported_with_its_line(tmp_path):
    result = _build(tmp_path, "name: 乡射\nrites: [乡射礼\x01]\n")
    assert result.exit_code == 1 and isinstance(result.exception, SystemExit)  # no traceback
    assert f"{tmp_path / 'deck.yaml'}:2: control character U+0001 is not allowed" in result.output
    for text, line in (("name: a\x7f\n", 1), ("name: a\n\nrites: [\ud800]\n", 3)):
        with pytest.raises(DeckSpecError) as err:
            parse_deckspec(text, "s.yaml")
        assert err.value.line == line and "control character" in str(err.value)


def test_a_yaml_file_over_the_size_limit_is_refused(tmp_path):
    with pytest.raises(DeckSpecError, match="too large"):
        parse_deckspec("name: x\n#" + "x" * MAX_CHARS + "\n", "big.yaml")
    result = _build(tmp_path, "name: x\n#" + "x" * MAX_CHARS + "\n")
    assert result.exit_code == 1 and "too large" in result.output


@pytest.mark.parametrize("glossary", ["/etc/shadow", "/etc/passwd", "../../../../../../etc/passwd", "../outside.yaml"])
def test_a_spec_glossary_outside_its_folder_and_decks_is_refused_unread(tmp_path, glossary):
    (tmp_path / "outside.yaml").write_text("secret-first-line: [1\n", "utf-8")
    folder = tmp_path / "specs"
    folder.mkdir()
    spec = folder / "deck.yaml"
    spec.write_text(f"name: 乡射\nrites: [乡射礼]\nglossary: {glossary}\n", "utf-8")
    result = CliRunner().invoke(cli, ["build", str(spec), "-o", str(tmp_path / "out.apkg")])
    assert result.exit_code == 1
    assert f"{spec}:3: glossary: {glossary!r} is not a file in" in result.output
    assert "root:" not in result.output and "secret-first-line" not in result.output
    assert not (tmp_path / "out.apkg").exists()


def test_a_spec_glossary_beside_the_spec_is_still_used(tmp_path):
    shutil.copy(ROOT / "decks" / "glossary.yaml", tmp_path / "mine.yaml")
    result = _build(tmp_path, "name: 乡射\nrites: [乡射礼]\nkinds: [terms]\nglossary: mine.yaml\n")
    assert result.exit_code == 0, result.output
