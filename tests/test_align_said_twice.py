"""A dropped rule that repeated another rule's sentence joins where that sentence lives on."""

from __future__ import annotations

import pytest

from rulediff.align import align
from rulediff.provenance import units

from .conftest import corpus_edition
from .test_align import BASE, by_new, by_old, edition

REPEAT = "A player who loses every token is out of the widget game."
KEEPER = '201.2. The rest step ends when the active player says "done."'
OLD = (
    BASE.replace(KEEPER, f"{KEEPER} {REPEAT}")
    + f"\n202. Losing\n\n202.1. {REPEAT}\n\n202.2. Only tokens in a player's pile count.\n"
)
NEW = BASE.replace(KEEPER, f"{KEEPER} {REPEAT}") + (
    "\n202. Losing\n\n202.1. Only tokens in a player's pile count.\n"
)


def test_a_rule_repeating_a_kept_sentence_merges_into_the_rule_keeping_it() -> None:
    a = align(edition(OLD), edition(NEW))
    group = by_old(a, "202.1")
    assert group is by_new(a, "201.2") is by_old(a, "201.2"), group
    assert group.kind == "merged" and set(group.old_ids) == {"201.2", "202.1"}, group
    assert by_old(a, "202.2").new_ids == ("202.1",)


def test_a_rule_with_a_sentence_of_its_own_dropped_is_not_folded_away() -> None:
    # Only a rule whose every sentence lives on in the keeper is folded into it: one
    # that also said something the new edition drops keeps its own verdict.
    own = "Its widget is then laid on its side until the next game begins."
    a = align(edition(OLD.replace(f"202.1. {REPEAT}", f"202.1. {REPEAT} {own}")), edition(NEW))
    assert by_old(a, "202.1").kind == "removed"


@pytest.mark.parametrize(
    ("old", "new", "rule", "keeper", "home"),
    [
        # the unpayable-costs sentence, said again by the cost-payment step of casting
        ("2009-05-01", "2009-07-11", "424.3", "409.1h", "601.2g"),
        # the vanguard subtype sentence, said again by the vanguard rules
        ("2010-04-23", "2010-06-18", "204.3n", "310.3", "310.3"),
    ],
)
def test_corpus_rules_said_twice_merge_into_the_rule_keeping_them(
    old: str, new: str, rule: str, keeper: str, home: str
) -> None:
    before, after = corpus_edition(old), corpus_edition(new)
    text = {str(r.id): r.text for r in before.rules}
    kept = {u.key for u in units(0, text[keeper])}
    said = [u.key for u in units(0, text[rule]) if not u.points_elsewhere]
    assert said and set(said) <= kept  # the premise, read from the corpus
    group = by_old(align(before, after), rule)
    assert group.kind == "merged", group
    assert set(group.old_ids) == {rule, keeper} and group.new_ids == (home,), group
