"""The cross-reference graph of one edition (networkx).

Nodes are the sections, the rules (headings included) and the glossary terms of an
edition, plus a ``missing`` node for every number that is cited but does not exist.
Edges carry a ``kind``:

* ``parent-of``: section → rule, 702 → 702.36 → 702.36e;
* ``refers-to``: a rule (its text or an example) or a glossary definition cites a rule;
* ``defined-in``: a glossary entry's "See rule …" sentence points at the rule that
  defines the term.

A :class:`networkx.DiGraph` keeps one edge per ordered pair; when a pair has several
kinds (702 is the parent of 702.1 *and* cites it), ``kind`` lists them sorted and
space-separated, like an HTML class attribute. ``count`` is how many references the
edge stands for. Node and edge order is the document order, so the exports are
deterministic.
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from dataclasses import dataclass

import networkx as nx

from .clauses import EditionClauses, edition_clauses
from .model import Edition, Reference, RuleId, Section
from .serialize import to_data

log = logging.getLogger(__name__)

GLOSSARY_PREFIX = "glossary:"
REFERS_TO = "refers-to"
PARENT_OF = "parent-of"
DEFINED_IN = "defined-in"


def glossary_node(term: str) -> str:
    """The node id of a glossary term: ``glossary:Morph``."""
    return f"{GLOSSARY_PREFIX}{term}"


def exists(edition: Edition, target: str) -> bool:
    """Whether ``target`` (a rule number or a section digit) is in the edition."""
    rule_id = RuleId.try_parse(target)
    if rule_id is None:
        return False
    if rule_id.is_section:
        return edition.section(rule_id.rule) is not None
    return edition.rule(rule_id) is not None


_SENTENCE_END = re.compile(r"(?:[.!?][\])”\"]*\s+|\n)")


def is_definition_pointer(text: str, ref: Reference) -> bool:
    """Whether a glossary reference is in a sentence starting "See" ("See rule 702.36,
    “Morph.”", "See rule 113, “Abilities,” and section 6, …"), the sentence that points
    at the rules defining the term; a "see rule" in passing is a plain reference."""
    sentence_start = 0
    for m in _SENTENCE_END.finditer(text, 0, ref.start):
        sentence_start = m.end()
    return text.startswith("See ", sentence_start)


@dataclass(frozen=True, slots=True)
class Citation:
    """One reference with where it was found, for ``refs`` and the audit."""

    source: str
    """Node id of the citing rule or glossary term."""
    reference: Reference
    where: str
    """``text``, ``example 1`` …, or ``glossary``."""
    line: int
    index: int
    """Position of the citing rule in ``edition.rules`` (of the entry in
    ``edition.glossary`` for the glossary): duplicated numbers stay apart."""


def citations(edition: Edition, parsed: EditionClauses | None = None) -> Iterator[Citation]:
    """Every reference of the edition, rules first (document order), then the glossary."""
    parsed = parsed or edition_clauses(edition)
    for i, ref, example in parsed.rule_refs():
        rule = edition.rules[i]
        if example is None:
            yield Citation(str(rule.id), ref, "text", rule.line, i)
        else:
            where = f"example {example + 1}"
            yield Citation(str(rule.id), ref, where, rule.examples[example].line, i)
    for j, (entry, glossary_parsed) in enumerate(
        zip(edition.glossary, parsed.glossary, strict=True)
    ):
        for ref in glossary_parsed.references:
            yield Citation(glossary_node(entry.term), ref, "glossary", entry.line, j)


def build_graph(edition: Edition, parsed: EditionClauses | None = None) -> nx.DiGraph:
    """The reference graph of ``edition`` (see the module docstring for its shape)."""
    parsed = parsed or edition_clauses(edition)
    graph = nx.DiGraph(edition=edition.date_text, sha256=edition.sha256)
    for item in edition.body:  # document order: sections and rules interleaved
        key = str(item.id)
        if key in graph:  # a duplicate number: the first one is the node
            continue
        if isinstance(item, Section):
            graph.add_node(key, kind="section", title=item.title, line=item.line)
        else:
            graph.add_node(key, kind=item.kind, title=item.title or "", line=item.line)
    for entry in edition.glossary:
        graph.add_node(
            glossary_node(entry.term), kind="glossary", title=entry.term, line=entry.line
        )

    edges: dict[tuple[str, str], dict[str, object]] = {}

    def link(source: str, target: str, kind: str, count: int = 0) -> None:
        data = edges.setdefault((source, target), {"kinds": set(), "count": 0})
        data["kinds"].add(kind)  # type: ignore[union-attr]
        data["count"] = int(data["count"]) + count  # type: ignore[call-overload]

    for rule in edition.rules:
        parent = _existing_parent(edition, rule.id)
        if parent is not None:
            link(parent, str(rule.id), PARENT_OF)

    glossary_text = {glossary_node(entry.term): entry.text for entry in edition.glossary}
    for cite in citations(edition, parsed):
        ref = cite.reference
        if ref.malformed:
            continue
        present = exists(edition, ref.target)
        if not present:
            if ref.implied:  # an unwritten member of a range: no claim it exists
                continue
            if ref.target not in graph:
                graph.add_node(ref.target, kind="missing", title="", line=0)
        kind = REFERS_TO
        if cite.where == "glossary":
            if is_definition_pointer(glossary_text[cite.source], ref):
                kind = DEFINED_IN
        link(cite.source, ref.target, kind, 1)

    for (source, target), data in edges.items():
        kinds = " ".join(sorted(data["kinds"]))  # type: ignore[call-overload]
        graph.add_edge(source, target, kind=kinds, count=data["count"])
    return graph


def _existing_parent(edition: Edition, rule_id: RuleId) -> str | None:
    """The nearest ancestor present in the edition (a parent may be missing)."""
    for ancestor in rule_id.ancestors():
        if ancestor.is_section:
            return str(ancestor) if edition.section(ancestor.rule) is not None else None
        if edition.rule(ancestor) is not None:
            return str(ancestor)
    return None


def edge_kinds(graph: nx.DiGraph, source: str, target: str) -> set[str]:
    return set(str(graph.edges[source, target]["kind"]).split())


def cites(graph: nx.DiGraph, node: str) -> list[str]:
    """What ``node`` cites (refers-to and defined-in edges), in document order."""
    return [t for t in graph.successors(node) if edge_kinds(graph, node, t) - {PARENT_OF}]


def cited_by(graph: nx.DiGraph, node: str) -> list[str]:
    """Who cites ``node``: rules and glossary entries, in document order."""
    return [s for s in graph.predecessors(node) if edge_kinds(graph, s, node) - {PARENT_OF}]


# --- exports ----------------------------------------------------------------------------
def graph_json(graph: nx.DiGraph) -> str:
    """Deterministic JSON: ``{"edition", "sha256", "nodes": [...], "edges": [...]}``."""
    doc = {
        "edition": graph.graph.get("edition"),
        "sha256": graph.graph.get("sha256"),
        "nodes": [{"id": node, **data} for node, data in graph.nodes(data=True)],
        "edges": [
            {"source": s, "target": t, "kind": d["kind"], "count": d["count"]}
            for s, t, d in graph.edges(data=True)
        ],
    }
    return json.dumps(doc, ensure_ascii=False, indent=1) + "\n"


def graph_graphml(graph: nx.DiGraph) -> str:
    """GraphML text (networkx writer; attribute keys and order fixed by the build order)."""
    return "\n".join(nx.generate_graphml(graph, encoding="utf-8", prettyprint=True)) + "\n"


__all__ = [
    "Citation",
    "Link",
    "RuleLinks",
    "format_links",
    "links",
    "node_title",
    "DEFINED_IN",
    "GLOSSARY_PREFIX",
    "PARENT_OF",
    "REFERS_TO",
    "build_graph",
    "cited_by",
    "cites",
    "citations",
    "exists",
    "glossary_node",
    "graph_graphml",
    "graph_json",
]


# --- rulediff refs ------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Link:
    """One citation seen from one end: the other node, how, and where."""

    node: str
    """The cited (for ``cites``) or citing (for ``cited_by``) node."""
    title: str
    kind: str
    """``refers-to`` or ``defined-in``."""
    text: str
    """The reference phrase as written."""
    where: str
    """``text``, ``example N`` or ``glossary`` (of the citing side)."""
    exists: bool
    implied: bool

    as_dict = to_data


@dataclass(frozen=True, slots=True)
class RuleLinks:
    """What a rule (or glossary term) cites and what cites it, in document order."""

    edition: str
    node: str
    title: str
    exists: bool
    cites: tuple[Link, ...]
    cited_by: tuple[Link, ...]

    as_dict = to_data


def node_title(edition: Edition, node: str) -> str:
    """A node's heading: a rule's title, a section's title, a glossary term, or ""."""
    if node.startswith(GLOSSARY_PREFIX):
        return node[len(GLOSSARY_PREFIX) :]
    rule_id = RuleId.try_parse(node)
    if rule_id is None:
        return ""
    if rule_id.is_section:
        section = edition.section(rule_id.rule)
        return section.title if section else ""
    rule = edition.rule(rule_id)
    return (rule.title or "") if rule else ""


def _link(
    edition: Edition, other: str, kind: str, where: str, ref: Reference, present: bool
) -> Link:
    """The link to ``other`` (the cited rule, or the citing one) made by ``ref``."""
    return Link(other, node_title(edition, other), kind, ref.text, where, present, ref.implied)


def links(edition: Edition, node: str, parsed: EditionClauses | None = None) -> RuleLinks:
    """Citations from and to ``node`` (a rule number, a section digit, or ``glossary:Term``).

    Backlinks include glossary entries ("See rule 702.36, “Morph.”" → ``defined-in``).
    A number that does not exist can still be asked about: who cites it is the point.
    """
    parsed = parsed or edition_clauses(edition)
    glossary_text = {glossary_node(entry.term): entry.text for entry in edition.glossary}
    out: list[Link] = []
    back: list[Link] = []
    for cite in citations(edition, parsed):
        ref = cite.reference
        kind = REFERS_TO
        if cite.where == "glossary" and is_definition_pointer(glossary_text[cite.source], ref):
            kind = DEFINED_IN
        if cite.source == node:
            present = exists(edition, ref.target)
            out.append(_link(edition, ref.target, kind, cite.where, ref, present))
        if ref.target == node:
            back.append(_link(edition, cite.source, kind, cite.where, ref, True))
    present = node in glossary_text or exists(edition, node)
    return RuleLinks(
        edition.date_text, node, node_title(edition, node), present, tuple(out), tuple(back)
    )


def format_links(found: RuleLinks) -> str:
    """``rulediff refs`` as plain text."""
    named = found.title and not found.node.startswith(GLOSSARY_PREFIX)
    head = found.node + (f" — {found.title}" if named else "")
    if not found.exists:
        head += f" (not in the edition of {found.edition})"
    lines = [f"{head}  [{found.edition}]", f"cites ({len(found.cites)}):"]
    lines.extend(_link_line(link) for link in found.cites)
    lines.append(f"cited by ({len(found.cited_by)}):")
    lines.extend(_link_line(link) for link in found.cited_by)
    return "\n".join(lines) + "\n"


def _link_line(link: Link) -> str:
    notes = [link.where]
    if link.kind != REFERS_TO:
        notes.append(link.kind)
    if link.implied:
        notes.append("in a range")
    if not link.exists:
        notes.append("MISSING")
    named = link.title and not link.node.startswith(GLOSSARY_PREFIX)
    title = f" — {link.title}" if named else ""
    return f"  {link.node}{title}  ({link.text}; {', '.join(notes)})"
