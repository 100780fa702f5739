"""What every command shares: corpus options, edition loading, output, error handling.

A feature module uses it like this::

    from .common import corpus_options, edition_option, load, output_option, write_output

    @click.command()
    @click.argument("edition")
    @corpus_options
    @output_option
    def mycmd(edition: str, output: Path | None) -> None:
        ed = load(edition)              # honours --corpus / --no-cache
        write_output(render(ed), output)  # stdout, or FILE written atomically

``--corpus`` and ``--no-cache`` are stored in the click context (not passed to the
command function), so adding them to a command changes nothing in its signature. They
may also be given before the command (``rulediff --corpus DIR parse latest``).
"""

from __future__ import annotations

import logging
import os
import re
import stat
import sys
import tempfile
import traceback
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from typing import TYPE_CHECKING, Any, Protocol, TypeVar

import click

from ..errors import OutputError, RuleDiffError

if TYPE_CHECKING:
    from ..model import Edition

F = TypeVar("F", bound=Callable[..., Any])

_SETTINGS_KEY = "rulediff.settings"
_DEBUG_KEY = "rulediff.debug"

#: Exit codes of the ``rulediff`` command.
EXIT_OK = 0
EXIT_FINDINGS = 1
EXIT_BAD_INPUT = 2
EXIT_INTERNAL = 3


@dataclass(frozen=True, slots=True)
class CorpusSettings:
    """Where editions come from for this invocation."""

    corpus_dir: Path | None = None
    """``--corpus DIR``; ``None`` lets :mod:`rulediff.corpus` decide ($RULEDIFF_CORPUS…)."""
    use_cache: bool = True
    """``False`` with ``--no-cache``: parse from the text, neither read nor write the cache."""


# --- corpus options ------------------------------------------------------------------
def settings(ctx: click.Context | None = None) -> CorpusSettings:
    """The corpus settings in force (defaults outside a click invocation)."""
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is None:
        return CorpusSettings()
    return ctx.meta.get(_SETTINGS_KEY, CorpusSettings())


def _store_corpus(ctx: click.Context, _param: click.Parameter, value: Path | None) -> None:
    if value is not None:
        ctx.meta[_SETTINGS_KEY] = replace(settings(ctx), corpus_dir=value)


