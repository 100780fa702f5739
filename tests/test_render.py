"""HTML rendering: changelog, full text, history, index, feed.

Synthetic editions (tests/render_corpus.py) for exact structure and escaping, a golden
page with scrubbing (coverage.py style; regenerate with RULEDIFF_REGOLD=1), and the
real seed pair of the corpus for what the issue promises about it.
"""

from __future__ import annotations

import os
import re
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path

import jinja2
import pytest

from rulediff.align import KINDS
from rulediff.diff import diff
from rulediff.history import build_lineage, history_details, rule_history
from rulediff.parse import parse_text
from rulediff.render import (
    KIND_CLASS,
    build_changelog_view,
    build_edition_view,
    environment,
    render_changelog,
    render_changelog_html,
    render_edition_html,
    render_history_html,
)
from rulediff.render.env import STATIC_ASSETS, static_dir
from rulediff.render.index import EditionSummary, build_feed_view, build_index_view, render_feed
from rulediff.render.links import Links
from rulediff.render.refs import find_references

from .conftest import corpus_edition
from .render_corpus import EDITIONS, edition_text

GOLDEN = Path(__file__).parent / "fixtures" / "render"
DATES = tuple(EDITIONS)


def synthetic(date: str):
    return parse_text(edition_text(date))


class Page(HTMLParser):
    """The ids, links and tags of an HTML page (enough to check structure)."""

    def __init__(self, html: str) -> None:
        super().__init__(convert_charrefs=True)
        self.ids: list[str] = []
        self.hrefs: list[str] = []
        self.tags: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        a = dict(attrs)
        self.tags.append((tag, a))
        if a.get("id"):
            self.ids.append(a["id"])  # type: ignore[arg-type]
        if tag == "a" and a.get("href"):
            self.hrefs.append(a["href"])  # type: ignore[arg-type]

    def by_class(self, cls: str) -> list[dict[str, str | None]]:
        return [a for _, a in self.tags if cls in (a.get("class") or "").split()]


# --- environment, kinds, static ------------------------------------------------------------------


def test_environment_is_autoescaped_and_strict() -> None:
    env = environment()
    assert env.autoescape is True
    with pytest.raises(jinja2.UndefinedError):
        env.from_string("{{ nothing.here }}").render()
    assert env.from_string("{{ x }}").render(x="<b>&") == "&lt;b&gt;&amp;"


def test_every_change_kind_has_one_css_class_defined_in_the_stylesheet() -> None:
    css = (static_dir() / "rulediff.css").read_text(encoding="utf-8")
    for kind in KINDS:
        cls = KIND_CLASS[kind]
        assert re.search(rf"\.{re.escape(cls)}\b", css), f"{cls} ({kind}) has no style"
    assert len(set(KIND_CLASS.values())) == len(KIND_CLASS), "two kinds share a class"


def test_static_assets_are_listed_and_exist() -> None:
    assert STATIC_ASSETS
    for name in STATIC_ASSETS:
        assert (static_dir() / name).is_file()


def test_no_template_or_asset_loads_anything_from_the_network() -> None:
    folder = static_dir().parent
    for path in [*folder.glob("*.j2"), *(static_dir() / n for n in STATIC_ASSETS)]:
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(?:src|href)=\"(?:https?:)?//", text), path
        assert "@import" not in text and "url(http" not in text, path


