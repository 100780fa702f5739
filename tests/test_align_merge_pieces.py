"""A source of a merge that also left a sentence in a free rule: one group, every piece."""

from __future__ import annotations

import pytest

from rulediff.align import align

from .conftest import corpus_edition
from .test_align import BASE, by_new, by_old, edition

MOVE = "200.3. During the move step, the active player moves his or her widget up to three spaces."
TRACK = " along the painted track, never across it, and never onto a space another widget holds."
SPIN = "200.2. During the spin step, the active player spins his or her widget once."
COPY = "A copy of a widget is also a widget."
OLD = BASE.replace(MOVE, MOVE[:-1] + TRACK + ' (See rule 201, "Resting.") ' + COPY)
JOINED = (
    "200.2. During the spin step, the active player spins their widget once. During the move "
    "step, the active player moves their widget up to three spaces" + TRACK
)


def test_a_merge_source_whose_last_sentence_opens_a_free_subrule_lists_both_pieces() -> None:
    new = BASE.replace(
        f"{SPIN}\n\n{MOVE}",
        f"{JOINED}\n\n200.2a {COPY} Copies are made only by the bank, once a game, on request.",
    )
    a = align(edition(OLD), edition(new))
    group = by_old(a, "200.3")
    assert group is by_new(a, "200.2a") is by_old(a, "200.2")
    assert group.kind == "split" and group.new_ids == ("200.2", "200.2a"), group
    assert group.new_ids_of("200.3") == ("200.2", "200.2a")
    assert group.new_ids_of("200.2") == ("200.2",)
    assert group.old_ids_of("200.2a") == ("200.3",)


def test_a_sentence_moved_far_from_the_merge_is_moved_text_not_a_piece() -> None:
    # The free rule holding the sentence stands in another chapter, neither beside the
    # merged rule nor in the old rule's place: the merge stays, the sentence is moved text.
    rule = "100.3. The player with the tallest widget chooses who takes the first turn."
    far = f"{rule}\n\n100.4. {COPY} Copies are made only by the bank, once a game, on request."
    new = BASE.replace(f"{SPIN}\n\n{MOVE}", JOINED).replace(rule, far)
    a = align(edition(OLD), edition(new))
    merged = by_old(a, "200.3")
    assert merged.kind == "merged" and merged.new_ids == ("200.2",), merged
    assert by_new(a, "100.4").kind == "added"
    assert [(o, n) for o, n, _t in merged.moved_text] == [("200.3", "100.4")]


@pytest.mark.parametrize(
    ("old", "new"),
    [("2004-10-01", "2026-06-19"), ("2003-12-01", "2018-01-19"), ("2004-06-01", "2012-10-01")],
)
def test_spell_rule_merged_with_its_zone_rule_keeps_its_copy_sentence_as_a_piece(
    old: str, new: str
) -> None:
    # 401.1 (what makes a card on the stack a spell) went into the new spell rule with 213.1; its
    # last sentence, on a copy of a spell, opens the new subrule just below.
    a = align(corpus_edition(old), corpus_edition(new))
    group = by_old(a, "401.1")
    spell = group.new_ids[0]
    assert group.kind == "split" and "213.1" in group.old_ids, group
    assert group.new_ids_of("401.1") == (spell, f"{spell}a")
    assert group.old_ids_of(f"{spell}a") == ("401.1",)


def test_main_phase_rule_keeps_its_priority_sentence_after_a_titled_pointer() -> None:
    # 305.3's sentence on priority follows a pointer closed by a quoted title; cut as a
    # sentence of its own, it is the statement of 505.4, the parent of 305.3's piece 505.4a.
    a = align(corpus_edition("2009-05-01"), corpus_edition("2009-07-11"))
    split = by_old(a, "305.3")
    assert split.kind == "split" and split.new_ids == ("505.3", "505.4", "505.4a"), split


