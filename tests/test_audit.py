"""``rulediff audit``: every code on a synthetic edition (a case that is found and a case
that is right), the command's formats and exit codes, and the real corpus.

The synthetic editions are written for these tests (not CR text).
"""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff.audit import CODES, audit, meets, title_key
from rulediff.cli import main
from rulediff.model import Diagnostic, Edition
from rulediff.parse import parse_text
from rulediff.render.audit import audit_html

from .conftest import corpus_dates, corpus_edition
from .helpers import toy_edition

CLEAN = """\
1. Basics

100. General

100.1. A game is played by two or more players. See rule 101, “Winning.”

100.1a A two-player game has two players (see rules 100.1b–c).

100.1b A team game has teams.

100.1c A free-for-all game has no teams.

100.2. Players follow rule 101.1 and section 2.

101. Winning

101.1. A player with no cards left loses the game.

2. Turns

200. Steps

200.1. A turn has steps. See rule 100, “General.”
"""

GLOSSARY = """\
Deck
The cards a player brings to the game. See rule 100.1.
"""


def toy(rules: str = CLEAN, *, glossary: str = GLOSSARY, contents: str | None = None) -> Edition:
    """An edition in the modern layout around ``rules`` (contents from the headings)."""
    return toy_edition(rules, glossary, contents=contents)


def found(edition: Edition, code: str) -> list[Diagnostic]:
    return [f for f in audit(edition) if f.code == code]


def test_a_right_edition_has_no_findings() -> None:
    assert audit(toy()) == []


# --- one positive and one negative case per code -------------------------------------------------
def test_dangling_reference() -> None:
    rules = CLEAN.replace(
        "Players follow rule 101.1 and section 2.",
        "A player with no cards left loses the game (rule 101.7).",
    )
    (f,) = found(toy(rules), "dangling-reference")
    assert (f.severity, f.rule, f.target) == ("error", "100.2", "101.7")
    assert f.suggestion == "101.1"  # one keystroke away, and the text agrees
    # a near number whose text has nothing to do with the citing rule is not suggested
    unrelated = CLEAN.replace("Players follow rule 101.1", "Players follow rule 101.7")
    (f,) = found(toy(unrelated), "dangling-reference")
    assert f.suggestion is None
    assert found(toy(), "dangling-reference") == []


def test_dangling_section_and_range_ends() -> None:
    edition = toy(CLEAN.replace("and section 2.", "and section 7.").replace("100.1b–c", "100.1b–e"))
    assert [(f.target) for f in found(edition, "dangling-reference")] == ["100.1e", "7"]


def test_glossary_dangling() -> None:
    edition = toy(glossary=GLOSSARY.replace("See rule 100.1.", "See rule 100.8."))
    (f,) = found(edition, "glossary-dangling")
    assert (f.rule, f.target, f.severity) == ("glossary:Deck", "100.8", "error")
    assert found(toy(), "glossary-dangling") == []


def test_title_mismatch_suggests_the_rule_carrying_the_title() -> None:
    rules = CLEAN + "\n102. Losing\n\n102.1. A player can lose.\n"
    edition = toy(rules.replace("See rule 101, “Winning.”", "See rule 101, “Losing.”"))
    (f,) = found(edition, "title-mismatch")
    assert (f.rule, f.target, f.suggestion) == ("100.1", "101", "102")
    # no rule carries the quoted title: suggest the target's own heading
    edition = toy(CLEAN.replace("“Winning.”", "“Victory.”"))
    (f,) = found(edition, "title-mismatch")
    assert f.suggestion == "Winning"


@pytest.mark.parametrize(
    "quoted",
    ['"Winning."', "“Winning,”", "“Winning;”", "“winning.”", "?Winning.?", '"Winning"'],
)
def test_typography_is_not_a_title_mismatch(quoted: str) -> None:
    edition = toy(CLEAN.replace("“Winning.”", quoted))
    assert found(edition, "title-mismatch") == []


def test_malformed_reference() -> None:
    edition = toy(CLEAN.replace("Players follow rule 101.1", "Players follow rule 1011"))
    (f,) = found(edition, "malformed-reference")
    assert (f.target, f.suggestion) == ("1011", "101.1")
    assert found(toy(), "malformed-reference") == []


