"""The clause grammar: every reference form, symbols, quotes, definitions, lists,
conditions; offsets; never failing; and, over the real corpus, a recall census.

The snippets are written for these tests in the CR's style (not copied CR text).
"""

from __future__ import annotations

import dataclasses
import hashlib
import io
import logging
import random
import re

import pytest
from lark import Lark
from lark import logger as lark_logger

from rulediff import cache
from rulediff import clauses as clauses_module
from rulediff.clauses import (
    clause_grammar,
    compute_edition_clauses,
    compute_edition_targets,
    edition_clauses,
    edition_texts,
    iter_references,
    list_lead,
    lists,
    parse_clauses,
    parse_whole,
    references,
    rule_clauses,
    rule_clauses_json,
    use_edition_targets,
    written_targets,
)
from rulediff.model import Clause, Edition, Rule
from rulediff.parse import parse_text

from .conftest import corpus_dates, corpus_edition
from .helpers import edition_text


def targets(text: str) -> list[str]:
    return [r.target for r in references(text)]


def non_text(text: str) -> list[tuple[str, str]]:
    return [(c.kind, text[c.start : c.end]) for c in parse_clauses(text) if c.kind != "text"]


# --- the grammar itself ------------------------------------------------------------------
def test_grammar_has_no_lalr_conflicts() -> None:
    # Lark resolves a shift/reduce conflict silently unless asked: ask, and read the log.
    buffer = io.StringIO()
    handler = logging.StreamHandler(buffer)
    lark_logger.addHandler(handler)
    old_level = lark_logger.level
    lark_logger.setLevel(logging.DEBUG)
    try:
        Lark(
            clause_grammar(),
            parser="lalr",
            lexer="contextual",
            debug=True,
        )
    finally:
        lark_logger.removeHandler(handler)
        lark_logger.setLevel(old_level)
    assert "conflict" not in buffer.getvalue().lower()


# --- every reference form -------------------------------------------------------------------
@pytest.mark.parametrize(
    ("text", "expected", "phrase"),
    [
        ("as described in rule 601.", ["601"], "rule 601"),
        ("follow rule 601.2f exactly", ["601.2f"], "rule 601.2f"),
        ("See rules 118.8 and 118.9.", ["118.8", "118.9"], "rules 118.8 and 118.9"),
        (
            "rules 103.2, 103.3, and 103.4 apply",
            ["103.2", "103.3", "103.4"],
            "rules 103.2, 103.3, and 103.4",
        ),
        ("rule 702.15 or 702.16 applies", ["702.15", "702.16"], "rule 702.15 or 702.16"),
        ("see rule 702.47.", ["702.47"], "rule 702.47"),
        ("Rule 103.3 says so.", ["103.3"], "Rule 103.3"),
        ("(see section 4)", ["4"], "section 4"),
        ("see 805.8. For more", ["805.8"], "see 805.8"),
        (
            "those steps (see 601.2b and 601.2f–h)",
            ["601.2b", "601.2f", "601.2g", "601.2h"],
            "see 601.2b and 601.2f–h",
        ),
        ("the instructions in rules 608.3a and b are", ["608.3a", "608.3b"], "rules 608.3a and b"),
        ("as in subrule 704.5k of the text", ["704.5k"], "subrule 704.5k"),
    ],
)
def test_reference_forms(text: str, expected: list[str], phrase: str) -> None:
    refs = references(text)
    assert [r.target for r in refs] == expected
    assert {r.text for r in refs} == {phrase}
    for ref in refs:
        assert text[ref.start : ref.end] == ref.text


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("rules 800–810", [str(n) for n in range(800, 811)]),
        ("rules 601.2a–h", [f"601.2{c}" for c in "abcdefgh"]),
        ("rules 702.19j–q", ["702.19j", "702.19k", "702.19m", "702.19n", "702.19p", "702.19q"]),
        ("rules 903.3–903.5", ["903.3", "903.4", "903.5"]),
        ("rules 119.7–8", ["119.7", "119.8"]),
        ("rules 409.1a-409.1c", ["409.1a", "409.1b", "409.1c"]),
        ("rules 306-311", [str(n) for n in range(306, 312)]),
        ("rules 903.3 through 903.5", ["903.3", "903.4", "903.5"]),
    ],
)
def test_ranges_expand_to_every_member_skipping_l_and_o(text: str, expected: list[str]) -> None:
    refs = references(text)
    assert [r.target for r in refs] == expected
    assert [r.implied for r in refs] == [False] + [True] * (len(expected) - 2) + [False]


