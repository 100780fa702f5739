"""rulediff.lineage: the corpus as one graph, a rule's family tree, the life SVG."""

from __future__ import annotations

import json
import re
import xml.etree.ElementTree as ET
from pathlib import Path

import networkx as nx
import pytest
from click.testing import CliRunner

from rulediff.cli import main
from rulediff.corpus import Corpus
from rulediff.history import build_lineage, rule_history
from rulediff.lineage import (
    EDGE_KIND,
    family_tree,
    graph_graphml,
    lineage_graph,
    node_id,
    tree_from_history,
)
from rulediff.site import build_site

from .lineage_corpus import write_split_corpus
from .test_browser import CHROMIUM, chromium, console_messages, png_colours

# --- the real corpus: becomes edges agree with `rulediff history` --------------------------

WINDOW = ("2014-07-18", "2015-01-23", "2015-03-27", "2015-06-08")


@pytest.fixture(scope="module")
def window() -> tuple[list, object, nx.DiGraph]:
    corpus = Corpus.open()
    infos = corpus.editions()
    dates = [str(i.date) for i in infos]
    start = dates.index(WINDOW[1]) - 1  # the edition before 2015-01-23, whatever its date
    chosen = infos[start : start + len(WINDOW)]
    lineage = build_lineage(chosen, corpus.load)
    editions = [corpus.load(i) for i in chosen]
    return editions, lineage, lineage_graph(editions, lineage)


def test_becomes_edges_agree_with_history(window: tuple) -> None:
    editions, lineage, graph = window
    dates = [e.date_text for e in editions]
    checked = 0
    for k, edition in enumerate(editions):
        for rule in {str(r.id): r for r in edition.rules}:
            node = node_id(rule, dates[k])
            history = rule_history(lineage, rule, k)
            by_date = {e.date: e for e in history.events}
            if k + 1 < len(dates):  # forward: what it became in the next edition
                event = by_date.get(dates[k + 1])
                if event is None or event.kind == "unchanged":
                    want = {(rule, "unchanged")}
                else:
                    kind = EDGE_KIND.get(event.kind)
                    want = {(i, kind) for i in event.new_ids} if kind else set()
                got = {
                    (graph.nodes[t]["rule"], graph.edges[node, t]["kind"])
                    for t in graph.successors(node)
                }
                assert got == want, (dates[k], rule, history.events[:2])
            if k > 0:  # backward: what it came from
                event = by_date.get(dates[k])
                if event is None or event.kind == "unchanged":
                    want_ids = {rule}
                else:
                    want_ids = set(event.old_ids) if event.kind != "added" else set()
                got_ids = {graph.nodes[s]["rule"] for s in graph.predecessors(node)}
                assert got_ids == want_ids, (dates[k], rule)
            checked += 1
    assert checked > 4 * 2000


def test_the_issue_example_edge(window: tuple) -> None:
    _editions, _lineage, graph = window
    edge = graph.edges[node_id("702.36d", "2015-01-23"), node_id("702.36e", "2015-03-27")]
    assert edge["kind"] == "renumbered" and edge["relation"] == "becomes"
    data = graph.nodes[node_id("702.36", "2015-03-27")]
    assert data["title"] == "Morph" and len(data["digest"]) == 16


def test_graphml_loads_back_in_networkx(window: tuple, tmp_path: Path) -> None:
    _editions, _lineage, graph = window
    path = tmp_path / "g.graphml"
    path.write_text(graph_graphml(graph), encoding="utf-8")
    back = nx.read_graphml(path)
    assert back.number_of_nodes() == graph.number_of_nodes()
    assert back.number_of_edges() == graph.number_of_edges()
    renumbered = [(s, t) for s, t, k in back.edges(data="kind") if k == "renumbered"]
    assert (node_id("702.36d", "2015-01-23"), node_id("702.36e", "2015-03-27")) in renumbered


# --- a synthetic corpus with a split --------------------------------------------------------


@pytest.fixture()
def split_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(tmp_path / "cache"))
    folder = write_split_corpus(tmp_path / "corpus")
    monkeypatch.setenv("RULEDIFF_CORPUS", str(folder))
    return folder


def test_family_tree_through_a_split(split_corpus: Path) -> None:
    corpus = Corpus.open(split_corpus)
    lineage = build_lineage(corpus.editions(), corpus.load)
    tree = family_tree(lineage, "100.5", 2)
    assert [(s.rule, s.first, s.last) for s in tree.segments] == [
        ("100.3", "2031-03-03", "2031-03-03"),
        ("100.4", "2031-06-01", "2031-06-01"),
        ("100.5", "2031-09-01", "2031-09-01"),
    ]
    assert [(link.kind, link.source, link.target) for link in tree.links] == [
        ("split", "100.3@2031-03-03", "100.4@2031-06-01"),
        ("renumbered", "100.4@2031-06-01", "100.5@2031-09-01"),
    ]
    # From the ancestor: both branches of the split are descendants.
    down = family_tree(lineage, "100.3", 0)
    assert {s.rule for s in down.segments} == {"100.3", "100.4", "100.5"}
    assert sorted(link.kind for link in down.links) == ["renumbered", "split", "split"]
    # The history page's tree tells the same numbers.
    told = tree_from_history(rule_history(lineage, "100.5", 2))
    assert [s.rule for s in told.segments if not s.partner] == ["100.3", "100.4", "100.5"]
    assert [link.kind for link in told.links][:1] == ["split"]


