"""Scenario and flags files are checked against a schema: a bad value is one line naming
the field (exit 2), never a crash (exit 3), a hang or a silent coercion."""

from __future__ import annotations

from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.cli import main
from rulediff.engine.scenario import load_scenario
from rulediff.errors import FlagError, ScenarioError
from rulediff.flags.loading import load_flagset

FLAGS = """\
mana_burn = true
mana_empties = "phase"
starting_life = 20
max_hand_size = 7
poison_threshold = 10
"""

GOOD = """\
result = "{life:a}"
[[players]]
id = "a"
hand = 2

[[actions]]
do = "lose-life"
n = 3
"""


def _run(tmp_path: Path, scenario: str, flags: str = FLAGS) -> tuple[int, str, str]:
    (tmp_path / "s.toml").write_text(scenario, encoding="utf-8")
    (tmp_path / "f.toml").write_text(flags, encoding="utf-8")
    result = CliRunner().invoke(
        main, ["engine", "run", str(tmp_path / "s.toml"), "--flags", str(tmp_path / "f.toml")]
    )
    return result.exit_code, result.stdout, result.stderr


def test_a_good_scenario_runs(tmp_path: Path) -> None:
    code, out, err = _run(tmp_path, GOOD)
    assert code == 0, err
    assert "17" in out


@pytest.mark.parametrize(
    "scenario,field",
    [
        ('result = "x"\nactions = 3\n[[players]]\nid = "a"\n', "actions: expected array"),
        ('result = "x"\nchoices = 5\n[[players]]\nid = "a"\n', "choices: expected object"),
        ('result = "x"\nseed = "abc"\n[[players]]\nid = "a"\n', "seed: expected int"),
        ('result = "x"\nexpect = [1]\n[[players]]\nid = "a"\n', "expect[0]: expected object"),
        ('result = "x"\nseed = inf\n[[players]]\nid = "a"\n', "seed: expected int"),
        ('result = "x"\nseed = -1\n[[players]]\nid = "a"\n', "seed: expected int >= 0"),
        ('result = "x"\n[[players]]\nid = "a"\nhand = 100000000\n', "players[0].hand"),
        ('result = "x"\n[[players]]\nid = "a"\nlibrary = 1e300\n', "players[0].library"),
        ('result = "x"\n[[players]]\nid = "a"\nhand = "abc"\n', "players[0].hand"),
        ('result = "x"\n[[players]]\nid = "a"\nlife = true\n', "players[0].life: expected int"),
        ('result = "x"\n[[players]]\nid = 7\n', "players[0].id: expected str"),
        ('result = "x"\n[[players]]\nid = "a"\nlyfe = 3\n', "players[0].lyfe: unknown field"),
        (
            'result = "x"\n[[players]]\nid = "a"\n[[actions]]\ndo = "draw"\nn = "2"\n',
            "actions[0].n: expected int",
        ),
        (
            'result = "x"\n[[players]]\nid = "a"\n[[actions]]\ndo = "draw"\nn = 99999999\n',
            "actions[0].n: expected int <= 10000",
        ),
        (
            'result = "x"\n[[players]]\nid = "a"\n[[expect]]\nresult = "y"\n'
            "when = { mana_burn = { deep = { deeper = 1 } } }\n",
            "expect[0].when",
        ),
        (
            'result = "x"\n[[players]]\nid = "a"\n[[permanents]]\nid = "p"\npower = 1.5\n',
            "permanents[0].power: expected int",
        ),
    ],
)
def test_wrong_types_and_ranges_are_one_line_naming_the_field(
    tmp_path: Path, scenario: str, field: str
) -> None:
    code, out, err = _run(tmp_path, scenario)
    assert code == 2, err
    assert out == ""
    lines = err.splitlines()
    assert len(lines) == 1 and lines[0].startswith(f"rulediff: error: {tmp_path / 's.toml'}")
    assert field in lines[0]


def test_the_error_names_the_line_of_the_field(tmp_path: Path) -> None:
    path = tmp_path / "s.toml"
    path.write_text('result = "x"\n[[players]]\nid = "a"\n[[players]]\nid = "b"\npoison = "lots"\n')
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.line == 6
    assert info.value.message == "players[1].poison: expected int, got str"


def test_deeply_nested_scenario_toml_is_an_error(tmp_path: Path) -> None:
    deep = "[" * 3000 + "]" * 3000
    code, _out, err = _run(tmp_path, f'result = "x"\nchoices = {{ keep = {deep} }}\n')
    assert code == 2 and len(err.splitlines()) == 1, err


def test_scenario_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "s.toml"
    os.mkfifo(fifo)
    with pytest.raises(ScenarioError, match="not a regular file"):
        load_scenario(fifo)


def test_every_shipped_scenario_passes_the_schema() -> None:
    folder = Path(__file__).resolve().parent.parent / "corpus" / "scenarios"
    found = sorted(folder.glob("*.toml"))
    assert len(found) >= 30
    for path in found:
        load_scenario(path)


# --- flags files ---------------------------------------------------------------------------


@pytest.mark.parametrize(
    "text,phrase",
    [
        ('{"mana_burn": ' + "[" * 100_000 + "]" * 100_000 + "}", "nested too deeply"),
        ("x = " + "[" * 5000 + "]" * 5000 + "\n", "nested too deeply"),
        ("starting_life = 100000000000000000000\n", "starting_life: 1000"),
        ("version = inf\nmana_burn = true\n", "version: inf is not a finite number"),
        ("mana_burn = nan\n", "mana_burn"),
        (
            "[provenance.mana_burn]\nrules = [" + ", ".join(['"1"'] * 1001) + "]\n",
            "provenance.mana_burn.rules: more than 1000 items",
        ),
        ("[flags]\nmana_burn = { value = { a = { b = { c = { d = 1 } } } } }\n", "nested deeper"),
        ("planeswalker_types = [" + ", ".join(['"x" '] * 900) + ", 1]\n", "planeswalker_types"),
    ],
)
def test_bad_flags_files_are_flag_errors(tmp_path: Path, text: str, phrase: str) -> None:
    path = tmp_path / ("f.json" if text.startswith("{") else "f.toml")
    path.write_text(text, encoding="utf-8")
    with pytest.raises(FlagError) as info:
        load_flagset(path)
    assert phrase in str(info.value)
    assert len(str(info.value)) < 400


@pytest.mark.parametrize("option", ["--flags", "--check-engine"])
def test_nested_flags_files_through_the_cli_are_exit_2(tmp_path: Path, option: str) -> None:
    path = tmp_path / "f.json"
    path.write_text('{"mana_burn": ' + "[" * 100_000 + "]" * 100_000 + "}", encoding="utf-8")
    scenario = tmp_path / "s.toml"
    scenario.write_text(GOOD, encoding="utf-8")
    args = (
        ["engine", "run", str(scenario), "--flags", str(path)]
        if option == "--flags"
        else [
            "flags",
            "-e",
            str(Path(__file__).parent / "fixtures" / "modern_small.txt"),
            "--check-engine",
            str(path),
        ]
    )
    result = CliRunner().invoke(main, args)
    assert result.exit_code == 2, result.stderr
    assert result.stderr.splitlines() == [
        f"rulediff: error: {path}: invalid JSON: nested too deeply"
    ]
