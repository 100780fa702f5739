"""``rulediff diff``, ``rulediff history`` and ``rulediff at``: compare editions over time."""

from __future__ import annotations

import datetime as dt
import importlib
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..diff import as_dict, diff_cached
from ..errors import RuleDiffError, RuleNotFound
from ..history import (
    Lineage,
    RuleHistory,
    history_as_dict,
    history_details,
    rule_history,
    trace_to,
)
from ..model import Edition, RuleId
from ..render.difftext import pieces_note, to_markdown, to_text
from ..safetext import json_text
from .common import (
    corpus_lineage,
    corpus_options,
    edition_option,
    format_option,
    load,
    output_option,
    settings,
    write_output,
)
from .parse import format_rule, nearest_rules


def _renderer(name: str) -> Callable[..., str]:
    """The HTML renderer ``name`` from :mod:`rulediff.render`, or a clear error."""
    for module in ("rulediff.render", "rulediff.render.changelog", "rulediff.render.history"):
        try:
            found = getattr(importlib.import_module(module), name, None)
        except ImportError:
            continue
        if callable(found):
            return found  # type: ignore[no-any-return]
    raise RuleDiffError("html rendering not available yet")


# --- rulediff diff ------------------------------------------------------------------------------
@click.command("diff")
@click.argument("old")
@click.argument("new")
@format_option(
    "text",
    "json",
    "md",
    "html",
    help="text (wdiff style), json (schema: rulediff/schemas/diff.schema.json), md, html.",
)
@output_option
@click.option("--all", "include_all", is_flag=True, help="Also list unchanged rules.")
@click.option(
    "--embed-texts/--no-embed-texts",
    default=False,
    show_default=True,
    help="html: carry both full texts in the file so every rule number links offline "
    "(about 1.8 MB more); off, a small diff is a small file.",
)
@click.option(
    "--through",
    is_flag=True,
    help="Follow every corpus edition between OLD and NEW: a rule the two texts leave "
    "removed (or added) goes where its lineage went, edition by edition, when that rule is "
    "unpaired too (method 'lineage'). For far-apart editions; OLD and NEW must be in the "
    "corpus. Slower the first time (each step between is aligned once, then cached).",
)
@click.option(
    "--paragraphs",
    is_flag=True,
    help="OLD and NEW are revisions of an unnumbered text (FILE or -): align their "
    "paragraphs and locate each one (see 'rulediff locate').",
)
@edition_option()
@corpus_options
def diff(
    old: str,
    new: str,
    fmt: str,
    output: Path | None,
    include_all: bool,
    embed_texts: bool,
    through: bool,
    paragraphs: bool,
    edition: str,
) -> None:
    """Show what changed from edition OLD to edition NEW: every rule matched by its text.

    OLD and NEW are paths, dates in the corpus (2024-11-08), set codes or names,
    'latest', or '@DATE'. Any two editions can be compared, not only neighbours;
    renumbered rules show as moves (702.36d → 702.36e). With --paragraphs they are two
    revisions of a text quoting rules without numbers, located against --edition.
    """
    if paragraphs:
        if through:
            raise click.UsageError("--through compares corpus editions, not --paragraphs texts")
        from .locate import diff_paragraphs_command

        diff_paragraphs_command(old, new, edition, fmt, output)
        return
    before, after = load(old), load(new)
    if through:
        from ..through import diff_through

        result = diff_through(
            before, after, _lineage_between(before, after), use_cache=settings().use_cache
        )
    else:
        result = diff_cached(before, after, use_cache=settings().use_cache)
    if fmt == "json":
        text = json_text(as_dict(result, include_unchanged=include_all), indent=1)
    elif fmt == "md":
        text = to_markdown(result, include_unchanged=include_all)
    elif fmt == "html":
        render = _renderer("render_changelog_html")
        text = render(
            result,
            before,
            after,
            include_unchanged=include_all,
            use_cache=settings().use_cache,
            embed_texts=embed_texts,
        )
    else:
        text = to_text(result, include_unchanged=include_all)
    write_output(text, output)


def _lineage_between(before: Edition, after: Edition) -> Lineage:
    """The steps from ``before`` to ``after`` through the corpus editions between
    (``diff --through``)."""
    from ..corpus import Corpus

    s = settings()
    corpus = Corpus.open(s.corpus_dir, use_cache=s.use_cache)
    editions = corpus.editions()
    at = {info.sha256: k for k, info in enumerate(editions)}
    for edition, name in ((before, "OLD"), (after, "NEW")):
        if edition.sha256 not in at:
            raise RuleDiffError(
                f"--through: {name} ({edition.source}) is not an edition of the corpus "
                f"({corpus.directory}): the editions between cannot be followed"
            )
    first, last = at[before.sha256], at[after.sha256]
    if first > last:
        raise RuleDiffError(
            f"--through: OLD ({editions[first].date}) is newer than NEW "
            f"({editions[last].date}); swap them"
        )
    return corpus_lineage(corpus, editions[first : last + 1])  # type: ignore[no-any-return]


# --- corpus lineage -----------------------------------------------------------------------------
def _lineage() -> tuple[Lineage, Callable[[str], Edition], list[Any]]:
    """The lineage of the whole corpus (cached), a loader by date, and the corpus entries."""
    from ..corpus import Corpus

    s = settings()
    corpus = Corpus.open(s.corpus_dir, use_cache=s.use_cache)
    editions = corpus.editions()

    lineage = corpus_lineage(corpus, editions)

    by_date = {str(info.date): info for info in editions}

    def load_date(date: str) -> Edition:
        return corpus.load(by_date[date])

    return lineage, load_date, editions


