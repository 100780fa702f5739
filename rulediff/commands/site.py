"""``rulediff site -o DIR``: the static site of the whole corpus (a thin shell over
:func:`rulediff.site.build_site`; the progress bars are drawn here, the library only calls
back).
"""

from __future__ import annotations

import os
from pathlib import Path

import click

from ..errors import OutputError
from .common import corpus_options, progress, settings

_LABELS = {
    "align": "aligning editions",
    "lineage": "chaining lineages",
    "plan": "planning pages",
    "pages": "writing pages",
}


@click.command("site")
@click.option(
    "-o",
    "--output",
    "output",
    required=True,
    metavar="DIR",
    type=click.Path(path_type=Path),
    help="Folder of the site (created; an earlier build there is brought up to date).",
)
@click.option(
    "-j",
    "--jobs",
    type=click.IntRange(1, 64),
    default=None,
    help="Worker processes (default: up to 2, as many as there are CPUs).",
)
@click.option(
    "--force", is_flag=True, help="Render every page, even those whose inputs did not change."
)
@click.option(
    "--base-url",
    default="",
    metavar="URL",
    help="Absolute URL the site will be served from (makes the Atom feed's links absolute).",
)
@corpus_options
def site(output: Path, jobs: int | None, force: bool, base_url: str) -> None:
    """Build a static site for the whole corpus in DIR.

    An index of editions (with a chart of changes), the changelog of each consecutive
    pair, the hyperlinked full text of each edition, the history of every rule and an
    Atom feed. Rebuilding only rewrites pages whose inputs changed.
    """
    from ..corpus import Corpus
    from ..site import build_site

    s = settings()
    if output.is_dir() and not os.access(output, os.W_OK | os.X_OK):
        raise OutputError("the site folder is not writable", file=str(output))
    corpus = Corpus.open(s.corpus_dir, use_cache=s.use_cache)
    workers = jobs if jobs is not None else max(1, min(2, os.cpu_count() or 1))
    try:
        with progress("building the site") as report:
            result = build_site(
                output,
                corpus,
                jobs=workers,
                progress=lambda phase, done, total: report(
                    done, total, task=_LABELS.get(phase, phase)
                ),
                force=force,
                base_url=base_url,
            )
    except OSError as exc:  # a page or folder that cannot be written: the place, not a bug
        where = exc.filename or output
        message = f"cannot write the site: {exc.strerror or exc}"
        raise OutputError(message, file=str(where)) from None
    removed = f", {len(result.removed)} removed" if result.removed else ""
    click.echo(
        f"rulediff: site {result.out}: {result.pages} pages, {len(result.written)} written, "
        f"{result.skipped} unchanged{removed}",
        err=True,
    )