def test_quoted_titles_in_every_quote_style() -> None:
    curly = references("See rule 704, “State-Based Actions.”")
    straight = references('See rule 704, "State-Based Actions."')
    lost = references("See rule 704, ?State-Based Actions.?")  # a file that lost its quotes
    for refs in (curly, straight, lost):
        assert [(r.target, r.title, r.text) for r in refs] == [
            ("704", "State-Based Actions", "rule 704")
        ]
    # the title belongs to the number right before it
    refs = references("See section 1, “General,” and section 2, “Parts of a Card.”")
    assert [(r.target, r.title) for r in refs] == [("1", "General"), ("2", "Parts of a Card")]
    assert [r.kind for r in refs] == ["section", "section"]
    # trailing punctuation inside the quotes is the sentence's, not the title's
    assert references("rule 717, “Attraction Cards;” and")[0].title == "Attraction Cards"
    assert references("rule 702.179, “Start Your Engines!”")[0].title == "Start Your Engines!"


def test_slips_are_kept_as_malformed_references() -> None:
    refs = references("the costs in rules 409.1b and 4091f-h apply, see rule 419,8")
    assert [(r.target, r.malformed) for r in refs] == [
        ("409.1b", False),
        ("4091f", True),
        ("419.8", True),
    ]


@pytest.mark.parametrize(
    "text",
    [
        "the rule of law applies to rules in general",
        "see the rules above",
        "put 3, 4, or 5 counters on it",
        "rule 5 is not a rule number here",
        "If you see 2 cards, draw one.",
        "version 2.5 was released, 1000.5 is too long and so is 100.52.1",
        "a 1/1 token with power 100",
    ],
)
def test_text_that_cites_nothing(text: str) -> None:
    assert references(text) == ()


def test_a_dotted_number_without_keyword_is_a_reference() -> None:
    """The CR cites rules by bare number too ("the steps described in 409.1a–409.1h",
    "an exception to 613.10"): over a thousand such citations in the corpus, every one a
    rule. Each written number carries its own span."""
    text = "Do the steps in 616.1a–d, then proceed to 616.1e; an exception to 613.10."
    refs = references(text)
    assert [(r.target, r.implied) for r in refs] == [
        ("616.1a", False),
        ("616.1b", True),
        ("616.1c", True),
        ("616.1d", False),
        ("616.1e", False),
        ("613.10", False),
    ]
    written = [text[r.target_start : r.target_end] for r in refs if not r.implied]
    assert written == ["616.1a", "d", "616.1e", "613.10"]
    assert [r.text for r in refs if not r.implied] == ["616.1a–d", "616.1a–d", "616.1e", "613.10"]
    assert all(r.bare for r in refs)
    assert not any(r.bare for r in references("See rule 616.1e and 613.10."))
    assert all(r.target_start == r.target_end == -1 for r in refs if r.implied)
    # titled members of a list ("rules 702.109, “Dash,” 702.152, “Blitz”") keep their titles
    titled = references("(See rules 702.109, “Dash,” and 702.152, “Blitz.”)")
    assert [(r.target, r.title) for r in titled] == [("702.109", "Dash"), ("702.152", "Blitz")]


