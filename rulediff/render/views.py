"""View-model dataclasses: what a template shows, already decided.

Templates only loop and print; every choice (which text is linked where, which CSS
class a change gets, what a count says) is made while building these frozen records.
That keeps the templates small and lets the site hash a page's inputs cheaply.
"""

from __future__ import annotations

from dataclasses import dataclass

#: The one mapping from a change kind (``rulediff.diff``) to its CSS class. Templates
#: never spell a kind's class themselves; unknown kinds fall back to ``ch-other``.
KIND_CLASS: dict[str, str] = {
    "unchanged": "ch-unchanged",
    "added": "ch-added",
    "removed": "ch-removed",
    "edited": "ch-edited",
    "renumbered": "ch-renumbered",
    "renumbered-edited": "ch-renumbered-edited",
    "split": "ch-split",
    "merged": "ch-merged",
    "references-only": "ch-references",
    "editorial": "ch-editorial",
    "renamed": "ch-renamed",
}


def kind_class(kind: str) -> str:
    """The CSS class of a change kind."""
    return KIND_CLASS.get(kind, "ch-other")


@dataclass(frozen=True, slots=True)
class Span:
    """A piece of text, possibly a link or a marked-up change."""

    text: str
    href: str | None = None
    """A link target (relative URL or ``#anchor``)."""
    cls: str | None = None
    """CSS class: ``ref``, ``ref dangling``, or the tag name ``ins``/``del`` for changes."""
    title: str | None = None
    """Tooltip (the target of a reference, say)."""


@dataclass(frozen=True, slots=True)
class NavLink:
    label: str
    href: str | None
    """``None``: shown greyed out (no such page)."""
    rel: str | None = None


@dataclass(frozen=True, slots=True)
class Page:
    """What every page's frame needs."""

    title: str
    stylesheet: str | None
    """Relative URL of the stylesheet; ``None`` inlines it (a standalone file)."""
    home: str | None
    """The site index, ``None`` for a standalone page."""
    crumbs: tuple[NavLink, ...] = ()
    nav: tuple[NavLink, ...] = ()
    generator: str = "rulediff"
    search: str | None = None
    """The site's search page, for the box in the header (``None``: no box)."""


# --- full text of an edition ----------------------------------------------------------
@dataclass(frozen=True, slots=True)
class TextItem:
    """One section heading, rule heading, rule, subrule of an edition's full text."""

    anchor: str
    label: str
    """The number as written in that edition."""
    level: str
    """``section``, ``rule`` (702), ``numbered`` (702.36), ``subrule`` (702.36e)."""
    spans: tuple[Span, ...]
    examples: tuple[tuple[Span, ...], ...] = ()
    history: str | None = None
    """Link to the rule's history page."""


@dataclass(frozen=True, slots=True)
class TocEntry:
    anchor: str
    label: str
    title: str
    children: tuple[TocEntry, ...] = ()


@dataclass(frozen=True, slots=True)
class GlossaryItem:
    anchor: str
    term: str
    paragraphs: tuple[tuple[Span, ...], ...]


@dataclass(frozen=True, slots=True)
class EditionView:
    page: Page
    date: str
    heading: str
    set_label: str | None
    rule_count: int
    toc: tuple[TocEntry, ...]
    items: tuple[TextItem, ...]
    glossary: tuple[GlossaryItem, ...]
    rule_count_label: str = ""


# --- changelog ------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Segment:
    """A run of a word diff: kept (``op == ""``), inserted (``ins``) or deleted (``del``)."""

    op: str
    spans: tuple[Span, ...]


@dataclass(frozen=True, slots=True)
class RuleLink:
    """A rule number shown in a change's header, linked to the full text of its edition."""

    label: str
    href: str | None


@dataclass(frozen=True, slots=True)
class ExampleView:
    kind: str
    css: str
    label: str
    segments: tuple[Segment, ...]


@dataclass(frozen=True, slots=True)
class ChangeView:
    """One change of a changelog."""

    anchor: str
    """Permalink ``id``: ``n702.36e`` (by new number), ``o702.36d`` (removed), ``g-…``."""
    kind: str
    css: str
    domain: str
    old: tuple[RuleLink, ...]
    new: tuple[RuleLink, ...]
    significance: str
    score: str
    notes: tuple[str, ...]
    """Moved, ambiguous (with the runner-ups), sweeps, list and reference changes."""
    segments: tuple[Segment, ...]
    """The text with its word diff (the whole text of the rule, old and new merged)."""
    show_text: bool
    examples: tuple[ExampleView, ...]
    history: str | None
    label: str = ""
    """The badge: the strongest change ("edited", "example edited", "renumbered, reworded")."""
    minor: bool = False
    """Renumbered only, references only or typography: a row of the compact table."""
    sides: bool = False
    """Show old | new side by side (an edit of a matched rule)."""
    title: str = ""
    """The rule's number(s) as one line of text, for headings and accessible names."""
    alternatives: tuple[RuleLink, ...] = ()
    """An ambiguous match's runner-ups, each with its edition."""


@dataclass(frozen=True, slots=True)
class RuleGroup:
    """The changes under one numbered rule (702.36 Morph), or one change on its own."""

    anchor: str
    title: str
    """``""``: no heading of its own (a single change, which is its own heading)."""
    changes: tuple[ChangeView, ...]


@dataclass(frozen=True, slots=True)
class ChangeGroup:
    anchor: str
    title: str
    changes: tuple[ChangeView, ...]
    rules: tuple[RuleGroup, ...] = ()
    """The same changes grouped under their numbered rule (minor ones left out)."""


@dataclass(frozen=True, slots=True)
class Count:
    label: str
    css: str
    count: int


