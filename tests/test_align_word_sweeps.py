"""A sentence is also read with the pair's phrase changes alone (round 62): a word that
the new edition swapped for another in many rules is not swapped in every rule.

Real data is read from the corpus at run time (no rule text here); every id below was
checked by reading both editions.
"""

from __future__ import annotations

import pytest

from rulediff import align, provenance

from .test_rescue_own_runs import aligned


def test_a_sweep_of_one_word_is_told_from_a_phrase_change() -> None:
    assert align._word_for_word(("gizmo", "doohickey"))
    assert not align._word_for_word(("in the box", "on the shelf"))
    assert not align._word_for_word(("its owner's", "their"))  # an apostrophe: a phrase


def test_the_reading_without_word_swaps_links_a_sentence_kept_word_for_word() -> None:
    # Written for this test: "in the box" became "on the shelf" everywhere, and "gizmo"
    # became "doohickey" in enough rules to count as a sweep, though not in this one.
    old = provenance.units(0, "A gizmo is a widget or token in the box.")
    new = provenance.units(0, "A gizmo is a widget or token on the shelf.")
    sweeps = provenance.longest_first([("in the box", "on the shelf"), ("gizmo", "doohickey")])
    keys = [provenance.apply_sweeps(u.key, sweeps) for u in old]
    phrases = [s for s in sweeps if not align._word_for_word(s)]
    other = [provenance.apply_sweeps(u.key, phrases) for u in old]
    # every sweep applied: the sentence reads "a doohickey is …", a near link at best
    (near,) = provenance.link_units(old, new, keys)
    assert near.score < 100.0
    # the phrase changes alone: word for word the new sentence
    assert provenance.link_units(old, new, keys, other_keys=other) == [provenance.Link(0, 0, 100.0)]
    # without a second reading nothing changes
    assert provenance.link_units(old, new, keys, other_keys=keys) == [near]


@pytest.mark.parametrize(
    ("old", "new"),
    [("2002-10-07", "2026-06-19"), ("2003-03-15", "2026-06-19"), ("2002-10-07", "2018-01-19")],
)
def test_the_permanent_definition_finds_its_new_rule(old: str, new: str) -> None:
    # The old "Permanent Type" rules open by defining a permanent as a card or token in
    # play; the new "Permanents" rules open with the same sentence, "in play" now "on the
    # battlefield". Between these editions "permanent" and "card" also each became
    # "object" in enough rules to count as sweeps, and with them applied the old sentence
    # no longer read as the new one: the rule was left removed.
    a = aligned(old, new)
    match = a.match_for_old("214.1")
    assert match is not None and match.new_ids_of("214.1") == ("110.1",)
