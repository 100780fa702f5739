"""The ``rulediff`` command: parse / show / glossary, options, errors and exit codes.

Synthetic inputs are written here (tmp_path); real editions come from $RULEDIFF_CORPUS.
"""

from __future__ import annotations

import csv
import functools
import gc
import json
import os
import random
import re
import shutil
import subprocess
import sys
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner, Result

from rulediff.cli import main
from rulediff.commands import parse as parse_commands
from rulediff.commands.parse import parse_schema
from rulediff.model import Edition
from rulediff.parse import parse_file

from .helpers import edition_text

# A small edition in the modern layout, written for these tests (not CR text).
SYNTHETIC = edition_text(
    """\
1. Basics

100. General

100.1. A game is played by two or more players.

100.1a A two-player game has two players.

Example: Alice and Bob play a game.

100.1b A multiplayer game has more players.

100.2. Headed Rule

100.2a Each player brings a deck.

101. Winning

101.1. A player with no cards left loses the game.

2. Turns

200. Steps

200.1. A turn has steps.
""",
    """\
Deck
The cards a player brings to the game. See rule 100.2a.

Turn
A sequence of steps. See rule 200.1.
""",
    intro="This document is a toy written for the tests.",
    credits="Written for the test suite.",
)


def run_cli(*args: str, env: dict[str, str | None] | None = None) -> Result:
    """Invoke the command in-process, stderr kept apart from stdout."""
    return CliRunner().invoke(main, list(args), env=env, catch_exceptions=False)


def one_error_line(result: Result, *, where: str) -> str:
    """The single ``rulediff: error: WHERE…`` line a user error must print."""
    assert result.exit_code == 2, (result.exit_code, result.stderr)
    lines = result.stderr.splitlines()
    assert len(lines) == 1, result.stderr
    assert "Traceback" not in result.stderr
    assert lines[0].startswith(f"rulediff: error: {where}"), lines[0]
    assert result.stdout_bytes == b""
    return lines[0]


@functools.cache
def _edition(path: str) -> Edition:
    return parse_file(path)


def _manifest(corpus_dir: Path) -> list[dict[str, str]]:
    with open(corpus_dir / "editions.tsv", encoding="utf-8", newline="") as handle:
        return list(csv.DictReader(handle, delimiter="\t"))


def _expected_text(data: bytes, encoding: str) -> str:
    """The normalized text, worked out here from the manifest's encoding column."""
    codec = {"utf-8-sig": "utf-8-sig", "utf-16-le": "utf-16", "utf-16-be": "utf-16"}.get(
        encoding, encoding
    )
    text = data.decode(codec)
    return text.replace("\r\n", "\n").replace("\r", "\n")


@pytest.fixture
def synthetic(tmp_path: Path) -> Path:
    path = tmp_path / "toy.txt"
    path.write_bytes(SYNTHETIC.encode("utf-8"))
    return path


@pytest.fixture
def latest_path(corpus_dir: Path) -> Path:
    return max(corpus_dir.glob("*.txt"))


# --- the command itself --------------------------------------------------------------
def test_help_lists_the_commands() -> None:
    result = run_cli("--help")
    assert result.exit_code == 0
    for name in ("parse", "show", "glossary"):
        assert re.search(rf"^\s+{name}\s", result.stdout, re.MULTILINE), name


def test_python_dash_m_runs_the_cli(synthetic: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "rulediff", "parse", str(synthetic), "--format", "text"],
        capture_output=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == SYNTHETIC.encode("utf-8")


@pytest.mark.parametrize(
    "args,phrase",
    [
        (["parse", "--no-such-option"], "no such option"),
        (["--no-such-option"], "no such option"),
        (["no-such-command"], "no such command"),
        (["parse"], "missing argument"),
        (["parse", "latest", "--format", "nope"], "invalid value for '--format'"),
        (["show", "100.1", "-e"], "requires an argument"),
    ],
)
def test_usage_errors_are_one_line_exit_2(args: list[str], phrase: str) -> None:
    result = run_cli(*args)
    line = one_error_line(result, where="rulediff")
    assert phrase in line.lower()