def test_a_question_mark_printed_for_a_dash_still_makes_a_range() -> None:
    refs = references("Rules 212.2h?k apply, see rule 502.65, ?Fortify.?")
    assert [(r.target, r.implied) for r in refs] == [
        ("212.2h", False),
        ("212.2i", True),
        ("212.2j", True),
        ("212.2k", False),
        ("502.65", False),
    ]
    assert refs[-1].title == "Fortify"
    lost = references("the steps in 409.1a\ufffd409.1c are done")  # a replacement character
    assert [(r.target, r.implied) for r in lost] == [
        ("409.1a", False),
        ("409.1b", True),
        ("409.1c", False),
    ]


def test_every_written_target_has_the_span_of_its_number() -> None:
    text = "See rules 103.2, 103.3, and 103.4, section 7, and 608.3a and b."
    spans = [(text[r.target_start : r.target_end], r.target) for r in references(text)]
    assert spans == [
        ("103.2", "103.2"),
        ("103.3", "103.3"),
        ("103.4", "103.4"),
        ("7", "7"),
        ("608.3a", "608.3a"),
        ("b", "608.3b"),
    ]


def test_references_in_examples_and_glossary_lines() -> None:
    edition = parse_text(TOY)
    rule = edition.rule("100.1a")
    assert rule is not None
    parsed = rule_clauses(rule)
    assert [r.target for r in parsed.examples[0].references] == ["101.1"]
    gloss = edition.glossary_entry("Deck")
    assert gloss is not None
    assert targets(gloss.text) == ["100.2a"]


# --- other clauses -----------------------------------------------------------------------
def test_symbols() -> None:
    text = "Pay {2/W}{W/P} and {T}: add {X}."
    assert [(c.kind, c.value) for c in parse_clauses(text) if c.kind == "symbol"] == [
        ("symbol", "2/W"),
        ("symbol", "W/P"),
        ("symbol", "T"),
        ("symbol", "X"),
    ]


def test_quotes_and_definitions_keep_their_inside() -> None:
    text = "“Frobnicate [cost]” means “You may pay [cost]. See rule 702.3.” Then “Draw.”"
    clauses = [c for c in parse_clauses(text) if c.kind != "text"]
    definition, quote = clauses
    assert definition.kind == "definition" and definition.value == "Frobnicate [cost]"
    left, right = definition.children
    assert (left.kind, right.kind) == ("quote", "quote")
    assert [r.target for node in right.walk() for r in node.references] == ["702.3"]
    clause = next(node for node in right.walk() if node.kind == "reference")
    assert text[clause.start : clause.end] == "See rule 702.3"  # offsets in the outer text
    ref = clause.references[0]
    assert text[ref.start : ref.end] == ref.text == "rule 702.3"
    assert quote.kind == "quote" and quote.value == "Draw."


def test_lists_modern_and_old_form() -> None:
    text = (
        "Wizards have subtypes. The wizard types are Alma, Bex (see rule 717), and Cato Vel. More."
    )
    (lst,) = [c for c in parse_clauses(text) if c.kind == "list"]
    assert lst.value == "The wizard types"
    assert [item.value for item in lst.children] == ["Alma", "Bex (see rule 717)", "Cato Vel"]
    assert [r.target for node in lst.walk() for r in node.references] == ["717"]
    old = (
        "The list of wizard words, updated through the Toy set, is as follows: "
        "alpha, beta, and gamma."
    )
    (lst,) = [c for c in parse_clauses(old) if c.kind == "list"]
    assert [item.value for item in lst.children] == ["alpha", "beta", "gamma"]
    # "are" followed by something that is not a list stays text
    assert [c.kind for c in parse_clauses("Wizard types are listed below.")] == ["text"]


