"""The document grammar on synthetic editions (both layouts, every oddity) and the corpus."""

from __future__ import annotations

import datetime as dt
import re
import textwrap

import pytest

from rulediff.errors import ParseError
from rulediff.ingest import ingest_file
from rulediff.parse import parse_file, parse_text

from .conftest import FIXTURES, corpus_dates, corpus_edition


def codes(edition) -> list[tuple[str, str | None]]:
    return [(d.code, d.rule) for d in edition.diagnostics]


# --- modern layout --------------------------------------------------------------------
@pytest.fixture(scope="module")
def modern():
    return parse_file(FIXTURES / "modern_small.txt")


def test_modern_header(modern) -> None:
    assert modern.title == "Widget Game Comprehensive Rules"
    assert modern.effective_date == dt.date(2031, 3, 3)


def test_modern_structure(modern) -> None:
    assert [str(r.id) for r in modern.rules] == [
        "100",
        "100.1",
        "100.1a",
        "100.1b",
        "100.2",
        "100.10",
        "101",
        "101.1",
        "101.1a",
        "101.1b",
        "101.1c",
        "200",
        "200.1",
    ]
    assert [(str(s.id), s.title) for s in modern.sections] == [("1", "Basics"), ("2", "Extras")]
    assert modern.rule("100").title == "General"
    assert modern.rule("101.1").title == "Tokens"  # a headed numbered rule
    assert modern.rule("100.1").title is None
    assert [r.kind for r in modern.rules[:4]] == ["rule", "numbered", "subrule", "subrule"]


def test_examples_attach_to_their_rule(modern) -> None:
    rule = modern.rule("100.1b")
    assert [e.text for e in rule.examples] == [
        "Three widgets sit at a table; that is a crowd game.",
        "Four widgets also make a crowd game.",
    ]
    assert modern.rule("100.2").examples == ()


def test_contents_table(modern) -> None:
    titles = [(str(c.id) if c.id else None, c.title) for c in modern.contents]
    assert titles[:3] == [("1", "Basics"), ("100", "General"), ("101", "Tokens")]
    assert (None, "Glossary") in titles and (None, "Credits") in titles


def test_glossary_entries(modern) -> None:
    widget = modern.glossary_entry("widget")
    assert widget.senses == (
        "1. A player of the widget game.",
        "2. An object shaped like a small gear.",
    )
    assert widget.text.splitlines()[-1] == 'See rule 100, "General."'
    assert [g.term for g in modern.glossary] == ["Crowd Game", "Widget"]


def test_subrule_with_period_is_recorded(modern) -> None:
    assert ("malformed-number", "101.1b") in codes(modern)
    assert modern.rule("101.1b").label == "101.1b."


def test_modern_round_trip(modern) -> None:
    assert modern.to_text() == (FIXTURES / "modern_small.txt").read_text(encoding="utf-8")


# --- old layout -------------------------------------------------------------------------
@pytest.fixture(scope="module")
def old():
    return parse_file(FIXTURES / "old_small.txt")


def test_old_layout_hard_wraps_are_undone(old) -> None:
    rule = old.rule("100.1")
    first, second = rule.text.split("\n")
    assert "split like this: see rule 101.1. The sentence then goes on." in first
    assert second.startswith("An indented follow-on paragraph")
    # the wrapped "101.1." line is text, not a second rule 101.1
    assert [str(r.id) for r in old.rules].count("101.1") == 1


def test_old_layout_oddities(old) -> None:
    found = codes(old)
    assert ("malformed-number", "100.2") in found  # no period after the number
    assert ("malformed-number", "101.1a") in found  # written "101. 1a"
    assert old.rule("101.1a").label == "101. 1a"
    assert old.effective_date == dt.date(2004, 7, 1)


def test_old_layout_glossary_paragraphs(old) -> None:
    entry = old.glossary_entry("Widget")
    lines = entry.text.split("\n")
    assert len(lines) == 2
    assert lines[1].endswith("is as follows: cog, gear.")


def test_old_credits_keep_what_follows(old) -> None:
    assert old.credits.endswith("Write to nobody at all.\n")
    assert old.to_text() == (FIXTURES / "old_small.txt").read_text(encoding="utf-8")