def _store_no_cache(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[_SETTINGS_KEY] = replace(settings(ctx), use_cache=False)


def corpus_options(f: F) -> F:
    """Add ``--corpus DIR`` and ``--no-cache``; :func:`load` reads them back."""
    f = click.option(
        "--no-cache",
        is_flag=True,
        expose_value=False,
        callback=_store_no_cache,
        help="Parse editions from their text; neither read nor write the cache.",
    )(f)
    f = click.option(
        "--corpus",
        metavar="DIR",
        type=click.Path(file_okay=False, path_type=Path),
        expose_value=False,
        callback=_store_corpus,
        help="Folder of CR editions (default: $RULEDIFF_CORPUS, else the user data folder).",
    )(f)
    return f


def edition_option(default: str = "latest") -> Callable[[F], F]:
    """``--edition/-e E``: an edition reference (path, date, set, ``latest``, ``@date``)."""
    return click.option(
        "--edition",
        "-e",
        default=default,
        show_default=True,
        metavar="EDITION",
        help="Path, date (2024-11-08), set code or name, 'latest', or '@DATE' (in force then).",
    )


def load(ref: str) -> Edition:
    """Load the edition ``ref`` names, honouring ``--corpus`` and ``--no-cache``."""
    from ..corpus import load_edition

    s = settings()
    edition = load_edition(ref, corpus_dir=s.corpus_dir, use_cache=s.use_cache)
    for diag in edition.diagnostics:
        if diag.code == "appended-document":  # never silently read only half a file
            where = edition.source + (f":{diag.line}" if diag.line else "")
            click.echo(f"rulediff: warning: {readable(where)}: {diag.message}", err=True)
    return edition


# --- output ----------------------------------------------------------------------------
def format_option(
    *choices: str,
    default: str | None = None,
    help: str | None = None,  # noqa: A002
) -> Callable[[F], F]:
    """``--format`` with ``choices`` (default: the first), passed as ``fmt``."""
    return click.option(
        "--format",
        "fmt",
        type=click.Choice(list(choices)),
        default=default or choices[0],
        show_default=True,
        help=help,
    )


def output_option(f: F) -> F:
    """``-o/--output FILE`` (default: standard output), passed as ``output``."""
    return click.option(
        "-o",
        "--output",
        metavar="FILE",
        type=click.Path(dir_okay=False, path_type=Path),
        default=None,
        callback=_check_output,
        help="Write to FILE (atomically: complete or untouched) instead of standard output.",
    )(f)


def _check_output(_ctx: click.Context, _param: click.Parameter, value: Path | None) -> Path | None:
    """Refuse a special file or an over-long name before any work is done."""
    if value is not None and str(value) != "-":
        check_output_path(value)
    return value


#: Longest file name most file systems take (bytes).
NAME_MAX = 255


def check_output_path(path: Path) -> Path:
    """Refuse an output that is not a regular file or a new name (exit 2).

    A FIFO, a device node (``/dev/null``, ``/dev/stdout``), a socket, a symbolic link or a
    folder is never replaced by a regular file: leave out ``-o`` to write to standard
    output, or name a regular file.
    """
    path = Path(path)
    shown = shorten(str(path))
    if len(os.fsencode(path.name)) > NAME_MAX:
        raise OutputError(f"file name longer than {NAME_MAX} bytes", file=shown)
    try:
        st = os.lstat(path)
    except FileNotFoundError:
        return path
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror or exc}", file=shown) from None
    if stat.S_ISDIR(st.st_mode):
        raise OutputError("is a directory, cannot write the output there", file=shown)
    if stat.S_ISLNK(st.st_mode):
        raise OutputError(
            "is a symbolic link; name the file itself (an output never replaces a link)",
            file=shown,
        )
    if not stat.S_ISREG(st.st_mode):
        raise OutputError(
            "not a regular file (FIFO, device or socket); leave out -o to write to "
            "standard output",
            file=shown,
        )
    return path


