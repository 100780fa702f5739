"""Property-based fuzzing of the command line (hypothesis).

The property, for every input: the command exits 0 (or 1 where findings are possible) or
2 with exactly one ``rulediff: error:`` line (other stderr lines are warnings); never 3
(an internal error), never a hang (each case is time-boxed), and nothing is written when
it fails. Inputs: random bytes and mutated editions (synthetic, and one real edition read
from the corpus at run time) for ``parse``, ``diff``, ``audit`` and ``flags``; random
scenario and flags TOML; random edition references and rule numbers.

Bounded for CI: ``derandomize=True`` (the same cases every run), a fixed number of
examples per test, and the whole file runs in well under two minutes.
"""

from __future__ import annotations

import os
import signal
from collections import Counter
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path

import pytest
from click.testing import CliRunner, Result
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from rulediff import cache
from rulediff.cli import main

from .conftest import FIXTURES
from .flags_helpers import OLD_SCHOOL_TOML

SYNTHETIC = (FIXTURES / "modern_small.txt").read_bytes()
OLD_SYNTHETIC = (FIXTURES / "old_small.txt").read_bytes()
#: Seconds one case may take before it counts as a hang.
TIME_BOX = 30

FUZZ = settings(
    max_examples=40,
    deadline=None,  # hangs are caught by the time box, which also interrupts them
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
)


@pytest.fixture(autouse=True)
def _private_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch):
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(tmp_path_factory.mktemp("fuzz-cache")))
    cache.forget_memo()
    yield
    cache.forget_memo()


#: Exit codes seen, per command (printed at the end with ``-s``; the figures of the report).
SEEN: Counter[tuple[str, int]] = Counter()


@pytest.fixture(scope="module", autouse=True)
def _summary() -> Iterator[None]:
    yield
    total = sum(SEEN.values())
    parts = ", ".join(f"{cmd} exit {code}: {n}" for (cmd, code), n in sorted(SEEN.items()))
    print(f"\nfuzz: {total} command runs ({parts})")


class Hang(Exception):
    pass


@contextmanager
def time_box(seconds: int = TIME_BOX) -> Iterator[None]:
    def expired(_signum: int, _frame: object) -> None:
        raise Hang(f"no answer within {seconds} s")

    previous = signal.signal(signal.SIGALRM, expired)
    signal.alarm(seconds)
    try:
        yield
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, previous)


def run(*args: str, allowed: tuple[int, ...] = (0, 2)) -> Result:
    """Run the command in-process and check the property; return the result."""
    with time_box():
        result = CliRunner().invoke(main, list(args))
    code = result.exit_code
    SEEN[(next(a for a in args if not a.startswith("-") and "/" not in a), code)] += 1
    detail = f"rulediff {' '.join(a[:80] for a in args)}\n{result.stderr[-2000:]}"
    assert code != 3, f"internal error: {detail}"
    assert result.exception is None or isinstance(result.exception, SystemExit), detail
    assert code in allowed, f"exit {code}: {detail}"
    lines = result.stderr.splitlines()
    errors = [ln for ln in lines if ln.startswith("rulediff: error: ")]
    others = [ln for ln in lines if not ln.startswith(("rulediff: error: ", "rulediff: warning: "))]
    assert others == [], f"stray stderr: {detail}"
    assert len(errors) == (1 if code == 2 else 0), detail
    return result


def assert_untouched_on_failure(result: Result, target: Path) -> None:
    if result.exit_code == 2:
        assert target.read_bytes() == b"sentinel", "a failing command wrote its output"
        assert sorted(p.name for p in target.parent.iterdir()) == ["out.txt"], "litter left"
    elif result.exit_code == 0:
        assert target.read_bytes() != b"sentinel" or result.stdout == ""


def fresh_dir(base: Path, name: str) -> Path:
    n = 0
    while (base / f"{name}{n}").exists():
        n += 1
    folder = base / f"{name}{n}"
    folder.mkdir()
    return folder


# --- mutations -----------------------------------------------------------------------------------

