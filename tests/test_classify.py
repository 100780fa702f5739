"""Tests of rulediff.classify: which sentences a change lists as moved text.

Real editions are read from the corpus at run time (RULEDIFF_CORPUS); the rules are named
by id and compared by what the texts say, never by copying them here.
"""

from __future__ import annotations

import functools
import re

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from rulediff.align import align
from rulediff.matches import Alignment
from rulediff.provenance import units
from tests.conftest import corpus_edition


@functools.lru_cache(maxsize=4)
def aligned(old: str, new: str) -> Alignment:
    return align(corpus_edition(old), corpus_edition(new))


def listed(a: Alignment) -> set[tuple[str, str]]:
    """(old rule, new rule) of every moved_text entry of the alignment."""
    return {(o, n) for m in a.rules for o, n, _t in m.moved_text}


def sentences(edition: str, rule: str) -> list[str]:
    return [u.key for u in units(0, corpus_edition(edition).rule(rule).text)]


def closest(keys: list[str], others: list[str]) -> tuple[float, str, str]:
    """The closest pair of sentences between two rules: (ratio, one, other)."""
    return max((fuzz.ratio(a, b), a, b) for a in keys for b in others)


def own_counterpart(a: Alignment, rule: str) -> tuple[str, ...]:
    m = a.match_for_old(rule)
    assert m is not None and m.new_ids, rule
    return m.new_ids


def test_sentence_its_own_counterpart_holds_nearly_as_closely_did_not_move() -> None:
    """2012 → 2026: a new subrule for a new case (an effect saying a creature is
    attacking) is written on the frame of the old rule on creatures put onto the
    battlefield attacking. The old rule's own counterpart keeps its reworded sentence
    within ``MOVE_MARGIN`` of the new subrule's copy (both below near-exact): the wording
    does not decide that it moved, and it is no moved text. Moves that did happen stay
    listed."""
    from rulediff.classify import MOVE_MARGIN

    old, new = "2012-02-01", "2026-04-17"
    a = aligned(old, new)
    assert own_counterpart(a, "508.4a") == ("508.4a",)
    m = a.match_for_new("508.4b")
    assert m is not None and m.kind == "added"
    sentence = sentences(old, "508.4a")[0]
    link, _, _ = closest([sentence], sentences(new, "508.4b"))
    kept, _, _ = closest([sentence], sentences(new, "508.4a"))
    assert 72 <= kept < link < min(kept + MOVE_MARGIN, 85)
    assert ("508.4a", "508.4b") not in listed(a)
    assert listed(a)


def test_a_frame_sentence_the_new_rules_predecessor_rewords_did_not_move() -> None:
    """2015 → 2025: the Aura-spell rule and its parent, the permanent-spell rule, open on
    one frame ("if the object that's resolving is a … spell, its resolution …"). The new
    permanent-spell rule rewords its parent's opening; the Aura rule's opening is a few
    points closer to it by wording alone, within ``MOVE_MARGIN``: no moved text."""
    from rulediff.classify import MOVE_MARGIN

    old, new = "2015-01-23", "2025-11-14"
    a = aligned(old, new)
    assert "608.3" in own_counterpart(a, "608.3")
    opening = sentences(new, "608.3")[0]
    link, _, _ = closest(sentences(old, "608.3a"), [opening])
    kept, _, _ = closest(sentences(old, "608.3"), [opening])
    assert kept < link < kept + MOVE_MARGIN
    assert ("608.3a", "608.3") not in listed(a)
    assert listed(a)


def test_sentence_said_whole_in_a_longer_one_did_not_move() -> None:
    """The old rule's counterpart says the old sentence whole inside a longer one (a
    qualifier added), or says the new sentence itself whole: a variant rule writing the
    sentence too took nothing from it."""
    old, new = "2012-07-01", "2024-02-02"
    a = aligned(old, new)
    assert own_counterpart(a, "100.5") == ("100.5",)
    (short,) = sentences(old, "100.5")
    words = short.rstrip(".")
    assert short in sentences(new, "903.13f")
    assert any(words in s and s != short for s in sentences(new, "100.5"))
    assert ("100.5", "903.13f") not in listed(a)

    old, new = "2006-05-01", "2009-09-04"
    a = aligned(old, new)
    assert own_counterpart(a, "101.4") == ("103.4",)
    shared = [
        s
        for s in sentences(new, "806.6a")
        if any(s.rstrip(".") in t for t in sentences(new, "103.4"))
        and len(s.split()) > 10
        and not any(fuzz.ratio(s, t) >= 85 for t in sentences(old, "101.4"))
    ]
    assert shared  # reworded from the old rule, and said again in its own counterpart
    assert ("101.4", "806.6a") not in listed(a)
    # The ability half of the old announcement rule did go to the new rule on
    # activating; its sentence there names the heading, as the old one did.
    assert ("409.1a", "602.2a") in listed(a)