def test_self_reference() -> None:
    edition = toy(
        CLEAN.replace(
            "100.1b A team game has teams.", "100.1b A team game has teams (rule 100.1b)."
        )
    )
    (f,) = found(edition, "self-reference")
    assert (f.rule, f.severity) == ("100.1b", "info")
    assert found(toy(), "self-reference") == []  # citing a parent or a child is fine


def test_placeholder_reference() -> None:
    rules = CLEAN.replace(
        "101.1. A player with no cards left loses the game.",
        "101.1. This section is now empty.",
    )
    (f,) = found(toy(rules), "placeholder-reference")
    assert (f.rule, f.target) == ("100.2", "101.1")
    assert found(toy(), "placeholder-reference") == []


def test_numbering_gap() -> None:
    edition = toy(CLEAN.replace("100.1c A free", "100.1e A free"))
    (f,) = found(edition, "numbering-gap")
    assert (f.rule, f.target) == ("100.1e", "100.1c")
    assert "100.1c–100.1d are missing" in f.message
    rules = CLEAN.replace("100.2. Players", "100.4. Players")
    (f,) = found(toy(rules), "numbering-gap")
    assert "100.2–100.3 are missing" in f.message
    assert found(toy(), "numbering-gap") == []


def test_skipped_letters_are_not_a_gap_and_l_is_reported() -> None:
    subrules = "\n\n".join(f"100.1{c} Subrule {c}." for c in "abcdefghijkmnp")
    rules = CLEAN.replace(
        "100.1a A two-player game has two players (see rules 100.1b–c).\n\n"
        "100.1b A team game has teams.\n\n100.1c A free-for-all game has no teams.",
        subrules,
    )
    edition = toy(rules)
    assert found(edition, "numbering-gap") == [] and found(edition, "skipped-letter") == []
    (f,) = found(toy(rules.replace("100.1m Subrule m.", "100.1l Subrule l.")), "skipped-letter")
    assert (f.rule, f.severity) == ("100.1l", "warning")


def test_numbering_order() -> None:
    rules = CLEAN.replace("100.1b A team", "100.1x A team")
    codes = {f.code: f for f in audit(toy(rules))}
    assert codes["numbering-order"].rule == "100.1c"
    assert found(toy(), "numbering-order") == []


def test_duplicate_number() -> None:
    rules = CLEAN.replace("100.1c A free", "100.1b A free")
    (f,) = found(toy(rules), "duplicate-number")
    assert (f.rule, f.severity) == ("100.1b", "error")
    assert found(toy(rules), "numbering-order") == []  # the duplicate does not cascade


def test_a_title_of_the_second_rule_of_a_number_printed_twice_is_no_mismatch() -> None:
    # Two headings printed under one number (as 2024-09-20 printed two keywords as
    # 702.175): a reference quoting the second one's title names a rule of that number.
    twice = CLEAN + "\n101. Drawing\n\n101.1. A player draws a card each turn.\n"
    edition = toy(twice.replace("See rule 101, “Winning.”", "See rule 101, “Drawing.”"))
    assert [f.rule for f in found(edition, "duplicate-number")] == ["101", "101.1"]
    assert found(edition, "title-mismatch") == []
    # a title neither rule of the number carries is still a mismatch
    edition = toy(twice.replace("See rule 101, “Winning.”", "See rule 101, “Losing.”"))
    (f,) = found(edition, "title-mismatch")
    assert f.target == "101"


def test_malformed_number_glued_and_spaced() -> None:
    rules = CLEAN.replace(
        "101.1. A player with no cards left loses the game.",
        "101.1. A player with no cards left loses the game.\n101.2.Glued rule text here.",
    )
    (f,) = found(toy(rules), "malformed-number")
    assert f.rule == "101.2" and "without a space" in f.message
    assert found(toy(rules), "numbering-gap") == []
    spaced = CLEAN.replace("100.1c A free", "100. 1c A free")
    assert [f.rule for f in found(toy(spaced), "malformed-number")] == ["100.1c"]
    assert found(toy(), "malformed-number") == []


