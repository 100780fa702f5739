"""The cache: hits and misses, entries as checked data (never code), private folders,
and one version per kind of artefact derived from the code and grammars behind it."""

from __future__ import annotations

import datetime as dt
import hashlib
import os
import pickle
import shutil
import stat
import subprocess
import sys
from dataclasses import dataclass
from pathlib import Path

import msgspec
import pytest
from click.testing import CliRunner

from rulediff import cache, corpus, parse
from rulediff.cli import main
from rulediff.corpus import load_edition, load_file
from rulediff.parse import parse_file

from .conftest import FIXTURES

SAMPLE = FIXTURES / "modern_small.txt"
OLD = FIXTURES / "old_small.txt"
REPO = Path(__file__).resolve().parent.parent


@dataclass(frozen=True, slots=True)
class Thing:
    name: str
    numbers: tuple[int, ...] = ()


@pytest.fixture(autouse=True)
def cache_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "cache"
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(folder))
    monkeypatch.setitem(
        cache.KINDS, "thing", cache.Kind("thing", lambda: Thing, ("rulediff.model",))
    )
    monkeypatch.setitem(
        cache.KINDS, "other", cache.Kind("other", lambda: Thing, ("rulediff.ingest",))
    )
    cache.forget_memo()
    cache.forget_versions()
    yield folder
    cache.forget_memo()
    cache.forget_versions()


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
    compute = Counter(Thing("a", (1, 2, 3)))
    assert cache.get_or_compute("thing", "abc", compute) == Thing("a", (1, 2, 3))
    assert compute.calls == 1
    path = cache.entry_path("thing", "abc")
    assert path.is_file() and path.is_relative_to(cache_dir)
    assert cache.get_or_compute("thing", "abc", compute) == Thing("a", (1, 2, 3))
    assert compute.calls == 1  # memo
    cache.forget_memo()
    assert cache.get_or_compute("thing", "abc", compute) == Thing("a", (1, 2, 3))
    assert compute.calls == 1  # disk


def test_key_and_kind_separate_entries() -> None:
    compute = Counter(Thing("x"))
    cache.get_or_compute("thing", "abc", compute)
    cache.get_or_compute("thing", "abd", compute)
    cache.get_or_compute("other", "abc", compute)
    assert compute.calls == 3
    assert cache.entry_path("thing", "abc") != cache.entry_path("other", "abc")
    assert cache.entry_path("thing", "abc").name != cache.entry_path("thing", "abd").name


def test_use_cache_false_neither_reads_nor_writes(cache_dir: Path) -> None:
    compute = Counter(Thing("fresh"))
    cache.get_or_compute("thing", "abc", Counter(Thing("stale")))
    assert cache.get_or_compute("thing", "abc", compute, use_cache=False) == Thing("fresh")
    assert cache.get_or_compute("thing", "new", compute, use_cache=False) == Thing("fresh")
    assert compute.calls == 2
    assert not cache.entry_path("thing", "new").exists()


def test_an_undeclared_kind_is_a_bug_not_a_silent_pickle() -> None:
    with pytest.raises(KeyError, match="not declared"):
        cache.get_or_compute("never-declared", "abc", Counter(Thing("x")))


# --- entries are data, checked on read ------------------------------------------------------


def _rewritten(kind: str, key: str, compute: Counter, caplog: pytest.LogCaptureFixture) -> None:
    """The entry was refused with a warning, recomputed once and written back whole."""
    cache.forget_memo()
    assert compute.calls == 1
    assert "recomputing" in caplog.text
    assert cache.loads(kind, key, cache.entry_path(kind, key).read_bytes()) == compute.value


