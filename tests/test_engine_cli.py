"""``rulediff engine run|compare|list`` as a user runs them."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.cli import main

from .flags_helpers import OLD_SCHOOL_TOML


def invoke(*args: str, corpus: Path | None = None) -> tuple[int, str, str]:
    runner = CliRunner()
    extra = ["--corpus", str(corpus)] if corpus else []
    res = runner.invoke(main, [*extra, *args])
    return res.exit_code, res.stdout, res.stderr


def test_run_json_under_an_edition(corpus_dir: Path) -> None:
    code, out, _ = invoke("engine", "run", "mana-burn", "--edition", "2001-09-24",
                          "--format", "json", corpus=corpus_dir)
    assert code == 0
    doc = json.loads(out)
    assert list(doc) == ["scenario", "edition", "result", "log"]
    assert doc["edition"] == "2001-09-24" and doc["result"] == "life=17"
    # 2001: rule 300.4 says unused mana is lost as a phase ends and burns.
    burn = [e for e in doc["log"] if e["text"].startswith("mana burn")]
    assert burn and burn[0]["rules"] == ["300.4"]


def test_run_text_cites_that_editions_numbers(corpus_dir: Path) -> None:
    code, out, _ = invoke("engine", "run", "legend-same-controller", "-e", "2024-11-08",
                          corpus=corpus_dir)
    assert code == 0
    assert "result:   isamaru-2" in out
    assert "[704.5j]" in out  # the legend rule's number in that edition
    code, out, _ = invoke("engine", "run", "legend-same-controller", "-e", "2009-07-11",
                          corpus=corpus_dir)
    assert "result:   " in out and "[704.5k]" in out


def test_run_is_deterministic(corpus_dir: Path) -> None:
    first = invoke("engine", "run", "mulligan-twice", "-e", "latest", "--format", "json",
                   corpus=corpus_dir)
    assert first == invoke("engine", "run", "mulligan-twice", "-e", "latest", "--format",
                           "json", corpus=corpus_dir)


def test_run_under_hand_written_flags(tmp_path: Path) -> None:
    flags = tmp_path / "old-school.toml"
    flags.write_text(OLD_SCHOOL_TOML, encoding="utf-8")
    code, out, err = invoke("engine", "run", "pt-switch-then-pump", "--flags", str(flags),
                            "--format", "json")
    assert code == 0, err
    doc = json.loads(out)
    assert doc["result"] == "9/1" and doc["edition"] == str(flags)
    assert all(e["rules"] == [] for e in doc["log"])  # no edition, nothing to cite


def test_hand_written_flags_missing_a_needed_flag(tmp_path: Path) -> None:
    flags = tmp_path / "partial.toml"
    flags.write_text('mana_burn = true\nstarting_life = 20\n', encoding="utf-8")
    code, out, err = invoke("engine", "run", "mana-across-steps", "--flags", str(flags))
    assert code == 2 and out == ""
    assert err.startswith("rulediff: error: ") and "mana_empties" in err
    assert len(err.strip().splitlines()) == 1


def test_bad_flags_file_is_one_line(tmp_path: Path) -> None:
    flags = tmp_path / "bad.toml"
    flags.write_text('mana_burn = "sometimes"\n', encoding="utf-8")
    code, _, err = invoke("engine", "run", "mana-burn", "--flags", str(flags))
    assert code == 2 and str(flags) in err and len(err.strip().splitlines()) == 1


def test_unknown_scenario(tmp_path: Path) -> None:
    code, out, err = invoke("engine", "run", "no-such-scenario", "--flags", "x.toml")
    assert code == 2 and out == "" and "unknown scenario" in err
    bad = tmp_path / "broken.toml"
    bad.write_text('result = "{pt:x}"\n[[players]]\nid = "a"\n[[actions]]\ndo = "nope"\n')
    code, _, err = invoke("engine", "run", str(bad), "--flags", "x.toml")
    assert code == 2 and f"{bad}:4:" in err


def test_compare_collapses_editions_into_runs(corpus_dir: Path, oldest_date: str) -> None:
    code, out, _ = invoke("engine", "compare", "damage-order", "--format", "json",
                          "--check", corpus=corpus_dir)
    assert code == 0
    runs = json.loads(out)["runs"]
    assert [r["result"] for r in runs] == ["legal", "illegal", "legal"]
    assert runs[0]["first"] == oldest_date and runs[1]["first"] == "2009-07-11"
    assert runs[2]["first"] == "2024-11-08"
    assert sum(r["count"] for r in runs) == len(list(corpus_dir.glob("*.txt")))
    assert all(r["unexpected"] == [] for r in runs)
    code, out, _ = invoke("engine", "compare", "mana-burn", corpus=corpus_dir)
    assert code == 0
    lines = out.splitlines()
    assert lines[1].startswith(f"  {oldest_date} .. 2009-05-01  'life=17'")
    assert lines[2].startswith("  2009-07-11 .. ")


def test_compare_shows_undetermined_editions(corpus_dir: Path) -> None:
    code, out, _ = invoke("engine", "compare", "cleanup-end-turn", "--check", corpus=corpus_dir)
    assert code == 0
    assert "'undetermined: cleanup_repeats_after_end_turn'" in out.splitlines()[1]


def test_list() -> None:
    code, out, _ = invoke("engine", "list")
    assert code == 0 and "mana-burn" in out.split()


@pytest.mark.parametrize("fmt", ["text", "json"])
def test_output_file_is_written_atomically(tmp_path: Path, fmt: str) -> None:
    flags = tmp_path / "old.toml"
    flags.write_text(OLD_SCHOOL_TOML, encoding="utf-8")
    target = tmp_path / f"out.{fmt}"
    code, out, _ = invoke("engine", "run", "mana-burn", "--flags", str(flags), "--format", fmt,
                          "-o", str(target))
    assert code == 0 and out == ""
    assert "life=17" in target.read_text(encoding="utf-8")
    assert [p.name for p in tmp_path.iterdir() if p.name.startswith(".")] == []
