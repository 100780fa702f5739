"""The changelog page of two editions, built from :class:`rulediff.diff.EditionDiff`.

A summary (counts by kind and significance), then the changes grouped by section, each
with a permalink anchor, its rule numbers linked to the full text of their edition
(``old → new`` for a move), and its text with insertions and deletions marked.

Two settings:

* in a site (``Links(site=True)``) rule numbers and references link to the full-text
  pages of the site;
* standalone (``rulediff diff --format html``): one self-contained file. When the two
  editions are given, their full texts are carried at the end of the page (collapsed),
  so every rule number still links somewhere from ``file://``.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from markupsafe import Markup

from .. import cache
from ..collector import collector_paused
from ..diff import Change, EditionDiff, ExampleChange, WordOp
from ..model import Edition, RuleId
from .difftext import group_note, list_notes
from .edition import HistoryKey, glossary_items, linked_spans, rule_name, set_label, text_items
from .env import fingerprint, template
from .links import Links, change_anchor, glossary_anchor, rule_anchor
from .refs import find_references
from .views import (
    ChangeGroup,
    ChangelogView,
    ChangeView,
    ContentsRow,
    Count,
    EmbeddedText,
    ExampleView,
    NavLink,
    Page,
    RuleGroup,
    RuleLink,
    Segment,
    Span,
    kind_class,
)

_OP = {"equal": "", "insert": "ins", "delete": "del"}
#: Anchor prefixes of the full texts embedded in a standalone page.
OLD_PREFIX, NEW_PREFIX = "o-", "n-"


class _Side:
    """One edition as seen from the changelog: how to link its rules and references."""

    def __init__(self, edition: Edition | None, href: str | None, prefix: str, date: str) -> None:
        self.edition = edition
        self.href = href
        """URL of the full text (``""``: in this page, ``None``: nowhere)."""
        self.prefix = prefix
        self.date = date

    def rule(self, rule_id: str) -> str | None:
        if self.href is None:
            return None
        return f"{self.href}#{self.prefix}{rule_anchor(rule_id)}"

    def term(self, term: str) -> str | None:
        if self.href is None:
            return None
        return f"{self.href}#{self.prefix}{glossary_anchor(term)}"

    def references(self, text: str) -> Sequence[tuple[int, int, str]]:
        if self.edition is None or self.href is None:
            return ()
        return find_references(text)

    def link(self, text: str, target: str) -> Span:
        ed = self.edition
        assert ed is not None
        exists = ed.rule(target) is not None or (
            len(target) == 1 and ed.section(target) is not None
        )
        if not exists:
            return Span(text, None, "ref dangling", f"{target}: not in {self.date}")
        return Span(text, self.rule(target), "ref", f"{target} ({self.date})")


def word_segments(words: Sequence[WordOp], old: _Side, new: _Side) -> tuple[Segment, ...]:
    """Word-diff runs as segments, references inside them linked to their edition.

    References are found on each side's whole text (a reference may straddle runs),
    then cut at the runs' bounds: kept and inserted text link into the new edition,
    deleted text into the old one.
    """
    old_text = "".join(w.text for w in words if w.op != "insert")
    new_text = "".join(w.text for w in words if w.op != "delete")
    refs = {"old": old.references(old_text), "new": new.references(new_text)}
    pos = {"old": 0, "new": 0}
    # The references of a side are in text order and do not overlap, and its runs go
    # forward: those ending before a run are passed once for all (not rescanned per run).
    passed = {"old": 0, "new": 0}
    out: list[Segment] = []
    for w in words:
        side_name = "old" if w.op == "delete" else "new"
        side = old if side_name == "old" else new
        start = pos[side_name]
        end = start + len(w.text)
        spans: list[Span] = []
        cursor = start
        side_refs = refs[side_name]
        first = passed[side_name]
        while first < len(side_refs) and side_refs[first][1] <= start:
            first += 1
        passed[side_name] = first
        for k in range(first, len(side_refs)):
            r_start, r_end, target = side_refs[k]
            if r_start >= end:
                break
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


_SPACE_MARKS = str.maketrans({" ": "␣", "\n": "↵", "\t": "⇥", "\u00a0": "⍽"})


def _visible_space(text: str, op: str) -> Span:
    """Inserted or deleted whitespace alone, made visible (an invisible sliver otherwise)."""
    what = "line break" if "\n" in text else "space"
    verb = "added" if op == "insert" else "removed"
    return Span(text.translate(_SPACE_MARKS), None, "ws", f"{what} {verb}")


def _anchor(c: Change, unique: Callable[[str], str]) -> str:
    if c.domain == "glossary":
        term = c.new_id or c.old_id or ""
        side = "gn" if c.new_ids else "go"
        return unique(f"{side}-{glossary_anchor(term)[2:]}")
    return unique(change_anchor(c.old_ids, c.new_ids))


def alternative_links(c: Change, old: _Side, new: _Side) -> tuple[RuleLink, ...]:
    """The runner-ups of an ambiguous match, each named with the edition that has it
    ("702.36d (2015-03-27)") and linked to its text there; unlinked when no edition is
    known. For a removed or added rule, the candidates are in the other edition."""
    out: list[RuleLink] = []
    # an undecided removed (added) rule's candidates are rules of the other edition only
    sides = (new,) if not c.new_ids else (old,) if not c.old_ids else (old, new)
    for rule_id in c.alternatives:
        found = [
            RuleLink(f"{rule_id} ({side.date})", side.rule(rule_id))
            for side in sides
            if side.edition is not None and side.edition.rule(rule_id) is not None
        ]
        out.extend(found or [RuleLink(rule_id, None)])
    return tuple(out)


def _notes(c: Change) -> tuple[str, ...]:
    notes: list[str] = []
    if c.moved:
        notes.append("moved: a new parent, or a new place among its siblings")
    if c.ambiguous and not c.alternatives:
        notes.append("ambiguous match: another candidate scored almost as well")
    if (group := group_note(c)) is not None:
        notes.append(group)
    notes.extend(note for lc in c.lists for note in list_notes(lc))
    if c.retargets:
        parts = [
            f"{r.old} → {r.new}" + ("" if r.follows_renumbering else " (retargeted)")
            for r in c.retargets
        ]
        notes.append("references: " + ", ".join(parts))
    for a, b in c.sweeps:
        notes.append(f"wording sweep: “{a}” → “{b}”")
    if _whitespace_only(c):
        notes.append("only spacing changed (␣ a space, ↵ a line break)")
    elif "typography" in c.flags and c.kind == "editorial":
        notes.append("typography only (quotes, dashes, spacing)")
    return tuple(notes)


#: Kinds that say nothing about a rule's meaning when nothing else changed.
MINOR_KINDS = frozenset({"renumbered", "references-only", "editorial"})
_EXAMPLE_STRENGTH = ("added", "removed", "edited", "renumbered-edited", "renumbered", "moved")


def _edits(c: Change) -> bool:
    return any(w.op != "equal" for w in c.words)


def _whitespace_only(c: Change) -> bool:
    changed = [w for w in c.words if w.op != "equal"]
    return bool(changed) and all(not w.text.strip() for w in changed)


def is_minor(c: Change) -> bool:
    """Renumbered only, references only, typography: nothing a reader must reread."""
    return (
        c.domain == "rule"
        and c.kind in MINOR_KINDS
        and c.significance != "substantive"
        and not c.examples
        and not c.lists
    )


def change_label(c: Change) -> str:
    """The badge names the strongest change, so it never contradicts what is shown."""
    if c.kind == "unchanged" and c.examples:
        kinds = {e.kind for e in c.examples}
        strongest = next((k for k in _EXAMPLE_STRENGTH if k in kinds), sorted(kinds)[0])
        return f"example {strongest}"
    if c.kind == "renumbered" and _edits(c):
        return "renumbered, reworded" if c.significance == "substantive" else "renumbered, swept"
    if c.kind in ("edited", "editorial") and _whitespace_only(c):
        return "spacing edited"
    if c.kind == "references-only":
        return "references"
    return c.kind


def _example_view(e: ExampleChange, old: _Side, new: _Side) -> ExampleView:
    where = " → ".join(
        dict.fromkeys(i.replace("#ex", " example ") for i in (e.old_id, e.new_id) if i)
    )
    return ExampleView(e.kind, kind_class(e.kind), where, word_segments(e.words, old, new))


def _change_view(
    c: Change,
    old: _Side,
    new: _Side,
    unique: Callable[[str], str],
    links: Links,
    history_old: HistoryKey | None,
    history_new: HistoryKey | None,
) -> ChangeView:
    if c.domain == "glossary":
        old_links = tuple(RuleLink(t, old.term(t)) for t in c.old_ids)
        new_links = tuple(RuleLink(t, new.term(t)) for t in c.new_ids)
        key = None
    else:
        old_links = tuple(
            RuleLink(label, old.rule(i)) for i, label in zip(c.old_ids, c.old_labels(), strict=True)
        )
        new_links = tuple(
            RuleLink(label, new.rule(i)) for i, label in zip(c.new_ids, c.new_labels(), strict=True)
        )
        key = None
        if history_new is not None and c.new_ids:
            key = history_new(c.new_ids[0])
        if key is None and history_old is not None and c.old_ids:
            key = history_old(c.old_ids[0])
    if old_links and new_links and [r.label for r in old_links] == [r.label for r in new_links]:
        old_links = ()  # same number on both sides: show it once, linked to the new text
    matched = bool(c.old_ids and c.new_ids)
    numbers = " → ".join(
        x for x in ("+".join(r.label for r in old_links), "+".join(r.label for r in new_links)) if x
    )
    return ChangeView(
        anchor=_anchor(c, unique),
        kind=c.kind,
        css=kind_class(c.kind),
        domain=c.domain,
        old=old_links,
        new=new_links,
        significance=c.significance,
        score=f"{c.score:.0f}" if matched else "",
        notes=_notes(c),
        alternatives=alternative_links(c, old, new) if c.ambiguous else (),
        segments=word_segments(c.words, old, new),
        show_text=bool(c.words) and not (c.kind == "renumbered" and not _edits(c)),
        examples=tuple(_example_view(e, old, new) for e in c.examples),
        history=links.history(key),
        label=change_label(c),
        minor=is_minor(c),
        sides=matched and _edits(c) and not _whitespace_only(c),
        title=("glossary " if c.domain == "glossary" else "") + numbers,
    )


def _numbered(rule_id: str) -> str:
    """The numbered rule a rule belongs to: 702.36e → 702.36 (702 and 702.36 stay)."""
    rid = RuleId.try_parse(rule_id)
    if rid is None or rid.is_section or rid.number is None:
        return rule_id
    return f"{rid.rule}.{rid.number}"


def rule_title(edition: Edition | None, number: str) -> str:
    """A numbered rule's name when it has one: the heading of 702, the keyword of 702.36
    ("Morph"); ``""`` for a rule whose text is a sentence."""
    if edition is None:
        return ""
    rule = edition.rule(number)
    return rule_name(rule) if rule is not None else ""


def _rule_groups(
    pairs: Sequence[tuple[Change, ChangeView]],
    edition: Edition | None,
    fallback: Edition | None,
    unique: Callable[[str], str],
) -> tuple[RuleGroup, ...]:
    """Changes under their numbered rule; a group of one untitled change has no heading."""
    order: dict[str, list[ChangeView]] = {}
    for c, view in pairs:
        ident = c.new_id or c.old_id or ""
        key = ident if c.domain == "glossary" else _numbered(ident)
        order.setdefault(key, []).append(view)
    out = []
    for key, views in order.items():
        name = rule_title(edition, key) or rule_title(fallback, key)
        heading = f"{key} {name}" if name else (key if len(views) > 1 else "")
        out.append(RuleGroup(unique(f"grp-{key}") if heading else "", heading, tuple(views)))
    return tuple(out)


def _section_titles(d: EditionDiff) -> dict[str, str]:
    titles: dict[str, str] = {}
    for c in d.changes:
        ident = c.new_id or c.old_id or ""
        if c.domain == "rule" and len(ident) == 1 and ident.isdigit():
            titles.setdefault(ident, c.new_text() or c.old_text())
    return titles


def build_changelog_view(
    d: EditionDiff,
    links: Links | None = None,
    *,
    old: Edition | None = None,
    new: Edition | None = None,
    old_set: tuple[str | None, str | None] = (None, None),
    new_set: tuple[str | None, str | None] = (None, None),
    previous: str | None = None,
    following: str | None = None,
    history_old: HistoryKey | None = None,
    history_new: HistoryKey | None = None,
    include_unchanged: bool = False,
    use_cache: bool = True,
    embed_texts: bool = True,
) -> ChangelogView:
    """The view of a changelog page.

    ``old``/``new`` (the editions) let references inside the text be linked; in a
    standalone page they are also embedded. ``previous``/``following`` are the dates of
    the editions around the pair, for the site's navigation. ``use_cache=False``
    renders the embedded full texts afresh instead of reading them from the cache;
    ``embed_texts=False`` leaves them out of a standalone page (rule numbers unlinked).
    """
    links = links or Links(site=False)
    a, b = d.old.date, d.new.date
    embed = not links.site and old is not None and new is not None and embed_texts
    if links.site:
        old_side = _Side(old, links.edition(a), "", a)
        new_side = _Side(new, links.edition(b), "", b)
    elif embed:
        old_side = _Side(old, "", OLD_PREFIX, a)
        new_side = _Side(new, "", NEW_PREFIX, b)
    else:
        old_side = _Side(old, None, "", a)
        new_side = _Side(new, None, "", b)

    seen: dict[str, int] = {}

    def unique(anchor: str) -> str:
        seen[anchor] = seen.get(anchor, 0) + 1
        return anchor if seen[anchor] == 1 else f"{anchor}-{seen[anchor]}"

    titles = _section_titles(d)
    grouped: dict[str, list[tuple[Change, ChangeView]]] = {}
    minor: list[ChangeView] = []
    for c in d.shown(include_unchanged):
        group = "glossary" if c.domain == "glossary" else (c.section or "other")
        view = _change_view(c, old_side, new_side, unique, links, history_old, history_new)
        if view.minor:
            minor.append(view)
        else:
            grouped.setdefault(group, []).append((c, view))
    groups = []
    for name, pairs in grouped.items():
        if name == "glossary":
            title = "Glossary"
        elif name == "other":
            title = "Other"
        else:
            title = f"{name}. {titles.get(name, '')}".rstrip()
        changes = tuple(v for _, v in pairs)
        rules = _rule_groups(pairs, new or old, old if new is not None else None, unique)
        groups.append(ChangeGroup(unique(f"sec-{name}"), title, changes, rules))

    summary = d.summary()
    rule_counts = summary["rules"]
    counts = tuple(
        Count(kind, kind_class(kind), n)
        for kind, n in sorted(rule_counts.items(), key=lambda kv: kv[0] == "unchanged")
        if n
    )
    significance = tuple(Count(s, f"sig-{s}", n) for s, n in summary["significance"].items() if n)
    other: list[Count] = []
    for part in ("glossary", "examples", "contents"):
        for kind, n in summary[part].items():
            if n and kind != "unchanged":
                other.append(Count(f"{part}: {kind}", kind_class(kind), n))
    for name in ("moved", "ambiguous"):
        if summary[name]:
            other.append(Count(name, "ch-other", summary[name]))

    contents = tuple(
        ContentsRow(
            cc.kind,
            kind_class(cc.kind),
            f"{cc.old_id or ''} {cc.old_title or ''}".strip(),
            f"{cc.new_id or ''} {cc.new_title or ''}".strip(),
        )
        for cc in d.contents
    )

    texts: tuple[EmbeddedText, ...] = ()
    if embed:
        assert old is not None and new is not None
        texts = (
            _embedded("text-old", f"Full text of {a}", old, OLD_PREFIX, use_cache),
            _embedded("text-new", f"Full text of {b}", new, NEW_PREFIX, use_cache),
        )

    old_label, new_label = set_label(*old_set), set_label(*new_set)
    heading = f"Changes from {a} to {b}"
    nav: tuple[NavLink, ...] = ()
    if links.site:
        nav = (
            NavLink(
                "← previous changes", links.changelog(previous, a) if previous else None, "prev"
            ),
            NavLink(f"text of {a}", links.edition(a)),
            NavLink(f"text of {b}", links.edition(b)),
            NavLink("next changes →", links.changelog(b, following) if following else None, "next"),
        )
    page = Page(
        title=f"Comprehensive Rules changes {a} → {b}",
        search=links.search(),
        stylesheet=links.static("rulediff.css") if links.site else None,
        home=links.index(),
        crumbs=(NavLink("Editions", links.index()), NavLink(f"{a} → {b}", None))
        if links.site
        else (),
        nav=nav,
    )
    return ChangelogView(
        page=page,
        old=a + (f" ({old_label})" if old_label else ""),
        new=b + (f" ({new_label})" if new_label else ""),
        old_href=old_side.href if old_side.href else ("#text-old" if embed else None),
        new_href=new_side.href if new_side.href else ("#text-new" if embed else None),
        heading=heading,
        counts=counts,
        significance=significance,
        other_counts=tuple(other),
        sweeps=d.sweeps,
        groups=tuple(groups),
        contents=contents,
        texts=texts,
        minor=tuple(minor),
        old_date=a,
        new_date=b,
        major=sum(len(g.changes) for g in groups),
    )


def _embedded(
    anchor: str, title: str, edition: Edition, prefix: str, use_cache: bool = True
) -> EmbeddedText:
    """An edition's full text for a standalone page, rendered once per edition and cached.

    Half the work of a standalone changelog is its two full texts; they depend only on
    the edition, the anchor prefix and the rendering code (:func:`env.fingerprint`).
    """

    def render() -> str:
        items, _toc, unique = text_items(edition, Links(site=False), prefix=prefix)
        glossary = glossary_items(edition, prefix=prefix, unique=unique)
        return template("_embedded.html.j2").render(
            items=items, glossary=glossary, anchor=f"{anchor}-glossary"
        )

    if not edition.sha256 or not use_cache:
        html = render()
    else:
        key = f"{edition.sha256}-{fingerprint()[:16]}-{prefix}"
        html = cache.get_or_compute("fulltext-html", key, render)
    return EmbeddedText(anchor, title, Markup(html))


def render_changelog(view: ChangelogView) -> str:
    """Render a built changelog view."""
    return template("changelog.html.j2").render(v=view, page=view.page)


@collector_paused()
def render_changelog_html(
    edition_diff: EditionDiff,
    old: Edition | None = None,
    new: Edition | None = None,
    *,
    include_unchanged: bool = False,
    use_cache: bool = True,
    embed_texts: bool = True,
) -> str:
    """A standalone HTML changelog (one file, stylesheet inlined, works from ``file://``).

    With the two editions and ``embed_texts``, their full texts are embedded so every
    rule number links to its text; otherwise the rule numbers are plain text.
    """
    view = build_changelog_view(
        edition_diff,
        Links(site=False),
        old=old,
        new=new,
        include_unchanged=include_unchanged,
        use_cache=use_cache,
        embed_texts=embed_texts,
    )
    return render_changelog(view)


__all__ = [
    "build_changelog_view",
    "linked_spans",
    "render_changelog",
    "render_changelog_html",
    "word_segments",
]