def test_sentence_its_new_rules_predecessor_says_whole_did_not_come_from_elsewhere() -> None:
    """2008 → 2011: the token rule's note that this is a state-based action (with a
    pointer added) was already in its own predecessor, the recurring wording change
    applied; the same note of the phasing rule is no source of it."""
    old, new = "2008-07-15", "2011-02-04"
    a = aligned(old, new)
    m = a.match_for_new("110.5f")
    assert m is not None and m.old_ids == ("216.3",)
    note = [s for s in sentences(new, "110.5f") if "state'based action" in s]
    assert note and any("state'based effect" in s for s in sentences(old, "216.3"))
    assert any("state'based effect" in s for s in sentences(old, "502.15j"))
    assert ("502.15j", "110.5f") not in listed(a)


def test_crosswise_links_between_siblings_that_kept_their_own_are_no_move() -> None:
    """2009 → 2021: two neighbouring blocking subrules each keep their own reworded
    closing sentence; each sentence is also near the sibling's, so the links cross (old
    g → new h, old h → new g). Neither is moved text."""
    old, new = "2009-07-11", "2021-02-05"
    a = aligned(old, new)
    for rule, sibling in (("509.1g", "509.1h"), ("509.1h", "509.1g")):
        assert own_counterpart(a, rule) == (rule,)
        across, _, _ = closest(sentences(old, rule), sentences(new, sibling))
        kept, _, _ = closest(sentences(old, rule), sentences(new, rule))
        assert across >= 72 and kept >= 72
        assert (rule, sibling) not in listed(a)


def test_base_rule_restated_under_a_variant_heading_did_not_move() -> None:
    """2004 → 2012: the priority rule's passing sentences are restated for teams in the
    shared team turns option, and the modified-event note for the limited range of
    influence option; each new sentence names its heading's words, the old one none, and
    the old rule lives on outside that heading. No moved text."""
    old, new = "2004-02-01", "2012-10-01"
    a = aligned(old, new)
    edition = corpus_edition(new)
    for rule, target, heading in (("408.1c", "805.5b", "805"), ("419.5", "801.15", "801")):
        title = re.findall(r"[a-z]+", (edition.rule(heading).title or "").lower())
        assert title and not any(h in own_counterpart(a, rule)[0] for h in (heading + ".",))
        named = [s for s in sentences(new, target) if any(w.rstrip("s") in s for w in title)]
        assert named
        assert (rule, target) not in listed(a)
    # A sentence that went to a rule under its own counterpart's heading stays listed (the
    # priority rule's own sentence; the zone-check rule's sentence once listed here now
    # opens a piece of its split, inside its group).
    # (since round 58 the priority rule is split into its rule and the two rules its
    # sentences on priority after acting and on all players passing became: read, right)
    assert own_counterpart(a, "408.1c") == ("116.3a", "116.3c", "116.4")
    assert ("408.1c", "116.1") in listed(a)


def test_lone_reworded_sentence_in_another_chapter_did_not_move() -> None:
    """2004 → 2012: the zone-change rule lives on in the zones chapter; its lead-in
    announcing its exceptions is near a lead-in of the controller rule in the chapter on
    game concepts (another number of exceptions), and nothing else of the rule went
    there: a frame sentence of another case, no moved text. 2001 → 2008: the old
    resolution rule's simultaneous-actions sentence went to the new order-of-actions rule
    in another chapter together with its choice-order sentence (into that rule's
    subrule): both stay listed."""
    old, new = "2004-02-01", "2012-10-01"
    a = aligned(old, new)
    chapters = {n[:1] for n in own_counterpart(a, "217.1c")}
    assert chapters and "1" not in chapters
    link, lead, lead_in = closest(sentences(old, "217.1c"), sentences(new, "109.4"))
    assert 85 <= link < 100 and "exceptions" in lead and "exceptions" in lead_in
    assert ("217.1c", "109.4") not in listed(a)

    a = aligned("2001-07-23", "2008-10-01")
    assert "1" not in {n[:1] for n in own_counterpart(a, "413.2d")}
    assert str(corpus_edition("2008-10-01").rule("103.4c").id.parent) == "103.4"
    assert {("413.2d", "103.4"), ("413.2d", "103.4c")} <= listed(a)