# --- references ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("See rule 702.36e.", [("702.36e", "702.36e")]),
        (
            "rules 103.2, 103.3, and 103.4",
            [("103.2", "103.2"), ("103.3", "103.3"), ("103.4", "103.4")],
        ),
        ("rules 601.2a–h", [("601.2a", "601.2a"), ("h", "601.2h")]),
        ("rules 800–810", [("800", "800"), ("810", "810")]),
        ("See section 8, “Multiplayer Rules.”", [("8", "8")]),
        ("rule 104.3, 3 players", [("104.3", "104.3")]),
        ("There are 20 rules here.", []),
    ],
)
def test_find_references(text: str, expected: list[tuple[str, str]]) -> None:
    assert [(text[s:e], t) for s, e, t in find_references(text)] == expected


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("(see 805.8)", [("805.8", "805.8")]),
        ("rules 608.3a and b", [("608.3a", "608.3a"), ("b", "608.3b")]),
        ("See section 500, “Turn Structure.”", [("500", "500")]),
        ("subrule 702.36e", [("702.36e", "702.36e")]),
        ("rules 903.3 through 903.5", [("903.3", "903.3"), ("903.5", "903.5")]),
    ],
)
def test_links_follow_the_clause_grammar(text: str, expected: list[tuple[str, str]]) -> None:
    # The same reference forms as rulediff.clauses, which the regex finder used to miss.
    assert [(text[s:e], t) for s, e, t in find_references(text)] == expected


# --- full text -----------------------------------------------------------------------------------


def test_full_text_has_an_anchor_per_rule_and_links_references() -> None:
    ed = synthetic(DATES[1])
    html = render_edition_html(build_edition_view(ed, Links(site=False)))
    page = Page(html)
    for rule in ed.rules:
        assert f"r{rule.id}" in page.ids
    # "See rule 200" in 100.1c links to the heading of 200 in the same page.
    assert "#r200" in page.hrefs
    for href in page.hrefs:
        if href.startswith("#"):
            assert href[1:] in page.ids, href
    assert len(page.ids) == len(set(page.ids)), "duplicate ids"


def test_reference_to_a_missing_rule_is_marked_not_linked() -> None:
    text = edition_text(DATES[0]).replace("See rule 101.1b.", "See rule 999.9z.")
    html = render_edition_html(build_edition_view(parse_text(text), Links(site=False)))
    assert 'class="ref dangling"' in html
    assert "#r999.9z" not in html


def test_rule_text_is_escaped_everywhere() -> None:
    old, new = synthetic(DATES[0]), synthetic(DATES[1])
    changed = parse_text(edition_text(DATES[1]).replace("& still", "&amp; <i>still</i>"))
    pages = [
        render_edition_html(build_edition_view(old, Links(site=False))),
        render_changelog_html(diff(old, new), old, new, include_unchanged=True),
        render_changelog_html(diff(new, changed), new, changed),
    ]
    for html in pages:
        assert "<script>alert" not in html
        assert "&lt;script&gt;alert(&#34;x&#34;)&lt;/script&gt;" in html
        assert "<i>still</i>" not in html
    assert "&amp;amp; &lt;i&gt;still&lt;/i&gt;" in pages[2]


# --- changelog -----------------------------------------------------------------------------------


def test_changelog_structure_on_synthetic_pair() -> None:
    old, new = synthetic(DATES[0]), synthetic(DATES[1])
    html = render_changelog_html(diff(old, new), old, new)
    page = Page(html)
    assert "summary" in page.ids
    # every change has a permalink anchor (a card, or a row of the table of renumberings);
    # the renumbered one is shown old → new
    changes = page.by_class("change") + page.by_class("row")
    assert {c["id"] for c in changes} >= {"n100.1b", "n100.1c", "n100.2", "n101.1c"}
    assert {c["id"] for c in page.by_class("row")} == {"n100.1c"}  # renumbered only
    assert re.search(
        r'<a class="rn" href="#o-r100\.1b">100\.1b</a><span class="arrow"> → </span>'
        r'<a class="rn" href="#n-r100\.1c">100\.1c</a>',
        html,
    )
    assert "<del>twenty</del><ins>thirty</ins>" in html
    assert "The token types are … added: Flywheel" in html
    # kinds carry their one CSS class
    assert 'class="row ch-renumbered"' in html and 'class="change ch-added"' in html
    # every in-page link lands on an id of the page (the embedded texts carry the rules)
    for href in page.hrefs:
        assert href.startswith("#"), href
        assert href[1:] in page.ids, href
    assert len(page.ids) == len(set(page.ids))
    # the stylesheet is inlined: one file, nothing to fetch
    assert "<style>" in html and '<link rel="stylesheet"' not in html