# --- oddities as data ---------------------------------------------------------------------
def _doc(body: str, glossary: str = "Glossary\n\nTerm\nA thing.\n\nCredits\n\nUs\n") -> str:
    return (
        "Widget Rules\n\nThese rules are effective as of May 1, 2030.\n\nContents\n\n"
        "1. Basics\n100. General\n\nGlossary\n\nCredits\n\n1. Basics\n\n" + body + "\n" + glossary
    )


def test_duplicate_numbers_are_diagnosed_not_fatal() -> None:
    ed = parse_text(_doc("100. General\n\n100.1. One.\n\n100.1. Again.\n"))
    assert ("duplicate-number", "100.1") in codes(ed)
    assert ed.rule("100.1").text == "One."
    assert len(ed.rules) == 3


def test_missing_rule_number_is_taken_from_the_rule_above() -> None:
    ed = parse_text(_doc("100. General\n\n100.3. Three.\n\n100.3a First.\n\n100.b Second.\n"))
    assert [str(r.id) for r in ed.rules] == ["100", "100.3", "100.3a", "100.3b"]
    assert ("malformed-number", "100.3b") in codes(ed)


def test_hard_wrap_that_looks_like_a_heading_is_text() -> None:
    body = (
        "100. General\n\n100.1. One costs a mana cost of\n0. Zero is fine; see rule\n"
        "101. Another, and a section\n1. That is not.\n\n100.2. Two.\n"
    )
    ed = parse_text(_doc(body))
    assert [str(r.id) for r in ed.rules] == ["100", "100.1", "100.2"]
    assert ed.rule("100.1").text.endswith("see rule 101. Another, and a section 1. That is not.")
    assert len(ed.sections) == 1
    assert ed.to_text() == _doc(body)


def test_glued_section_heading_listed_in_the_contents_is_a_section() -> None:
    """A copy that lost the blank line before a section heading (the 2014 DOCX copies)."""
    text = (
        "Widget Rules\n\nThese rules are effective as of May 1, 2030.\n\nContents\n\n"
        "1. Basics\n100. General\n2. More\n200. Other\n\nGlossary\n\nCredits\n\n"
        "1. Basics\n\n100. General\n\n100.1. One, with a period.\n2. More\n\n"
        "200. Other\n\n200.1. Two.\n\nGlossary\n\nTerm\nA thing.\n\nCredits\n\nUs\n"
    )
    ed = parse_text(text)
    assert [str(s.id) for s in ed.sections] == ["1", "2"]
    assert ed.rule("100.1").text == "One, with a period."
    assert ("glued-heading", None) in codes(ed)
    assert not [c for c in codes(ed) if c[0] == "missing-parent"]
    assert ed.to_text() == text


def test_glued_line_not_in_the_contents_stays_text() -> None:
    """The same shape with a heading the contents do not list is a hard-wrapped line."""
    text = (
        "Widget Rules\n\nThese rules are effective as of May 1, 2030.\n\nContents\n\n"
        "1. Basics\n100. General\n\nGlossary\n\nCredits\n\n"
        "1. Basics\n\n100. General\n\n100.1. One costs\n2. More\n\n"
        "200. Other\n\n200.1. Two.\n\nGlossary\n\nTerm\nA thing.\n\nCredits\n\nUs\n"
    )
    ed = parse_text(text)
    assert [str(s.id) for s in ed.sections] == ["1"]
    assert ed.rule("100.1").text == "One costs 2. More"
    assert ed.to_text() == text


def test_indented_rule_line_is_a_rule() -> None:
    """A rule line that starts with a space (some 2009 editions) is a rule, not stray text."""
    body = (
        "100. General\n\n100.1. One.\n\n100.1a First.\n\n 100.1b Second, indented.\n\n"
        "100.2. Two.\n"
    )
    ed = parse_text(_doc(body))
    assert [str(r.id) for r in ed.rules] == ["100", "100.1", "100.1a", "100.1b", "100.2"]
    assert ed.rule("100.1b").text == "Second, indented."
    assert ("malformed-number", "100.1b") in codes(ed)
    assert not [c for c in codes(ed) if c[0] == "stray-text"]
    assert ed.to_text() == _doc(body)