def test_sentence_on_a_frame_the_old_rules_siblings_share_is_no_moved_text() -> None:
    # 2011 → 2023: the old Commander rules say one frame for a commander put into a
    # graveyard and into exile (two sibling rules); the new rule on hand or library says
    # it again. The graveyard rule's link to it is the frame, not moved text.
    a = aligned("2011-05-01", "2023-06-16")
    assert "graveyard" in corpus_edition("2011-05-01").rule("903.11").text
    assert "exile" in corpus_edition("2011-05-01").rule("903.12").text
    assert ("903.11", "903.9b") not in listed(a)


def test_sentence_written_again_in_a_rule_for_a_new_subject_is_no_moved_text() -> None:
    # 2009 → 2021: the companion special action (a keyword the old edition has no word
    # for, opening the rule) ends with the land rule's timing sentence. Neither a piece
    # of the land rule (align) nor that sentence moved into it.
    old = corpus_edition("2009-07-11")
    assert "companion" not in " ".join(rule.text.lower() for rule in old.rules)
    a = aligned("2009-07-11", "2021-02-05")
    assert ("114.2a", "116.2g") not in listed(a)


# --- an added rule restating an old rule kept elsewhere (round 22) -----------------------------

_STEPS = """
1. Basics

100. General

100.1. A widget game is played by two or more players, each with a widget.

100.2. Each player starts the game with twenty tokens in a pile in front of them.

2. Turns

200. Spin Step

200.1. First, the active player spins his or her widget once. Nothing else happens first.

200.2. Second, the active player may pass the spin to the next player.

201. Move Step

201.1. First, the active player moves his or her widget up to three spaces.

201.2. Second, the other players may object to the move.
"""

_SPIN = "the active player spins his or her widget once."
_MOVE = "the active player moves his or her widget up to"
_SUMMARY = f"""
202. General

202.1. Some actions happen at the start of a step without anyone choosing them.

202.1a Immediately after the spin step begins, {_SPIN} See rule 200.1.

202.1b Immediately after the move step begins, {_MOVE} three spaces.

202.1c Immediately after the move step begins, {_MOVE} four spaces. See rule 201.1.
"""


def test_added_summary_restating_a_step_it_points_to_names_the_copied_rule() -> None:
    """A new list repeats a step's action behind an opening clause of its own and points
    to the rule that keeps it: the added rule says where its text came from (restates,
    moved_text), the old rule keeps its own counterpart and moved text. Without the
    pointer, or with a word of the step's sentence changed, it restates nothing."""
    from tests.test_align import edition

    a = align(edition(_STEPS), edition(_STEPS + _SUMMARY))
    summary = a.match_for_new("202.1a")
    assert summary is not None and summary.kind == "added" and not summary.old_ids
    assert summary.restates == ("200.1",)
    assert [(o, n) for o, n, _t in summary.moved_text] == [("200.1", "202.1a")]
    assert summary.moved_text[0][2].startswith("Immediately after the spin step begins")
    own = a.match_for_old("200.1")
    assert own is not None and own.new_ids == ("200.1",) and own.kind == "unchanged"
    assert not own.moved_text
    for rule in ("202.1b", "202.1c"):  # no pointer; "three" became "four"
        m = a.match_for_new(rule)
        assert m is not None and m.kind == "added" and m.restates == () and not m.moved_text


def test_added_turn_based_actions_restate_the_steps_they_point_to() -> None:
    """2009-05-01 → 2009-07-11: the new list of turn-based actions repeats the draw step's
    draw and the untap step's phasing, each pointing to the step rule that keeps it. The
    list rules stay added but name the old step rules they restate; the old rules keep
    their own counterparts, which the list rules point to."""
    old, new = "2009-05-01", "2009-07-11"
    a = aligned(old, new)
    text = corpus_edition(new).rule
    for summary, step in (("703.4c", "304.1"), ("703.4a", "302.1")):
        m = a.match_for_new(summary)
        assert m is not None and m.kind == "added" and not m.old_ids, m
        assert m.restates == (step,), m
        home = own_counterpart(a, step)
        assert summary not in home
        assert any(f"rule {y}" in text(summary).text for y in home)  # it points back
        copied = [t for o, n, t in m.moved_text if (o, n) == (step, summary)]
        assert copied and copied[0] in text(summary).text
        assert summary not in {n for _o, n, _t in a.match_for_old(step).moved_text}


