"""``rulediff parse``, ``rulediff show`` and ``rulediff glossary``: read one edition."""

from __future__ import annotations

import bisect
import json
from importlib import resources
from pathlib import Path
from typing import Any

import click
from rapidfuzz import fuzz, process

from ..errors import RuleNotFound
from ..model import Edition, GlossaryEntry, Rule, RuleId
from ..safetext import json_text
from .common import (
    corpus_options,
    edition_option,
    format_option,
    load,
    one_line,
    output_option,
    settings,
    write_output,
)

#: Version of the ``parse --format json`` document; bumped when its shape changes.
PARSE_FORMAT_VERSION = 1


# --- rulediff parse -----------------------------------------------------------------------
def rule_as_dict(rule: Rule) -> dict[str, Any]:
    parent = rule.id.parent
    return {
        "id": str(rule.id),
        "label": rule.label,
        "kind": rule.kind,
        "title": rule.title,
        "text": rule.text,
        "examples": [example.text for example in rule.examples],
        "parent": str(parent) if parent is not None else None,
        "line": rule.line,
    }


def glossary_as_dict(entry: GlossaryEntry) -> dict[str, Any]:
    return {
        "term": entry.term,
        "text": entry.text,
        "senses": list(entry.senses),
        "line": entry.line,
    }


def edition_as_dict(edition: Edition) -> dict[str, Any]:
    """The JSON document of ``rulediff parse`` (see ``rulediff/schemas/parse.schema.json``).

    Everything in it comes from the bytes of the edition, never from where they were
    read, so the same edition gives the same document from any path or the cache.
    """
    from ..clauses import edition_clauses_json  # the clause parser: only for this output

    rule_clauses, glossary_clauses = edition_clauses_json(edition, use_cache=settings().use_cache)
    return {
        "format": "rulediff-parse",
        "version": PARSE_FORMAT_VERSION,
        "effective_date": edition.effective_date.isoformat() if edition.effective_date else None,
        "title": edition.title,
        "sha256": edition.sha256,
        "encoding": edition.encoding,
        "line_endings": edition.line_endings,
        "sections": [{"id": str(s.id), "title": s.title, "line": s.line} for s in edition.sections],
        "contents": [
            {"id": str(c.id) if c.id is not None else None, "title": c.title, "line": c.line}
            for c in edition.contents
        ],
        "rules": [
            rule_as_dict(rule) | extra
            for rule, extra in zip(edition.rules, rule_clauses, strict=True)
        ],
        "glossary": [
            glossary_as_dict(entry) | extra
            for entry, extra in zip(edition.glossary, glossary_clauses, strict=True)
        ],
        "has_credits": edition.credits is not None,
        "diagnostics": [d.as_dict() for d in edition.diagnostics],
    }


def edition_json(edition: Edition) -> str:
    """Deterministic JSON text: fixed key order, indent 2, UTF-8 characters kept, final LF."""
    return json_text(edition_as_dict(edition), indent=2)


def parse_schema() -> dict[str, Any]:
    """The JSON Schema the ``parse --format json`` output follows (shipped in the package)."""
    text = (resources.files("rulediff") / "schemas" / "parse.schema.json").read_text("utf-8")
    return json.loads(text)


def _warn_incomplete(edition: Edition) -> None:
    """A truncated edition is accepted; say on stderr what is missing from it."""
    for diag in edition.diagnostics:
        if diag.code.startswith("missing-"):
            where = edition.source + (f":{diag.line}" if diag.line else "")
            click.echo(f"rulediff: warning: {where}: {one_line(diag.message)}", err=True)


@click.command("parse")
@click.argument("edition")
@format_option(
    "json",
    "text",
    help="json: the model as JSON; text: the edition rebuilt from the model, byte for byte.",
)
@output_option
@corpus_options
def parse(edition: str, fmt: str, output: Path | None) -> None:
    """Print an edition's model (json) or its text rebuilt from the model.

    EDITION is a path to a CR text file, a date in the corpus (2024-11-08), a set code or
    name (FDN, Foundations), 'latest', or '@DATE' for the edition in force on DATE.
    """
    ed = load(edition)
    _warn_incomplete(ed)
    if fmt == "text":
        # Exactly the ingested text (UTF-8, LF): no newline added, none taken away.
        write_output(ed.to_text().encode("utf-8"), output)
    else:
        write_output(edition_json(ed).encode("utf-8"), output)


