"""HTML for ``rulediff locate`` and ``rulediff diff --paragraphs`` (the changelog's look).

The view-models decide everything (labels, CSS classes, the word-diff segments); the
template ``reports/locate.html.j2`` extends the changelog's base page and only prints.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from ..locate import REWORD_SCORE, EditionRange, Located, LocateResult, ParagraphDiff
from .env import template
from .views import Page, Segment, Span, kind_class

#: Locate status → the changelog CSS class whose colour says the same thing.
STATUS_CLASS = {
    "exact": "ch-unchanged",
    "heading": "ch-unchanged",
    "reworded": "ch-edited",
    "partial": "ch-split",
    "not-cr": "ch-removed",
}
_OP = {"equal": "", "insert": "ins", "delete": "del"}


@dataclass(frozen=True, slots=True)
class ParagraphView:
    """One located paragraph."""

    anchor: str
    label: str
    status: str
    css: str
    rules: str
    """"702.37a (Morph) 100" …, already joined."""
    editions: str
    text: str
    segments: tuple[Segment, ...]
    """``reworded``: the word diff from the paragraph to the edition's text."""
    notes: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class LocateView:
    page: Page
    heading: str
    summary: tuple[str, ...]
    paragraphs: tuple[ParagraphView, ...]


@dataclass(frozen=True, slots=True)
class ParagraphChangeView:
    anchor: str
    kind: str
    css: str
    label: str
    verdicts: tuple[ParagraphView, ...]
    segments: tuple[Segment, ...]


@dataclass(frozen=True, slots=True)
class ParagraphDiffView:
    page: Page
    heading: str
    summary: tuple[str, ...]
    changes: tuple[ParagraphChangeView, ...]


def _segments(words: Sequence[Any]) -> tuple[Segment, ...]:
    return tuple(Segment(_OP[w.op], (Span(w.text),)) for w in words)


def _editions(p: Located) -> str:
    if p.status == "not-cr":
        return "not in any edition"
    if p.editions is None:
        return "no edition has this exact wording"
    e = p.editions
    span = e.first if e.first == e.last else f"{e.first} to {e.last}"
    return f"editions {span}" + (f" ({len(e.runs)} stretches)" if len(e.runs) > 1 else "")


def paragraph_view(p: Located, prefix: str = "p") -> ParagraphView:
    rules = ", ".join(
        r.id + (f" ({r.title})" if r.title else "") + f" {r.score:g}" for r in p.rules
    )
    notes: list[str] = []
    if p.status == "partial":
        notes += [
            f"sentences {', '.join(str(n + 1) for n in r.sentences)} from {r.id}" for r in p.rules
        ]
    if p.concerns:
        notes.append(
            "concerns: "
            + ", ".join(c.id + (f" ({c.title})" if c.title else "") for c in p.concerns)
        )
    if p.note:
        notes.append(p.note)
    return ParagraphView(
        f"{prefix}{p.index + 1}",
        f"¶{p.index + 1} · line {p.line}",
        p.status,
        STATUS_CLASS[p.status],
        rules,
        _editions(p),
        p.text,
        _segments(p.words),
        tuple(notes),
    )


def _page(title: str) -> Page:
    return Page(title=title, stylesheet=None, home=None)


def build_locate_view(result: LocateResult) -> LocateView:
    counts = ", ".join(f"{n} {s}" for s, n in result.counts().items() if n)
    summary = [
        f"{len(result.paragraphs)} paragraphs against the edition of {result.edition}"
        f" ({counts or 'none'})."
    ]
    if result.document is not None:
        d = result.document
        summary.append(
            f"The text quotes the rules of {d.first} to {d.last} "
            f"({d.paragraphs} of {d.dated} dated paragraphs agree)."
        )
    summary += [f"Skipped line {s.line}: “{s.text}” ({s.reason})." for s in result.skipped]
    return LocateView(
        _page(f"Located: {result.source}"),
        f"Rules quoted in {result.source}",
        tuple(summary),
        tuple(paragraph_view(p) for p in result.paragraphs),
    )


def render_locate_html(result: LocateResult) -> str:
    """A standalone page (stylesheet inlined) of a locate result."""
    view = build_locate_view(result)
    return template("locate.html.j2").render(v=view, page=view.page, diff=None)


