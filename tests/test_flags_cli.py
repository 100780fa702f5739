"""``rulediff flags``: one edition (json/toml/python), the timeline (text/json/html),
``--check-engine``, and the errors a user can make."""

from __future__ import annotations

import importlib
import json
import sys
from pathlib import Path

import jsonschema
import pytest
import tomllib
from click.testing import CliRunner, Result

from rulediff.cli import main
from rulediff.flags.exporters import shipped_schema


def run(*args: str) -> Result:
    return CliRunner().invoke(main, list(args), catch_exceptions=False)


@pytest.fixture()
def corpus(corpus_dir: Path) -> list[str]:
    return ["--corpus", str(corpus_dir)]


def test_flags_json_follows_the_schema(corpus):
    result = run("flags", "2009-07-11", *corpus)
    assert result.exit_code == 0, result.output
    doc = json.loads(result.output)
    jsonschema.validate(doc, shipped_schema())
    assert doc["effective_date"] == "2009-07-11"
    assert doc["flags"]["mana_burn"]["value"] is False
    assert doc["flags"]["legend_rule"]["value"] == "all-die"
    assert doc["flags"]["combat_damage_uses_stack"]["rules"] == ["510.2"]
    assert run("flags", "2009-07-11", *corpus).output == result.output  # deterministic


def test_flags_toml_is_a_loadable_engine_file(corpus, tmp_path):
    out = tmp_path / "flags.toml"
    result = run("flags", "2013-07-13", "--format", "toml", "-o", str(out), *corpus)
    assert result.exit_code == 0 and result.output == ""
    data = tomllib.loads(out.read_text())
    assert data["flags"]["legend_rule"] == "controller-chooses"
    # the export is itself a valid engine declaration that agrees with its edition
    check = run("flags", "--check-engine", str(out), "--edition", "2013-07-13", *corpus)
    assert check.exit_code == 0, check.output
    assert "0 disagree" in check.output


def test_flags_python_module_imports(corpus, tmp_path, monkeypatch):
    out = tmp_path / "cr_2019_08_23.py"
    assert run("flags", "2019-08-23", "--format", "python", "-o", str(out), *corpus).exit_code == 0
    monkeypatch.syspath_prepend(str(tmp_path))
    try:
        module = importlib.import_module("cr_2019_08_23")
        assert module.FLAGS.mulligan == "london"
        assert module.FLAGS.pt_switch_sublayer == "7e"
        assert "103.4" in module.PROVENANCE["mulligan"][0]
    finally:
        sys.modules.pop("cr_2019_08_23", None)


def test_timeline_text_json_html(corpus, tmp_path, oldest_date):
    text = run("flags", "--timeline", *corpus)
    assert text.exit_code == 0
    block = text.output.split("\nmana_burn (bool)")[1].split("\n\n")[0]
    assert f"{oldest_date}  true" in block and "2009-07-11  false" in block
    assert "loses 1 life for each" in block
    js = run("flags", "--timeline", "--format", "json", *corpus)
    doc = json.loads(js.output)
    jsonschema.validate(doc, shipped_schema())
    assert doc["editions"][0]["effective_date"] == oldest_date
    assert {"effective_date", "flags"} <= set(doc["editions"][-1])
    page = tmp_path / "flags.html"
    html = run("flags", "--timeline", "--format", "html", "-o", str(page), *corpus)
    assert html.exit_code == 0
    body = page.read_text()
    assert body.startswith("<!DOCTYPE html>") and 'id="legend_rule"' in body
    assert "http://" not in body and "https://" not in body and "<script" not in body
    assert "owners&#39; graveyards" in body or "owners’ graveyards" in body  # autoescaped text
    again = tmp_path / "again.html"
    run("flags", "--timeline", "--format", "html", "-o", str(again), *corpus)
    assert again.read_bytes() == page.read_bytes()


def test_check_engine_reports_disagreements_with_exit_1(corpus, tmp_path):
    engine = tmp_path / "engine.toml"
    engine.write_text(
        "[flags]\nmana_burn = false\ncombat_damage_uses_stack = true\n"
        'legend_rule = "controller-chooses"\n'
    )
    result = run("flags", "--check-engine", str(engine), "--edition", "2009-07-11", *corpus)
    assert result.exit_code == 1
    assert "1 flag(s) agree, 2 disagree" in result.output
    assert "combat_damage_uses_stack: engine says true, edition says false [510.2]" in result.output
    assert "legend_rule: engine says controller-chooses, edition says all-die" in result.output
    old = run(
        "flags",
        "--check-engine",
        str(engine),
        "--edition",
        "2008-10-01",
        "--format",
        "json",
        *corpus,
    )
    assert old.exit_code == 1
    doc = json.loads(old.output)
    assert [d["flag"] for d in doc["disagreements"]] == ["mana_burn", "legend_rule"]
    assert doc["agree"] == ["combat_damage_uses_stack"]
    modern = run("flags", "--check-engine", str(engine), "-e", "2013-07-13", *corpus)
    assert modern.exit_code == 1 and "mana_burn" not in modern.output.split("disagree.")[1]


@pytest.mark.parametrize(
    "args,message",
    [
        (["flags"], "give an EDITION"),
        (["flags", "latest", "--format", "html"], "--format html does not apply to an EDITION"),
        (["flags", "--timeline", "--format", "python"], "does not apply to --timeline"),
        (["flags", "--timeline", "latest"], "give no EDITION"),
    ],
)
def test_usage_errors_exit_2(corpus, args, message):
    result = CliRunner().invoke(main, [*args, *corpus])
    assert result.exit_code == 2
    assert message in result.output


def test_bad_engine_file_is_one_line_with_file_and_line(corpus, tmp_path):
    engine = tmp_path / "engine.toml"
    engine.write_text('[flags]\nmana_burn = false\nmulligan = "oxford"\n')
    result = CliRunner().invoke(
        main, ["flags", "--check-engine", str(engine), "--edition", "latest", *corpus]
    )
    assert result.exit_code == 2
    assert f"rulediff: error: {engine}:3: flag 'mulligan': 'oxford' is not one of" in result.output
    assert "Traceback" not in result.output
