"""Bytes → normalized text.

Real CR files come in ascii, cp1252, UTF-8 (with or without BOM) and UTF-16 with a
BOM, with LF, CRLF, bare CR or a mix of them. Ingest decodes them and turns every line
end into LF; nothing else in the text changes (NBSP, U+2028, trailing spaces stay).
"""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import re
import stat
from dataclasses import dataclass
from pathlib import Path

from .errors import IngestError

_UTF16_BOMS = {b"\xff\xfe": "utf-16-le", b"\xfe\xff": "utf-16-be"}
_UTF8_BOM = b"\xef\xbb\xbf"
_MONTHS = {
    m: i
    for i, m in enumerate(
        [
            "january",
            "february",
            "march",
            "april",
            "may",
            "june",
            "july",
            "august",
            "september",
            "october",
            "november",
            "december",
        ],
        start=1,
    )
}
_MONTH_ABBREVIATIONS = {name[:3]: number for name, number in _MONTHS.items()}
_DATE_LINE = re.compile(
    r"(?:effective|current)\s+(?:as\s+of|starting|beginning|from|on)\s+"
    r"([A-Za-z]+)\.?\s+(\d{1,2}),?\s+(\d{4})",
    re.IGNORECASE,
)
# Control characters that never occur in a text file (TAB, LF, CR, FF excluded).
_BINARY = re.compile(r"[\x00-\x08\x0b\x0e-\x1f]")
_BINARY_BYTES = re.compile(rb"[\x00-\x08\x0b\x0e-\x1f]")
# One well-formed multi-byte UTF-8 character (RFC 3629: no overlongs, no surrogates).
_UTF8_MULTIBYTE = re.compile(
    rb"[\xc2-\xdf][\x80-\xbf]|\xe0[\xa0-\xbf][\x80-\xbf]|[\xe1-\xec\xee\xef][\x80-\xbf]{2}"
    rb"|\xed[\x80-\x9f][\x80-\xbf]|\xf0[\x90-\xbf][\x80-\xbf]{2}|[\xf1-\xf3][\x80-\xbf]{3}"
    rb"|\xf4[\x80-\x8f][\x80-\xbf]{2}"
)
# What every multi-byte UTF-8 character starts with: a lead byte, then a continuation byte.
# One character class first, so the regex engine scans for it (~10x faster than the
# pattern above on a cp1252 edition, which seldom has such a pair at all).
_UTF8_PAIR = re.compile(rb"[\xc2-\xf4][\x80-\xbf]")
#: Largest input file read, in MiB (editions are under 1 MiB); ``RULEDIFF_MAX_INPUT_MB``.
MAX_INPUT_MB = 32
MAX_INPUT_ENV = "RULEDIFF_MAX_INPUT_MB"


@dataclass(frozen=True, slots=True)
class IngestedText:
    """A decoded edition, before parsing."""

    text: str
    """The decoded text with LF line ends only."""
    encoding: str
    """``ascii``, ``cp1252``, ``utf-8``, ``utf-8-sig``, ``utf-16-le`` or ``utf-16-be``."""
    line_endings: str
    """What the bytes used: ``lf``, ``crlf``, ``cr``, a ``+``-joined mix, or ``none``."""
    sha256: str
    """Of the raw bytes, the cache and manifest key."""
    source: str
    """Where the bytes came from (a path, or ``<bytes>``)."""