def build_paragraph_diff_view(d: ParagraphDiff) -> ParagraphDiffView:
    counts = ", ".join(f"{n} {k}" for k, n in d.counts().items() if n)
    changes = []
    for k, c in enumerate(d.changes):
        if c.kind == "unchanged":
            continue
        olds = "+".join(f"¶{p.index + 1}" for p in c.old) or "—"
        news = "+".join(f"¶{p.index + 1}" for p in c.new) or "—"
        side = c.new or c.old
        prefix = "new" if c.new else "old"
        changes.append(
            ParagraphChangeView(
                f"c{k + 1}",
                c.kind,
                kind_class(
                    {"moved": "renumbered", "moved-edited": "renumbered-edited"}.get(c.kind, c.kind)
                ),
                f"{olds} → {news}",
                tuple(paragraph_view(p, prefix) for p in side),
                _segments(c.words),
            )
        )
    return ParagraphDiffView(
        _page(f"Paragraphs: {d.old.source} → {d.new.source}"),
        f"{d.old.source} → {d.new.source}",
        (f"Located against the edition of {d.new.edition}: {counts or 'no paragraphs'}.",),
        tuple(changes),
    )


def render_paragraph_diff_html(d: ParagraphDiff) -> str:
    view = build_paragraph_diff_view(d)
    return template("locate.html.j2").render(v=None, page=view.page, diff=view)


# --- plain text (rulediff locate --format text, diff --paragraphs --format text) -------
def _range_text(rng: EditionRange | None) -> str:
    if rng is None:
        return "no edition has this wording"
    span = rng.first if rng.first == rng.last else f"{rng.first} to {rng.last}"
    gaps = f" ({len(rng.runs)} stretches)" if len(rng.runs) > 1 else ""
    return f"editions {span}{gaps}"


def _short(text: str, words: int = 10) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


def _words_inline(words: Sequence[Any]) -> str:
    out = []
    for w in words:
        if w.op == "equal":
            out.append(w.text)
        elif w.op == "delete":
            out.append(f"[-{w.text}-]")
        else:
            out.append(f"{{+{w.text}+}}")
    return "".join(out)


def paragraph_lines(p: Located) -> list[str]:
    """A paragraph's verdict as a few lines of text (``locate`` and ``diff --paragraphs``)."""
    rules = ", ".join(
        f"{r.id}" + (f" ({r.title})" if r.title else "") + f" {r.score:g}" for r in p.rules
    )
    head = f"¶{p.index + 1} line {p.line}: {p.status}"
    if rules:
        head += f" — {rules}"
    lines = [head, f"    {_short(p.text)}"]
    if p.status != "not-cr":
        lines.append(f"    {_range_text(p.editions)}")
    if p.status == "partial":
        for r in p.rules:
            lines.append(f"    sentences {', '.join(str(n + 1) for n in r.sentences)} ← {r.id}")
    if p.words:
        lines.append(f"    diff: {_words_inline(p.words)}")
    if p.status == "not-cr":
        lines.append(
            f"    not CR text (no wording of any edition scores {REWORD_SCORE:g}; "
            f"nearest rule here {p.score:g})"
        )
        if p.concerns:
            lines.append(
                "    concerns: "
                + ", ".join(f"{c.id}" + (f" ({c.title})" if c.title else "") for c in p.concerns)
            )
    if p.note:
        lines.append(f"    note: {p.note}")
    return lines


def to_text(result: LocateResult) -> str:
    counts = ", ".join(f"{n} {s}" for s, n in result.counts().items() if n)
    lines = [
        f"{result.source}: {len(result.paragraphs)} paragraphs against the edition of "
        f"{result.edition} ({counts or 'none'})"
    ]
    if result.document is not None:
        d = result.document
        lines.append(
            f"the text quotes the rules of {d.first} to {d.last} "
            f"({d.paragraphs} of {d.dated} dated paragraphs agree)"
        )
    for s in result.skipped:
        lines.append(f"skipped line {s.line}: {s.text!r} ({s.reason})")
    lines.append("")
    for p in result.paragraphs:
        lines.extend(paragraph_lines(p))
    return "\n".join(lines) + "\n"


# --- diff --paragraphs -------------------------------------------------------------------


def _verdict(p: Located) -> str:
    ids = "+".join(r.id for r in p.rules)
    return f"{p.status}{' ' + ids if ids else ''}"


def diff_to_text(d: ParagraphDiff) -> str:
    counts = ", ".join(f"{n} {k}" for k, n in d.counts().items() if n)
    lines = [f"{d.old.source} → {d.new.source} (located against {d.new.edition}): {counts}", ""]
    for c in d.changes:
        if c.kind == "unchanged":
            continue
        olds = "+".join(f"¶{p.index + 1}" for p in c.old) or "—"
        news = "+".join(f"¶{p.index + 1}" for p in c.new) or "—"
        verdicts = "; ".join(_verdict(p) for p in (c.new or c.old))
        lines.append(f"{c.kind}: {olds} → {news}  [{verdicts}]")
        lines.append(f"    {_short((c.new or c.old)[0].text)}")
        if c.words:
            lines.append(f"    diff: {_words_inline(c.words)}")
    return "\n".join(lines) + "\n"
