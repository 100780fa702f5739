"""A free old rule goes where its examples went, when the two texts share a run of words."""

from __future__ import annotations

import pytest

from rulediff.align import align

from .conftest import corpus_edition
from .test_align import BASE, by_old, edition, matched_pairing

# The example plays out one case with named gizmos: it moves with its rule, word for word.
EXAMPLE = (
    "Example: Ann copies Bob's whirligig after Bob set it to seven. Ann's copy has no "
    "setting, so its spin ability spins it zero times."
)
# The old edition says, under copying, what a copy makes of a setting nobody chose ...
OLD = BASE + (
    "\n4. Gadgets\n\n400. Copying Gizmos\n\n400.1. A gizmo can copy another gizmo.\n"
    "\n400.2. Because the settings of a gizmo aren't copied, a copy sometimes gains an "
    "ability that refers to a setting nobody chose. That setting is then treated as blank.\n"
    f"\n{EXAMPLE}\n"
    "\n401. Settings\n\n401.1. Some gizmos ask their owner for a setting as they are "
    "switched on.\n"
)


def new_edition(rewrite: str) -> str:
    """... the new one says it again, reworded, under settings, with the same example."""
    return BASE + (
        "\n4. Gadgets\n\n400. Copying Gizmos\n\n400.1. A gizmo can copy another gizmo.\n"
        "\n401. Settings\n\n401.1. Some gizmos ask their owner for a setting as they are "
        f"switched on.\n\n401.2. {rewrite}\n\n{EXAMPLE}\n"
    )


# Keeps a run of the old wording ("an ability that refers to a setting").
KEPT_RUN = (
    "If a gizmo gains an ability that refers to a setting but its linked ability isn't "
    "copied, or no setting was chosen for it, the setting is undefined and that part of "
    "the ability does nothing."
)
# Says the like in other words: no run of four words in common.
NO_RUN = (
    "If a gizmo's linked ability isn't copied along with the other, or nothing was picked "
    "for it, what it chose is undefined and that part does nothing."
)


def _example_links(old: str, new: str, taken: tuple[str, str] | None = None) -> dict:
    """What :func:`rulediff.align._follow_examples` does by itself once rules, headings and
    examples are matched: old id → its new counterpart, and new id → its merge sources."""
    from rulediff.align import _example_nodes, _follow_examples, _match_examples
    from rulediff.pairing import _Pairing

    p = matched_pairing(old, new, taken)  # taken: a link made before, by another pass
    before = {i for i, j in enumerate(p.o2n) if j >= 0}
    examples = _Pairing(_example_nodes(edition(old)), _example_nodes(edition(new)))
    _match_examples(examples, {})
    merges: dict[int, list[int]] = {}
    placed = _follow_examples(p, examples, {}, merges, {})
    out: dict[str, list[str]] = {}
    for i, j in enumerate(p.o2n):
        if j >= 0 and i not in before:
            out[p.old[i].id] = [p.new[j].id]
    for j, group in merges.items():
        out[p.new[j].id] = sorted(p.old[i].id for i in group)
    assert placed == bool(out)
    return out


def test_a_rule_rewritten_where_its_example_went_follows_it() -> None:
    assert _example_links(OLD, new_edition(KEPT_RUN)) == {"400.2": ["401.2"]}
    # the new rule already taken by another old rule: the free one joins it as a source
    taken = _example_links(OLD, new_edition(KEPT_RUN), ("401.1", "401.2"))
    assert taken == {"401.2": ["400.2", "401.1"]}


def test_an_example_kept_while_its_rule_is_dropped_decides_nothing() -> None:
    # the example still went to 401.2, but no run of the old wording did
    assert _example_links(OLD, new_edition(NO_RUN)) == {}
    # and the whole alignment leaves the rule removed, the example matched
    a = align(edition(OLD), edition(new_edition(NO_RUN)))
    assert by_old(a, "400.2").kind == "removed"
    assert [m.new_ids for m in a.examples if m.old_ids == ("400.2#ex1",)] == [("401.2#ex1",)]


# One old rule checks spins both ways, an example for each way ...
EXAMPLE_LIMIT = "Example: Ann's whirligig is asleep, so it can't spin while Bob's top spins."
EXAMPLE_DEMAND = "Example: Bob's top must spin each turn; Ann's whirligig needn't, and doesn't."
OLD_CHECK = BASE + (
    "\n4. Gadgets\n\n400. Spinning\n\n400.1. Gizmos spin in the spin step.\n"
    "\n400.2. As gizmos spin, the active player checks each gizmo for limits and demands; "
    "the spin is illegal if a limit is broken or a demand could be met and is not.\n"
    f"\n{EXAMPLE_LIMIT}\n\n{EXAMPLE_DEMAND}\n"
)
# ... the new edition checks them in two rules, each opening on the check, an example each.
NEW_CHECK = BASE + (
    "\n4. Gadgets\n\n400. Spinning\n\n400.1. Gizmos spin in the spin step.\n"
    "\n400.2. To spin, the active player chooses gizmos and then checks them.\n"
    "\n400.2a First the active player checks each gizmo for limits. A broken limit makes "
    f"that spin illegal.\n\n{EXAMPLE_LIMIT}\n"
    "\n400.2b Then the active player checks each gizmo for demands. Fewer demands met "
    f"than could be makes that spin illegal.\n\n{EXAMPLE_DEMAND}\n"
)


