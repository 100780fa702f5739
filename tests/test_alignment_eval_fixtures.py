"""The blind alignment-evaluation files are well formed against the parsed editions.

They are the answer key of the precision/recall test, so a typo in an id, an unknown
relation or a removed rule that still lists a counterpart would silently skew it.
"""

from __future__ import annotations

import tomllib
from pathlib import Path

import pytest

from tests.conftest import FIXTURES, corpus_edition

EVAL_DIR = FIXTURES / "alignment_eval"
RELATIONS = {
    "unchanged", "edited", "renumbered", "renumbered-edited",
    "split", "merged", "removed", "added", "undetermined",
}
NO_COUNTERPART = {"removed", "added", "undetermined"}


def _eval_files() -> list[Path]:
    return sorted(EVAL_DIR.glob("*.toml"))


def test_eval_files_exist() -> None:
    assert _eval_files(), f"no evaluation files in {EVAL_DIR}"


@pytest.mark.parametrize("path", _eval_files(), ids=lambda p: p.stem)
def test_eval_file_is_consistent(path: Path) -> None:
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert path.stem == f"{data['old']}_{data['new']}"
    editions = {"old": corpus_edition(data["old"]), "new": corpus_edition(data["new"])}
    seen: set[tuple[str, str]] = set()
    for entry in data["rule"]:
        side, rule_id, relation = entry["side"], entry["id"], entry["relation"]
        other = "new" if side == "old" else "old"
        where = f"{path.name}: {side} {rule_id}"
        assert (side, rule_id) not in seen, f"{where}: listed twice"
        seen.add((side, rule_id))
        assert relation in RELATIONS, f"{where}: unknown relation {relation!r}"
        assert entry["reason"].strip(), f"{where}: no reason"
        assert rule_id in editions[side], f"{where}: no such rule in {data[side]}"
        for cp in entry["counterparts"] + entry.get("moved_text", []):
            assert cp in editions[other], f"{where}: counterpart {cp} not in {data[other]}"
        if relation in NO_COUNTERPART:
            assert entry["counterparts"] == [], f"{where}: {relation} with counterparts"
        else:
            assert entry["counterparts"], f"{where}: {relation} without counterparts"
        if relation == "removed":
            assert side == "old", f"{where}: removed is for old rules"
        if relation == "added":
            assert side == "new", f"{where}: added is for new rules"
        if relation == "split" and side == "old":
            assert len(entry["counterparts"]) > 1, f"{where}: split into one rule"