def test_changelog_without_editions_still_renders() -> None:
    old, new = synthetic(DATES[1]), synthetic(DATES[2])
    html = render_changelog_html(diff(old, new))
    assert 'id="o100.3"' in html and 'id="n101.2"' in html
    assert "<del>A player with no gears loses the game. See rule 101.1b.</del>" in html


def test_changelog_in_a_site_links_to_full_text_pages() -> None:
    old, new = synthetic(DATES[0]), synthetic(DATES[1])
    view = build_changelog_view(diff(old, new), Links(root="../"), old=old, new=new)
    html = render_changelog(view)
    assert 'href="../editions/2031-03-03.html#r100.1b"' in html
    assert 'href="../editions/2031-06-01.html#r100.1c"' in html
    assert 'href="../static/rulediff.css"' in html
    assert '<details class="embedded"' not in html


def _scrub(html: str) -> str:
    """Drop what a golden file should not pin: the inlined stylesheet."""
    return re.sub(r"<style>.*?</style>", "<style>…</style>", html, flags=re.DOTALL)


def test_changelog_golden() -> None:
    old, new = synthetic(DATES[0]), synthetic(DATES[1])
    html = _scrub(render_changelog_html(diff(old, new), old, new))
    golden = GOLDEN / "changelog_small.html"
    if os.environ.get("RULEDIFF_REGOLD"):
        golden.parent.mkdir(parents=True, exist_ok=True)
        golden.write_text(html, encoding="utf-8")
    assert html == golden.read_text(encoding="utf-8"), "rerun with RULEDIFF_REGOLD=1 if intended"


def test_changelog_is_deterministic() -> None:
    old, new = synthetic(DATES[0]), synthetic(DATES[1])
    first = render_changelog_html(diff(old, new), old, new)
    again = render_changelog_html(diff(synthetic(DATES[0]), synthetic(DATES[1])), old, new)
    assert first == again


def test_seed_pair_changelog(corpus_dir: Path) -> None:
    """2015-01-23 → 2015-03-27: megamorph added, the morph subrules move down one letter."""
    old, new = corpus_edition("2015-01-23"), corpus_edition("2015-03-27")
    html = render_changelog_html(diff(old, new), old, new)
    page = Page(html)
    assert 'id="n702.36b"' in html
    added = re.search(r'<article class="change ch-added" id="n702\.36b"', html)
    assert added, "702.36b is shown as added"
    for a, b in (("702.36b", "702.36c"), ("702.36c", "702.36d"), ("702.36d", "702.36e")):
        assert re.search(
            rf'href="#o-r{re.escape(a)}">{re.escape(a)}</a><span class="arrow"> → </span>'
            rf'<a class="rn" href="#n-r{re.escape(b)}">{re.escape(b)}</a>',
            html,
        ), f"{a} → {b}"
    assert re.search(r'class="row ch-references" id="n701\.31c"', html)
    # changes under their numbered rule, titled by its keyword (read from the edition)
    assert f"<h3 class=\"rule-head\">702.36 {new.rule('702.36').text}</h3>" in html
    assert "formidable" in html and "<ins>" in html and "<del>" in html
    for href in page.hrefs:
        assert href[1:] in page.ids, href


# --- history -------------------------------------------------------------------------------------


