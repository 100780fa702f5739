"""The plain-text (wdiff style) and Markdown changelogs of a :class:`rulediff.diff.EditionDiff`."""

from __future__ import annotations

import re
from collections.abc import Iterable

from ..diff import Change, EditionDiff, ListChange, WordOp


def list_notes(lc: ListChange) -> tuple[str, ...]:
    """One line each for the added and the removed items of a list (the text and HTML
    changelogs): "The planeswalker types are … added: Nahiri, Ugin"."""
    out = []
    if lc.added:
        out.append(f"{lc.lead} … added: {', '.join(lc.added)}")
    if lc.removed:
        out.append(f"{lc.lead} … removed: {', '.join(lc.removed)}")
    return tuple(out)


def group_note(c: Change) -> str | None:
    """Which old rule went where, for a group of several old and several new rules (the
    text and HTML changelogs): "pieces: 310.1 → 510.1, 510.3; 310.2 → 510.1"."""
    return pieces_note([(link.old_id, link.new_id) for link in c.links])


def pieces_note(links: Iterable[tuple[str, str]]) -> str | None:
    """:func:`group_note` from ``(old id, new id)`` pairs (also a rule history's event)."""
    went: dict[str, list[str]] = {}
    for a, b in links:
        went.setdefault(a, []).append(b)
    if not went:
        return None
    return "pieces: " + "; ".join(f"{a} → {', '.join(b)}" for a, b in went.items())


def _arrow(c: Change) -> str:
    old = "+".join(c.old_labels()) or "—"
    new = "+".join(c.new_labels()) or "—"
    return old if old == new else f"{old} → {new}"


def _inline(words: tuple[WordOp, ...], *, md: bool) -> str:
    """wdiff-style ``[-old-]{+new+}`` (text) or ``~~old~~**new**`` (Markdown) inline marks."""
    parts: list[str] = []
    for w in words:
        text = w.text.replace("\n", " / ")
        if w.op == "equal":
            parts.append(text)
            continue
        core = text.strip() or "\u00b7"  # a whitespace-only change shows as a middle dot
        lead = text[: len(text) - len(text.lstrip())] if text.strip() else ""
        trail = text[len(text.rstrip()) :] if text.strip() else ""
        if md:
            mark = f"~~{core}~~" if w.op == "delete" else f"**{core}**"
        else:
            mark = f"[-{core}-]" if w.op == "delete" else f"{{+{core}+}}"
        parts.append(f"{lead}{mark}{trail}")
    return "".join(parts)


def to_text(d: EditionDiff, *, include_unchanged: bool = False) -> str:
    """A plain-text changelog: one block per change, wdiff-style ``[-old-]{+new+}``."""
    lines = [f"rulediff {d.old.date} → {d.new.date}"]
    summary = d.summary()
    counts = ", ".join(f"{k} {n}" for k, n in summary["rules"].items() if n and k != "unchanged")
    lines.append(f"rules: {counts or 'no changes'}")
    for c in d.shown(include_unchanged):
        tags = [c.kind, c.significance]
        if c.moved:
            tags.append("moved")
        if c.ambiguous and c.old_ids and c.new_ids:
            tags.append("ambiguous: " + ", ".join(c.alternatives))
        elif c.ambiguous:  # removed or added, unless it is one of these
            way = "became " if c.old_ids else "came from "
            tags.append("undecided: or it " + way + " or ".join(c.alternatives))
        where = ("glossary " if c.domain == "glossary" else "") + _arrow(c)
        lines.append("")
        lines.append(f"{where}  ({'; '.join(tags)}; score {c.score:g})")
        if c.kind != "unchanged" and c.kind not in ("renumbered",):
            lines.append("  " + _inline(c.words, md=False))
        if (note := group_note(c)) is not None:
            lines.append(f"  {note}")
        lines.extend(f"  {note}" for lc in c.lists for note in list_notes(lc))
        if c.retargets:
            lines.append("  references: " + ", ".join(f"{r.old} → {r.new}" for r in c.retargets))
        for e in c.examples:
            where = f"{e.old_id or '—'} → {e.new_id or '—'}"
            lines.append(f"  example {where} ({e.kind}): {_inline(e.words, md=False)}")
    for cc in d.contents:
        before = " ".join(x for x in (cc.old_id, cc.old_title) if x) or "—"
        after = " ".join(x for x in (cc.new_id, cc.new_title) if x) or "—"
        lines.append(f"contents {cc.kind}: {before} → {after}")
    return "\n".join(lines) + "\n"


def _md_escape(text: str) -> str:
    return re.sub(r"([\\`*_\[\]<>|])", r"\\\1", text)


def to_markdown(d: EditionDiff, *, include_unchanged: bool = False) -> str:
    """A Markdown changelog: summary table, then changes grouped by section."""
    summary = d.summary()
    out = [
        f"# Comprehensive Rules changes: {d.old.date} → {d.new.date}",
        "",
        "| kind | rules |",
        "|---|---|",
    ]
    for kind, n in summary["rules"].items():
        if n:
            out.append(f"| {kind} | {n} |")
    section = None
    for c in d.shown(include_unchanged):
        heading = "Glossary" if c.domain == "glossary" else f"Section {c.section}"
        if heading != section:
            section = heading
            out += ["", f"## {heading}", ""]
        words = tuple(type(w)(w.op, _md_escape(w.text)) for w in c.words)
        extra = " (moved)" if c.moved else ""
        if c.ambiguous:
            extra += " (ambiguous)" if c.old_ids and c.new_ids else " (undecided)"
        out.append(f"- **{_md_escape(_arrow(c))}** — {c.kind}, {c.significance}{extra}")
        if c.kind not in ("unchanged", "renumbered"):
            out.append(f"  {_inline(words, md=True)}")
        if (note := group_note(c)) is not None:
            out.append(f"  - {_md_escape(note)}")
        for lc in c.lists:
            if lc.added:
                out.append(f"  - added to the list: {_md_escape(', '.join(lc.added))}")
            if lc.removed:
                out.append(f"  - removed from the list: {_md_escape(', '.join(lc.removed))}")
        for e in c.examples:
            ew = tuple(type(w)(w.op, _md_escape(w.text)) for w in e.words)
            out.append(f"  - example ({e.kind}): {_inline(ew, md=True)}")
    if d.contents:
        out += ["", "## Contents", ""]
        for cc in d.contents:
            before = " ".join(x for x in (cc.old_id, cc.old_title) if x)
            after = " ".join(x for x in (cc.new_id, cc.new_title) if x)
            out.append(f"- {cc.kind}: {_md_escape(before) or '—'} → {_md_escape(after) or '—'}")
    return "\n".join(out) + "\n"


__all__ = ["group_note", "list_notes", "pieces_note", "to_markdown", "to_text"]