def decode(data: bytes, source: str = "<bytes>") -> tuple[str, str]:
    """Decode raw bytes; return ``(text, encoding)`` or raise :class:`IngestError`."""
    if not data:
        raise IngestError("empty file", file=source)
    if data.startswith(b"%PDF"):
        raise IngestError("this is a PDF, not a text file; export the TXT edition", file=source)
    if data[:4] == b"PK\x03\x04":
        raise IngestError("this is a ZIP/DOCX archive, not a text file", file=source)
    bom = data[:2]
    if bom not in _UTF16_BOMS:
        _refuse_binary(data, source)
    if bom in _UTF16_BOMS:
        encoding = _UTF16_BOMS[bom]
        try:
            text = data[2:].decode(encoding)
        except UnicodeDecodeError as exc:
            raise IngestError(f"invalid {encoding} at byte {exc.start}", file=source) from None
    elif data.startswith(_UTF8_BOM):
        encoding = "utf-8-sig"
        try:
            text = data[3:].decode("utf-8")
        except UnicodeDecodeError as exc:
            line = data[: exc.start].count(b"\n") + 1
            raise IngestError(
                f"invalid UTF-8 after a UTF-8 BOM (byte {exc.start})", file=source, line=line
            ) from None
    else:
        try:
            text = data.decode("ascii")
            encoding = "ascii"
        except UnicodeDecodeError:
            try:
                text = data.decode("utf-8")
                encoding = "utf-8"
            except UnicodeDecodeError as exc:
                _refuse_mixed(data, exc.start, source)
                text = _decode_cp1252(data, source)
                encoding = "cp1252"
    # Single-byte and UTF-8 decodings give a control character only from its own byte,
    # which _refuse_binary has already looked for: only a UTF-16 text is scanned again.
    bad = _BINARY.search(text) if bom in _UTF16_BOMS else None
    if bad:
        line = text.count("\n", 0, bad.start()) + 1
        raise IngestError(
            f"binary data (control character U+{ord(bad.group()):04X}); not a text file",
            file=source,
            line=line,
        )
    return text, encoding


def _refuse_binary(data: bytes, source: str) -> None:
    bad = _BINARY_BYTES.search(data)
    if bad:
        line = data.count(b"\n", 0, bad.start()) + 1
        raise IngestError(
            f"binary data (byte 0x{data[bad.start()]:02x} at offset {bad.start()}); "
            "not a text file",
            file=source,
            line=line,
        )


def _refuse_mixed(data: bytes, bad: int, source: str) -> None:
    """Not UTF-8, yet some of it is (a UTF-8 file cut mid-character, two files pasted
    together): the one reading cp1252 would give is wrong somewhere, so refuse it.

    The rule: bytes that are not valid UTF-8 are read as cp1252 only when no sequence in
    them is valid multi-byte UTF-8 (every real cp1252 edition passes; a UTF-8 text with one
    bad byte does not).
    """
    if _UTF8_PAIR.search(data) is None:
        return  # no multi-byte character can start anywhere
    found = _UTF8_MULTIBYTE.search(data)
    if found is None:
        return
    line = data.count(b"\n", 0, bad) + 1
    raise IngestError(
        f"mixed encodings: invalid UTF-8 byte 0x{data[bad]:02x} at offset {bad}, but the "
        f"file has UTF-8 characters (first at offset {found.start()}); fix or re-save it "
        "as UTF-8",
        file=source,
        line=line,
    )


def _decode_cp1252(data: bytes, source: str) -> str:
    try:
        return data.decode("cp1252")
    except UnicodeDecodeError as exc:
        line = data[: exc.start].count(b"\n") + 1
        raise IngestError(
            f"undecodable byte 0x{data[exc.start]:02x}: not ascii, UTF-8, UTF-16 or cp1252",
            file=source,
            line=line,
        ) from None


def line_endings(text: str) -> str:
    """Describe the line ends of a decoded (not yet normalized) text."""
    crlf = text.count("\r\n")
    cr = text.count("\r") - crlf
    lf = text.count("\n") - crlf
    kinds = [name for name, n in (("lf", lf), ("crlf", crlf), ("cr", cr)) if n]
    return "+".join(kinds) if kinds else "none"


def normalize_newlines(text: str) -> str:
    """CRLF and lone CR become LF."""
    return text.replace("\r\n", "\n").replace("\r", "\n")