def test_rule_glued_to_its_text_after_a_period_is_a_rule() -> None:
    """A rule line whose space after the number was lost ("100.2.Two") is the rule it
    numbers, reported as malformed, not stray text of the rule above."""
    body = "100. General\n\n100.1. One.\n\n100.2.Two, glued.\n\n100.3. Three.\n"
    ed = parse_text(_doc(body))
    assert [str(r.id) for r in ed.rules] == ["100", "100.1", "100.2", "100.3"]
    assert ed.rule("100.2").text == "Two, glued."
    assert ("malformed-number", "100.2") in codes(ed)
    assert not [c for c in codes(ed) if c[0] == "stray-text"]
    assert ed.to_text() == _doc(body)


def test_a_decimal_or_lowercase_after_a_rule_number_is_not_a_glued_rule() -> None:
    """Only a period then a capital starts a glued rule: a wrapped line beginning with a
    number such as "100.5.5" or "100.2.and" stays text of its rule."""
    body = "100. General\n\n100.1. One,\n100.2.and more.\n\n100.3. Three.\n"
    ed = parse_text(_doc(body))
    assert [str(r.id) for r in ed.rules] == ["100", "100.1", "100.3"]
    assert ed.to_text() == _doc(body)


_GLUED_LINE = re.compile(r"^(\d{3}\.\d+[a-z]{0,2})\.[A-Z]", re.MULTILINE)


@pytest.mark.parametrize("date", corpus_dates())
def test_glued_rules_of_the_corpus_are_rules(date: str) -> None:
    """Every line of an edition that starts "NNN.N.Capital" (15 editions, 2022-10-07 to
    2025-02-07, write one rule so) is parsed as that rule and reported."""
    ed = corpus_edition(date)
    glued = _GLUED_LINE.findall(ed.to_text())
    for rule_id in glued:
        assert ed.rule(rule_id) is not None, rule_id
        assert ("malformed-number", rule_id) in codes(ed)


def test_orphan_subrule_is_diagnosed() -> None:
    ed = parse_text(_doc("100. General\n\n100.1. One.\n\n100.2b Orphan.\n"))
    assert ("missing-parent", "100.2b") in codes(ed)


def test_letters_l_and_o_are_read() -> None:
    ed = parse_text(_doc("100. General\n\n100.1. One.\n\n100.1k K.\n\n100.1l L.\n\n100.1o O.\n"))
    assert [str(r.id) for r in ed.rules][-3:] == ["100.1k", "100.1l", "100.1o"]


def test_placeholder_section_is_data() -> None:
    ed = parse_text(_doc("100. General\n\n101. This section is now empty. See rule 100.1.\n"))
    assert ed.rule("101").title is None
    assert ("empty-placeholder", "101") in codes(ed)


def test_stray_line_under_a_rule() -> None:
    ed = parse_text(_doc("100. General\n\n100.1. One.\nq\n100.2. Two.\n"))
    assert ed.rule("100.1").text == "One."
    assert ("stray-text", "100.1") in codes(ed)
    assert ed.to_text() == _doc("100. General\n\n100.1. One.\nq\n100.2. Two.\n")


def test_truncated_edition_parses_with_diagnostics() -> None:
    text = _doc("100. General\n\n100.1. One.\n", glossary="")
    ed = parse_text(text)
    assert {"missing-glossary", "missing-credits"} <= {c for c, _ in codes(ed)}
    assert ed.to_text() == text


def test_no_final_newline_round_trips() -> None:
    text = _doc("100. General\n\n100.1. One.\n").rstrip("\n")
    assert parse_text(text).to_text() == text


@pytest.mark.parametrize(
    "text",
    [
        "",
        "   \n\n",
        "Just a letter to a friend.\nNothing to see.\n",
        "Contents\n\nnothing numbered here\n",
    ],
)
def test_not_an_edition(text: str) -> None:
    with pytest.raises(ParseError):
        parse_text(text, source="x.txt")


def test_text_ending_in_the_contents_says_so() -> None:
    text = "Widget Rules\n\nContents\n\n1. Basics\n100. General\n"
    with pytest.raises(ParseError, match="ends before the rules begin") as info:
        parse_text(text, source="cut.txt")
    assert info.value.file == "cut.txt" and info.value.line


def test_parse_error_names_file_and_line() -> None:
    text = "Title\n\nContents\n\n1. Basics\n100. General\n\nGlossary\n\n1. Basics\n\n100.1. x\n"
    with pytest.raises(ParseError) as info:
        parse_text(text.replace("1. Basics\n\n100.1", "random words\n\n100.1"), source="x.txt")
    assert info.value.file == "x.txt" and info.value.line is not None


