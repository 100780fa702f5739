"""Check the Comprehensive Rules citations in source code against an edition.

Game-engine code cites the rules it implements — ``// CR 704.5j``, ``# see rule
702.36d``, ``/* 613.4c */`` — and the citations rot as the CR is renumbered. This module
finds them in files of any language and reports

* ``missing``: the cited rule is not in the edition;
* ``renumbered`` (with an older edition the code was written against): the rule the
  number named then has another number now (``702.36d`` → ``702.36e``) — even when the
  old number still exists and now names a different rule;
* ``removed``: the rule the number named then has no counterpart now.

Old → new uses the alignment of :mod:`rulediff.align` (text-based, so renumbering
cascades are followed).

>>> [c.target for c in find_citations("x = 1  // CR 704.5j, see rules 601.2a-c")]
['704.5j', '601.2a', '601.2b', '601.2c']
"""

from __future__ import annotations

import errno
import logging
import os
import re
import stat
from collections.abc import Callable, Iterable, Iterator
from dataclasses import dataclass
from pathlib import Path

from .clauses import references
from .errors import RuleDiffError
from .graph import exists
from .model import Edition, RuleId
from .serialize import Out, to_data

log = logging.getLogger(__name__)

#: Folders never searched (version control, virtual environments, caches, vendored code).
SKIP_DIRS = frozenset({".git", ".hg", ".svn", ".venv", "venv", "node_modules", "__pycache__"})

_NUMBER = r"[0-9]{3}(?:\.[0-9]+[a-z]{0,2})?"  # ASCII digits only
# "CR 704.5j", "CR704.5j", "C.R. 704.5j", "Comprehensive Rules 704.5j", "CR 601.2a-c"
_CR = re.compile(
    rf"\b(?:C\.R\.|CR|Comprehensive\s+Rules?)\s*:?\s*(?:§\s*)?(?P<n>{_NUMBER})"
    rf"(?:\s*[–—-]\s*(?P<end>[a-z]{{1,2}}\b|{_NUMBER}))?(?![\w.]*\d)"
)
# A bare rule number in a comment: "// 613.4c", "# 702.36d". Section digit 1–9, and
# not part of a longer dotted number (a version, an address, a float).
_BARE = re.compile(r"(?<![\w.\-/])(?P<n>[1-9][0-9]{2}\.[0-9]{1,3}[a-z]{0,2})(?![\w]|\.\d)")
_COMMENT = re.compile(r"//|/\*|#|--|<!--|^\s*\*|^\s*;|^\s*%|\bREM\b")


@dataclass(frozen=True, slots=True)
class SourceCitation:
    """One rule cited in a source file."""

    path: str
    line: int
    column: int
    """1-based column of the citation's first character."""
    text: str
    """As written: ``CR 704.5j``, ``rule 702.36d``, ``613.4c``."""
    target: str
    """The rule number cited (one per member of a range)."""


@dataclass(frozen=True, slots=True)
class CiteFinding:
    """A citation that does not hold in the edition checked against."""

    code: str
    """``missing``, ``renumbered`` or ``removed``."""
    citation: SourceCitation
    message: str
    suggestion: str | None = None
    """The number to cite instead (``702.36e``), when there is one."""

    #: Flat: the citation's fields, then the finding's.
    __json_fields__ = (
        Out("path", "citation.path"),
        Out("line", "citation.line"),
        Out("column", "citation.column"),
        Out("text", "citation.text"),
        Out("target", "citation.target"),
        "code",
        "message",
        "suggestion",
    )
    as_dict = to_data


# --- finding citations -----------------------------------------------------------------------
def find_citations(text: str, path: str = "<text>") -> list[SourceCitation]:
    """Every CR citation in ``text``, in order (line, column)."""
    found: dict[tuple[int, int, str], SourceCitation] = {}
    for number, line in enumerate(text.splitlines(), start=1):
        if not any(ch.isdigit() for ch in line):
            continue
        taken: list[tuple[int, int]] = []
        for ref in references(line):  # rule 702.36d, rules 601.2a–h, see 805.8
            if ref.kind == "section" or ref.malformed or RuleId.try_parse(ref.target) is None:
                continue
            if ref.bare:  # in code a bare number is a citation only in a comment (below)
                continue
            key = (number, ref.start + 1, ref.target)
            found.setdefault(key, SourceCitation(path, number, ref.start + 1, ref.text, ref.target))
            taken.append((ref.start, ref.end))
        for m in _CR.finditer(line):
            if _inside(m.start("n"), taken):
                continue
            for target in _members(m.group("n"), m.group("end")):
                key = (number, m.start() + 1, target)
                found.setdefault(
                    key, SourceCitation(path, number, m.start() + 1, m.group(), target)
                )
            taken.append((m.start(), m.end()))
        comment = _COMMENT.search(line)
        if comment is None:
            continue
        for m in _BARE.finditer(line, comment.end()):
            if _inside(m.start(), taken):
                continue
            key = (number, m.start() + 1, m.group("n"))
            found.setdefault(
                key, SourceCitation(path, number, m.start() + 1, m.group(), m.group("n"))
            )
    return [found[k] for k in sorted(found, key=lambda k: (k[0], k[1]))]


