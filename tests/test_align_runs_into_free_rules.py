"""A free new rule holding a run of a matched old rule's words is one more piece of it
(rulediff.sentences._follow_runs_into_free_rules).

Real data, read from the corpus at run time (no rule text here); every id below was
checked by reading both editions.
"""

from __future__ import annotations

import pytest

from .test_rescue_own_runs import aligned


def new_ids_of(old: str, new: str, rule: str) -> tuple[str, ...]:
    m = aligned(old, new).match_for_old(rule)
    assert m is not None
    return m.new_ids


def test_the_sentence_on_all_players_passing_is_a_piece_of_the_priority_rule() -> None:
    # The 2004 priority rule ends on what happens when every player passes in
    # succession; today that is a numbered rule of its own beside the priority rule.
    m = aligned("2004-10-01", "2026-06-19").match_for_old("408.1c")
    assert m is not None
    assert (m.kind, m.new_ids) == ("split", ("117.3a", "117.4"))


def test_the_blocking_creature_sentence_is_a_piece_of_the_blocked_status_rule() -> None:
    # 2003-07-01 cut declaring blockers into steps: the old rule on blocking and blocked
    # creatures became two steps, and the cost rule gained the step where mana
    # abilities may be played.
    old, new = "2003-03-15", "2003-07-01"
    assert new_ids_of(old, new, "309.4") == ("309.2e", "309.2f")
    assert "409.1g" in new_ids_of(old, new, "409.1f")


@pytest.mark.parametrize(
    ("old", "new", "rule", "not_a_piece"),
    [
        # the counterpart keeps the sentence: the new rule is its frame for a card cast
        # transformed, a case the old edition lacks
        ("2015-03-27", "2025-11-14", "711.6", "712.11a"),
        # the run is in one sentence of the old rule, the new sentence is closer to
        # another (a frame written again for another player)
        ("2009-07-11", "2021-04-22", "806.7b", "805.9"),
        # far from the counterpart in the new tree: a stock list of effect sources
        ("2001-07-23", "2012-05-01", "418.3b", "400.7a"),
        # the run is in a parenthetical pointer of the old rule, not what it states
        ("2009-05-01", "2009-07-11", "212.1e", "204.3e"),
    ],
)
def test_a_run_the_guards_refuse_is_no_piece(
    old: str, new: str, rule: str, not_a_piece: str
) -> None:
    assert not_a_piece not in new_ids_of(old, new, rule)
