"""Decoding and line-end normalization of real-world byte layouts."""

from __future__ import annotations

import datetime as dt
import os
from pathlib import Path

import pytest

from rulediff.errors import IngestError
from rulediff.ingest import (
    find_effective_date,
    ingest_bytes,
    ingest_file,
    max_input_bytes,
    read_bytes,
)

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


# --- bounded reads: regular files only, and not too big ----------------------------------------


def test_a_fifo_is_refused_without_waiting_for_a_writer(tmp_path) -> None:
    fifo = tmp_path / "edition.txt"
    os.mkfifo(fifo)
    with pytest.raises(IngestError, match="not a regular file") as info:
        ingest_file(fifo)  # would block forever if it were opened for a plain read
    assert info.value.file == str(fifo)


@pytest.mark.parametrize("device", ["/dev/zero", "/dev/null", "/dev/urandom"])
def test_a_device_is_refused_before_reading(device: str) -> None:
    if not Path(device).exists():
        pytest.fail(f"{device} is missing on this machine")
    with pytest.raises(IngestError, match="not a regular file"):
        read_bytes(device)


def test_a_file_over_the_limit_is_refused(tmp_path, monkeypatch: pytest.MonkeyPatch) -> None:
    path = tmp_path / "big.txt"
    path.write_bytes(b"x" * 3000)
    assert read_bytes(path, limit=3000) == b"x" * 3000
    with pytest.raises(IngestError, match="over the .* input limit"):
        read_bytes(path, limit=2999)
    monkeypatch.setenv("RULEDIFF_MAX_INPUT_MB", "0.001")  # 1048 bytes
    with pytest.raises(IngestError, match="RULEDIFF_MAX_INPUT_MB"):
        ingest_file(path)
    monkeypatch.setenv("RULEDIFF_MAX_INPUT_MB", "1")
    assert ingest_file(path).text == "x" * 3000


@pytest.mark.parametrize("value", ["lots", "0", "-5", "inf", "nan"])
def test_a_bad_limit_setting_is_an_error(value: str, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEDIFF_MAX_INPUT_MB", value)
    with pytest.raises(IngestError, match="RULEDIFF_MAX_INPUT_MB must be"):
        max_input_bytes()


def test_the_default_limit_is_32_mib(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("RULEDIFF_MAX_INPUT_MB", raising=False)
    assert max_input_bytes() == 32 * 2**20


# --- decoding: cp1252 only when nothing in the bytes is UTF-8 -----------------------------------


_CUT = "Title\n\nA caf\u00e9 and a \u201cquote\u201d\n".encode()


@pytest.mark.parametrize(
    "data,offset",
    [
        # UTF-8 without a BOM, cut in the middle of its last character
        (_CUT + "\u2014".encode()[:2], len(_CUT)),
        # UTF-8 text with one cp1252 byte pasted in
        ("caf\u00e9 ".encode() + b"na\xefve\n", 8),
        # cp1252 first, UTF-8 later: the first bad byte is named, not the UTF-8
        (b"na\xefve and " + "\u201cquoted\u201d\n".encode(), 2),
    ],
)
def test_mixed_utf8_and_other_bytes_is_an_error_naming_the_first_bad_byte(
    data: bytes, offset: int
) -> None:
    with pytest.raises(IngestError, match="mixed encodings") as info:
        ingest_bytes(data, "mixed.txt")
    assert f"byte 0x{data[offset]:02x} at offset {offset}" in str(info.value)
    assert info.value.line == data.count(b"\n", 0, offset) + 1


def test_pure_cp1252_still_reads_as_cp1252() -> None:
    data = "A caf\u00e9 \u201cquote\u201d\u2014dash \u00bd\n".encode("cp1252")
    got = ingest_bytes(data)
    assert got.encoding == "cp1252"
    assert got.text == data.decode("cp1252")


@pytest.mark.parametrize("date", corpus_dates())
def test_corpus_encoding_is_the_manifests(corpus_dir, date: str) -> None:
    """Every edition still decodes as the manifest (written by hand from the bytes) says."""
    import csv

    with open(corpus_dir / "editions.tsv", encoding="utf-8", newline="") as handle:
        rows = {row["file"]: row for row in csv.DictReader(handle, delimiter="\t")}
    row = rows.get(f"{date}.txt")
    assert row is not None, f"{date}.txt not in editions.tsv"
    got = ingest_file(corpus_dir / f"{date}.txt").encoding
    assert got.split("-le")[0].split("-be")[0] == row["encoding"]  # the manifest says utf-16
