"""A free old rule goes where a reference to it was retargeted, in a matched text."""

from __future__ import annotations

import pytest

from rulediff.align import align

from .conftest import corpus_edition
from .test_align import BASE, by_old, edition, matched_pairing

# The old edition defines gauges under dials and points to that rule from the wiring rule.
OLD = BASE + (
    "\n4. Gadgets\n\n400. Dials\n\n400.1. A dial shows one number at a time.\n"
    "\n400.2. A gauge reads its own gizmo's speed and shows it, whatever else is "
    "shown.\n"
    "\n401. Wiring\n\n401.1. Wiring a gizmo to a dial doesn't change what the dial shows "
    "(see rule 400.2).\n"
)
# The new edition states gauges as a kind of meter, and the wiring rule points there.
NEW = BASE + (
    "\n4. Gadgets\n\n400. Dials\n\n400.1. A dial shows one number at a time.\n"
    "\n401. Wiring\n\n401.1. Wiring a gizmo to a dial doesn't change what the dial shows "
    "(see rule 402.3).\n"
    "\n402. Meters\n\n402.1. Meters measure things.\n\n402.2. Meters are never wired.\n"
    "\n402.3. Each gauge tells the speed of its gizmo; nothing else that is shown "
    "changes that reading.\n"
)


def _retarget_links(old: str, new: str) -> dict[str, str]:
    """What :func:`rulediff.align._follow_retargeted_references` pairs by itself once
    rules and headings are matched."""
    from rulediff.align import _follow_retargeted_references, _glossary_nodes, _match_glossary
    from rulediff.pairing import _Pairing

    p = matched_pairing(old, new)
    before = {i for i, j in enumerate(p.o2n) if j >= 0}
    glossary = _Pairing(_glossary_nodes(edition(old)), _glossary_nodes(edition(new)))
    _match_glossary(glossary)
    _follow_retargeted_references(p, glossary, {}, {}, {})
    return {p.old[i].id: p.new[j].id for i, j in enumerate(p.o2n) if j >= 0 and i not in before}


def test_a_reference_retargeted_in_a_matched_rule_links_the_two_rules() -> None:
    assert _retarget_links(OLD, NEW) == {"400.2": "402.3"}


def test_a_retargeted_reference_to_another_subject_decides_nothing() -> None:
    # the new rule cited speaks of something else: a changed reference, no renumbering
    other = NEW.replace(
        "Each gauge tells the speed of its gizmo; nothing else that is shown changes that reading.",
        "Meters wear out after a thousand turns of play.",
    )
    assert other != NEW and _retarget_links(OLD, other) == {}
    # a text retargeted to a heading, and two citers naming two rules: nothing either
    to_heading = NEW.replace("(see rule 402.3)", "(see rule 402)")
    assert to_heading != NEW and _retarget_links(OLD, to_heading) == {}
    twice = (OLD + "\n401.2. A gauge can't be wired (see rule 400.2).\n", NEW)
    twice_new = twice[1] + "\n401.2. A gauge can't be wired (see rule 402.2).\n"
    assert _retarget_links(twice[0], twice_new) == {}


@pytest.mark.parametrize(
    ("old", "new", "rule", "kind", "counterpart"),
    [
        # the characteristic-setting abilities, cited by the rule on abilities an effect
        # grants: that rule cites the characteristic-defining abilities now
        ("2006-10-01", "2017-06-05", "405.2", "renumbered-edited", "604.3"),
        # the permanents' heading, cited by the glossary's "Permanent"
        ("2006-02-01", "2014-09-25", "214", "renumbered", "110"),
    ],
)
def test_retargeted_references_on_real_editions(
    old: str, new: str, rule: str, kind: str, counterpart: str
) -> None:
    a = align(corpus_edition(old), corpus_edition(new))
    m = by_old(a, rule)
    assert (m.kind, m.new_ids_of(rule)) == (kind, (counterpart,))


def test_a_glossary_entry_sent_to_a_new_keyword_action_links_no_headings() -> None:
    # "Destroy" cited the replacement effects' heading and cites the destroy action now;
    # a zone's heading cited for what a new permanent remembers is the new-object rule now
    a = align(corpus_edition("2002-02-20"), corpus_edition("2025-04-04"))
    assert "701.7" not in by_old(a, "419").new_ids
    assert "400.7" not in by_old(a, "217.8").new_ids
