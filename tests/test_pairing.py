"""The pairing state and the readings of words, titles and topics every matching pass
makes (:mod:`rulediff.pairing`), on texts written for each test."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from rulediff.pairing import _Node, _Pairing

from .conftest import corpus_edition


@settings(max_examples=300)
@given(st.text(alphabet="notusigba ,.-'\n\u00e9", max_size=60))
def test_negated_conditions_are_those_of_the_text(text: str) -> None:
    # same_topic compares the nodes' negated conditions before anything else: they must
    # be the negated half of _conditions, "not" glued to punctuation or inside a word too.
    from rulediff.pairing import _conditions

    node = _Node("1", text, None, False, 0)
    assert node.negated_conditions() == _conditions(node.lower)[0]


@settings(max_examples=300)
@given(st.text(alphabet="abcdefgh XY-'1\u00e9\n", max_size=60))
def test_word_stems_are_first_five_letters_of_each_word(text: str) -> None:
    from rulediff.pairing import _words

    assert _words.__wrapped__(text) == frozenset(w[:5] for w in re.findall(r"[a-z]+", text))


def test_a_rule_says_a_heading_title_only_with_as_many_title_words_as_its_own_heading() -> None:
    from rulediff.pairing import _heading_over, _says_title

    old = [
        _Node("101", "Spin Timing, Order, and the Pile", None, True, 0),
        _Node("102", "Moves That Don't Use the Pile", None, True, 1),
    ]
    new = [
        _Node("110", "Timing and Order", None, True, 0),
        _Node("110.2", "Other actions happen without anyone choosing them.", "110", False, 1),
        _Node("111", "Pile", None, True, 2),
        _Node(
            "111.4", "Some things that happen during a match don't use the pile.", "111", False, 3
        ),
    ]
    p = _Pairing(old, new)
    # The rule says none of the title; the heading over it says two of its words.
    assert not _says_title(p, 0, 1)
    assert _heading_over(p, 0, 1) == 0
    # A rule that says what the title says (its items are listed under it) says it.
    assert _says_title(p, 1, 3)
    assert _heading_over(p, 1, 3) == -1  # "Pile" is not titled like the old heading


def test_words_without_inflection_tell_a_new_title_from_an_old_stem() -> None:
    # On paraphrases: a word's inflections fold together, a derived word does not.
    from rulediff.pairing import _root

    assert _root("relaying") == _root("relayed") == _root("relays") == _root("relay")
    assert _root("abilities") == _root("ability")
    assert _root("relayer") != _root("relay")
    assert _root("relayers") == _root("relayer")


def test_piece_opening_with_a_new_subject_on_synthetic_rules() -> None:
    # Synthetic: a new rule opening by naming a new keyword (a word the old edition
    # never uses, though "compasses" shares its stem) is no piece of the old rule; one
    # that widens the old rule's own opening to the new subject is; a word the pair's
    # recurring wording changes bring in names an old subject anew.
    from rulediff.pairing import _piece_for_new_subject

    old = [
        _Node("1", "Actions", None, True, 0),
        _Node(
            "1a",
            "Tossing a ball is an action. You may toss any time the hall is quiet.",
            "1",
            False,
            1,
        ),
        _Node(
            "1b",
            "Anything that compares striped balls in the hall compares each stripe apart.",
            "1",
            False,
            2,
        ),
        _Node("1c", "Players may lob a ball over the net.", "1", False, 3),
        _Node("2", "Compasses", None, True, 4),
    ]
    new = [
        _Node("1", "Actions", None, True, 0),
        _Node(
            "1a",
            "A player who picked a companion may pay two to take it into their hand.",
            "1",
            False,
            1,
        ),
        _Node(
            "1b",
            "Anything that compares striped balls in the hall or fused striped balls "
            "compares each stripe apart.",
            "1",
            False,
            2,
        ),
        _Node("1c", "Objects that are hurled across the court land at once.", "1", False, 3),
        _Node("3", "Companion", None, True, 4),
        _Node("4", "Fuse", None, True, 5),
        _Node("5", "Hurl", None, True, 6),
    ]
    p = _Pairing(old, new)
    p.pair(0, 0, 100.0, "anchor")
    assert _piece_for_new_subject(p, 1, 1)  # the companion: a new subject
    assert not _piece_for_new_subject(p, 2, 2)  # the old rule widened to fused balls
    assert _piece_for_new_subject(p, 3, 3)  # "hurl": new, while no sweep says so
    q = _Pairing(old, new)
    q.pair(0, 0, 100.0, "anchor")
    q.sweeps = (("lobbed", "hurled"),)
    assert not _piece_for_new_subject(q, 3, 3)  # "lob" became "hurl": an old subject


def test_a_note_on_another_keyword_named_in_another_word_form_is_another_topic() -> None:
    """:meth:`_Pairing.names_other_topic` on paraphrases: the old note names its heading
    ("Spinning"), the new one does not and names its own heading's word ("Toss") only in
    another form ("tossing"), which its five-letter stem does not catch. A plural title
    ("Tosses") is not read through its forms: texts say "toss" about other topics too."""

    def nodes(title: str, text: str) -> list[_Node]:
        return [_Node("1", title, None, True, 0), _Node("1a", text, "1", False, 1)]

    old = nodes("Spinning", "Spinning was once a move of its own; old cards were reworded.")
    new = nodes("Toss", "The act of throwing was once called tossing; old cards were reworded.")
    p = _Pairing(old, new)
    assert p.names_other_topic(0, 0, old[1].lower, new[1].lower)
    plural = nodes("Tosses", new[1].text)
    assert not _Pairing(old, plural).names_other_topic(0, 0, old[1].lower, plural[1].lower)


def test_a_note_naming_its_keyword_is_not_another_named_keywords_rule() -> None:
    """:meth:`_Pairing.same_topic` on paraphrases: the old note names its keyword
    ("Flurry"), whose heading lives on in the new edition; a new rule under another
    keyword of the same chapter ("Tithe") that shares its cost words but not its name is
    that keyword's rule. The chapter's general rules are no other keyword (a note may be
    generalised there), and before the old heading is placed nothing is decided."""

    old = [
        _Node("7", "Card Tricks", None, True, 0),
        _Node("701", "Flurry", "7", True, 1),
        _Node(
            "701.2",
            "The flurry ability lowers only plain chip costs; it never lowers how many "
            "coloured chips you pay.",
            "701",
            False,
            2,
        ),
    ]
    new = [
        _Node("7", "Card Tricks", None, True, 0),
        _Node("700", "General", "7", True, 1),
        _Node(
            "700.4",
            "An effect that lowers a cost by plain chips lowers only them.",
            "700",
            False,
            2,
        ),
        _Node("701", "Flurry", "7", True, 3),
        _Node("703", "Tithe", "7", True, 4),
        _Node(
            "703.2",
            "Plain chips in the given-up widget's cost lower plain chips in the card's cost; "
            "coloured chips lower chips of the same colour.",
            "703",
            False,
            5,
        ),
    ]
    p = _Pairing(old, new)
    assert p.same_topic(2, 5)  # the old heading not placed yet: the texts alone decide
    p.pair(0, 0, 100.0, "structure")
    p.pair(1, 3, 100.0, "structure")
    assert not p.same_topic(2, 5)
    assert p.same_topic(2, 2)


def test_a_rule_written_for_a_new_subject_is_no_rewrite_unless_it_widens_the_old_rule() -> None:
    """:func:`_written_for_new_subject` on paraphrases: the new edition has beacons (a
    heading whose word the old edition lacks). A sweep rule whose opening is about a
    beacon is written for it; one that names the new keyword beside plain sweep ("sweep
    or sweep over beacons") widens the old rule; nothing is decided while the old rule's
    own topic is not placed."""
    from rulediff.pairing import _written_for_new_subject

    old = [
        _Node("5", "Pushing", None, True, 0),
        _Node("510", "Sweep", "5", True, 1),
        _Node(
            "510.3",
            "If every widget blocking a pushing widget with sweep leaves the ring before "
            "the push step, all its push goes to the defending player.",
            "510",
            False,
            2,
        ),
    ]
    new = [
        _Node("3", "Widget Kinds", None, True, 0),
        _Node("306", "Beacons", "3", True, 1),
        _Node("306.1", "A beacon is a widget kind that stands in the ring.", "306", False, 2),
        _Node("5", "Pushing", None, True, 3),
        _Node("510", "Sweep", "5", True, 4),
        _Node(
            "510.4",
            "If a pushing widget with sweep or sweep over beacons is blocked but no widget "
            "blocks it when push is assigned, its push goes to the defending player.",
            "510",
            False,
            5,
        ),
        _Node(
            "510.5",
            "If a widget with sweep over beacons is pushing a beacon and that beacon leaves "
            "the ring, all its push goes to the defending player.",
            "510",
            False,
            6,
        ),
    ]
    p = _Pairing(old, new)
    assert not _written_for_new_subject(p, 2, 6)  # the old topic not placed yet
    p.pair(0, 3, 100.0, "structure")
    p.pair(1, 4, 100.0, "structure")
    assert _written_for_new_subject(p, 2, 6)
    assert not _written_for_new_subject(p, 2, 5)


def _frenzy_editions(general_says_frenzy: bool) -> tuple[list[_Node], list[_Node]]:
    """Paraphrases: a list of exceptions under a zone rule, and a keyword "Frenzy" whose
    name the old edition says in its own rules (and, if asked, in a zone rule too)."""
    zone_rule = "A widget that leaves a ring becomes a new widget, with these exceptions:"
    if general_says_frenzy:
        zone_rule += " frenzy widgets keep their counters."
    old = [
        _Node("4", "Rings", None, True, 0),
        _Node("400", "General", "4", True, 1),
        _Node("400.7", zone_rule, "400", False, 2),
        _Node(
            "400.7g",
            "A resolving push can act on a widget that moved to an open ring while the "
            "push was being made.",
            "400.7",
            False,
            3,
        ),
        _Node("7", "Extras", None, True, 4),
        _Node("702", "Widget Abilities", "7", True, 5),
        _Node("702.34", "Frenzy", "702", True, 6),
        _Node("702.34a", "Frenzy is a triggered ability of a pushed widget.", "702.34", False, 7),
    ]
    new = [
        _Node("4", "Rings", None, True, 0),
        _Node("400", "General", "4", True, 1),
        _Node("400.7", "A widget that leaves a ring becomes a new widget.", "400", False, 2),
        _Node(
            "400.7j",
            "If a push moves a widget to an open ring, the rest of that push can find it.",
            "400.7",
            False,
            3,
        ),
        _Node(
            "400.7k",
            "After a frenzy ability resolves, if the moved widget went to an open ring, "
            "effects that refer to it can find it.",
            "400.7",
            False,
            4,
        ),
        _Node("7", "Extras", None, True, 5),
        _Node("702", "Widget Abilities", "7", True, 6),
        _Node("702.35", "Frenzy", "702", True, 7),
        _Node("702.35a", "Frenzy is a triggered ability of a pushed widget.", "702.35", False, 8),
    ]
    return old, new


def test_a_rule_opening_with_a_keyword_the_old_rule_never_names_is_that_keywords() -> None:
    """:meth:`_Pairing.opens_with_other_keyword`: the new exception opens by naming a
    keyword whose name the old edition says only in its own rules; the old general
    exception never names it. Not the general new exception, not the keyword's own
    rule, and nothing before the keyword's heading is matched."""

    old, new = _frenzy_editions(general_says_frenzy=False)
    p = _Pairing(old, new)
    assert not p.opens_with_other_keyword(3, 4)  # the keyword not matched yet
    for i, j in ((0, 0), (1, 1), (4, 5), (5, 6), (6, 7)):
        p.pair(i, j, 100.0, "structure")
    assert p.opens_with_other_keyword(3, 4)
    assert not p.opens_with_other_keyword(3, 3)
    assert not p.opens_with_other_keyword(7, 8)  # under its own heading
    # A name the old edition also says outside the keyword's rules is a common word.
    old, new = _frenzy_editions(general_says_frenzy=True)
    p = _Pairing(old, new)
    for i, j in ((0, 0), (1, 1), (4, 5), (5, 6), (6, 7)):
        p.pair(i, j, 100.0, "structure")
    assert not p.opens_with_other_keyword(3, 4)


_NOT_AS_WRITTEN = re.compile(r"(?<![a-z])not(?![a-z])")


@settings(max_examples=300)
@given(st.text(alphabet="notab ,.'-\n", max_size=40))
def test_not_regex_is_the_look_behind_form(text: str) -> None:
    # _NOT begins with the literal word so the engine scans for it; same matches.
    from rulediff.pairing import _NOT

    assert [m.span() for m in _NOT.finditer(text)] == [
        m.span() for m in _NOT_AS_WRITTEN.finditer(text)
    ]


def _line_phrases_by_regex(lower: str) -> tuple[tuple[str, str], ...]:
    from rulediff.pairing import _LINE_PHRASE

    return tuple(
        (m.group(1) or m.group(3), m.group(2) or m.group(4)) for m in _LINE_PHRASE.finditer(lower)
    )


@pytest.mark.parametrize(
    "text",
    [
        "a frobnicator isn't a sprocket widget.",
        "an object is a mana gadget if it spins.",
        "it can never be a blue token here.",
        "nothing here draws any line.",
        "a gizmo is a small part when it rolls.",
    ],
)
def test_line_phrases_skip_only_texts_without_a_line(text: str) -> None:
    from rulediff.pairing import _line_phrases

    assert _line_phrases.__wrapped__(text) == _line_phrases_by_regex(text)


def test_line_phrases_of_an_edition_are_the_regex_form() -> None:
    from rulediff.align import _rule_nodes
    from rulediff.pairing import _line_phrases

    lowers = [n.lower for n in _rule_nodes(corpus_edition("2015-01-23"))]
    found = [_line_phrases.__wrapped__(t) for t in lowers]
    assert found == [_line_phrases_by_regex(t) for t in lowers]
    assert any(found)


# --- the shared runs of two word lists (_runs), read from where each run starts -----------


@settings(max_examples=300, deadline=None)
@given(
    st.lists(st.sampled_from("abcd"), max_size=25),
    st.lists(st.sampled_from("abcd"), max_size=25),
    st.integers(min_value=1, max_value=4),
)
def test_runs_are_every_maximal_shared_run_in_the_order_they_end(
    a: list[str], b: list[str], least: int
) -> None:
    from rulediff.pairing import _runs

    def shared(x: int, y: int) -> bool:
        return 0 <= x < len(a) and 0 <= y < len(b) and a[x] == b[y]

    # Every pair of places where a run ends and cannot grow either way, by brute force.
    expected = []
    for x in range(len(a)):
        for y in range(len(b)):
            if not shared(x, y) or shared(x + 1, y + 1):
                continue
            n = 1
            while shared(x - n, y - n):
                n += 1
            if n >= least:
                expected.append(tuple(a[x - n + 1 : x + 1]))
    assert _runs(a, b, least) == expected


# --- the aligner's modules import one way -----------------------------------------------


def _rulediff_imports(module: str) -> set[str]:
    """The rulediff modules ``module`` imports anywhere in its source (inside functions
    too, where an import would hide a cycle)."""
    import ast
    import importlib

    source = Path(importlib.import_module(f"rulediff.{module}").__file__).read_text("utf-8")
    found: set[str] = set()
    for node in ast.walk(ast.parse(source)):
        if isinstance(node, ast.ImportFrom) and node.level == 1:
            if node.module:
                found.add(node.module.split(".")[0])
            else:
                found.update(alias.name for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and (node.module or "").startswith("rulediff."):
            found.add(node.module.split(".")[1])
    return found


@pytest.mark.parametrize(
    ("module", "above"),
    [
        ("pairing", {"matching", "sentences", "rescue", "align"}),
        ("rescue", {"matching", "sentences", "align"}),
        ("matching", {"sentences", "align"}),
        ("sentences", {"align"}),
    ],
)
def test_the_aligner_modules_import_one_way(module: str, above: set[str]) -> None:
    # pairing -> matching -> sentences -> align, and rescue -> align: a pass module that
    # imported one above it would bring back the imports inside functions that hid the
    # cycle between align and rescue.
    imported = _rulediff_imports(module)
    assert imported, module  # the walk finds imports at all
    assert not imported & above, (module, imported & above)


def test_a_rule_for_every_zone_but_one_is_not_the_rule_for_that_zone() -> None:
    """A text that leaves a zone out of its scope and one that applies in that zone alone
    are a rule and its opposite case; a text naming the zone both ways, or leaving the
    same zone out, is not (``_opposite_zones``, read by ``same_topic``)."""
    from rulediff.pairing import _opposite_zones

    outside = "a widget in any zone other than the stack has both its colours."
    inside = "a widget spun on the stack has the colour of its upper half only."
    assert _opposite_zones(outside, inside)
    assert _opposite_zones(inside, outside)
    assert _opposite_zones(
        "a widget in a zone other than the battlefield is face up.",
        "on the battlefield, widgets tap.",
    )
    # "not in play" said in passing draws no scope
    assert not _opposite_zones("a widget not on the battlefield is face up.", inside)
    assert not _opposite_zones(
        "a widget that is not on the stack can be spun.", "on the stack, widgets are spun."
    )
    # the same scope said another way
    assert not _opposite_zones(
        outside, "in every zone except the stack, a widget has both colours."
    )
    # a rule for both cases names the zone both ways
    both = "in every zone except the stack a widget has both colours; on the stack it has one."
    assert not _opposite_zones(both, inside)
    assert not _opposite_zones(inside, "a widget on the stack can be countered.")
    # "not" without a zone after it leaves nothing out
    assert not _opposite_zones("a widget does not spin on the stack.", inside)


def test_the_split_card_rule_for_zones_but_the_stack_goes_to_its_heir() -> None:
    """2003-07-01 -> 2022-10-07: old 505.5 (a split card's characteristics asked for outside
    the stack combine both halves) goes to 709.4 (in every zone but the stack, the two
    halves combined), not to 709.4d (a fused split spell on the stack); the colour rule
    505.3 then goes to 709.4b (colours from the combined mana cost), as the blind set
    answers."""
    from rulediff.align import align

    old, new = corpus_edition("2003-07-01"), corpus_edition("2022-10-07")
    assert "other than the stack" in old.rule("505.5").text
    assert "on the stack" in new.rule("709.4d").text
    a = align(old, new)
    assert a.match_for_old("505.5").new_ids == ("709.4",)
    assert a.match_for_old("505.3").new_ids == ("709.4b",)


def test_a_word_of_the_rules_own_matched_heading_is_no_new_subject() -> None:
    """Synthetic: a free new rule opening with a word the old edition never uses, which
    also titles a new heading with no old counterpart, opens with a new subject; unless
    its own heading has an old counterpart and says the word: then the word is the old
    subject's new name (``_opens_with_new_subject``)."""
    from rulediff.pairing import _opens_with_new_subject

    old = [
        _Node("101", "Sidelined", None, True, 0),
        _Node("101.1", "Sidelined widgets are kept face up in a row.", "101", False, 1),
        _Node("102", "Actions", None, True, 2),
    ]
    new = [
        _Node("101", "Benched", None, True, 0),
        _Node("101.1", "Benched widgets are kept face up in a row, by default.", "101", False, 1),
        _Node("102", "Actions", None, True, 2),
        _Node("102.1", "Benched widgets may be swapped at any time.", "102", False, 3),
        _Node("103", "Bench", None, True, 4),
    ]
    unmatched = _Pairing(old, new)
    unmatched.pair(2, 2, 100.0, "anchor")
    assert _opens_with_new_subject(unmatched, 1)  # "bench": a new heading's word
    assert _opens_with_new_subject(unmatched, 3)
    renamed = _Pairing(old, new)
    renamed.pair(2, 2, 100.0, "anchor")
    renamed.pair(0, 0, 40.0, "structure")  # "Sidelined" is now called "Benched"
    assert not _opens_with_new_subject(renamed, 1)  # under its renamed heading
    assert _opens_with_new_subject(renamed, 3)  # under another heading: still new


def test_a_rule_of_a_renamed_zone_is_found_under_the_new_name() -> None:
    """2001-07-23 -> 2017-06-05: old 217.7b (what may be seen of cards in the
    removed-from-the-game zone) goes to 406.3 (the same for exiled cards, grown by three
    sentences), under the zone heading renamed "Exile", though a new keyword action is
    titled "Exile" too; as the blind set of that pair answers."""
    from rulediff.align import align

    old, new = corpus_edition("2001-07-23"), corpus_edition("2017-06-05")
    assert "exile" not in old.rule("217.7").title.lower()
    assert new.rule("406").title == new.rule("701.10").title == "Exile"
    assert new.rule("406.3").text.lower().startswith("exiled cards")
    a = align(old, new)
    assert a.match_for_old("217.7").new_ids == ("406",)
    assert a.match_for_old("217.7b").new_ids == ("406.3",)
