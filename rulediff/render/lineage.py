"""The life of a rule as an inline SVG: its numbers along a time axis, splits and merges
as branches, each number linking to that edition's text (no JavaScript).

Built from a :class:`rulediff.lineage.FamilyTree` (the history page derives one from the
rule's history with :func:`rulediff.lineage.tree_from_history`). Every position is
decided here; the partial template ``reports/_life.html.j2`` only prints.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass

from ..lineage import FamilyTree, Segment
from .links import Links

WIDTH = 640
LEFT, RIGHT, TOP = 16, 64, 34
LANE = 30
BRANCH_COLOUR = "#c60"
LABEL_GAP = 56
"""Two stretches share a lane only this far apart (room for the number's label)."""


@dataclass(frozen=True, slots=True)
class LifeBar:
    """One stretch of editions under one number: a line with a dot where it starts."""

    x1: float
    x2: float
    y: float
    label: str
    href: str | None
    title: str
    css: str


@dataclass(frozen=True, slots=True)
class LifeLink:
    """A renumbering, split or merge: a curve from one stretch to the next."""

    path: str
    css: str
    title: str
    stroke: str
    """Splits and merges (branches) in orange, renumberings in grey."""


@dataclass(frozen=True, slots=True)
class LifeTick:
    x: float
    label: str


@dataclass(frozen=True, slots=True)
class LifeView:
    width: int
    height: int
    title: str
    bars: tuple[LifeBar, ...]
    links: tuple[LifeLink, ...]
    ticks: tuple[LifeTick, ...]
    axis_y: float


def _day(date: str) -> int:
    return dt.date.fromisoformat(date).toordinal()


def build_life_view(tree: FamilyTree, links: Links) -> LifeView | None:
    """The SVG's view-model, or ``None`` for a tree without dated stretches."""
    try:
        first, last = _day(tree.first), _day(tree.last)
    except ValueError:
        return None
    if not tree.segments:
        return None
    span = max(last - first, 1)

    def x(date: str) -> float:
        return round(LEFT + (_day(date) - first) / span * (WIDTH - LEFT - RIGHT), 1)

    parent_of: dict[str, str] = {}
    for link in tree.links:
        parent_of.setdefault(link.target, link.source)
    lane_of: dict[str, int] = {}
    lane_end: list[float] = []

    def fits(lane: int, seg: Segment) -> bool:
        return lane_end[lane] + LABEL_GAP <= x(seg.first)

    for seg in sorted(tree.segments, key=lambda s: (s.first, s.partner, s.key)):
        want = lane_of.get(parent_of.get(seg.key, ""), -1)
        if want >= 0 and fits(want, seg):
            lane = want
        else:
            lane = next((k for k in range(len(lane_end)) if fits(k, seg)), len(lane_end))
        if lane == len(lane_end):
            lane_end.append(float("-inf"))
        lane_of[seg.key] = lane
        lane_end[lane] = max(lane_end[lane], x(seg.last))

    def y(key: str) -> float:
        return TOP + lane_of[key] * LANE

    by_key = {s.key: s for s in tree.segments}
    bars = tuple(
        LifeBar(
            x(s.first),
            max(x(s.last), x(s.first) + 2),
            y(s.key),
            s.rule,
            links.rule(s.first, s.rule),
            f"{s.rule}: {s.first}"
            + ("" if s.first == s.last else f" to {s.last}")
            + (f"; edited {', '.join(s.edited)}" if s.edited else ""),
            "life-bar partner" if s.partner else "life-bar",
        )
        for s in tree.segments
    )
    curves = []
    for link in tree.links:
        a, b = by_key.get(link.source), by_key.get(link.target)
        if a is None or b is None:
            continue
        x1, y1, x2, y2 = x(a.last), y(a.key), x(b.first), y(b.key)
        mid = round((x1 + x2) / 2, 1)
        curves.append(
            LifeLink(
                f"M{x1},{y1} C{mid},{y1} {mid},{y2} {x2},{y2}",
                f"life-link {link.kind}",
                f"{link.kind} in {link.date}: {a.rule} → {b.rule}",
                BRANCH_COLOUR if link.kind in ("split", "merged") else "#888",
            )
        )
    height = int(TOP + len(lane_end) * LANE)
    first_year, last_year = int(tree.first[:4]), int(tree.last[:4])
    years = [yr for yr in range(first_year + 1, last_year + 1)]
    step = max(1, -(-len(years) // 8))
    ticks = tuple(LifeTick(x(f"{yr}-01-01"), str(yr)) for yr in years[::step])
    return LifeView(
        WIDTH,
        height,
        f"Numbers of rule {tree.rule} over time",
        bars,
        tuple(curves),
        ticks,
        TOP - 22,
    )
