"""``rulediff lineage``: every rule of every edition as one graph, or one rule's family tree."""

from __future__ import annotations

import json
from pathlib import Path

import click

from ..errors import RuleDiffError
from .common import (
    corpus_lineage,
    corpus_options,
    edition_option,
    output_option,
    settings,
    write_output,
)


@click.command("lineage")
@click.argument("rule", required=False)
@click.option(
    "--from",
    "first",
    metavar="EDITION",
    default=None,
    help="Oldest edition of the graph (default: the oldest of the corpus).",
)
@click.option(
    "--to",
    "last",
    metavar="EDITION",
    default=None,
    help="Newest edition of the graph (default: the newest of the corpus).",
)
@edition_option()
@click.option(
    "--format",
    "fmt",
    type=click.Choice(["graphml", "json", "dot", "text"]),
    default=None,
    help="graph: graphml (default), json, dot; RULE: text (default), json, dot.",
)
@click.option("--refs", is_flag=True, help="Also each edition's refers-to and parent-of edges.")
@output_option
@corpus_options
def lineage(
    rule: str | None,
    first: str | None,
    last: str | None,
    edition: str,
    fmt: str | None,
    refs: bool,
    output: Path | None,
) -> None:
    """The lineage of the rules as one graph: nodes RULE@DATE, `becomes` edges between
    consecutive editions (unchanged, edited, renumbered, split, merged).

    With RULE (numbered as in --edition): its family tree, ancestors and descendants
    through renumberings, splits and merges.
    """
    from ..corpus import Corpus
    from ..lineage import graph_dot, graph_graphml, graph_json, lineage_graph

    s = settings()
    if rule is not None:
        _family(rule, edition, fmt or "text", output)
        return
    fmt = fmt or "graphml"
    if fmt == "text":
        raise RuleDiffError("the whole graph is written as graphml, json or dot")
    corpus = Corpus.open(s.corpus_dir, use_cache=s.use_cache)
    infos = corpus.editions()
    a = infos.index(corpus.resolve(first)) if first else 0
    b = infos.index(corpus.resolve(last)) if last else len(infos) - 1
    if a > b:
        raise RuleDiffError(f"--from {first} is newer than --to {last}")
    chosen = infos[a : b + 1]
    lin = corpus_lineage(corpus, chosen)
    editions = (corpus.load(info) for info in chosen)  # one at a time
    graph = lineage_graph(editions, lin, refs=refs)
    writer = {"graphml": graph_graphml, "json": graph_json, "dot": graph_dot}[fmt]
    write_output(writer(graph), output)


def _family(rule: str, edition: str, fmt: str, output: Path | None) -> None:
    from ..lineage import family_tree, graph_dot, tree_text
    from .diff import _check_rule, _edition_index, _lineage

    if fmt == "graphml":
        raise RuleDiffError("a family tree is written as text, json or dot")
    lin, load_date, editions = _lineage()
    k = _edition_index(edition, editions)
    rule_id = _check_rule(load_date(str(editions[k].date)), rule)
    tree = family_tree(lin, rule_id, k)
    if fmt == "json":
        out = json.dumps(tree.as_dict(), ensure_ascii=False, indent=1) + "\n"
    elif fmt == "dot":
        out = graph_dot(tree.graph(), f"family of {rule_id}")
    else:
        out = tree_text(tree)
    write_output(out, output)