def write_atomic(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file and a rename.

    Readers (and a crash) see either the old file or the complete new one, never half.
    Only a regular file or a new name is written (:func:`check_output_path`); the
    temporary name is short, so any name the file system takes works.
    """
    path = check_output_path(Path(path))
    shown = shorten(str(path))
    folder = path.parent if str(path.parent) else Path(".")
    try:
        fd, tmp_name = tempfile.mkstemp(prefix=".rulediff-", suffix=".tmp", dir=folder)
    except FileNotFoundError:
        raise OutputError("the output folder does not exist", file=shown) from None
    except OSError as exc:
        raise OutputError(f"cannot write here: {exc.strerror or exc}", file=shown) from None
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        os.chmod(tmp_name, _mode_for(path))
        check_output_path(path)  # still not a special file (a FIFO made meanwhile)
        os.replace(tmp_name, path)
    except BaseException as exc:
        try:
            os.unlink(tmp_name)
        except OSError:
            pass
        if isinstance(exc, OSError):
            raise OutputError(f"cannot write: {exc.strerror or exc}", file=shown) from None
        raise


def _mode_for(path: Path) -> int:
    """Keep an existing file's mode; a new file gets the usual 0o666 minus the umask."""
    try:
        return path.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask


def write_output(data: bytes | str, output: Path | None) -> None:
    """Send bytes (str is UTF-8 encoded, nothing else changed) to ``output`` or stdout."""
    raw = data.encode("utf-8") if isinstance(data, str) else data
    if output is None or str(output) == "-":
        stream = sys.stdout.buffer if hasattr(sys.stdout, "buffer") else None
        if stream is None:  # a text-only stdout (some test harnesses)
            sys.stdout.write(raw.decode("utf-8"))
            sys.stdout.flush()
            return
        stream.write(raw)
        stream.flush()
    else:
        write_atomic(output, raw)


# --- progress --------------------------------------------------------------------------
class Report(Protocol):
    """What :func:`progress` yields: say how far the work is."""

    def __call__(
        self, done: int, total: int | None = None, *, item: str = "", task: str = ""
    ) -> None: ...


@contextmanager
def progress(label: str, total: int = 0, *, minimum: int = 1) -> Iterator[Report]:
    """A transient progress bar on stderr while the block runs: the one every command uses.

    Yields ``report(done, total=None, *, item="", task="")``: ``done`` of ``total`` units
    are finished (``total`` defaults to the one given here); ``item`` names the one in
    hand, shown after the label; ``task`` labels a bar of its own (the phases of a site
    build). Nothing is drawn when stderr is not a terminal, until the first report (work
    that is all cached shows nothing), or for fewer than ``minimum`` units.
    """
    from rich.console import Console

    err = Console(stderr=True)
    if not err.is_terminal:
        yield _report_nothing
        return
    from rich.progress import (
        BarColumn,
        MofNCompleteColumn,
        Progress,
        TaskID,
        TextColumn,
        TimeElapsedColumn,
    )

    bar = Progress(
        TextColumn("{task.description:<18}"),
        BarColumn(),
        MofNCompleteColumn(),
        TimeElapsedColumn(),
        console=err,
        transient=True,
    )
    tasks: dict[str, TaskID] = {}
    default_total = total

    def report(done: int, total: int | None = None, *, item: str = "", task: str = "") -> None:
        name = task or label
        size = default_total if total is None else total
        if name not in tasks:
            if size < minimum:
                return
            if not tasks:
                bar.start()
            tasks[name] = bar.add_task(name, total=size)
        bar.update(tasks[name], completed=done, total=size, description=f"{name} {item}".strip())

    try:
        yield report
    finally:
        if tasks:
            bar.stop()


def _report_nothing(done: int, total: int | None = None, *, item: str = "", task: str = "") -> None:
    return None


# --- errors ----------------------------------------------------------------------------
#: Longest piece of user input echoed back in a message (the rest is cut with "…").
MAX_ECHO = 120


def one_line(text: str) -> str:
    """Error messages stay on one line whatever they quote."""
    return " ".join(str(text).split())


def shorten(text: str, limit: int = MAX_ECHO) -> str:
    """``text`` cut to ``limit`` characters (an ellipsis marks the cut)."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


_LONG_WORD = re.compile(rf"\S{{{MAX_ECHO + 1},}}")


#: Longest message printed (the end of a longer one is cut).
MAX_MESSAGE = 600


def readable(message: str) -> str:
    """One line, each over-long run of input it echoes (a path, a reference) cut short, and
    the whole cut to :data:`MAX_MESSAGE` characters."""
    return shorten(_LONG_WORD.sub(lambda m: shorten(m.group()), one_line(message)), MAX_MESSAGE)


class UserError(click.ClickException):
    """A :class:`RuleDiffError` on its way out: ``rulediff: error: FILE:LINE: what``."""

    def __init__(self, error: RuleDiffError) -> None:
        super().__init__(readable(str(error)))
        self.exit_code = error.exit_code

    def show(self, file: Any = None) -> None:
        click.echo(f"rulediff: error: {self.message}", err=True)


class UsageLine(click.ClickException):
    """A click usage error (unknown option, bad value…) as one ``rulediff: error:`` line."""

    exit_code = EXIT_BAD_INPUT

    def __init__(self, error: click.UsageError) -> None:
        where = "rulediff: "
        ctx = error.ctx
        if ctx is not None and ctx.command_path:
            where = " ".join(["rulediff", *ctx.command_path.split(" ")[1:]]) + ": "
        super().__init__(readable(where + error.format_message()))

    def show(self, file: Any = None) -> None:
        click.echo(f"rulediff: error: {self.message}", err=True)


def _one_line_usage(error: click.UsageError) -> click.ClickException:
    if isinstance(error, click.exceptions.NoArgsIsHelpError):
        return error  # bare `rulediff` / `rulediff flags`: the help text is the answer
    return UsageLine(error)


class InternalError(click.ClickException):
    """An exception nobody expected: one line, and a hint to rerun with ``--debug``."""

    exit_code = EXIT_INTERNAL

    def __init__(self, exc: BaseException, debug: bool) -> None:
        detail = one_line(f"{type(exc).__name__}: {exc}")
        hint = "" if debug else " (rerun with 'rulediff --debug …' to see the traceback)"
        super().__init__(f"{detail}{hint}")

    def show(self, file: Any = None) -> None:
        click.echo(f"rulediff: internal error: {self.message}", err=True)


def debug_enabled(ctx: click.Context | None = None) -> bool:
    ctx = ctx or click.get_current_context(silent=True)
    if ctx is not None and ctx.meta.get(_DEBUG_KEY):
        return True
    return os.environ.get("RULEDIFF_DEBUG", "") not in ("", "0")


def _store_debug(ctx: click.Context, _param: click.Parameter, value: bool) -> None:
    if value:
        ctx.meta[_DEBUG_KEY] = True


def debug_option(f: F) -> F:
    """``--debug``: tracebacks for every error (also ``RULEDIFF_DEBUG=1``)."""
    return click.option(
        "--debug",
        is_flag=True,
        expose_value=False,
        is_eager=True,
        callback=_store_debug,
        help="Show tracebacks (also RULEDIFF_DEBUG=1).",
    )(f)


class WarningHandler(logging.Handler):
    """Library warnings (``logging``) as ``rulediff: warning: …`` lines on stderr."""

    def __init__(self) -> None:
        super().__init__(logging.WARNING)

    def emit(self, record: logging.LogRecord) -> None:
        try:
            message = readable(record.getMessage())
        except Exception:  # noqa: BLE001 - a bad log call must not break the command
            self.handleError(record)
            return
        click.echo(f"rulediff: warning: {message}", err=True)


def install_warning_handler() -> None:
    """Route the library's warnings through :class:`WarningHandler` (once per process)."""
    logger = logging.getLogger("rulediff")
    if not any(isinstance(h, WarningHandler) for h in logger.handlers):
        logger.addHandler(WarningHandler())


class RuleDiffGroup(click.Group):
    """The top-level group: turns errors from any subcommand into one line and an exit code.

    Doing this in the group (not in a wrapper around it) means ``CliRunner`` tests see
    exactly what a user sees.
    """

    def make_context(
        self,
        info_name: str | None,
        args: list[str],
        parent: click.Context | None = None,
        **extra: Any,
    ) -> click.Context:
        try:
            return super().make_context(info_name, args, parent, **extra)
        except click.UsageError as exc:
            raise _one_line_usage(exc) from exc

    def invoke(self, ctx: click.Context) -> Any:
        install_warning_handler()
        try:
            return super().invoke(ctx)
        except click.UsageError as exc:
            raise _one_line_usage(exc) from exc
        except (click.exceptions.Exit, click.exceptions.Abort, click.ClickException):
            raise
        except RuleDiffError as exc:
            if debug_enabled(ctx):
                traceback.print_exc()
            raise UserError(exc) from exc
        except BrokenPipeError:
            raise
        except Exception as exc:
            debug = debug_enabled(ctx)
            if debug:
                traceback.print_exc()
            raise InternalError(exc, debug) from exc


def corpus_lineage(corpus: Any, editions: list[Any]) -> Any:
    """The lineage of ``editions`` (a slice of ``corpus.editions()``), aligning the pairs
    not cached yet on every CPU, with a progress bar on a terminal while it does."""
    from ..history import build_lineage

    with progress("aligning editions") as report:
        return build_lineage(
            editions,
            corpus.load,
            use_cache=settings().use_cache,
            progress=lambda k, n: report(k, n, item=str(editions[k].date)),
            workers=os.cpu_count() or 1,
        )
