"""``rulediff search``: ranked full-text search of one edition or of all of them."""

from __future__ import annotations

import json
from pathlib import Path

import click

from .common import corpus_options, format_option, output_option, progress, settings, write_output


def resolve_date(corpus: object, ref: str) -> str:
    """The effective date (as the index names editions) of the corpus edition ``ref``."""
    from ..corpus import Corpus

    assert isinstance(corpus, Corpus)
    return str(corpus.resolve(ref).date)


@click.command("search")
@click.argument("words", nargs=-1, required=True)
@click.option(
    "--edition",
    "-e",
    default="latest",
    show_default=True,
    metavar="EDITION",
    help="Date (2024-11-08), set code or name, 'latest', or '@DATE' (in force then).",
)
@click.option(
    "--all-editions",
    is_flag=True,
    help="Search every edition: hits grouped by rule, and where each phrase first and "
    "last appears.",
)
@click.option("--limit", "-n", default=20, show_default=True, type=click.IntRange(1, 200))
@format_option("text", "json", help="text: ranked lines; json: the search document.")
@output_option
@corpus_options
def search(
    words: tuple[str, ...],
    edition: str,
    all_editions: bool,
    limit: int,
    fmt: str,
    output: Path | None,
) -> None:
    """Find rules and glossary entries by words, a "quoted phrase" or a rule number.

    Ranked: an exact rule number or glossary term first, then by relevance (bm25; a word
    in a rule's number or title counts more than one in its text). The index (SQLite
    FTS5) is built in the cache folder on first use and rebuilt when the corpus changes.
    """
    from ..corpus import Corpus
    from ..search import open_index, search_document, search_text

    s = settings()
    corpus = Corpus.open(s.corpus_dir, use_cache=s.use_cache)
    with progress("indexing editions") as report:  # only drawn while a build runs
        index = open_index(
            corpus, use_cache=s.use_cache, progress=lambda k, n: report(k, n, item=str(k))
        )
    date = None if all_editions else resolve_date(corpus, edition)
    doc = search_document(
        index, " ".join(words), edition=date, all_editions=all_editions, limit=limit
    )
    if fmt == "json":
        write_output(json.dumps(doc, ensure_ascii=False, indent=2) + "\n", output)
    else:
        write_output(search_text(doc), output)