def test_history_page_follows_renumbering_to_the_origin() -> None:
    editions = [synthetic(d) for d in DATES]
    lineage = build_lineage(editions, lambda e: e, use_cache=False)
    found = rule_history(lineage, "100.1c")
    by_date = {e.date_text: e for e in editions}
    html = render_history_html(found, history_details(found, by_date.__getitem__))
    assert "History of rule 100.1c" in html
    assert re.search(
        r'<span class="kind">renumbered</span> 2031-06-01 <span class="ids">'
        r'<span class="rn">100\.1b</span> → <span class="rn">100\.1c</span>',
        html,
    )
    assert "already in the oldest edition of the corpus" in html
    assert "A crowd game has more than two widgets." in html


# --- index and feed ------------------------------------------------------------------------------


def _rows() -> list[EditionSummary]:
    return [
        EditionSummary("2031-03-03", "a" * 64, "Gears", "GRS", 14, None, None),
        EditionSummary(
            "2031-06-01",
            "b" * 64,
            None,
            None,
            15,
            "2031-03-03",
            {"added": 1, "renumbered": 1, "edited": 2, "unchanged": 11},
        ),
        EditionSummary(
            "2031-09-01",
            "c" * 64,
            None,
            None,
            15,
            "2031-06-01",
            {"added": 1, "removed": 1, "unchanged": 13},
        ),
    ]


def test_index_chart_has_a_bar_per_edition_linking_to_its_changelog() -> None:
    view = build_index_view(_rows(), Links(root=""))
    assert len(view.chart.bars) == 3
    assert view.chart.bars[1].href == "changes/2031-03-03_2031-06-01.html"
    heights = [sum(h for _, _, h in b.segments) for b in view.chart.bars]
    assert heights[0] == 0 and heights[1] > heights[2] > 0  # 4 changes vs 2
    assert [e.date for e in view.editions] == ["2031-09-01", "2031-06-01", "2031-03-03"]


def test_atom_feed_is_valid_and_dated_by_editions() -> None:
    xml = render_feed(build_feed_view(_rows()))
    root = ET.fromstring(xml)
    ns = {"a": "http://www.w3.org/2005/Atom"}
    entries = root.findall("a:entry", ns)
    assert [e.findtext("a:updated", namespaces=ns) for e in entries] == [
        "2031-09-01T00:00:00Z",
        "2031-06-01T00:00:00Z",
        "2031-03-03T00:00:00Z",
    ]
    assert root.findtext("a:updated", namespaces=ns) == "2031-09-01T00:00:00Z"
    ids = [e.findtext("a:id", namespaces=ns) for e in entries]
    assert all(i and i.startswith("urn:uuid:") for i in ids) and len(set(ids)) == 3
    assert "1 added, 1 removed" in xml
    assert xml == render_feed(build_feed_view(_rows())), "deterministic"


def test_listed_templates_are_the_ones_the_pages_use() -> None:
    """The site's fingerprint hashes TEMPLATES: a template left off would not invalidate pages."""
    from rulediff.render.env import TEMPLATES, reports_dir

    folder = reports_dir()
    used = {"changelog.html.j2", "edition.html.j2", "feed.xml.j2", "history.html.j2"}
    used |= {"index.html.j2", "rules.html.j2", "_embedded.html.j2", "redirect.html.j2"}
    used |= {"audit.html.j2", "flags_timeline.html.j2", "search.html.j2"}
    pending = list(used)
    while pending:  # follow extends / import / include
        text = (folder / pending.pop()).read_text(encoding="utf-8")
        for name in re.findall(r'{%-?\s*(?:extends|from|import|include)\s+"([^"]+)"', text):
            if name not in used:
                used.add(name)
                pending.append(name)
    assert used == set(TEMPLATES)


# --- honest labels, noise, search ------------------------------------------------------------


def _change(**fields):  # type: ignore[no-untyped-def]
    from rulediff.diff import Change, ExampleChange, WordOp  # noqa: F401

    base = dict(
        domain="rule",
        kind="edited",
        old_ids=("100.1",),
        new_ids=("100.1",),
        score=90.0,
        significance="substantive",
        words=(WordOp("equal", "A widget "), WordOp("delete", "spins"), WordOp("insert", "turns")),
    )
    base.update(fields)
    return Change(**base)  # type: ignore[arg-type]


