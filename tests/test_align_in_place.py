"""A rule that grew where it stood keeps its place against a copy of its statement
elsewhere (``matching._opening_kept_in_place``, issue 9)."""

from __future__ import annotations

import pytest

from rulediff.align import align

from .conftest import corpus_edition
from .test_align import by_new, by_old


@pytest.mark.parametrize(
    ("old", "new"),
    [("2005-08-01", "2018-07-13"), ("2007-10-01", "2018-01-19"), ("2008-02-01", "2013-07-13")],
)
def test_defending_player_rule_stays_under_attack_multiple_players(old: str, new: str) -> None:
    # 602.2a (which defending player a reference means) grew three sentences in 802.2a,
    # under 802, the counterpart of its parent; 508.5a says its first sentence again for
    # the declare-attackers step, opening "In a multiplayer game". It used to take 602.2a.
    a = align(corpus_edition(old), corpus_edition(new))
    assert by_old(a, "602").new_ids == ("802",)
    match = by_old(a, "602.2a")
    assert match.new_ids_of("602.2a") == ("802.2a",), match
    assert by_new(a, "508.5a").kind == "added"


def test_the_multiplayer_rule_is_edited_in_place_not_moved_to_the_combat_copy() -> None:
    # Both editions number it 802.2a; the later one also says it in 508.5a.
    a = align(corpus_edition("2009-07-11"), corpus_edition("2011-04-01"))
    match = by_old(a, "802.2a")
    assert (match.kind, match.new_ids) == ("edited", ("802.2a",)), match
    assert by_new(a, "508.5a").kind == "added"


def test_the_general_subtype_rule_keeps_its_number_and_its_neighbour_its_own() -> None:
    # 205.3b spoke of the subtypes of three card types; 2005-08-01 keeps its first sentence,
    # for every subtype, in 205.3b, and says it again for instants in 212.5c. The copy
    # used to take 205.3b, and the enchantment rule 212.4c was then lost to it too.
    a = align(corpus_edition("2004-06-01"), corpus_edition("2005-08-01"))
    assert by_old(a, "205.3b").new_ids == ("205.3b",)
    assert by_old(a, "212.4c").new_ids == ("212.4c",)
