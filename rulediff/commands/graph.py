"""``rulediff graph``: the reference graph of one edition as GraphML or JSON."""

from __future__ import annotations

from pathlib import Path

import click

from ..graph import build_graph, graph_graphml, graph_json
from .common import corpus_options, edition_option, format_option, load, output_option, write_output


@click.command("graph")
@edition_option()
@format_option(
    "graphml",
    "json",
    default="json",
    help="graphml for Gephi, yEd, networkx…; json: {edition, sha256, nodes, edges}.",
)
@output_option
@corpus_options
def graph(edition: str, fmt: str, output: Path | None) -> None:
    """Write the reference graph of an edition: sections, rules and glossary terms, with
    parent-of, refers-to and defined-in edges (same input, same bytes)."""
    g = build_graph(load(edition))
    write_output(graph_graphml(g) if fmt == "graphml" else graph_json(g), output)