# --- rulediff show ------------------------------------------------------------------------
def _display_label(rule: Rule) -> str:
    """The number as the modern CR prints it: ``702.``, ``702.36.``, ``702.36a``."""
    return str(rule.id) if rule.id.letters else f"{rule.id}."


def format_rule(rule: Rule) -> str:
    """One rule as plain text: number, text, then its examples, each on its own line."""
    lines = [f"{_display_label(rule)} {rule.text}"]
    lines.extend(f"{example.label} {example.text}" for example in rule.examples)
    return "\n".join(lines)


def nearest_rules(edition: Edition, rule_id: RuleId, limit: int = 3) -> list[str]:
    """Rule numbers of the same depth that sort right around ``rule_id``."""
    same_depth = sorted({r.id for r in edition.rules if r.id.depth == rule_id.depth})
    if not same_depth:
        same_depth = sorted({r.id for r in edition.rules})
    at = bisect.bisect_left(same_depth, rule_id)
    picked = same_depth[max(0, at - (limit - 1)) : at + 1]  # the ones before, one after
    return [str(r) for r in picked]


def rule_block(edition: Edition, ref: str) -> str:
    """A rule (or section) with all its subrules and examples, as plain text."""
    wanted = ref.strip().lower().rstrip(".")
    rule_id = RuleId.try_parse(wanted)
    if rule_id is None:
        raise RuleNotFound(
            f"{ref!r} is not a rule number (expected e.g. 7, 702, 702.36 or 702.36a)",
            file=edition.source,
        )
    blocks: list[str] = []
    if rule_id.is_section:
        section = edition.section(rule_id.rule)
        if section is not None:
            blocks.append(section.heading.strip())
    else:
        rule = edition.rule(rule_id)
        if rule is not None:
            blocks.append(format_rule(rule))
    if not blocks:
        near = nearest_rules(edition, rule_id)
        hint = f"; nearest: {', '.join(near)}" if near else ""
        raise RuleNotFound(
            f"no rule {rule_id} in the edition of {edition.date_text}{hint}", file=edition.source
        )
    blocks.extend(format_rule(child) for child in edition.descendants(rule_id))
    return "\n\n".join(blocks) + "\n"


@click.command("show")
@click.argument("rule")
@edition_option()
@corpus_options
def show(rule: str, edition: str) -> None:
    """Print a rule with its subrules and examples.

    RULE is a rule number: 7, 702, 702.36 or 702.36a.
    """
    write_output(rule_block(load(edition), rule), None)


# --- rulediff glossary --------------------------------------------------------------------
def nearest_terms(edition: Edition, term: str, limit: int = 3) -> list[str]:
    """Glossary terms that look most like ``term`` (fuzzy, case-insensitive)."""
    terms = [entry.term for entry in edition.glossary]
    found = process.extract(
        term, terms, scorer=fuzz.WRatio, processor=lambda s: s.casefold(), limit=limit
    )
    return [match for match, _score, _index in found]


def glossary_block(edition: Edition, term: str) -> str:
    """A glossary entry as plain text: the term, then its definition."""
    entry = edition.glossary_entry(term)
    if entry is None:
        if not edition.glossary:
            raise RuleNotFound(
                f"the edition of {edition.date_text} has no glossary", file=edition.source
            )
        near = nearest_terms(edition, term)
        hint = f"; nearest: {', '.join(repr(t) for t in near)}" if near else ""
        raise RuleNotFound(
            f"no glossary term {term!r} in the edition of {edition.date_text}{hint}",
            file=edition.source,
        )
    return f"{entry.term}\n{entry.text}\n"


@click.command("glossary")
@click.argument("term")
@edition_option()
@corpus_options
def glossary(term: str, edition: str) -> None:
    """Print the glossary entry for TERM (case-insensitive)."""
    write_output(glossary_block(load(edition), term), None)