def test_lists_after_any_lead_in() -> None:
    text = "Toys move. There are normally four places: the deck, the hand, the pile, and the void."
    (lst,) = lists(text)
    assert lst.value == list_lead(text, lst) == "There are normally four places:"
    assert [item.value for item in lst.children] == ["the deck", "the hand", "the pile", "the void"]
    text = "Fees may include paying tokens, tapping widgets (see rule 101.2), and so on."
    (lst,) = lists(text)
    assert list_lead(text, lst) == "Fees may include"
    assert [item.value for item in lst.children] == [
        "paying tokens",
        "tapping widgets (see rule 101.2)",
        "so on",
    ]
    # The list starts at the last lead-in before its first comma.
    text = "Widgets that are blue include: cogs, levers, and springs."
    (lst,) = lists(text)
    assert list_lead(text, lst) == "Widgets that are blue include:"
    # "as follows:" starts a list of its own, even after another colon.
    text = (
        "The list of gizmo types, updated through the Toy: Deluxe set, is as follows: "
        "cog, lever, and wheel."
    )
    (lst,) = lists(text)
    assert [item.value for item in lst.children] == ["cog", "lever", "wheel"]
    # One item a line after "as follows:".
    text = "The steps are as follows:\nSpin the wheel\nMove\nRest"
    (lst,) = lists(text)
    assert [item.value for item in lst.children] == ["Spin the wheel", "Move", "Rest"]
    # Long clauses joined by commas, two items, no serial comma: not lists.
    assert (
        lists(
            "The rule is: a widget that spins for a long time moves up to three spaces, "
            "the player rests, and then play goes on."
        )
        == ()
    )
    assert lists("The choices are: cogs, and levers.") == ()
    assert lists("The choices are: cogs, levers and springs.") == ()


def test_conditions_end_at_the_comma_that_does_not_continue_a_series() -> None:
    text = "If a spell, ability, or effect would do a thing, it does another. Then more."
    (cond,) = [c for c in parse_clauses(text) if c.kind == "condition"]
    assert text[cond.start : cond.end] == "If a spell, ability, or effect would do a thing"
    text = "If it does (see rule 601.2), stop."
    (cond,) = [c for c in parse_clauses(text) if c.kind == "condition"]
    assert [r.target for node in cond.walk() for r in node.references] == ["601.2"]


def test_numbers() -> None:
    assert [
        (c.kind, c.value)
        for c in parse_clauses("Each player starts at 20 life.")
        if c.kind == "number"
    ] == [("number", "20")]


# --- structure of the result -----------------------------------------------------------------
def _assert_tiles(text: str, clauses: tuple[Clause, ...]) -> None:
    at = 0
    for clause in clauses:
        assert clause.start == at, (text, clauses)
        assert clause.end > clause.start
        at = clause.end
    assert at == len(text)


def test_clauses_tile_the_text_and_the_json_is_compact() -> None:
    text = "If {T} is paid, see rule 601.2f–h, “Casting Spells.” The types are a, b, and c."
    clauses = parse_clauses(text)
    _assert_tiles(text, clauses)
    ref = next(c for c in clauses if c.kind == "reference")
    assert ref.as_dict()["targets"] == ["601.2f", "601.2g", "601.2h"]
    assert parse_clauses("") == ()


def test_never_fails_on_noise() -> None:
    # Random strings over the characters and words the grammar cares about: every one
    # parses through the grammar (no fallback warning), tiles, and keeps offsets.
    pieces = [
        "rule ",
        "rules ",
        "section ",
        "see ",
        "See ",
        "If ",
        "means ",
        "types are ",
        "is as follows: ",
        "601.2",
        "a",
        "–",
        "-",
        ", ",
        " and ",
        "or ",
        ".",
        ". ",
        "“",
        "”",
        '"',
        "?",
        "{",
        "}",
        "{T}",
        "(",
        ")",
        "123",
        "4",
        "word ",
        "\n",
        ";",
        ":",
    ]
    rng = random.Random(3)
    records: list[logging.LogRecord] = []
    handler = logging.Handler()
    handler.emit = records.append  # type: ignore[method-assign]
    log = logging.getLogger("rulediff.clauses")
    log.addHandler(handler)
    try:
        for _ in range(1500):
            text = "".join(rng.choice(pieces) for _ in range(rng.randint(1, 25)))
            clauses = parse_clauses(text)
            _assert_tiles(text, clauses)
            assert parse_whole(text) == clauses or "?" in text or "“" in text or '"' in text
            for clause in clauses:
                for ref in (r for node in clause.walk() for r in node.references):
                    assert text[ref.start : ref.end] == ref.text
    finally:
        log.removeHandler(handler)
    assert records == []


