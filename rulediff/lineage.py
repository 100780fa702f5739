"""The whole corpus as one lineage graph (networkx), and the family tree of one rule.

Nodes are ``RULE@DATE`` (``702.36d@2015-01-23``): one per rule of every edition, with its
title and a digest of its text. ``becomes`` edges join consecutive editions, from the
alignment chained by :mod:`rulediff.history` (so improvements of the aligner flow in):
``kind`` is ``unchanged``, ``edited``, ``renumbered``, ``split`` or ``merged``
(``change`` keeps the aligner's own kind, e.g. ``renumbered-edited``, ``references-only``).
With ``refs`` each edition's ``refers-to`` / ``parent-of`` / ``defined-in`` edges of
:func:`rulediff.graph.build_graph` are added between that edition's nodes.

>>> g = lineage_graph(editions, lineage)                        # doctest: +SKIP
>>> g.edges["702.36d@2015-01-23", "702.36e@2015-03-27"]["kind"]  # doctest: +SKIP
'renumbered'
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from typing import Any
from xml.sax.saxutils import escape as xml_escape
from xml.sax.saxutils import quoteattr

import networkx as nx

from .history import Lineage, RuleHistory, Step
from .model import Edition
from .serialize import Out, to_data

BECOMES = "becomes"

#: The aligner's kind → the kind of a ``becomes`` edge.
EDGE_KIND: dict[str, str] = {
    "unchanged": "unchanged",
    "edited": "edited",
    "editorial": "edited",
    "references-only": "edited",
    "renumbered": "renumbered",
    "renumbered-edited": "renumbered",
    "split": "split",
    "merged": "merged",
}


def node_id(rule_id: str, date: str) -> str:
    """``702.36d@2015-01-23``."""
    return f"{rule_id}@{date}"


def text_digest(text: str) -> str:
    """16 hex digits of the sha256 of a rule's text."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()[:16]


def step_edges(step: Step, old_ids: Sequence[str]) -> list[tuple[str, str, str, str, float]]:
    """``(old id, new id, kind, aligner kind, score)`` for every rule of the older
    edition that continues into the newer one (removed rules have none)."""
    out = []
    for old_id in old_ids:
        change = step.for_old(old_id)
        if change is None:
            out.append((old_id, old_id, "unchanged", "unchanged", 100.0))
            continue
        kind = EDGE_KIND.get(change.kind)
        if kind is None:  # removed (or added, which has no old side)
            continue
        for new_id in change.new_ids_of(old_id):
            out.append((old_id, new_id, kind, change.kind, round(change.score, 1)))
    return out


def lineage_graph(
    editions: Iterable[Edition],
    lineage: Lineage,
    *,
    refs: bool = False,
    reference_graph: Callable[[Edition], nx.DiGraph] | None = None,
) -> nx.DiGraph:
    """One graph of every rule of ``editions`` (the editions of ``lineage``, oldest
    first), joined by ``becomes`` edges; with ``refs``, each edition's reference edges.

    ``editions`` may be a generator: each edition is used once, in order, and dropped
    (the whole corpus never needs to be in memory at once).
    """
    graph = nx.DiGraph(
        format="rulediff-lineage",
        first=lineage.editions[0].date if lineage.editions else "",
        last=lineage.editions[-1].date if lineage.editions else "",
    )
    if refs and reference_graph is None:
        from .graph import build_graph as reference_graph
    previous: list[str] = []
    present: set[str] = set()
    count = 0
    for k, edition in enumerate(editions):
        count += 1
        if k >= len(lineage.editions) or edition.date_text != lineage.editions[k].date:
            raise ValueError("the editions and the lineage must cover the same editions")
        date = edition.date_text
        ids: list[str] = []
        nodes = []
        for rule in edition.rules:
            key = str(rule.id)
            node = f"{key}@{date}"
            if node in present:
                continue  # a duplicated number: the first one is the node
            present.add(node)
            nodes.append(
                (
                    node,
                    {
                        "edition": date,
                        "rule": key,
                        "kind": rule.kind,
                        "title": rule.title or "",
                        "digest": text_digest(rule.text),
                    },
                )
            )
            ids.append(key)
        graph.add_nodes_from(nodes)  # in bulk: networkx's per-call overhead dominates
        if k > 0:
            step = lineage.steps[k - 1]
            old_date = step.old.date
            graph.add_edges_from(
                (
                    f"{old_id}@{old_date}",
                    f"{new_id}@{date}",
                    {"kind": kind, "relation": BECOMES, "change": change, "score": score},
                )
                for old_id, new_id, kind, change, score in step_edges(step, previous)
                if f"{new_id}@{date}" in present
            )
        if refs:
            assert reference_graph is not None
            _add_references(graph, edition, reference_graph(edition))
        previous = ids
    if count != len(lineage.editions):
        raise ValueError("the editions and the lineage must cover the same editions")
    return graph