def test_contents_mismatch() -> None:
    contents = "1. Basics\n100. General\n101. Victory\n102. Losing\n2. Turns\n200. Steps"
    findings = found(toy(contents=contents), "contents-mismatch")
    assert [(f.rule, f.suggestion) for f in findings] == [("101", "Winning"), ("102", None)]
    missing = "1. Basics\n100. General\n2. Turns\n200. Steps"
    (f,) = found(toy(contents=missing), "contents-mismatch")
    assert f.rule == "101" and "not in the contents" in f.message
    assert found(toy(), "contents-mismatch") == []


def test_parser_diagnostics_are_surfaced() -> None:
    truncated = toy().to_text().split("\nGlossary\n\nDeck")[0]
    codes = {f.code for f in audit(parse_text(truncated + "\n"))}
    assert {"missing-glossary", "missing-credits"} <= codes
    odd = CLEAN.replace(
        "101.1. A player with no cards left loses the game.",
        "101.1. This section is now empty.\n\n101.2a A subrule without its rule.",
    )
    codes = {f.code for f in audit(toy(odd))}
    assert {"empty-placeholder", "missing-parent"} <= codes
    assert not {"empty-placeholder", "missing-parent", "missing-glossary"} & {
        f.code for f in audit(toy())
    }


def test_title_key_ignores_only_typography() -> None:
    assert title_key("“State-Based Actions.”") == title_key('"state based actions"')
    assert title_key("Jace?s Thing") == title_key("Jace’s Thing")
    assert title_key("Land") != title_key("Lands")


def test_every_code_is_documented() -> None:
    from rulediff.audit import MEANINGS

    assert set(CODES) == set(MEANINGS)


# --- the command -------------------------------------------------------------------------------
def _write(tmp_path: Path, name: str, edition: Edition) -> Path:
    path = tmp_path / name
    path.write_text(edition.to_text(), encoding="utf-8")
    return path


def test_audit_command_formats_and_exit_codes(tmp_path: Path) -> None:
    bad = _write(tmp_path, "bad.txt", toy(CLEAN.replace("rule 101.1 and", "rule 101.7 and")))
    good = _write(tmp_path, "good.txt", toy())
    runner = CliRunner()
    result = runner.invoke(main, ["audit", str(bad)])
    assert result.exit_code == 0 and "dangling-reference" in result.stdout
    assert runner.invoke(main, ["audit", str(bad), "--fail-on", "error"]).exit_code == 1
    assert runner.invoke(main, ["audit", str(bad), "--fail-on", "warning"]).exit_code == 1
    assert runner.invoke(main, ["audit", str(good), "--fail-on", "warning"]).exit_code == 0
    doc = json.loads(runner.invoke(main, ["audit", str(bad), "--format", "json"]).stdout)
    assert list(doc) == ["edition", "findings"] and doc["edition"] == "2031-03-03"
    (finding,) = doc["findings"]
    assert {"code", "severity", "rule", "target", "message", "suggestion"} <= set(finding)
    assert runner.invoke(main, ["audit"]).exit_code == 2  # neither EDITION nor --all
    assert runner.invoke(main, ["audit", str(tmp_path / "none.txt")]).exit_code == 2


def test_fail_on_warning_is_met_by_a_warning_only(tmp_path: Path) -> None:
    path = _write(tmp_path, "w.txt", toy(CLEAN.replace("“Winning.”", "“Victory.”")))
    runner = CliRunner()
    assert runner.invoke(main, ["audit", str(path), "--fail-on", "error"]).exit_code == 0
    assert runner.invoke(main, ["audit", str(path), "--fail-on", "warning"]).exit_code == 1
    assert meets(Diagnostic("x", "error", "m"), "warning")
    assert not meets(Diagnostic("x", "info", "m"), "warning")