def test_bare_command_still_shows_its_help() -> None:
    result = CliRunner().invoke(main, [])
    assert "Usage:" in result.output and "parse" in result.output


# --- parse --------------------------------------------------------------------------------
def test_parse_json_of_a_synthetic_edition(synthetic: Path) -> None:
    result = run_cli("parse", str(synthetic))
    assert result.exit_code == 0, result.stderr
    doc = json.loads(result.stdout)
    jsonschema.Draft202012Validator(parse_schema()).validate(doc)
    assert doc["effective_date"] == "2031-03-03"
    assert doc["title"] == "Toy Game Comprehensive Rules"
    assert [r["id"] for r in doc["rules"]] == [
        "100", "100.1", "100.1a", "100.1b", "100.2", "100.2a", "101", "101.1", "200", "200.1",
    ]  # fmt: skip
    by_id = {r["id"]: r for r in doc["rules"]}
    assert by_id["100"]["title"] == "General" and by_id["100"]["parent"] == "1"
    assert by_id["100.2"]["title"] == "Headed Rule" and by_id["100.2"]["kind"] == "numbered"
    assert by_id["100.1"]["title"] is None
    assert by_id["100.1a"] == {
        "id": "100.1a",
        "label": "100.1a",
        "kind": "subrule",
        "title": None,
        "text": "A two-player game has two players.",
        "examples": ["Alice and Bob play a game."],
        "parent": "100.1",
        "line": SYNTHETIC.split("\n").index("100.1a A two-player game has two players.") + 1,
        "references": [],
        "clauses": [{"kind": "text", "start": 0, "end": 34}],
        "example_clauses": [
            {"references": [], "clauses": [{"kind": "text", "start": 0, "end": 26}]}
        ],
    }
    assert doc["sections"] == [
        {"id": "1", "title": "Basics", "line": SYNTHETIC.split("\n").index("1. Basics", 20) + 1},
        {"id": "2", "title": "Turns", "line": SYNTHETIC.split("\n").index("2. Turns", 20) + 1},
    ]
    assert [(g["term"], g["text"]) for g in doc["glossary"]] == [
        ("Deck", "The cards a player brings to the game. See rule 100.2a."),
        ("Turn", "A sequence of steps. See rule 200.1."),
    ]
    assert doc["has_credits"] is True
    assert doc["diagnostics"] == []


def test_parse_text_is_the_input_byte_for_byte(synthetic: Path, tmp_path: Path) -> None:
    # CRLF line ends, a BOM and no final newline: the rebuilt text is LF, no BOM, and
    # still has no final newline.
    raw = SYNTHETIC.rstrip("\n").replace("\n", "\r\n").encode("utf-8-sig")
    crlf = tmp_path / "crlf.txt"
    crlf.write_bytes(raw)
    result = run_cli("parse", str(crlf), "--format", "text")
    assert result.exit_code == 0, result.stderr
    assert result.stdout_bytes == SYNTHETIC.rstrip("\n").encode("utf-8")