# --- _inside by str.find, no regex per sentence (round 26: speed) ----------------------


def _regex_stands_whole(words: str, text: str) -> bool:
    """How :func:`rulediff.classify._inside` searched before: a regex per sentence."""
    return re.search(rf"(?<!\w){re.escape(words)}(?!\w)", text) is not None


@settings(max_examples=400)
@given(
    st.text(alphabet="ab _.'\u00e9", min_size=1, max_size=4),
    st.text(alphabet="ab _.'\u00e9", max_size=30),
)
def test_stands_whole_is_the_regex_search(words: str, text: str) -> None:
    from rulediff.classify import _stands_whole

    assert _stands_whole(words, text) == _regex_stands_whole(words, text)


def test_stands_whole_of_paraphrased_sentences() -> None:
    from rulediff.classify import _inside, _stands_whole

    long = "the player who wins draws two cards, then the game goes on."
    assert _stands_whole("draws two cards", long)
    assert not _stands_whole("draws two card", long)  # a word cut short
    assert not _stands_whole("player who", "the xplayer who plays")  # a word char before
    assert _stands_whole("player who", "the xplayer who plays, the player who")  # a later one
    assert _inside("the player who wins draws two cards.", "if " + long)
    assert not _inside("game goes on.", long)  # fewer words than a linked unit has


def test_stands_whole_over_the_sentences_of_an_edition() -> None:
    from rulediff.classify import _stands_whole

    edition = corpus_edition("2025-11-14")
    rules = [r for r in edition.rules if r.text]
    asked = 0
    for before, rule in zip(rules, rules[1:], strict=False):
        key = units(0, rule.text)[0].key
        for u in units(0, before.text) + units(0, rule.text):
            words = u.key.rstrip(".;:").strip()
            if words:
                asked += 1
                assert _stands_whole(words, key) == _regex_stands_whole(words, key), (
                    rule.id,
                    u.key,
                )
    assert asked > 5000


# --- Sweeps applied to every old sentence need a share of the texts saying them --------

NOUNS = "lamp gear spoon kettle ladder bucket button ribbon basket whistle".split()
COLOURS = "red blue green grey white black pink gold teal plum".split()


def _unchanged(count: int, template: str) -> list[tuple[str, str, str | None]]:
    """``count`` matched texts kept word for word, each its own wording and parent."""
    texts = [template.format(n=n, c=c) for n in NOUNS for c in COLOURS][:count]
    return [(t, t, f"p{k % 7}") for k, t in enumerate(texts)]


def _changed(count: int, before: str, after: str) -> list[tuple[str, str, str | None]]:
    """``count`` matched texts that made one change, each its own wording and parent."""
    return [
        (before.format(n=n), after.format(n=n), f"p{k % 7}") for k, n in enumerate(NOUNS[:count])
    ]


def test_a_change_made_in_few_of_the_texts_saying_its_phrase_is_not_applied_everywhere() -> None:
    from rulediff.classify import SWEEP_MIN_SHARE, _detect_sweeps

    pairs = (
        _unchanged(100, "Put the {c} {n} on the shelf.")
        + _changed(4, "Hand the {n} over.", "Hand a {n} over.")
        + _changed(5, "Each gizmo holds a {n}.", "Each widget holds a {n}.")
    )
    recurring = _detect_sweeps(pairs)
    assert {("the", "a"), ("gizmo", "widget")} <= recurring.keys()  # both recur
    everywhere = _detect_sweeps(pairs, min_share=SWEEP_MIN_SHARE)
    # 4 of the 104 texts saying "the" made that change: applied to every old sentence,
    # it would rewrite the 100 that kept it. Every text saying "gizmo" made its change.
    assert ("the", "a") not in everywhere
    assert everywhere[("gizmo", "widget")] == 5


def test_a_phrase_inside_a_longer_sweep_is_that_sweeps_to_change() -> None:
    from rulediff.classify import SWEEP_MIN_SHARE, _detect_sweeps

    # "play" stands in the 80 texts saying "in play" too, all changed by that longer
    # sweep; of the texts saying "play" outside it, every one made its own change.
    pairs = _changed(8, "The {n} in play glows.", "The {n} on the field glows.") * 10 + _changed(
        4, "You may play the {n}.", "You may cast the {n}."
    )
    everywhere = _detect_sweeps(pairs, min_share=SWEEP_MIN_SHARE)
    assert ("in play", "on the field") in everywhere
    assert everywhere[("play", "cast")] == 4