def test_rule_json_shape() -> None:
    edition = parse_text(TOY)
    rule = edition.rule("100.2")
    assert rule is not None
    doc = rule_clauses_json(rule)
    assert doc["references"] == [
        {"target": "101.1", "text": "rule 101.1", "title": "Winning", "start": 15, "end": 25}
    ]
    assert [c["kind"] for c in doc["clauses"]] == ["text", "reference"]  # type: ignore[index]


# --- the real corpus -------------------------------------------------------------------------
# The census the issue asks for: a plain regex for "rule(s) NNN[.NN[a]]" in rule text.
CENSUS = re.compile(r"\brules?\s+(\d{3}(?:\.\d+[a-z]?)?)(?!\d)", re.IGNORECASE)
#: Census mentions the clause grammar is allowed to miss, with the reason. None so far:
#: every mention in every edition since July 2009 is captured with the census's target.
ACCEPTED_MISSES: dict[tuple[str, str, str], str] = {}


def test_recall_census_since_july_2009() -> None:
    dates = [d for d in corpus_dates() if d >= "2009-07"]
    assert dates, "RULEDIFF_CORPUS must point at the corpus"
    total = 0
    misses: list[tuple[str, str, str]] = []
    for date in dates:
        edition = corpus_edition(date)
        parsed = edition_clauses(edition)
        for rule, rc in zip(edition.rules, parsed.rules, strict=True):
            pairs = [
                (rule.text, rc.text),
                *zip((e.text for e in rule.examples), rc.examples, strict=True),
            ]
            for text, pt in pairs:
                for m in CENSUS.finditer(text):
                    total += 1
                    if not any(
                        r.target == m.group(1) and r.start <= m.start(1) < r.end
                        for r in pt.references
                    ):
                        misses.append((date, str(rule.id), m.group(0)))
    unexpected = [m for m in misses if m not in ACCEPTED_MISSES]
    assert total > 50_000
    assert unexpected == []
    assert 1 - len(misses) / total >= 0.995


@pytest.mark.parametrize("date", corpus_dates())
def test_every_edition_parses_without_a_fallback(
    date: str, caplog: pytest.LogCaptureFixture
) -> None:
    edition = corpus_edition(date)
    with caplog.at_level(logging.WARNING, logger="rulediff.clauses"):
        parsed = compute_edition_clauses(edition)
    assert caplog.records == []
    assert len(parsed.rules) == len(edition.rules)
    for rule, rc in zip(edition.rules, parsed.rules, strict=True):
        _assert_tiles(rule.text, rc.text.clauses) if rule.text else None
        for ref in rc.text.references:
            assert rule.text[ref.start : ref.end] == ref.text


@pytest.mark.parametrize(
    "date", ["2001-09-24", "2008-05-01", "2009-07-11", "2016-01-16", "2024-11-08"]
)
def test_sentence_pre_pass_changes_nothing(date: str) -> None:
    edition = corpus_edition(date)
    texts = [r.text for r in edition.rules] + [e.text for e in edition.glossary]
    texts += [x.text for r in edition.rules for x in r.examples]
    for text in texts:
        assert parse_clauses(text) == parse_whole(text), text[:80]