def test_badge_names_the_strongest_change() -> None:
    from rulediff.diff import ExampleChange, WordOp
    from rulediff.render.changelog import change_label, is_minor

    example = ExampleChange("edited", "100.1#ex1", "100.1#ex1", 80.0, "substantive", ())
    assert change_label(_change(kind="unchanged", words=(WordOp("equal", "x"),),
                                examples=(example,))) == "example edited"
    added = ExampleChange("added", None, "100.1#ex2", 0.0, "substantive", ())
    assert change_label(_change(kind="unchanged", examples=(example, added))) == "example added"
    # a renumbering whose wording also changed is not shown as a plain renumbering
    swept = _change(kind="renumbered", new_ids=("100.2",))
    assert change_label(swept) == "renumbered, reworded" and not is_minor(swept)
    plain = _change(kind="renumbered", new_ids=("100.2",), significance="editorial",
                    words=(WordOp("equal", "A widget spins"),))
    assert change_label(plain) == "renumbered" and is_minor(plain)
    spaces = _change(kind="edited", words=(WordOp("equal", "A"), WordOp("insert", " "),
                                           WordOp("equal", " widget")))
    assert change_label(spaces) == "spacing edited"


def test_whitespace_only_edits_are_visible() -> None:
    old = parse_text(edition_text(DATES[0]))
    new = parse_text(edition_text(DATES[0]).replace("twenty", "twenty  "))
    d = diff(old, new)
    html = render_changelog_html(d, old, new, embed_texts=False)
    row = html[html.index('id="n100.2"') : html.index("</tr>", html.index('id="n100.2"'))]
    assert '<span class="kind">spacing edited</span>' in row
    assert "only spacing changed" in row and "typography only" not in row
    assert '<ins><span class="ws" title="space added">␣␣</span></ins>' in row


def test_standalone_changelog_without_embedded_texts_is_small() -> None:
    old, new = synthetic(DATES[0]), synthetic(DATES[1])
    full = render_changelog_html(diff(old, new), old, new)
    small = render_changelog_html(diff(old, new), old, new, embed_texts=False)
    assert '<details class="embedded"' in full and '<details class="embedded"' not in small
    assert len(small) < len(full)
    assert 'href="#n-r' not in small  # rule numbers are plain text without the texts
    page = Page(small)
    for href in page.hrefs:
        assert href[1:] in page.ids, href


def test_search_index_lists_rules_and_glossary_of_an_edition() -> None:
    import json

    from rulediff.render.search_index import search_documents, search_index_js

    edition = synthetic(DATES[1])
    docs = search_documents(edition, lambda n: f"rules/{n}.html")
    rules = {d[1]: d for d in docs if d[0] == "r"}
    assert set(rules) == {str(r.id) for r in edition.rules if not r.id.is_section}
    assert rules["100.1c"][3] == edition.rule("100.1c").text
    assert rules["100.1c"][4] == "rules/100.1c.html"
    glossary = [d for d in docs if d[0] == "g"]
    assert [d[1] for d in glossary] == [g.term for g in edition.glossary]
    assert glossary[0][4] == "g-crowd-game"
    js = search_index_js(edition, lambda n: None)
    assert js.startswith("window.RULEDIFF_SEARCH = ") and js.endswith(";\n")
    data = json.loads(js[len("window.RULEDIFF_SEARCH = ") : -2])
    assert data["edition"] == DATES[1] and "</" not in js