def _add_references(graph: nx.DiGraph, edition: Edition, refs: nx.DiGraph) -> None:
    date = edition.date_text
    for node, data in refs.nodes(data=True):
        key = node_id(node, date)
        if key not in graph:
            graph.add_node(
                key,
                edition=date,
                rule=node,
                kind=data.get("kind", ""),
                title=data.get("title", ""),
                digest="",
            )
    for source, target, data in refs.edges(data=True):
        graph.add_edge(
            node_id(source, date),
            node_id(target, date),
            kind=data["kind"],
            relation="reference",
            change="",
            score=0.0,
        )


# --- exports ----------------------------------------------------------------------------


def graph_json(graph: nx.DiGraph) -> str:
    """``{"format", "first", "last", "nodes": [{"id", …}], "edges": [{"source", "target",
    "kind", …}]}``, in build order (deterministic)."""
    doc = {
        "format": "rulediff-lineage",
        "version": 1,
        "first": graph.graph.get("first", ""),
        "last": graph.graph.get("last", ""),
        "nodes": [{"id": n, **d} for n, d in graph.nodes(data=True)],
        "edges": [{"source": s, "target": t, **d} for s, t, d in graph.edges(data=True)],
    }
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


_GRAPHML_TYPES = ((bool, "boolean"), (int, "long"), (float, "double"), (str, "string"))


def _graphml_keys(items: Iterable[dict[str, Any]]) -> dict[str, str]:
    keys: dict[str, str] = {}
    for data in items:
        for name, value in data.items():
            if name not in keys:
                keys[name] = next(t for cls, t in _GRAPHML_TYPES if isinstance(value, cls))
    return keys


def iter_graphml(graph: nx.DiGraph) -> Iterator[str]:
    """GraphML, line by line, without building an XML tree of the whole graph (the
    networkx writer holds one: > 2 GB for the whole corpus). ``nx.read_graphml`` reads it."""
    node_keys = _graphml_keys(d for _, d in graph.nodes(data=True))
    edge_keys = _graphml_keys(d for _, _, d in graph.edges(data=True))
    yield '<?xml version="1.0" encoding="utf-8"?>'
    yield '<graphml xmlns="http://graphml.graphdrawing.org/xmlns">'
    ids: dict[tuple[str, str], str] = {}
    for domain, keys in (("node", node_keys), ("edge", edge_keys)):
        for name, kind in keys.items():
            ids[(domain, name)] = key = f"d{len(ids)}"
            yield (
                f'  <key id="{key}" for="{domain}" attr.name={quoteattr(name)} attr.type="{kind}"/>'
            )
    yield '  <graph edgedefault="directed">'

    def data(domain: str, values: dict[str, Any]) -> str:
        out = []
        for name, value in values.items():
            text = str(value).lower() if isinstance(value, bool) else str(value)
            out.append(f'<data key="{ids[(domain, name)]}">{xml_escape(text)}</data>')
        return "".join(out)

    for node, values in graph.nodes(data=True):
        yield f"    <node id={quoteattr(str(node))}>{data('node', values)}</node>"
    for source, target, values in graph.edges(data=True):
        yield (
            f"    <edge source={quoteattr(str(source))} target={quoteattr(str(target))}>"
            f"{data('edge', values)}</edge>"
        )
    yield "  </graph>"
    yield "</graphml>"


def graph_graphml(graph: nx.DiGraph) -> str:
    return "\n".join(iter_graphml(graph)) + "\n"


def _dot_id(text: str) -> str:
    return '"' + text.replace("\\", "\\\\").replace('"', '\\"').replace("\n", " ") + '"'


