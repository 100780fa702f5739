"""Corpus discovery, edition references, import, fetch (local HTTP) and the manifest."""

from __future__ import annotations

import datetime as dt
import functools
import hashlib
import http.server
import logging
import os
import subprocess
import sys
import threading
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff import cache
from rulediff.cli import main
from rulediff.corpus import (
    Corpus,
    EditionInfo,
    Manifest,
    default_corpus_dir,
    default_manifest_path,
    fetch_editions,
    import_editions,
    load_edition,
    parse_reference,
    resolve_edition,
    tomllib,
)
from rulediff.errors import CorpusError, EditionNotFound, IngestError, ParseError
from rulediff.ingest import find_effective_date, ingest_bytes

from .conftest import FIXTURES

REPO = Path(__file__).resolve().parent.parent
MONTHS = [
    "January",
    "February",
    "March",
    "April",
    "May",
    "June",
    "July",
    "August",
    "September",
    "October",
    "November",
    "December",
]
_TEMPLATE_DATE = "These rules are effective as of March 3, 2031."


def cr_bytes(date: str, *, note: str = "", encoding: str = "utf-8", eol: str = "\n") -> bytes:
    """A small synthetic edition (tests/fixtures/modern_small.txt) dated ``date``.

    ``note`` adds a rule so two texts with one date can differ.
    """
    d = dt.date.fromisoformat(date)
    text = (FIXTURES / "modern_small.txt").read_text(encoding="utf-8")
    assert _TEMPLATE_DATE in text
    text = text.replace(
        _TEMPLATE_DATE, f"These rules are effective as of {MONTHS[d.month - 1]} {d.day}, {d.year}."
    )
    if note:
        text = text.replace(
            "200.1. Extras are optional.\n", f"200.1. Extras are optional.\n\n200.2. {note}\n"
        )
    return text.replace("\n", eol).encode(encoding)


MANIFEST_TEXT = """
[[edition]]
date = 2030-01-10
set_code = "AAA"
set_name = "Alpha Widgets"
sha256 = "{a}"

[[edition]]
date = 2030-05-20
set_code = "BBB"
set_name = "Beta Widgets"
sha256 = "{b}"

[[edition]]
date = 2030-09-30
set_code = "CCC"
set_name = "Gamma Widgets"

[[edition]]
date = 2031-02-14
set_code = "DDD"
set_name = "Delta Widgets"
url = "http://example.invalid/DDD.txt"
"""

DATES = ["2030-01-10", "2030-05-20", "2030-09-30"]


