"""The history page of one rule, built from :class:`rulediff.history.RuleHistory`.

Newest first: every edition in which the rule was born, edited, renumbered (from what),
split, merged or removed, each with the word diff of its text against the edition
before, a link to that change in the edition's changelog and to both full texts.

The history records only numbers; the texts come from ``text_of(date, rule_id)`` (the
site passes the loaded editions; without it the page lists events without texts).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import replace

from ..diff import word_diff
from ..history import EventDetail, HistoryEvent, RuleHistory
from ..lineage import tree_from_history
from .changelog import _Side, word_segments
from .difftext import pieces_note
from .env import template
from .lineage import build_life_view
from .links import Links, change_anchor
from .views import (
    EventView,
    HistoryView,
    NavLink,
    Page,
    RedirectView,
    RuleLink,
    Segment,
    Span,
    kind_class,
)

TextOf = Callable[[str, str], "str | None"]

_EDITED = {"edited", "renumbered-edited", "split", "merged", "references-only", "editorial"}


def _summary(e: HistoryEvent, first_date: str) -> str:
    """What the kind badge and the numbers do not already say."""
    if e.kind == "added" and e.previous is None:
        return (
            f"already in the oldest edition of the corpus ({first_date})"
            if first_date
            else ("already in the oldest edition of the corpus")
        )
    return {
        "references-only": "rule numbers in its references updated",
        "editorial": "typography or a wording sweep",
        "unchanged": "its examples changed",
        "merged": "merged with another rule",
        "split": "split into several rules",
    }.get(e.kind, "")


def _joined(text_of: TextOf | None, date: str | None, ids: tuple[str, ...]) -> str | None:
    if text_of is None or date is None or not ids:
        return None
    parts = [text_of(date, i) for i in ids]
    if any(p is None for p in parts):
        return None
    return "\n".join(p for p in parts if p is not None)


def _event_view(
    e: HistoryEvent,
    links: Links,
    text_of: TextOf | None,
    first_date: str,
    detail: EventDetail | None = None,
    part: RuleLink | None = None,
) -> EventView:
    old_side = _Side(None, None, "", e.previous or "")
    new_side = _Side(None, None, "", e.date)
    if detail is not None:
        old_text, new_text = detail.old_text or None, detail.new_text or None
    else:
        old_text = _joined(text_of, e.previous, e.old_ids)
        new_text = _joined(text_of, e.date, e.new_ids)
    segments: tuple[Segment, ...] = ()
    if e.kind == "added" and new_text is not None:
        segments = (Segment("" if e.previous is None else "ins", (Span(new_text),)),)
    elif e.kind == "removed" and old_text is not None:
        segments = (Segment("del", (Span(old_text),)),)
    elif e.kind in _EDITED and old_text is not None and new_text is not None:
        words = detail.words if detail is not None else word_diff(old_text, new_text)
        segments = word_segments(words, old_side, new_side)
    change_href = None
    if e.previous is not None:
        page = links.changelog(e.previous, e.date)
        anchor = change_anchor(e.old_ids, e.new_ids)
        change_href = f"{page}#{anchor}" if page and anchor else page
    examples = tuple(
        f"example {x.kind}: " + " → ".join(dict.fromkeys((*x.old_ids, *x.new_ids)))
        for x in e.examples
    )
    old_links = tuple(
        RuleLink(i, links.rule(e.previous, i) if e.previous else None) for i in e.old_ids
    )
    if e.old_ids == e.new_ids:
        old_links = ()  # same number before and after: show it once
    new_links = tuple(RuleLink(i, links.rule(e.date, i)) for i in e.new_ids)
    if part is not None and not old_links and [r.label for r in new_links] == [part.label]:
        new_links = ()  # the subrule's own number, already named by the event
    return EventView(
        anchor=f"e{e.date}" if part is None else f"e{e.date}-{part.label}",
        date=e.date,
        date_href=links.edition(e.date),
        change_href=change_href,
        kind=e.kind,
        css=kind_class(e.kind),
        old=old_links,
        new=new_links,
        summary=_summary(e, first_date),
        segments=segments,
        examples=examples,
        moved_text=tuple(f"sentence {a} → {b}: \u201c{t}\u201d" for a, b, t in e.moved_text),
        part=part,
        label="first seen" if e.in_oldest else "",
        pieces=pieces_note(e.links) or "",
    )


def build_history_view(
    history: RuleHistory,
    links: Links | None = None,
    *,
    text_of: TextOf | None = None,
    details: Sequence[EventDetail] = (),
    first_date: str = "",
    status: str | None = None,
    alive: bool | None = None,
    parts: Sequence[tuple[str, str | None, RuleHistory, bool]] = (),
    name: str = "",
) -> HistoryView:
    """The view of a rule's history page.

    ``first_date`` is the oldest edition of the corpus; ``status`` overrides the line
    that says whether the rule is in force (the site knows more than one history does).
    With ``alive`` (a rule of the newest edition) the text shown is dated by its last
    change, not by the newest edition, so the page does not change with every edition.
    ``parts`` (number, page, history, in force) are the subrules rolled into a numbered
    rule's page, including removed ones: their events join its timeline (except their
    presence in the oldest edition).
    ``name`` is the rule's title or keyword ("Morph"), shown with its number.
    """
    links = links or Links(site=False)
    by_event = {id(d.event): d for d in details}
    events = tuple(
        _event_view(e, links, text_of, first_date, by_event.get(id(e))) for e in history.events
    )
    if parts:
        merged = list(events)
        for number, href, sub, _ in parts:
            label = RuleLink(number, href)
            merged += [
                _event_view(e, links, text_of, first_date, None, label)
                for e in sub.events
                if not e.in_oldest
            ]
        seen: set[str] = set()
        unique = []
        for ev in sorted(merged, key=lambda ev: ev.date, reverse=True):
            anchor, n = ev.anchor, 1
            while anchor in seen:  # a removed subrule and its successor, same number
                n += 1
                anchor = f"{ev.anchor}-{n}"
            seen.add(anchor)
            unique.append(ev if anchor == ev.anchor else replace(ev, anchor=anchor))
        events = tuple(unique)
    newest = history.events[0] if history.events else None
    if status is None:
        if newest is not None and newest.kind == "removed":
            status = f"Removed in the edition of {newest.date}."
        else:
            status = f"Numbered {history.rule} in the edition of {history.edition}."
    text_date = history.edition
    text_title = f"Text in {history.edition}"
    if alive and newest is not None:
        text_date = newest.date
        text_title = f"Current text (unchanged since {newest.date})"
    elif alive is False:
        text_title = f"Last text ({history.edition})"
    text = text_of(text_date, history.rule) if text_of else None
    if text is None and newest is not None and id(newest) in by_event:
        text = by_event[id(newest)].new_text or None
    page = Page(
        title=f"History of rule {history.rule}" + (f" ({name})" if name else ""),
        search=links.search(),
        stylesheet=links.static("rulediff.css") if links.site else None,
        home=links.index(),
        crumbs=(
            NavLink("Editions", links.index()),
            NavLink("Rules", _rules_index(links)),
            NavLink(history.rule, None),
        )
        if links.site
        else (),
    )
    return HistoryView(
        page=page,
        rule=history.rule,
        edition=history.edition,
        status=status,
        numbers=history.numbers(),
        current=(Span(text),) if text is not None else (),
        current_title=text_title,
        current_href=links.rule(text_date, history.rule),
        events=events,
        life=build_life_view(tree_from_history(history), links),
        parts=tuple(RuleLink(number, href) for number, href, _, alive in parts if alive),
        removed_parts=tuple(
            RuleLink(number, href) for number, href, _, alive in parts if not alive
        ),
        name=name,
    )


def _rules_index(links: Links) -> str | None:
    return f"{links.root}rules/index.html" if links.site else None


def render_redirect(label: str, target: str) -> str:
    """The page left at a history's old name: a link (and a refresh) to where it is now."""
    page = Page(
        title=f"History of rule {label}",
        search="../search.html",
        stylesheet="../static/rulediff.css",
        home="../index.html",
        crumbs=(NavLink("Editions", "../index.html"), NavLink("Rules", "index.html")),
    )
    view = RedirectView(page, label, target)
    return template("redirect.html.j2").render(v=view, page=page)


def render_history(view: HistoryView) -> str:
    return template("history.html.j2").render(v=view, page=view.page)


def render_history_html(
    history: RuleHistory,
    details: Sequence[EventDetail] | TextOf | None = None,
) -> str:
    """A standalone history page (stylesheet inlined).

    ``details`` (:func:`rulediff.history.history_details`) or a ``text_of(date,
    rule_id)`` function supply the rule's texts; without either the page lists the
    events and numbers only.
    """
    if callable(details):
        view = build_history_view(history, Links(site=False), text_of=details)
    else:
        view = build_history_view(history, Links(site=False), details=details or ())
    return render_history(view)