_EDIT = st.tuples(
    st.sampled_from(["insert", "delete", "replace", "duplicate", "truncate", "swap-lines"]),
    st.floats(0, 1),
    st.integers(0, 400),
    st.binary(max_size=40)
    | st.sampled_from(
        [
            b"\n",
            b"\r",
            b"\x00",
            b"\xff\xfe",
            b"\xef\xbb\xbf",
            b"\xe2\x80",
            b"\x93",
            b"100.1. ",
            b"\n100.1a ",
            b"Glossary\n",
            b"Credits\n",
            b"Contents\n",
            b"See rule 999.9z.",
            b"Example: ",
            b"\n7. Extra\n",
            b"\n\n\n",
            "\u2028\u00a0\u200b".encode(),
            b"These rules are effective as of February 30, 2031.",
        ]
    ),
)


def mutate(data: bytes, edits: list[tuple[str, float, int, bytes]]) -> bytes:
    """Apply byte-level edits (positions as fractions of the current length)."""
    for op, where, size, payload in edits:
        at = int(where * len(data))
        if op == "insert":
            data = data[:at] + payload + data[at:]
        elif op == "delete":
            data = data[:at] + data[at + size :]
        elif op == "replace":
            data = data[:at] + payload + data[at + len(payload) :]
        elif op == "duplicate":
            data = data[:at] + data[at : at + size * 10] + data[at:]
        elif op == "truncate":
            data = data[: max(at, 1)]
        else:  # swap two lines
            lines = data.split(b"\n")
            i, j = at % len(lines), (at + size) % len(lines)
            lines[i], lines[j] = lines[j], lines[i]
            data = b"\n".join(lines)
    return data


mutated_synthetic = st.lists(_EDIT, min_size=1, max_size=6).map(lambda e: mutate(SYNTHETIC, e))
random_bytes = st.binary(max_size=3000)
edition_bytes = st.one_of(mutated_synthetic, random_bytes, st.just(SYNTHETIC + SYNTHETIC))


# --- parse, audit, flags, diff over mutated and random editions --------------------------------


@FUZZ
@given(data=edition_bytes, fmt=st.sampled_from(["json", "text"]))
def test_parse_never_crashes(tmp_path: Path, data: bytes, fmt: str) -> None:
    folder = fresh_dir(tmp_path, "parse")
    edition = folder / "edition.txt"
    edition.write_bytes(data)
    out = fresh_dir(tmp_path, "out")
    target = out / "out.txt"
    target.write_bytes(b"sentinel")
    result = run("--no-cache", "parse", str(edition), "--format", fmt, "-o", str(target))
    assert_untouched_on_failure(result, target)


@FUZZ
@given(data=edition_bytes)
def test_audit_never_crashes(tmp_path: Path, data: bytes) -> None:
    edition = fresh_dir(tmp_path, "audit") / "edition.txt"
    edition.write_bytes(data)
    run("--no-cache", "audit", str(edition), "--format", "json", allowed=(0, 1, 2))


@FUZZ
@given(data=edition_bytes, fmt=st.sampled_from(["toml", "json", "python"]))
def test_flags_never_crash(tmp_path: Path, data: bytes, fmt: str) -> None:
    edition = fresh_dir(tmp_path, "flags") / "edition.txt"
    edition.write_bytes(data)
    out = fresh_dir(tmp_path, "out")
    target = out / "out.txt"
    target.write_bytes(b"sentinel")
    result = run("--no-cache", "flags", "-e", str(edition), "--format", fmt, "-o", str(target))
    assert_untouched_on_failure(result, target)


@settings(FUZZ, max_examples=25)
@given(old=st.one_of(mutated_synthetic, st.just(OLD_SYNTHETIC)), new=edition_bytes)
def test_diff_never_crashes(tmp_path: Path, old: bytes, new: bytes) -> None:
    folder = fresh_dir(tmp_path, "diff")
    (folder / "old.txt").write_bytes(old)
    (folder / "new.txt").write_bytes(new)
    out = fresh_dir(tmp_path, "out")
    target = out / "out.txt"
    target.write_bytes(b"sentinel")
    result = run(
        "--no-cache",
        "diff",
        str(folder / "old.txt"),
        str(folder / "new.txt"),
        "--format",
        "json",
        "-o",
        str(target),
    )
    assert_untouched_on_failure(result, target)


@settings(FUZZ, max_examples=6)
@given(edits=st.lists(_EDIT, min_size=1, max_size=4))
def test_mutated_real_edition_never_crashes(corpus_dir: Path, tmp_path: Path, edits: list) -> None:
    """The oldest real edition (read from the corpus at run time), mutated."""
    real = min(corpus_dir.glob("*.txt")).read_bytes()
    edition = fresh_dir(tmp_path, "real") / "edition.txt"
    edition.write_bytes(mutate(real, edits))
    run("--no-cache", "parse", str(edition), "--format", "json")
    run("--no-cache", "flags", "-e", str(edition), "--format", "toml")