def test_parse_writes_output_atomically(synthetic: Path, tmp_path: Path) -> None:
    target = tmp_path / "out" / "toy.json"
    target.parent.mkdir()
    result = run_cli("parse", str(synthetic), "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert result.stdout_bytes == b""
    assert target.read_bytes() == run_cli("parse", str(synthetic)).stdout_bytes
    assert sorted(p.name for p in target.parent.iterdir()) == ["toy.json"]  # no temp left


def test_parse_json_is_deterministic_whatever_the_path(synthetic: Path, tmp_path: Path) -> None:
    elsewhere = tmp_path / "sub" / "other-name.txt"
    elsewhere.parent.mkdir()
    shutil.copy(synthetic, elsewhere)
    first = run_cli("parse", str(synthetic)).stdout_bytes
    assert run_cli("parse", str(synthetic), "--no-cache").stdout_bytes == first
    assert run_cli("parse", str(elsewhere)).stdout_bytes == first


def test_truncated_edition_that_parses_is_accepted_with_diagnostics(tmp_path: Path) -> None:
    cut = tmp_path / "cut.txt"
    cut.write_text(SYNTHETIC[: SYNTHETIC.index("Glossary\n\nDeck")], encoding="utf-8")
    result = run_cli("parse", str(cut))
    assert result.exit_code == 0, result.stderr
    codes = {d["code"] for d in json.loads(result.stdout)["diagnostics"]}
    assert {"missing-glossary", "missing-credits"} <= codes
    warnings = result.stderr.splitlines()
    assert any("glossary" in w for w in warnings) and any("credits" in w for w in warnings)
    assert all(w.startswith(f"rulediff: warning: {cut}:") for w in warnings)


# --- bad input: one line, exit 2, nothing written -------------------------------------------
def _bad_inputs(tmp_path: Path) -> dict[str, tuple[Path, str]]:
    """name -> (path, a phrase the error must contain)."""
    out: dict[str, tuple[Path, str]] = {}

    def put(name: str, data: bytes, phrase: str) -> None:
        path = tmp_path / name
        path.write_bytes(data)
        out[name] = (path, phrase)

    put("empty.txt", b"", "empty")
    put("random.bin", random.Random(7).randbytes(4096), "binary")
    put("doc.pdf", b"%PDF-1.7\n%\xe2\xe3\xcf\xd3\n1 0 obj\n<< /Type /Catalog >>\nendobj\n", "PDF")
    put("letter.txt", b"Dear reader,\n\nthis is a letter, not a rules document.\n", "not a")
    contents_only = SYNTHETIC[: SYNTHETIC.index("Glossary\n")]
    put("contents-only.txt", contents_only.encode("utf-8"), "")
    folder = tmp_path / "a-folder"
    folder.mkdir()
    out["a-folder"] = (folder, "directory")
    out["missing.txt"] = (tmp_path / "missing.txt", "no such file")
    return out


BAD = ["empty.txt", "random.bin", "doc.pdf", "letter.txt", "contents-only.txt", "a-folder",
       "missing.txt"]  # fmt: skip


@pytest.mark.parametrize("name", BAD)
@pytest.mark.parametrize("fmt", ["json", "text"])
def test_bad_input_is_one_line_exit_2_and_writes_nothing(
    name: str, fmt: str, tmp_path: Path
) -> None:
    path, phrase = _bad_inputs(tmp_path)[name]
    target = tmp_path / "result.out"
    target.write_bytes(b"previous content")
    before = sorted(p.name for p in tmp_path.iterdir())
    result = run_cli("parse", str(path), "--format", fmt, "-o", str(target))
    line = one_error_line(result, where=str(path))
    assert phrase.lower() in line.lower()
    assert target.read_bytes() == b"previous content"
    assert sorted(p.name for p in tmp_path.iterdir()) == before


def test_bad_input_error_names_the_line(tmp_path: Path) -> None:
    path = tmp_path / "contents-only.txt"
    path.write_text(SYNTHETIC[: SYNTHETIC.index("Glossary\n")], encoding="utf-8")
    line = one_error_line(run_cli("parse", str(path)), where=str(path))
    assert re.match(rf"rulediff: error: {re.escape(str(path))}:\d+: ", line), line


def test_unreadable_file(synthetic: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    if os.geteuid() != 0:
        synthetic.chmod(0)
    else:  # root reads everything: make the open itself fail the way the OS would
        from rulediff import ingest

        real = os.open

        def denied(path: object, *args: object, **kwargs: object) -> int:
            if Path(path) == synthetic:  # type: ignore[arg-type]
                raise PermissionError(13, "Permission denied", str(path))
            return real(path, *args, **kwargs)  # type: ignore[arg-type]

        monkeypatch.setattr(ingest.os, "open", denied)
    line = one_error_line(run_cli("parse", str(synthetic)), where=str(synthetic))
    assert "permission denied" in line.lower()


def test_output_into_a_missing_folder(synthetic: Path, tmp_path: Path) -> None:
    target = tmp_path / "no" / "such" / "dir" / "x.json"
    line = one_error_line(run_cli("parse", str(synthetic), "-o", str(target)), where=str(target))
    assert "folder" in line
    assert not (tmp_path / "no").exists()


def test_internal_error_is_one_line_exit_3(
    synthetic: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom(_edition: Edition) -> str:
        raise RuntimeError("boom\nsecond line")

    monkeypatch.setattr(parse_commands, "edition_json", boom)
    target = tmp_path / "x.json"
    result = run_cli("parse", str(synthetic), "-o", str(target))
    assert result.exit_code == 3
    assert result.stderr.splitlines() == [
        "rulediff: internal error: RuntimeError: boom second line "
        "(rerun with 'rulediff --debug …' to see the traceback)"
    ]
    assert not target.exists()
    debug = run_cli("--debug", "parse", str(synthetic))
    assert debug.exit_code == 3
    assert "Traceback (most recent call last)" in debug.stderr
    assert debug.stderr.rstrip().endswith(
        "rulediff: internal error: RuntimeError: boom second line"
    )


def test_debug_shows_the_traceback_of_a_user_error(tmp_path: Path) -> None:
    result = run_cli("--debug", "parse", str(tmp_path / "missing.txt"))
    assert result.exit_code == 2
    assert "Traceback" in result.stderr
    assert result.stderr.splitlines()[-1].startswith("rulediff: error: ")


# --- real editions ------------------------------------------------------------------------
def _representative_editions(corpus_dir: Path) -> list[dict[str, str]]:
    """The first edition of every (encoding, line endings) pair, and the newest one."""
    rows = sorted(_manifest(corpus_dir), key=lambda r: r["date"])
    picked: dict[tuple[str, str], dict[str, str]] = {}
    for row in rows:
        picked.setdefault((row["encoding"], row["line_endings"]), row)
    chosen = {row["file"]: row for row in picked.values()}
    chosen[rows[-1]["file"]] = rows[-1]
    return sorted(chosen.values(), key=lambda r: r["date"])


def test_parse_text_round_trips_real_editions(corpus_dir: Path) -> None:
    rows = _representative_editions(corpus_dir)
    assert len({(r["encoding"], r["line_endings"]) for r in rows}) >= 3
    for row in rows:
        path = corpus_dir / row["file"]
        result = run_cli("parse", str(path), "--format", "text")
        assert result.exit_code == 0, (row["file"], result.stderr)
        expected = _expected_text(path.read_bytes(), row["encoding"]).encode("utf-8")
        assert result.stdout_bytes == expected, row["file"]


def test_parse_json_of_real_editions_follows_the_schema(corpus_dir: Path) -> None:
    validator = jsonschema.Draft202012Validator(parse_schema())
    for row in _representative_editions(corpus_dir)[:4] + _representative_editions(corpus_dir)[-1:]:
        path = corpus_dir / row["file"]
        result = run_cli("parse", str(path))
        assert result.exit_code == 0, (row["file"], result.stderr)
        doc = json.loads(result.stdout)
        validator.validate(doc)
        edition = _edition(str(path))
        assert doc["sha256"] == row["sha256"]
        assert doc["effective_date"] == edition.effective_date.isoformat()
        assert [r["id"] for r in doc["rules"]] == [str(r.id) for r in edition.rules]
        assert len(doc["glossary"]) == len(edition.glossary)
        # Every three-digit heading is in the list with its title; every parent exists.
        ids = {r["id"] for r in doc["rules"]} | {s["id"] for s in doc["sections"]}
        for rule in doc["rules"]:
            assert rule["parent"] in ids, rule["id"]
            if rule["kind"] == "rule":
                assert rule["title"], rule["id"]
        # Rules are in document order.
        lines = [r["line"] for r in doc["rules"]]
        assert lines == sorted(lines)


def test_parse_resolves_corpus_references(corpus_dir: Path, latest_path: Path) -> None:
    env = {"RULEDIFF_CORPUS": str(corpus_dir)}
    by_ref = run_cli("parse", "latest", env=env).stdout_bytes
    assert by_ref == run_cli("parse", str(latest_path)).stdout_bytes
    edition = _edition(str(latest_path))
    by_date = run_cli("parse", edition.effective_date.isoformat(), env=env)
    assert by_date.stdout_bytes == by_ref
    # --corpus wins over the environment, before or after the command.
    bogus = {"RULEDIFF_CORPUS": str(corpus_dir / "nowhere")}
    assert run_cli("parse", "latest", "--corpus", str(corpus_dir), env=bogus).stdout_bytes == by_ref
    assert run_cli("--corpus", str(corpus_dir), "parse", "latest", env=bogus).stdout_bytes == by_ref


def test_no_corpus_says_how_to_get_editions(tmp_path: Path) -> None:
    result = run_cli("show", "100.1", env={"RULEDIFF_CORPUS": str(tmp_path / "empty")})
    line = one_error_line(result, where=str(tmp_path / "empty"))
    assert "rulediff corpus import" in line and "rulediff corpus fetch" in line


def test_no_cache_neither_reads_nor_writes_the_cache(tmp_path: Path) -> None:
    # Bytes no other test parsed, so no in-process memo can answer for the disk cache.
    unique = tmp_path / "unique.txt"
    unique.write_text(SYNTHETIC.replace("a toy", f"a toy ({tmp_path.name})"), encoding="utf-8")
    cache = tmp_path / "cache"
    env = {"RULEDIFF_CACHE_DIR": str(cache)}
    assert run_cli("parse", str(unique), "--no-cache", env=env).exit_code == 0
    assert not cache.exists() or not any(p.is_file() for p in cache.rglob("*"))
    assert run_cli("parse", str(unique), env=env).exit_code == 0
    assert any(p.is_file() for p in cache.rglob("*"))


# --- show -------------------------------------------------------------------------------------
def test_show_synthetic_rule_with_subrules_and_examples(synthetic: Path) -> None:
    result = run_cli("show", "100.1", "--edition", str(synthetic))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == (
        "100.1. A game is played by two or more players.\n\n"
        "100.1a A two-player game has two players.\n"
        "Example: Alice and Bob play a game.\n\n"
        "100.1b A multiplayer game has more players.\n"
    )
    section = run_cli("show", "2", "-e", str(synthetic)).stdout
    assert section == "2. Turns\n\n200. Steps\n\n200.1. A turn has steps.\n"
    # Case and a trailing period do not matter.
    assert run_cli("show", "100.1A.", "-e", str(synthetic)).stdout.startswith("100.1a ")


@pytest.mark.parametrize(
    ("ref", "nearest"),
    [
        ("100.1c", "100.1a, 100.1b, 100.2a"),
        ("102", "100, 101, 200"),
        ("101.9", "100.2, 101.1, 200.1"),
    ],
)
def test_show_unknown_rule_names_the_nearest(synthetic: Path, ref: str, nearest: str) -> None:
    line = one_error_line(run_cli("show", ref, "-e", str(synthetic)), where=str(synthetic))
    assert line.endswith(f"no rule {ref} in the edition of 2031-03-03; nearest: {nearest}")


def test_show_rejects_what_is_not_a_rule_number(synthetic: Path) -> None:
    line = one_error_line(run_cli("show", "chapter-1", "-e", str(synthetic)), where=str(synthetic))
    assert "not a rule number" in line


def test_show_real_rule_matches_the_text(latest_path: Path) -> None:
    """Pick a numbered rule whose subrules have examples; check against the raw lines."""
    edition = _edition(str(latest_path))
    rule = next(
        r for r in edition.rules
        if r.kind == "numbered" and sum(len(c.examples) for c in edition.descendants(r.id)) >= 2
    )  # fmt: skip
    result = run_cli("show", str(rule.id), "-e", str(latest_path))
    assert result.exit_code == 0, result.stderr
    # Independently of the model: the subrule lines of the text, in order.
    text = edition.to_text()
    prefix = re.escape(str(rule.id))
    raw_subrules = re.findall(rf"^({prefix}[a-z]+) ", text, re.MULTILINE)
    shown = re.findall(r"^(\d{3}\.\d+[a-z]*)\.? ", result.stdout, re.MULTILINE)
    assert shown == [str(rule.id), *raw_subrules]
    shown_examples = [ln for ln in result.stdout.splitlines() if ln.startswith("Example")]
    assert len(shown_examples) == sum(len(c.examples) for c in edition.descendants(rule.id))


def test_show_defaults_to_the_latest_corpus_edition(corpus_dir: Path, tmp_path: Path) -> None:
    """A corpus of two editions: `show` without --edition reads the newer one."""
    files = sorted(corpus_dir.glob("*.txt"))
    older, newer = files[len(files) // 2], files[-1]
    small = tmp_path / "corpus"
    small.mkdir()
    for f in (older, newer):
        shutil.copy(f, small / f.name)
    rule = next(r for r in _edition(str(newer)).rules if r.kind == "numbered")
    expected = run_cli("show", str(rule.id), "-e", str(newer)).stdout_bytes
    assert run_cli("show", str(rule.id), "--corpus", str(small)).stdout_bytes == expected


# --- glossary ---------------------------------------------------------------------------------
def test_glossary_synthetic(synthetic: Path) -> None:
    result = run_cli("glossary", "dECK", "-e", str(synthetic))
    assert result.exit_code == 0, result.stderr
    assert result.stdout == "Deck\nThe cards a player brings to the game. See rule 100.2a.\n"


def test_glossary_unknown_term_names_the_nearest(synthetic: Path) -> None:
    line = one_error_line(run_cli("glossary", "Dekc", "-e", str(synthetic)), where=str(synthetic))
    assert "no glossary term 'Dekc'" in line and "nearest: 'Deck'" in line


def test_glossary_real_terms_any_case(latest_path: Path) -> None:
    edition = _edition(str(latest_path))
    for entry in edition.glossary[:: max(1, len(edition.glossary) // 5)]:
        result = run_cli("glossary", entry.term.swapcase(), "-e", str(latest_path))
        assert result.exit_code == 0, (entry.term, result.stderr)
        assert result.stdout == f"{entry.term}\n{entry.text}\n"
        misspelt = entry.term[:-1] if len(entry.term) > 4 else entry.term + "x"
        if edition.glossary_entry(misspelt) is None:
            miss = run_cli("glossary", misspelt, "-e", str(latest_path))
            assert repr(entry.term) in one_error_line(miss, where=str(latest_path))


def test_glossary_of_an_edition_without_one(tmp_path: Path) -> None:
    cut = tmp_path / "cut.txt"
    cut.write_text(SYNTHETIC[: SYNTHETIC.index("Glossary\n\nDeck")], encoding="utf-8")
    line = one_error_line(run_cli("glossary", "Deck", "-e", str(cut)), where=str(cut))
    assert "has no glossary" in line


# --- progress bars -------------------------------------------------------------------------------
def test_progress_bar_only_on_a_terminal(monkeypatch: pytest.MonkeyPatch, capsys) -> None:  # noqa: ANN001
    from rulediff.commands.common import progress

    def run() -> str:
        with progress("parsing", 10, minimum=8) as report:
            for done in range(10):
                report(done, item=f"e{done}")
        with progress("small", 3, minimum=8) as report:
            report(1)
        with progress("site") as report:
            report(1, 5, task="aligning")
            report(2, 4, task="writing")
        return capsys.readouterr().err

    monkeypatch.delenv("FORCE_COLOR", raising=False)
    monkeypatch.delenv("TTY_COMPATIBLE", raising=False)
    assert run() == ""  # stderr is not a terminal here: silent
    monkeypatch.setenv("FORCE_COLOR", "1")  # rich then treats stderr as a terminal
    err = run()
    assert "parsing e9" in err and "aligning" in err and "writing" in err
    assert "small" not in err  # fewer units than the minimum: no bar


# --- outputs: regular files or new names only ------------------------------------------------
def _special_outputs(tmp_path: Path) -> dict[str, Path]:
    fifo = tmp_path / "fifo"
    os.mkfifo(fifo)
    real = tmp_path / "real.json"
    real.write_bytes(b"kept")
    link = tmp_path / "link.json"
    link.symlink_to(real)
    dangling = tmp_path / "dangling.json"
    dangling.symlink_to(tmp_path / "nowhere.json")
    return {
        "fifo": fifo,
        "device": Path("/dev/null"),
        "stdout": Path("/dev/stdout"),
        "symlink": link,
        "dangling-symlink": dangling,
    }


@pytest.mark.parametrize("kind", ["fifo", "device", "stdout", "symlink", "dangling-symlink"])
def test_output_onto_a_special_file_is_refused(
    kind: str, synthetic: Path, tmp_path: Path
) -> None:
    target = _special_outputs(tmp_path)[kind]
    before = os.lstat(target) if os.path.lexists(target) else None
    line = one_error_line(run_cli("parse", str(synthetic), "-o", str(target)), where=str(target))
    assert "regular file" in line or "symbolic link" in line
    after = os.lstat(target)
    assert (after.st_mode, after.st_ino) == (before.st_mode, before.st_ino)
    assert (tmp_path / "real.json").read_bytes() == b"kept"
    assert not (tmp_path / "nowhere.json").exists()


@pytest.mark.parametrize("length", [200, 242, 250, 255])
def test_long_output_names_up_to_the_limit_work(
    length: int, synthetic: Path, tmp_path: Path
) -> None:
    target = tmp_path / ("n" * (length - 5) + ".json")
    assert len(target.name) == length
    result = run_cli("parse", str(synthetic), "-o", str(target))
    assert result.exit_code == 0, result.stderr
    assert json.loads(target.read_text(encoding="utf-8"))["rules"]
    assert sorted(p.name for p in tmp_path.iterdir()) == sorted(["toy.txt", target.name])


@pytest.mark.parametrize("length", [256, 400, 5000])
def test_over_long_output_name_is_exit_2_and_cut_short(
    length: int, synthetic: Path, tmp_path: Path
) -> None:
    target = tmp_path / ("n" * length)
    result = run_cli("parse", str(synthetic), "-o", str(target))
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulediff: error: ")
    assert "longer than 255" in lines[0] and len(lines[0]) < 400


@pytest.mark.parametrize("length", [256, 300, 4097, 20000])
@pytest.mark.parametrize("prefix", ["", "./", "@"])
def test_over_long_edition_reference_is_exit_2_one_short_line(
    length: int, prefix: str, tmp_path: Path
) -> None:
    result = run_cli("show", "100.1", "-e", prefix + "x" * length, "--corpus", str(tmp_path))
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulediff: error: "), result.stderr
    assert len(lines[0]) < 500


def test_edition_that_is_a_fifo_is_refused_without_hanging(tmp_path: Path) -> None:
    fifo = tmp_path / "edition.txt"
    os.mkfifo(fifo)
    line = one_error_line(run_cli("parse", str(fifo)), where=str(fifo))
    assert "not a regular file" in line


def test_edition_over_the_size_limit(synthetic: Path) -> None:
    result = run_cli("parse", str(synthetic), env={"RULEDIFF_MAX_INPUT_MB": "0.0001"})
    line = one_error_line(result, where=str(synthetic))
    assert "input limit" in line


def test_concatenated_edition_is_said_on_stderr(tmp_path: Path) -> None:
    doubled = tmp_path / "twice.txt"
    doubled.write_bytes(SYNTHETIC.encode("utf-8") * 2)
    result = run_cli("show", "100.1", "-e", str(doubled))
    assert result.exit_code == 0
    assert result.stderr.startswith(f"rulediff: warning: {doubled}:")
    assert "another document is appended" in result.stderr


# --- rule numbers are ASCII; a site that cannot be written is the place, not a bug -------------
@pytest.mark.parametrize("number", ["١٠٠.١", "１００.１", "۱۰۰.۱", "100.١"])
def test_non_ascii_digits_are_not_rule_numbers(synthetic: Path, number: str) -> None:
    result = run_cli("show", number, "-e", str(synthetic))
    line = one_error_line(result, where=str(synthetic))
    assert "not a rule number" in line


@pytest.mark.parametrize("how", ["not-writable", "write-fails"])
def test_site_into_an_unwritable_folder_is_exit_2(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, how: str
) -> None:
    from rulediff import site as site_module

    from .render_corpus import write_corpus

    corpus = write_corpus(tmp_path / "corpus")
    out = tmp_path / "site"
    out.mkdir()
    if how == "not-writable":
        real = os.access

        def no_write(p: object, mode: int, **kw: object) -> bool:
            if Path(p) == out and mode & os.W_OK:  # type: ignore[arg-type]
                return False  # what a read-only folder answers (root ignores chmod)
            return real(p, mode, **kw)  # type: ignore[arg-type]

        monkeypatch.setattr(os, "access", no_write)
    else:

        def denied(path: Path, data: bytes) -> None:
            raise PermissionError(13, "Permission denied", str(path))

        monkeypatch.setattr(site_module, "_write", denied)
    frozen = gc.get_freeze_count()
    result = run_cli("site", "-o", str(out), "--corpus", str(corpus), "-j", "1")
    assert result.exit_code == 2, result.stderr
    lines = result.stderr.splitlines()
    assert len(lines) == 1 and lines[0].startswith("rulediff: error: "), result.stderr
    assert str(out) in lines[0]
    # the build froze its editions for the collector; a failed build leaves none frozen
    assert gc.get_freeze_count() == frozen


@pytest.mark.parametrize("fmt", ["json"])
def test_json_output_escapes_every_control_character(tmp_path: Path, fmt: str) -> None:
    path = tmp_path / "del.txt"
    path.write_bytes(
        SYNTHETIC.replace("two or more players", "two or more\x7f players\x85").encode("utf-8")
    )
    result = run_cli("parse", str(path), "--format", fmt)
    assert result.exit_code == 0, result.stderr
    assert "\x7f" not in result.stdout and "\x85" not in result.stdout
    assert "\\u007f" in result.stdout and "\\u0085" in result.stdout
    doc = json.loads(result.stdout)
    assert any("\x7f" in rule["text"] for rule in doc["rules"])


# --- start-up: commands are imported when they run -------------------------------------
def test_command_table_short_help_is_each_commands_own() -> None:
    import importlib

    from rulediff.cli import COMMANDS

    for name, (module, attr, short) in COMMANDS.items():
        command = getattr(importlib.import_module(f"rulediff.commands.{module}"), attr)
        assert command.name == name
        assert command.get_short_help_str(limit=300) == short, name


def test_start_up_imports_no_command_library() -> None:
    """``--help`` lists every command without importing the parser, flags or networkx."""
    import subprocess
    import sys

    probe = (
        "import sys\nfrom rulediff.cli import run\ntry:\n    run(['--help'])\n"
        "except SystemExit:\n    pass\n"
        "heavy = sorted(m for m in sys.modules if m.split('.')[0] in ('lark', 'networkx', "
        "'jinja2', 'rapidfuzz') or m.startswith(('rulediff.flags', 'rulediff.parse', "
        "'rulediff.commands.diff')))\nprint('HEAVY', heavy)\n"
    )
    done = subprocess.run([sys.executable, "-c", probe], capture_output=True, text=True)
    assert "Commands:" in done.stdout and "cite-check" in done.stdout
    assert "HEAVY []" in done.stdout, done.stdout.splitlines()[-1]


def test_a_long_echoed_input_with_spaces_is_cut_too(synthetic: Path, tmp_path: Path) -> None:
    flags = tmp_path / "f.toml"
    flags.write_text('"' + "no such flag " * 2000 + '" = true\n', encoding="utf-8")
    result = run_cli("flags", "-e", str(synthetic), "--check-engine", str(flags))
    line = one_error_line(result, where=str(flags))
    assert "unknown flag 'no such flag no such flag" in line
    assert len(line) <= len("rulediff: error: ") + 600