@pytest.fixture(autouse=True)
def _isolated(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.delenv("RULEDIFF_MANIFEST", raising=False)
    cache.forget_memo()


@pytest.fixture
def manifest_file(tmp_path: Path) -> Path:
    path = tmp_path / "editions.toml"
    a = hashlib.sha256(cr_bytes(DATES[0])).hexdigest()
    b = hashlib.sha256(cr_bytes(DATES[1])).hexdigest()
    path.write_text(MANIFEST_TEXT.format(a=a, b=b), encoding="utf-8")
    return path


@pytest.fixture
def corpus(tmp_path: Path, manifest_file: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """Three synthetic editions; the manifest knows their sets; $RULEDIFF_CORPUS points here."""
    folder = tmp_path / "corpus"
    folder.mkdir()
    for date in DATES:
        (folder / f"{date}.txt").write_bytes(cr_bytes(date))
    monkeypatch.setenv("RULEDIFF_CORPUS", str(folder))
    monkeypatch.setenv("RULEDIFF_MANIFEST", str(manifest_file))
    return folder


# --- discovery ---------------------------------------------------------------------------


def test_editions_are_sorted_and_named_from_the_manifest(corpus: Path) -> None:
    infos = Corpus.open().editions()
    assert [str(i.date) for i in infos] == DATES
    assert [i.set_code for i in infos] == ["AAA", "BBB", "CCC"]
    assert infos[0].set_name == "Alpha Widgets"
    assert infos[0].known and infos[1].known and not infos[2].known  # CCC has no sha256
    assert infos[0].sha256 == hashlib.sha256((corpus / f"{DATES[0]}.txt").read_bytes()).hexdigest()
    assert infos[0].size == len(cr_bytes(DATES[0]))


def test_the_text_wins_over_the_file_name(corpus: Path, caplog: pytest.LogCaptureFixture) -> None:
    (corpus / "2029-12-31.txt").write_bytes(cr_bytes("2031-06-01"))
    with caplog.at_level(logging.WARNING, logger="rulediff.corpus"):
        infos = Corpus.open().editions()
    odd = next(i for i in infos if i.path.name == "2029-12-31.txt")
    assert odd.date == dt.date(2031, 6, 1)
    assert odd.name_date == dt.date(2029, 12, 31)
    assert infos[-1] is odd  # sorted by the text's date
    assert "the text wins" in caplog.text
    assert load_edition("latest").effective_date == dt.date(2031, 6, 1)


def test_a_text_without_date_falls_back_to_its_name_or_is_skipped(
    corpus: Path, caplog: pytest.LogCaptureFixture
) -> None:
    undated = cr_bytes("2031-01-01").replace(
        b"These rules are effective as of January 1, 2031.", b""
    )
    (corpus / "2031-01-01.txt").write_bytes(undated)
    (corpus / "notes.txt").write_bytes(undated)
    with caplog.at_level(logging.WARNING, logger="rulediff.corpus"):
        infos = Corpus.open().editions()
    assert [i.path.name for i in infos][-1] == "2031-01-01.txt"
    assert "notes.txt" not in [i.path.name for i in infos]
    assert "no effective date in the text" in caplog.text


def test_rescan_notices_changed_files(corpus: Path) -> None:
    assert len(Corpus.open().editions()) == 3  # writes the scan index
    path = corpus / f"{DATES[2]}.txt"
    path.write_bytes(cr_bytes("2031-07-07"))
    os.utime(path, ns=(1, 1))  # a different mtime, whatever the clock
    assert Corpus.open().editions()[-1].date == dt.date(2031, 7, 7)


@pytest.mark.parametrize("state", ["missing", "empty"])
def test_no_corpus_says_how_to_get_editions(tmp_path: Path, state: str) -> None:
    folder = tmp_path / "nothing"
    if state == "empty":
        folder.mkdir()
    with pytest.raises(CorpusError) as err:
        load_edition("latest", corpus_dir=folder)
    message = str(err.value)
    assert "\n" not in message
    assert "rulediff corpus import DIR" in message and "rulediff corpus fetch" in message
    assert str(folder) in message


def test_cli_without_corpus_exits_2_with_one_line(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("RULEDIFF_CORPUS", str(tmp_path / "none"))
    result = CliRunner().invoke(main, ["corpus", "list"])
    assert result.exit_code == 2
    assert result.stderr.count("\n") == 1
    assert result.stderr.startswith("rulediff: error: ")
    assert "rulediff corpus fetch" in result.stderr


def test_default_corpus_dir(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("RULEDIFF_CORPUS", str(tmp_path))
    assert default_corpus_dir() == tmp_path
    monkeypatch.delenv("RULEDIFF_CORPUS")
    default = default_corpus_dir()
    assert default.name == "corpus" and "rulediff" in str(default)


# --- references --------------------------------------------------------------------------


@pytest.mark.parametrize(
    "ref,date",
    [
        ("2030-05-20", "2030-05-20"),
        ("latest", "2030-09-30"),
        ("LATEST", "2030-09-30"),
        ("AAA", "2030-01-10"),
        ("bbb", "2030-05-20"),
        ("Gamma Widgets", "2030-09-30"),
        ("gamma  widgets", "2030-09-30"),
        ("@2030-05-20", "2030-05-20"),  # in force on its own date
        ("@2030-05-19", "2030-01-10"),
        ("@2099-01-01", "2030-09-30"),
    ],
)
def test_references(corpus: Path, ref: str, date: str) -> None:
    assert str(load_edition(ref).effective_date) == date
    info = resolve_edition(ref)
    assert isinstance(info, EditionInfo) and str(info.date) == date


def test_path_references(corpus: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    outside = tmp_path / "elsewhere" / "my-edition.txt"
    outside.parent.mkdir()
    outside.write_bytes(cr_bytes("2032-02-02"))
    assert load_edition(str(outside)).effective_date == dt.date(2032, 2, 2)
    assert load_edition(outside).source == str(outside)  # os.PathLike
    monkeypatch.chdir(outside.parent)
    assert load_edition("my-edition.txt").effective_date == dt.date(2032, 2, 2)
    # A path needs no corpus at all.
    monkeypatch.setenv("RULEDIFF_CORPUS", str(tmp_path / "none"))
    assert load_edition(str(outside)).effective_date == dt.date(2032, 2, 2)
    with pytest.raises(IngestError, match="no such file"):
        load_edition(str(tmp_path / "missing.txt"))


def test_unknown_date_lists_the_nearest_dates(corpus: Path) -> None:
    with pytest.raises(EditionNotFound) as err:
        load_edition("2030-05-21")
    message = str(err.value)
    assert "2030-05-21" in message and "nearest" in message
    assert "2030-05-20 (BBB)" in message
    assert "\n" not in message


def test_unknown_name_lists_close_names(corpus: Path) -> None:
    with pytest.raises(EditionNotFound) as err:
        load_edition("Gama Widgets")
    assert "Gamma Widgets (2030-09-30)" in str(err.value)
    with pytest.raises(EditionNotFound) as err:
        load_edition("BBC")
    assert "BBB" in str(err.value)


def test_in_force_before_the_oldest_edition(corpus: Path) -> None:
    with pytest.raises(EditionNotFound, match="oldest is 2030-01-10"):
        load_edition("@2001-01-01")


@pytest.mark.parametrize("ref", ["2030-13-01", "@yesterday", "@"])
def test_malformed_references(corpus: Path, ref: str) -> None:
    with pytest.raises(EditionNotFound):
        load_edition(ref)


def test_manifest_edition_missing_from_the_corpus_says_how_to_get_it(corpus: Path) -> None:
    with pytest.raises(EditionNotFound) as err:
        load_edition("DDD")
    assert "not in the corpus" in str(err.value) and "rulediff corpus fetch" in str(err.value)
    with pytest.raises(EditionNotFound, match="rulediff corpus fetch"):
        load_edition("2031-02-14")


def test_parse_reference() -> None:
    assert parse_reference("latest") == ("latest", "latest")
    assert parse_reference(" 2024-11-08 ") == ("date", dt.date(2024, 11, 8))
    assert parse_reference("@2016-05-01") == ("in-force", dt.date(2016, 5, 1))
    assert parse_reference("Foundations") == ("name", "Foundations")


def test_duplicate_set_names_in_a_manifest_are_refused(tmp_path: Path) -> None:
    path = tmp_path / "m.toml"
    path.write_text(
        '[[edition]]\ndate = 2030-01-01\nset_code = "X"\n'
        '[[edition]]\ndate = 2030-02-01\nset_code = "x"\n',
        encoding="utf-8",
    )
    with pytest.raises(CorpusError, match="already names"):
        Manifest.load(path)
    path.write_text("[[edition]]\ndate = 'soon'\n", encoding="utf-8")
    with pytest.raises(CorpusError, match="TOML date"):
        Manifest.load(path)
    with pytest.raises(CorpusError, match="manifest not found"):
        Manifest.load(tmp_path / "absent.toml")


# --- import ------------------------------------------------------------------------------


def _invoke(*args: str) -> object:
    return CliRunner().invoke(main, list(args))


def test_import_new_file_keeps_the_original_bytes(tmp_path: Path) -> None:
    store = tmp_path / "store"
    source = tmp_path / "download" / "MagicCompRules whatever.txt"
    source.parent.mkdir()
    raw = cr_bytes("2030-05-20", encoding="cp1252", eol="\r\n").replace(
        b"widget game", b"widget\xa0game"
    )
    source.write_bytes(raw)
    result = _invoke("corpus", "import", "--corpus", str(store), str(source))
    assert result.exit_code == 0, result.output
    assert "added 2030-05-20" in result.output
    stored = store / "2030-05-20.txt"
    assert stored.read_bytes() == raw
    assert [p.name for p in store.iterdir()] == ["2030-05-20.txt"]  # no temp files left
    assert load_edition("2030-05-20", corpus_dir=store).effective_date == dt.date(2030, 5, 20)


def test_import_identical_file_is_a_no_op(tmp_path: Path) -> None:
    store = tmp_path / "store"
    source = tmp_path / "a.txt"
    source.write_bytes(cr_bytes("2030-05-20"))
    assert _invoke("corpus", "import", "--corpus", str(store), str(source)).exit_code == 0
    before = (store / "2030-05-20.txt").stat().st_mtime_ns
    result = _invoke("corpus", "import", "--corpus", str(store), str(source))
    assert result.exit_code == 0
    assert "unchanged 2030-05-20" in result.output and "already in the corpus" in result.output
    assert (store / "2030-05-20.txt").stat().st_mtime_ns == before


def test_import_conflict_is_refused_unless_forced(tmp_path: Path) -> None:
    store = tmp_path / "store"
    first, second = tmp_path / "first.txt", tmp_path / "second.txt"
    first.write_bytes(cr_bytes("2030-05-20"))
    second.write_bytes(cr_bytes("2030-05-20", note="A later correction."))
    assert _invoke("corpus", "import", "--corpus", str(store), str(first)).exit_code == 0
    result = _invoke("corpus", "import", "--corpus", str(store), str(second))
    assert result.exit_code == 2
    assert "--force" in result.stderr and "2030-05-20" in result.stderr
    assert result.stderr.count("\n") == 1
    assert (store / "2030-05-20.txt").read_bytes() == first.read_bytes()
    result = _invoke("corpus", "import", "--corpus", str(store), "--force", str(second))
    assert result.exit_code == 0 and "replaced 2030-05-20" in result.output
    assert (store / "2030-05-20.txt").read_bytes() == second.read_bytes()


@pytest.mark.parametrize(
    "content,expected",
    [
        (b"", "empty file"),
        (b"%PDF-1.7\n...", "PDF"),
        (b"Shopping list\n\neggs\nmilk\n", "not a Comprehensive Rules edition"),
        (bytes(range(256)) * 4, "binary"),
    ],
)
def test_import_refuses_what_is_not_a_cr_edition(
    tmp_path: Path, content: bytes, expected: str
) -> None:
    store = tmp_path / "store"
    bad = tmp_path / "bad.txt"
    bad.write_bytes(content)
    result = _invoke("corpus", "import", "--corpus", str(store), str(bad))
    assert result.exit_code == 2
    assert result.stderr.startswith(f"rulediff: error: {bad}")
    assert expected in result.stderr and result.stderr.count("\n") == 1
    assert "Traceback" not in result.output + result.stderr
    assert not store.exists() or not any(store.iterdir())


def test_import_refuses_an_undated_text(tmp_path: Path) -> None:
    bad = tmp_path / "undated.txt"
    bad.write_bytes(
        cr_bytes("2030-05-20").replace(b"These rules are effective as of May 20, 2030.", b"")
    )
    with pytest.raises(CorpusError, match="no effective date"):
        import_editions([bad], tmp_path / "store")


def test_import_dir_imports_every_txt_and_dates_them_from_the_text(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "one.txt").write_bytes(cr_bytes("2030-01-10"))
    (src / "2020-01-01.txt").write_bytes(cr_bytes("2030-09-30", encoding="utf-16"))
    (src / "readme.md").write_text("not imported", encoding="utf-8")
    store = tmp_path / "store"
    result = _invoke("corpus", "import", "--corpus", str(store), str(src))
    assert result.exit_code == 0, result.stderr
    assert sorted(p.name for p in store.iterdir()) == ["2030-01-10.txt", "2030-09-30.txt"]
    assert (store / "2030-09-30.txt").read_bytes() == (src / "2020-01-01.txt").read_bytes()


def test_import_dir_with_one_bad_file_writes_nothing(tmp_path: Path) -> None:
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_bytes(cr_bytes("2030-01-10"))
    (src / "b.txt").write_bytes(b"Not rules at all.\n")
    store = tmp_path / "store"
    with pytest.raises(ParseError):
        import_editions([src], store)
    assert not store.exists() or not any(store.iterdir())


def test_import_two_different_files_for_one_date_is_refused(tmp_path: Path) -> None:
    a, b = tmp_path / "a.txt", tmp_path / "b.txt"
    a.write_bytes(cr_bytes("2030-01-10"))
    b.write_bytes(cr_bytes("2030-01-10", note="Different."))
    with pytest.raises(CorpusError, match="two different files"):
        import_editions([a, b], tmp_path / "store", force=True)


def _truncated(date: str) -> bytes:
    """A synthetic edition cut off before its glossary."""
    raw = cr_bytes(date)
    return raw[: raw.rindex(b"\nGlossary\n") + 1]


def test_import_refuses_a_truncated_edition_unless_allowed(tmp_path: Path) -> None:
    store = tmp_path / "store"
    cut = tmp_path / "cut.txt"
    cut.write_bytes(_truncated("2030-05-20"))
    result = _invoke("corpus", "import", "--corpus", str(store), str(cut))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"rulediff: error: {cut}:")
    assert "--allow-truncated" in result.stderr and result.stderr.count("\n") == 1
    assert not store.exists() or not any(store.iterdir())
    result = _invoke("corpus", "import", "--corpus", str(store), "--allow-truncated", str(cut))
    assert result.exit_code == 0, result.stderr
    assert (store / "2030-05-20.txt").read_bytes() == cut.read_bytes()


def test_import_refuses_a_doubled_file(tmp_path: Path) -> None:
    doubled = tmp_path / "twice.txt"
    doubled.write_bytes(cr_bytes("2030-05-20") * 2)
    with pytest.raises(CorpusError, match="another document is appended"):
        import_editions([doubled], tmp_path / "store")


def test_import_onto_a_name_taken_by_a_folder_stores_nothing(tmp_path: Path) -> None:
    store = tmp_path / "store"
    (store / "2030-09-30.txt").mkdir(parents=True)
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_bytes(cr_bytes("2030-01-10"))
    (src / "b.txt").write_bytes(cr_bytes("2030-09-30"))
    result = _invoke("corpus", "import", "--corpus", str(store), str(src))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"rulediff: error: {store / '2030-09-30.txt'}: ")
    assert "folder" in result.stderr and result.stderr.count("\n") == 1
    assert sorted(p.name for p in store.iterdir()) == ["2030-09-30.txt"]  # a.txt not stored


def test_import_into_a_read_only_corpus_is_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "store"
    store.mkdir()
    source = tmp_path / "a.txt"
    source.write_bytes(cr_bytes("2030-01-10"))
    real = os.access

    def read_only(p: object, mode: int, **kw: object) -> bool:
        if Path(p) == store and mode & os.W_OK:  # type: ignore[arg-type]
            return False  # root writes anywhere: answer as a read-only file system would
        return real(p, mode, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "access", read_only)
    result = _invoke("corpus", "import", "--corpus", str(store), str(source))
    assert result.exit_code == 2, result.output
    assert result.stderr.startswith(f"rulediff: error: {store}: ")
    assert "read-only" in result.stderr
    assert list(store.iterdir()) == []


def test_a_write_that_fails_midway_undoes_the_batch(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    store = tmp_path / "store"
    store.mkdir()
    kept = cr_bytes("2030-01-10")
    (store / "2030-01-10.txt").write_bytes(kept)
    src = tmp_path / "src"
    src.mkdir()
    (src / "a.txt").write_bytes(cr_bytes("2030-01-10", note="A correction."))
    (src / "b.txt").write_bytes(cr_bytes("2030-05-20"))
    (src / "c.txt").write_bytes(cr_bytes("2030-09-30"))
    real = cache.atomic_write_bytes

    def fails_on_c(path: Path, data: bytes, **kw: object) -> None:
        if path.name == "2030-09-30.txt":
            raise OSError(28, "No space left on device")
        real(path, data, **kw)  # type: ignore[arg-type]

    monkeypatch.setattr(cache, "atomic_write_bytes", fails_on_c)
    result = _invoke("corpus", "import", "--corpus", str(store), "--force", str(src))
    assert result.exit_code == 2, result.output
    assert "No space left on device" in result.stderr and "nothing was stored" in result.stderr
    assert sorted(p.name for p in store.iterdir()) == ["2030-01-10.txt"]
    assert (store / "2030-01-10.txt").read_bytes() == kept  # the replaced file is back


def test_import_of_an_empty_dir_is_an_error(tmp_path: Path) -> None:
    (tmp_path / "empty").mkdir()
    result = _invoke(
        "corpus", "import", "--corpus", str(tmp_path / "store"), str(tmp_path / "empty")
    )
    assert result.exit_code == 2 and "no *.txt files" in result.stderr


# --- fetch -------------------------------------------------------------------------------


class _Quiet(http.server.SimpleHTTPRequestHandler):
    def log_message(self, format: str, *args: object) -> None:  # noqa: A002
        pass


@pytest.fixture
def server(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Iterator[tuple[str, Path]]:
    """A local HTTP server in a thread, serving ``tmp_path/site``."""
    for var in ("http_proxy", "HTTP_PROXY", "all_proxy", "ALL_PROXY"):
        monkeypatch.delenv(var, raising=False)
    site = tmp_path / "site"
    site.mkdir()
    handler = functools.partial(_Quiet, directory=str(site))
    httpd = http.server.ThreadingHTTPServer(("127.0.0.1", 0), handler)
    thread = threading.Thread(target=httpd.serve_forever, daemon=True)
    thread.start()
    try:
        yield f"http://127.0.0.1:{httpd.server_address[1]}", site
    finally:
        httpd.shutdown()
        httpd.server_close()
        thread.join()


def _fetch_manifest(tmp_path: Path, base: str, entries: list[tuple[str, str, str | None]]) -> Path:
    """entries: (date, code, sha256 or None); URLs point at base/<code>.txt."""
    lines = []
    for date, code, sha in entries:
        lines += [
            "[[edition]]",
            f"date = {date}",
            f'set_code = "{code}"',
            f'url = "{base}/{code}.txt"',
        ]
        if sha:
            lines.append(f'sha256 = "{sha}"')
        lines.append("")
    path = tmp_path / "fetch.toml"
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


def test_fetch_downloads_and_verifies(tmp_path: Path, server: tuple[str, Path]) -> None:
    base, site = server
    good = cr_bytes("2030-01-10", encoding="utf-8-sig", eol="\r\n")
    (site / "AAA.txt").write_bytes(good)
    manifest = _fetch_manifest(
        tmp_path, base, [("2030-01-10", "AAA", hashlib.sha256(good).hexdigest())]
    )
    store = tmp_path / "store"
    result = _invoke("corpus", "fetch", "--corpus", str(store), "--manifest", str(manifest), "AAA")
    assert result.exit_code == 0, result.stderr
    assert "downloaded AAA (2030-01-10)" in result.output
    assert (store / "2030-01-10.txt").read_bytes() == good
    # Again: nothing to do.
    again = fetch_editions(["aaa"], store, manifest=manifest)
    assert [r.status for r in again] == ["unchanged"]


def test_fetch_with_a_bad_sha256_writes_nothing(tmp_path: Path, server: tuple[str, Path]) -> None:
    base, site = server
    (site / "AAA.txt").write_bytes(cr_bytes("2030-01-10"))
    manifest = _fetch_manifest(tmp_path, base, [("2030-01-10", "AAA", "0" * 64)])
    store = tmp_path / "store"
    result = _invoke(
        "corpus", "fetch", "--corpus", str(store), "--manifest", str(manifest), "2030-01-10"
    )
    assert result.exit_code == 2
    assert "sha256 mismatch" in result.stderr and "nothing written" in result.stderr
    assert not store.exists() or not any(store.iterdir())


def test_fetch_all_missing_by_default(
    tmp_path: Path, server: tuple[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    base, site = server
    a, b = cr_bytes("2030-01-10"), cr_bytes("2030-05-20")
    (site / "AAA.txt").write_bytes(a)
    (site / "BBB.txt").write_bytes(b)
    manifest = _fetch_manifest(
        tmp_path,
        base,
        [
            ("2030-01-10", "AAA", hashlib.sha256(a).hexdigest()),
            ("2030-05-20", "BBB", None),  # no sha256: checked by parsing and comparing dates
        ],
    )
    monkeypatch.setenv("RULEDIFF_MANIFEST", str(manifest))
    store = tmp_path / "store"
    results = fetch_editions([], store)
    assert [r.status for r in results] == ["downloaded", "downloaded"]
    assert sorted(p.name for p in store.iterdir()) == ["2030-01-10.txt", "2030-05-20.txt"]
    result = _invoke("corpus", "fetch", "--corpus", str(store))
    assert result.exit_code == 0 and "nothing to fetch" in result.output


def test_fetch_without_sha_checks_the_date(tmp_path: Path, server: tuple[str, Path]) -> None:
    base, site = server
    (site / "AAA.txt").write_bytes(cr_bytes("2030-02-02"))
    manifest = _fetch_manifest(tmp_path, base, [("2030-01-10", "AAA", None)])
    with pytest.raises(CorpusError, match="dated 2030-02-02"):
        fetch_editions(["AAA"], tmp_path / "store", manifest=manifest)
    assert not (tmp_path / "store").exists()


def test_fetch_errors(tmp_path: Path, server: tuple[str, Path]) -> None:
    base, site = server
    manifest = _fetch_manifest(tmp_path, base, [("2030-01-10", "AAA", "0" * 64)])
    store = tmp_path / "store"
    with pytest.raises(CorpusError, match="HTTP 404"):
        fetch_editions(["AAA"], store, manifest=manifest)
    with pytest.raises(EditionNotFound, match="nearest"):
        fetch_editions(["AAB"], store, manifest=manifest)
    no_url = tmp_path / "nourl.toml"
    no_url.write_text('[[edition]]\ndate = 2030-01-10\nset_code = "AAA"\n', encoding="utf-8")
    with pytest.raises(CorpusError, match="no official URL"):
        fetch_editions(["AAA"], store, manifest=no_url)


def test_fetch_refuses_to_replace_a_different_file(
    tmp_path: Path, server: tuple[str, Path]
) -> None:
    base, site = server
    official = cr_bytes("2030-01-10")
    (site / "AAA.txt").write_bytes(official)
    manifest = _fetch_manifest(
        tmp_path, base, [("2030-01-10", "AAA", hashlib.sha256(official).hexdigest())]
    )
    store = tmp_path / "store"
    store.mkdir()
    mine = cr_bytes("2030-01-10", note="Local copy.")
    (store / "2030-01-10.txt").write_bytes(mine)
    with pytest.raises(CorpusError, match="--force"):
        fetch_editions(["AAA"], store, manifest=manifest)
    assert (store / "2030-01-10.txt").read_bytes() == mine
    results = fetch_editions(["AAA"], store, manifest=manifest, force=True)
    assert [r.status for r in results] == ["replaced"]
    assert (store / "2030-01-10.txt").read_bytes() == official


# --- corpus list -------------------------------------------------------------------------


def test_list_text_and_json(corpus: Path) -> None:
    import json

    text = _invoke("corpus", "list")
    assert text.exit_code == 0, text.stderr
    for date in DATES:
        assert date in text.output
    assert "AAA" in text.output and "Alpha Widgets" in text.output
    first = _invoke("corpus", "list", "--format", "json")
    second = _invoke("corpus", "list", "--format", "json")
    assert first.output == second.output
    doc = json.loads(first.output)
    rows = doc["editions"]
    assert [r["date"] for r in rows] == DATES
    assert rows[0]["sha256"] == hashlib.sha256(cr_bytes(DATES[0])).hexdigest()
    assert rows[0]["rules"] == len(load_edition(DATES[0]).rules)
    assert rows[0]["set_code"] == "AAA" and rows[2]["official"] is False


# --- the real manifest and corpus ------------------------------------------------------


REAL = os.environ.get("RULEDIFF_CORPUS")


@pytest.fixture
def real_corpus(monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = Path(REAL) if REAL else None
    if folder is None or not folder.is_dir():
        pytest.fail("RULEDIFF_CORPUS must point at the CR corpus (../shared/corpus/mtg-cr)")
    monkeypatch.setenv("RULEDIFF_CORPUS", str(folder))
    return folder


#: The manifest the real corpus comes with: ``$RULEDIFF_MANIFEST`` as the suite starts (a
#: corpus grown with editions of its own brings its manifest, written by
#: corpus/make_manifest.py), else the repository's. Read once: tests here unset the variable.
REAL_MANIFEST = os.environ.get("RULEDIFF_MANIFEST")


def _manifest_path() -> Path:
    return Path(REAL_MANIFEST) if REAL_MANIFEST else REPO / "corpus" / "editions.toml"


def _manifest_rows(path: Path | None = None) -> list[dict]:
    path = path or _manifest_path()
    return tomllib.loads(path.read_text(encoding="utf-8"))["edition"]


def test_manifest_lists_every_corpus_file_with_its_text_date(real_corpus: Path) -> None:
    by_sha = {row["sha256"]: row for row in _manifest_rows()}
    files = sorted(real_corpus.glob("*.txt"))
    assert files
    new = [p.name for p in files if hashlib.sha256(p.read_bytes()).hexdigest() not in by_sha]
    assert not new, (
        f"{len(new)} corpus file(s) not in {_manifest_path()}: {', '.join(new)}; "
        "add their facts (set, URL) to corpus/make_manifest.py and rerun it"
    )
    for path in files:
        data = path.read_bytes()
        row = by_sha[hashlib.sha256(data).hexdigest()]
        found = find_effective_date(ingest_bytes(data, str(path)).text)
        assert found is not None and row["date"] == found[0], path.name
        assert row["bytes"] == len(data)


def test_manifest_shape() -> None:
    rows = _manifest_rows()
    allowed = {"date", "set_code", "set_name", "url", "sha256", "bytes"}
    codes = [r["set_code"].casefold() for r in rows if "set_code" in r]
    assert len(codes) == len(set(codes))
    for row in rows:
        assert set(row) <= allowed, row
        assert isinstance(row["date"], dt.date)
        if "url" in row:
            assert row["url"].startswith("https://media.wizards.com/")
            assert row["url"].endswith(".txt")
    assert [r["date"] for r in rows] == sorted(r["date"] for r in rows)
    fdn = next(r for r in rows if r.get("set_code") == "FDN")
    assert fdn["date"] == dt.date(2024, 11, 8) and fdn["set_name"] == "Foundations"


def test_manifest_is_reproducible_from_the_corpus(real_corpus: Path) -> None:
    script = REPO / "corpus" / "make_manifest.py"
    done = subprocess.run(
        [sys.executable, str(script), "--check", str(real_corpus), "-o", str(_manifest_path())],
        capture_output=True,
        text=True,
    )
    assert done.returncode == 0, done.stderr


def test_the_shipped_manifest_is_the_repository_one(monkeypatch: pytest.MonkeyPatch) -> None:
    path = default_manifest_path()
    assert path.is_file()
    assert path.read_bytes() == (REPO / "corpus" / "editions.toml").read_bytes()
    # That the wheel carries it as rulediff/data/editions.toml: tests/test_packaging.py.


@pytest.mark.parametrize(
    "ref,date",
    [
        ("FDN", "2024-11-08"),
        ("Foundations", "2024-11-08"),
        ("frf", "2015-01-23"),
        ("Dragons of Tarkir", "2015-03-27"),
        ("@2016-05-01", "2016-04-08"),
        ("@2009-07-10", "2009-05-01"),
        ("2001-09-24", "2001-09-24"),
    ],
)
def test_real_references(real_corpus: Path, ref: str, date: str) -> None:
    edition = load_edition(ref)
    assert str(edition.effective_date) == date
    assert edition.rules


def test_real_latest_is_the_newest_text_date(real_corpus: Path) -> None:
    newest = max(
        find_effective_date(ingest_bytes(p.read_bytes()).text)[0]  # type: ignore[index]
        for p in real_corpus.glob("*.txt")
    )
    assert load_edition("latest").effective_date == newest
    assert Corpus.open().editions()[-1].date == newest
