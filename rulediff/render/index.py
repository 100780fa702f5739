"""The site's front page (editions, counts, a chart of changes) and its Atom feed."""

from __future__ import annotations

import math
import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass

from .edition import RULE_COUNT_LABEL, set_label
from .env import template
from .links import Links
from .views import (
    KIND_CLASS,
    Bar,
    Chart,
    EditionRow,
    FeedEntry,
    FeedView,
    IndexView,
    NavLink,
    Page,
    kind_class,
)

#: Kinds in the order the table and the chart stack them (``unchanged`` is not a change).
CHANGE_KINDS: tuple[str, ...] = tuple(k for k in KIND_CLASS if k != "unchanged")

#: Namespace of the feed's ``urn:uuid`` ids: stable ids without pretending to own a domain.
FEED_NAMESPACE = uuid.UUID("6f1c2d8e-3b0a-5c7e-9a41-2f8d7b6e5a10")


@dataclass(frozen=True, slots=True)
class EditionSummary:
    """What the index says about one edition (the site builder fills these in)."""

    date: str
    sha256: str
    set_name: str | None
    set_code: str | None
    rule_count: int
    previous: str | None
    """Date of the edition before it (``None`` for the first)."""
    counts: Mapping[str, int] | None
    """Rule changes from the previous edition by kind; ``None`` for the first."""


def _changed(counts: Mapping[str, int] | None) -> int:
    if not counts:
        return 0
    return sum(n for kind, n in counts.items() if kind != "unchanged")


def _kind_order(kind: str) -> tuple[int, str]:
    return (CHANGE_KINDS.index(kind), "") if kind in CHANGE_KINDS else (len(CHANGE_KINDS), kind)


def _nice_ticks(top: int) -> list[int]:
    """Tick values for a square-root axis up to ``top``."""
    ticks = [0]
    for value in (10, 50, 100, 250, 500, 1000, 2000, 3000, 5000, 10000):
        if value <= top:
            ticks.append(value)
    return ticks


def build_chart(rows: Sequence[EditionSummary], links: Links) -> Chart:
    """A bar per edition (oldest left), stacked by kind, on a square-root scale.

    Square root because the 2009 renumbering touched thousands of rules while most
    editions change a few dozen: on a linear axis every other bar would be a sliver.
    """
    width, height = 760, 230
    left, right, top, bottom = 44, 8, 10, 26
    plot_w, plot_h = width - left - right, height - top - bottom
    n = max(len(rows), 1)
    step = plot_w / n
    bar_w = max(step * 0.8, 1.0)
    peak = max((_changed(r.counts) for r in rows), default=0) or 1
    scale = plot_h / math.sqrt(peak)

    bars: list[Bar] = []
    years: list[tuple[float, str]] = []
    last_year = ""
    for i, row in enumerate(rows):
        x = left + i * step + (step - bar_w) / 2
        year = row.date[:4]
        if year != last_year and (not years or x - years[-1][0] > 28):
            years.append((round(x, 1), year))
        last_year = year
        total = _changed(row.counts)
        segments: list[tuple[str, float, float]] = []
        if total:
            # Each boundary sits at the square root of the count below it, so the
            # segments read on the same axis as the bar (not shares of a root).
            below = 0
            base = top + plot_h
            for kind, count in sorted(
                (row.counts or {}).items(), key=lambda kv: _kind_order(kv[0])
            ):
                if kind == "unchanged" or count <= 0:
                    continue
                y0 = base - math.sqrt(below) * scale
                below += count
                y1 = base - math.sqrt(below) * scale
                segments.append((kind_class(kind), round(y1, 2), round(y0 - y1, 2)))
        label = f"{row.date}: {total} changes" if row.previous else f"{row.date}: first edition"
        href = links.changelog(row.previous, row.date) if row.previous else links.edition(row.date)
        bars.append(Bar(round(x, 2), round(bar_w, 2), tuple(segments), href, label))

    ticks = tuple(
        (round(top + plot_h - math.sqrt(v) * scale, 1), str(v)) for v in _nice_ticks(peak)
    )
    present = sorted(
        {k for r in rows for k, c in (r.counts or {}).items() if c and k != "unchanged"},
        key=_kind_order,
    )
    legend = tuple((kind_class(k), k) for k in present)
    return Chart(width, height, tuple(bars), ticks, tuple(years), legend, top, top + plot_h, left)


