"""The list of every rule's history page: rules in force, then removed ones."""

from __future__ import annotations

from collections.abc import Sequence

from .env import template
from .links import Links
from .views import NavLink, Page, RuleRow, RulesIndexView


def build_rules_index_view(
    rows: Sequence[tuple[str, str, str, str, bool]], links: Links
) -> RulesIndexView:
    """``rows``: (number, page path from the site top, status, preview, in force)."""

    def row(r: tuple[str, str, str, str, bool]) -> RuleRow:
        return RuleRow(r[0], f"{links.root}{r[1]}", r[2], r[3])

    page = Page(
        title="Every rule's history",
        search=links.search(),
        stylesheet=links.static("rulediff.css"),
        home=links.index(),
        crumbs=(NavLink("Editions", links.index()), NavLink("Rules", None)),
    )
    return RulesIndexView(
        page=page,
        current=tuple(row(r) for r in rows if r[4]),
        removed=tuple(row(r) for r in rows if not r[4]),
    )


def render_rules_index(view: RulesIndexView) -> str:
    return template("rules.html.j2").render(v=view, page=view.page)
