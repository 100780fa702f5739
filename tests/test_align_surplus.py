"""A sentence an old rule's counterpart dropped, found in a free rule beside it."""

from __future__ import annotations

from rulediff.align import _rule_nodes_of, align
from rulediff.pairing import _Pairing
from rulediff.sentences import _add_surplus_pieces, _loses_a_word_of_short_sentence, _Provenance

from .conftest import corpus_edition
from .test_align import BASE, by_new, by_old, edition

RULE = "100.3. The player with the tallest widget chooses who takes the first turn."
LEANING = "A widget that leans to one side is measured along its longest edge."
OLD = BASE.replace(RULE, f"{RULE} {LEANING}")


def pieces_added_by(step, old_body: str, new_body: str) -> dict[str, list[str]]:  # type: ignore[no-untyped-def]
    """Old id -> new ids of its split, after the piece-adding ``step``, with every rule
    paired by number and the new rules missing from the old edition left free."""
    p = _Pairing(_rule_nodes_of(edition(old_body)), _rule_nodes_of(edition(new_body)))
    new_index = {node.id: j for j, node in enumerate(p.new)}
    for i, node in enumerate(p.old):
        j = new_index.get(node.id)
        if j is not None:
            p.pair(i, j, 100.0, "exact")
    splits: dict[int, list[int]] = {}
    step(p, _Provenance(p, []), splits, {})
    return {p.old[i].id: [p.new[j].id for j in group] for i, group in splits.items()}


def _pieces_added(new_body: str) -> dict[str, list[str]]:
    return pieces_added_by(_add_surplus_pieces, OLD, new_body)


def test_a_dropped_sentence_said_by_a_free_subrule_makes_it_a_piece() -> None:
    new = BASE.replace(
        RULE,
        f"{RULE}\n\n100.3a A widget leaning to one side is measured along its longest edge. "
        "Rulers made of soft rubber bend and are not used for this.",
    )
    assert _pieces_added(new) == {"100.3": ["100.3", "100.3a"]}


def test_a_copy_for_another_subject_or_a_sentence_said_twice_is_no_piece() -> None:
    # The counterpart still says the sentence (more loosely); the free rule says it for
    # a team game and adds nothing of the old rule beside it: a copy, not a piece.
    team = BASE.replace(
        RULE,
        "100.3. The player with the tallest widget chooses who takes the first turn; a widget "
        "that leans to one side is measured along the longest edge it has, never by height."
        "\n\n100.3a In a team game, a widget that leans to one side is measured along its "
        "longest edge by the team.",
    )
    assert _pieces_added(team) == {}
    # Two free rules say the sentence as closely: the text does not decide.
    twice = BASE.replace(
        RULE,
        f"{RULE}\n\n100.3a A widget leaning to one side is measured along its longest edge. "
        "Rulers made of soft rubber bend.\n\n"
        "100.3b A widget leaning to one side is measured along its longest edge. "
        "Tape measures may be used.",
    )
    assert _pieces_added(twice) == {}


def test_a_short_sentence_with_its_one_word_changed_says_something_else() -> None:
    assert _loses_a_word_of_short_sentence(
        "spinning is a quick action.", "spinning is a slow action."
    )
    assert not _loses_a_word_of_short_sentence(
        "then the widgets all move together.", "then the widgets move together."
    )
    # A longer sentence may lose a word and still be the same sentence.
    assert not _loses_a_word_of_short_sentence(
        "the active player moves the widget up to three spaces before resting.",
        "the active player moves the widget up to three spaces.",
    )


def test_an_exception_rule_keeps_the_general_rule_it_was_cut_from() -> None:
    # 2004-06-01 -> 2020-06-01: the old zone-change rule (new object, with its
    # exceptions) went to the exception about leave-the-zone triggers and to the general
    # rule above the exceptions, which restates its first sentence.
    a = align(corpus_edition("2004-06-01"), corpus_edition("2020-06-01"))
    m = by_old(a, "217.1c")
    assert m.kind == "split" and {"400.7", "400.7d"} <= set(m.new_ids), m
    assert by_new(a, "400.7").old_ids == ("217.1c",)


def test_a_variant_copy_of_the_counterpart_is_no_piece_in_the_corpus() -> None:
    # 2007-05-01 -> 2018-07-13: paying life went to the general rule; the free rule for
    # the team variant says the same sentence with the team's life total instead.
    a = align(corpus_edition("2007-05-01"), corpus_edition("2018-07-13"))
    assert by_old(a, "215.4").new_ids == ("118.4",)
    assert by_new(a, "118.4a").kind == "added"


# A run of subrules that each end on one stock sentence (each kind of foul "may be
# called whenever the player holds the turn"): the old rule said it once for them all.
ANY_TIME = "A player may call a foul whenever they hold the turn."
FOUL = "100.3a A foul ends the turn at once."
STOCK = "A player may call this foul whenever they hold the turn."


def test_a_sentence_a_taken_rule_beside_says_as_closely_makes_no_piece() -> None:
    """A dropped sentence that a rule already paired beside the counterpart says as
    closely as the free rule does is the run's stock wording: the free rule is no piece.
    Fails before the guard: the free rule was taken as a piece."""
    old = BASE.replace(RULE, f"{RULE} {ANY_TIME}\n\n{FOUL}")
    free = "100.3b Calling a foul on a wobbling widget is a special action. " + STOCK
    stock_beside = BASE.replace(RULE, f"{RULE}\n\n{FOUL} {STOCK}\n\n{free}")
    assert pieces_added_by(_add_surplus_pieces, old, stock_beside) == {}
    # Said by the free rule alone, the sentence went there: a piece.
    alone = BASE.replace(RULE, f"{RULE}\n\n{FOUL}\n\n{free}")
    assert pieces_added_by(_add_surplus_pieces, old, alone) == {"100.3": ["100.3", "100.3b"]}


def test_the_special_actions_rule_keeps_no_piece_for_its_stock_sentence() -> None:
    """2003-07-01 -> 2022-10-07: old 408.1i (special actions) goes to 116.2, the list of
    special actions; 116.2e, one listed action whose last sentence says what 408.1i's
    second did and what the paired 116.2d says word for word, stays added."""
    a = align(corpus_edition("2003-07-01"), corpus_edition("2022-10-07"))
    assert by_old(a, "408.1i").new_ids == ("116.2",)
    assert by_new(a, "116.2e").kind == "added"
