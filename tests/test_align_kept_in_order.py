"""A free subrule rewritten as a free subrule of its parent's counterpart that keeps its
words in order (a trailing exception or a list of new cases added)."""

from __future__ import annotations

from rulediff.align import _rule_nodes_of
from rulediff.pairing import _ALNUM_WORD, _Pairing
from rulediff.sentences import (
    KEPT_IN_ORDER_SHARE,
    _pair_subrules_kept_in_order,
    _words_kept_in_order,
)

from .conftest import corpus_edition
from .test_align import BASE, aligned, by_old, edition

COUNT = "100.2b A player may count the tokens in any pile at any time."
SHARED = "100.2c Tokens are never shared between players; see rule 100.2a for running out."


def linked_after_step(new_body: str, free_old: set[str]) -> dict[str, str]:
    """Old id -> new id of each link the step makes, with every other rule paired by
    number (old ``free_old`` and the new rules missing from the old edition left free)."""
    p = _Pairing(_rule_nodes_of(edition(BASE)), _rule_nodes_of(edition(new_body)))
    new_index = {node.id: j for j, node in enumerate(p.new)}
    for i, node in enumerate(p.old):
        j = new_index.get(node.id)
        if j is not None and node.id not in free_old:
            p.pair(i, j, 100.0, "exact")
    before = list(p.o2n)
    _pair_subrules_kept_in_order(p, {}, {})
    return {p.old[i].id: p.new[j].id for i, j in enumerate(p.o2n) if j >= 0 and before[i] < 0}


def test_a_subrule_kept_in_order_with_an_exception_added_is_its_rewrite() -> None:
    new = BASE.replace(
        COUNT,
        "100.2b A player who counts a pile says the total aloud.\n\n"
        "100.2d A player may count the tokens in any pile at any time, unless a referee "
        "has covered that pile with a cloth.",
    )
    assert linked_after_step(new, {"100.2b"}) == {"100.2b": "100.2d"}


def test_the_same_words_in_another_order_or_two_close_rules_link_nothing() -> None:
    # The new rule uses the old rule's words in another order: it says something else.
    shuffled = BASE.replace(
        COUNT,
        "100.2b A player who counts a pile says the total aloud.\n\n"
        "100.2d At any time, tokens in a pile may be counted by any player.",
    )
    assert linked_after_step(shuffled, {"100.2b"}) == {}
    # Two free subrules keep the old words alike: the text does not decide.
    twice = BASE.replace(
        COUNT,
        "100.2b A player who counts a pile says the total aloud.\n\n"
        "100.2d A player may count the tokens in any pile at any time during a turn.\n\n"
        "100.2e A player may count the tokens in any pile at any time between turns.",
    )
    assert linked_after_step(twice, {"100.2b"}) == {}


def test_a_subrule_of_another_family_is_not_looked_at() -> None:
    # The kept words stand under another parent: no rewrite in the family.
    moved = BASE.replace(COUNT, "").replace(
        SHARED,
        SHARED + "\n\n201.3. A player may count the tokens in any pile at any time, unless a "
        "referee has covered that pile with a cloth.",
    )
    assert linked_after_step(moved, {"100.2b"}) == {}


def test_share_counts_only_runs_kept_in_order() -> None:
    old = _ALNUM_WORD.findall("a player may count the tokens in any pile at any time.")
    kept = _ALNUM_WORD.findall("a player may count the tokens in any pile at any time, unless x.")
    assert _words_kept_in_order(old, kept) == 1.0
    shuffled = _ALNUM_WORD.findall("at any time, tokens in a pile may be counted by any player.")
    assert _words_kept_in_order(old, shuffled) < KEPT_IN_ORDER_SHARE


def test_corpus_zero_cost_rule_with_renamed_term_is_linked() -> None:
    # 2015-01-23 202.3a (zero cost of an object with none) is 2025-11-14's 202.3a under
    # the renamed cost term, with an exception for two kinds of permanent appended.
    old, new = corpus_edition("2015-01-23"), corpus_edition("2025-11-14")
    old_text = old.rule("202.3a").text.lower()
    new_text = new.rule("202.3a").text.lower()
    assert not new_text.startswith(old_text.rstrip("."))  # the term was renamed
    m = by_old(aligned("2015-01-23", "2025-11-14"), "202.3a")
    assert m.kind != "removed" and list(m.new_ids) == ["202.3a"]