def graph_dot(graph: nx.DiGraph, name: str = "lineage") -> str:
    """Graphviz DOT (written here: no pydot/pygraphviz needed)."""
    lines = [f"digraph {_dot_id(name)} {{", "  rankdir=LR;", "  node [shape=box];"]
    for node, data in graph.nodes(data=True):
        label = data.get("label") or node
        attrs = [f"label={_dot_id(str(label))}"]
        if data.get("title"):
            attrs.append(f"tooltip={_dot_id(str(data['title']))}")
        lines.append(f"  {_dot_id(node)} [{', '.join(attrs)}];")
    for source, target, data in graph.edges(data=True):
        lines.append(
            f"  {_dot_id(source)} -> {_dot_id(target)} [label={_dot_id(str(data['kind']))}];"
        )
    lines.append("}")
    return "\n".join(lines) + "\n"


# --- the family tree of one rule -----------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Segment:
    """A stretch of editions in which the rule kept one number (its text may change)."""

    key: str
    """``RULE@FIRST-DATE``: the node id where the stretch starts."""
    rule: str
    first: str
    last: str
    edited: tuple[str, ...] = ()
    """Editions in which its text changed without a new number."""
    partner: bool = False
    """Only a split's or merge's other side, not followed further."""

    as_dict = to_data


@dataclass(frozen=True, slots=True)
class Link:
    """A change of number between two stretches: renumbered, split or merged."""

    source: str
    target: str
    kind: str
    date: str

    as_dict = to_data


@dataclass(frozen=True, slots=True)
class FamilyTree:
    """A rule's ancestors and descendants through renumberings, splits and merges."""

    rule: str
    edition: str
    first: str
    """The oldest edition of the time axis."""
    last: str
    segments: tuple[Segment, ...]
    links: tuple[Link, ...]

    __json_fields__ = (
        Out("format", lambda _: "rulediff-family-tree"),
        Out("version", lambda _: 1),
        "rule",
        "edition",
        "first",
        "last",
        "segments",
        "links",
    )
    as_dict = to_data

    def graph(self) -> nx.DiGraph:
        """The tree as a small networkx graph (segments as nodes)."""
        g = nx.DiGraph(rule=self.rule, edition=self.edition)
        for s in self.segments:
            g.add_node(
                s.key,
                rule=s.rule,
                first=s.first,
                last=s.last,
                label=f"{s.rule} ({s.first} … {s.last})",
            )
        for link in self.links:
            g.add_edge(link.source, link.target, kind=link.kind, date=link.date)
        return g


def family_tree(lineage: Lineage, rule_id: str, k: int) -> FamilyTree:
    """Walk the lineage from ``rule_id`` of edition index ``k`` backwards (ancestors)
    and forwards (descendants), through every branch of splits and merges."""
    dates = [ref.date for ref in lineage.editions]
    nodes: set[tuple[int, str]] = {(k, rule_id)}
    edges: dict[tuple[tuple[int, str], tuple[int, str]], str] = {}
    todo = [(k, rule_id, True), (k, rule_id, False)]
    while todo:
        j, ident, forward = todo.pop()
        if forward and j < len(lineage.steps):
            step = lineage.steps[j]
            change = step.for_old(ident)
            if change is None:
                targets, kind = [ident], "unchanged"
            else:
                targets, kind = list(change.new_ids_of(ident)), EDGE_KIND.get(change.kind, "")
            for t in targets if kind else []:
                edges[((j, ident), (j + 1, t))] = kind
                if (j + 1, t) not in nodes:
                    nodes.add((j + 1, t))
                    todo.append((j + 1, t, True))
        elif not forward and j > 0:
            step = lineage.steps[j - 1]
            change = step.for_new(ident)
            if change is None:
                sources, kind = [ident], "unchanged"
            else:
                sources, kind = list(change.old_ids_of(ident)), EDGE_KIND.get(change.kind, "")
            for s in sources if kind else []:
                edges[((j - 1, s), (j, ident))] = kind
                if (j - 1, s) not in nodes:
                    nodes.add((j - 1, s))
                    todo.append((j - 1, s, False))
    return _compress(rule_id, dates[k], dates, nodes, edges)


