"""``rulediff corpus list|import|fetch``: see and fill the folder of editions.

Thin shells over :mod:`rulediff.corpus`; ``--corpus DIR`` and ``--no-cache`` come from
:func:`~rulediff.commands.common.corpus_options` (also accepted before ``corpus``).
"""

from __future__ import annotations

import json
from pathlib import Path

import click
from rich.console import Console
from rich.table import Table

from .. import corpus as corpus_lib
from .common import corpus_options, format_option, progress, settings

#: Below this many editions to parse, no progress bar is drawn.
_PROGRESS_FROM = 8


def _stdout() -> Console:
    console = Console(highlight=False, soft_wrap=False)
    if not console.is_terminal:
        console = Console(highlight=False, width=160, color_system=None)
    return console


@click.group("corpus")
@corpus_options
def corpus() -> None:
    """List, import and fetch the CR editions rulediff reads."""


def list_document(corp: corpus_lib.Corpus, rows: list[tuple[corpus_lib.EditionInfo, int]]) -> dict:
    """The JSON document of ``corpus list --format json`` (also served by ``rulediff serve``)."""
    return {
        "corpus": str(corp.directory),
        "editions": [
            {
                "date": info.date.isoformat(),
                "set_code": info.set_code,
                "set_name": info.set_name,
                "rules": rules,
                "sha256": info.sha256,
                "bytes": info.size,
                "file": str(info.path),
                "official": info.known,
                "url": info.url,
            }
            for info, rules in rows
        ],
    }


@corpus.command("list")
@format_option("text", "json")
@corpus_options
def list_command(fmt: str) -> None:
    """List the editions in the corpus: date, set, rules, sha256, source file."""
    s = settings()
    corp = corpus_lib.Corpus.open(s.corpus_dir, use_cache=s.use_cache)
    infos = corp.editions()
    rows = []
    with progress("parsing", len(infos), minimum=_PROGRESS_FROM) as report:
        for done, info in enumerate(infos):
            report(done, item=str(info.date))
            edition = corp.load(info)
            rows.append((info, len(edition.rules)))
    if fmt == "json":
        doc = list_document(corp, rows)
        click.echo(json.dumps(doc, indent=2, ensure_ascii=False))
        return
    table = Table(title=f"{len(rows)} editions in {corp.directory}", title_justify="left")
    table.add_column("date")
    table.add_column("set")
    table.add_column("rules", justify="right")
    table.add_column("sha256")
    table.add_column("source file")
    for info, rules in rows:
        set_text = " ".join(x for x in (info.set_code, info.set_name) if x) or "-"
        source = info.path.name
        if info.name_date is not None and info.name_date != info.date:
            source += f" (name says {info.name_date})"
        sha = info.sha256[:12] + ("" if info.known else " *")
        table.add_row(str(info.date), set_text, str(rules), sha, source)
    console = _stdout()
    console.print(table)
    if any(not info.known for info, _ in rows):
        console.print("* not byte-identical to any edition in the manifest")


@corpus.command("import")
@click.argument("sources", nargs=-1, required=True, metavar="FILE|DIR...")
@click.option("--force", is_flag=True, help="Replace a different file already stored for a date.")
@click.option(
    "--allow-truncated",
    is_flag=True,
    help="Store an edition that ends before its glossary or credits (refused by default).",
)
@corpus_options
def import_command(sources: tuple[str, ...], force: bool, allow_truncated: bool) -> None:
    """Validate CR text files and store them in the corpus as YYYY-MM-DD.txt.

    The date comes from the text. A DIR imports every *.txt in it. Every file is checked
    (and every place it goes) before anything is stored: if one is not a CR edition, is
    truncated (no glossary or credits, unless --allow-truncated) or cannot be stored,
    nothing is.
    """
    s = settings()
    directory = s.corpus_dir or corpus_lib.default_corpus_dir()
    with progress("checking", minimum=_PROGRESS_FROM) as report:
        results = corpus_lib.import_editions(
            [Path(p) for p in sources],
            directory,
            force=force,
            allow_truncated=allow_truncated,
            use_cache=s.use_cache,
            on_file=lambda path, index, total: report(index, total, item=path.name),
        )
    for r in results:
        if r.status == "unchanged":
            click.echo(f"unchanged {r.date}: {r.source} is already in the corpus as {r.path}")
        else:
            click.echo(f"{r.status} {r.date}: {r.source} -> {r.path}")


@corpus.command("fetch")
@click.argument("editions", nargs=-1, metavar="[EDITION...]")
@click.option("--force", is_flag=True, help="Replace a different file already stored for a date.")
@click.option(
    "--manifest",
    type=click.Path(dir_okay=False, path_type=Path),
    default=None,
    help="Manifest with URLs and sha256 (default: $RULEDIFF_MANIFEST, else the shipped one).",
)
@click.option(
    "--timeout", type=float, default=60.0, show_default=True, help="Seconds per download."
)
@corpus_options
def fetch_command(
    editions: tuple[str, ...], force: bool, manifest: Path | None, timeout: float
) -> None:
    """Download official editions listed in the manifest (all missing ones by default).

    Each download is checked against the manifest's sha256 before it is written.
    """
    s = settings()
    directory = s.corpus_dir or corpus_lib.default_corpus_dir()
    err = Console(stderr=True)
    status = err.status("downloading", spinner="dots") if err.is_terminal else None

    def on_entry(entry: corpus_lib.ManifestEntry) -> None:
        if status is not None:
            status.update(f"downloading {entry.label} from {entry.url}")

    if status is not None:
        status.start()
    try:
        results = corpus_lib.fetch_editions(
            list(editions),
            directory,
            manifest=manifest,
            force=force,
            timeout=timeout,
            on_entry=on_entry,
        )
    finally:
        if status is not None:
            status.stop()
    present = 0
    for r in results:
        if r.status != "unchanged":
            click.echo(f"{r.status} {r.entry.label}: {r.entry.url} -> {r.path}")
        elif editions:
            click.echo(f"unchanged {r.entry.label}: already in the corpus as {r.path}")
        else:
            present += 1
    if not editions and len(results) == present:
        click.echo(f"nothing to fetch: {directory} has every edition with a known URL ({present})")
