"""A free old rule torn between free candidates goes to the one it shares its own run with
(rulediff.rescue._decide_by_own_runs).

Real data, read from the corpus at run time (no rule text here); every id below was
checked by reading both editions.
"""

from __future__ import annotations

import functools

from rulediff.align import align
from rulediff.matches import Alignment
from rulediff.rescue import _closest_unit

from .conftest import corpus_edition


@functools.cache
def aligned(old: str, new: str) -> Alignment:
    return align(corpus_edition(old), corpus_edition(new), use_cache=False)


def test_the_hybrid_symbols_rule_goes_to_the_hybrid_rule_not_the_phyrexian_one() -> None:
    # 2005's "half-half" symbols rule scores as high against the modern Phyrexian symbols
    # rule (written on the hybrid rule's frame) as against the hybrid rule; only the
    # hybrid rule keeps its words on paying a two-colour symbol. It had been split into
    # both.
    for old, new in (("2005-10-01", "2024-07-30"), ("2006-02-01", "2023-11-17")):
        m = aligned(old, new).match_for_old("104.3f")
        assert m is not None
        assert (m.kind, m.new_ids) == ("renumbered-edited", ("107.4e",)), (old, new)
        phyrexian = aligned(old, new).match_for_new("107.4f")
        assert phyrexian is not None and phyrexian.kind == "added"


def test_the_numbers_rule_splits_into_negative_values_and_undeterminable_numbers() -> None:
    # 2007-05-01 cut the "treated as 0" rule in two: its first sentence became the
    # negative-numbers rule, its second the new 104.2, kept nearly word for word.
    m = aligned("2007-02-01", "2007-05-01").match_for_old("104.2")
    assert m is not None
    assert (m.kind, m.new_ids) == ("split", ("104.1b", "104.2"))


def test_a_run_one_word_longer_than_a_rivals_decides_nothing() -> None:
    # The trample note on blockers removed from combat shares "... its damage is assigned
    # to the defending player" with the modern note on blocked attackers with no
    # blockers left, and one word more with the trample-over-planeswalkers rule: it
    # stays with the former.
    m = aligned("2005-10-01", "2024-07-30").match_for_old("502.9c")
    assert m is not None
    assert m.new_ids == ("702.19d",)


def test_a_short_run_with_a_rule_on_another_loop_decides_nothing() -> None:
    # The two-player loop rule shares a few words on turn order with the modern
    # fragmented-loop rule, whose old counterpart is the independent-actions loop rule.
    m = aligned("2005-10-01", "2024-07-30").match_for_old("421.3")
    assert m is not None
    assert "729.3" not in m.new_ids


def test_the_closest_sentence_is_read_whole_not_cut_at_a_colon() -> None:
    sentences = ["the dial turns left: red, blue or green.", "a dial can be locked."]
    assert _closest_unit(sentences, "locked dials can be unlocked. a dial can be locked.") == 1
    assert _closest_unit(sentences, "the dial turns left: red or blue.") == 0
