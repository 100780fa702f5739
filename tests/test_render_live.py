"""The view-models of the live server's own pages (home form, search results)."""

from __future__ import annotations

from rulediff.render.live import build_home_view, build_search_view, render_search_results


def test_home_form_starts_with_the_newest_pair() -> None:
    view = build_home_view([("2020-01-01", "THB"), ("2021-01-01", None), ("2022-01-01", "NEO")])
    assert [c.label for c in view.editions] == ["2020-01-01 THB", "2021-01-01", "2022-01-01 NEO"]
    assert (view.old, view.new) == ("2021-01-01", "2022-01-01")
    only = build_home_view([("2020-01-01", None)])
    assert (only.old, only.new) == ("2020-01-01", "2020-01-01")


def _document() -> dict:
    return {
        "hits": [
            {
                "kind": "rule",
                "number": "702.2b",
                "title": "Deathtouch",
                "first": "2009-07-11",
                "last": "2026-06-19",
                "editions": 80,
                "snippet": "a <b> source with «deathtouch» deals",
            },
            {
                "kind": "glossary",
                "number": "",
                "title": "Deathtouch",
                "first": "2009-07-11",
                "last": "2026-06-19",
                "editions": 80,
                "snippet": "«Deathtouch» (keyword)",
            },
        ]
    }


def test_search_results_link_text_and_history_and_mark_phrases() -> None:
    view = build_search_view(_document(), "deathtouch", "all", None)
    rule, term = view.hits
    assert rule.name == "702.2b Deathtouch"
    assert rule.href == "editions/2026-06-19.html#r702.2b"
    assert rule.history == "rules/702.2b_2026-06-19.html"
    assert rule.snippet == (("a <b> source with ", False), ("deathtouch", True), (" deals", False))
    assert rule.span == "2009-07-11 – 2026-06-19 · 80 editions"
    assert term.history is None and term.name == "Glossary: Deathtouch"
    one = build_search_view(_document(), "deathtouch", "latest", "2026-06-19")
    assert one.scope == "Edition of 2026-06-19" and one.hits[0].span == ""


def test_search_results_page_escapes_the_text() -> None:
    html = render_search_results(build_search_view(_document(), "<deathtouch>", "all", None))
    assert "a &lt;b&gt; source" in html and "<b> source" not in html
    assert "&lt;deathtouch&gt;" in html and "<deathtouch>" not in html
    assert "<mark>deathtouch</mark>" in html
