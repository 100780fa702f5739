"""The corpus grows several times a year: a new edition must simply appear everywhere.

A copy of the real corpus gains a synthetic "next" edition (the newest text with a later
date line and one rule edited); every corpus-wide command succeeds and includes it. The
rest of the suite also runs on such a copy: see tests/grown_corpus.py.
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.cli import main
from rulediff.corpus import Corpus

from .grown_corpus import ADDED, grow


@pytest.fixture(scope="module")
def grown(corpus_dir: Path, tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, str, str]:
    """A copy of the corpus plus the synthetic next edition: (folder, its date, rule id)."""
    return grow(corpus_dir, tmp_path_factory.mktemp("grown"))


def cli(*args: str) -> str:
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, (args, result.stderr)
    return result.stdout


def test_corpus_list_includes_the_new_edition(grown, corpus_dir) -> None:
    folder, date, _ = grown
    doc = json.loads(cli("corpus", "list", "--format", "json", "--corpus", str(folder)))
    dates = [e["date"] for e in doc["editions"]]
    assert dates[-1] == date
    assert len(dates) == len(list(corpus_dir.glob("*.txt"))) + 1
    newest = doc["editions"][-1]
    assert newest["official"] is False and newest["set_code"] is None
    assert ADDED in cli("show", "100.1", "-e", "latest", "--corpus", str(folder))


def test_flags_timeline_includes_the_new_edition(grown) -> None:
    folder, date, _ = grown
    doc = json.loads(cli("flags", "--timeline", "--format", "json", "--corpus", str(folder)))
    last, before = doc["editions"][-1], doc["editions"][-2]
    assert last["effective_date"] == date
    assert last["flags"] == before["flags"]  # one sentence added changes no behaviour


def test_audit_all_includes_the_new_edition(grown) -> None:
    folder, date, _ = grown
    table = cli("audit", "--all", "--corpus", str(folder))
    assert date in table


def test_engine_compare_includes_the_new_edition(grown, corpus_dir) -> None:
    folder, date, _ = grown
    doc = json.loads(
        cli("engine", "compare", "mana-burn", "--format", "json", "--check", "--corpus",
            str(folder))
    )
    runs = doc["runs"]
    assert sum(r["count"] for r in runs) == len(list(corpus_dir.glob("*.txt"))) + 1
    assert runs[-1]["last"] == date


def test_diff_and_site_include_the_new_edition(grown, tmp_path: Path) -> None:
    folder, date, rule_id = grown
    editions = Corpus.open(folder).editions()
    previous = editions[-2].date.isoformat()
    doc = json.loads(cli("diff", previous, date, "--format", "json", "--corpus", str(folder)))
    changed = [c for c in doc["changes"] if c["kind"] != "unchanged" and c["domain"] == "rule"]
    assert [(c["old_ids"], c["new_ids"], c["kind"]) for c in changed] == [
        ([rule_id], [rule_id], "edited")
    ]
    out = tmp_path / "site"
    cli("site", "-o", str(out), "--corpus", str(folder))
    index = (out / "index.html").read_text(encoding="utf-8")
    assert date in index
    pages = [p.name for p in out.rglob("*.html")]
    assert any(date in name for name in pages), "no page names the new edition"
