"""A merge source whose subject the new edition lists as a kind of what the new rule
names is no foreign source (rulediff.sentences._a_kind_of_what_it_names, inside
_drop_foreign_sources).

The synthetic editions are the widget game's, written for these tests; the corpus cases
are read from the corpus at run time (no rule text here), every id checked by reading
both editions.
"""

from __future__ import annotations

import pytest

from rulediff.align import _rule_nodes
from rulediff.pairing import _Pairing
from rulediff.sentences import _drop_foreign_sources

from .test_align import edition
from .test_rescue_own_runs import aligned

# Enough plain rules that a word said by one or two rules is rare (KIND_NAME_SHARE).
_FILLER = "".join(
    f"\n100.{n}. Rule {n} of the basics says when a player may move tokens.\n" for n in range(1, 61)
)

_OLD = f"""
1. Basics

100. General
{_FILLER}
2. Gadgets

200. Gadgets

200.1. If an effect turns a flip gadget face down, it keeps its colour and loses its name.

200.2. If an effect turns a spin gadget face down, it keeps its colour and loses its name.
"""

_KINDS = (
    "200.1. There are three kinds of two-sided gadgets: flip gadgets, spin gadgets, and roll "
    "gadgets.\n"
)
_RULE = (
    "200.2. If an effect turns a two-sided gadget face down, it keeps its colour and "
    "loses its name and any text.\n"
)

_NEW = f"""
1. Basics

100. General
{_FILLER}
2. Gadgets

200. Gadgets

{_KINDS}
{_RULE}"""


def _withheld(new_text: str) -> list[str]:
    """Old 200.1 and 200.2 merged into new 200.2: the sources the guard withholds."""
    p = _Pairing(_rule_nodes(edition(_OLD)), _rule_nodes(edition(new_text)))
    old_at = {n.id: i for i, n in enumerate(p.old)}
    new_at = {n.id: j for j, n in enumerate(p.new)}
    j = new_at["200.2"]
    p.pair(old_at["200.1"], j, 90.0, "fuzzy")
    merges = {j: [old_at["200.1"], old_at["200.2"]]}
    return sorted(p.old[i].id for i, _j in _drop_foreign_sources(p, merges))


def test_the_subjects_listed_as_kinds_of_what_the_rule_names_stay_its_sources() -> None:
    assert _withheld(_NEW) == []


def test_without_the_list_both_sources_are_foreign() -> None:
    # nothing says flip and spin gadgets are two-sided ones
    assert _withheld(_NEW.replace(_KINDS, "200.1. Gadgets are built of parts.\n")) == [
        "200.1",
        "200.2",
    ]


def test_a_list_whose_subject_the_rule_does_not_name_decides_nothing() -> None:
    rule = _RULE.replace("two-sided gadget", "gadget")
    assert _withheld(_NEW.replace(_RULE, rule)) == ["200.1", "200.2"]


def test_a_common_word_of_the_lead_names_no_subject() -> None:
    # "tokens" is said by every filler rule: a list of the kinds of tokens is no
    # taxonomy of what the rule names
    kinds = "200.1. The tokens of a gadget game are flip tokens, spin tokens, and roll tokens.\n"
    rule = _RULE.replace("two-sided gadget face down", "gadget face down with tokens")
    assert _withheld(_NEW.replace(_KINDS, kinds).replace(_RULE, rule)) == ["200.1", "200.2"]


@pytest.mark.parametrize(
    ("old", "new"),
    [("2020-01-24", "2026-06-19"), ("2016-07-22", "2024-02-02")],
)
def test_the_meld_face_down_rule_joins_the_double_faced_one(old: str, new: str) -> None:
    # The old meld face-down rule (712.9) and the double-faced one (711.9) became one
    # rule on double-faced cards (712.15), once the new edition listed meld cards as one
    # of three kinds of double-faced card (712.1). It had stayed removed.
    m = aligned(old, new).match_for_old("712.9")
    assert m is not None and (m.kind, m.new_ids) == ("merged", ("712.15",)), m
    assert set(m.old_ids) == {"711.9", "712.9"}
