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
