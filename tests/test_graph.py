"""The reference graph, ``rulediff refs`` and ``rulediff graph``.

The synthetic edition is written for these tests (not CR text).
"""

from __future__ import annotations

import json
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from rulediff.cli import main
from rulediff.graph import (
    DEFINED_IN,
    PARENT_OF,
    REFERS_TO,
    build_graph,
    cited_by,
    cites,
    graph_graphml,
    graph_json,
    links,
)
from rulediff.parse import parse_text

from .conftest import corpus_dates, corpus_edition
from .helpers import edition_text

TOY = edition_text(
    """\
1. Basics

100. General

100.1. A game is played by two or more players. See rules 100.1a–c.

100.1a A two-player game has two players.

Example: Alice wins as rule 101.1 says.

100.1b A team game has teams.

100.1c A free-for-all game has no teams. See rule 100.9.

100.2. Players follow rule 101.1, “Winning.”

101. Winning

101.1. A player with no cards left loses the game. See section 1.
""",
    """\
Deck
The cards a player brings to the game. See rule 100.2, “Players.” A deck is
shuffled (see rule 101.1).
""",
)


@pytest.fixture(scope="module")
def toy_graph() -> nx.DiGraph:
    return build_graph(parse_text(TOY))


def kind(graph: nx.DiGraph, source: str, target: str) -> str:
    return str(graph.edges[source, target]["kind"])


def test_nodes_in_document_order_with_kinds(toy_graph: nx.DiGraph) -> None:
    assert list(toy_graph.nodes) == [
        "1", "100", "100.1", "100.1a", "100.1b", "100.1c", "100.2", "101", "101.1",
        "glossary:Deck", "100.9",
    ]  # fmt: skip
    assert toy_graph.nodes["1"]["kind"] == "section"
    assert toy_graph.nodes["100"]["title"] == "General"
    assert toy_graph.nodes["100.1a"]["kind"] == "subrule"
    assert toy_graph.nodes["glossary:Deck"]["kind"] == "glossary"
    assert toy_graph.nodes["100.9"]["kind"] == "missing"  # cited, not in the edition


def test_edges_parent_refers_defined(toy_graph: nx.DiGraph) -> None:
    assert kind(toy_graph, "1", "100") == PARENT_OF
    assert kind(toy_graph, "100", "100.1") == PARENT_OF
    # 100.1 is the parent of 100.1a–c and cites them: both kinds on one edge
    assert kind(toy_graph, "100.1", "100.1b") == f"{PARENT_OF} {REFERS_TO}"
    assert kind(toy_graph, "100.1a", "101.1") == REFERS_TO  # from an example
    assert kind(toy_graph, "101.1", "1") == REFERS_TO  # a section
    assert kind(toy_graph, "100.1c", "100.9") == REFERS_TO
    # the glossary's "See rule …" sentence defines; "(see rule …)" in passing refers
    assert kind(toy_graph, "glossary:Deck", "100.2") == DEFINED_IN
    assert kind(toy_graph, "glossary:Deck", "101.1") == REFERS_TO
    assert toy_graph.edges["100.1a", "101.1"]["count"] == 1
    assert not toy_graph.has_edge("100", "101")  # siblings are not linked


def test_cites_and_cited_by(toy_graph: nx.DiGraph) -> None:
    assert cites(toy_graph, "100.1") == ["100.1a", "100.1b", "100.1c"]
    assert cited_by(toy_graph, "101.1") == ["100.1a", "100.2", "glossary:Deck"]
    assert cited_by(toy_graph, "100.1a") == ["100.1"]  # parent-of alone does not count


def test_links_for_refs() -> None:
    edition = parse_text(TOY)
    found = links(edition, "101.1")
    assert found.exists and found.title == ""
    assert [(x.node, x.kind, x.where) for x in found.cited_by] == [
        ("100.1a", REFERS_TO, "example 1"),
        ("100.2", REFERS_TO, "text"),
        ("glossary:Deck", REFERS_TO, "glossary"),
    ]
    deck = links(edition, "glossary:Deck")
    assert [(x.node, x.kind) for x in deck.cites] == [("100.2", DEFINED_IN), ("101.1", REFERS_TO)]
    missing = links(edition, "100.9")
    assert not missing.exists and [x.node for x in missing.cited_by] == ["100.1c"]


def test_exports_are_deterministic(toy_graph: nx.DiGraph) -> None:
    again = build_graph(parse_text(TOY))
    assert graph_json(toy_graph) == graph_json(again)
    assert graph_graphml(toy_graph) == graph_graphml(again)
    doc = json.loads(graph_json(toy_graph))
    assert doc["edition"] == "2031-03-03"
    assert {"source": "glossary:Deck", "target": "100.2", "kind": DEFINED_IN, "count": 1} in doc[
        "edges"
    ]
    read_back = nx.parse_graphml(graph_graphml(toy_graph))
    assert set(read_back.edges) == set(toy_graph.edges)


def _cli(*args: str, tmp_path: Path) -> tuple[int, str, str]:
    path = tmp_path / "toy.txt"
    path.write_text(TOY, encoding="utf-8")
    result = CliRunner().invoke(main, [*(a.replace("TOY", str(path)) for a in args)])
    return result.exit_code, result.stdout, result.stderr


def test_refs_command(tmp_path: Path) -> None:
    code, out, _ = _cli("refs", "101.1", "--edition", "TOY", tmp_path=tmp_path)
    assert code == 0
    assert "cited by (3):" in out and "glossary:Deck" in out and "example 1" in out
    code, out, _ = _cli("refs", "deck", "-e", "TOY", "--format", "json", tmp_path=tmp_path)
    assert code == 0 and json.loads(out)["node"] == "glossary:Deck"
    code, _, err = _cli("refs", "555.5", "-e", "TOY", tmp_path=tmp_path)
    assert code == 2 and "no rule 555.5" in err
    code, _, err = _cli("refs", "no such term", "-e", "TOY", tmp_path=tmp_path)
    assert code == 2 and "neither a rule number" in err


def test_graph_command(tmp_path: Path) -> None:
    code, out, _ = _cli("graph", "-e", "TOY", "--format", "graphml", tmp_path=tmp_path)
    assert code == 0 and out.startswith("<graphml")
    out_file = tmp_path / "g.json"
    code, _, _ = _cli("graph", "-e", "TOY", "-o", str(out_file), tmp_path=tmp_path)
    assert code == 0 and json.loads(out_file.read_text())["nodes"][0]["id"] == "1"


# --- the real corpus -------------------------------------------------------------------------
def test_newest_edition_graph() -> None:
    edition = corpus_edition(corpus_dates()[-1])
    graph = build_graph(edition)
    assert graph.number_of_nodes() >= len(edition.rules) + len(edition.glossary)
    # every rule but the section headings' children hangs from its parent
    parents = sum(1 for _, _, d in graph.edges(data=True) if PARENT_OF in d["kind"].split())
    assert parents == len(edition.rules)
    # state-based actions are cited from many places, the glossary included
    backlinks = cited_by(graph, "704")
    assert len(backlinks) > 20 and "glossary:State-Based Actions" in backlinks
    assert kind(graph, "glossary:State-Based Actions", "704") == DEFINED_IN