@pytest.mark.parametrize(
    ("old", "new", "rule", "pieces"),
    [
        # the mana-ability rule and the triggered-mana-ability rule, one rule now
        ("2008-10-01", "2009-07-11", "411.3", {"605.4a"}),
        # the layer order's second paragraph: layers 1-6 and sublayer 7a
        ("2009-05-01", "2009-07-11", "418.5a", {"612.1", "612.2", "612.3", "612.3a"}),
        # announcing a spell or an activated ability: one step for each now
        ("2009-02-01", "2009-09-04", "409.1a", {"601.2a", "602.2a"}),
        # the triggers on blocking, at the point blockers are declared
        ("2007-09-07", "2022-06-10", "309.3", {"509.5f"}),
        # spell types and creature types, one rule each now
        ("2007-09-07", "2022-06-10", "205.3d", {"205.3k", "205.3m"}),
    ],
)
def test_corpus_rules_found_once_junk_sweeps_no_longer_garble_old_sentences(
    old: str, new: str, rule: str, pieces: set[str]
) -> None:
    """Each pair recurs a change of a short word in a few texts ("the" → "a", "from" →
    "marked on", "creature" → "permanent"): applied to every old sentence, it garbled the
    sentences that kept that word, and these rules lost a piece or their counterpart."""
    a = aligned(old, new)
    assert pieces <= set(own_counterpart(a, rule)), a.match_for_old(rule)


# --- A reworded link resting on a frame many rules say is no moved text ---------------------


def _stays(old_lines: list[str], new_lines: list[str]):
    from collections import Counter

    from rulediff.classify import _Stays

    return _Stays({}, {}, {}, (), "\n".join(old_lines), "\n".join(new_lines), Counter())


FEE_FRAME = "is paid as the rules for paying extra fees say."
FEE_RULES = [f"the {n} fee {FEE_FRAME}" for n in ("stamp", "ribbon", "parking")]


def test_a_link_sharing_only_a_stock_frame_rests_on_that_frame() -> None:
    old_key = f"using the lantern {FEE_FRAME}"
    new_key = f"each of these fees {FEE_FRAME}"
    assert _stays([*FEE_RULES, old_key], [*FEE_RULES, new_key]).shares_only_stock(old_key, new_key)
    # said in too few rules of the new edition: no stock text, the link may be a move
    assert not _stays([*FEE_RULES, old_key], [FEE_RULES[0], new_key]).shares_only_stock(
        old_key, new_key
    )


def test_a_link_sharing_more_than_the_frame_is_not_refused_for_it() -> None:
    # the old sentence shares its own words outside the frame too (who pays, and when)
    old_key = f"the keeper pays the lantern fee at dusk and {FEE_FRAME}"
    new_key = f"the keeper pays the lantern fee at dawn and {FEE_FRAME}"
    stays = _stays([*FEE_RULES, old_key], [*FEE_RULES, new_key])
    assert not stays.shares_only_stock(old_key, new_key)
    # nor is a reworded sentence with no stock text in it
    old_key = "the keeper may ring the bell twice a night."
    new_key = "the keeper may ring it twice."
    assert not stays.shares_only_stock(old_key, new_key)


def test_a_dropped_sentence_on_the_cost_frame_did_not_move_into_a_new_rule() -> None:
    """2009 → 2026: the old convoke rule's last sentence says convoke follows the rules
    for paying additional costs; today's convoke no longer is a cost and drops it. A new
    rule on modes with costs says the same frame for its costs, as several cost keywords
    of both editions do: that is no sentence moved from the convoke rule."""
    old, new = "2009-10-01", "2026-06-19"
    a = aligned(old, new)
    assert own_counterpart(a, "702.48a") == ("702.51a",)
    new_sentence = sentences(new, "700.2h")[-1]
    link, _, _ = closest(sentences(old, "702.48a"), [new_sentence])
    assert 80 <= link < 100
    # other old rules (the cost keywords) say the frame at least as closely
    as_close = [
        rule.id
        for rule in corpus_edition(old).body
        if str(rule.id) != "702.48a"
        and getattr(rule, "text", None)
        and closest(sentences(old, str(rule.id)), [new_sentence])[0] >= link
    ]
    assert len(as_close) >= 2, as_close
    assert ("702.48a", "700.2h") not in listed(a)
    assert listed(a)
