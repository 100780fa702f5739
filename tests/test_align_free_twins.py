"""A free old rule written on its sibling's frame goes to the free new twin of where that
sibling went (rulediff.sentences._place_free_twins).

Real data, read from the corpus at run time (no rule text here); every id below was
checked by reading both editions.
"""

from __future__ import annotations

import pytest

from .test_rescue_own_runs import aligned


@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("2006-07-15", "2016-11-11"),
        ("2001-07-23", "2012-05-01"),
        # the attack check split only by where its two examples went (round 66)
        ("2001-07-23", "2018-04-27"),
        ("2005-02-01", "2022-02-18"),
    ],
)
def test_the_blocking_check_follows_the_attacking_check(old: str, new: str) -> None:
    # The old section on legal attacks and blocks says twice, for attackers and then
    # for blockers, how the declaring player checks restrictions and requirements. The
    # attack check went into the declare-attackers step (a split: restrictions, then
    # requirements); the block check's requirement twin in the declare-blockers step is
    # free and speaks of blocking, not attacking. (Its restriction twin took the
    # evasion rules: not free, so not listed.)
    a = aligned(old, new)
    attack = a.match_for_old("500.2")
    assert attack is not None and attack.new_ids == ("508.1c", "508.1d")
    block = a.match_for_old("500.3")
    assert block is not None and block.new_ids == ("509.1c",)