def test_ambiguous_alternatives_name_and_link_their_edition() -> None:
    from rulediff.render.changelog import _Side, alternative_links

    old, new = synthetic(DATES[0]), synthetic(DATES[1])
    change = _change(ambiguous=True, alternatives=("100.1c", "101.1b"))
    links = alternative_links(
        change, _Side(old, "../editions/a.html", "", DATES[0]), _Side(new, "", "n-", DATES[1])
    )
    labels = [(r.label, r.href) for r in links]
    assert (f"100.1c ({DATES[1]})", "#n-r100.1c") in labels  # only the new edition has it
    assert (f"101.1b ({DATES[0]})", "../editions/a.html#r101.1b") in labels
    assert f"100.1c ({DATES[0]})" not in [label for label, _ in labels]
    # an undecided added rule's candidates are old rules, named in the old edition only
    added = _change(kind="added", old_ids=(), ambiguous=True, alternatives=("100.1",))
    links = alternative_links(
        added, _Side(old, "../editions/a.html", "", DATES[0]), _Side(new, "", "n-", DATES[1])
    )
    assert [(r.label, r.href) for r in links] == [
        (f"100.1 ({DATES[0]})", "../editions/a.html#r100.1")
    ]


def test_removed_rule_with_undecided_candidates_says_the_text_does_not_decide() -> None:
    from dataclasses import replace

    from rulediff.diff import WordOp
    from rulediff.render.difftext import to_text

    old, new = synthetic(DATES[0]), synthetic(DATES[1])
    d = diff(old, new)
    removed = _change(
        kind="removed",
        new_ids=(),
        words=(WordOp("delete", "A widget spins."),),
        ambiguous=True,
        alternatives=("100.1c", "101.1b"),
    )
    html = render_changelog_html(replace(d, changes=(removed,)), old, new, embed_texts=False)
    text = " ".join(re.sub(r"<[^>]+>", "", html).split())
    assert "the text does not decide whether this rule was removed or became 100.1c" in text
    assert "ambiguous match" not in text
    plain = to_text(replace(d, changes=(removed,)))
    assert plain.count("undecided: or it became 100.1c or 101.1b") == 1


def test_keyword_rules_are_in_the_contents(corpus_dir: Path) -> None:
    from rulediff.render.edition import build_edition_view

    edition = corpus_edition("2015-03-27")
    view = build_edition_view(edition, Links(root="../"))
    rules = {c.label: c for s in view.toc for c in s.children}
    keywords = {k.label: k.title for k in rules["702."].children}
    # the keyword of each numbered rule of 702, read from the edition itself
    assert keywords["702.36"] == edition.rule("702.36").text
    assert len(keywords) == len([r for r in edition.rules if r.parent == edition.rule("702").id
                                 and r.kind == "numbered"]) - 1  # 702.1 is a sentence
    html = render_edition_html(view)
    assert f'<a href="#r702.36">702.36 {keywords["702.36"]}</a>' in html


def test_presentation_lives_in_render() -> None:
    """Analysis modules return data: no module outside render/ and the two entry points
    (commands/ for the CLI, serve/ for HTTP, which pick a renderer) loads templates or
    writes HTML (the audit, diff and flags reports moved to render/)."""
    package = Path(__file__).resolve().parent.parent / "rulediff"
    html = re.compile(r"jinja2|<(p|td|tr|th|div|span|table|html|ins|del|a)[ >]|\.render\(")
    offenders = [
        str(path.relative_to(package))
        for path in sorted(package.rglob("*.py"))
        if path.parent.name not in ("render", "commands", "serve")
        and html.search(path.read_text(encoding="utf-8"))
    ]
    assert not offenders


