"""The hyperlinked full text of one edition.

Every rule carries an anchor (``#r702.36e``); every reference in the text links to the
rule it cites in the same page (a reference to a number the edition lacks is marked
``dangling``, not linked); every rule links to its history page when the site has one.
"""

from __future__ import annotations

from collections.abc import Callable

from ..model import Edition, Rule, Section
from .env import template
from .links import Links, glossary_anchor, rule_anchor
from .refs import find_references
from .views import EditionView, GlossaryItem, NavLink, Page, Span, TextItem, TocEntry

HistoryKey = Callable[[str], "str | None"]

#: What every page means by "rules": numbered rules and their subrules (100.1, 100.1a),
#: not the section and rule headings (1., 100.) nor the examples.
RULE_COUNT_LABEL = "numbered rules and subrules (100.1, 100.1a; headings and examples not counted)"


def rule_count(edition: Edition) -> int:
    """The one rule count of the site (see :data:`RULE_COUNT_LABEL`)."""
    return sum(1 for r in edition.rules if r.kind != "rule" and not r.id.is_section)


def linked_spans(
    text: str, edition: Edition | None, page_href: str | None = "", prefix: str = ""
) -> tuple[Span, ...]:
    """``text`` cut into plain spans and reference links to rules of ``edition``.

    ``page_href`` is the URL of the edition's full text from the page being written
    (``""`` when that page *is* the full text, ``None`` when there is none to link to);
    ``prefix`` starts the anchors when a page holds more than one full text.
    """
    if edition is None or page_href is None:
        return (Span(text),)
    spans: list[Span] = []
    pos = 0
    for start, end, target in find_references(text):
        if start > pos:
            spans.append(Span(text[pos:start]))
        exists = edition.rule(target) is not None or (
            target.isdigit() and len(target) == 1 and edition.section(target) is not None
        )
        if exists:
            href = f"{page_href}#{prefix}{rule_anchor(target)}"
            spans.append(Span(text[start:end], href, "ref", target))
        else:
            spans.append(Span(text[start:end], None, "ref dangling", f"{target}: no such rule"))
        pos = end
    if pos < len(text) or not spans:
        spans.append(Span(text[pos:]))
    return tuple(spans)


def rule_name(rule: Rule) -> str:
    """A rule's title or keyword: the heading of 702, the keyword of 702.36 ("Morph");
    ``""`` for a rule whose text is a sentence."""
    if rule.title:
        return rule.title
    text = rule.text.strip()
    if text and len(text.split()) <= 6 and not text.endswith((".", ":")) and "\n" not in text:
        return text
    return ""


def set_label(set_name: str | None, set_code: str | None) -> str | None:
    if set_name and set_code:
        return f"{set_name} ({set_code})"
    return set_name or set_code


def text_items(
    edition: Edition,
    links: Links,
    *,
    prefix: str = "",
    history_key: HistoryKey | None = None,
) -> tuple[tuple[TextItem, ...], tuple[TocEntry, ...], Callable[[str], str]]:
    """The items of an edition's full text, its contents, and the anchor de-duplicator."""
    items: list[TextItem] = []
    toc: list[TocEntry] = []
    toc_children: list[TocEntry] = []
    seen: dict[str, int] = {}

    def unique(anchor: str) -> str:
        """A number printed twice (an oddity of some editions) keeps distinct anchors."""
        seen[anchor] = seen.get(anchor, 0) + 1
        return anchor if seen[anchor] == 1 else f"{anchor}-{seen[anchor]}"

    toc_names: list[TocEntry] = []

    def close_rule() -> None:
        """Named numbered rules (702.36 Morph) become the contents under their rule."""
        if toc_children and toc_names:
            last = toc_children[-1]
            toc_children[-1] = TocEntry(last.anchor, last.label, last.title, tuple(toc_names))
        toc_names.clear()

    def close_section() -> None:
        close_rule()
        if toc:
            last = toc[-1]
            toc[-1] = TocEntry(last.anchor, last.label, last.title, tuple(toc_children))
        toc_children.clear()

    for item in edition.body:
        anchor = unique(prefix + rule_anchor(item.id))
        if isinstance(item, Section):
            close_section()
            toc.append(TocEntry(anchor, f"{item.id}.", item.title))
            items.append(TextItem(anchor, f"{item.id}.", "section", (Span(item.title),)))
            continue
        rule: Rule = item
        key = history_key(str(rule.id)) if history_key else None
        level = rule.kind
        if level == "rule" and rule.title is not None:
            close_rule()
            toc_children.append(TocEntry(anchor, rule.label, rule.title))
        elif level == "numbered" and toc_children and (name := rule_name(rule)):
            toc_names.append(TocEntry(anchor, str(rule.id), name))
        items.append(
            TextItem(
                anchor=anchor,
                label=rule.label,
                level=level,
                spans=linked_spans(rule.text, edition, "", prefix),
                examples=tuple(
                    (
                        Span(ex.label.strip(), None, "exlabel"),
                        Span(" "),
                        *linked_spans(ex.text, edition, "", prefix),
                    )
                    for ex in rule.examples
                ),
                history=links.history(key),
            )
        )
    close_section()
    return tuple(items), tuple(toc), unique


def glossary_items(
    edition: Edition, *, prefix: str = "", unique: Callable[[str], str] | None = None
) -> tuple[GlossaryItem, ...]:
    """The glossary of an edition, references linked, each entry with its anchor."""
    unique = unique or (lambda anchor: anchor)
    return tuple(
        GlossaryItem(
            unique(prefix + glossary_anchor(entry.term)),
            entry.term,
            tuple(linked_spans(par, edition, "", prefix) for par in entry.text.split("\n")),
        )
        for entry in edition.glossary
    )


def build_edition_view(
    edition: Edition,
    links: Links,
    *,
    set_name: str | None = None,
    set_code: str | None = None,
    previous: str | None = None,
    following: str | None = None,
    history_key: HistoryKey | None = None,
) -> EditionView:
    """The view of an edition's full text; ``previous``/``following`` are neighbour dates."""
    date = edition.date_text
    items, toc, unique = text_items(edition, links, history_key=history_key)
    glossary = glossary_items(edition, unique=unique)
    label = set_label(set_name, set_code)
    nav = (
        NavLink("← previous edition", links.edition(previous) if previous else None, "prev"),
        NavLink("changes since previous", links.changelog(previous, date) if previous else None),
        NavLink("changes in next", links.changelog(date, following) if following else None),
        NavLink("next edition →", links.edition(following) if following else None, "next"),
    )
    page = Page(
        title=f"Comprehensive Rules {date}" + (f" — {label}" if label else ""),
        search=links.search(),
        stylesheet=links.static("rulediff.css") if links.site else None,
        home=links.index(),
        crumbs=(NavLink("Editions", links.index()), NavLink(date, None)),
        nav=nav if links.site else (),
    )
    return EditionView(
        page=page,
        date=date,
        heading=edition.title,
        set_label=label,
        rule_count=rule_count(edition),
        rule_count_label=RULE_COUNT_LABEL,
        toc=toc,
        items=items,
        glossary=glossary,
    )


def render_edition_html(view: EditionView) -> str:
    """The full-text page of an edition."""
    return template("edition.html.j2").render(v=view, page=view.page)
