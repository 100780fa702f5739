"""``rulediff locate`` and ``rulediff diff --paragraphs``: rules text without numbers."""

from __future__ import annotations

import json
import sys
from collections.abc import Callable
from pathlib import Path
from typing import Any

import click

from ..errors import RuleDiffError
from .common import (
    corpus_options,
    edition_option,
    format_option,
    output_option,
    settings,
    write_output,
)


def read_input(name: str) -> str:
    """The text of FILE (any encoding an edition may have) or of standard input (``-``)."""
    from ..ingest import decode, read_bytes

    if name == "-":
        data = sys.stdin.buffer.read() if hasattr(sys.stdin, "buffer") else sys.stdin.read()
        if isinstance(data, str):
            return data
        return decode(data, "<stdin>")[0]
    return decode(read_bytes(name), name)[0]


def _context(edition: str):  # noqa: ANN202 - rulediff.locate.Context, imported lazily
    from ..locate import load_context

    s = settings()
    return load_context(edition, corpus_dir=s.corpus_dir, use_cache=s.use_cache)


def _write(
    result: Any,
    fmt: str,
    output: Path | None,
    *,
    html: Callable[[Any], str],
    text: Callable[[Any], str],
) -> None:
    """Write a locate or paragraph-diff result as JSON, HTML or text."""
    if fmt == "json":
        out = json.dumps(result.as_dict(), ensure_ascii=False, indent=1) + "\n"
    else:
        out = html(result) if fmt == "html" else text(result)
    write_output(out, output)


@click.command("locate")
@click.argument("file")
@edition_option()
@format_option("text", "json", "html")
@output_option
@corpus_options
def locate(file: str, edition: str, fmt: str, output: Path | None) -> None:
    """Which rules a text quotes without their numbers, since when, and what is not CR.

    FILE (or - for standard input) is split into paragraphs; each gets the best rule(s)
    of EDITION, a status (exact, reworded, heading, partial, not-cr) and the editions
    whose text has exactly that wording.
    """
    from ..locate import locate_text
    from ..render.locate import to_text

    text = read_input(file)
    result = locate_text(text, source=file, context=_context(edition))
    from ..render.locate import render_locate_html

    _write(result, fmt, output, html=render_locate_html, text=to_text)


def diff_paragraphs_command(
    old: str, new: str, edition: str, fmt: str, output: Path | None
) -> None:
    """``rulediff diff --paragraphs OLD NEW`` (called by the diff command)."""
    from ..locate import diff_paragraphs
    from ..render.locate import diff_to_text

    if fmt not in ("text", "json", "html"):
        raise RuleDiffError(f"--paragraphs writes text, json or html, not {fmt}")
    result = diff_paragraphs(
        read_input(old),
        read_input(new),
        old_source=old,
        new_source=new,
        context=_context(edition),
    )
    from ..render.locate import render_paragraph_diff_html

    _write(result, fmt, output, html=render_paragraph_diff_html, text=diff_to_text)