def test_segments_html_is_each_segments_spans_html() -> None:
    # segments_html prints each segment's spans as plain text (no Markup per segment,
    # round 22: speed): the same HTML as spans_html gives, escaped once, tagged by op.
    from rulediff.render.env import segments_html, spans_html
    from rulediff.render.views import Segment, Span

    segments = (
        Segment("", (Span("A <widget> & "), Span("101.2", href="#r101.2", title='"x"'))),
        Segment("del", (Span("spins"),)),
        Segment("ins", (Span("rolls", cls="ref dangling"),)),
    )
    tags = {"": ("", ""), "del": ("<del>", "</del>"), "ins": ("<ins>", "</ins>")}
    want = "".join(f"{tags[g.op][0]}{spans_html(g.spans)}{tags[g.op][1]}" for g in segments)
    assert str(segments_html(segments)) == want
    assert "&lt;widget&gt; &amp;" in want and "&#34;x&#34;" in want
    assert str(segments_html(segments, keep="del")) == want.replace(
        f"<ins>{spans_html(segments[2].spans)}</ins>", ""
    )


def test_escape_writes_what_markupsafe_writes() -> None:
    # _escape returns a plain string without any of the five characters as it is
    # (round 25: speed); every value must still print as markupsafe escapes it.
    from markupsafe import Markup, escape

    from rulediff.render.env import _escape

    values = ["plain words", "", "a & b", "<i>", "it's", 'say "x"', "‘curly’ — 702.3", 7, None]
    values += [Markup("<b>kept</b>")]
    for value in values:
        assert _escape(value) == str(escape(value))


def _segments_by_full_scan(words, old, new):  # type: ignore[no-untyped-def]
    """word_segments as it was before round 25: every reference tested for every run."""
    from rulediff.render.changelog import _OP, _visible_space
    from rulediff.render.views import Segment, Span

    old_text = "".join(w.text for w in words if w.op != "insert")
    new_text = "".join(w.text for w in words if w.op != "delete")
    refs = {"old": old.references(old_text), "new": new.references(new_text)}
    pos = {"old": 0, "new": 0}
    out = []
    for w in words:
        side_name = "old" if w.op == "delete" else "new"
        side = old if side_name == "old" else new
        start = pos[side_name]
        end = start + len(w.text)
        spans = []
        cursor = start
        for r_start, r_end, target in refs[side_name]:
            if r_end <= start or r_start >= end:
                continue
            a, b = max(r_start, start), min(r_end, end)
            if a > cursor:
                spans.append(Span(w.text[cursor - start : a - start]))
            spans.append(side.link(w.text[a - start : b - start], target))
            cursor = b
        if w.op != "equal" and not w.text.strip():
            spans = [_visible_space(w.text, w.op)]
        elif cursor < end or not spans:
            spans.append(Span(w.text[cursor - start :]))
        out.append(Segment(_OP[w.op], tuple(spans)))
        if w.op == "equal":
            pos["old"] += len(w.text)
            pos["new"] += len(w.text)
        else:
            pos[side_name] = end
    return tuple(out)


def _assert_segments_as_by_full_scan(old_edition, new_edition) -> int:  # type: ignore[no-untyped-def]
    from rulediff.render.changelog import _Side, word_segments

    d = diff(old_edition, new_edition)
    old = _Side(old_edition, "", "o-", "old")
    new = _Side(new_edition, "", "n-", "new")
    linked = 0
    for c in d.changes:
        for words in (c.words, *(e.words for e in c.examples)):
            got = word_segments(words, old, new)
            assert got == _segments_by_full_scan(words, old, new)
            linked += sum(1 for g in got for s in g.spans if s.cls and "ref" in s.cls)
    return linked


def test_word_segments_walk_each_sides_references_once() -> None:
    # A side's references are in text order without overlap and its runs go forward, so
    # word_segments passes each reference once (round 25: speed): the same segments as
    # testing every reference against every run, on a synthetic pair.
    dates = list(EDITIONS)
    assert _assert_segments_as_by_full_scan(synthetic(dates[0]), synthetic(dates[-1])) > 0


def test_word_segments_walk_each_sides_references_once_on_the_corpus() -> None:
    # The same on a corpus pair read at run time (many references cut by runs).
    old, new = corpus_edition("2021-06-18"), corpus_edition("2021-07-23")
    assert _assert_segments_as_by_full_scan(old, new) > 0