def _edition_index(edition: str, editions: list[Any]) -> int:
    """Index (in the corpus list) of the edition a reference names."""
    ed = load(edition)
    for k, info in enumerate(editions):
        if info.sha256 == ed.sha256:
            return k
    raise RuleDiffError(
        "history follows the editions of the corpus; this edition is not one of them",
        file=ed.source,
    )


def _check_rule(edition: Edition, rule: str) -> str:
    rule_id = RuleId.try_parse(rule.strip().lower())
    if rule_id is None:
        raise RuleNotFound(
            f"{rule!r} is not a rule number (expected e.g. 7, 702, 702.36 or 702.36a)"
        )
    if edition.rule(rule_id) is None and not (rule_id.is_section and edition.section(rule_id.rule)):
        near = nearest_rules(edition, rule_id)
        hint = f"; nearest: {', '.join(near)}" if near else ""
        raise RuleNotFound(f"no rule {rule_id} in the edition of {edition.date_text}{hint}")
    return str(rule_id)


def _arrow(old_ids: tuple[str, ...], new_ids: tuple[str, ...]) -> str:
    old, new = "+".join(old_ids), "+".join(new_ids)
    if not old:
        return new
    if not new:
        return old
    return old if old == new else f"{old} → {new}"


def history_text(history: RuleHistory) -> str:
    """One line per event, newest first."""
    lines = [f"history of {history.rule} (numbered as in the edition of {history.edition})"]
    for event in history.events:
        what = event.kind
        if event.kind == "added":
            what = "present in the oldest edition" if event.in_oldest else "added (born)"
        elif event.kind == "unchanged":
            what = "examples changed"
        if event.moved:
            what += ", moved"
        line = f"{event.date}  {what}: {_arrow(event.old_ids, event.new_ids)}"
        if event.examples:
            line += (
                "  [examples: "
                + ", ".join(f"{x.kind} {_arrow(x.old_ids, x.new_ids)}" for x in event.examples)
                + "]"
            )
        if (pieces := pieces_note(event.links)) is not None:
            line += f"  [{pieces}]"
        lines.append(line)
    return "\n".join(lines) + "\n"


# --- rulediff history ---------------------------------------------------------------------------
@click.command("history")
@click.argument("rule")
@edition_option()
@format_option("text", "json", "html")
@output_option
@corpus_options
def history(rule: str, edition: str, fmt: str, output: Path | None) -> None:
    """Every edition where RULE was born, edited, renumbered, split, merged or removed.

    RULE is numbered as in EDITION (default: the newest). Newest first; renumberings
    are followed back to the rule's origin (lineage of consecutive editions).
    """
    lineage, load_date, editions = _lineage()
    k = _edition_index(edition, editions)
    rule_id = _check_rule(load_date(str(editions[k].date)), rule)
    found = rule_history(lineage, rule_id, k)
    if fmt == "text":
        write_output(history_text(found), output)
        return
    details = history_details(found, load_date)
    if fmt == "json":
        data = json_text(history_as_dict(found, details), indent=1)
        write_output(data, output)
    else:
        write_output(_renderer("render_history_html")(found, details), output)


def follow_back(lineage: Lineage, newest: Edition, rule: str, day: dt.date) -> str:
    """The number on ``day`` of the rule numbered ``rule`` in the newest edition (``at
    --follow``), traced back through renumberings; also used by ``rulediff serve``."""
    last = len(lineage.editions) - 1
    wanted = _check_rule(newest, rule)
    traced = trace_to(lineage, wanted, last, lineage.in_force(day))
    if traced is None:
        born = rule_history(lineage, wanted, last).origin
        when = f" (it first appears in the edition of {born.date})" if born else ""
        raise RuleNotFound(f"rule {wanted} did not exist on {day}{when}")
    return traced


def at_document(edition: Edition, wanted: str, asked: str, day: dt.date) -> dict[str, Any]:
    """The JSON document of ``rulediff at --format json`` (and of ``serve``'s ``/api/at``)."""
    item = edition.rule(wanted)
    if item is None:
        sec = edition.section(wanted)
        text, examples = (sec.title if sec else ""), []
    else:
        text, examples = item.text, [e.text for e in item.examples]
    return {
        "rule": wanted,
        "asked": asked,
        "date": day.isoformat(),
        "edition": edition.date_text,
        "text": text,
        "examples": examples,
    }


# --- rulediff at --------------------------------------------------------------------------------
@click.command("at")
@click.argument("rule")
@click.argument("date")
@click.option(
    "--follow",
    is_flag=True,
    help="RULE is numbered as in the newest edition: follow its renumberings back to DATE.",
)
@format_option("text", "json")
@corpus_options
def at(rule: str, date: str, follow: bool, fmt: str) -> None:
    """The text of RULE as it stood on DATE (in the edition in force that day).

    Without --follow, RULE is numbered as on DATE; with it, RULE is today's number and
    the rule is traced back through renumberings.
    """
    try:
        day = dt.date.fromisoformat(date.strip())
    except ValueError:
        raise RuleDiffError(f"{date!r} is not a date (YYYY-MM-DD)") from None
    wanted = rule
    if follow:
        lineage, load_date, editions = _lineage()
        newest = len(editions) - 1
        wanted = follow_back(lineage, load_date(str(editions[newest].date)), rule, day)
    edition = load(f"@{day.isoformat()}")
    wanted = _check_rule(edition, wanted)
    item = edition.rule(wanted)
    if fmt == "json":
        doc = at_document(edition, wanted, rule, day)
        write_output(json_text(doc, indent=1), None)
        return
    text = at_document(edition, wanted, rule, day)["text"]
    head = f"{wanted} as of {day} (edition of {edition.date_text}"
    head += f"; numbered {rule} today)" if follow and wanted != rule else ")"
    body = format_rule(item) if item is not None else f"{wanted}. {text}"
    write_output(f"{head}\n{body}\n", None)
