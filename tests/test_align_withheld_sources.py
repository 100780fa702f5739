"""A source withheld from a merge for its own words goes to the one free rule beside the
rule it left that says them (rulediff.sentences._place_withheld_by_own_words).

The synthetic editions below are the widget game's, written for these tests; the corpus
cases are read from the corpus at run time (no rule text here), every id checked by
reading both editions.
"""

from __future__ import annotations

import pytest

from rulediff.align import _rule_nodes, align
from rulediff.pairing import _Pairing
from rulediff.sentences import _place_withheld_by_own_words

from .test_align import by_new, by_old, edition
from .test_rescue_own_runs import aligned

# the old frame, written for two places
_SCRAPHEAP = (
    "If a widget would be put into its owner's scrapheap from anywhere, that player may put "
    "it into the vault instead."
)
_FURNACE = (
    "If a widget would be put into the furnace from anywhere, its owner may put it into "
    "the vault instead."
)
# new: the two places in one check, and the frame kept for two other places
_CHECK = (
    "If a widget is in a scrapheap or in the furnace and that object was moved to that "
    "place since the last time checks were made, its owner may put it into the vault. "
    "This is a check. See rule 100."
)
_CRATE = (
    "If a widget would be put into its owner's crate or toolbox from anywhere, its owner "
    "may put it into the vault instead. This may happen more than once to one event."
)

# the rules both editions share
_SHARED = """
1. Basics

100. General

100.1. A widget game is played by two or more players, each with a widget and a vault.

100.2. Each player starts the game with seven tokens.

9. Variants

900. The Vault Variant

900.1. In the vault variant, each widget begins the game in its owner's vault.

900.2. A player may take a widget out of their vault by paying two tokens.
"""

_OLD = f"""{_SHARED}
900.3. {_SCRAPHEAP}

900.4. {_FURNACE}

900.5. A player whose widget leaves the game loses three tokens.
"""

_NEW = f"""{_SHARED}
900.3. A widget may go back to the vault during a vault game.

900.3a {_CHECK}

900.3b {_CRATE}

900.4. A player whose widget leaves the game loses three tokens.
"""


def test_two_withheld_frame_rules_merge_into_the_rule_naming_their_places() -> None:
    a = align(edition(_OLD), edition(_NEW), use_cache=False)
    # the scrapheap and furnace rules were drawn to the crate rule by their shared
    # frame, and withheld there: neither place is in it
    assert by_old(a, "900.3").kind == "merged"
    assert by_old(a, "900.3").new_ids == ("900.3a",)
    assert by_old(a, "900.4").new_ids == ("900.3a",)
    assert set(by_new(a, "900.3a").old_ids) == {"900.3", "900.4"}
    # the crate rule is new: it names places no old rule named
    assert by_new(a, "900.3b").kind == "added"
    assert by_old(a, "900.5").new_ids == ("900.4",)


def _placed(new_text: str) -> dict[str, object]:
    """Old 900.3 and 900.4 withheld from new 900.3b (drawn there by the frame, undone for
    their own words): where :func:`_place_withheld_by_own_words` puts them, and the merges
    it makes. The other rules are paired by number; new 900.3 and 900.3x stay free."""
    p = _Pairing(_rule_nodes(edition(_OLD)), _rule_nodes(edition(new_text)))
    old_at = {n.id: i for i, n in enumerate(p.old)}
    new_at = {n.id: j for j, n in enumerate(p.new)}
    for rule_id in ("100", "100.1", "100.2", "900", "900.1", "900.2"):
        p.pair(old_at[rule_id], new_at[rule_id], 100.0, "anchor")
    p.pair(old_at["900.5"], new_at["900.4"], 100.0, "anchor")
    merges: dict[int, list[int]] = {}
    left = new_at["900.3b"]
    _place_withheld_by_own_words(p, [(old_at["900.3"], left), (old_at["900.4"], left)], {}, merges)
    return {
        "to": {
            rule_id: p.new[p.o2n[old_at[rule_id]]].id if p.o2n[old_at[rule_id]] >= 0 else None
            for rule_id in ("900.3", "900.4")
        },
        "merges": {p.new[j].id: sorted(p.old[i].id for i in group) for j, group in merges.items()},
    }


def test_the_pass_merges_both_withheld_rules_into_the_rule_naming_their_places() -> None:
    placed = _placed(_NEW)
    # one of them is the link, both are the merge's sources
    assert placed["merges"] == {"900.3a": ["900.3", "900.4"]}
    assert "900.3a" in placed["to"].values()  # type: ignore[union-attr]


def test_withheld_rules_stay_free_when_two_free_rules_name_their_places() -> None:
    # a second free rule beside the crate rule names the scrapheap and the furnace too:
    # the text does not say which one the old rules became
    twin = "900.3c A widget taken from a scrapheap or from the furnace is turned face up.\n"
    placed = _placed(_NEW.replace("\n900.4. ", f"\n{twin}\n900.4. "))
    assert placed == {"to": {"900.3": None, "900.4": None}, "merges": {}}


def test_a_withheld_rule_whose_place_no_free_rule_names_stays_free() -> None:
    placed = _placed(_NEW.replace("in a scrapheap or in the furnace", "out of play"))
    assert placed == {"to": {"900.3": None, "900.4": None}, "merges": {}}


def test_one_withheld_rule_named_alone_goes_there_without_a_merge() -> None:
    # the new rule names the furnace only: the scrapheap rule has nowhere to go
    placed = _placed(_NEW.replace("in a scrapheap or in the furnace", "in the furnace"))
    assert placed == {"to": {"900.3": None, "900.4": "900.3a"}, "merges": {}}


@pytest.mark.parametrize(
    ("old", "new", "graveyard", "exile"),
    [
        # the commander replacement rules (graveyard, exile) became one state-based
        # choice; the replacement frame lives on for hand and library in 903.9b
        ("2011-07-15", "2023-10-13", "903.11", "903.12"),
        ("2015-03-27", "2025-11-14", "903.11", "903.12"),
        # the same rules when the variant still called the commander a general
        ("2009-10-01", "2024-11-08", "903.10", "903.11"),
    ],
)
def test_the_commander_replacements_merge_into_the_state_based_choice(
    old: str, new: str, graveyard: str, exile: str
) -> None:
    a = aligned(old, new)
    for rule in (graveyard, exile):
        m = a.match_for_old(rule)
        assert m is not None and (m.kind, m.new_ids) == ("merged", ("903.9a",)), (rule, m)
    hand_or_library = a.match_for_new("903.9b")
    assert hand_or_library is not None and hand_or_library.kind == "added"
