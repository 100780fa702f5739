"""A free new rule whose opening sentence one free old rule says whole (round 75)."""

from __future__ import annotations

from rulediff.align import align

from .conftest import corpus_edition

# Paraphrases written for these tests: an old rule that speaks of gadget gears in
# passing, over two sentences, and a new rule stating it as its subject.
OLD_GEARS = (
    "Brass gadgets have gears, just like clocks. These gears turn slowly whenever the "
    "winding key rotates, unless jammed."
)
NEW_GEARS = "Brass gadgets turn their gears slowly whenever the winding key rotates."


def _gadget_pairing(new_texts: tuple[str, ...], old_extra: tuple[str, ...] = ()):
    """Old and new "Gadgets" sections, their headings and the cracked-lens rule paired;
    the old gear rule and the new texts ``new_texts`` (120.3, 120.4, …) free."""
    from rulediff.pairing import _Node, _Pairing

    old = [
        _Node("400", "Gadgets", None, True, 0),
        _Node("400.3", OLD_GEARS, "400", False, 1),
        _Node("400.4", "A gadget with a cracked lens is broken.", "400", False, 2),
    ]
    old += [_Node(f"400.{5 + k}", t, "400", False, 3 + k) for k, t in enumerate(old_extra)]
    new = [
        _Node("120", "Gadgets", None, True, 0),
        _Node("120.2", "A gadget with a cracked lens is broken.", "120", False, 1),
    ]
    new += [_Node(f"120.{3 + k}", t, "120", False, 2 + k) for k, t in enumerate(new_texts)]
    p = _Pairing(old, new)
    p.pair(0, 0, 100.0, "anchor")
    p.pair(2, 1, 100.0, "anchor")
    return p


def test_a_new_rule_whose_opening_one_old_rule_says_whole_is_that_rule() -> None:
    from rulediff.sentences import _pair_by_held_opening

    p = _gadget_pairing((NEW_GEARS,))
    _pair_by_held_opening(p, {}, {})
    assert p.o2n[1] == 2 and p.method[1] == "content"


def test_an_opening_held_whole_pairs_nothing_when_the_text_does_not_single_it_out() -> None:
    from rulediff.sentences import _pair_by_held_opening

    # a number the old rule never says
    p = _gadget_pairing((NEW_GEARS.replace("their gears", "their 12 gears"),))
    _pair_by_held_opening(p, {}, {})
    assert p.o2n[1] == -1
    # the new rule closes by sending the reader to another rule: a restatement
    p = _gadget_pairing((NEW_GEARS + " See rule 120.2.",))
    _pair_by_held_opening(p, {}, {})
    assert p.o2n[1] == -1
    # the opening said in two new rules (two variants' copies): neither
    p = _gadget_pairing(
        (
            NEW_GEARS,
            NEW_GEARS + " Copper gadgets have none in the variant with clocks.",
        )
    )
    _pair_by_held_opening(p, {}, {})
    assert p.o2n[1] == -1 and p.n2o[2] == -1 and p.n2o[3] == -1
    # another old rule says nearly all of it too
    p = _gadget_pairing(
        (NEW_GEARS,), ("Gears of brass gadgets turn slowly whenever their winding key rotates.",)
    )
    _pair_by_held_opening(p, {}, {})
    assert p.o2n[1] == -1 and p.n2o[2] == -1


def test_the_instant_and_sorcery_abilities_rule_goes_to_the_spell_abilities_rule() -> None:
    """2004-10-01 -> 2026-06-19: the old rule that instants and sorceries have abilities,
    followed when they resolve (401.3), says every content word of the opening of the new
    rule defining spell abilities (113.3a), and no other old rule does; the blind set of
    the pair names it (texts read at run time)."""
    from rulediff import provenance
    from rulediff.rescue import _stems

    old, new = corpus_edition("2004-10-01"), corpus_edition("2026-06-19")
    opening = _stems(provenance.unit_keys(new.rule("113.3a").text)[0])
    assert len(opening) >= 6 and opening <= _stems(old.rule("401.3").text.lower())
    m = align(old, new).match_for_old("401.3")
    assert m is not None and m.new_ids == ("113.3a",) and m.method == "content", m
