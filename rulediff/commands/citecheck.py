"""``rulediff cite-check``: CR citations in source code that do not hold in an edition."""

from __future__ import annotations

from pathlib import Path

import click

from ..citecheck import check, findings_json, findings_text, scan_all
from ..safetext import json_text
from .common import (
    EXIT_FINDINGS,
    corpus_options,
    edition_option,
    format_option,
    load,
    output_option,
    write_output,
)


@click.command("cite-check")
@click.argument("paths", nargs=-1, required=True, type=click.Path(path_type=Path))
@edition_option()
@click.option(
    "--from",
    "from_",
    metavar="OLD",
    default=None,
    help="The edition the code was written against: also report renumbered and removed rules.",
)
@format_option(
    "text",
    "json",
    help="text: FILE:LINE:COL: code: message; json: {edition, from, citations, findings}.",
)
@output_option
@corpus_options
def cite_check(
    paths: tuple[Path, ...], edition: str, from_: str | None, fmt: str, output: Path | None
) -> None:
    """Find CR citations (CR 704.5j, rule 702.36d, // 613.4c) in PATHS and report those
    not in the edition; with --from OLD, also those renumbered or removed since OLD.

    PATHS are files or folders (searched recursively), in any language. A file that cannot
    be read (permissions, a dangling link, a link loop) or is not scanned (a FIFO, a device,
    a binary named here) is reported as a finding and the scan goes on; large files are
    read in pieces. Exit 1 when something is reported.
    """
    scanned = scan_all(paths)
    citations = scanned.citations
    ed = load(edition)
    old = load(from_) if from_ else None
    findings = scanned.problems + check(citations, ed, old)
    if fmt == "json":
        doc = findings_json(findings, len(citations), ed, old)
        write_output(json_text(doc, indent=2), output)
    else:
        write_output(findings_text(findings, len(citations), ed, old), output)
    if findings:
        raise click.exceptions.Exit(EXIT_FINDINGS)
