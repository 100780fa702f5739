"""View-models of the two pages only ``rulediff serve`` has: the home form and search results.

The server's other pages are the static site's (edition, changelog, history), rendered by
their own modules; these two need a live request (a choice of editions, a query).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .env import template
from .links import glossary_anchor, rule_anchor
from .views import NavLink, Page


@dataclass(frozen=True, slots=True)
class Choice:
    """One edition in the form's lists."""

    date: str
    label: str


@dataclass(frozen=True, slots=True)
class HomeView:
    page: Page
    editions: tuple[Choice, ...]
    old: str
    """Chosen at first: the edition before the newest."""
    new: str


def build_home_view(editions: Iterable[tuple[str, str | None]]) -> HomeView:
    """The form of ``/`` from (date, set name or code) of each edition, oldest first."""
    choices = tuple(Choice(date, f"{date} {label or ''}".strip()) for date, label in editions)
    page = Page(title="rulediff", stylesheet="static/rulediff.css", home=None)
    old = choices[-2].date if len(choices) > 1 else choices[0].date
    return HomeView(page, choices, old, choices[-1].date)


def render_home(view: HomeView) -> str:
    return template("serve_home.html.j2").render(v=view, page=view.page)


@dataclass(frozen=True, slots=True)
class HitView:
    name: str
    number: str
    href: str
    history: str | None
    span: str
    """All editions: the first and last edition the hit is in, and how many."""
    snippet: tuple[tuple[str, bool], ...]
    """The snippet's pieces, each marked when it is a matched phrase."""


@dataclass(frozen=True, slots=True)
class SearchView:
    page: Page
    query: str
    edition: str
    scope: str
    phrases: tuple[Mapping[str, Any], ...]
    hits: tuple[HitView, ...]


def _snippet(text: str) -> tuple[tuple[str, bool], ...]:
    parts = re.split(r"«([^»]*)»", text)
    return tuple((part, k % 2 == 1) for k, part in enumerate(parts) if part)


def _hit(h: Mapping[str, Any], every: bool) -> HitView:
    where = h["last"]
    if h["kind"] == "glossary":
        name = f"Glossary: {h['title']}"
        href = f"editions/{where}.html#{glossary_anchor(h['title'])}"
        history = None
    else:
        name = " ".join(x for x in (h["number"], h["title"]) if x)
        href = f"editions/{where}.html#{rule_anchor(h['number'])}"
        history = f"rules/{h['number']}_{where}.html"
    span = f"{h['first']} – {h['last']} · {h['editions']} editions" if every else ""
    return HitView(name, h["number"], href, history, span, _snippet(h["snippet"]))


def build_search_view(
    document: Mapping[str, Any], query: str, edition: str, date: str | None
) -> SearchView:
    """Search results from the JSON document of ``rulediff search`` (``date``: the one
    edition searched; ``None``: all of them)."""
    every = date is None
    page = Page(
        title=f"Search: {query}",
        stylesheet="static/rulediff.css",
        home="index.html",
        crumbs=(NavLink("Search", None),),
    )
    return SearchView(
        page,
        query,
        edition,
        "All editions" if every else f"Edition of {date}",
        tuple(document.get("phrases", ())),
        tuple(_hit(h, every) for h in document["hits"]),
    )


def render_search_results(view: SearchView) -> str:
    return template("serve_search.html.j2").render(v=view, page=view.page)