@pytest.mark.parametrize(
    "garbage",
    [b"", b"not msgpack at all", b"\x80\x05\x95\xff\xff", b"\x94\xa5thing", b"\xc1"],
)
def test_undecodable_entry_is_ignored_and_rewritten(
    garbage: bytes, caplog: pytest.LogCaptureFixture
) -> None:
    cache.get_or_compute("thing", "abc", Counter(Thing("one")))
    cache.entry_path("thing", "abc").write_bytes(garbage)
    cache.forget_memo()
    compute = Counter(Thing("two"))
    assert cache.get_or_compute("thing", "abc", compute) == Thing("two")
    _rewritten("thing", "abc", compute, caplog)


@pytest.mark.parametrize(
    "value",
    [5, "a string", [1, 2], {"name": 7}, ["x", ["not", "ints"]], None],
    ids=["int", "str", "list", "bad-field", "bad-items", "nil"],
)
def test_wrong_typed_entry_is_recomputed(value: object, caplog: pytest.LogCaptureFixture) -> None:
    """A well-formed entry (right kind, key and version) whose value has the wrong shape."""
    cache.get_or_compute("thing", "abc", Counter(Thing("one")))
    path = cache.entry_path("thing", "abc")
    path.write_bytes(msgspec.msgpack.encode(["thing", "abc", cache.version("thing"), value]))
    cache.forget_memo()
    compute = Counter(Thing("two", (2,)))
    assert cache.get_or_compute("thing", "abc", compute) == Thing("two", (2,))
    _rewritten("thing", "abc", compute, caplog)
    assert "not a valid thing entry" in caplog.text


def test_entry_of_another_key_or_kind_is_recomputed(caplog: pytest.LogCaptureFixture) -> None:
    cache.get_or_compute("thing", "abc", Counter(Thing("abc's")))
    cache.get_or_compute("other", "xyz", Counter(Thing("other's")))
    shutil.copyfile(cache.entry_path("thing", "abc"), cache.entry_path("thing", "xyz"))
    cache.forget_memo()
    compute = Counter(Thing("xyz's"))
    assert cache.get_or_compute("thing", "xyz", compute) == Thing("xyz's")
    _rewritten("thing", "xyz", compute, caplog)
    assert "another key" in caplog.text
    shutil.copyfile(cache.entry_path("other", "xyz"), cache.entry_path("thing", "xyz"))
    cache.forget_memo()
    compute = Counter(Thing("xyz's"))
    assert cache.get_or_compute("thing", "xyz", compute) == Thing("xyz's")
    assert compute.calls == 1


class _Payload:
    """Unpickling this runs code: it creates a marker file, then returns ``result``."""

    def __init__(self, marker: Path, result: object) -> None:
        self.marker = marker
        self.result = result

    def __reduce__(self) -> tuple:
        code = f"open({str(self.marker)!r}, 'w').close() or {self.result!r}"
        return (eval, (code,))


def test_no_module_can_unpickle() -> None:
    """The package never loads pickle, marshal or shelve data (cache or anything else)."""
    offenders = []
    for path in sorted((REPO / "rulediff").rglob("*.py")):
        text = path.read_text(encoding="utf-8")
        for word in ("import pickle", "pickle.load", "import marshal", "import shelve", "dill"):
            if word in text:
                offenders.append(f"{path.name}: {word}")
    assert offenders == []


def test_planted_pickle_never_runs(
    tmp_path: Path, cache_dir: Path, caplog: pytest.LogCaptureFixture
) -> None:
    marker = tmp_path / "pwned"
    cache.get_or_compute("thing", "abc", Counter(Thing("real")))
    cache.entry_path("thing", "abc").write_bytes(pickle.dumps(_Payload(marker, ("real",))))
    cache.forget_memo()
    compute = Counter(Thing("recomputed"))
    assert cache.get_or_compute("thing", "abc", compute) == Thing("recomputed")
    assert not marker.exists()
    assert compute.calls == 1


