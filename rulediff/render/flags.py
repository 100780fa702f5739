"""Human-readable reports of the flags (:mod:`rulediff.flags`): the timeline as plain
text and as an HTML page, and the ``--check-engine`` report.

Both show, for each flag, its first value and every edition where the value changed,
with the rule ids and text (on the new side) that changed it. The HTML page is one
file (stylesheet inlined, no scripts, no CDN), autoescaped, and deterministic.
"""

from __future__ import annotations

import json
from collections.abc import Callable
from dataclasses import dataclass

from ..flags.flagset import REGISTRY, FlagSet
from ..flags.registry import Value
from ..flags.timeline import FlagChange, changes
from .env import template
from .links import Links
from .views import NavLink, Page, RuleLink


def show_value(value: Value | None) -> str:
    """A value as a reader sees it: ``true``, ``"all-die"`` → ``all-die``, lists counted."""
    if value is None:
        return "undetermined"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, tuple):
        return f"{len(value)} item{'s' if len(value) != 1 else ''}"
    return str(value)


def _list_delta(change: FlagChange) -> str:
    parts = [f"+{item}" for item in change.added] + [f"-{item}" for item in change.removed]
    return ", ".join(parts)


def timeline_text(sets: list[FlagSet]) -> str:
    """The text timeline: one block per flag, one line per value it took."""
    lines: list[str] = [
        f"Behaviour flags across {len(sets)} editions ({_date(sets[0])} to {_date(sets[-1])})."
        if sets
        else "No editions.",
    ]
    for name, items in changes(sets).items():
        spec = REGISTRY[name]
        lines += ["", f"{name} ({spec.type}): {spec.description}"]
        for change in items:
            head = f"  {change.date}  {show_value(change.after)}"
            if isinstance(change.after, tuple) and change.previous_date is not None:
                delta = _list_delta(change)
                head += f" ({delta})" if delta else ""
            rules = ", ".join(change.rules) or "-"
            lines.append(f"{head}  [{rules}]")
            lines.append(f"      {' '.join(change.evidence.split())}")
    return "\n".join(lines) + "\n"


def _date(fs: FlagSet) -> str:
    return fs.effective_date.isoformat() if fs.effective_date else "unknown"


# --- HTML ----------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ChangeRow:
    date: str
    value: str
    css: str
    """CSS class of the value: ``v-true``, ``v-false``, ``v-undetermined``, ``v-enum``…"""
    delta: str
    rules: tuple[RuleLink, ...]
    """The rules that decided the value, linked to that edition's full text in a site."""
    evidence: str
    before_evidence: str


@dataclass(frozen=True, slots=True)
class FlagBlock:
    name: str
    type: str
    description: str
    allowed: str
    rows: tuple[ChangeRow, ...]
    current: str


@dataclass(frozen=True, slots=True)
class TimelinePage:
    page: Page
    title: str
    first: str
    last: str
    count: int
    flags: tuple[FlagBlock, ...]


def _css_class(value: Value | None) -> str:
    if value is None:
        return "v-undetermined"
    if isinstance(value, bool):
        return "v-true" if value else "v-false"
    if isinstance(value, tuple):
        return "v-list"
    if isinstance(value, int):
        return "v-int"
    return "v-enum"


def timeline_page(
    sets: list[FlagSet],
    links: Links | None = None,
    rule_href: Callable[[str, str], str | None] | None = None,
) -> TimelinePage:
    """The view of the timeline; in a site (``links``), ``rule_href(date, rule)`` links
    each rule number to its edition's full text."""
    links = links or Links(site=False)
    blocks: list[FlagBlock] = []
    for name, items in changes(sets).items():
        spec = REGISTRY[name]
        rows = tuple(
            ChangeRow(
                date=c.date,
                value=show_value(c.after),
                css=_css_class(c.after),
                delta=_list_delta(c) if c.previous_date is not None else "",
                rules=tuple(
                    RuleLink(r, rule_href(c.date, r) if rule_href else None) for r in c.rules
                ),
                evidence=" ".join(c.evidence.split()),
                before_evidence=" ".join(c.before_evidence.split()),
            )
            for c in items
        )
        blocks.append(
            FlagBlock(
                name,
                spec.type,
                spec.description,
                ", ".join(spec.allowed),
                rows,
                rows[-1].value if rows else "undetermined",
            )
        )
    title = "Behaviour flags across editions"
    page = Page(
        title=title,
        search=links.search(),
        stylesheet=links.static("rulediff.css") if links.site else None,
        home=links.index(),
        crumbs=(NavLink("Editions", links.index()), NavLink("Flags", None)) if links.site else (),
    )
    return TimelinePage(
        page=page,
        title=title,
        first=_date(sets[0]) if sets else "",
        last=_date(sets[-1]) if sets else "",
        count=len(sets),
        flags=tuple(blocks),
    )


def render_timeline(view: TimelinePage) -> str:
    return template("flags_timeline.html.j2").render(v=view, page=view.page)


def timeline_html(sets: list[FlagSet]) -> str:
    """The standalone HTML timeline (template ``reports/flags_timeline.html.j2``)."""
    return render_timeline(timeline_page(sets))


def check_text(disagreements: list, agreeing: list[str], edition: str, source: str) -> str:
    """The ``--check-engine`` report as text."""
    lines = [
        f"{source} against the edition effective {edition}: "
        f"{len(agreeing)} flag(s) agree, {len(disagreements)} disagree."
    ]
    for d in disagreements:
        derived = (
            show_value(d.derived)
            if not isinstance(d.derived, tuple)
            else json.dumps(list(d.derived))
        )
        declared = (
            show_value(d.declared)
            if not isinstance(d.declared, tuple)
            else json.dumps(list(d.declared))
        )
        lines.append(
            f"  {d.flag}: engine says {declared}, edition says {derived}"
            f"{' [' + ', '.join(d.rules) + ']' if d.rules else ''}"
        )
        lines.append(f"      {' '.join(d.evidence.split())}")
    return "\n".join(lines) + "\n"
