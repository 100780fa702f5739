"""A sentence its counterpart keeps but for some of the cases it names goes on in the
one free rule beside that names them (rulediff.sentences._add_pieces_naming_dropped_cases).

Real data, read from the corpus at run time (no rule text here); every id below was
checked by reading both editions.
"""

from __future__ import annotations

import pytest

from .test_rescue_own_runs import aligned


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("2020-06-01", "2020-07-03"),  # the neighbouring pair that cut the rule in two
        ("2016-04-08", "2023-11-17"),
    ],
)
def test_the_commander_rule_cut_by_zone_is_a_split(old: str, new: str) -> None:
    # The old rule lets a commander go to the command zone instead of being exiled or
    # put into a hand, graveyard or library. The new edition keeps that replacement
    # for a hand or library only (903.9b, near word for word) and makes the graveyard
    # and exile cases a state-based choice in the rule before it (903.9a): two pieces.
    m = aligned(old, new).match_for_old("903.9")
    assert m is not None
    assert (m.kind, m.new_ids) == ("split", ("903.9a", "903.9b"))


def test_a_phrase_other_old_rules_say_is_no_trace() -> None:
    # The Archenemy state-based action keeps its counterpart; the Planechase one added
    # beside it names the words the counterpart dropped and shares a long phrase with
    # it, but that phrase is the frame of several old rules: no piece.
    m = aligned("2010-07-16", "2017-08-25").match_for_old("704.5v")
    assert m is not None
    assert m.new_ids == ("704.5w",)