def test_a_rule_whose_examples_went_to_two_sibling_rules_is_split_into_them() -> None:
    from rulediff.align import _example_nodes, _follow_examples, _match_examples
    from rulediff.pairing import _Pairing

    p = matched_pairing(OLD_CHECK, NEW_CHECK, ("400.2", "400.2"))
    p.withdraw(p.old_by_place["400.2"])  # the old rule free: only its examples place it
    examples = _Pairing(_example_nodes(edition(OLD_CHECK)), _example_nodes(edition(NEW_CHECK)))
    _match_examples(examples, {})
    splits: dict[int, list[int]] = {}
    assert _follow_examples(p, examples, splits, {}, {})
    assert {p.old[i].id: [p.new[j].id for j in g] for i, g in splits.items()} == {
        "400.2": ["400.2a", "400.2b"]
    }


# A rule whose second sentence, with the example, became a subrule of its own.
EXAMPLE_WAKE = (
    "Example: Ann's whirligig wakes as it is switched on; it can't sleep in that same step."
)
OLD_WAKE = BASE + (
    "\n4. Gadgets\n\n400. Waking\n\n400.1. A gizmo that wakes may wake other gizmos. "
    "Such a wake can't put the gizmo itself back to sleep.\n"
    f"\n{EXAMPLE_WAKE}\n"
)
NEW_WAKE = BASE + (
    "\n4. Gadgets\n\n400. Waking\n\n400.1. A gizmo that wakes may wake other gizmos.\n"
    "\n400.1a While a gizmo wakes, no choice can put the gizmo itself back to sleep.\n"
    f"\n{EXAMPLE_WAKE}\n"
)


def test_an_example_gone_to_a_new_subrule_makes_it_a_piece_of_its_rule() -> None:
    from rulediff.align import _example_nodes, _follow_examples, _match_examples
    from rulediff.pairing import _Pairing

    def pieces(old: str, new: str) -> dict[str, list[str]]:
        p = matched_pairing(old, new, ("400.1", "400.1"))  # as the sentence links pair it
        examples = _Pairing(_example_nodes(edition(old)), _example_nodes(edition(new)))
        _match_examples(examples, {})
        splits: dict[int, list[int]] = {}
        _follow_examples(p, examples, splits, {}, {})
        return {p.old[i].id: [p.new[j].id for j in g] for i, g in splits.items()}

    assert pieces(OLD_WAKE, NEW_WAKE) == {"400.1": ["400.1", "400.1a"]}
    # the subrule in other words: the example alone decides nothing
    reworded = NEW_WAKE.replace("no choice can put the gizmo itself back to sleep", "it stays up")
    assert pieces(OLD_WAKE, reworded) == {}


def test_a_run_another_old_rule_says_decides_nothing() -> None:
    # a second old rule says the same run: it is the edition's phrase, not the note's
    twice = OLD + (
        "\n401.2. Whenever a gizmo gains an ability that refers to a setting, its owner is told.\n"
    )
    new = new_edition(KEPT_RUN) + (
        "\n401.3. Whenever a gizmo gains an ability that refers to a setting, its owner is told.\n"
    )
    assert _example_links(twice, new) == {}


@pytest.mark.parametrize(
    ("old", "new", "rule", "kind", "counterparts"),
    [
        # the copy rules' note on a choice never made: the linked-abilities rule now,
        # where its example went; on an older pair it joins the note on a remembered
        # choice, matched before, in the rule they both became
        ("2004-10-01", "2026-06-19", "503.7", "renumbered-edited", ("607.5a",)),
        ("2001-07-23", "2012-05-01", "503.7", "merged", ("706.7a",)),
        # leaves-play triggers "look back in time": the zone-change trigger rule now
        ("2004-10-01", "2026-06-19", "410.10d", "renumbered-edited", ("603.10a",)),
        # the trample note on effects that change the damage dealt: one more sentence
        # of the trample rule, beside its old main rule
        ("2009-05-01", "2009-07-11", "502.9d", "merged", ("702.17b",)),
        # the requirement check of attacks and blocks: its two examples went to the
        # attack rule's restriction and requirement checks (the pair's sweeps miss the
        # player wording there, so the opening-run pass does not see it)
        ("2003-07-01", "2021-06-18", "500.2", "split", ("508.1c", "508.1d")),
        # a matched rule whose example went to one more rule saying its words: a piece.
        # The entering-replacement rule's second sentence became its new subrule ...
        ("2012-06-01", "2012-07-01", "614.13", "split", ("614.13", "614.13a")),
        # ... and the target announcement of the casting steps, matched to the target
        # rule by its sentence on one target chosen twice, is the casting step too
        ("2004-10-01", "2024-09-20", "409.1c", "split", ("115.3", "601.2c")),
        # the note on non-trample damage: its example went to the trample rule too, but
        # its sentence did not (no run of its words): still removed
        ("2009-05-01", "2009-07-11", "502.9e", "removed", ()),
    ],
)
def test_rules_follow_their_examples_on_real_editions(
    old: str, new: str, rule: str, kind: str, counterparts: tuple[str, ...]
) -> None:
    a = align(corpus_edition(old), corpus_edition(new))
    m = by_old(a, rule)
    assert (m.kind, m.new_ids_of(rule)) == (kind, counterparts)
    if kind == "removed":  # its example did go: the run of words decided
        (ex,) = [e for e in a.examples if e.old_ids == (f"{rule}#ex1",)]
        assert ex.new_ids and ex.new_ids[0].startswith("702.17b#")
