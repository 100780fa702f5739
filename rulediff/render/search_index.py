"""The static site's search: a compact index of the newest edition, read by a small script.

One document per rule (number, title, text) and per glossary entry (term, text) of the
newest edition, each with the page of the rule's history and its place in the full text.
The script (``reports/static/search.js``) ranks the way ``rulediff search`` does: an exact
rule number or glossary term first, then every word of the query (case and accents
folded, ``\\w+`` words) weighted by field (number 10, title 5, text 1) and by rarity
(bm25), a quoted or multi-word phrase found whole before scattered words, then the
rule's place in the edition, so the order is total and deterministic.

The index is a script (``search/index.js`` assigning ``RULEDIFF_SEARCH``), not a ``.json``
file, because a page opened from ``file://`` may load a script but not fetch a file.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from ..model import Edition
from ..search import WEIGHTS
from .env import template
from .links import Links, glossary_anchor
from .views import NavLink, Page

#: Path of the index inside a site.
INDEX_PATH = "search/index.js"


def search_documents(
    edition: Edition, history_page: Callable[[str], str | None]
) -> list[list[str]]:
    """``[kind, label, title, text, target]`` for every section, rule and glossary entry of
    ``edition``, in order. ``kind``: ``s`` section, ``r`` rule, ``g`` glossary entry;
    ``target``: the rule's history page (``""``: none), the glossary entry's anchor. The
    full-text links are made by the script (``editions/<date>.html#r<number>``), so the
    index carries each text once and nothing it can derive."""
    docs: list[list[str]] = []
    for section in edition.sections:
        docs.append(["s", str(section.id), section.title, "", ""])
    for rule in edition.rules:
        if rule.id.is_section:
            continue
        number = str(rule.id)
        docs.append(["r", number, rule.title or "", rule.text, history_page(number) or ""])
    for entry in edition.glossary:
        docs.append(["g", entry.term, "", entry.text, glossary_anchor(entry.term)])
    return docs


def search_index_js(edition: Edition, history_page: Callable[[str], str | None]) -> str:
    """The index script of a site (links relative to the site's top)."""
    doc = {
        "edition": edition.date_text,
        "text": Links(root="").edition(edition.date_text),
        "weights": list(WEIGHTS),
        "docs": search_documents(edition, history_page),
    }
    data = json.dumps(doc, ensure_ascii=False, separators=(",", ":"), sort_keys=True)
    # "</" cannot close the script element it is read by (the data is also valid JSON).
    return "window.RULEDIFF_SEARCH = " + data.replace("</", "<\\/") + ";\n"


@dataclass(frozen=True, slots=True)
class SearchView:
    page: Page
    edition: str
    index_src: str
    script_src: str
    rules_href: str


def build_search_view(edition_date: str, links: Links) -> SearchView:
    page = Page(
        title="Search the Comprehensive Rules",
        stylesheet=links.static("rulediff.css"),
        home=links.index(),
        crumbs=(NavLink("Editions", links.index()), NavLink("Search", None)),
        search=None,
    )
    return SearchView(
        page=page,
        edition=edition_date,
        index_src=f"{links.root}{INDEX_PATH}",
        script_src=links.static("search.js"),
        rules_href=f"{links.root}rules/index.html",
    )


def render_search(view: SearchView) -> str:
    return template("search.html.j2").render(v=view, page=view.page)


__all__ = [
    "INDEX_PATH",
    "build_search_view",
    "render_search",
    "search_documents",
    "search_index_js",
]