def test_cli_lineage_formats(split_corpus: Path) -> None:
    runner = CliRunner()
    doc = json.loads(runner.invoke(main, ["lineage", "--format", "json"]).output)
    kinds = {(e["source"], e["target"]): e["kind"] for e in doc["edges"]}
    assert kinds[("100.3@2031-03-03", "100.4@2031-06-01")] == "split"
    assert kinds[("100.3@2031-03-03", "100.3@2031-06-01")] == "split"
    assert kinds[("100.4@2031-06-01", "100.5@2031-09-01")] == "renumbered"
    assert kinds[("100.1@2031-03-03", "100.1@2031-06-01")] == "unchanged"
    part = json.loads(
        runner.invoke(main, ["lineage", "--from", "2031-06-01", "--format", "json"]).output
    )
    assert part["first"] == "2031-06-01" and all("2031-03-03" not in n["id"] for n in part["nodes"])
    refs = json.loads(runner.invoke(main, ["lineage", "--refs", "--format", "json"]).output)
    assert {e["relation"] for e in refs["edges"]} == {"becomes", "reference"}
    assert any("parent-of" in e["kind"] for e in refs["edges"])
    dot = runner.invoke(main, ["lineage", "100.5", "--edition", "2031-09-01", "--format", "dot"])
    assert dot.exit_code == 0, dot.output
    assert '"100.3@2031-03-03" -> "100.4@2031-06-01" [label="split"]' in dot.output
    text = runner.invoke(main, ["lineage", "100.5", "--edition", "2031-09-01"])
    assert "split: 100.3 → 100.4" in text.output
    bad = runner.invoke(main, ["lineage", "100.9", "--edition", "2031-09-01"])
    assert bad.exit_code == 2 and bad.output.startswith("rulediff: error:")


def _split_history_page(site: Path) -> Path:
    pages = [
        p for p in sorted((site / "rules").glob("*.html")) if "life-link split" in p.read_text()
    ]
    assert pages, "no history page draws a split"
    return next(p for p in pages if "100.5" in p.read_text())


def test_history_page_svg_is_valid_and_links_resolve(split_corpus: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build_site(site, Corpus.open(split_corpus), jobs=1)
    page = _split_history_page(site)
    html = page.read_text(encoding="utf-8")
    (svg_text,) = re.findall(r"<svg.*?</svg>", html, re.S)
    svg = ET.fromstring(svg_text)
    ns = "{http://www.w3.org/2000/svg}"
    hrefs = [a.get("href") for a in svg.iter(f"{ns}a")]
    circles = list(svg.iter(f"{ns}circle"))
    assert len(hrefs) == len(circles) >= 3  # every node is a link
    for href in hrefs:
        target, _, anchor = href.partition("#")
        file = (page.parent / target).resolve()
        assert file.is_file(), href
        assert f'id="{anchor}"' in file.read_text(encoding="utf-8"), href
    assert len(list(svg.iter(f"{ns}path"))) >= 2  # the split branch and the renumbering


@pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")
def test_history_page_with_a_split_in_chromium(split_corpus: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    build_site(site, Corpus.open(split_corpus), jobs=1)
    page = _split_history_page(site)
    dom = chromium(page, tmp_path / "p-dom", "--dump-dom")
    assert dom.returncode == 0, dom.stderr[-2000:]
    assert not console_messages(dom.stderr)
    assert 'class="life-link split"' in dom.stdout
    shot = tmp_path / "life.png"
    chromium(page, tmp_path / "p-shot", f"--screenshot={shot}", "--window-size=390,900")

    def branch(png: Path) -> set[bytes]:
        colours = png_colours(png.read_bytes())
        return {c for c in colours if c[0] > 150 and 60 < c[1] < 140 and c[2] < 60}

    assert branch(shot), "the orange split branch is not on the screenshot"
    # A rule that never changed: a picture, but no branch in it.
    plain = next(
        p
        for p in sorted((site / "rules").glob("*.html"))
        if "<svg" in (t := p.read_text()) and "life-link" not in t
    )
    still = tmp_path / "plain.png"
    chromium(plain, tmp_path / "p-plain", f"--screenshot={still}", "--window-size=390,900")
    assert not branch(still)


def test_the_first_rule_of_a_number_printed_twice_keeps_its_becomes_edge() -> None:
    # A number printed twice is one node (its first rule's); that rule's edge into the
    # next edition is its own, not the second rule's renumbering or removal.
    from .test_history import printed_twice_editions

    eds = printed_twice_editions()
    lineage = build_lineage(eds, lambda e: e, use_cache=False)
    graph = lineage_graph(eds, lineage)
    assert graph.edges["300.2@2030-05-01", "300.2@2031-05-01"]["kind"] == "unchanged"
    assert graph.edges["300.2@2031-05-01", "300.2@2032-05-01"]["kind"] == "unchanged"
    assert not graph.has_edge("300.2@2031-05-01", "300.3@2032-05-01")
