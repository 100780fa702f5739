"""Decoding and line-end normalization of real-world byte layouts."""

from __future__ import annotations

import datetime as dt

import pytest

from rulediff.errors import IngestError
from rulediff.ingest import find_effective_date, ingest_bytes, ingest_file

from .conftest import corpus_dates

SAMPLE = (
    "Title\n\nThese rules are effective as of June 19, 2026.\n\n"
    "A caf\u00e9 \u201cquote\u201d\u2014dash\u00a0nbsp\u2028sep\n"
)


@pytest.mark.parametrize(
    "encoded,encoding",
    [
        (SAMPLE.encode("utf-8-sig"), "utf-8-sig"),
        (SAMPLE.encode("utf-8"), "utf-8"),
        (b"\xff\xfe" + SAMPLE.encode("utf-16-le"), "utf-16-le"),
        (b"\xfe\xff" + SAMPLE.encode("utf-16-be"), "utf-16-be"),
    ],
)
def test_unicode_encodings_decode_exactly(encoded: bytes, encoding: str) -> None:
    got = ingest_bytes(encoded)
    assert got.encoding == encoding
    assert got.text == SAMPLE


def test_cp1252_and_ascii() -> None:
    text = "Smart \u201cquotes\u201d and \u2019 and \u2014.\n"
    got = ingest_bytes(text.encode("cp1252"))
    assert got.encoding == "cp1252" and got.text == text
    assert ingest_bytes(b"plain\n").encoding == "ascii"


@pytest.mark.parametrize(
    "raw,kind",
    [
        (b"a\r\nb\r\n", "crlf"),
        (b"a\rb\r", "cr"),
        (b"a\nb\n", "lf"),
        (b"a\r\nb\rc\r\n", "crlf+cr"),
        (b"a\n\r\nb\rc", "lf+crlf+cr"),
    ],
)
def test_line_ends_become_lf(raw: bytes, kind: str) -> None:
    got = ingest_bytes(raw)
    assert "\r" not in got.text
    assert got.line_endings == kind
    assert got.text.count("\n") == raw.count(b"\n") + raw.count(b"\r") - raw.count(b"\r\n")


def test_nothing_else_changes() -> None:
    raw = "x \u00a0 y\u2028z  \t\n\n\n".encode("utf-8")
    assert ingest_bytes(raw).text == raw.decode("utf-8")


@pytest.mark.parametrize(
    "data,fragment",
    [
        (b"", "empty file"),
        (b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n", "PDF"),
        (b"PK\x03\x04rest", "ZIP"),
        (bytes(range(256)) * 4, "binary"),
        (b"text\n\x00\x01\x02\x03", "binary"),
    ],
)
def test_bad_bytes_are_refused_with_a_located_message(data: bytes, fragment: str) -> None:
    with pytest.raises(IngestError) as info:
        ingest_bytes(data, "bad.txt")
    assert fragment in str(info.value)
    assert str(info.value).startswith("bad.txt")


def test_binary_error_names_the_line() -> None:
    with pytest.raises(IngestError) as info:
        ingest_bytes(b"one\ntwo\nthr\x00ee\n", "f.txt")
    assert info.value.line == 3


def test_unreadable_paths(tmp_path) -> None:
    with pytest.raises(IngestError, match="no such file"):
        ingest_file(tmp_path / "missing.txt")
    with pytest.raises(IngestError, match="directory"):
        ingest_file(tmp_path)


@pytest.mark.parametrize(
    "text,expected",
    [
        ("These rules are effective as of February 7, 2025.", dt.date(2025, 2, 7)),
        ("These rules are current as of September 24, 2001.", dt.date(2001, 9, 24)),
        ("effective as of   july 11 2009", dt.date(2009, 7, 11)),
        ("These rules are effective starting Sept. 5, 2031.", dt.date(2031, 9, 5)),
        ("These rules are effective as of Feb 7 2031.", dt.date(2031, 2, 7)),
        ("effective as of Smarch 1, 2009", None),
        ("effective as of February 30, 2009", None),
        ("no date here", None),
    ],
)
def test_effective_date(text: str, expected: dt.date | None) -> None:
    found = find_effective_date("Title\n\n" + text + "\n")
    assert (found[0] if found else None) == expected
    if found:
        assert found[1] == 3


@pytest.mark.parametrize("date", corpus_dates())
def test_corpus_decodes_and_date_comes_from_text(corpus_dir, date: str) -> None:
    got = ingest_file(corpus_dir / f"{date}.txt")
    assert "\r" not in got.text
    found = find_effective_date(got.text)
    assert found is not None
    # The corpus names files by the date in the text; the text is what we read.
    assert found[0].isoformat() == date
