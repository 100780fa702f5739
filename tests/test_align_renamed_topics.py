"""A renamed keyword's texts go back under its new name once the renaming is known
(rulediff.align._return_to_renamed_topics).

Real data, read from the corpus at run time (no rule text here); every id below was
checked by reading both editions.
"""

from __future__ import annotations

import pytest

from .test_rescue_own_runs import aligned


@pytest.mark.parametrize(
    ("old", "new"), [("2009-10-01", "2024-11-08"), ("2009-07-11", "2026-06-19")]
)
def test_the_renamed_card_type_keeps_its_rules(old: str, new: str) -> None:
    # Between these editions one card type was renamed for another (the renaming
    # recurs in its texts and the glossary), and a general rule on objects of several
    # card types gained a copy of that type's first rule. The old rule is the same
    # sentence as the renamed type's first rule (the name aside), one letter closer
    # than the copy: it stays in its section, the section heading is found renamed,
    # and the copy is new.
    a = aligned(old, new)
    first = a.match_for_old("308.1")
    assert first is not None and first.new_ids == ("308.1",)
    heading = a.match_for_old("308")
    assert heading is not None and heading.new_ids == ("308",)
    copy = a.match_for_new("300.2b")
    assert copy is not None and copy.kind == "added"


def test_a_neighbouring_pair_keeps_the_same_links() -> None:
    # The pair that renamed the type: every rule already in place, the copy included.
    a = aligned("2024-04-12", "2024-06-07")
    for rule in ("308", "308.1", "300.2b"):
        m = a.match_for_old(rule)
        assert m is not None and m.new_ids == (rule,)