def test_a_statement_kept_by_a_free_rule_does_not_stop_the_split_it_leads() -> None:
    # 419.7c (choosing a source of damage) opens with what the free 609.7 says; its
    # pieces are found as before: only a taken rule keeping the statement stops the
    # rescue from placing the rule by a later sentence.
    a = align(corpus_edition("2001-09-24"), corpus_edition("2013-02-01"))
    split = by_old(a, "419.7c")
    assert split.kind == "split" and split.new_ids == ("609.7", "609.7a", "609.7b"), split


def test_face_down_rule_is_no_source_of_the_turning_face_up_action() -> None:
    # 409.4a (a prohibited card played face down) only points, as 408.2h does, to the
    # face-down rules; its pointer is a unit of its own now and carries no merge.
    a = align(corpus_edition("2007-10-01"), corpus_edition("2018-01-19"))
    assert by_new(a, "115.2b").old_ids == ("408.2h",)
    assert "115.2b" not in by_old(a, "409.4a").new_ids


REST = '201.2. The rest step ends when the active player says "done."'
FIRST = "100.3. The player with the tallest widget chooses who takes the first turn."
MARKER = "A marker is a token set on a space of the painted track."
BECOMES = (
    "A token becomes a marker when it is set on a space and it stops being a marker when a "
    "player picks it up."
)


def test_a_statement_said_twice_joins_the_merge_that_took_the_other_copy() -> None:
    # Written for this test, after the old permanents rules: the old edition defines a
    # marker twice, in a general rule (worded a little differently) and as the first
    # sentence of the markers rule; the new markers rule opens with that definition and
    # goes on with the sentence of the next old rule, and the rest went to a new rule.
    old = BASE.replace(
        FIRST,
        f"{FIRST}\n\n100.4. A marker is a token that's set on a space of the painted track. "
        '(See rule 201, "Resting.")',
    ).replace(
        REST,
        f"{REST}\n\n201.3. {MARKER} There are two kinds of markers, red ones and blue ones, "
        f"and each player owns five of each kind.\n\n201.4. {BECOMES}",
    )
    new = BASE.replace(
        REST,
        f"{REST}\n\n201.3. {MARKER} {BECOMES}\n\n201.4. There are two kinds of markers, red "
        "ones and blue ones; each player owns five markers of each kind.",
    )
    a = align(edition(old), edition(new))
    group = by_old(a, "201.3")
    assert group is by_old(a, "100.4") is by_old(a, "201.4"), group
    assert group.kind == "split" and group.new_ids == ("201.3", "201.4")
    assert group.new_ids_of("201.3") == ("201.3", "201.4")
    assert group.old_ids_of("201.3") == ("100.4", "201.3", "201.4")
    assert group.old_ids_of("201.4") == ("201.3",)


@pytest.mark.parametrize(
    ("old", "new", "tokens"),
    [
        ("2009-05-01", "2009-07-11", True),
        ("2008-10-01", "2014-06-01", True),
        ("2004-10-01", "2026-06-19", False),
        ("2008-07-15", "2019-08-23", False),
    ],
)
def test_the_permanents_rule_keeps_its_definition_merged_into_the_new_rule(
    old: str, new: str, tokens: bool
) -> None:
    # 200.6 and 214.1 both define a permanent; the new permanents rule 110.1 opens with
    # that definition and goes on with 214.3's first sentence; 214.1's list of
    # permanent types is 110.4. Up to 2014 the new tokens rule 110.5 likewise opens with
    # 216.1's first sentence (effects that put tokens into play) and 200.4's definition.
    a = align(corpus_edition(old), corpus_edition(new))
    group = by_old(a, "214.1")
    assert group.kind == "split" and group.new_ids_of("214.1") == ("110.1", "110.4")
    assert group.old_ids_of("110.1") == ("200.6", "214.1", "214.3")
    if tokens:
        assert by_old(a, "216.1").new_ids_of("216.1") == ("110.5", "110.5b")
