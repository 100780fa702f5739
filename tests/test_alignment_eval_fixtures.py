"""The blind alignment evaluation sets (tests/fixtures/alignment_eval/*.toml) are well formed.

Each file names two corpus editions; every sampled id must exist on its side and every
counterpart on the other side, relations must come from the shared vocabulary and agree
with the ids, and no reason may quote ten or more consecutive words of either edition.
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
import tomllib

from tests.conftest import FIXTURES, corpus_edition

EVAL_DIR = FIXTURES / "alignment_eval"
EVAL_FILES = sorted(EVAL_DIR.glob("*.toml"))
RELATIONS = {
    "unchanged",
    "edited",
    "renumbered",
    "renumbered-edited",
    "split",
    "merged",
    "removed",
    "added",
    "undetermined",
}
_WORD = re.compile(r"[a-z0-9]+")


def _load(path: Path) -> dict:
    with path.open("rb") as f:
        return tomllib.load(f)


def _ngrams(text: str, n: int = 10) -> set[tuple[str, ...]]:
    words = _WORD.findall(text.lower())
    return {tuple(words[i : i + n]) for i in range(len(words) - n + 1)}


def test_there_are_eval_files() -> None:
    assert len(EVAL_FILES) >= 3


@pytest.mark.parametrize("path", EVAL_FILES, ids=lambda p: p.stem)
def test_file_name_and_header(path: Path) -> None:
    data = _load(path)
    assert path.stem == f"{data['old']}_{data['new']}"
    assert data["rule"], "no sampled rules"


@pytest.mark.parametrize("path", EVAL_FILES, ids=lambda p: p.stem)
def test_ids_exist_and_relations_agree(path: Path) -> None:
    data = _load(path)
    editions = {"old": corpus_edition(data["old"]), "new": corpus_edition(data["new"])}
    seen: set[tuple[str, str]] = set()
    for entry in data["rule"]:
        side, rule_id, relation = entry["side"], entry["id"], entry["relation"]
        other = "new" if side == "old" else "old"
        where = f"{path.name}: {side} {rule_id}"
        assert side in editions, where
        assert (side, rule_id) not in seen, f"{where}: sampled twice"
        seen.add((side, rule_id))
        assert relation in RELATIONS, where
        assert entry["reason"].strip(), where
        assert editions[side].rule(rule_id) is not None, f"{where}: no such rule"
        counterparts = entry["counterparts"]
        for cp in counterparts + entry.get("moved_text", []):
            assert editions[other].rule(cp) is not None, f"{where}: no {other} rule {cp}"
        if relation in ("removed", "added", "undetermined"):
            assert counterparts == [], where
        if relation == "removed":
            assert side == "old", where
        if relation == "added":
            assert side == "new", where
        if relation in ("unchanged", "edited"):
            assert counterparts == [rule_id], where
        if relation in ("renumbered", "renumbered-edited"):
            assert len(counterparts) == 1 and counterparts[0] != rule_id, where
        if relation == "split" and side == "old":
            assert len(counterparts) >= 2, where
        if relation == "merged" and side == "old":
            assert len(counterparts) == 1, where


@pytest.mark.parametrize("path", EVAL_FILES, ids=lambda p: p.stem)
def test_no_rules_text_quoted(path: Path) -> None:
    data = _load(path)
    grams: set[tuple[str, ...]] = set()
    for date in (data["old"], data["new"]):
        for rule in corpus_edition(date).rules:
            grams |= _ngrams(rule.text)
    quoted = _ngrams(path.read_text(encoding="utf-8")) & grams
    assert not quoted, f"{path.name} quotes the CR: {sorted(quoted)[:3]}"
