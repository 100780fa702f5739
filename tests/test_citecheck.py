"""``rulediff cite-check``: citations in source files, checked against editions.

Source snippets and editions are written for these tests (not CR text).
"""

from __future__ import annotations

import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff import citecheck
from rulediff.citecheck import check, find_citations, scan, scan_all
from rulediff.cli import main
from rulediff.parse import parse_text

from .conftest import corpus_dates, corpus_edition
from .helpers import edition_text


def cited(text: str) -> list[tuple[int, int, str, str]]:
    return [(c.line, c.column, c.text, c.target) for c in find_citations(text)]


# --- finding citations -----------------------------------------------------------------------
def test_citation_forms_in_any_language() -> None:
    source = "\n".join(
        [
            "def legend_rule(game):  # CR 704.5j",
            "    pass  // see rule 702.36d and rules 601.2a-c",
            "int x; /* 613.4c */",
            "-- Comprehensive Rules 510.1c",
            "; C.R. 100.1",
        ]
    )
    assert [(c[0], c[3]) for c in cited(source)] == [
        (1, "704.5j"),
        (2, "702.36d"),
        (2, "601.2a"),
        (2, "601.2b"),
        (2, "601.2c"),
        (3, "613.4c"),
        (4, "510.1c"),
        (5, "100.1"),
    ]
    line1 = cited(source)[0]
    assert line1[1:3] == (27, "CR 704.5j")  # 1-based column of the citation


@pytest.mark.parametrize(
    "line",
    [
        'VERSION = "100.5.1"  # release 100.5.1',
        "ip = '192.168.100.1'  # host 192.168.100.1",
        "x = 702.36  # in code, not in a comment",
        "price = 100.25",
        "# 1000.5 is not a rule number either",
        "see section 4 of the manual  # section numbers are not rule citations",
    ],
)
def test_things_that_are_not_citations(line: str) -> None:
    assert cited(line) == []


def test_scan_walks_folders_and_skips_binaries(tmp_path: Path) -> None:
    (tmp_path / "src").mkdir()
    (tmp_path / "src" / "a.rs").write_text("// CR 704.5j\n", encoding="utf-8")
    (tmp_path / "src" / "b.bin").write_bytes(b"\0\0CR 704.5k")
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "c.txt").write_text("CR 704.5m\n", encoding="utf-8")
    assert [(Path(c.path).name, c.target) for c in scan([tmp_path])] == [("a.rs", "704.5j")]


# --- checking against editions -----------------------------------------------------------------
OLD = edition_text(
    """\
1. Basics

100. General

100.1. A game is played by two or more players.

100.1a A two-player game has two players.

100.1b A team game has teams of players who share a turn.

100.2. Each player shuffles their deck before the game begins.

100.3. Mulligans happen in an order decided by a coin toss at the start.
""",
    """\
Deck
The cards a player brings to the game. See rule 100.2.
""",
)

# 100.1a is inserted (100.1a→100.1b, 100.1b→100.1c); 100.3 is removed.
NEW = (
    OLD.replace("March 3, 2031", "May 5, 2032")
    .replace("100.1b A team game", "100.1c A team game")
    .replace(
        "100.1a A two-player game", "100.1a A solo game has one player.\n\n100.1b A two-player game"
    )
    .replace("100.3. Mulligans happen in an order decided by a coin toss at the start.\n\n", "")
)


def test_missing_renumbered_removed() -> None:
    old, new = parse_text(OLD, sha256=""), parse_text(NEW, sha256="")
    source = "// CR 100.1a\n// CR 100.1b\n// CR 100.2\n// CR 100.3\n// CR 100.9\n"
    citations = find_citations(source, "engine.c")
    assert [(f.code, f.citation.target) for f in check(citations, new)] == [
        ("missing", "100.3"),
        ("missing", "100.9"),
    ]
    findings = check(citations, new, old)
    assert [(f.code, f.citation.target, f.suggestion) for f in findings] == [
        ("renumbered", "100.1a", "100.1b"),  # 100.1a still exists: it names another rule now
        ("renumbered", "100.1b", "100.1c"),
        ("removed", "100.3", None),
        ("missing", "100.9", None),
    ]
    assert "now names another rule" in findings[0].message


def _cli(tmp_path: Path, *args: str) -> tuple[int, str]:
    for name, text in (("old.txt", OLD), ("new.txt", NEW)):
        (tmp_path / name).write_text(text, encoding="utf-8")
    result = CliRunner().invoke(main, [a.replace("DIR", str(tmp_path)) for a in args])
    return result.exit_code, result.stdout


def test_cite_check_command(tmp_path: Path) -> None:
    code_dir = tmp_path / "engine"
    code_dir.mkdir()
    (code_dir / "sba.py").write_text("# CR 100.1b\nx = 1  # 100.2\n", encoding="utf-8")
    code, out = _cli(tmp_path, "cite-check", "DIR/engine", "--edition", "DIR/new.txt")
    assert code == 0 and out.endswith("2 citations checked against 2032-05-05: 0 findings\n")
    code, out = _cli(
        tmp_path, "cite-check", "DIR/engine", "-e", "DIR/new.txt", "--from", "DIR/old.txt"
    )
    assert code == 1
    assert "sba.py:1:3: renumbered: 'CR 100.1b'" in out and "→ cite 100.1c" in out
    code, out = _cli(
        tmp_path, "cite-check", "DIR/engine", "-e", "DIR/new.txt", "--from", "DIR/old.txt",
        "--format", "json",
    )  # fmt: skip
    doc = json.loads(out)
    assert (doc["edition"], doc["from"], doc["citations"]) == ("2032-05-05", "2031-03-03", 2)
    assert doc["findings"][0]["suggestion"] == "100.1c"
    code, _ = _cli(tmp_path, "cite-check", "DIR/nowhere", "-e", "DIR/new.txt")
    assert code == 2