@dataclass(frozen=True, slots=True)
class ContentsRow:
    kind: str
    css: str
    old: str
    new: str


@dataclass(frozen=True, slots=True)
class EmbeddedText:
    """A full text carried inside a standalone page (so its rule links work offline)."""

    anchor: str
    title: str
    html: str
    """The rendered rules and glossary (``markupsafe.Markup``: escaped when made)."""


@dataclass(frozen=True, slots=True)
class ChangelogView:
    page: Page
    old: str
    new: str
    old_href: str | None
    new_href: str | None
    heading: str
    counts: tuple[Count, ...]
    """Rule changes by kind."""
    significance: tuple[Count, ...]
    other_counts: tuple[Count, ...]
    """Glossary, examples, contents, moved, ambiguous."""
    sweeps: tuple[tuple[str, str, int], ...]
    groups: tuple[ChangeGroup, ...]
    contents: tuple[ContentsRow, ...]
    texts: tuple[EmbeddedText, ...] = ()
    minor: tuple[ChangeView, ...] = ()
    """Renumbered-only, references-only and typography changes: one compact table."""
    major: int = 0
    """How many changes are shown as cards."""
    old_date: str = ""
    new_date: str = ""


# --- rule history -------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EventView:
    """One edition in which something happened to the rule."""

    anchor: str
    date: str
    date_href: str | None
    """The edition's full text."""
    change_href: str | None
    """The change in that edition's changelog."""
    kind: str
    css: str
    old: tuple[RuleLink, ...]
    new: tuple[RuleLink, ...]
    summary: str
    """One line: "renumbered 702.36e → 702.36f", "added", "present in the oldest edition"…"""
    segments: tuple[Segment, ...]
    """Its text with the word diff against the previous edition (empty when unchanged)."""
    examples: tuple[str, ...]
    moved_text: tuple[str, ...] = ()
    """One line per sentence that went to (or came from) another rule."""
    part: RuleLink | None = None
    """On a numbered rule's page, the subrule the event belongs to (``None``: the rule)."""
    label: str = ""
    """The badge, when it says more than the kind ("first seen": in the oldest edition)."""
    pieces: str = ""
    """Which old rule went where, in a group of several old and several new rules
    ("pieces: 310.1 → 510.1, 510.3; 310.2 → 510.1"); empty otherwise."""


@dataclass(frozen=True, slots=True)
class HistoryView:
    page: Page
    rule: str
    """The rule's number in the edition the history is told from."""
    edition: str
    status: str
    numbers: tuple[str, ...]
    """Every number it has had, newest first."""
    current: tuple[Span, ...]
    """Its text in that edition."""
    current_title: str
    current_href: str | None
    events: tuple[EventView, ...]
    life: object = None
    """The inline SVG of the rule's life (:class:`rulediff.render.lineage.LifeView`)."""
    parts: tuple[RuleLink, ...] = ()
    """The subrules whose histories are rolled into this page (a numbered rule's page)."""
    name: str = ""
    """The rule's title or keyword ("Morph"), when it has one."""
    removed_parts: tuple[RuleLink, ...] = ()
    """Subrules removed while under this rule (numbered as in their last edition)."""


@dataclass(frozen=True, slots=True)
class RedirectView:
    """A page that moved: the old name of a rule's history page, now at ``target``."""

    page: Page
    label: str
    target: str


@dataclass(frozen=True, slots=True)
class RuleRow:
    """One rule in the list of every rule's history page."""

    number: str
    href: str
    status: str
    preview: str

    @property
    def counted(self) -> bool:
        """A numbered rule or subrule (what every page counts), not a heading."""
        return "." in self.number


@dataclass(frozen=True, slots=True)
class RulesIndexView:
    page: Page
    current: tuple[RuleRow, ...]
    removed: tuple[RuleRow, ...]


# --- site index and feed ----------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class EditionRow:
    """One edition in the site index."""

    date: str
    set_label: str | None
    rule_count: int
    text_href: str
    changes_href: str | None
    """The changelog from the previous edition (``None`` for the first)."""
    counts: tuple[tuple[str, str, int], ...]
    """(kind, CSS class, count) for each kind that occurs, in a fixed order."""
    total: int
    """Changed items (everything but ``unchanged``)."""


@dataclass(frozen=True, slots=True)
class Bar:
    """One bar of the index chart: the changes an edition brought."""

    x: float
    width: float
    segments: tuple[tuple[str, float, float], ...]
    """(CSS class, y, height) stacked from the bottom."""
    href: str | None
    label: str


@dataclass(frozen=True, slots=True)
class Chart:
    width: int
    height: int
    bars: tuple[Bar, ...]
    ticks: tuple[tuple[float, str], ...]
    """(y, label) on the vertical axis."""
    years: tuple[tuple[float, str], ...]
    """(x, label) on the horizontal axis."""
    legend: tuple[tuple[str, str], ...]
    """(CSS class, label)."""
    plot_top: int
    plot_bottom: int
    plot_left: int


@dataclass(frozen=True, slots=True)
class IndexView:
    page: Page
    editions: tuple[EditionRow, ...]
    """Newest first."""
    chart: Chart
    kinds: tuple[tuple[str, str], ...]
    """(kind, CSS class) columns of the table."""
    feed_href: str
    rules_href: str | None
    search_href: str = "search.html"
    audit_href: str = "audit.html"
    flags_href: str = "flags.html"
    rule_count_label: str = ""


@dataclass(frozen=True, slots=True)
class FeedEntry:
    id: str
    title: str
    updated: str
    href: str
    summary: str


@dataclass(frozen=True, slots=True)
class FeedView:
    id: str
    title: str
    updated: str
    self_href: str
    home_href: str
    entries: tuple[FeedEntry, ...]
