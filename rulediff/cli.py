"""The ``rulediff`` command: parses arguments, calls the library, prints, sets exit codes.

No logic of its own lives here: every command is a thin shell in
:mod:`rulediff.commands` over a library function. Exit codes: 0 success, 1 findings
(e.g. ``audit --fail-on``), 2 bad input or usage, 3 internal error (a bug).
"""

from __future__ import annotations

import click

from . import __version__
from .commands import audit as audit_commands
from .commands import citecheck as citecheck_commands
from .commands import corpus as corpus_commands
from .commands import diff as diff_commands
from .commands import engine as engine_commands
from .commands import flags as flags_commands
from .commands import graph as graph_commands
from .commands import parse as parse_commands
from .commands import refs as refs_commands
from .commands import search as search_commands
from .commands import serve as serve_commands
from .commands import site as site_commands
from .commands.common import RuleDiffGroup, corpus_options, debug_option


@click.group(cls=RuleDiffGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulediff")
@debug_option
@corpus_options
def main() -> None:
    """Version, diff and audit the Magic: The Gathering Comprehensive Rules."""


# --- command registration (one line per feature module) ---------------------------
main.add_command(parse_commands.parse)
main.add_command(parse_commands.show)
main.add_command(parse_commands.glossary)
main.add_command(corpus_commands.corpus)
main.add_command(diff_commands.diff)
main.add_command(diff_commands.history)
main.add_command(diff_commands.at)
main.add_command(engine_commands.engine)
main.add_command(flags_commands.flags)
main.add_command(site_commands.site)
main.add_command(refs_commands.refs)
main.add_command(graph_commands.graph)
main.add_command(audit_commands.audit_command)
main.add_command(citecheck_commands.cite_check)
main.add_command(search_commands.search)
main.add_command(serve_commands.serve)


def run(argv: list[str] | None = None) -> None:
    """Console entry point: errors become one line on stderr and an exit code."""
    main.main(args=argv, prog_name="rulediff")
