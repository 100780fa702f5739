"""The ``rulediff`` command: parses arguments, calls the library, prints, sets exit codes.

No logic of its own lives here: every command is a thin shell in
:mod:`rulediff.commands` over a library function.
"""

from __future__ import annotations

import sys

import click

from . import __version__
from .errors import RuleDiffError


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
@click.version_option(__version__, prog_name="rulediff")
def main() -> None:
    """Version, diff and audit the Magic: The Gathering Comprehensive Rules."""


# --- command registration (one line per feature module) ---------------------------


def run(argv: list[str] | None = None) -> None:
    """Entry point: user errors become one line on stderr and exit code 2."""
    try:
        main.main(args=argv, prog_name="rulediff", standalone_mode=False)
    except RuleDiffError as exc:
        click.echo(f"rulediff: error: {exc}", err=True)
        sys.exit(exc.exit_code)
    except click.exceptions.Exit as exc:
        sys.exit(exc.exit_code)
    except click.ClickException as exc:
        exc.show()
        sys.exit(2)
    except click.exceptions.Abort:
        click.echo("rulediff: aborted", err=True)
        sys.exit(130)
    except BrokenPipeError:
        sys.exit(0)
    sys.exit(0)
