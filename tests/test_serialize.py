"""The one serializer of the frozen records (rulediff/serialize.py)."""

from __future__ import annotations

import datetime as dt
import json
from dataclasses import dataclass
from pathlib import Path

import pytest

from rulediff.clauses import parse_clauses
from rulediff.model import Clause, Diagnostic, RuleId
from rulediff.serialize import Out, is_empty, is_none, to_data


@dataclass(frozen=True, slots=True)
class Inner:
    when: dt.date
    rule: RuleId


@dataclass(frozen=True, slots=True)
class Plain:
    name: str
    items: tuple[Inner, ...]
    where: Path
    counts: dict[str, int]


@dataclass(frozen=True, slots=True)
class Tuned:
    name: str
    note: str | None
    tags: tuple[str, ...]

    __json_fields__ = (
        Out("label", "name"),
        Out("note", omit=is_none),
        Out("tags", omit=is_empty),
        Out("size", lambda t: len(t.tags)),
        "upper",
    )

    @property
    def upper(self) -> str:
        return self.name.upper()


def test_fields_in_declaration_order_tuples_as_lists_and_text_values() -> None:
    value = Plain(
        "x",
        (Inner(dt.date(2015, 1, 23), RuleId.parse("702.36e")),),
        Path("a/b.txt"),
        {"z": 1, "a": 2},
    )
    data = to_data(value)
    assert list(data) == ["name", "items", "where", "counts"]
    assert data["items"] == [{"when": "2015-01-23", "rule": "702.36e"}]
    assert data["where"] == "a/b.txt"
    assert list(data["counts"]) == ["z", "a"]  # mapping order kept
    json.dumps(data)  # JSON-ready


def test_declared_fields_rename_omit_and_derive() -> None:
    assert to_data(Tuned("ab", None, ())) == {"label": "ab", "size": 0, "upper": "AB"}
    assert list(to_data(Tuned("ab", "n", ("t",)))) == ["label", "note", "tags", "size", "upper"]


def test_unknown_values_are_refused() -> None:
    with pytest.raises(TypeError, match="set"):
        to_data({"a": {1, 2}})


def test_diagnostic_keeps_its_key_order() -> None:
    diag = Diagnostic("malformed-number", "warning", "bad", line=3, rule="100.1")
    assert list(diag.as_dict()) == [
        "code",
        "severity",
        "rule",
        "target",
        "message",
        "suggestion",
        "line",
    ]


def test_clause_is_compact_and_nested() -> None:
    text = 'See rule 704.5j and rule 702.36, "Morph."'
    clauses = parse_clauses(text)
    data = [c.as_dict() for c in clauses]
    refs = [c for c in clauses if c.references]
    assert refs, "the sample cites rules"
    found = [d for d in data if "targets" in d]
    assert [d["targets"] for d in found] == [[r.target for r in c.references] for c in refs]
    for d, c in zip(data, clauses, strict=True):
        assert list(d)[:3] == ["kind", "start", "end"]
        assert ("value" in d) == (c.value is not None)
        assert ("children" in d) == bool(c.children)
    leaf = Clause("text", 0, 3)
    assert leaf.as_dict() == {"kind": "text", "start": 0, "end": 3}
