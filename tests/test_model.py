"""RuleId parsing and ordering; Edition lookups."""

from __future__ import annotations

import pickle

import pytest

from rulediff.model import RuleId, letter_index, next_letters
from rulediff.parse import parse_file

from .conftest import FIXTURES


@pytest.mark.parametrize(
    "text,depth,parent",
    [
        ("7", 0, None),
        ("702", 1, "7"),
        ("702.36", 2, "702"),
        ("702.36e", 3, "702.36"),
        ("119.1d.", 3, "119.1"),
        ("100.10", 2, "100"),
    ],
)
def test_rule_id_parse_depth_and_parent(text: str, depth: int, parent: str | None) -> None:
    rid = RuleId.parse(text)
    assert rid.depth == depth
    assert (str(rid.parent) if rid.parent else None) == parent


def test_rule_id_document_order() -> None:
    ordered = ["1", "100", "100.1", "100.1a", "100.1k", "100.1m", "100.2", "100.10", "2", "200"]
    shuffled = sorted(ordered, key=lambda s: hash(s) % 7)
    assert [str(r) for r in sorted(RuleId.parse(s) for s in shuffled)] == ordered


def test_rule_id_rejects_garbage() -> None:
    for bad in ["", "70", "7022", "702.a", "abc", "702.36E"]:
        assert RuleId.try_parse(bad) is None
        with pytest.raises(ValueError):
            RuleId.parse(bad)


def test_subrule_letters_skip_l_and_o() -> None:
    assert next_letters("k") == "m"
    assert next_letters("n") == "p"
    assert next_letters("z") == "aa"
    # l sorts between k and m even though the CR never uses it
    assert letter_index("k") < letter_index("l") < letter_index("m")


def test_ancestors_chain() -> None:
    assert [str(a) for a in RuleId.parse("702.36e").ancestors()] == ["702.36", "702", "7"]


def test_edition_lookups() -> None:
    ed = parse_file(FIXTURES / "modern_small.txt")
    assert ed.rule("100.1b").text.startswith("A crowd game")
    assert ed.rule(RuleId.parse("100.1b")) is ed.rule("100.1b")
    assert "100.1b" in ed and "100.9" not in ed
    assert [str(r.id) for r in ed.children("100.1")] == ["100.1a", "100.1b"]
    assert [str(r.id) for r in ed.children("1")] == ["100", "101"]
    assert [str(r.id) for r in ed.children("100")] == ["100.1", "100.2", "100.10"]
    assert ed.glossary_entry("crowd GAME").term == "Crowd Game"
    assert ed.glossary_entry("nothing") is None
    assert ed.section(2).title == "Extras"
    assert [s.title for s in ed.sections] == ["Basics", "Extras"]


def test_edition_pickles_without_its_lookup_index() -> None:
    ed = parse_file(FIXTURES / "modern_small.txt")
    ed.rule("100.1")  # fill the lazy index
    copy = pickle.loads(pickle.dumps(ed))
    assert copy == ed
    assert copy.to_text() == ed.to_text()
    assert copy.rule("100.1a") == ed.rule("100.1a")