# --- scenario and flags files -------------------------------------------------------------------

_SCALAR = st.one_of(
    st.booleans(),
    st.integers(-(2**70), 2**70),
    st.floats(allow_nan=True, allow_infinity=True),
    st.text(max_size=20),
    st.sampled_from(["alice", "bear", "pump", "draw", "creature", "precombat-main", "{life:a}"]),
)
_KEYS = st.sampled_from(
    [
        "result",
        "players",
        "permanents",
        "actions",
        "expect",
        "choices",
        "seed",
        "start",
        "active",
        "id",
        "life",
        "hand",
        "library",
        "poison",
        "do",
        "target",
        "n",
        "power",
        "toughness",
        "when",
        "types",
        "mana_burn",
        "starting_life",
        "mulligan",
        "flags",
        "provenance",
        "rules",
        "evidence",
        "value",
        "planeswalker_types",
        "x",
    ]
)
_VALUE = st.recursive(
    _SCALAR,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(_KEYS, inner, max_size=4),
    max_leaves=12,
)
toml_documents = st.dictionaries(_KEYS, _VALUE, max_size=8)


def to_toml(doc: dict) -> str:
    """TOML text for a document (inline tables and arrays only; any value TOML can hold)."""

    def value(v: object) -> str:
        if isinstance(v, bool):
            return "true" if v else "false"
        if isinstance(v, int):
            return str(v)
        if isinstance(v, float):
            if v != v:
                return "nan"
            if v in (float("inf"), float("-inf")):
                return "inf" if v > 0 else "-inf"
            return repr(v)
        if isinstance(v, str):
            out = v.replace("\\", "\\\\").replace('"', '\\"')
            out = "".join(c if c.isprintable() else f"\\u{ord(c):04x}" for c in out)
            return f'"{out}"'
        if isinstance(v, list):
            return "[" + ", ".join(value(x) for x in v) + "]"
        assert isinstance(v, dict)
        return "{" + ", ".join(f'"{k}" = {value(x)}' for k, x in v.items()) + "}"

    return "".join(f'"{k}" = {value(v)}\n' for k, v in doc.items())




@FUZZ
@given(doc=toml_documents, raw=st.booleans(), text=st.text(max_size=200))
def test_random_scenarios_never_crash(tmp_path: Path, doc: dict, raw: bool, text: str) -> None:
    folder = fresh_dir(tmp_path, "scenario")
    scenario = folder / "s.toml"
    scenario.write_text(text if raw else to_toml(doc), encoding="utf-8")
    (folder / "f.toml").write_text(OLD_SCHOOL_TOML, encoding="utf-8")
    run("engine", "run", str(scenario), "--flags", str(folder / "f.toml"), allowed=(0, 1, 2))


@FUZZ
@given(doc=toml_documents, as_json=st.booleans())
def test_random_flags_files_never_crash(tmp_path: Path, doc: dict, as_json: bool) -> None:
    import json

    folder = fresh_dir(tmp_path, "flagsfile")
    if as_json:
        flags = folder / "f.json"
        try:
            flags.write_text(json.dumps(doc, allow_nan=True), encoding="utf-8")
        except ValueError:
            return
    else:
        flags = folder / "f.toml"
        flags.write_text(to_toml(doc), encoding="utf-8")
    edition = folder / "ed.txt"
    edition.write_bytes(SYNTHETIC)
    run("--no-cache", "flags", "-e", str(edition), "--check-engine", str(flags), allowed=(0, 1, 2))
    run("engine", "run", "mana-burn", "--flags", str(flags), allowed=(0, 1, 2))


SCENARIOS = sorted((Path(__file__).resolve().parent.parent / "corpus" / "scenarios").glob("*.toml"))


def _leaves(value: object, path: tuple = ()) -> list[tuple]:
    if isinstance(value, dict):
        return [p for k, v in value.items() for p in _leaves(v, (*path, k))] + [path]
    if isinstance(value, list):
        return [p for i, v in enumerate(value) for p in _leaves(v, (*path, i))] + [path]
    return [path]


