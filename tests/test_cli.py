from __future__ import annotations

import json

from click.testing import CliRunner

from study.cli import cli
from tests.conftest import TESHENG_PATH, TEXTS, XIANGSHE


def run(*args: str):
    return CliRunner().invoke(cli, list(args), catch_exceptions=False)


def test_inspect_json_has_the_fixed_shape():
    result = run("inspect", str(TEXTS / XIANGSHE), "--json")
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert set(doc) == {"file", "rites", "translation_lines"}
    assert doc["file"] == XIANGSHE
    assert [r["name"] for r in doc["rites"]] == ["乡射礼", "燕礼"]
    rite = doc["rites"][0]
    assert set(rite) == {"name", "stages"}
    stage = rite["stages"][0]
    assert set(stage) == {"id", "name", "modern_name", "notes", "line", "passages"}
    assert (stage["id"], stage["name"], stage["line"]) == ("乡射礼.速宾", "速賔", 6)
    passage = stage["passages"][2]
    assert set(passage) == {"text", "commentary", "translation", "lines"}
    assert passage["lines"] == [4, 5]
    assert passage["commentary"][0] == {"speaker": "敖君善", "text": passage["commentary"][0]["text"]}
    assert doc["translation_lines"][:3] == [3, 20, 21]
    assert doc["rites"][1]["stages"][-1]["name"] is None


def test_inspect_prints_a_readable_tree():
    result = run("inspect", str(TESHENG_PATH))
    assert result.exit_code == 0
    assert "(节选 excerpt: part of its rites only)" in result.stdout.splitlines()[0]
    assert "特牲馈食礼  (节选, 17 stages)" in result.stdout  # an excerpt's count is not the rite's
    assert " 1. 尸食  [4 passages, line 11]" in result.stdout
    assert "17. (unnamed, the excerpt ends here)" in result.stdout


def test_bad_text_is_one_line_error_with_exit_status_1(tmp_path):
    bad = tmp_path / "bad.txt"
    bad.write_bytes("右速賔\n甲【乙\n丙【丁】\n".encode())
    result = CliRunner().invoke(cli, ["inspect", str(bad), "--json"])
    assert result.exit_code == 1
    assert result.output == "Error: bad.txt:2: 【 opened on line 2 is never closed (another 【 on line 3)\n"
    assert result.exception is None or isinstance(result.exception, SystemExit)


def test_not_utf8_names_the_byte_offset(tmp_path):
    bad = tmp_path / "latin.txt"
    bad.write_bytes("右速賔\n".encode() + b"caf\xe9\n")
    result = CliRunner().invoke(cli, ["inspect", str(bad)])
    assert result.exit_code == 1
    assert result.output == "Error: latin.txt:2: not UTF-8: byte 0xe9 at byte offset 13 cannot be decoded\n"


def test_every_subcommand_has_help_and_is_in_the_readme():
    from tests.conftest import ROOT

    readme = (ROOT / "README.md").read_text("utf-8")
    for name, command in cli.commands.items():
        assert command.help, name
        assert f"study {name}" in readme, f"study {name} missing from README"
