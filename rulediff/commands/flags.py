"""``rulediff flags``: behaviour flags of one edition, the timeline, engine checks.

rulediff flags EDITION [--format json|toml|python]
rulediff flags --timeline [--format text|json|html]
rulediff flags --check-engine FILE --edition E [--format text|json]
"""

from __future__ import annotations

from pathlib import Path

import click

from ..errors import FlagError
from ..safetext import json_text
from .common import EXIT_FINDINGS, corpus_options, load, output_option, settings, write_output

_FORMATS = ("json", "toml", "python", "text", "html")
_ALLOWED = {
    "edition": ("json", "toml", "python"),
    "timeline": ("text", "json", "html"),
    "check": ("text", "json"),
}


@click.command("flags")
@click.argument("edition", required=False, metavar="[EDITION]")
@click.option(
    "--format",
    "fmt",
    type=click.Choice(_FORMATS),
    default=None,
    help="EDITION: json (default), toml, python. --timeline: text (default), json, "
    "html. --check-engine: text (default), json.",
)
@click.option("--timeline", is_flag=True, help="Every corpus edition, and where each flag changed.")
@click.option(
    "--check-engine",
    "engine_file",
    metavar="FILE",
    type=click.Path(dir_okay=False, path_type=Path),
    help="A TOML/JSON file of the flags an engine implements; list disagreements "
    "with --edition (exit 1 when any).",
)
@click.option(
    "--edition",
    "-e",
    "edition_opt",
    metavar="EDITION",
    default=None,
    help="The edition to check an engine against (with --check-engine).",
)
@corpus_options
@output_option
def flags(
    edition: str | None,
    fmt: str | None,
    timeline: bool,
    engine_file: Path | None,
    edition_opt: str | None,
    output: Path | None,
) -> None:
    """Behaviour flags derived from an edition's text (mana burn, legend rule, mulligan…)."""
    from ..flags import load_flagset
    from ..flags.exporters import timeline_to_json, to_json, to_python, to_toml
    from ..flags.timeline import cached_flags_for, check_engine, corpus_timeline
    from ..render.flags import check_text, timeline_html, timeline_text

    mode = "check" if engine_file else "timeline" if timeline else "edition"
    if timeline and engine_file:
        raise click.UsageError("--timeline and --check-engine cannot be combined")
    if mode == "timeline" and (edition or edition_opt):
        raise click.UsageError("--timeline covers every corpus edition; give no EDITION")
    if mode == "check":
        if edition and edition_opt and edition != edition_opt:
            raise click.UsageError("give the edition once (EDITION or --edition)")
        edition = edition_opt or edition
        if not edition:
            raise click.UsageError("--check-engine needs --edition E")
    elif mode == "edition":
        edition = edition or edition_opt
        if not edition:
            raise click.UsageError("give an EDITION, --timeline, or --check-engine FILE")
    fmt = fmt or _ALLOWED[mode][0]
    if fmt not in _ALLOWED[mode]:
        label = {"edition": "an EDITION", "timeline": "--timeline", "check": "--check-engine"}
        raise click.UsageError(
            f"--format {fmt} does not apply to {label[mode]} "
            f"(choose from {', '.join(_ALLOWED[mode])})"
        )
    use_cache = settings().use_cache

    if mode == "timeline":
        from ..corpus import Corpus

        s = settings()
        sets = corpus_timeline(Corpus.open(s.corpus_dir, use_cache=use_cache), use_cache=use_cache)
        render = {"text": timeline_text, "json": timeline_to_json, "html": timeline_html}[fmt]
        write_output(render(sets), output)
        return

    assert edition is not None
    if mode == "check":
        assert engine_file is not None
        declared = load_flagset(engine_file)  # validate the file before loading editions
        derived = cached_flags_for(load(edition), use_cache=use_cache)
        bad, good = check_engine(declared, derived)
        date = derived.effective_date.isoformat() if derived.effective_date else "unknown"
        if fmt == "json":
            doc = {
                "engine": str(engine_file),
                "effective_date": date,
                "agree": good,
                "disagreements": [
                    {
                        "flag": d.flag,
                        "declared": _plain(d.declared),
                        "derived": _plain(d.derived),
                        "rules": list(d.rules),
                        "evidence": d.evidence,
                    }
                    for d in bad
                ],
            }
            write_output(json_text(doc, indent=2), output)
        else:
            write_output(check_text(bad, good, date, str(engine_file)), output)
        if bad:
            raise click.exceptions.Exit(EXIT_FINDINGS)
        return

    fs = cached_flags_for(load(edition), use_cache=use_cache)
    render_one = {"json": to_json, "toml": to_toml, "python": to_python}[fmt]
    write_output(render_one(fs), output)


def _plain(value: object) -> object:
    return list(value) if isinstance(value, tuple) else value


__all__ = ["flags", "FlagError"]