# --- the real corpus ---------------------------------------------------------------------------
def test_real_renumbering_2016_to_2024() -> None:
    dates = corpus_dates()
    if "2016-01-16" not in dates or "2024-11-08" not in dates:
        pytest.fail("the corpus lacks 2016-01-16 or 2024-11-08")
    old, new = corpus_edition("2016-01-16"), corpus_edition("2024-11-08")
    # 702.36 was Morph in 2016; Fear was inserted before it, and the legend rule moved.
    source = "// CR 702.36 morph\n// CR 704.5k legend rule\n// CR 704.5j\n"
    findings = check(find_citations(source), new, old)
    got = {(f.citation.target, f.code, f.suggestion) for f in findings}
    assert ("702.36", "renumbered", "702.37") in got
    assert ("704.5k", "renumbered", "704.5j") in got
    assert ("704.5j", "removed", None) in got  # 2016's planeswalker uniqueness rule


# --- a tree with unreadable entries, special files and large files ------------------------------
def _tree(tmp_path: Path) -> Path:
    root = tmp_path / "src"
    (root / "a").mkdir(parents=True)
    (root / "a" / "first.py").write_text("x = 1  # CR 100.1\n")
    (root / "b_dangling.py").symlink_to(root / "nowhere.py")
    (root / "c_loop1.py").symlink_to(root / "c_loop2.py")
    (root / "c_loop2.py").symlink_to(root / "c_loop1.py")
    os.mkfifo(root / "d_fifo.py")
    (root / "e_locked.py").write_text("y = 2  # CR 100.2\n")
    (root / "z_last.py").write_text("z = 3  # CR 999.9\n")
    return root


def _run(*args: str, tmp_path: Path) -> tuple[int, str, str]:
    edition = tmp_path / "ed.txt"
    edition.write_text(OLD, encoding="utf-8")
    result = CliRunner().invoke(main, ["cite-check", *args, "-e", str(edition)])
    return result.exit_code, result.stdout, result.stderr


def test_unreadable_entries_are_findings_and_the_scan_goes_on(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = _tree(tmp_path)
    locked = root / "e_locked.py"
    real = os.open

    def denied(path: object, *args: object, **kwargs: object) -> int:  # root ignores chmod
        if Path(path) == locked:  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", str(path))
        return real(path, *args, **kwargs)  # type: ignore[arg-type]

    monkeypatch.setattr(citecheck.os, "open", denied)
    code, out, err = _run(str(root), tmp_path=tmp_path)
    assert code == 1, err
    lines = out.splitlines()
    assert f"{root / 'b_dangling.py'}: unreadable: dangling symbolic link" in lines
    assert f"{root / 'c_loop1.py'}: unreadable: symbolic link loop" in lines
    assert f"{root / 'c_loop2.py'}: unreadable: symbolic link loop" in lines
    assert any(ln.startswith(f"{root / 'd_fifo.py'}: skipped: not a regular file") for ln in lines)
    assert f"{locked}: unreadable: Permission denied" in lines
    # files after the bad ones were still read: 999.9 is reported, 100.1 was checked
    assert any(ln.startswith(f"{root / 'z_last.py'}:1:") and "999.9" in ln for ln in lines)
    assert lines[-1].startswith("2 citations checked")


def test_unlistable_folder_is_a_finding(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    root = _tree(tmp_path)
    real = os.scandir

    def refuse(path: object = ".") -> object:
        if Path(path) == root / "a":  # type: ignore[arg-type]
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", refuse)
    code, out, _err = _run(str(root), tmp_path=tmp_path)
    assert code == 1
    assert f"{root / 'a'}: unreadable: Permission denied" in out.splitlines()


def test_a_large_file_is_streamed_not_skipped(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(citecheck, "CHUNK_BYTES", 4096)  # many pieces without a 5 MB file
    big = tmp_path / "big.py"
    filler = "".join(f"v{i} = {i}  # nothing cited here\n" for i in range(3000))
    big.write_text(filler + "w = 1  # CR 999.9\n" + filler + "q = 2  # CR 100.1\n")
    result = scan_all([big])
    assert result.problems == []
    assert [(c.line, c.target) for c in result.citations] == [(3001, "999.9"), (6002, "100.1")]


def test_a_file_over_the_scan_limit_is_reported(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(citecheck, "MAX_SCAN_BYTES", 100)
    big = tmp_path / "big.py"
    big.write_text("# CR 100.1\n" * 20)
    code, out, _err = _run(str(big), tmp_path=tmp_path)
    assert code == 1
    assert out.splitlines()[0].startswith(f"{big}: skipped: ")


def test_a_binary_named_directly_is_reported_but_not_in_a_folder(tmp_path: Path) -> None:
    folder = tmp_path / "f"
    folder.mkdir()
    (folder / "image.png").write_bytes(b"\x89PNG\0\0\0 CR 100.1")
    assert scan_all([folder]).problems == []
    named = scan_all([folder / "image.png"]).problems
    assert [(p.code, p.message) for p in named] == [("skipped", "binary")]


def test_findings_json_lists_file_problems(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    code, out, _err = _run(str(root / "b_dangling.py"), "--format", "json", tmp_path=tmp_path)
    assert code == 1
    doc = json.loads(out)
    assert doc["findings"][0]["code"] == "unreadable" and doc["findings"][0]["line"] == 0


@pytest.mark.parametrize("line", ["# CR ٧٠٤.٥j", "// rule ７０４.５j", "# ٧٠٤.٥", "-- CR 7٠4.5"])
def test_non_ascii_digits_are_not_citations(line: str) -> None:
    assert cited(line) == []