def _replace(doc: object, path: tuple, new: object) -> object:
    if not path:
        return new
    head, rest = path[0], path[1:]
    if isinstance(doc, dict):
        return {k: (_replace(v, rest, new) if k == head else v) for k, v in doc.items()}
    assert isinstance(doc, list)
    return [(_replace(v, rest, new) if i == head else v) for i, v in enumerate(doc)]


def _get(doc: object, path: tuple) -> object:
    for step in path:
        doc = doc[step]  # type: ignore[index]
    return doc


def _delete(doc: object, path: tuple) -> object:
    head, rest = path[0], path[1:]
    if not rest:
        if isinstance(doc, dict):
            return {k: v for k, v in doc.items() if k != head}
        return [v for i, v in enumerate(doc) if i != head]  # type: ignore[arg-type]
    if isinstance(doc, dict):
        return {k: (_delete(v, rest) if k == head else v) for k, v in doc.items()}
    return [(_delete(v, rest) if i == head else v) for i, v in enumerate(doc)]  # type: ignore[arg-type]


_CHANGE = st.tuples(
    st.sampled_from(["same-type", "same-type", "delete", "any"]),
    st.integers(0, 10_000),
    st.integers(-3, 40),
    _VALUE,
)


@settings(FUZZ, max_examples=100)
@given(which=st.integers(0, 10_000), changes=st.lists(_CHANGE, min_size=1, max_size=3))
def test_mutated_shipped_scenarios_never_crash(
    tmp_path: Path, which: int, changes: list[tuple[str, int, int, object]]
) -> None:
    """A real scenario with values changed (mostly to another of the same type, so the
    engine really runs), keys or items deleted, or anything put in their place."""
    import tomllib

    doc: object = tomllib.loads(SCENARIOS[which % len(SCENARIOS)].read_text(encoding="utf-8"))
    for how, where, number, anything in changes:
        leaves = [p for p in _leaves(doc) if p]
        if not leaves:
            break
        path = leaves[where % len(leaves)]
        old = _get(doc, path)
        if how == "delete":
            doc = _delete(doc, path)
            continue
        if how == "same-type":
            strings = [_get(doc, p) for p in leaves if isinstance(_get(doc, p), str)]
            if isinstance(old, bool):
                anything = not old
            elif isinstance(old, int):
                anything = number
            elif isinstance(old, str) and strings:
                anything = strings[number % len(strings)]
        doc = _replace(doc, path, anything)
    folder = fresh_dir(tmp_path, "mutated")
    scenario = folder / "s.toml"
    scenario.write_text(to_toml(doc), encoding="utf-8")  # type: ignore[arg-type]
    (folder / "f.toml").write_text(OLD_SCHOOL_TOML, encoding="utf-8")
    run("engine", "run", str(scenario), "--flags", str(folder / "f.toml"), allowed=(0, 1, 2))


# --- references ----------------------------------------------------------------------------------

_REFERENCE = st.one_of(
    st.text(max_size=40),
    st.text(alphabet="0123456789.-@ /abcz~", max_size=30),
    st.sampled_from(["latest", "@2031-03-03", "@2031-02-30", "2031-03-03", "@", "~", "-", ".."]),
    st.text(min_size=250, max_size=300, alphabet="xy/"),
    st.from_regex(r"[0-9]{1,4}(\.[0-9]{1,3}[a-z]{0,3})?\.?", fullmatch=True),
    st.text(alphabet="٠١٢٣٤٥٦٧٨٩０１２３４５６７８９.", max_size=10),
)


@settings(FUZZ, max_examples=60)
@given(ref=_REFERENCE, rule=_REFERENCE)
def test_references_and_rule_numbers_never_crash(tmp_path: Path, ref: str, rule: str) -> None:
    corpus = tmp_path / "corpus"
    if not corpus.exists():
        corpus.mkdir()
        (corpus / "2031-03-03.txt").write_bytes(SYNTHETIC)
    if "\x00" in ref or "\x00" in rule:
        return  # a NUL cannot reach a program through its argument list
    run("--corpus", str(corpus), "show", rule or "100.1", "-e", ref or "latest")
    run("--corpus", str(corpus), "show", rule or "100.1")
    run("--corpus", str(corpus), "refs", rule or "100.1")


def test_the_fuzz_cases_are_bounded() -> None:
    """The settings that keep this file under two minutes (and reproducible) stay in place."""
    assert FUZZ.derandomize and FUZZ.max_examples <= 100
    assert TIME_BOX <= 30 and os.name == "posix"  # the time box uses SIGALRM