def _inside(pos: int, spans: list[tuple[int, int]]) -> bool:
    return any(start <= pos < end for start, end in spans)


def _members(first: str, end: str | None) -> list[str]:
    """``601.2a``–``c`` → 601.2a, 601.2b, 601.2c (through the clause grammar's ranges)."""
    if end is None:
        return [str(RuleId.parse(first))]
    expanded = [r.target for r in references(f"rules {first}–{end}") if not r.malformed]
    return expanded or [str(RuleId.parse(first))]


def iter_files(
    paths: Iterable[str | os.PathLike[str]],
    problems: list[CiteFinding] | None = None,
) -> Iterator[Path]:
    """The files under ``paths`` (folders searched recursively, sorted, hidden skipped).

    A folder that cannot be listed is added to ``problems`` (when given) and the walk goes
    on; symbolic links to folders are not followed (no loops). A named path that does not
    exist at all is an error; a dangling link is a problem of its own.
    """
    for raw in paths:
        path = Path(raw)
        if path.is_dir():
            for root, dirs, files in os.walk(path, onerror=_collect(problems, path)):
                dirs[:] = sorted(d for d in dirs if d not in SKIP_DIRS and not d.startswith("."))
                for name in sorted(files):
                    yield Path(root) / name
        elif os.path.lexists(path):
            yield path  # a file, a dangling link, a FIFO …: read_source says what it is
        else:
            raise RuleDiffError("no such file or folder", file=str(path))


def _collect(problems: list[CiteFinding] | None, top: Path) -> Callable[[OSError], None]:
    """``os.walk``'s error handler: a folder it cannot list becomes a problem."""

    def unlistable(exc: OSError) -> None:
        if problems is not None:
            where = Path(exc.filename) if exc.filename else top
            problems.append(_problem(where, "unreadable", _why(exc)))

    return unlistable


def _problem(path: Path, code: str, message: str) -> CiteFinding:
    """A finding about a file as a whole (line 0): it could not be read, or was skipped."""
    return CiteFinding(code, SourceCitation(str(path), 0, 0, "", ""), message)


def _why(exc: OSError) -> str:
    if exc.errno == errno.ELOOP:
        return "symbolic link loop"
    if exc.errno == errno.ENOENT:
        return (
            "dangling symbolic link"
            if exc.filename and os.path.islink(exc.filename)
            else ("vanished while being read")
        )
    return exc.strerror or str(exc)


#: Source files are read in pieces of about this size (lines kept whole), so a large one is
#: scanned without holding it all in memory.
CHUNK_BYTES = 1 << 20
#: Larger files are reported as skipped (a source file this big is not source code).
MAX_SCAN_BYTES = 1 << 30


def read_chunks(path: Path) -> Iterator[tuple[int, str]]:
    """``(first line number, text)`` pieces of a source file, whole lines each.

    Raises :class:`OSError` (unreadable, a dangling link or loop) or :class:`_Skip` (not a
    regular file, binary, too big): the caller turns them into findings.
    """
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    fd = os.open(path, flags)
    with os.fdopen(fd, "rb") as handle:
        st = os.fstat(handle.fileno())
        if not stat.S_ISREG(st.st_mode):
            raise _Skip("not a regular file (a FIFO, device or socket)")
        if st.st_size > MAX_SCAN_BYTES:
            raise _Skip(f"{st.st_size / 2**20:.0f} MiB is more than source code (limit 1 GiB)")
        line = 1
        rest = b""
        first = True
        while True:
            block = handle.read(CHUNK_BYTES)
            if first and b"\0" in block[:8192]:
                raise _Skip("binary")
            first = False
            if not block:
                break
            block = rest + block
            cut = block.rfind(b"\n") + 1
            if cut == 0 and len(block) < 16 * CHUNK_BYTES:
                rest = block  # no line end yet: wait for more
                continue
            cut = cut or len(block)
            piece, rest = block[:cut], block[cut:]
            yield line, piece.decode("utf-8", errors="replace")
            line += piece.count(b"\n")
        if rest:
            yield line, rest.decode("utf-8", errors="replace")