@pytest.mark.parametrize("date", ["2001-09-24", "2008-05-01", "2016-01-16", "2025-11-14"])
def test_reference_and_list_pre_passes_find_what_the_full_parse_finds(date: str) -> None:
    # references() and lists() parse only the sentences that can hold one.
    edition = corpus_edition(date)
    texts = [r.text for r in edition.rules] + [e.text for e in edition.glossary]
    texts += [x.text for r in edition.rules for x in r.examples]
    for text in texts:
        clauses = parse_clauses(text)
        assert references(text) == tuple(iter_references(clauses)), text[:80]
        every_list = tuple(n for c in clauses for n in c.walk() if n.kind == "list")
        assert lists(text) == every_list, text[:80]


def test_cached_clauses_equal_computed(corpus_dir) -> None:  # noqa: ANN001 - fixture
    edition = corpus_edition(corpus_dates()[-1])
    assert edition_clauses(edition) == compute_edition_clauses(edition)


# A small edition in the modern layout, written for these tests (not CR text).
TOY = edition_text(
    """\
1. Basics

100. General

100.1. A game is played by two or more players.

100.1a A two-player game has two players.

Example: Alice wins as rule 101.1 says.

100.2. Players follow rule 101.1, “Winning.”

101. Winning

101.1. A player with no cards left loses the game.
""",
    """\
Deck
The cards a player brings to the game. See rule 100.2a.
""",
)


# --- written targets kept per edition (the cache's ``targets`` kind) --------------------------


def _keyed_toy() -> Edition:
    """:data:`TOY` with a sha256, so its table has a cache key."""
    return dataclasses.replace(parse_text(TOY), sha256=hashlib.sha256(TOY.encode()).hexdigest())


@pytest.fixture()
def fresh_targets(tmp_path, monkeypatch: pytest.MonkeyPatch):  # noqa: ANN001, ANN201
    """An empty cache folder and no table in use, before and after the test."""
    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    cache.forget_memo()
    clauses_module.forget_edition_targets()
    yield tmp_path / "cache"
    cache.forget_memo()
    clauses_module.forget_edition_targets()


def test_edition_table_holds_each_digit_text_with_its_parsed_targets() -> None:
    edition = _keyed_toy()
    texts = edition_texts(edition)
    table = compute_edition_targets(edition)
    assert table.sha256 == edition.sha256 and table.count == len(texts)
    listed = dict(table.found)
    assert all(listed.values())  # only the texts that cite a rule are listed
    for i, text in enumerate(texts):
        assert listed.get(i, ()) == clauses_module._parsed_targets(text)
    # the definition's reference, the example's and the rule's are all there
    assert {t for _, targets in table.found for _, _, t in targets} == {"100.2a", "101.1"}


