"""A free old rule whose statement went into a piece of another rule's split joins it."""

from __future__ import annotations

import pytest

from rulediff.align import align

from .conftest import corpus_edition
from .test_align import BASE, by_new, by_old, edition

REST = "201.1. During the rest step, the active player may put one token back into his or her pile."
DONE = '201.2. The rest step ends when the active player says "done."'
NAP = (
    " A player who rests twice in a row skips their next spin step instead. That player still"
    " moves during the move step, and may rest again after it, but never three times running."
)
KNOCK = "Resting is over once the resting player knocks twice on the table."
OLD = BASE.replace(REST, REST + NAP).replace(DONE, f"201.2. {KNOCK}")


def _new(last: str) -> str:
    """The rest rule split in two: its first sentence stays, the rest opens 201.2, which
    ends with ``last``."""
    return BASE.replace(
        f"{REST}\n\n{DONE}",
        "201.1. During the rest step, the active player may put one token back into their pile."
        f"\n\n201.2.{NAP} {last}",
    )


def test_a_rule_whose_statement_went_into_a_split_piece_is_that_piece_s_source() -> None:
    a = align(edition(OLD), edition(_new(KNOCK)))
    group = by_old(a, "201.2")
    assert group is by_old(a, "201.1") is by_new(a, "201.2"), group
    assert group.kind == "split" and group.old_ids == ("201.1", "201.2"), group
    assert group.new_ids_of("201.2") == ("201.2",)
    assert set(group.old_ids_of("201.2")) == {"201.1", "201.2"}


def test_a_statement_said_only_in_other_words_leaves_the_rule_removed() -> None:
    # Below near-exact wording the sentence is a rewrite, not the rule kept whole: the
    # join asks the statement itself, word for word or nearly.
    reworded = "A player stops resting by tapping the table top with two knuckles."
    a = align(edition(OLD), edition(_new(reworded)))
    assert by_old(a, "201.2").kind == "removed"


@pytest.mark.parametrize(
    ("old", "new", "rule", "piece", "source"),
    [
        # banding: several bands may be declared, said whole in the split band rule
        ("2009-05-01", "2009-07-11", "502.10c", "702.19c", "502.10b"),
        # a mana ability can be activated or triggered, the opening of the split's piece
        ("2003-03-15", "2003-07-01", "406.1d", "406.4", "406.1e"),
    ],
)
def test_corpus_rules_whose_statement_went_into_a_split_piece(
    old: str, new: str, rule: str, piece: str, source: str
) -> None:
    a = align(corpus_edition(old), corpus_edition(new))
    group = by_old(a, rule)
    assert group.kind == "split" and group is by_old(a, source), group
    assert group.new_ids_of(rule) == (piece,)
    assert rule in group.old_ids_of(piece)
    assert not any(o == rule and n == piece for o, n, _t in group.moved_text)


@pytest.mark.parametrize(
    ("old", "new", "spell"),
    [("2005-02-01", "2022-04-29", "112.1"), ("2005-08-01", "2026-06-19", "112.1")],
)
def test_when_a_spell_stops_being_one_joins_the_spell_rule_its_sibling_went_into(
    old: str, new: str, spell: str
) -> None:
    # 401.2 says when a spell stops being a spell; its sibling 401.1, the definition of a
    # spell, went into the new spell rule, which also says, reworded, how long a spell
    # stays one. The section's rules were placed late, one by one, so no reworded
    # sentence link was made there (round 67).
    a = align(corpus_edition(old), corpus_edition(new))
    group = by_old(a, "401.2")
    assert group is by_old(a, "401.1"), group
    assert group.new_ids_of("401.2") == (spell,)


def test_the_artifact_land_rule_joins_the_artifact_creature_rule_in_the_multitype_rule() -> None:
    # The artifact creature and artifact land rules say alike that such a card combines
    # both types; the new rule on objects with several card types says it once. The
    # artifact creature rule went there; the land rule's statement follows (the held-out
    # blind answer for 2007-10-01 -> 2018-01-19).
    a = align(corpus_edition("2007-10-01"), corpus_edition("2013-07-13"))
    group = by_old(a, "212.2f")
    assert (group.kind, group.old_ids, group.new_ids) == (
        "merged",
        ("212.2e", "212.2f"),
        ("300.2",),
    )
