"""``rulediff audit``: check an edition (or every edition) the way a rules editor would."""

from __future__ import annotations

from pathlib import Path

import click

from ..audit import audit, audit_json, corpus_json, meets, summarize
from ..corpus import Corpus
from ..model import Diagnostic, Edition
from ..safetext import json_text
from .common import (
    EXIT_FINDINGS,
    corpus_options,
    format_option,
    load,
    output_option,
    settings,
    write_output,
)


def _stale_since(since: str, edition: Edition) -> list[Diagnostic]:
    """``stale-reference`` findings of ``edition`` against the older edition ``since``."""
    from ..align import align_cached
    from ..diff import stale_references

    before = load(since)
    alignment = align_cached(before, edition, use_cache=settings().use_cache)
    return stale_references(before, edition, alignment)


def _json(doc: object) -> str:
    return json_text(doc, indent=2)


@click.command("audit")
@click.argument("edition", required=False)
@click.option("--all", "all_", is_flag=True, help="Audit every edition of the corpus: a table.")
@format_option(
    "text",
    "json",
    "html",
    help="text: one line per finding; json: {edition, findings}; html: a readable page.",
)
@click.option(
    "--fail-on",
    type=click.Choice(["error", "warning"]),
    default=None,
    help="Exit 1 when a finding of this severity (or worse) is found.",
)
@click.option(
    "--since",
    metavar="OLD",
    default=None,
    help="Also report stale-reference: references left behind by renumberings since OLD.",
)
@output_option
@corpus_options
def audit_command(
    edition: str | None,
    all_: bool,
    fmt: str,
    fail_on: str | None,
    output: Path | None,
    since: str | None = None,
) -> None:
    """Report dangling references, stale quoted titles, numbering and contents mistakes.

    EDITION is a path, a date (2024-11-08), a set code or name, 'latest' or '@DATE'.
    With --all, every edition of the corpus is audited and a table of counts per code
    is printed (Markdown in text form).
    """
    if all_ == (edition is not None):
        raise click.UsageError("give either an EDITION or --all")
    if all_ and since is not None:
        raise click.UsageError("--since compares one EDITION with OLD; it does not go with --all")
    from ..render.audit import audit_html, audit_text, corpus_html, corpus_table

    failed = False
    if all_:
        s = settings()
        corpus = Corpus.open(s.corpus_dir, use_cache=s.use_cache)
        rows = []
        for info in corpus.editions():
            ed = corpus.load(info)
            findings = audit(ed)
            failed = failed or bool(fail_on and any(meets(f, fail_on) for f in findings))
            rows.append(summarize(ed, findings))
        if fmt == "json":
            write_output(_json(corpus_json(rows)), output)
        elif fmt == "html":
            write_output(corpus_html(rows), output)
        else:
            write_output(corpus_table(rows), output)
    else:
        assert edition is not None
        ed = load(edition)
        findings = audit(ed)
        if since is not None:
            findings = [*findings, *_stale_since(since, ed)]
        failed = bool(fail_on and any(meets(f, fail_on) for f in findings))
        if fmt == "json":
            write_output(_json(audit_json(ed, findings)), output)
        elif fmt == "html":
            write_output(audit_html(ed, findings), output)
        else:
            write_output(audit_text(ed, findings), output)
    if failed:
        raise click.exceptions.Exit(EXIT_FINDINGS)