def test_written_targets_are_read_from_the_stored_table(
    fresh_targets,  # noqa: ANN001
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    edition = _keyed_toy()
    texts = edition_texts(edition)
    expected = {t: clauses_module._parsed_targets(t) for t in texts}
    use_edition_targets(edition)  # computed and stored
    assert cache.entry_path("targets", edition.sha256).is_file()
    clauses_module.forget_edition_targets()
    cache.forget_memo()

    def no_parse(text: str) -> object:
        raise AssertionError(f"parsed {text!r}")

    monkeypatch.setattr(clauses_module, "_parsed_targets", no_parse)
    use_edition_targets(edition)  # read back from the disk
    assert {t: written_targets(t) for t in texts} == expected


def test_no_table_without_the_cache_or_a_key(fresh_targets) -> None:  # noqa: ANN001
    edition = _keyed_toy()
    use_edition_targets(edition, use_cache=False)
    use_edition_targets(parse_text(TOY))  # no sha256
    assert not (fresh_targets / "targets").exists()
    assert clauses_module._stored_targets == {}


def test_stored_texts_are_bounded(fresh_targets, monkeypatch: pytest.MonkeyPatch) -> None:  # noqa: ANN001
    monkeypatch.setattr(clauses_module, "STORED_TEXTS", 1)
    first = _keyed_toy()
    other_text = TOY.replace("two players", "2 players")
    second = dataclasses.replace(
        parse_text(other_text), sha256=hashlib.sha256(other_text.encode()).hexdigest()
    )
    use_edition_targets(first)
    use_edition_targets(second)  # the first edition's texts are dropped first
    assert clauses_module._stored_editions == {second.sha256}
    assert set(clauses_module._stored_targets) == set(edition_texts(second))


def test_corpus_edition_table_equals_parsing_every_text() -> None:
    edition = corpus_edition("2021-06-18")
    texts = edition_texts(edition)
    table = dict(compute_edition_targets(edition).found)
    for i, text in enumerate(texts):
        assert table.get(i, ()) == references_targets(text), text[:80]


def references_targets(text: str) -> tuple[tuple[int, int, str], ...]:
    """The written targets straight from :func:`references` (no memo, no table)."""
    found = references(text)
    return tuple((r.target_start, r.target_end, r.target) for r in found if r.target_start >= 0)


# --- lone references read without the grammar (round 21) ---------------------------------
def _grammar_targets(span: str) -> tuple[tuple[int, int, str], ...]:
    """The written targets of one span as the grammar reads it."""
    found = iter_references(c for c in clauses_module._parse(span) if c.kind != "text")
    return tuple((r.target_start, r.target_end, r.target) for r in found if r.target_start >= 0)


@pytest.mark.parametrize(
    "span",
    [
        "rule 123.4b.",
        "rule 123.4).",
        "rule 456, “Some Title.”",
        "rule 789.10, “A Title,” and rule 321, “Another Title.”",
        "rule 123.4), then the rest happens (see rule 456.7).",
        "section 3, “Things.”)",
        "Rule 500 applies.",
    ],
)
def test_lone_references_read_as_the_grammar_reads_them(span: str) -> None:
    lone = clauses_module._lone_targets(span)
    assert lone is not None, span
    assert lone == _grammar_targets(span)


@pytest.mark.parametrize(
    "span",
    [
        "rules 123.4 and 123.5.",  # a plural keyword: a list may follow
        "rule 123.4a and b.",  # a letter listed after the number
        "rule 123.4a, and c.",
        "rule 123.4a-c.",  # a letter range
        "rule 123.4a – c.",
        "rule 123.4a?c.",  # a range whose dash the file lost
        "rule 123.4 and 123.5.",  # a second number
        "rule 12.",  # "rule" wants three digits
        "rule 123, “A title with rule 456.”",  # a keyword inside a quotation
        "rule 123: Items are X, Y, and rule 456.",  # a colon before a later keyword
        'rule 123 "quoted rule 456."',  # straight quotes
        "subrule 123.4b.",  # not the keyword the pattern reads
        "see 123.4.",
        "rule 123.4 costs {2}.",  # a digit after the reference
    ],
)
def test_lone_references_leave_every_other_span_to_the_grammar(span: str) -> None:
    assert clauses_module._lone_targets(span) is None, span


@pytest.mark.parametrize("date", ["2001-09-24", "2008-05-01", "2016-01-16", "2025-11-14"])
def test_lone_references_equal_the_grammar_over_an_edition(date: str) -> None:
    # Every span references() parses, read both ways: the same targets, and most spans
    # are read without the grammar.
    edition = corpus_edition(date)
    lone = spans = 0
    for text in edition_texts(edition):
        if not text:
            continue
        for start, end in clauses_module._parsed_spans(
            text, clauses_module._REFERENCE_TRIGGER, from_trigger=True
        ):
            span = text[start:end]
            spans += 1
            read = clauses_module._lone_targets(span)
            if read is not None:
                lone += 1
                assert read == _grammar_targets(span), span[:80]
        assert clauses_module._parsed_targets.__wrapped__(text) == references_targets(text)
    assert spans == 0 or lone > 0


# --- listed references and a lead-in read without the grammar (round 23) -----------------
@pytest.mark.parametrize(
    "span",
    [
        "rules 123.4 and 123.5.",
        "rules 123 and 124.",
        "rules 123.4a\u2013f.",  # a subrule letter range: both ends written
        "rules 123.4b and 123.4f\u2013h.",
        "rules 123.4a\u2013b, 234.5, and 345.6c.",
        "rule 123.4 or 234.5).",
        "Rules 123.4a\u2013c apply to both kinds alike.",
        "Each choice is a \u201cthing.\u201d See rule 123.4.",  # a closed quotation first
        "A thing called \u201cthe rule\u201d (see rules 123.4b and 123.4d).",
    ],
)
def test_listed_references_read_as_the_grammar_reads_them(span: str) -> None:
    read = clauses_module._targets_without_grammar(span)
    assert read is not None, span
    assert read == _grammar_targets(span)


@pytest.mark.parametrize(
    "span",
    [
        "rules 123.4a and b.",  # a letter listed after the list
        "rules 123.4a\u2013c and e.",
        "rules 123.4c\u2013a.",  # a range that runs backwards
        "rules 123.4a-c.",  # a hyphen, not an en dash: left to the grammar
        "rules 123\u2013125.",  # a range of whole rules
        "rules 123.4 and 123.5 cost {2}.",  # a digit after the list
        "rules 123.4 and/or 123.5.",
        "sections 1 and 2.",
        "It costs {2}. See rule 123.4.",  # a digit in the lead-in
        "It says \u201cdo it (see rule 123.4).",  # a quotation open before the keyword
        'It says "do it." See rule 123.4.',  # straight quotes in the lead-in
        "The list: see rule 123.4.",  # a colon in the lead-in
    ],
)
def test_listed_references_leave_every_other_span_to_the_grammar(span: str) -> None:
    assert clauses_module._targets_without_grammar(span) is None, span


@pytest.mark.parametrize("date", ["2001-09-24", "2008-05-01", "2016-01-16", "2025-11-14"])
def test_targets_without_grammar_equal_the_grammar_over_an_edition(date: str) -> None:
    # Every span references() parses, read both ways (a one-off check did so over all
    # 126 editions: 3,877 of 5,288 distinct spans read without the grammar, 0 differ).
    edition = corpus_edition(date)
    listed = 0
    for text in edition_texts(edition):
        if not text:
            continue
        for start, end in clauses_module._parsed_spans(
            text, clauses_module._REFERENCE_TRIGGER, from_trigger=True
        ):
            span = text[start:end]
            read = clauses_module._targets_without_grammar(span)
            if read is not None:
                assert read == _grammar_targets(span), span[:80]
                listed += clauses_module._lone_targets(span) is None
    assert listed > 0


@pytest.mark.parametrize(
    ("rule_id", "kind"), [("108.4", "list"), ("109.5", "list"), ("115.7b", "lead-in")]
)
def test_corpus_rules_with_a_listed_reference_or_a_lead_in(rule_id: str, kind: str) -> None:
    # 2025-11-14: a rule citing two rules, one citing a subrule letter range, and one
    # whose reference follows a closed quotation; each read without the grammar.
    edition = corpus_edition("2025-11-14")
    text = next(r.text for r in edition.body if isinstance(r, Rule) and str(r.id) == rule_id)
    spans = clauses_module._parsed_spans(text, clauses_module._REFERENCE_TRIGGER, from_trigger=True)
    read = [clauses_module._targets_without_grammar(text[a:b]) for a, b in spans]
    assert any(
        r is not None and clauses_module._lone_targets(text[a:b]) is None
        for r, (a, b) in zip(read, spans, strict=True)
    )
    for r, (a, b) in zip(read, spans, strict=True):
        if r is not None:
            assert r == _grammar_targets(text[a:b])
    lead_in = any(
        clauses_module._REFERENCE_TRIGGER.search(text, a, b).start() > a for a, b in spans
    )
    assert lead_in == (kind == "lead-in")
    assert clauses_module._parsed_targets.__wrapped__(text) == references_targets(text)