def _compress(
    rule_id: str,
    edition: str,
    dates: Sequence[str],
    nodes: set[tuple[int, str]],
    edges: dict[tuple[tuple[int, str], tuple[int, str]], str],
) -> FamilyTree:
    """Runs of one number joined by unchanged/edited edges become one segment."""
    succ: dict[tuple[int, str], list[tuple[int, str]]] = {}
    pred: dict[tuple[int, str], list[tuple[int, str]]] = {}
    for a, b in edges:
        succ.setdefault(a, []).append(b)
        pred.setdefault(b, []).append(a)
    segment_of: dict[tuple[int, str], int] = {}
    runs: list[list[tuple[int, str]]] = []
    for node in sorted(nodes):
        before = pred.get(node, [])
        if (
            len(before) == 1
            and before[0][1] == node[1]
            and len(succ.get(before[0], [])) == 1
            and edges[(before[0], node)] in ("unchanged", "edited")
        ):
            run = segment_of[before[0]]
        else:
            run = len(runs)
            runs.append([])
        segment_of[node] = run
        runs[run].append(node)
    segments = []
    for run in runs:
        (j0, ident), (j1, _) = run[0], run[-1]
        edited = tuple(
            dates[b[0]] for a, b in zip(run, run[1:], strict=False) if edges[(a, b)] == "edited"
        )
        segments.append(Segment(node_id(ident, dates[j0]), ident, dates[j0], dates[j1], edited))
    links = []
    for (a, b), kind in sorted(edges.items()):
        if segment_of[a] != segment_of[b]:
            links.append(
                Link(
                    segments[segment_of[a]].key,
                    segments[segment_of[b]].key,
                    kind if kind not in ("unchanged", "edited") else "renumbered",
                    dates[b[0]],
                )
            )
    first = min((s.first for s in segments), default=edition)
    last = max((s.last for s in segments), default=edition)
    return FamilyTree(rule_id, edition, first, last, tuple(segments), tuple(links))


def tree_from_history(history: RuleHistory, last: str | None = None) -> FamilyTree:
    """The family tree as far as a :class:`~rulediff.history.RuleHistory` tells it: the
    numbers the rule had, with the other sides of its splits and merges as partners (one
    edition long). ``last`` ends the time axis (default: the history's edition)."""
    events = [e for e in reversed(history.events) if e.kind != "unchanged"]
    end = max([last or history.edition, *(e.date for e in events)])
    open_: dict[str, list[Any]] = {}
    done: list[list[Any]] = []
    links: list[Link] = []

    def start(rule: str, date: str) -> list[Any]:
        seg = [rule, date, date, [], False]
        open_[rule] = seg
        return seg

    for e in events:
        if e.kind == "added":
            for n in e.new_ids:
                start(n, e.date)
            continue
        same = e.old_ids == e.new_ids
        if same and e.kind in ("edited", "editorial", "references-only"):
            for n in e.new_ids:
                seg = open_.get(n) or start(n, e.previous or e.date)
                seg[3].append(e.date)
            continue
        closed = []
        for o in e.old_ids:
            seg = open_.pop(o, None)
            if seg is None:  # the other side of a merge: seen only here
                seg = [o, e.previous or e.date, e.previous or e.date, [], True]
            else:
                seg[2] = e.previous or e.date
            done.append(seg)
            closed.append(seg)
        if e.kind == "removed":
            continue
        kind = EDGE_KIND.get(e.kind, "renumbered")
        for n in e.new_ids:
            start(n, e.date)
            for seg in closed:
                if e.links and (seg[0], n) not in e.links:
                    continue  # a group of several of each: not every old rule went here
                links.append(Link(node_id(seg[0], seg[1]), node_id(n, e.date), kind, e.date))
    followed = {history.rule}
    if events and events[-1].date > history.edition and events[-1].new_ids:
        followed.add(events[-1].new_ids[0])  # renumbered after the edition asked about
    for rule, seg in open_.items():
        if rule in followed:
            seg[2] = end
        else:
            seg[4] = True  # a split's other branch: not followed by this history
        done.append(seg)
    segments = tuple(
        sorted(
            (Segment(node_id(s[0], s[1]), s[0], s[1], s[2], tuple(s[3]), s[4]) for s in done),
            key=lambda s: (s.first, s.key),
        )
    )
    first = min((s.first for s in segments), default=history.edition)
    return FamilyTree(history.rule, history.edition, first, end, segments, tuple(links))


def tree_text(tree: FamilyTree) -> str:
    lines = [f"family tree of {tree.rule} (numbered as in the edition of {tree.edition})"]
    for s in tree.segments:
        span = s.first if s.first == s.last else f"{s.first} … {s.last}"
        note = f"  edited {', '.join(s.edited)}" if s.edited else ""
        lines.append(f"  {s.rule:<10} {span}{note}{'  (partner)' if s.partner else ''}")
    for link in tree.links:
        a, b = link.source.split("@")[0], link.target.split("@")[0]
        lines.append(f"  {link.date}  {link.kind}: {a} → {b}")
    return "\n".join(lines) + "\n"
