"""The content-addressed cache: hit, miss, version, corrupt entries, bypass, editions."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import stat
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff import cache, corpus, parse
from rulediff.cli import main
from rulediff.corpus import load_edition, load_file
from rulediff.parse import PARSER_VERSION, parse_file

from .conftest import FIXTURES

SAMPLE = FIXTURES / "modern_small.txt"


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(folder))
    cache.forget_memo()
    yield folder
    cache.forget_memo()


class Counter:
    def __init__(self, value: object) -> None:
        self.calls = 0
        self.value = value

    def __call__(self) -> object:
        self.calls += 1
        return self.value


def test_cache_dir_follows_the_environment(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    assert cache.cache_dir() == cache_dir
    monkeypatch.delenv("RULEDIFF_CACHE_DIR")
    assert "rulediff" in str(cache.cache_dir())


def test_miss_then_hit_from_memo_and_from_disk(cache_dir: Path) -> None:
    compute = Counter({"answer": [1, 2, 3]})
    assert cache.get_or_compute("thing", "abc", "1", compute) == {"answer": [1, 2, 3]}
    assert compute.calls == 1
    path = cache.entry_path("thing", "abc", "1")
    assert path.is_file() and path.is_relative_to(cache_dir)
    assert cache.get_or_compute("thing", "abc", "1", compute) == {"answer": [1, 2, 3]}
    assert compute.calls == 1  # memo
    cache.forget_memo()
    assert cache.get_or_compute("thing", "abc", "1", compute) == {"answer": [1, 2, 3]}
    assert compute.calls == 1  # disk


def test_key_and_version_and_kind_separate_entries() -> None:
    compute = Counter("x")
    cache.get_or_compute("thing", "abc", "1", compute)
    cache.get_or_compute("thing", "abc", "2", compute)
    cache.get_or_compute("thing", "abd", "1", compute)
    cache.get_or_compute("other", "abc", "1", compute)
    assert compute.calls == 4
    names = {
        cache.entry_path(k, key, v).name
        for k, key, v in [("thing", "abc", "1"), ("thing", "abc", "2"), ("thing", "abd", "1")]
    }
    assert len(names) == 3


def test_use_cache_false_neither_reads_nor_writes(cache_dir: Path) -> None:
    compute = Counter("fresh")
    cache.get_or_compute("thing", "abc", "1", Counter("stale"))
    assert cache.get_or_compute("thing", "abc", "1", compute, use_cache=False) == "fresh"
    assert cache.get_or_compute("thing", "new", "1", compute, use_cache=False) == "fresh"
    assert compute.calls == 2
    assert not cache.entry_path("thing", "new", "1").exists()


@pytest.mark.parametrize("garbage", [b"", b"not a pickle", b"\x80\x05\x95\xff\xff"])
def test_corrupt_entry_is_ignored_and_rewritten(
    garbage: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    cache.get_or_compute("thing", "abc", "1", Counter([1]))
    path = cache.entry_path("thing", "abc", "1")
    path.write_bytes(garbage)
    cache.forget_memo()
    compute = Counter([2])
    assert cache.get_or_compute("thing", "abc", "1", compute) == [2]
    assert compute.calls == 1
    assert "corrupt" in caplog.text
    cache.forget_memo()
    assert cache.loads(path.read_bytes()) == [2]


def test_unwritable_cache_is_only_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x")
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(blocker))
    assert cache.get_or_compute("thing", "abc", "1", Counter(7)) == 7
    assert "cannot write" in caplog.text


def test_atomic_write_leaves_no_temp_files(tmp_path: Path) -> None:
    target = tmp_path / "out.bin"
    cache.atomic_write_bytes(target, b"one")
    cache.atomic_write_bytes(target, b"two")
    assert target.read_bytes() == b"two"
    assert [p.name for p in tmp_path.iterdir()] == ["out.bin"]
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask


# --- editions --------------------------------------------------------------------------


def test_edition_is_keyed_by_sha256_and_parser_version(cache_dir: Path) -> None:
    edition = load_file(SAMPLE)
    sha = hashlib.sha256(SAMPLE.read_bytes()).hexdigest()
    entry = cache.entry_path("edition", sha, corpus.edition_cache_version())
    assert entry.is_file()
    assert sha in entry.name and f"v{PARSER_VERSION}." in entry.name
    assert edition == parse_file(SAMPLE)


def test_warm_load_does_not_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    cold = load_file(SAMPLE)
    cache.forget_memo()

    def boom(*_a: object, **_k: object) -> None:
        raise AssertionError("parsed although cached")

    monkeypatch.setattr(corpus, "parse_bytes", boom)
    warm = load_file(SAMPLE)
    assert warm == cold
    assert warm.to_text() == cold.to_text()
    assert warm.rule("100.1b") == cold.rule("100.1b")
    with pytest.raises(AssertionError, match="parsed although cached"):
        load_file(SAMPLE, use_cache=False)


def test_no_cache_parses_and_writes_nothing(
    cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    calls = []
    real = parse.parse_bytes

    def counting(data: bytes, source: str = "<bytes>") -> object:
        calls.append(source)
        return real(data, source)

    monkeypatch.setattr(corpus, "parse_bytes", counting)
    load_file(SAMPLE, use_cache=False)
    load_file(SAMPLE, use_cache=False)
    assert len(calls) == 2
    assert not (cache_dir / "edition").exists()


def test_a_new_parser_version_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    load_file(SAMPLE)
    cache.forget_memo()
    monkeypatch.setattr(corpus, "PARSER_VERSION", PARSER_VERSION + "-next")
    calls = []
    real = parse.parse_bytes
    monkeypatch.setattr(corpus, "parse_bytes", lambda d, s="<b>": calls.append(s) or real(d, s))
    load_file(SAMPLE)
    assert calls == [str(SAMPLE)]


def test_a_change_to_the_parser_code_misses(monkeypatch: pytest.MonkeyPatch) -> None:
    before = corpus.edition_cache_version()
    monkeypatch.setattr(corpus, "_parser_digest", lambda: "edited")
    assert corpus.edition_cache_version() != before
    assert corpus.edition_cache_version().startswith(PARSER_VERSION)


def test_corrupt_edition_entry_is_reparsed(cache_dir: Path) -> None:
    first = load_file(SAMPLE)
    entry = cache.entry_path("edition", first.sha256, corpus.edition_cache_version())
    entry.write_bytes(entry.read_bytes()[: len(entry.read_bytes()) // 2])  # truncated
    cache.forget_memo()
    assert load_file(SAMPLE) == first
    cache.forget_memo()
    assert cache.loads(entry.read_bytes()) == first  # rewritten whole


def test_same_bytes_at_another_path_report_that_path(tmp_path: Path) -> None:
    copy = tmp_path / "copy.txt"
    copy.write_bytes(SAMPLE.read_bytes())
    assert load_file(SAMPLE).source == str(SAMPLE)
    assert load_file(copy).source == str(copy)
    assert load_file(copy).rules == load_file(SAMPLE).rules


def test_changed_file_is_a_new_key(tmp_path: Path) -> None:
    path = tmp_path / "ed.txt"
    path.write_bytes(SAMPLE.read_bytes())
    assert load_file(path).effective_date == dt.date(2031, 3, 3)
    path.write_bytes(SAMPLE.read_bytes().replace(b"March 3, 2031", b"April 4, 2031"))
    assert load_file(path).effective_date == dt.date(2031, 4, 4)


def test_cli_no_cache_flag(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    folder = tmp_path / "corpus"
    folder.mkdir()
    (folder / "x.txt").write_bytes(SAMPLE.read_bytes())
    monkeypatch.setenv("RULEDIFF_CORPUS", str(folder))
    result = CliRunner().invoke(main, ["corpus", "list", "--no-cache"])
    assert result.exit_code == 0, result.stderr
    assert "2031-03-03" in result.output
    assert not cache_dir.exists()
    result = CliRunner().invoke(main, ["corpus", "list"])
    assert result.exit_code == 0
    assert (cache_dir / "edition").is_dir()


def test_real_edition_round_trips_through_the_cache(monkeypatch: pytest.MonkeyPatch) -> None:
    folder = os.environ.get("RULEDIFF_CORPUS")
    if not folder or not Path(folder).is_dir():
        pytest.fail("RULEDIFF_CORPUS must point at the CR corpus (../shared/corpus/mtg-cr)")
    path = sorted(Path(folder).glob("*.txt"))[-1]
    cold = load_file(path)
    cache.forget_memo()
    warm = load_edition(str(path))
    assert warm == cold and warm is not cold
    assert warm.to_text() == cold.to_text()
    assert [str(r.id) for r in warm.rules] == [str(r.id) for r in cold.rules]
    assert warm.diagnostics == cold.diagnostics


def test_memo_is_bounded(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(cache, "MEMO_SIZE", 2)
    for key in ("a", "b", "c"):
        cache.get_or_compute("thing", key, "1", Counter(key))
    assert len(cache._memo) == 2
    cache.entry_path("thing", "a", "1").unlink()  # "a" was evicted and is gone from disk
    compute = Counter("again")
    assert cache.get_or_compute("thing", "a", "1", compute) == "again"
    assert compute.calls == 1
    assert cache.get_or_compute("thing", "c", "1", Counter("unused")) == "c"