def build_index_view(rows: Sequence[EditionSummary], links: Links) -> IndexView:
    """The front page: chart, then a table of editions newest first."""
    present = {k for r in rows for k, c in (r.counts or {}).items() if c and k != "unchanged"}
    kinds = tuple((k, kind_class(k)) for k in sorted(present, key=_kind_order))
    table = tuple(
        EditionRow(
            date=r.date,
            set_label=set_label(r.set_name, r.set_code),
            rule_count=r.rule_count,
            text_href=links.edition(r.date) or "",
            changes_href=links.changelog(r.previous, r.date) if r.previous else None,
            counts=tuple((k, cls, (r.counts or {}).get(k, 0)) for k, cls in kinds),
            total=_changed(r.counts),
        )
        for r in reversed(rows)
    )
    page = Page(
        title="Magic: The Gathering Comprehensive Rules — every edition, every change",
        search=links.search(),
        stylesheet=links.static("rulediff.css"),
        home=links.index(),
        crumbs=(NavLink("Editions", None),),
        nav=(NavLink("Atom feed", f"{links.root}feed.xml"),),
    )
    return IndexView(
        page=page,
        editions=table,
        chart=build_chart(rows, links),
        kinds=kinds,
        feed_href=f"{links.root}feed.xml",
        rules_href=f"{links.root}rules/index.html",
        search_href=f"{links.root}search.html",
        audit_href=f"{links.root}audit.html",
        flags_href=f"{links.root}flags.html",
        rule_count_label=RULE_COUNT_LABEL,
    )


def render_index_html(view: IndexView) -> str:
    return template("index.html.j2").render(v=view, page=view.page)


def _summary_text(counts: Mapping[str, int] | None) -> str:
    if counts is None:
        return "The first edition of the corpus."
    parts = [
        f"{counts[k]} {k}"
        for k in sorted(counts, key=_kind_order)
        if k != "unchanged" and counts[k]
    ]
    return ("Rule changes: " + ", ".join(parts) + ".") if parts else "No rule changes."


def build_feed_view(rows: Sequence[EditionSummary], base_url: str = "") -> FeedView:
    """An Atom feed of editions, newest first.

    Entry ids are ``urn:uuid`` values derived from the edition's sha256, so they never
    change; times come from effective dates only (no build time: output is deterministic).
    """
    base = base_url.rstrip("/") + "/" if base_url else ""
    links = Links(root=base)
    entries = tuple(
        FeedEntry(
            id=f"urn:uuid:{uuid.uuid5(FEED_NAMESPACE, r.sha256 or r.date)}",
            title=f"Comprehensive Rules {r.date}"
            + (f" — {set_label(r.set_name, r.set_code)}" if r.set_name or r.set_code else ""),
            updated=f"{r.date}T00:00:00Z",
            href=(links.changelog(r.previous, r.date) if r.previous else links.edition(r.date))
            or "",
            summary=_summary_text(r.counts),
        )
        for r in reversed(rows)
    )
    return FeedView(
        id=f"urn:uuid:{uuid.uuid5(FEED_NAMESPACE, 'rulediff editions feed')}",
        title="Magic: The Gathering Comprehensive Rules editions",
        updated=entries[0].updated if entries else "1970-01-01T00:00:00Z",
        self_href=f"{base}feed.xml",
        home_href=f"{base}index.html",
        entries=entries,
    )


def render_feed(view: FeedView) -> str:
    return template("feed.xml.j2").render(v=view)