def test_html_is_escaped_standalone_and_deterministic(tmp_path: Path) -> None:
    edition = toy(CLEAN.replace("“Winning.”", "“<script>alert(1)</script>.”"))
    page = audit_html(edition, audit(edition))
    assert "<script>alert" not in page and "&lt;script&gt;" in page
    assert "http://" not in page and "https://" not in page and "<style>" in page
    assert page == audit_html(edition, audit(edition))
    out = tmp_path / "audit.html"
    result = CliRunner().invoke(
        main, ["audit", str(_write(tmp_path, "e.txt", edition)), "--format", "html", "-o", str(out)]
    )
    assert result.exit_code == 0 and out.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_audit_all_over_a_small_corpus(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    _write(corpus, "a.txt", toy())
    later = toy(CLEAN.replace("rule 101.1 and", "rule 101.7 and")).to_text()
    (corpus / "b.txt").write_text(later.replace("March 3, 2031", "May 5, 2032"), encoding="utf-8")
    runner = CliRunner()
    result = runner.invoke(main, ["audit", "--all", "--corpus", str(corpus)])
    assert result.exit_code == 0
    lines = result.stdout.splitlines()
    assert lines[0].startswith("| edition | errors | warnings | info | dangling-reference")
    assert lines[2].startswith("| 2031-03-03 | 0 | 0 | 0 |")
    assert lines[3].startswith("| 2032-05-05 | 1 | 0 | 0 | 1")
    fail = runner.invoke(main, ["audit", "--all", "--corpus", str(corpus), "--fail-on", "error"])
    assert fail.exit_code == 1
    doc = json.loads(
        runner.invoke(main, ["audit", "--all", "--corpus", str(corpus), "--format", "json"]).stdout
    )
    assert [e["edition"] for e in doc["editions"]] == ["2031-03-03", "2032-05-05"]


# --- the real corpus ---------------------------------------------------------------------
@pytest.mark.parametrize("date", corpus_dates())
def test_audit_runs_on_every_edition(date: str) -> None:
    findings = audit(corpus_edition(date))
    assert all(f.code in CODES for f in findings)
    assert all(f.severity in ("error", "warning", "info") for f in findings)


def _has(date: str, code: str, rule: str, target: str | None, suggestion: str | None) -> bool:
    return any(
        (f.code, f.rule, f.target, f.suggestion) == (code, rule, target, suggestion)
        for f in audit(corpus_edition(date))
    )


@pytest.mark.parametrize(
    ("date", "code", "rule", "target", "suggestion"),
    [
        # checked by hand against the text of each edition (see the README)
        ("2024-03-08", "title-mismatch", "502.2", "727", "728"),  # "Day and Night" is 728
        (
            "2024-11-08",
            "glossary-dangling",
            "glossary:Map",
            "110.10",
            "111.10",
        ),  # tokens are 111.10
        ("2017-01-20", "dangling-reference", "702.123d", "903.11a", "903.10a"),
        ("2009-07-11", "dangling-reference", "605.3b", "405.3c", "405.6c"),
        ("2010-04-23", "title-mismatch", "107.8", "701", "710"),  # "Leveler Cards" is 710
        ("2025-06-06", "title-mismatch", "glossary:Endure", "702.62", "701.63"),
        ("2006-02-01", "malformed-reference", "502.46a", "4091f", "409.1f"),
        ("2024-11-08", "malformed-number", "901.4", None, "901.4. All plane and ph…"),
    ],
)
def test_real_errors_are_found(
    date: str, code: str, rule: str, target: str | None, suggestion: str | None
) -> None:
    if date not in corpus_dates():
        pytest.fail(f"the corpus has no edition {date}")
    assert _has(date, code, rule, target, suggestion)


def test_newest_edition_has_no_errors() -> None:
    findings = audit(corpus_edition(corpus_dates()[-1]))
    assert [f for f in findings if f.severity == "error"] == []


def test_html_stylesheet_is_not_escaped() -> None:
    """The inlined stylesheet is CSS, not HTML text: its quotes stay quotes (they were
    printed as ``&#34;``, which broke the font rules)."""
    edition = toy()
    page = audit_html(edition, audit(edition))
    style = page.split("<style>", 1)[1].split("</style>", 1)[0]
    assert '"' in style and "&#34;" not in style and "&amp;" not in style
