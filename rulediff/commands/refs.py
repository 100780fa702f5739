"""``rulediff refs RULE``: what a rule cites and what cites it (backlinks)."""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import RuleNotFound
from ..graph import format_links, glossary_node, links
from ..model import Edition, RuleId
from ..safetext import json_text
from .common import corpus_options, edition_option, format_option, load, output_option, write_output


def resolve_node(edition: Edition, ref: str) -> str:
    """A rule number (``702.36e``), a section digit, or a glossary term → node id.

    A well-formed number is accepted even when the edition lacks it: ``refs`` then
    shows who cites the missing rule.
    """
    rule_id = RuleId.try_parse(ref.strip())
    if rule_id is not None:
        return str(rule_id)
    entry = edition.glossary_entry(ref)
    if entry is not None:
        return glossary_node(entry.term)
    raise RuleNotFound(
        f"{ref!r} is neither a rule number (702.36e) nor a glossary term of the edition "
        f"of {edition.date_text}",
        file=edition.source,
    )


@click.command("refs")
@click.argument("rule")
@edition_option()
@format_option(
    "text",
    "json",
    help="text: a readable list; json: {edition, node, title, exists, cites, cited_by}.",
)
@output_option
@corpus_options
def refs(rule: str, edition: str, fmt: str, output: Path | None) -> None:
    """Show what RULE cites and what cites it (rules, examples and glossary entries).

    RULE is a rule number (702.36e), a section digit (7) or a glossary term (Morph).
    """
    ed = load(edition)
    node = resolve_node(ed, rule)
    found = links(ed, node)
    if not found.exists and not found.cited_by:
        raise RuleNotFound(
            f"no rule {node} in the edition of {ed.date_text}, and nothing cites it",
            file=ed.source,
        )
    if fmt == "json":
        write_output(json_text(found.as_dict(), indent=2), output)
    else:
        write_output(format_links(found), output)
