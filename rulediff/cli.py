"""The ``rulediff`` command: parses arguments, calls the library, prints, sets exit codes.

No logic of its own lives here: every command is a thin shell in
:mod:`rulediff.commands` over a library function. Exit codes: 0 success, 1 findings
(e.g. ``audit --fail-on``), 2 bad input or usage, 3 internal error (a bug).
"""

from __future__ import annotations

import importlib

import click

from . import __version__
from .commands.common import RuleDiffGroup, corpus_options, debug_option

#: command name -> (module under rulediff.commands, attribute, short help): one line per
#: command. A command's module (and the library it needs) is imported only when that command
#: runs, so ``rulediff --help`` and ``rulediff show`` start fast; tests/test_cli.py checks
#: that each short help is the command's own.
COMMANDS: dict[str, tuple[str, str, str]] = {
    "parse": (
        "parse",
        "parse",
        "Print an edition's model (json) or its text rebuilt from the model.",
    ),
    "show": (
        "parse",
        "show",
        "Print a rule with its subrules and examples.",
    ),
    "glossary": (
        "parse",
        "glossary",
        "Print the glossary entry for TERM (case-insensitive).",
    ),
    "corpus": (
        "corpus",
        "corpus",
        "List, import and fetch the CR editions rulediff reads.",
    ),
    "diff": (
        "diff",
        "diff",
        "Show what changed from edition OLD to edition NEW: every rule matched by its text.",
    ),
    "history": (
        "diff",
        "history",
        "Every edition where RULE was born, edited, renumbered, split, merged or removed.",
    ),
    "at": (
        "diff",
        "at",
        "The text of RULE as it stood on DATE (in the edition in force that day).",
    ),
    "engine": (
        "engine",
        "engine",
        "Play rules scenarios under the behaviour of any edition.",
    ),
    "flags": (
        "flags",
        "flags",
        "Behaviour flags derived from an edition's text (mana burn, legend rule, mulligan…).",
    ),
    "site": (
        "site",
        "site",
        "Build a static site for the whole corpus in DIR.",
    ),
    "refs": (
        "refs",
        "refs",
        "Show what RULE cites and what cites it (rules, examples and glossary entries).",
    ),
    "graph": (
        "graph",
        "graph",
        "Write the reference graph of an edition: sections, rules and glossary terms, "
        "with parent-of, refers-to and defined-in edges (same input, same bytes).",
    ),
    "audit": (
        "audit",
        "audit_command",
        "Report dangling references, stale quoted titles, numbering and contents mistakes.",
    ),
    "search": (
        "search",
        "search",
        'Find rules and glossary entries by words, a "quoted phrase" or a rule number.',
    ),
    "serve": (
        "serve",
        "serve",
        "Serve every edition, any pair's diff, histories, flags and search over HTTP.",
    ),
    "cite-check": (
        "citecheck",
        "cite_check",
        "Find CR citations (CR 704.5j, rule 702.36d, // 613.4c) in PATHS and report "
        "those not in the edition; with --from OLD, also those renumbered or removed "
        "since OLD.",
    ),
}


class LazyGroup(RuleDiffGroup):
    """The top-level group with its commands imported on demand (click's lazy-loading
    pattern); ``--help`` lists them with their short help, read without running them."""

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted({*super().list_commands(ctx), *COMMANDS})

    def get_command(self, ctx: click.Context, name: str) -> click.Command | None:
        if name in COMMANDS and name not in self.commands:
            module_name, attr, _ = COMMANDS[name]
            module = importlib.import_module(f".commands.{module_name}", __package__)
            command = getattr(module, attr)
            if command.name != name:
                raise RuntimeError(f"rulediff.commands.{module_name}.{attr} is {command.name!r}")
            self.add_command(command)
        return super().get_command(ctx, name)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        """The command list from :data:`COMMANDS`, without importing every command."""
        names = self.list_commands(ctx)
        if not names:
            return
        limit = formatter.width - 6 - max(len(name) for name in names)
        rows = []
        for name in names:
            if name in COMMANDS and name not in self.commands:
                stand_in = click.Command(name, help=COMMANDS[name][2])  # click's own shortening
                rows.append((name, stand_in.get_short_help_str(limit)))
            else:
                command = self.get_command(ctx, name)
                if command is not None and not command.hidden:
                    rows.append((name, command.get_short_help_str(limit)))
        with formatter.section("Commands"):
            formatter.write_dl(rows)


@click.group(cls=LazyGroup, context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulediff")
@debug_option
@corpus_options
def main() -> None:
    """Version, diff and audit the Magic: The Gathering Comprehensive Rules."""


def run(argv: list[str] | None = None) -> None:
    """Console entry point: errors become one line on stderr and an exit code."""
    main.main(args=argv, prog_name="rulediff")