def test_planted_pickle_under_an_edition_key_never_runs_and_the_output_is_right(
    tmp_path: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The attack from the issue: a payload that runs a command and then answers with a
    plausible value, placed where the edition's entry lives, read through the CLI."""
    marker = tmp_path / "pwned"
    expected = CliRunner().invoke(main, ["--no-cache", "show", "100.1a", "-e", str(SAMPLE)])
    assert expected.exit_code == 0
    entry = cache.entry_path("edition", hashlib.sha256(SAMPLE.read_bytes()).hexdigest())
    entry.parent.mkdir(parents=True)
    os.chmod(cache_dir, 0o700)
    entry.write_bytes(pickle.dumps(_Payload(marker, "whatever")))
    os.chmod(entry, 0o600)
    result = CliRunner().invoke(main, ["show", "100.1a", "-e", str(SAMPLE)])
    assert result.exit_code == 0, result.output
    assert not marker.exists()
    assert result.stdout == expected.stdout
    assert result.stderr.startswith("rulediff: warning: cache: ")
    assert len(result.stderr.splitlines()) == 1
    # rewritten as a real entry: the next run is silent
    cache.forget_memo()
    again = CliRunner().invoke(main, ["show", "100.1a", "-e", str(SAMPLE)])
    assert again.exit_code == 0 and again.stderr == "" and again.stdout == expected.stdout


def test_swapped_edition_entry_is_not_served(
    corpus_dir: Path, cache_dir: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Another edition's entry copied under latest's key: latest is still latest."""
    monkeypatch.setenv("RULEDIFF_CORPUS", str(corpus_dir))
    older = load_edition("2015-01-23")
    latest = load_edition("latest")
    assert older.effective_date != latest.effective_date
    shutil.copyfile(
        cache.entry_path("edition", older.sha256), cache.entry_path("edition", latest.sha256)
    )
    rule = next(r.id for r in latest.rules if older.rule(r.id) and older.rule(r.id).text != r.text)
    expected = CliRunner().invoke(main, ["--no-cache", "show", str(rule), "-e", "latest"])
    assert expected.exit_code == 0
    cache.forget_memo()
    result = CliRunner().invoke(main, ["show", str(rule), "-e", "latest"])
    assert result.exit_code == 0, result.output
    assert result.stdout == expected.stdout
    assert "another key" in result.stderr and "rulediff: warning:" in result.stderr
    cache.forget_memo()
    assert load_edition("latest").effective_date == latest.effective_date


def test_an_edition_whose_sha256_disagrees_with_its_key_is_refused(
    caplog: pytest.LogCaptureFixture,
) -> None:
    """Even a forged entry carrying the right key cannot pass off another text."""
    other = load_file(OLD)
    sha = hashlib.sha256(SAMPLE.read_bytes()).hexdigest()
    forged = cache._codec("edition")
    data = cache._encoder.encode(
        forged.entry("edition", sha, cache.version("edition"), forged.plan.dump(other))
    )
    entry = cache.entry_path("edition", sha)
    cache.private_dir(entry.parent)
    entry.write_bytes(data)
    os.chmod(entry, 0o600)
    cache.forget_memo()
    assert load_file(SAMPLE).effective_date == dt.date(2031, 3, 3)
    assert "does not match its key" in caplog.text


# --- who may write entries -------------------------------------------------------------------


def test_folders_are_private_and_entries_owner_only(cache_dir: Path) -> None:
    cache.get_or_compute("thing", "abc", Counter(Thing("x")))
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700
    assert stat.S_IMODE(cache.entry_path("thing", "abc").parent.stat().st_mode) == 0o700
    assert stat.S_IMODE(cache.entry_path("thing", "abc").stat().st_mode) == 0o600


def test_an_existing_loose_folder_of_ours_is_tightened(cache_dir: Path) -> None:
    cache_dir.mkdir(mode=0o777)
    os.chmod(cache_dir, 0o777)
    cache.get_or_compute("thing", "abc", Counter(Thing("x")))
    assert stat.S_IMODE(cache_dir.stat().st_mode) == 0o700


@pytest.mark.parametrize("mode", [0o620, 0o602, 0o666])
def test_entry_writable_by_others_is_ignored(mode: int, caplog: pytest.LogCaptureFixture) -> None:
    cache.get_or_compute("thing", "abc", Counter(Thing("theirs")))
    os.chmod(cache.entry_path("thing", "abc"), mode)
    cache.forget_memo()
    compute = Counter(Thing("ours"))
    assert cache.get_or_compute("thing", "abc", compute) == Thing("ours")
    assert "writable by others" in caplog.text
    assert stat.S_IMODE(cache.entry_path("thing", "abc").stat().st_mode) == 0o600


def test_entry_owned_by_someone_else_is_ignored(
    monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    cache.get_or_compute("thing", "abc", Counter(Thing("theirs")))
    cache.forget_memo()
    real = os.getuid()
    monkeypatch.setattr(cache.os, "getuid", lambda: real + 4242)  # we are now someone else
    compute = Counter(Thing("ours"))
    assert cache.get_or_compute("thing", "abc", compute) == Thing("ours")
    assert "owned by another user" in caplog.text


def test_symlinked_entry_is_not_followed(tmp_path: Path, caplog: pytest.LogCaptureFixture) -> None:
    cache.get_or_compute("thing", "abc", Counter(Thing("x")))
    elsewhere = tmp_path / "elsewhere.msgpack"
    shutil.copyfile(cache.entry_path("thing", "abc"), elsewhere)
    cache.entry_path("thing", "abc").unlink()
    cache.entry_path("thing", "abc").symlink_to(elsewhere)
    cache.forget_memo()
    compute = Counter(Thing("x"))
    cache.get_or_compute("thing", "abc", compute)
    assert compute.calls == 1
    assert "symbolic link" in caplog.text


def test_fifo_entry_does_not_hang(caplog: pytest.LogCaptureFixture) -> None:
    cache.get_or_compute("thing", "abc", Counter(Thing("x")))
    path = cache.entry_path("thing", "abc")
    path.unlink()
    os.mkfifo(path, 0o600)
    cache.forget_memo()
    compute = Counter(Thing("x"))
    cache.get_or_compute("thing", "abc", compute)
    assert compute.calls == 1
    assert "not a regular file" in caplog.text
    assert path.is_file()


def test_unwritable_cache_is_only_a_warning(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, caplog: pytest.LogCaptureFixture
) -> None:
    blocker = tmp_path / "file-not-folder"
    blocker.write_text("x")
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(blocker))
    assert cache.get_or_compute("thing", "abc", Counter(Thing("y"))) == Thing("y")
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


# --- every kind round-trips ------------------------------------------------------------------


def _artefacts() -> dict[str, object]:
    from rulediff.align import align
    from rulediff.clauses import compute_edition_clauses, compute_edition_targets
    from rulediff.corpus import _Scanned
    from rulediff.diff import diff
    from rulediff.flags import compute_outcomes
    from rulediff.history import Lineage, step_of
    from rulediff.locate import build_index, build_table

    old, new = parse_file(OLD), parse_file(SAMPLE)
    step = step_of(old, new, use_cache=False)
    return {
        "edition": new,
        "clauses": compute_edition_clauses(new),
        "targets": compute_edition_targets(new),
        "alignment": align(old, new),
        "diff": diff(old, new, align(old, new)),
        "through-diff": diff(old, new, align(old, new)),
        "step": step,
        "lineage": Lineage((step.old, step.new), (step,)),
        "flags": compute_outcomes(new),
        "scan": {
            "x.txt": _Scanned(1, 2, "ab", dt.date(2031, 3, 3)),
            "y": _Scanned(3, 4, "c", None),
        },
        "fulltext-html": "<p>text</p>",
        "locate-index": build_index([old, new]).as_data(),
        "locate-table": build_table(new).as_data(),
    }


def test_every_declared_kind_round_trips_exactly() -> None:
    values = _artefacts()
    assert set(values) >= set(cache.KINDS) - {"thing", "other"}
    for kind, value in values.items():
        key = getattr(value, "sha256", None) or "key"
        back = cache.loads(kind, key, cache.dumps(kind, key, value))
        assert back == value, kind
        assert type(back) is type(value), kind
    edition = values["edition"]
    back = cache.loads("edition", edition.sha256, cache.dumps("edition", edition.sha256, edition))
    assert back.to_text() == edition.to_text()
    assert [type(item) for item in back.body] == [type(item) for item in edition.body]


# --- editions through the cache --------------------------------------------------------------


def test_edition_is_keyed_by_sha256_and_version(cache_dir: Path) -> None:
    edition = load_file(SAMPLE)
    sha = hashlib.sha256(SAMPLE.read_bytes()).hexdigest()
    entry = cache.entry_path("edition", sha)
    assert entry.is_file()
    assert sha in entry.name and cache.version("edition") in entry.name
    assert edition == parse_file(SAMPLE)


def test_warm_load_does_not_parse(monkeypatch: pytest.MonkeyPatch) -> None:
    cold = load_file(SAMPLE)
    cache.forget_memo()

    def boom(*_a: object, **_k: object) -> None:
        raise AssertionError("parsed although cached")

    monkeypatch.setattr(corpus.load, "parse_bytes", boom)
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

    monkeypatch.setattr(corpus.load, "parse_bytes", counting)
    load_file(SAMPLE, use_cache=False)
    load_file(SAMPLE, use_cache=False)
    assert len(calls) == 2
    assert not (cache_dir / "edition").exists()


def test_corrupt_edition_entry_is_reparsed(cache_dir: Path) -> None:
    first = load_file(SAMPLE)
    entry = cache.entry_path("edition", first.sha256)
    entry.write_bytes(entry.read_bytes()[: len(entry.read_bytes()) // 2])  # truncated
    cache.forget_memo()
    assert load_file(SAMPLE) == first
    cache.forget_memo()
    assert cache.loads("edition", first.sha256, entry.read_bytes()) == first  # rewritten whole


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


def test_real_edition_round_trips_through_the_cache(corpus_dir: Path) -> None:
    path = sorted(corpus_dir.glob("*.txt"))[-1]
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
        cache.get_or_compute("thing", key, Counter(Thing(key)))
    assert len(cache._memo) == 2
    cache.entry_path("thing", "a").unlink()  # "a" was evicted and is gone from disk
    compute = Counter(Thing("again"))
    assert cache.get_or_compute("thing", "a", compute) == Thing("again")
    assert compute.calls == 1
    assert cache.get_or_compute("thing", "c", Counter(Thing("unused"))) == Thing("c")


# --- one version scheme: the code and grammars behind each kind --------------------------------

#: The kinds whose versions the tests below compare.
KINDS = [
    "edition",
    "clauses",
    "alignment",
    "diff",
    "through-diff",
    "step",
    "lineage",
    "flags",
    "scan",
]
ALL = {*KINDS, "fulltext-html"} - {"scan"}
#: Which kinds an edit to a file must invalidate (at least), and which it must leave alone.
DEPENDENTS = {
    "grammars/document.lark": (ALL | {"scan"}, set()),
    "rulediff/parse.py": (ALL | {"scan"}, set()),
    "rulediff/ingest.py": (ALL | {"scan"}, set()),
    "rulediff/model.py": (ALL | {"scan"}, set()),
    "grammars/clause.lark": (ALL - {"edition"}, {"edition", "scan"}),
    "rulediff/clauses.py": (ALL - {"edition"}, {"edition", "scan"}),
    "rulediff/align.py": (
        {"alignment", "diff", "through-diff", "step", "lineage", "fulltext-html"},
        {"edition", "clauses", "flags", "scan"},
    ),
    "rulediff/diff.py": (
        {"diff", "through-diff", "step", "lineage", "fulltext-html"},
        {"edition", "clauses", "alignment", "flags", "scan"},
    ),
    "rulediff/history.py": (
        {"step", "lineage", "through-diff"},
        ALL - {"step", "lineage", "through-diff"} | {"scan"},
    ),
    "rulediff/through.py": ({"through-diff"}, ALL - {"through-diff"} | {"scan"}),
    "rulediff/flags/detectors.py": ({"flags"}, ALL - {"flags"} | {"scan"}),
    "rulediff/corpus/scan.py": ({"scan", "step", "lineage"}, {"edition", "clauses", "alignment"}),
    "rulediff/corpus/load.py": ({"scan", "step", "lineage"}, {"edition", "clauses", "alignment"}),
}


def _versions() -> dict[str, str]:
    cache.forget_versions()
    return {kind: cache.version(kind) for kind in [*KINDS, "fulltext-html"]}


@pytest.mark.parametrize("edited", sorted(DEPENDENTS))
def test_editing_a_module_or_grammar_changes_the_key_of_every_dependent(
    edited: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    before = _versions()
    target = (REPO / edited).resolve()
    assert target in {p.resolve() for k in KINDS for p in cache.code_files(*cache.KINDS[k].code)}
    real = cache._source
    monkeypatch.setattr(
        cache, "_source", lambda p: real(p) + (b"\n# edited\n" if p.resolve() == target else b"")
    )
    after = _versions()
    changed = {kind for kind in before if before[kind] != after[kind]}
    must, must_not = DEPENDENTS[edited]
    assert must <= changed, f"{edited}: not invalidated: {sorted(must - changed)}"
    assert not (must_not & changed), (
        f"{edited}: needlessly invalidated: {sorted(must_not & changed)}"
    )
    sha = "ab" * 32
    for kind in must:
        monkeypatch.setattr(cache, "_source", real)
        cache.forget_versions()
        old_path = cache.entry_path(kind, sha)
        monkeypatch.setattr(
            cache, "_source", lambda p: real(p) + (b"#" if p.resolve() == target else b"")
        )
        cache.forget_versions()
        assert cache.entry_path(kind, sha) != old_path


def test_no_hand_bumped_versions_remain() -> None:
    import rulediff.align
    import rulediff.clauses
    import rulediff.diff
    import rulediff.history

    for module in (
        rulediff.align,
        rulediff.diff,
        rulediff.history,
        rulediff.clauses,
        parse,
        corpus,
    ):
        leftovers = [n for n in vars(module) if n.endswith("_VERSION") and "FORMAT" not in n]
        assert leftovers == [], module.__name__


def test_edited_copy_in_a_temporary_install_changes_the_keys(tmp_path: Path) -> None:
    """The same check without patching: a copy of the package, one file edited on disk."""
    shutil.copytree(
        REPO / "rulediff", tmp_path / "rulediff", ignore=shutil.ignore_patterns("__pycache__")
    )
    shutil.copytree(REPO / "grammars", tmp_path / "grammars")
    script = (
        "from rulediff import cache; import json; "
        f"print(json.dumps({{k: cache.version(k) for k in {KINDS!r}}}))"
    )

    def versions() -> dict[str, str]:
        out = subprocess.run(
            [sys.executable, "-c", script],
            cwd=tmp_path,
            env={**os.environ, "PYTHONPATH": str(tmp_path)},
            capture_output=True,
            text=True,
            check=True,
        )
        import json

        return json.loads(out.stdout)

    before = versions()
    with (tmp_path / "grammars" / "clause.lark").open("a") as handle:
        handle.write("\n// edited\n")
    middle = versions()
    with (tmp_path / "rulediff" / "align.py").open("a") as handle:
        handle.write("\n# edited\n")
    after = versions()
    assert {k for k in KINDS if before[k] != middle[k]} == {
        "clauses",
        "alignment",
        "diff",
        "through-diff",
        "step",
        "lineage",
        "flags",
    }
    assert {k for k in KINDS if middle[k] != after[k]} == {
        "alignment",
        "diff",
        "through-diff",
        "step",
        "lineage",
    }