# --- every corpus edition -------------------------------------------------------------------
_CENSUS = re.compile(r"^(\d{3})\.(?:[ \t]?(\d+)([a-z]*))?\.?(?=\s|$)", re.MULTILINE)


def census(text: str) -> set[str]:
    """Rule numbers that start a line between the rules' first heading and the glossary.

    Computed independently of the grammar: the body starts after the contents table's
    "Credits" entry and ends at the second "Glossary" line.
    """
    lines = text.split("\n")
    glossary = [i for i, line in enumerate(lines) if line.strip() == "Glossary"]
    start = next(i for i, line in enumerate(lines) if line.strip() == "Credits")
    found: set[str] = set()
    for line in lines[start : glossary[1]]:
        m = _CENSUS.match(line)
        if m:
            found.add(m.group(1) + (f".{m.group(2)}{m.group(3)}" if m.group(2) else ""))
    return found


def test_corpus_is_there() -> None:
    assert len(corpus_dates()) >= 100, "RULEDIFF_CORPUS must point at the CR corpus"


@pytest.mark.parametrize("date", corpus_dates())
def test_corpus_edition_parses_and_round_trips(corpus_dir, date: str) -> None:
    path = corpus_dir / f"{date}.txt"
    edition = corpus_edition(date)
    assert edition.effective_date.isoformat() == date
    assert edition.to_text() == ingest_file(path).text
    assert edition.glossary and edition.credits
    assert not [
        d
        for d in edition.diagnostics
        if d.code in ("missing-glossary", "missing-credits", "appended-document")
    ]


@pytest.mark.parametrize("date", corpus_dates())
def test_corpus_rule_ids_match_line_census(date: str) -> None:
    edition = corpus_edition(date)
    ids = {str(r.id) for r in edition.rules}
    # numbers the parser had to repair ("306.b" under 306.3a) are named in a diagnostic
    repaired = {
        d.rule for d in edition.diagnostics if d.code == "malformed-number" and d.suggestion
    }
    expected = census(edition.to_text())
    assert ids - expected <= repaired
    assert expected <= ids


@pytest.mark.parametrize("date", corpus_dates())
def test_corpus_structure_is_sane(date: str) -> None:
    edition = corpus_edition(date)
    assert edition.sections[0].id.rule == 1
    assert len(edition.glossary) > 200
    # every rule's parent exists (a subrule never hangs in the air)
    missing = {str(r.id) for r in edition.rules if r.id.depth > 1 and r.id.parent not in edition}
    assert missing == {d.rule for d in edition.diagnostics if d.code == "missing-parent"}
    # the contents table names every section of the body
    toc_sections = {str(c.id) for c in edition.contents if c.id is not None and c.id.is_section}
    assert toc_sections == {str(s.id) for s in edition.sections}


@pytest.mark.parametrize("date", corpus_dates()[::3])
def test_corpus_edition_hard_wrapped_reads_the_same(date: str) -> None:
    """An unseen edition may be hard-wrapped like 2001-2004: wrapping must not change rules."""
    edition = corpus_edition(date)
    wrapped: list[str] = []
    for line in edition.to_text().split("\n"):
        if len(line) > 100:
            wrapped.extend(textwrap.wrap(line, 95, break_long_words=False, break_on_hyphens=False))
        else:
            wrapped.append(line)
    rewrapped = parse_text("\n".join(wrapped))

    def squash(s: str) -> str:
        return " ".join(s.split())

    assert [str(r.id) for r in rewrapped.rules] == [str(r.id) for r in edition.rules]
    differ = [
        str(a.id)
        for a, b in zip(edition.rules, rewrapped.rules, strict=True)
        if squash(a.text) != squash(b.text)
    ]
    assert differ == []


def test_a_duplicated_document_is_a_diagnostic_not_a_silent_drop() -> None:
    one = _doc("100. General\n\n100.1. One.\n\n100.2. Two.\n\n100.3. Three.\n")
    twice = parse_text(one + one)
    found = [d for d in twice.diagnostics if d.code == "appended-document"]
    assert len(found) == 1 and found[0].severity == "error"
    assert found[0].line == one.count("\n") + one[: one.index("100.1.")].count("\n") + 1
    assert "3 numbered rule lines" in found[0].message
    assert twice.to_text() == one + one  # nothing dropped from the model either
    assert not [d for d in parse_text(one).diagnostics if d.code == "appended-document"]