class _Skip(Exception):
    """A file that is not scanned, and why."""


def read_source(path: Path) -> str | None:
    """A file's text, or ``None`` for a binary or unreadable one (see :func:`scan_all`)."""
    try:
        return "".join(piece for _line, piece in read_chunks(path))
    except (OSError, _Skip):
        return None


@dataclass(frozen=True, slots=True)
class ScanResult:
    citations: list[SourceCitation]
    problems: list[CiteFinding]
    """Files and folders not read (``unreadable``) or not scanned (``skipped``)."""


def scan_all(paths: Iterable[str | os.PathLike[str]]) -> ScanResult:
    """Every citation under ``paths``, and every entry that could not be scanned.

    An unreadable file, a dangling link, a link loop or a FIFO is a problem and the scan
    goes on; binaries found in folders are passed over (images, archives), but a binary
    named on the command line is reported.
    """
    paths = list(paths)
    named = {str(Path(p)) for p in paths}
    citations: list[SourceCitation] = []
    problems: list[CiteFinding] = []
    for path in iter_files(paths, problems):
        try:
            for first, text in read_chunks(path):
                found = find_citations(text, str(path))
                citations.extend(
                    SourceCitation(c.path, c.line + first - 1, c.column, c.text, c.target)
                    for c in found
                )
        except OSError as exc:
            problems.append(_problem(path, "unreadable", _why(exc)))
        except _Skip as why:
            if str(why) != "binary" or str(path) in named:
                problems.append(_problem(path, "skipped", str(why)))
    return ScanResult(citations, problems)


def scan(paths: Iterable[str | os.PathLike[str]]) -> list[SourceCitation]:
    """Every citation in every source file under ``paths``."""
    return scan_all(paths).citations


# --- checking -----------------------------------------------------------------------------------
def check(
    citations: Iterable[SourceCitation], edition: Edition, old: Edition | None = None
) -> list[CiteFinding]:
    """Findings for ``citations`` against ``edition`` (and, with ``old``, what changed)."""
    mapping = None
    if old is not None:
        from .align import align_cached

        mapping = align_cached(old, edition)
    findings: list[CiteFinding] = []
    for cite in citations:
        target = cite.target
        present = exists(edition, target)
        if mapping is not None and exists(old, target):  # type: ignore[arg-type]
            match = mapping.match_for_old(target)
            new_ids = tuple(match.new_ids) if match is not None else ()
            if not new_ids:
                still = f"; {target} now names another rule" if present else ""
                findings.append(
                    CiteFinding(
                        "removed",
                        cite,
                        f"{target} of {old.date_text} has no counterpart in "  # type: ignore[union-attr]
                        f"{edition.date_text} (removed){still}",
                    )
                )
            elif target not in new_ids:
                now = ", ".join(new_ids)
                still = f"; {target} now names another rule" if present else f"; {target} is gone"
                findings.append(
                    CiteFinding(
                        "renumbered",
                        cite,
                        f"{target} of {old.date_text} is {now} in {edition.date_text}{still}",  # type: ignore[union-attr]
                        suggestion=new_ids[0],
                    )
                )
            continue
        if not present:
            findings.append(
                CiteFinding(
                    "missing", cite, f"{target} is not in the edition of {edition.date_text}"
                )
            )
    return findings


# --- output ------------------------------------------------------------------------------------
def findings_text(
    findings: list[CiteFinding], checked: int, edition: Edition, old: Edition | None
) -> str:
    lines = []
    for f in findings:
        c = f.citation
        if c.line == 0:  # a file not read or not scanned
            lines.append(f"{c.path}: {f.code}: {f.message}")
            continue
        hint = f" → cite {f.suggestion}" if f.suggestion else ""
        lines.append(f"{c.path}:{c.line}:{c.column}: {f.code}: {c.text!r}: {f.message}{hint}")
    against = edition.date_text + (f" (written against {old.date_text})" if old else "")
    noun = "finding" if len(findings) == 1 else "findings"
    lines.append(f"{checked} citations checked against {against}: {len(findings)} {noun}")
    return "\n".join(lines) + "\n"


def findings_json(
    findings: list[CiteFinding], checked: int, edition: Edition, old: Edition | None
) -> dict[str, object]:
    return {
        "edition": edition.date_text,
        "from": old.date_text if old else None,
        "citations": checked,
        "findings": [f.as_dict() for f in findings],
    }


__all__ = [
    "CiteFinding",
    "SourceCitation",
    "check",
    "find_citations",
    "findings_json",
    "findings_text",
    "iter_files",
    "scan",
    "scan_all",
]
