"""A sentence an old rule's counterpart dropped, reworded into a free rule beside it."""

from __future__ import annotations

from rulediff.align import _rule_nodes_of, align
from rulediff.pairing import _Pairing
from rulediff.sentences import _add_reworded_surplus_pieces, _add_twin_pieces

from .conftest import corpus_edition
from .test_align import BASE, by_new, by_old, edition
from .test_align_surplus import pieces_added_by

RULE = "100.3. The player with the tallest widget chooses who takes the first turn."
MEASURED = "Measuring uses a brass ruler held flat against the widget."
OLD = BASE.replace(RULE, f"{RULE} {MEASURED}")
#: The measuring sentence said again in other words and order (too far apart in letters
#: for the surplus-piece step), with one more sentence of its own.
REWORDED = (
    "100.3a A player measuring a widget has a brass ruler held flat against it; that is "
    "what the ruler is for, and nothing else uses it. Soft rulers bend."
)


def _pieces_added(new_body: str, old_body: str = OLD) -> dict[str, list[str]]:
    return pieces_added_by(_add_reworded_surplus_pieces, old_body, new_body)


def test_a_reworded_sentence_held_whole_by_a_free_subrule_makes_it_a_piece() -> None:
    new = BASE.replace(RULE, f"{RULE}\n\n{REWORDED}")
    assert _pieces_added(new) == {"100.3": ["100.3", "100.3a"]}


def test_no_piece_when_the_words_are_said_elsewhere_or_denied() -> None:
    # The counterpart itself still holds the sentence's words.
    kept = BASE.replace(RULE, f"{RULE} A brass ruler held flat measures it.\n\n{REWORDED}")
    assert _pieces_added(kept) == {}
    # Two free rules beside the counterpart hold the words: the text does not decide.
    twice = BASE.replace(
        RULE,
        f"{RULE}\n\n{REWORDED}\n\n100.3b Measuring a widget uses a brass ruler, held "
        "flat against it by the referee.",
    )
    assert _pieces_added(twice) == {}
    # The old sentence denies what the free rule asserts.
    denied = BASE.replace(RULE, f"{RULE} No widget is measured using a brass ruler held flat.")
    asserted = BASE.replace(
        RULE, f"{RULE}\n\n100.3a Players measure each widget using a brass ruler held flat."
    )
    assert _pieces_added(asserted, denied) == {}
    # The sentence is kept word for word inside another new rule: it went there.
    elsewhere = BASE.replace(RULE, f"{RULE}\n\n{REWORDED}").replace(
        "100.2c Tokens are never shared between players; see rule 100.2a for running out.",
        f"100.2c {MEASURED[:-1]}; a referee checks it.",
    )
    assert _pieces_added(elsewhere) == {}


def test_a_rule_split_into_reworded_pieces_in_the_corpus() -> None:
    # 2004-06-01 -> 2020-06-01: the old activated-ability rule's first sentence (how the
    # ability is written) went, reworded, to the new general rule above the subrule that
    # keeps the rest; the old mana-cost rule's sentences went to the rule on where the
    # cost is printed and to the rule on objects without a mana cost.
    a = align(corpus_edition("2004-06-01"), corpus_edition("2020-06-01"))
    assert set(by_old(a, "403.1").new_ids) == {"602.1", "602.1a"}
    assert by_new(a, "602.1").old_ids == ("403.1",)
    assert set(by_old(a, "203.1").new_ids) == {"202.1", "202.1a", "202.1b"}


def test_a_sentence_kept_inside_another_rule_is_no_reworded_piece_in_the_corpus() -> None:
    # 2009-05-01 -> 2009-07-11: the special-action rule's first sentence is kept inside
    # the stack section's rule; the free definition rule that rewords it is no piece.
    a = align(corpus_edition("2009-05-01"), corpus_edition("2009-07-11"))
    assert "114.1" not in by_old(a, "408.1i").new_ids


# --- twins: one old rule written again for each of two subjects -------------------------

TOKENS_RULE = "100.2c Tokens are never shared between players; see rule 100.2a for running out."
GENERAL = (
    "100.2c A widget that touches the table edge while moving stops; its player loses a token."
)
TURNING = (
    "100.2c A turning widget that touches the table edge stops at once, and the player "
    "who turned it loses one token."
)
ROLLING = (
    "100.2d A rolling widget that touches the table edge stops at once, and the player "
    "who rolled it loses one token."
)


def _twins_added(old_rule: str, new_rules: str) -> dict[str, list[str]]:
    """Old id -> new ids of its split after the twin pass, the edge rule weakly paired
    with its namesake and every other rule paired by number."""
    p = _Pairing(
        _rule_nodes_of(edition(BASE.replace(TOKENS_RULE, old_rule))),
        _rule_nodes_of(edition(BASE.replace(TOKENS_RULE, new_rules))),
    )
    new_index = {node.id: j for j, node in enumerate(p.new)}
    for i, node in enumerate(p.old):
        j = new_index.get(node.id)
        if j is not None:
            weak = node.id == "100.2c"
            p.pair(i, j, 60.0 if weak else 100.0, "fuzzy" if weak else "exact")
    splits: dict[int, list[int]] = {}
    _add_twin_pieces(p, splits, {})
    return {p.old[i].id: [p.new[j].id for j in group] for i, group in splits.items()}


def test_a_general_rule_written_again_for_two_subjects_takes_both_twins() -> None:
    assert _twins_added(GENERAL, f"{TURNING}\n\n{ROLLING}") == {"100.2c": ["100.2c", "100.2d"]}


def test_no_twin_piece_for_a_new_subject_or_a_run_of_parallel_rules() -> None:
    # The old rule names the turning widget only: the rolling twin is a new subject's.
    turning_only = GENERAL.replace("A widget", "A turning widget")
    assert _twins_added(turning_only, f"{TURNING}\n\n{ROLLING}") == {}
    # Three rules to one frame: each has its own subject, the text does not decide.
    sliding = (
        ROLLING.replace("100.2d", "100.2e").replace("rolling", "sliding").replace("rolled", "slid")
    )
    assert _twins_added(GENERAL, f"{TURNING}\n\n{ROLLING}\n\n{sliding}") == {}


def test_a_rule_split_into_twins_in_the_corpus() -> None:
    # 2004-06-01 -> 2020-06-01: the old rule on when an activated or triggered ability is
    # targeted went to the new rule for each kind of ability.
    a = align(corpus_edition("2004-06-01"), corpus_edition("2020-06-01"))
    assert set(by_old(a, "415.2").new_ids) == {"115.1c", "115.1d"}
    # 2018-06-08 -> 2026-06-19: the "event already happened" rule, written again for
    # spells and activated abilities and for triggered abilities.
    a = align(corpus_edition("2018-06-08"), corpus_edition("2026-06-19"))
    assert set(by_old(a, "610.3a").new_ids) == {"610.3a", "610.3b"}