def ingest_bytes(data: bytes, source: str = "<bytes>") -> IngestedText:
    """Decode and normalize the bytes of one edition."""
    text, encoding = decode(data, source)
    return IngestedText(
        text=normalize_newlines(text),
        encoding=encoding,
        line_endings=line_endings(text),
        sha256=hashlib.sha256(data).hexdigest(),
        source=source,
    )


def max_input_bytes() -> int:
    """The size limit of an input file: ``$RULEDIFF_MAX_INPUT_MB`` MiB, else 32 MiB."""
    value = os.environ.get(MAX_INPUT_ENV, "").strip()
    if not value:
        return MAX_INPUT_MB * 2**20
    try:
        megabytes = float(value)
    except ValueError:
        megabytes = -1.0
    if not (0 < megabytes < 2**20):  # also refuses nan and inf
        raise IngestError(f"{MAX_INPUT_ENV} must be a number of MiB above 0, not {value[:40]!r}")
    return int(megabytes * 2**20)


def read_bytes(path: str | Path, *, limit: int | None = None) -> bytes:
    """Read a regular file of at most ``limit`` bytes (default :func:`max_input_bytes`).

    A FIFO, a device or a socket is refused before anything is read (``/dev/zero`` never
    ends, a FIFO may never open), and so is a file over the limit; OS errors become
    one-line :class:`IngestError`s.
    """
    p = Path(path)
    limit = max_input_bytes() if limit is None else limit
    flags = os.O_RDONLY | getattr(os, "O_NONBLOCK", 0) | getattr(os, "O_CLOEXEC", 0)
    try:
        fd = os.open(p, flags)
    except FileNotFoundError:
        raise IngestError("no such file", file=str(p)) from None
    except PermissionError:
        raise IngestError("permission denied", file=str(p)) from None
    except IsADirectoryError:
        raise IngestError("is a directory, not a CR text file", file=str(p)) from None
    except OSError as exc:
        raise IngestError(exc.strerror or str(exc), file=str(p)) from None
    try:
        st = os.fstat(fd)
        if stat.S_ISDIR(st.st_mode):
            raise IngestError("is a directory, not a CR text file", file=str(p))
        if not stat.S_ISREG(st.st_mode):
            raise IngestError(
                "not a regular file (a FIFO, device or socket); only regular files are read",
                file=str(p),
            )
        if st.st_size > limit:
            raise IngestError(_too_big(st.st_size, limit), file=str(p))
        with os.fdopen(fd, "rb", closefd=False) as handle:
            data = handle.read(st.st_size + 1)  # read(limit) would allocate the whole limit
            if len(data) > st.st_size:  # it grew while being read
                data += handle.read(limit + 1 - len(data))
        if len(data) > limit:
            raise IngestError(_too_big(len(data), limit), file=str(p))
        return data
    except OSError as exc:
        raise IngestError(exc.strerror or str(exc), file=str(p)) from None
    finally:
        os.close(fd)


def _too_big(size: int, limit: int) -> str:
    return (
        f"{size / 2**20:.1f} MiB is over the {limit / 2**20:g} MiB input limit "
        f"(editions are about 1 MiB; raise it with {MAX_INPUT_ENV})"
    )


def ingest_file(path: str | Path) -> IngestedText:
    """Read and ingest one file."""
    return ingest_bytes(read_bytes(path), str(path))


def find_effective_date(text: str) -> tuple[dt.date, int] | None:
    """The effective date printed in the text, and its 1-based line number.

    Looks at "These rules are effective as of …" (2009+) and the older "current as
    of …" (also "effective starting …" and an abbreviated month such as "Feb."). The
    first such line wins: later ones repeat it at the end of the file.
    """
    for match in _DATE_LINE.finditer(text):
        month = _MONTHS.get(match.group(1).lower()) or _MONTH_ABBREVIATIONS.get(
            match.group(1).lower()[:3] if len(match.group(1)) <= 4 else ""
        )
        if month is None:
            continue
        try:
            day = dt.date(int(match.group(3)), month, int(match.group(2)))
        except ValueError:
            continue
        return day, text.count("\n", 0, match.start()) + 1
    return None
