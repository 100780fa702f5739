"""Alignment: synthetic editions for each kind, then the real corpus and the hand-checked set.

Synthetic editions are written here in the CR's style about a made-up "widget" game
(no CR text). Real editions come from $RULEDIFF_CORPUS.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path

import pytest
import tomllib
from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from rulediff.align import (
    Alignment,
    align,
    comparison_key,
    placeholder_references,
    reference_spans,
    typography_key,
    word_opcodes,
)
from rulediff.matching import COMMON_UNIT_RULES, _BigramIndex
from rulediff.model import Edition
from rulediff.pairing import _DEFINES, _Node, _Pairing
from rulediff.sentences import _PIECE_COVERAGE, PARALLEL_FRAME_SIMILARITY, _coverage

from .conftest import corpus_edition
from .helpers import toy_edition

FIXTURES = Path(__file__).parent / "fixtures"
SEEDS = Path(__file__).resolve().parents[2] / "shared" / "seeds"


def edition(body: str, *, date: str = "May 1, 2030", glossary: str = "") -> Edition:
    """A small modern-layout edition of the widget game; ``body`` is the rules from section 1 on."""
    assert re.search(r"^\d\. ", body, re.M), "the body needs a section heading"
    gloss = glossary or "Widget\nA player of the widget game.\n"
    return toy_edition(body, gloss, game="Widget", date=date, credits="The Test Suite")


def by_old(a: Alignment, rule: str):
    m = a.match_for_old(rule)
    assert m is not None, f"{rule} is not in any match"
    return m


def by_new(a: Alignment, rule: str):
    m = a.match_for_new(rule)
    assert m is not None, f"{rule} is not in any match"
    return m


BASE = """
1. Basics

100. General

100.1. A widget game is played by two or more players, each with a widget.

100.2. Each player starts the game with twenty tokens in a pile in front of them.

100.2a A player who has no tokens left in the pile loses the game at once.

100.2b A player may count the tokens in any pile at any time.

100.2c Tokens are never shared between players; see rule 100.2a for running out.

100.3. The player with the tallest widget chooses who takes the first turn.

2. Turns

200. General

200.1. A turn has three steps: the spin step, the move step, and the rest step.

200.2. During the spin step, the active player spins his or her widget once.

200.3. During the move step, the active player moves his or her widget up to three spaces.

201. Resting

201.1. During the rest step, the active player may put one token back into his or her pile.

201.2. The rest step ends when the active player says "done."
"""


# --- normalization ----------------------------------------------------------------------------
def test_typography_key_unifies_quotes_dashes_question_marks_and_spaces() -> None:
    curly = "The rule says \u201cdone\u201d \u2014 and it\u2019s final."
    straight = 'The rule says "done" - and it\'s  final.'
    marks = "The rule says ?done? ? and it?s final."  # the 2008-05-01 edition's "?"
    assert typography_key(curly) == typography_key(straight) == typography_key(marks)
    assert typography_key("one widget") != typography_key("two widgets")


def test_keys_close_a_hyphen_broken_at_a_line_end() -> None:
    # The line-wrapped editions (2001-2004) break compounds at line ends; every dash and
    # the spaces around it are one mark in the keys, so the broken compound and the
    # whole one have one key (and one word for the word stems), while the text as
    # written keeps its line break.
    assert comparison_key("A frost-\ncovered widget") == comparison_key("A frost-covered widget")
    assert comparison_key("a size- or\nweight-changing effect") == comparison_key(
        "a size- or weight-changing effect"
    )


def test_reference_spans_cover_lists_sections_and_bare_numbers() -> None:
    text = "See rules 613 and 614.2a, section 7, and (see 702.36d); not 100 tokens."
    assert [text[a:b] for a, b in reference_spans(text)] == ["613", "614.2a", "7", "702.36d"]
    assert placeholder_references("See rule 702.36d.") == "See rule \u00a7."
    assert comparison_key("See rule 702.36d.") == comparison_key("See rule 702.36e.")


def test_word_opcodes_fold_short_islands() -> None:
    a = "a b c d e".split()
    b = "a X c Y e".split()
    ops = [op[0] for op in word_opcodes(a, b)]
    # "c" alone between two changes is folded: one replacement, not two.
    assert ops == ["equal", "replace", "equal"]
    assert [op[0] for op in word_opcodes(a, b, island=0)] == [
        "equal",
        "replace",
        "equal",
        "replace",
        "equal",
    ]


# --- kinds on synthetic editions ---------------------------------------------------------------
def test_identical_editions_are_all_unchanged() -> None:
    a = align(edition(BASE), edition(BASE))
    assert {m.kind for m in a.all()} == {"unchanged"}
    assert all(m.old_ids == m.new_ids for m in a.rules)


def test_inserted_subrule_shifts_the_rest_and_references_follow() -> None:
    new = (
        BASE.replace(
            "100.2a A player who has no tokens",
            "100.2a A player may borrow one token from the bank once per game.\n\n"
            "100.2b A player who has no tokens",
        )
        .replace("100.2b A player may count", "100.2c A player may count")
        .replace(
            "100.2c Tokens are never shared between players; see rule 100.2a",
            "100.2d Tokens are never shared between players; see rule 100.2b",
        )
    )
    a = align(edition(BASE), edition(new))
    assert by_new(a, "100.2a").kind == "added"
    assert by_old(a, "100.2a").new_ids == ("100.2b",)
    assert by_old(a, "100.2a").kind == "renumbered"
    assert by_old(a, "100.2b").new_ids == ("100.2c",)
    shifted = by_old(a, "100.2c")
    assert shifted.new_ids == ("100.2d",)
    assert shifted.kind == "renumbered" and "references" in shifted.flags
    # Shifted by an insertion, not moved.
    assert not any(m.moved for m in a.rules)


def test_references_only_change_is_its_own_kind() -> None:
    new = BASE.replace("see rule 100.2a for running out", "see rule 100.2b for running out")
    m = by_old(align(edition(BASE), edition(new)), "100.2c")
    assert m.kind == "references-only" and m.new_ids == ("100.2c",)


def test_typography_change_is_editorial() -> None:
    new = BASE.replace('says "done."', "says \u201cdone.\u201d")
    m = by_old(align(edition(BASE), edition(new)), "201.2")
    assert m.kind == "editorial" and m.flags == ("typography",)


def test_recurring_wording_change_is_a_sweep_but_a_single_one_is_an_edit() -> None:
    swept = BASE.replace("his or her", "their")
    a = align(edition(BASE), edition(swept))
    for rule in ("200.2", "200.3", "201.1"):
        m = by_old(a, rule)
        assert m.kind == "editorial" and "sweep" in m.flags, m
        assert ("his or her", "their") in m.sweeps
    assert ("his or her", "their", 3) in a.sweeps
    once = BASE.replace("spins his or her widget", "spins their widget")
    m = by_old(align(edition(BASE), edition(once)), "200.2")
    assert m.kind == "edited"


def test_edit_and_renumber_together() -> None:
    new = BASE.replace(
        "100.3. The player with the tallest widget chooses",
        "100.4. The player with the shortest widget chooses",
    ).replace(
        "100.2c Tokens",
        "100.3. A player may trade tokens only during the rest step.\n\n100.2c Tokens",
    )
    a = align(edition(BASE), edition(new))
    m = by_old(a, "100.3")
    assert m.new_ids == ("100.4",) and m.kind == "renumbered-edited"
    assert 60 < m.score < 100


def test_renumbering_cascade_is_not_matched_by_number() -> None:
    # Every rule of 200 moves down one number and a new 200.1 takes the old number.
    new = (
        BASE.replace("200.3. During the move", "200.4. During the move")
        .replace("200.2. During the spin", "200.3. During the spin")
        .replace("200.1. A turn has three steps", "200.2. A turn has three steps")
        .replace(
            "200. General\n",
            "200. General\n\n200.1. Turns are taken in clockwise order around the table.\n",
        )
    )
    a = align(edition(BASE), edition(new))
    assert [by_old(a, f"200.{n}").new_ids for n in (1, 2, 3)] == [
        ("200.2",),
        ("200.3",),
        ("200.4",),
    ]
    assert by_new(a, "200.1").kind == "added"


MOVE_RULE = "During the move step, the active player moves his or her widget up to three spaces."


def test_real_move_to_another_parent_is_flagged() -> None:
    new = BASE.replace(f"200.3. {MOVE_RULE}\n", "").replace(
        "201.2. The rest step ends",
        f"201.2. {MOVE_RULE}\n\n201.3. The rest step ends",
    )
    a = align(edition(BASE), edition(new))
    m = by_old(a, "200.3")
    assert m.new_ids == ("201.2",) and m.moved


def test_swapped_siblings_one_is_moved() -> None:
    new = BASE.replace(
        "100.2a A player who has no tokens left in the pile loses the game at once.",
        "100.2a A player may count the tokens in any pile at any time.",
    ).replace(
        "100.2b A player may count the tokens in any pile at any time.",
        "100.2b A player who has no tokens left in the pile loses the game at once.",
    )
    a = align(edition(BASE), edition(new))
    assert by_old(a, "100.2a").new_ids == ("100.2b",)
    assert by_old(a, "100.2b").new_ids == ("100.2a",)
    assert sum(by_old(a, r).moved for r in ("100.2a", "100.2b")) == 1


def test_split_and_merge() -> None:
    split = BASE.replace(
        "200.1. A turn has three steps: the spin step, the move step, and the rest step.",
        "200.1. A turn has three steps: the spin step, the move step, and the rest step.\n\n"
        "200.1a The steps of a turn always happen in the order listed and none can be skipped.",
    )
    base = BASE.replace(
        "200.1. A turn has three steps: the spin step, the move step, and the rest step.",
        "200.1. A turn has three steps: the spin step, the move step, and the rest step. "
        "The steps of a turn always happen in the order listed and none can be skipped.",
    )
    a = align(edition(base), edition(split))
    m = by_old(a, "200.1")
    assert m.kind == "split" and m.new_ids == ("200.1", "200.1a")
    b = align(edition(split), edition(base))
    m = by_new(b, "200.1")
    assert m.kind == "merged" and m.old_ids == ("200.1", "200.1a")


def test_removed_and_added_rules() -> None:
    new = BASE.replace('201.2. The rest step ends when the active player says "done."\n', "")
    new = new.replace(
        "100.3. The player", "100.4. Widgets must be made of brass or tin.\n\n100.3. The player"
    )
    a = align(edition(BASE), edition(new))
    assert by_old(a, "201.2").kind == "removed"
    assert by_new(a, "100.4").kind == "added"


def _with_rival_rules(first: str, second: str) -> str:
    return BASE.replace(
        '201.2. The rest step ends when the active player says "done."',
        '201.2. The rest step ends when the active player says "done."\n\n'
        f"201.3. {first}\n\n201.4. {second}",
    )


OLD_RULE = "A blue widget may move one extra space during the move step of each turn."


def test_ambiguous_matches_are_flagged() -> None:
    # One old rule, two equally close new ones elsewhere: nothing decides between them.
    old = BASE.replace(
        "100.3. The player with the tallest widget",
        f"100.3. {OLD_RULE}\n\n100.4. The player with the tallest widget",
    )
    new = _with_rival_rules(
        "A pink gadget may hop two spaces in the move step of each turn.",
        "A gray gadget may hop two spaces in the move step of each turn.",
    )
    a = align(edition(old), edition(new))
    m = by_old(a, "100.3")
    assert m.new_ids in (("201.3",), ("201.4",))
    assert m.ambiguous and set(m.alternatives) == {"201.3", "201.4"} - set(m.new_ids), m
    # Where structure decides (same place, matched neighbours), there is no ambiguity.
    assert not any(x.ambiguous for x in align(edition(BASE), edition(new)).rules)


def test_near_copies_of_one_rule_are_a_split() -> None:
    # "for spells and abilities" becoming one rule for each: both are near-copies.
    old = BASE.replace(
        "100.3. The player with the tallest widget",
        f"100.3. {OLD_RULE}\n\n100.4. The player with the tallest widget",
    )
    new = _with_rival_rules(
        "A blue widget may move one extra space during the move step of each game turn.",
        "A blue widget may move one extra space during the move step of each other turn.",
    )
    m = by_old(align(edition(old), edition(new)), "100.3")
    assert m.kind == "split" and m.new_ids == ("201.3", "201.4") and not m.ambiguous


def test_whole_document_renumbering_is_followed_by_text() -> None:
    # Sections 1 and 2 swap numbers (like the July 2009 renumbering): only text can tell.
    swapped = re.sub(
        r"^(\d)(\d\d)?\.",
        lambda m: {"1": "2", "2": "1"}[m.group(1)] + (m.group(2) or "") + ".",
        BASE,
        flags=re.M,
    )
    swapped = swapped.replace("see rule 100.2a", "see rule 200.2a")
    a = align(edition(BASE), edition(swapped))
    assert by_old(a, "100.2a").new_ids == ("200.2a",)
    assert by_old(a, "201.1").new_ids == ("101.1",)
    assert by_old(a, "100.2c").kind == "renumbered"


def test_examples_and_glossary_are_aligned() -> None:
    old = BASE.replace(
        "100.3. The player with the tallest widget chooses who takes the first turn.",
        "100.3. The player with the tallest widget chooses who takes the first turn.\n\n"
        "Example: Ann's widget is ten inches tall and Bob's is nine; Ann chooses.",
    )
    new = BASE.replace(
        "100.3. The player with the tallest widget chooses who takes the first turn.",
        "100.3. The player with the tallest widget chooses who takes the first turn.\n\n"
        "Example: Ann's widget is ten inches tall and Bob's is eight; Ann chooses.\n\n"
        "Example: If two widgets are equally tall, the older player chooses.",
    )
    pile = "The tokens a player has not yet spent. See rule 100.2."
    gloss_old = f"Pile\n{pile}\n\nWidget\nA player of the widget game.\n"
    gloss_new = f"Token Pile\n{pile}\n\nWidget\nA player of the widget game, or its piece.\n"
    a = align(edition(old, glossary=gloss_old), edition(new, glossary=gloss_new))
    ex = a.match_for_old("100.3#ex1", "example")
    assert ex is not None and ex.kind == "edited" and ex.new_ids == ("100.3#ex1",)
    added = a.match_for_new("100.3#ex2", "example")
    assert added is not None and added.kind == "added"
    renamed = a.match_for_old("Pile", "glossary")
    assert renamed is not None and renamed.kind == "renamed" and renamed.new_ids == ("Token Pile",)
    widget = a.match_for_old("Widget", "glossary")
    assert widget is not None and widget.kind == "edited"


def test_alignment_is_deterministic() -> None:
    new = BASE.replace("his or her", "their").replace("100.3.", "100.4.")
    assert align(edition(BASE), edition(new)) == align(edition(BASE), edition(new))


# --- the real corpus ------------------------------------------------------------------------------


@functools.cache
def aligned(old: str, new: str) -> Alignment:
    return align(corpus_edition(old), corpus_edition(new))


def test_seed_pair_morph_renumbering() -> None:
    a = aligned("2015-01-23", "2015-03-27")
    for old, new in (
        ("702.36b", "702.36c"),
        ("702.36c", "702.36d"),
        ("702.36d", "702.36e"),
        ("702.36e", "702.36f"),
    ):
        m = by_old(a, old)
        assert (m.kind, m.new_ids) == ("renumbered-edited", (new,)), m
        assert not m.moved
    megamorph = by_new(a, "702.36b")
    assert megamorph.kind == "added"
    assert by_old(a, "701.31c").kind == "references-only"
    assert by_old(a, "205.3j").kind == "edited"
    assert by_old(a, "702.36a").kind == "unchanged"


def test_seed_pair_2021_new_rule_706() -> None:
    a = aligned("2021-06-18", "2021-07-23")
    assert by_new(a, "706").kind == "added"
    for old, new in (("706", "707"), ("707", "708"), ("708", "709"), ("712", "713")):
        m = by_old(a, old)
        assert m.new_ids == (new,) and m.kind in ("renumbered", "renumbered-edited"), m
    assert by_old(a, "707.1").new_ids == ("708.1",)


def _seed_paragraphs(path: Path) -> list[str]:
    return [p.strip() for p in re.split(r"\n\s*\n", path.read_text(encoding="utf-8")) if p.strip()]


def _locate(ed: Edition) -> dict[str, str]:
    where: dict[str, str] = {}
    for rule in ed.rules:
        where.setdefault(typography_key(rule.text), str(rule.id))
        for n, example in enumerate(rule.examples, 1):
            where.setdefault(typography_key("Example: " + example.text), f"{rule.id}#ex{n}")
    return where


def test_seed_paragraph_pairs_are_matched() -> None:
    """Seed 000: consecutive (old-only, new-only) paragraphs are one change; align pairs them."""
    seed = sorted(SEEDS.glob("000_*.txt"))
    assert seed, f"no seed file {SEEDS}/000_*.txt (../shared must sit beside the checkout)"
    old, new = corpus_edition("2015-01-23"), corpus_edition("2015-03-27")
    a = aligned("2015-01-23", "2015-03-27")
    in_old, in_new = _locate(old), _locate(new)
    paragraphs = [typography_key(p) for p in _seed_paragraphs(seed[0])]
    pairs = 0
    for p, q in zip(paragraphs, paragraphs[1:], strict=False):
        if p in in_old and p not in in_new and q in in_new and q not in in_old:
            old_id, new_id = in_old[p], in_new[q]
            domain = "example" if "#" in old_id else "rule"
            m = a.match_for_old(old_id, domain)
            if domain == "example" and "#" not in new_id:
                continue  # an example paragraph followed by the next rule's text
            assert m is not None and m.new_ids == (new_id,), (old_id, new_id, m)
            pairs += 1
    assert pairs >= 8


def test_direct_comparison_across_the_2009_renumbering() -> None:
    a = aligned("2004-10-01", "2026-06-19")
    assert a.counts()["added"] > 1000  # the 2026 edition is four times the size
    # Hand-checked: the 0-life state-based action and the rule headings that moved.
    assert by_old(a, "420.5a").new_ids == ("704.5a",)
    assert by_old(a, "420").new_ids == ("704",)
    assert by_old(a, "502.26a").new_ids == ("702.37a",)
    checked = [e for e in _verified() if (e["old"], e["new"]) == ("2004-10-01", "2026-06-19")]
    assert len(checked) >= 30, "the verification set covers this pair"


def _verified() -> list[dict]:
    data = tomllib.loads((FIXTURES / "alignment_verified.toml").read_text(encoding="utf-8"))
    return data["match"]


#: The share of hand-checked matches the aligner must reproduce exactly (ids and kind).
#: Measured: 253 of 258 (98.1 %); the misses are rewrites across the 2009 renumbering or
#: 22 years apart, and a rewrite-merge (see the closing note of issue 4).
MIN_PRECISION = 0.97


def test_hand_checked_verification_set() -> None:
    """The aligner reproduces the hand-checked matches (ids and kinds) across eras."""
    entries = _verified()
    assert len(entries) >= 250
    assert len({(e["old"], e["new"]) for e in entries}) >= 10
    wrong = []
    for e in entries:
        a = aligned(e["old"], e["new"])
        domain = e.get("domain", "rule")
        if "old_id" in e:
            m = a.match_for_old(e["old_id"], domain)
        else:
            m = a.match_for_new(e["new_ids"][0], domain)
        ok = (
            m is not None
            and list(m.new_ids) == e["new_ids"]
            and m.kind == e["kind"]
            and ("old_id" not in e or e["old_id"] in m.old_ids)
        )
        if not ok:
            got = (m.kind, m.old_ids, m.new_ids) if m else None
            wrong.append((e["old"], e["new"], e.get("old_id"), e["new_ids"], e["kind"], got))
    precision = 1 - len(wrong) / len(entries)
    assert precision >= MIN_PRECISION, (precision, wrong)


# --- the blind evaluation set (tests/fixtures/alignment_eval, format: the eval brief) ---------

EVAL_DIR = FIXTURES / "alignment_eval"
#: Every pair must reach these; neighbouring editions (no restructuring) must be perfect.
EVAL_MIN_PRECISION = 0.98
#: A held-out pair measured below the precision goal is held to what it measured until
#: a round mends it (README, "Held-out pairs"); every other pair to the goal.
EVAL_PRECISION_FLOOR = {
    # measured once at cad1517: two heading answers differ (sections 210 and 211 → the
    # heading 212 by the aligner, → an entry of its list by the hand)
    "2006-05-01_2019-06-14": 0.95,
    # measured once at 71a0686 (93.5 %): the chapter-3 heading, the special-actions rule
    # and the split-card colour rule (README, "Held-out pairs"); 95.7 % since round 70,
    # built from the special-actions rule 408.1i, 97.8 % since round 71 (505.3)
    "2003-07-01_2022-10-07": 0.97,
}
#: Issue 9's goal for recall is 0.95 on every pair: reached on the four issue pairs
#: (2004 → today since round 75: 95.9 %; its floor was what the aligner found, 92 % and
#: then 94 %). A held-out pair's floor is what the aligner finds there (precision stays
#: >= 0.98 on every issue pair, so what it misses is reported as removed/added, never as
#: a wrong match); it catches any regression and rises as recall improves. Pairs not
#: listed are held to the goal.
EVAL_GOAL_RECALL = 0.95
EVAL_RECALL_FLOOR = {
    # held out (README, "Held-out pairs"): measured once before any change for it
    "2007-10-01_2018-01-19": 0.78,
    # 92 % until round 68, built from two of its misses (README, "Held-out pairs")
    "2011-07-15_2023-10-13": EVAL_GOAL_RECALL,
    # measured once at cad1517, drawn and checked after round 68 (81.0 %)
    "2006-05-01_2019-06-14": 0.81,
    # measured once at 71a0686 (74.6 %); 76.3 % since round 71 (505.3); 78.0 % since
    # round 75 (401.3 -> 113.3a, a round built from the 2004 pair's miss)
    "2003-07-01_2022-10-07": 0.77,
    # measured once at c52e663 (63.8 %): the oldest edition, before the 2009 rewrite of
    # combat, zones and abilities, against 2017 (README, "Held-out pairs"); 66.7 % since
    # rounds 72 and 73, built from two of its misses (217.7b, 212)
    "2001-07-23_2017-06-05": 0.66,
    # measured once at c52e663 (84.1 %): two years across the 2009 renumbering
    "2008-10-01_2011-09-30": 0.84,
}
#: Pairs of consecutive editions, held to 100 %.
EVAL_NEIGHBOURS = {("2021-06-18", "2021-07-23"), ("2023-06-16", "2023-09-01")}


def eval_recall_floor(stem: str, data: dict) -> float:
    """The recall one evaluation file is held to: 100 % for neighbours, else its floor."""
    if (data["old"], data["new"]) in EVAL_NEIGHBOURS:
        return 1.0
    return EVAL_RECALL_FLOOR.get(stem, EVAL_GOAL_RECALL)


def eval_precision_floor(stem: str, data: dict) -> float:
    """The precision one evaluation file is held to: 100 % for neighbours, else its floor."""
    if (data["old"], data["new"]) in EVAL_NEIGHBOURS:
        return 1.0
    return EVAL_PRECISION_FLOOR.get(stem, EVAL_MIN_PRECISION)


def _eval_files() -> list[Path]:
    return sorted(EVAL_DIR.glob("*.toml"))


def eval_scores(data: dict, a: Alignment) -> tuple[float, float, list[tuple]]:
    """Precision and recall of ``a`` against one evaluation file, and the misses.

    precision: among sampled rules the aligner gives counterparts, the share whose set
    equals the hand answer (for a hand split or merge: a non-empty subset of it);
    recall: among sampled rules with hand counterparts, the share given a right one.
    A new rule the aligner leaves ``added`` proposes the old rules it restates
    (``Match.restates``): the hand answers record a restatement from the new side with
    its source as counterpart, and from the old side as moved text only. In a group of
    several old and several new rules, a rule's counterparts are those its links name
    (``Match.links``).
    """
    proposed_n = right_n = with_answer = found = 0
    misses: list[tuple] = []
    for entry in data["rule"]:
        relation = entry["relation"]
        if relation == "undetermined":
            continue
        side, rid = entry["side"], entry["id"]
        m = a.match_for_old(rid) if side == "old" else a.match_for_new(rid)
        assert m is not None, f"{side} rule {rid} of the eval file is not in the alignment"
        proposed = set(m.new_ids_of(rid) if side == "old" else m.old_ids_of(rid) or m.restates)
        answer = set(entry["counterparts"])
        if proposed:
            proposed_n += 1
            if relation in ("split", "merged"):
                ok = proposed <= answer
            else:
                ok = proposed == answer and bool(answer)
            right_n += ok
            if not ok:
                misses.append(("wrong", side, rid, sorted(proposed), sorted(answer)))
        if answer:
            with_answer += 1
            hit = bool(proposed & answer)
            found += hit
            if not hit and proposed:
                continue  # already listed as wrong
            if not hit:
                misses.append(("missed", side, rid, [], sorted(answer)))
    precision = right_n / proposed_n if proposed_n else 1.0
    recall = found / with_answer if with_answer else 1.0
    return precision, recall, misses


def test_eval_files_exist_for_every_pair_of_the_issue() -> None:
    names = {p.stem for p in _eval_files()}
    for pair in (
        "2009-05-01_2009-07-11",
        "2004-10-01_2026-06-19",
        "2015-01-23_2025-11-14",
        "2021-06-18_2021-07-23",
    ):
        assert pair in names, f"missing {EVAL_DIR / pair}.toml"


@pytest.mark.parametrize("path", _eval_files(), ids=lambda p: p.stem)
def test_blind_evaluation_precision_and_recall(path: Path) -> None:
    """Per pair: precision and recall at least their floors on the blind set (the goals,
    98 % and 95 %, where no floor is listed; neighbours: 100 %)."""
    data = tomllib.loads(path.read_text(encoding="utf-8"))
    assert len(data["rule"]) >= 50
    a = aligned(data["old"], data["new"])
    precision, recall, misses = eval_scores(data, a)
    assert precision >= eval_precision_floor(path.stem, data), (precision, recall, misses)
    floor = eval_recall_floor(path.stem, data)
    print(f"{path.stem}: precision {precision:.1%}, recall {recall:.1%} (floor {floor:.0%})")
    assert recall >= floor, (precision, recall, misses)


# --- issue 9: a group of several old and several new rules ----------------------------------

_SPIN = "200.2. During the spin step, the active player spins his or her widget once."
_MOVE = "200.3. During the move step, the active player moves his or her widget up to three spaces."
_CALL = (
    "During the spin step, the active player spins his or her widget once and calls out the "
    "number it lands on."
)
_GAIN = "Then any player who guessed that number gains one token."
_LIMITS = (
    "A widget is never spun more than three full turns in one spin step.",
    "A widget that falls over while spinning is stood up and spun again.",
)


def lead_follows_its_list(*, apart: bool = False) -> tuple[str, str]:
    """Old 200.2 (call, then gain) is split into new 200.2 (call) and 200.3 (gain); old
    200.3 leads a list of two limits, and new 200.2 now leads that list (its lead went
    with it: "the spin follows these limits"). ``apart``: the second limit goes under
    new 200.3 instead, so the limits no longer say where their lead went."""
    moved = _MOVE.replace("200.3.", "200.4.")
    old = BASE.replace(_MOVE, moved).replace(
        _SPIN,
        f"200.2. {_CALL} {_GAIN}\n\n200.3. A widget can be spun in any direction. Spinning is "
        f"subject to the following limits:\n\n200.3a {_LIMITS[0]}\n\n200.3b {_LIMITS[1]}",
    )
    second = f"200.3a {_LIMITS[1]}" if apart else f"200.2b {_LIMITS[1]}"
    pieces = f"200.2. {_CALL} The spin follows these limits:\n\n200.2a {_LIMITS[0]}\n\n" + (
        f"200.3. {_GAIN}\n\n{second}" if apart else f"{second}\n\n200.3. {_GAIN}"
    )
    new = BASE.replace(_MOVE, moved).replace(_SPIN, pieces)
    return old, new


def test_lead_of_a_list_joins_the_split_whose_piece_now_leads_that_list() -> None:
    """Old 200.3 has no counterpart of its own, but both its subrules went under new
    200.2, a piece of old 200.2's split: its text went there too. One group of two old
    and two new rules, whose links say which old rule went where."""
    old, new = lead_follows_its_list()
    a = align(edition(old), edition(new))
    m = by_old(a, "200.3")
    assert m is by_old(a, "200.2") and m.kind == "split", m
    assert m.old_ids == ("200.2", "200.3") and m.new_ids == ("200.2", "200.3")
    assert m.links == (("200.2", "200.2"), ("200.2", "200.3"), ("200.3", "200.2"))
    assert m.new_ids_of("200.3") == ("200.2",)
    assert m.new_ids_of("200.2") == ("200.2", "200.3")
    assert m.old_ids_of("200.2") == ("200.2", "200.3")
    assert m.old_ids_of("200.3") == ("200.2",)
    assert a.rule_map()["200.3"] == "200.2"
    # every other match keeps empty links: each of its old rules went into each new one
    assert all(not other.links for other in a.all() if other is not m)


def test_lead_stays_free_when_its_subrules_went_under_different_rules() -> None:
    old, new = lead_follows_its_list(apart=True)
    a = align(edition(old), edition(new))
    lead = by_old(a, "200.3")
    assert "200.2" not in lead.old_ids and not lead.links, lead


def test_corpus_lead_of_the_combat_damage_restrictions_joins_the_step_split() -> None:
    """2009-05-01 310.2 led the restrictions on dividing combat damage (310.2a-d); in
    2009-07-11 those are 510.1a-d, and 510.1, also a piece of old 310.1, leads them."""
    old, new = corpus_edition("2009-05-01"), corpus_edition("2009-07-11")
    assert [str(r.id) for r in old.children("310.2")] == [f"310.2{x}" for x in "abcd"]
    a = aligned("2009-05-01", "2009-07-11")
    for x in "abcd":
        assert by_old(a, f"310.2{x}").new_ids == (f"510.1{x}",)
    assert {str(r.id) for r in new.children("510.1")} >= {f"510.1{x}" for x in "abcd"}
    m = by_old(a, "310.2")
    assert m is by_old(a, "310.1") and m.kind == "split", m
    assert m.new_ids_of("310.2") == ("510.1",)
    assert m.new_ids_of("310.1") == ("510.1", "510.3")


# --- issue 9: meaning-changing sweeps, sentence provenance ------------------------------------


def test_changes_meaning_spots_quantifiers_numbers_and_players() -> None:
    from rulediff.align import changes_meaning

    assert changes_meaning("both players", "all players")
    assert changes_meaning("two tokens", "three tokens")
    assert changes_meaning("the player", "an opponent")
    assert not changes_meaning("his or her", "their")


def test_a_recurring_change_of_quantifier_is_an_edit_not_editorial() -> None:
    # "each player" → "all players" in three rules under two parents: a sweep, but one
    # that changes who the rule speaks of, so every rule it touches is edited.
    body = (
        BASE.replace("200.2. During the spin step", "200.2. During the spin step, each player")
        .replace("100.3. The player with", "100.3. Each player with")
        .replace("201.2. The rest step ends", "201.2. Each player knows the rest step ends")
    )
    new = body.replace("each player", "all players").replace("Each player", "All players")
    a = align(edition(body), edition(new))
    for rule in ("100.3", "200.2", "201.2"):
        m = by_old(a, rule)
        assert m.kind == "edited", m
        assert "sweep" in m.flags


def test_moved_sentence_is_reported_and_a_rule_cut_in_two_lists_both_pieces() -> None:
    old = BASE.replace(
        "100.3. The player with the tallest widget chooses who takes the first turn.",
        "100.3. The player with the tallest widget chooses who takes the first turn. "
        "A widget taller than the table is measured from the floor instead of the table top.",
    )
    new = BASE.replace(
        "100.3. The player with the tallest widget chooses who takes the first turn.",
        "100.3. The player with the tallest widget chooses who takes the first turn.\n\n"
        "100.4. A widget taller than the table is measured from the floor instead of the "
        "table top.",
    )
    a = align(edition(old), edition(new))
    m = by_old(a, "100.3")
    assert m.kind == "split" and m.new_ids == ("100.3", "100.4"), m
    # A short sentence moved to the end of another, longer rule instead.
    rule = "100.3. The player with the tallest widget chooses who takes the first turn."
    short = "Ties are broken by a coin toss."
    spin = "the active player moves his or her widget up to three spaces."
    old = BASE.replace(rule, f"{rule} {short}")
    new = BASE.replace(spin, f"{spin} {short}")
    a = align(edition(old), edition(new))
    m = by_old(a, "100.3")
    assert m.kind == "edited" and m.new_ids == ("100.3",), m
    assert [(o, n) for o, n, _t in m.moved_text] == [("100.3", "200.3")]
    assert by_new(a, "200.3").moved_text == m.moved_text


def test_sentence_units_split_at_sentences_colons_and_semicolons() -> None:
    from rulediff.provenance import units

    texts = [u.text for u in units(0, "A widget spins. It has parts: {T} is the top; {B} too.")]
    assert texts == ["A widget spins.", "It has parts:", "{T} is the top;", "{B} too."]
    # A list that goes on in lower case stays one unit.
    assert len(units(0, "Parts are: the top, the base.")) == 1
    # A pointer in parentheses closed by a quoted title (the old editions' form) ends
    # a unit: the sentence after it is a unit of its own, not the pointer's tail.
    texts = [u.text for u in units(0, 'A widget spins. (See rule 5, "Tokens.") It has a top.')]
    assert texts == ["A widget spins.", '(See rule 5, "Tokens.")', "It has a top."]
    curly = "A widget spins. (See rule 5, \u201cTokens.\u201d) It has a top."
    assert [u.text for u in units(0, curly)][2] == "It has a top."


def test_sentence_units_and_word_pairs_are_memoized_read_only() -> None:
    """Round 24: a rule's units and a key's word pairs are built once and shared by the
    passes that ask again; what they hold is what a fresh build gives."""
    from rulediff import provenance

    text = "A widget spins when told. It has parts: {T} is the top; {B} too."
    first = provenance.units(3, text)
    assert provenance.units(3, text) is first
    assert isinstance(first, tuple) and all(u.owner == 3 for u in first)
    provenance.units.cache_clear()
    assert provenance.units(3, text) == first
    assert [u.owner for u in provenance.units(5, text)] == [5] * len(first)
    key = "the widget spins when the widget is told"
    pairs = provenance.word_pairs(key)
    assert provenance.word_pairs(key) is pairs
    # each pair once, in the order the key says them (a set's order follows the hash seed)
    assert pairs == ("the widget", "widget spins", "spins when", "when the", "widget is", "is told")


# --- issue 9, eleventh round: audit ---------------------------------------------------------


def test_definition_of_one_term_is_not_matched_to_the_definition_of_another() -> None:
    # Before the Magic 2010 renumbering one "General" rule defined spell, permanent,
    # ability and object in turn; after it each term has its own rule. The spell
    # definition shares most of its words with the object definition (a spell is one
    # kind of object) but the two define different terms, each defined in both editions.
    old, new = corpus_edition("2008-10-01"), corpus_edition("2009-07-11")
    opens = {
        (old, "200.5"): "a spell is ",
        (old, "200.8"): "an object is ",
        (new, "111.1"): "a spell is ",
        (new, "109.1"): "an object is ",
    }
    for (edition, rule), words in opens.items():
        assert edition.rule(rule).text.lower().startswith(words), rule
        assert _DEFINES.match(words), words
    a = align(old, new)
    assert by_new(a, "109.1").old_ids == ("200.8",)
    assert "109.1" not in by_old(a, "200.5").new_ids
    # a term may be two words; a longer subject is no definition of a term
    assert _DEFINES.match("a mana ability is either one thing or another").group(1) == (
        "mana ability"
    )
    assert _DEFINES.match("a creature with flying is hard to block") is None


def test_definition_is_not_matched_to_the_rule_saying_what_is_not_one() -> None:
    # Before the Magic 2010 renumbering one rule defined a mana ability ("a mana
    # ability is either …"); after it two subrules give the criteria and another
    # subrule says which abilities are not mana abilities. The definition shares most
    # of its words with that exclusion, but it is the criteria that took its place.
    from rulediff.pairing import _denies

    old, new = corpus_edition("2006-05-01"), corpus_edition("2009-09-04")
    definition, exclusion = old.rule("406.1").text.lower(), new.rule("605.5a").text.lower()
    assert _DEFINES.match(definition).group(1) == "mana ability"
    assert _denies("mana ability", exclusion) and not _denies("mana ability", definition)
    for rule in ("605.1a", "605.1b"):
        assert new.rule(rule).text.lower().rstrip(".").endswith("is a mana ability"), rule
    a = align(old, new)
    assert by_old(a, "406.1").new_ids == ("605.1a", "605.1b")
    assert "406.1" not in by_new(a, "605.5a").old_ids
    # a plural or "never be" denies the term too; naming it is no denial
    assert _denies("mana ability", "spells that make mana aren't mana abilities")
    assert _denies("mana ability", "a spell can never be a mana ability")
    assert not _denies("mana ability", "it triggers from activating a mana ability")


def test_template_sentence_of_another_keyword_is_no_sentence_link() -> None:
    # The old keyword snow-covered had a redundancy subrule; the keyword is gone, and
    # the new defender keyword has a subrule written on the same template. Reworded
    # (the keyword and "land"/"creature" differ), the sentence fits other keywords'
    # redundancy subrules as well: it is theirs, not a trace of where this rule went.
    old, new = corpus_edition("2004-02-01"), corpus_edition("2012-10-01")
    assert old.rule("502.14").title == "Snow-Covered" and new.rule("702.3").title == "Defender"
    snow, defender = old.rule("502.14d").text.lower(), new.rule("702.3c").text.lower()
    assert "snow-covered" in snow and "defender" in defender
    assert snow.endswith("are redundant.") and defender.endswith("are redundant.")
    a = align(old, new)
    assert by_old(a, "502.14d").new_ids == ()
    # A zone renamed keeps its reworded sentences: no other rule fits them.
    old, new = corpus_edition("2006-05-01"), corpus_edition("2009-09-04")
    assert old.rule("217.7").title == "Removed from the Game" and new.rule("406").title == "Exile"
    assert by_old(align(old, new), "217.7b").new_ids == ("406.3",)
    # The early piece finder keeps to one keyword too: a changeling subrule is not cut
    # into two other keywords' redundancy subrules.
    old, new = corpus_edition("2007-10-01"), corpus_edition("2023-09-01")
    assert "changeling" in old.rule("502.73b").text.lower()
    assert by_old(align(old, new), "502.73b").new_ids == ()


def test_same_sentence_in_two_steps_stays_with_its_step() -> None:
    # Each step once closed with "Second/Third, the active player gets priority"; the
    # new edition words the closing sentence of some steps anew. The end of combat
    # step's old "Second, …" is closer in wording to the beginning of combat's new
    # "Second, …" than that step's own old "Third, …", within the ambiguity margin: the
    # step decides.
    old, new = corpus_edition("2009-07-11"), corpus_edition("2021-02-05")
    assert old.rule("507").title == new.rule("507").title == "Beginning of Combat Step"
    assert old.rule("511").title == new.rule("511").title == "End of Combat Step"
    for rule in ("507.3", "511.2"):
        assert "the active player gets priority" in old.rule(rule).text, rule
    for rule in ("507.2", "511.1"):
        assert "the active player gets priority" in new.rule(rule).text, rule
    a = align(old, new)
    assert by_new(a, "507.2").old_ids == ("507.3",)
    assert by_old(a, "511.2").new_ids == ("511.1",)


def test_text_match_gives_way_to_the_rule_its_sentences_went_to() -> None:
    # The combat damage rules for the unblocked, blocked and blocking creature are
    # written on one frame; the new blocking rule grew long, so by whole-text
    # similarity the old blocking rule was closer to the short new unblocked rule,
    # which shares none of its sentences. Every sentence of it is (near) word for word
    # in the new blocking rule: it goes there, and the unblocked rule gets its own.
    old, new = corpus_edition("2007-05-01"), corpus_edition("2018-07-13")
    assert old.rule("310.2d").text.startswith("A blocking creature")
    assert new.rule("510.1d").text.startswith("A blocking creature")
    assert old.rule("310.2b").text.startswith("An unblocked")
    assert new.rule("510.1b").text.startswith("An unblocked")
    assert len(new.rule("510.1d").text) > 4 * len(old.rule("310.2d").text)
    a = align(old, new)
    assert by_old(a, "310.2d").new_ids == ("510.1d",)
    assert by_old(a, "310.2b").new_ids == ("510.1b",)
    # A one-sentence rule whose sentence is kept word for word in another rule does not
    # stay with the rule that differs from it by one word ("wins" and "loses").
    old, new = corpus_edition("2006-10-01"), corpus_edition("2012-07-01")
    assert new.rule("104.2b").text.startswith(old.rule("102.2b").text)
    assert new.rule("104.3e").text == old.rule("102.2b").text.replace("wins", "loses")
    assert by_old(align(old, new), "102.2b").new_ids == ("104.2b",)


def test_rule_for_the_opposite_case_is_not_the_same_rule() -> None:
    # An old multiplayer rule applied when an option is *not* used, the general rule
    # beside it in any case; the new general rule applies when the option *is* used.
    # The "not using" rule is not one source of it.
    from rulediff.pairing import _opposite_conditions

    old, new = corpus_edition("2011-07-15"), corpus_edition("2019-01-25")
    assert "not using the limited range of influence option" in old.rule("800.7").text
    text = new.rule("104.3h").text
    assert "using the limited range of influence option" in text and "not using" not in text
    a = align(old, new)
    assert by_new(a, "104.3h").old_ids == ("104.3h",)
    assert "104.3h" not in by_old(a, "800.7").new_ids
    assert _opposite_conditions("a game not using the shared deck", "using the shared deck, draw")
    assert not _opposite_conditions("not using the shared deck", "not using the shared deck here")
    assert not _opposite_conditions("using the shared deck", "using the shared deck again")


def test_negated_conditions_of_a_synthetic_pair() -> None:
    negating = _Node("1", "A widget not spinning the big wheel stops.", None, False, 0)
    stating = _Node("2", "A widget spinning the big wheel goes on.", None, False, 0)
    nothing = _Node("3", "Another widget cannot stop (nothing noted).", None, False, 0)
    assert negating.negated_conditions() == {("spinning", "big", "wheel")}
    assert stating.negated_conditions() == nothing.negated_conditions() == frozenset()


def test_parallel_rule_of_another_subject_is_no_source_of_a_merge() -> None:
    # The subgame rules once had one subrule per game variant, written on one frame;
    # later the variants that use a supplementary deck share one generalised rule and
    # the Vanguard subrule stays on its own. The Archenemy subrule is not a source of
    # the Vanguard rule: nothing of its own (its game, its deck) is there. Likewise the
    # two Commander rules for the graveyard and for exile are not the rule for hand
    # and library (those zones became a state-based action elsewhere).
    old, new = corpus_edition("2010-10-01"), corpus_edition("2024-06-07")
    texts = {rule: old.rule(rule).text.lower() for rule in ("713.2b", "713.2d", "903.10", "903.11")}
    assert "vanguard" in texts["713.2b"] and "archenemy" in texts["713.2d"]
    assert "graveyard" in texts["903.10"] and "exile" in texts["903.11"]
    for a, b in (("713.2b", "713.2d"), ("903.10", "903.11")):
        assert fuzz.token_set_ratio(texts[a], texts[b]) >= PARALLEL_FRAME_SIMILARITY, (a, b)
    vanguard, commander = new.rule("726.2b").text.lower(), new.rule("903.9b").text.lower()
    assert "vanguard" in vanguard and "archenemy" not in vanguard and "scheme" not in vanguard
    assert "graveyard" not in commander and "exile" not in commander
    a = align(old, new)
    assert by_new(a, "726.2b").old_ids == ("713.2b",)
    assert "726.2b" not in by_old(a, "713.2d").new_ids
    for rule in ("903.10", "903.11"):
        assert "903.9b" not in by_old(a, rule).new_ids, rule


def test_text_written_twice_goes_copy_by_copy() -> None:
    # The basic-land statement stood twice before (under supertypes and under lands) and
    # still stands twice (the supertype copy now extended by a note on old printings):
    # each old copy goes to the new copy in its own place, not both to the land copy.
    old, new = corpus_edition("2005-10-01"), corpus_edition("2020-01-24")
    supertype, land = old.rule("205.4b"), old.rule("212.6f")
    assert supertype.text == land.text
    assert str(supertype.parent) == "205.4" and str(land.parent) == "212.6"
    assert str(new.rule("205.4c").parent) == "205.4" and str(new.rule("305.8").parent) == "305"
    assert new.rule("205.4c").text.startswith(new.rule("305.8").text)
    a = align(old, new)
    assert by_old(a, "205.4b").new_ids == ("205.4c",)
    assert by_old(a, "212.6f").new_ids == ("305.8",)


def _text_nodes(edition: Edition, section: str) -> list[_Node]:
    rules = [r for r in edition.rules if str(r.id).startswith(section) and r.text]
    return [_Node(str(r.id), r.text, None, False, k) for k, r in enumerate(rules)]


def test_split_pieces_skip_only_parts_that_no_whole_covers() -> None:
    # The look-up of a split's pieces is skipped for a new rule most of whose word pairs
    # no old candidate has: on chapter 7 from 2015 to 2025 (many keywords added) that is
    # many rules, and none of them is covered by any old rule of the chapter.
    wholes = _text_nodes(corpus_edition("2015-01-23"), "7")
    parts = _text_nodes(corpus_edition("2025-11-14"), "7")
    index = _BigramIndex(wholes, range(len(wholes)))
    skipped = [n for n in parts if not index.may_hold(n.feature_set(), _PIECE_COVERAGE)]
    assert 100 < len(skipped) < len(parts) - 100
    for part in skipped:
        assert all(_coverage(part, whole) < _PIECE_COVERAGE for whole in wholes), part.id


_WORDS = st.lists(st.sampled_from("the a creature card deals damage to each player".split()))


@settings(max_examples=60, deadline=None)
@given(
    st.lists(_WORDS, max_size=70),
    st.integers(min_value=0, max_value=70),
    st.lists(_WORDS.filter(bool), min_size=1, max_size=8),
)
def test_bigram_index_may_hold_is_never_wrong_to_say_no(
    wholes: list[list[str]], copies: int, parts: list[list[str]]
) -> None:
    # Also when a word pair is in more texts than vote in the index (copies of one text).
    texts = [" ".join(words) for words in wholes] + ["each player deals damage"] * copies
    nodes = [_Node(f"w{k}", text, None, False, k) for k, text in enumerate(texts)]
    index = _BigramIndex(nodes, range(len(nodes)))
    for k, words in enumerate(parts):
        part = _Node(f"p{k}", " ".join(words), None, False, k)
        feats = part.feature_set()
        if not index.may_hold(feats, _PIECE_COVERAGE):
            assert all(
                len(feats & node.feature_set()) < _PIECE_COVERAGE * len(feats) for node in nodes
            )


def test_moved_text_lists_content_not_stock_copies_or_pointers() -> None:
    """``moved_text`` says where a rule's own content went. A sentence several changed
    new rules repeat word for word (the note that something is a state-based action,
    added to a dozen rules by 2011) is stock text; a sentence the match kept, also found
    in a parallel rule, did not move; a bare "See rule …" is a cross-reference. None of
    the three is listed."""
    a = aligned("2002-02-20", "2011-02-04")
    targets: dict[tuple[str, str], set[str]] = {}
    for m in a.rules:
        for old_id, new_id, text in m.moved_text:
            targets.setdefault((old_id, text), set()).add(new_id)
    assert targets and max(len(found) for found in targets.values()) < COMMON_UNIT_RULES
    # Text that really moved stays listed: the old rule on modified events sent
    # sentences of its own to several other rules.
    assert len({new_id for _o, new_id, _t in by_old(a, "419.5").moved_text}) >= 3
    a = aligned("2012-02-01", "2026-04-17")
    # Two parallel trigger rules (one per blocking case) share their closing sentences:
    # each kept them, so neither sent them to the other.
    for rule in ("509.4a", "509.4b"):
        m = by_old(a, rule)
        assert m.kind == "renumbered-edited" and not m.moved_text, m
    texts = [text for m in a.rules for _o, _n, text in m.moved_text]
    assert texts and not [t for t in texts if re.match(r"\(?(see|for more information)\b", t, re.I)]


def test_moved_text_leaves_out_sentences_that_stayed() -> None:
    """A sentence written in parallel rules of both editions (one frame for attacking and
    blocking, for two keywords, for two special actions, for a step and its team variant)
    did not move: it is no moved text when the new rule's own predecessor already held
    it, when the old rule's own counterpart still holds it, or when another old rule is
    a closer source of it. Sentences that really moved stay listed."""
    from rulediff.provenance import units

    def first(text: str) -> str:
        return units(0, text)[0].text

    old, new = corpus_edition("2007-09-07"), corpus_edition("2009-07-11")
    a = align(old, new)
    listed = {(o, n) for m in a.rules for o, n, _t in m.moved_text}
    for sibling, own, target in (("309.3", "308.3", "508.2a"), ("502.68b", "502.13b", "702.21b")):
        assert by_new(a, target).old_ids == (own,)
        sentence = first(new.rule(target).text)
        assert sentence in old.rule(own).text and sentence not in old.rule(sibling).text
        assert (sibling, target) not in listed
    # A rule's sentence that went to the heading turned rule beside it (its own rule
    # does not keep it) is still listed.
    assert ("418.1", "610.2") in listed and ("419.8a", "608.7") in listed
    assert first(new.rule("608.7").text) not in new.rule(by_old(a, "419.8a").new_ids[0]).text

    old, new = corpus_edition("2012-02-01"), corpus_edition("2026-04-17")
    a = align(old, new)
    listed = {(o, n) for m in a.rules for o, n, _t in m.moved_text}
    # A new special action repeats the closing sentence of an old one, which kept it.
    assert by_old(a, "115.2b").new_ids == ("116.2b",) and by_new(a, "116.2j").kind == "added"
    shared = [
        u.text for u in units(0, new.rule("116.2j").text) if u.text in new.rule("116.2b").text
    ]
    assert shared and ("115.2b", "116.2j") not in listed

    old, new = corpus_edition("2005-08-01"), corpus_edition("2018-01-19")
    a = align(old, new)
    listed = {(o, n) for m in a.rules for o, n, _t in m.moved_text}
    # A new team-turns rule takes the team wording of the old Two-Headed Giant rule, not
    # the near one of the old step rule ("player" where the team rule says "team").
    sentence = first(new.rule("805.10g").text)
    assert sentence in old.rule("606.7d").text and sentence not in old.rule("310.1").text
    assert ("310.1", "805.10g") not in listed


def test_moved_text_leaves_out_another_keywords_template_and_swept_copies() -> None:
    """A keyword's opening sentence written on another keyword's frame ("X represents a
    static ability and a triggered ability") names its own keyword: it is no moved text
    between two keywords whose headings are not matched. And a sentence said twice in
    the old edition that stayed in both places is recognised through the pair's
    recurring wording changes (an old zone name for the new one)."""
    from rulediff.provenance import units

    def first(text: str) -> str:
        return units(0, text)[0].text

    old, new = corpus_edition("2012-02-01"), corpus_edition("2026-04-17")
    a = align(old, new)
    listed = {(o, n) for m in a.rules for o, n, _t in m.moved_text}
    for old_rule, new_rule in (("702.73a", "702.147a"), ("702.79a", "702.99a")):
        was, now = old.rule(old_rule[:-1]).title, new.rule(new_rule[:-1]).title
        assert was and now and was != now
        assert first(new.rule(new_rule).text).replace(now, was) == first(old.rule(old_rule).text)
        assert by_new(a, new_rule[:-1]).kind == "added"
        assert (old_rule, new_rule) not in listed

    old, new = corpus_edition("2007-09-07"), corpus_edition("2009-07-11")
    a = align(old, new)
    listed = {(o, n) for m in a.rules for o, n, _t in m.moved_text}
    assert old.rule("217.1f").text == old.rule("217.7e").text
    assert by_new(a, "400.8").old_ids == ("217.1f",)
    assert by_old(a, "217.7e").new_ids == ("406.6",)
    assert ("217.7e", "400.8") not in listed


def test_text_reused_for_a_new_subject_is_no_piece_of_a_split() -> None:
    # A new procedure (ending the combat phase) written on the frame of ending the turn
    # repeats some of its steps word for word; a new keyword (disguise) written on the
    # frame of morph repeats its casting rule with the name changed. The old step and the
    # old morph rule are kept whole in their own place: the copies are new text, not pieces.
    old, new = corpus_edition("2010-07-16"), corpus_edition("2026-01-16")
    assert new.rule("723.2c").text == new.rule("723.1c").text == old.rule("712.1b").text
    assert new.rule("723.2").text != new.rule("723.1").text
    a = align(old, new)
    assert by_new(a, "723.1").old_ids == ("712.1",)
    assert by_old(a, "712.1b").new_ids == ("723.1c",)
    assert by_new(a, "723.2c").kind == "added"
    assert by_new(a, "723.2").kind == "added"

    old, new = corpus_edition("2015-01-23"), corpus_edition("2025-11-14")
    assert "disguise" in new.rule("702.168b").text and "morph" in new.rule("702.37c").text
    a = align(old, new)
    assert by_old(a, "702.36").new_ids == ("702.37",)
    assert by_old(a, "702.36b").new_ids == ("702.37c",)
    assert by_new(a, "702.168b").kind == "added"

    # A rule for spells and abilities cut into one for each is still a split: the
    # abilities copy stands in a new rule too, but it names what the old rule did.
    a = aligned("2009-05-01", "2009-07-11")
    assert by_old(a, "409.3").new_ids == ("601.4", "602.4")


def _statement(text: str) -> str:
    """The first sentence (or part before a colon) of a rule text."""
    return re.split(r"(?<=[.:])\s+", text, maxsplit=1)[0].lower()


def test_rule_matched_by_its_minor_sentences_also_goes_to_its_reworded_statement() -> None:
    # The old "can't beats can" rule: its closing note became a subrule of its own; its
    # first sentence, reworded, is that subrule's parent. The old target announcement
    # step: its last two sentences went to a new chapter rule on targets, its first
    # (announcing the targets) to the new casting step. Each is a split of both.
    old, new = corpus_edition("2006-07-15"), corpus_edition("2013-07-13")
    cases = (("103.2", "101.2", "101.2a"), ("409.1c", "601.2c", "114.3"))
    sentences = [
        (str(r.id), s.lower()) for r in new.rules if r.text for s in re.split(r"(?<=\.)\s+", r.text)
    ]
    for rule, statement, _minor in cases:
        first = _statement(old.rule(rule).text)
        assert max(sentences, key=lambda t: fuzz.ratio(first, t[1]))[0] == statement
    a = align(old, new)
    for rule, statement, minor in cases:
        assert by_old(a, rule).kind == "split"
        assert set(by_old(a, rule).new_ids) == {statement, minor}

    # A new subject written on the frame of the statement is no piece of it: the
    # Phyrexian mana rule repeats "… mana symbols are colored mana symbols" with the
    # hybrid symbols, still named by the old rule's counterpart, replaced.
    old, new = corpus_edition("2010-07-16"), corpus_edition("2026-01-16")
    assert "phyrexian" not in " ".join(r.text.lower() for r in old.rules if r.text)
    first = _statement(old.rule("107.4e").text)
    assert fuzz.ratio(first, _statement(new.rule("107.4f").text)) > fuzz.ratio(
        first, _statement(new.rule("107.4e").text)
    )
    a = align(old, new)
    assert by_old(a, "107.4e").new_ids == ("107.4e",)
    assert by_new(a, "107.4f").kind == "added"


def test_stock_sentence_is_stock_also_where_one_rule_writes_it_without_parentheses() -> None:
    """The old copy rule's state-based note is written in parentheses in most rules of
    both editions but bare in one new rule on Equipment and range of influence; it is
    the same stock text there and no moved text (held-out check, round 16)."""
    a = aligned("2004-02-01", "2012-10-01")
    assert not [t for t in by_old(a, "503.10a").moved_text if t[1] == "801.9"]
    # Still a real move elsewhere on this pair: moved text as such is not switched off.
    assert any(m.moved_text for m in a.rules)


def test_heading_renamed_by_the_pairs_own_wording_change_is_one_zone() -> None:
    # 2002 → 2011: every "in play" became "on the battlefield", and the zone's heading was
    # renamed the same way. Its texts name the old title's words where the new ones name
    # the new title's, which the keyword/zone identity test reads as another zone's
    # template, unless the pair's recurring change turns one title into the other.
    old, new = corpus_edition("2002-02-20"), corpus_edition("2011-02-04")
    a = align(old, new)
    before, after = old.rule("217.5").title.lower(), new.rule("403").title.lower()
    assert before != after
    assert any(x in before and y.endswith(after) for x, y, _n in a.sweeps), a.sweeps[:5]
    m = a.match_for_old("217.5")
    assert m is not None and m.new_ids == ("403",), m
    for old_id, new_id in (("217.5a", "403.1"), ("217.5c", "403.4")):
        assert "in-play" in old.rule(old_id).text and "battlefield" in new.rule(new_id).text
        m = a.match_for_old(old_id)
        assert m is not None and m.new_ids == (new_id,), m


def test_undecided_candidates_are_rules_still_unmatched() -> None:
    # The rescue pass names an undecided rule's close free candidates; a later pass may
    # give one of them a counterpart. What is listed must still be open at the end.
    a = align(corpus_edition("2001-07-23"), corpus_edition("2008-10-01"))
    taken_new = {j for m in a.rules if m.old_ids for j in m.new_ids}
    taken_old = {i for m in a.rules if m.new_ids for i in m.old_ids}
    undecided = [m for m in a.rules if m.kind in ("removed", "added") and m.ambiguous]
    assert len(undecided) > 10
    for m in undecided:
        taken = taken_new if m.kind == "removed" else taken_old
        assert m.alternatives and not taken.intersection(m.alternatives), m


def test_nodes_kept_for_the_next_pairing_give_the_alignment_computed_afresh(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A run of consecutive pairs (the site's) builds each edition's nodes once, and the
    rescue pass its stems and word index once: the second pairing of an edition gets
    the alignment that nothing kept gives (round 17, speed)."""
    from rulediff import align as align_module
    from rulediff import rescue

    memos = (
        align_module._rule_nodes_of,
        align_module._example_nodes_of,
        align_module._glossary_nodes_of,
        rescue._stems_and_postings,
    )
    made: list[object] = []
    for memo in memos:
        make = memo._make
        monkeypatch.setattr(memo, "_make", lambda key, make=make: made.append(key) or make(key))
        memo.cache_clear()
    a, b, c = (corpus_edition(d) for d in ("2021-06-18", "2021-07-23", "2021-09-24"))
    align(a, b)
    made.clear()
    warm = align(b, c)
    # b was the new side of the first pairing: none of its nodes, stems or index is
    # built again for the second one.
    c_rules = align_module._rule_nodes_of(c)
    assert [type(key).__name__ for key in made] == ["Edition", "list", "Edition", "Edition"]
    assert made[0] is c and made[1] is c_rules and made[2] is c and made[3] is c
    for memo in memos:
        memo.cache_clear()
    assert warm == align(b, c)
    fresh = align_module._rule_nodes(b)
    kept = align_module._rule_nodes_of(b)
    assert [(n.id, n.text, n.key, n.parent, n.heading, n.order) for n in kept] == [
        (n.id, n.text, n.key, n.parent, n.heading, n.order) for n in fresh
    ]


def test_old_text_restated_under_a_subject_the_old_edition_lacks_is_no_split_piece() -> None:
    # The old combat damage step's opening rule went into the new step's first and
    # third rules. The new edition also restates the old wording for the Two-Headed
    # Giant variant, which the old edition has no word for: that restatement is the
    # text written again for a new subject, not a third piece of the old rule.
    old, new = corpus_edition("2005-02-01"), corpus_edition("2011-09-30")
    variant = new.rule("810").text.lower()
    assert "two-headed" in variant
    assert "two-headed" not in " ".join(rule.text.lower() for rule in old.rules)
    restated = new.rule("810.7f").text.lower()
    assert restated.startswith(old.rule("310.1").text.lower()[:30])
    a = align(old, new)
    assert by_old(a, "310.1").new_ids == ("510.1", "510.3")
    assert by_new(a, "810.7f").old_ids == ()


def test_clause_grafted_onto_a_kept_rule_makes_its_free_sibling_a_merge_source() -> None:
    # The new rule is its old counterpart with a clause of a free old sibling appended:
    # a run of that sibling's words, found in no other rule, joins it as a source.
    kept = "100.2a A player who has no tokens left in the pile loses the game at once."
    star = (
        "100.2d Tokens painted with a star, such as those handed out by the host, count "
        "double toward every score and may not be traded away during the rest step."
    )
    clause = ", and a token painted with a star such as those handed out by the host counts as two."
    old = BASE.replace("100.3. The player", f"{star}\n\n100.3. The player")
    new = BASE.replace(kept, kept[:-1] + clause)
    a = align(edition(old), edition(new))
    assert by_new(a, "100.2a").old_ids == ("100.2a", "100.2d")
    assert by_new(a, "100.2a").kind == "merged"
    # The same words said by a second old rule are a stock phrase: no evidence.
    count = "100.2b A player may count the tokens in any pile at any time."
    stock = (
        f"{count} Tokens painted with a star such as those handed out by the host are kept apart."
    )
    a = align(edition(old.replace(count, stock)), edition(new.replace(count, stock)))
    assert by_old(a, "100.2d").kind == "removed"
    assert by_new(a, "100.2a").old_ids == ("100.2a",)


def test_clause_grafted_onto_a_kept_rule_in_the_corpus() -> None:
    # A static-ability rule kept its sentence and took in the free sibling's example
    # ("… is red"); a shuffle rule took in its free sibling's second case.
    from rulediff.pairing import _holds_run, _runs, _word_list

    cases = (
        ("2006-05-01", "2009-09-04", "408.2b", "408.2f", "405.6b"),
        ("2015-01-23", "2025-11-14", "701.16c", "701.16d", "701.24c"),
    )
    for old_date, new_date, source, sibling, target in cases:
        old, new = corpus_edition(old_date), corpus_edition(new_date)
        kept, free, grown = (
            old.rule(source).text.lower(),
            old.rule(sibling).text.lower(),
            new.rule(target).text.lower(),
        )
        # A run of six words or more of the free rule is in the new rule, not in the kept one.
        runs = _runs(_word_list(free, "|o"), _word_list(grown, "|n"), 6)
        assert any(not _holds_run(_word_list(kept, "|k"), run) for run in runs)
        m = by_new(align(old, new), target)
        assert m.kind == "merged" and m.old_ids == (source, sibling), m


def test_sentence_of_a_free_rule_in_a_taken_rule_makes_it_a_merge_source() -> None:
    # Two siblings folded into one new rule: the new rule keeps the first one's text and
    # ends on a short remark of the second, whose long opening was dropped. Too little of
    # the second rule is there for a share test, but the remark is its own: no source of
    # the new rule says it, no other old rule, no free new rule. (On a toy edition the
    # later rescue passes find the lone free rule anyway: the step is run by itself.)
    from rulediff.align import _rule_nodes
    from rulediff.matching import _match_rules
    from rulediff.pairing import _Pairing
    from rulediff.sentences import _follow_sentences_into_taken_rules, _Provenance

    kept = "100.2a A player who has no tokens left in the pile loses the game at once."
    note = "It mirrors the rest check."
    sibling = (
        "100.2d Before anyone may claim a victory, judges of the venue inspect every "
        "scorecard, compare signatures, and record the totals in a ledger kept by the "
        f"organizer. {note}"
    )
    old = BASE.replace("100.3. The player", f"{sibling}\n\n100.3. The player")
    new = BASE.replace(kept, f"{kept} {note}")
    rest = '201.2. The rest step ends when the active player says "done."'

    def merges_found(old_text: str, new_text: str) -> dict[str, list[str]]:
        p = _Pairing(_rule_nodes(edition(old_text)), _rule_nodes(edition(new_text)))
        _match_rules(p)
        assert p.o2n[p.old_by_place["100.2d"]] < 0
        merges: dict[int, list[int]] = {}
        _follow_sentences_into_taken_rules(p, _Provenance(p, ()), {}, merges)
        return {p.new[j].id: [p.old[i].id for i in group] for j, group in merges.items()}

    assert merges_found(old, new) == {"100.2a": ["100.2a", "100.2d"]}
    # The same remark said by a second old rule (kept as it was) is stock wording.
    twice = f"{rest} {note}"
    assert merges_found(old.replace(rest, twice), new.replace(rest, twice)) == {}
    # A free new rule holding the remark may be its home: no merge either.
    own = "201.3. It mirrors the rest checks."
    assert merges_found(old, new.replace(rest, f"{rest}\n\n{own}")) == {}


def test_sentence_of_a_free_rule_in_a_taken_rule_in_the_corpus() -> None:
    # Two old rules stated the intervening-if condition (one under triggered abilities, one
    # under handling them); the new rule holds the first one's text and the closing
    # remark only the second one made.
    from rulediff.provenance import unit_keys

    old, new = corpus_edition("2008-02-01"), corpus_edition("2009-10-01")
    held = set(unit_keys(new.rule("603.4").text)) - set(unit_keys(old.rule("404.3").text))
    assert held & set(unit_keys(old.rule("410.8").text))
    m = by_new(align(old, new), "603.4")
    assert m.kind == "merged" and m.old_ids == ("404.3", "410.8"), m


def _merges_by_step(step, old_text: str, new_text: str) -> dict[str, list[str]]:
    """The merges one joining step, ``step(p, splits, merges)``, makes by itself after the
    text matching of two toy editions (new id: old ids). On a toy edition the rescue
    passes would find a lone free rule anyway, so the step is run alone."""
    from rulediff.align import _rule_nodes
    from rulediff.matching import _match_rules
    from rulediff.pairing import _Pairing

    p = _Pairing(_rule_nodes(edition(old_text)), _rule_nodes(edition(new_text)))
    _match_rules(p)
    merges: dict[int, list[int]] = {}
    step(p, {}, merges)
    return {p.new[j].id: [p.old[i].id for i in group] for j, group in merges.items()}


def test_reworded_sentence_of_a_free_sibling_in_a_taken_rule_makes_it_a_merge_source() -> None:
    # A short rule's timing note was folded into its sibling's counterpart, turned round
    # (what waited is now done at the end): no sentence link, but the new sentence holds
    # most of the note's words, words the kept rule lacks, and nothing else holds them.
    from rulediff.sentences import _follow_reworded_sentences_into_taken_rules

    kept = "100.2a A player who has no tokens left in the pile loses the game at once."
    note = "100.2d Tokens gained while a duel is in progress are kept aside until it is completed."
    turned = (
        "Then, if any tokens were gained while the duel was in progress, they go onto the pile."
    )
    old = BASE.replace("100.3. The player", f"{note}\n\n100.3. The player")
    new = BASE.replace(kept, f"{kept} {turned}")
    rest = '201.2. The rest step ends when the active player says "done."'

    merges_found = functools.partial(_merges_by_step, _follow_reworded_sentences_into_taken_rules)

    assert merges_found(old, new) == {"100.2a": ["100.2a", "100.2d"]}
    # A second new rule holding the same words leaves the note's home undecided.
    also = "201.3. Tokens gained while a duel is in progress go to the winner."
    assert merges_found(old, new.replace(rest, f"{rest}\n\n{also}")) == {}
    # A note that is no sibling of the kept rule's source says nothing about its place.
    elsewhere = old.replace(f"{note}\n\n", "").replace(rest, f"{rest}\n\n201.3{note[6:]}")
    assert merges_found(elsewhere, new) == {}


def test_reworded_sentence_of_a_free_rule_in_a_free_rule_pairs_them() -> None:
    # A rule's note was rewritten inside a new rule after a new opening sentence, its
    # case turned into "the same holds for ...": too little shared wording for the fuzzy
    # and sentence passes, but the new sentence holds most of the note's content stems and
    # nothing else in either edition holds them as well. (On a toy edition the rescue
    # passes find the lone free rules anyway: the step is run by itself.)
    from rulediff.align import _rule_nodes
    from rulediff.matching import _match_rules
    from rulediff.pairing import _Pairing
    from rulediff.sentences import _follow_reworded_sentences_into_free_rules

    note = (
        "100.2d Tokens won from a rival during a duel are stacked beside the pile "
        "until the duel is completed."
    )
    old = BASE.replace("100.3. The player", f"{note}\n\n100.3. The player")
    told = (
        "100.4. A pile may never hold more than forty tokens; any token past the fortieth "
        "is set back in the box at once, and its owner names a rival to take one from "
        "the box later. The same holds for tokens a player won from a rival in a duel: "
        "they stay stacked beside that pile until the duel has been completed."
    )
    new = BASE.replace("2. Turns", f"{told}\n\n2. Turns")

    def pairs_found(old_text: str, new_text: str) -> dict[str, str]:
        p = _Pairing(_rule_nodes(edition(old_text)), _rule_nodes(edition(new_text)))
        _match_rules(p)
        before = list(p.o2n)
        _follow_reworded_sentences_into_free_rules(p, {}, {})
        return {p.old[i].id: p.new[j].id for i, j in enumerate(p.o2n) if j >= 0 and before[i] < 0}

    assert pairs_found(old, new) == {"100.2d": "100.4"}
    # A second new rule holding the same words leaves the note's home undecided.
    rest = '201.2. The rest step ends when the active player says "done."'
    also = (
        "201.3. Tokens won from a rival in a duel stay stacked beside the pile until the "
        "duel has been completed."
    )
    assert pairs_found(old, new.replace(rest, f"{rest}\n\n{also}")) == {}
    # A longer old rule, most of whose words the new rule lacks, is not that rule ...
    longer = (
        note + " Whoever wins three duels in a row spins again at once, and the loser of "
        "the third duel skips a spin step."
    )
    assert pairs_found(old.replace(note, longer), new) == {}
    # ... but one whose other, shorter sentence went away is (round 37: half of the
    # whole rule's stems, not six in ten).
    assert pairs_found(old.replace(note, note + " Judges keep a written count."), new) == {
        "100.2d": "100.4"
    }


def test_reworded_sentence_of_a_free_rule_in_a_free_rule_in_the_corpus() -> None:
    # Where abilities work: the old one-sentence rule (in play, unless said otherwise)
    # became the new rule's second sentence (on the battlefield, usually), after a new
    # opening on instants and sorceries and before the list of exceptions.
    a = align(corpus_edition("2001-07-23"), corpus_edition("2015-03-27"))
    m = by_old(a, "402.8")
    assert m.new_ids == ("112.6",), m


@pytest.mark.parametrize(
    ("old", "new", "rule", "counterpart"),
    [
        # permanents: the types and the instant/sorcery sentence, its definition gone
        ("2004-06-01", "2012-10-01", "214.1", "110.4"),
        # objects out of play: control restated on the battlefield, the status gone
        ("2004-10-01", "2026-06-19", "217.5d", "109.4"),
        # a card drawn while a spell is being played (cast, since 2009)
        ("2006-02-01", "2024-03-08", "217.2f", "121.8"),
    ],
)
def test_rule_whose_other_sentence_went_away_is_found_by_the_one_restated(
    old: str, new: str, rule: str, counterpart: str
) -> None:
    # Round 37: half of the whole rule's stems suffice (FREE_REWORDED_WHOLE), and a new
    # rule opening with a word a recurring change brought in ("on the battlefield",
    # "cast") names an old subject, not a new one (_opens_with_new_subject).
    m = by_old(align(corpus_edition(old), corpus_edition(new)), rule)
    assert m.new_ids == (counterpart,) and m.method == "sentence", m


def test_reworded_sentence_of_a_free_sibling_in_a_taken_rule_in_the_corpus() -> None:
    # Subgames: main-game triggers waited for the subgame's end; the new end-of-subgame
    # rule puts them on the stack then. Evasion: the old section's opening definition
    # went into the new blocking-restrictions rule with its two siblings, and the
    # section's heading with them (its rules all went there, and the rule names it).
    old, new = corpus_edition("2003-12-01"), corpus_edition("2009-10-01")
    a = align(old, new)
    m = by_new(a, "712.5")
    assert m.kind == "merged" and m.old_ids == ("506.2", "506.6"), m
    m = by_new(a, "509.1b")
    assert m.kind == "merged" and m.old_ids == ("501", "501.1", "501.2", "501.3"), m


def test_statement_of_a_free_rule_from_a_taken_rule_makes_it_a_piece() -> None:
    # An old rule's second sentence became the opening of a new rule among new text; the
    # rule's counterpart kept only its first sentence. Too little of the new rule is old
    # text for a share test, but its statement is the old rule's and no piece holds it.
    # (On a toy edition the later passes find the lone free rule anyway: the step is run
    # by itself.)
    from rulediff.align import _rule_nodes
    from rulediff.matching import _match_rules
    from rulediff.pairing import _Pairing
    from rulediff.sentences import _follow_sentences_into_free_rules, _Provenance

    start = "100.2. Each player starts the game with twenty tokens in a pile in front of them."
    kept_face_up = "A pile is always kept face up on the table where all can see it."
    old = BASE.replace(start, f"{start} {kept_face_up}")
    piece = (
        f"100.4. {kept_face_up} Between turns its owner may sort it by colour, stack it in "
        "towers of five, or spread it out, as long as every token can still be counted."
    )
    new = BASE.replace("2. Turns", f"{piece}\n\n2. Turns")

    def splits_found(old_text: str, new_text: str) -> dict[str, list[str]]:
        p = _Pairing(_rule_nodes(edition(old_text)), _rule_nodes(edition(new_text)))
        _match_rules(p)
        assert p.n2o[p.new_by_place["100.4"]] < 0
        splits: dict[int, list[int]] = {}
        _follow_sentences_into_free_rules(p, _Provenance(p, ()), splits, {})
        return {p.old[i].id: [p.new[j].id for j in group] for i, group in splits.items()}

    assert splits_found(old, new) == {"100.2": ["100.2", "100.4"]}
    # A present piece that still says the sentence leaves the free rule alone.
    assert splits_found(old, new.replace(start, f"{start} {kept_face_up}")) == {}
    # So does a second new rule saying it (stock wording).
    rest = '201.2. The rest step ends when the active player says "done."'
    assert splits_found(old, new.replace(rest, f"{rest} {kept_face_up}")) == {}


def test_statement_of_a_free_rule_from_a_taken_rule_in_the_corpus() -> None:
    # The old rule on which zone spells and abilities check ended on where permanents
    # exist; the new edition kept the first part and opened a rule of its own with the
    # second, next to it.
    from rulediff.provenance import unit_keys

    old, new = corpus_edition("2008-02-01"), corpus_edition("2009-10-01")
    statement = unit_keys(new.rule("403.3").text)[0]
    assert statement not in unit_keys(new.rule("403.2").text)
    m = by_old(align(old, new), "217.5b")
    assert m.kind == "split" and m.new_ids == ("403.2", "403.3"), m


_DRAFT_OLD = """
1. Drafts

300. Drafting

300.1. Before a draft, the organiser announces how many rounds it lasts.

300.2. To begin the draft, every player empties a satchel of marbles, face down, into a tray.

300.2a A draft pool may hold fewer than forty marbles; with fewer than ten one loses.

300.3. The draft proceeds like a normal round. Randomly choose who picks first.

300.4. At the end of the draft, each player returns all marbles to the bag.
"""

_DRAFT_NEW = """
1. Drafts

300. Drafting

300.1. Before a draft, the organiser announces how many rounds it lasts.

300.2. As the draft begins, every player empties their satchel of marbles into a tray.

300.3. As every player picks ten marbles at the start, with fewer than ten one loses.

300.4. At the end of the draft, each player returns all marbles to the bag.
"""


def test_free_rule_whose_place_is_gone_joins_the_neighbour_holding_its_words(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # The old draft-start rule sat between its siblings and above its subrule; in the new
    # edition its next sibling's counterpart (300.2) is followed at once by its subrule's
    # (300.3): no place is left for it, and 300.2 holds its words (satchel, marbles,
    # tray) that its own source lacks. The step is run by itself on set matches.
    from rulediff import sentences
    from rulediff.align import _rule_nodes
    from rulediff.pairing import _Pairing
    from rulediff.sentences import _follow_closed_slots

    # A toy edition has a few rules: a stem in two of them is not common wording here.
    monkeypatch.setattr(sentences, "SLOT_COMMON_SHARE", 0.25)

    def merges_found(old_text: str, new_text: str, links: dict[str, str]) -> dict[str, list[str]]:
        p = _Pairing(_rule_nodes(edition(old_text)), _rule_nodes(edition(new_text)))
        old_at = {n.id: i for i, n in enumerate(p.old)}
        new_at = {n.id: j for j, n in enumerate(p.new)}
        for o, n in links.items():
            p.pair(old_at[o], new_at[n], 50.0, "fuzzy")
        merges: dict[int, list[int]] = {}
        _follow_closed_slots(p, {}, merges)
        return {p.new[j].id: [p.old[i].id for i in group] for j, group in merges.items()}

    links = {"1": "1", "300": "300", "300.1": "300.1", "300.3": "300.2"}
    links |= {"300.2a": "300.3", "300.4": "300.4"}
    assert merges_found(_DRAFT_OLD, _DRAFT_NEW, links) == {"300.2": ["300.2", "300.3"]}
    # A free subrule between the two counterparts holding its words as well is a place of
    # its own: left undecided.
    between = "300.2a Each satchel of marbles is emptied face down into a tray.\n\n300.3. As every"
    assert merges_found(_DRAFT_OLD, _DRAFT_NEW.replace("300.3. As every", between), links) == {}
    # Without the words (the new rule says nothing of satchels or marbles) no place decides.
    bare = _DRAFT_NEW.replace("empties their satchel of marbles into a tray", "sits down")
    assert merges_found(_DRAFT_OLD, bare, links) == {}
    # Its relatives' counterparts apart, another rule between them: its place may be there.
    apart = {"1": "1", "300": "300", "300.1": "300.4", "300.3": "300.2", "300.4": "300.1"}
    assert merges_found(_DRAFT_OLD, _DRAFT_NEW, apart) == {}


def test_free_rule_whose_place_is_gone_in_the_corpus() -> None:
    # Subgames: the old rule setting each library aside to start the subgame sat between
    # the rule on how the subgame proceeds and above its own subrule on small decks; the
    # new edition's subgame-start rule (the first one's counterpart) is followed at once
    # by the small-deck rule, and it moves each library.
    old, new = corpus_edition("2004-10-01"), corpus_edition("2009-07-11")
    m = by_new(align(old, new), "712.2")
    assert m.kind == "merged" and m.old_ids == ("506.3", "506.4"), m


_OPENING = (
    "1. Widget Basics\n\n"
    "100. Opening the Match\n\n"
    "100.1. At the opening of a match, each player stacks their widgets in a single tower.\n\n"
    "{opening}\n\n"
    "2. Group Play\n\n"
    "200. General\n\n"
    "200.1. Group play uses more than two players sitting around one table.\n"
)


#: The old opening rule that later tests see restated for a new variant.
_OLD_OPENING = _OPENING.format(
    opening="100.2. Once the first spinner has been chosen, every player sets a score "
    "of ten and takes five widgets from the pile."
)
#: A new variant's section (a title the old edition has no word for) that writes the old
#: opening rule again word for word.
_RELAY_COPY = (
    "\n201. Lantern Relay\n\n"
    "201.1. A lantern relay match is played by teams of lantern bearers.\n\n"
    "201.2. Once the first spinner has been chosen, every player sets a score of ten "
    "and takes five widgets from the pile.\n"
)


def test_old_rule_restated_for_a_subject_the_old_edition_lacks_is_not_its_counterpart() -> None:
    # The new edition rewrites the old opening rule in its own section and writes the old
    # wording again, word for word, under a new variant whose title the old edition has no
    # word for. The old section lives on (same heading), so the variant's copy is that text
    # written for the new subject: neither a match nor a move of the old rule.
    old = _OLD_OPENING
    new = (
        _OPENING.format(
            opening="100.2. Each player begins the match with a score of ten, and each player "
            "then takes five widgets from the pile."
        )
        + _RELAY_COPY
    )
    a = align(edition(old), edition(new))
    assert by_new(a, "201.2").old_ids == ()
    assert "201.2" not in by_old(a, "100.2").new_ids
    assert not [m for m in a.rules if any(t[1] == "201.2" for t in m.moved_text)]


def test_game_start_rule_is_not_matched_to_a_later_variants_copy_of_it() -> None:
    # The general game-start rule is written again, nearly word for word, in the
    # Conspiracy Draft variant, which the old edition does not have; the old rule's own
    # section ("Starting the Game") lives on in the new edition.
    old, new = corpus_edition("2008-05-01"), corpus_edition("2019-10-04")
    assert "conspiracy" not in " ".join(rule.text.lower() for rule in old.rules)
    assert old.rule("101").text.lower() == new.rule("103").text.lower()
    assert new.rule("905.6").text.lower()[:40] == old.rule("101.3").text.lower()[:40]
    a = align(old, new)
    assert by_new(a, "905.6").old_ids == ()
    assert "905.6" not in by_old(a, "101.3").new_ids
    assert not [m for m in a.rules if any(t[1] == "905.6" for t in m.moved_text)]
    # Freed early, a restated rule may still find its successor in its own section.
    b = aligned("2002-02-20", "2011-02-04")
    assert by_old(b, "502.2c").new_ids == ("702.7c",)


def test_rule_freed_from_a_variants_copy_follows_its_own_text_out_of_its_section() -> None:
    # 2012 → 2019: the multiplayer mulligan rule (chapter 800) is written twice in the new
    # edition: nearly whole in the general game-start rules (now for multiplayer and a new
    # variant) and again under that variant (Brawl, a word the old edition lacks). Freed
    # from the variant's copy, it goes to its near copy outside its own section.
    old, new = corpus_edition("2012-02-01"), corpus_edition("2019-01-25")
    assert "brawl" not in " ".join(rule.text.lower() for rule in old.rules)
    assert fuzz.ratio(old.rule("800.5").text.lower(), new.rule("103.4c").text.lower()) >= 80
    a = align(old, new)
    assert by_old(a, "800.5").new_ids == ("103.4c",)
    assert by_new(a, "903.11g").old_ids == ()


def test_rule_freed_from_a_variants_copy_goes_to_its_near_copy_in_another_section() -> None:
    # The old group-play rule is written twice in the new edition: word for word under a
    # new variant (a title the old edition has no word for), and nearly whole, widened to
    # name the variant too, among the opening rules. Its own section lives on.
    group_rule = (
        "In group play, the first time a player redoes their tower, they restack all "
        "their widgets rather than one fewer."
    )
    old = _OPENING.format(opening="100.2. Each player then picks a colour.") + (
        f"\n200.2. {group_rule}\n"
    )
    new = _OPENING.format(
        opening="100.2. Each player then picks a colour.\n\n100.3. In group play and in "
        "lantern relay, the first time a player redoes their tower, they restack all their "
        "widgets rather than one fewer."
    ) + (
        "\n201. Lantern Relay\n\n"
        "201.1. A lantern relay match is played by teams of lantern bearers.\n\n"
        f"201.2. {group_rule}\n"
    )
    a = align(edition(old), edition(new))
    assert by_new(a, "201.2").old_ids == ()
    assert by_old(a, "200.2").new_ids == ("100.3",)


def test_withdrawn_rule_is_not_retaken_by_a_variants_rule_in_its_own_section() -> None:
    # The old opening rule's wording is written again under a new variant (withdrawn);
    # in its own section the new edition also has a subrule that opens by naming that
    # variant: it is written for the new subject too, no counterpart of the old rule.
    old = _OLD_OPENING
    new = (
        _OPENING.format(
            opening="100.2. Each player begins the match with a score of ten. Some other kinds "
            "of match begin with other scores.\n\n"
            "100.2a. In a lantern relay match, every player sets a score of ten plus the "
            "number of lanterns their team carries."
        )
        + _RELAY_COPY
    )
    a = align(edition(old), edition(new))
    assert by_new(a, "100.2a").old_ids == ()
    assert by_new(a, "201.2").old_ids == ()


def test_withdrawn_game_start_rule_goes_to_the_general_starting_life_rule() -> None:
    # Freed from the variant copies of it, the old game-start rule (life total, hand)
    # goes to the new general starting-life rule of its own section: not re-taken by a
    # sentence step for the copy, and not the sibling opening "in a Vanguard game".
    old, new = corpus_edition("2002-10-07"), corpus_edition("2014-02-01")
    assert "vanguard" not in " ".join(rule.text.lower() for rule in old.rules)
    assert "vanguard" in new.rule("103.3b").text.lower().split(",")[0]
    a = align(old, new)
    assert by_old(a, "101.3").new_ids == ("103.3",)
    assert by_new(a, "103.3b").old_ids == ()
    b = aligned("2004-10-01", "2026-06-19")
    assert by_old(b, "101.3").new_ids == ("103.4",)


def test_a_step_heading_taken_by_its_opening_rule_still_places_its_rules() -> None:
    # 2002 → 2009: the old declare-blockers step heading was matched to the new step's
    # opening rule, not to its heading (round 19 sends it to the heading, see
    # test_heading_goes_to_the_free_heading_over_the_rule_its_subrules_went_under);
    # either way, the old "blocking alone" definition must still
    # not go to the new exalted keyword's restatement of "attacking alone" (a keyword
    # the old edition has no word for): its section lives on as the turn-structure one.
    old, new = corpus_edition("2002-10-07"), corpus_edition("2009-07-11")
    assert "exalted" not in " ".join(rule.text.lower() for rule in old.rules)
    a = align(old, new)
    assert "702.80b" not in by_old(a, "309.4a").new_ids
    assert by_new(a, "702.80b").old_ids == ()


def test_a_section_become_one_numbered_rule_is_a_freed_rules_own_section() -> None:
    # 2001 → 2026: the old rules for playing abilities (a section heading) became one
    # numbered rule with subrules. The old sorcery-timing rule for abilities, freed
    # from its weak match (its new rule has a near copy for instants, and the old one
    # names neither), may still go back to that subrule: it stands in its own section.
    # Round 24: naming neither, it is general for both, so the instant twin is its second
    # piece (align._add_twin_pieces).
    a = aligned("2001-07-23", "2026-06-19")
    assert by_old(a, "409.2").new_ids == ("602.5d", "602.5e")


def test_rule_matched_out_of_place_to_another_subjects_note_goes_where_its_statement_went() -> None:
    # The old tournament rule's closing pointer sentences are written again in a note
    # for multiplayer tournaments (chapter "Multiplayer Rules"; the old rule names no
    # multiplayer); its statement, reworded, stands in its own section's new rule.
    old, new = corpus_edition("2003-07-01"), corpus_edition("2010-02-01")
    assert "multiplayer" in new.rule("800.3").text.lower()
    assert "multiplayer" not in old.rule("100.5").text.lower()
    a = align(old, new)
    assert by_old(a, "100.5").new_ids == ("100.6",)
    assert by_new(a, "800.3").old_ids == ()


# --- round 18: wrong links left ----------------------------------------------------------------


def test_copies_of_a_text_written_twice_that_crossed_go_copy_by_copy() -> None:
    # 2003 → 2009: the basic-land sentence is written in the land rules and again in
    # the supertype rules of both editions. In text matching the supertype copy took
    # the land copy's place and the land copy took the closest free text, the snow
    # supertype rule. Each copy now goes to the copy in its own place; the old note
    # that the snow-covered lands are basic (its sentence kept in the new supertype
    # copy, whose errata list names them) still joins that copy.
    old, new = corpus_edition("2003-12-01"), corpus_edition("2009-10-01")
    land, supertype = old.rule("212.6f").text, old.rule("205.4b").text
    assert fuzz.ratio(land, supertype) >= 90
    a = align(old, new)
    assert by_old(a, "212.6f").new_ids == ("305.8",)
    merged = by_new(a, "204.4c")
    assert merged.kind == "merged" and merged.old_ids == ("205.4b", "502.14b"), merged
    assert by_new(a, "204.4f").kind == "added"


def test_rule_drawing_the_line_of_a_kind_is_no_rewrite_of_one_using_the_kind() -> None:
    # On paraphrases: what draws the line of a kind, and what only names it.
    from rulediff.pairing import _draws_line, _line_phrases, _names

    assert _draws_line("tool card", "a card with a cost is not a tool card.")
    assert _draws_line("tool card", "such cards aren't tool cards.")
    assert _draws_line("tool card", "a card is a tool card if it has a handle.")
    assert not _draws_line("tool card", "if a tool card breaks, discard it.")
    assert _names("tool card", "if a broken tool card is repaired")
    assert not _names("tool card", "a toolbox card")
    assert _line_phrases("it is not a tool card. a widget is a spare part if it fits.") == (
        ("tool", "card"),
        ("spare", "part"),
    )
    # 2004 → 2012: the new rule on what is not a mana ability takes the old rule saying
    # which abilities aren't mana abilities, not the old rule on the mana a triggered
    # mana ability adds (it only names the kind).
    old, new = corpus_edition("2004-02-01"), corpus_edition("2012-10-01")
    assert _draws_line("mana ability", new.rule("605.5a").text.lower())
    assert _draws_line("mana ability", old.rule("406.2").text.lower())
    assert _names("mana ability", old.rule("411.3a").text.lower())
    assert not _draws_line("mana ability", old.rule("411.3a").text.lower())
    a = align(old, new)
    assert by_new(a, "605.5a").old_ids == ("406.2",)
    assert by_old(a, "411.3a").kind == "removed"
    # 2007 → 2018: nor the new rule saying when a triggered ability is one.
    b = aligned("2007-05-01", "2018-07-13")
    assert by_new(b, "605.1b").old_ids == ()


def test_rule_on_a_frame_new_to_the_edition_is_no_candidate_for_an_old_rule() -> None:
    # 2008 → 2009: the new edition writes one sentence for three keywords with the
    # keyword's name swapped (the rules work from any zone); the old edition writes it
    # for none. The old deathtouch rule shares no sentence with it: it goes to the new
    # rule that destroys the damaged creature instead.
    from rulediff.align import PLACEHOLDER
    from rulediff.pairing import _frames

    old, new = corpus_edition("2008-02-01"), corpus_edition("2009-10-01")

    def frame(rule: str, keyword: str) -> str:
        return new.rule(rule).text.lower().replace(keyword, PLACEHOLDER)

    assert frame("702.2e", "deathtouch") == frame("702.13c", "lifelink")
    a = align(old, new)
    assert by_old(a, "502.63a").new_ids == ("702.2c",)
    assert by_new(a, "702.2e").kind == "added"
    # On paraphrases: a rule naming its topic's title is written on the frame with the
    # title swapped out; a rule that does not name it has no frame.
    nodes = [
        _Node("1", "Juggling", None, True, 0),
        _Node("1a", "The juggling rules apply in every room.", "1", False, 1),
        _Node("1b", "Balls may be dropped.", "1", False, 2),
    ]
    assert _frames(nodes, [-1, 0, 0]) == {1: f"the {PLACEHOLDER} rules apply in every room."}


# --- round 18c: wrong links left (second wave) -------------------------------------------------


def test_a_variant_sections_copy_of_a_rule_is_no_piece_of_it() -> None:
    # 2006 → 2013: the first two sentences of the Two-Headed Giant seating rule are
    # written word for word in that variant's new section and again in the new Team vs.
    # Team variant, whose title names a subject no heading over the old rule names.
    old, new = corpus_edition("2006-02-01"), corpus_edition("2013-07-13")
    assert new.rule("808.2").text == new.rule("810.3").text
    assert "team" in old.rule("606.3").text.lower()
    a = align(old, new)
    assert by_old(a, "606.3").new_ids == ("810.3",)
    assert by_new(a, "808.2").old_ids == ()


def test_new_rule_on_a_frame_the_old_rules_siblings_share_is_no_piece() -> None:
    # 2011 → 2023: the companion special action opens with a statement of its own and
    # ends with the land rule's timing sentence, a frame the old planar-die sibling says
    # too. It is no piece of the land rule (kept in its own new rule), nor moved text.
    old, new = corpus_edition("2011-05-01"), corpus_edition("2023-06-16")
    assert "companion" in new.rule("116.2g").text.lower()
    assert "stack is empty during a main phase" in old.rule("115.2f").text
    a = align(old, new)
    assert by_old(a, "115.2a").new_ids == ("116.2a",)
    assert by_new(a, "116.2g").old_ids == ()
    assert not [m for m in a.rules if any(t[1] == "116.2g" for t in m.moved_text)]


def test_weak_match_on_a_frame_two_new_rules_share_is_withdrawn() -> None:
    # 2011 → 2023: the Commander colour-identity mana rule (gone by 2023) matched, by
    # the frame alone, the snow mana rule; the generic mana rule is written on the same
    # frame, and the old rule names neither "snow" nor "generic".
    old, new = corpus_edition("2011-05-01"), corpus_edition("2023-06-16")
    text = old.rule("903.9").text.lower()
    assert "commander" in text and "snow" not in text and "generic" not in text
    a = align(old, new)
    assert by_old(a, "903.9").new_ids == ()
    assert by_new(a, "106.11").old_ids == ()
    # 2008 → 2019: the prowl rule on last known information and the wither rule.
    b = aligned("2008-05-01", "2019-10-04")
    assert by_old(b, "502.76b").new_ids == ()


def test_sibling_frame_and_section_title_tests_on_synthetic_rules() -> None:
    # Synthetic: two old sibling rules say one timing frame for two actions; a new rule
    # saying the frame for a third action is as close to either sibling.
    from rulediff.pairing import _Pairing, _said_by_sibling
    from rulediff.sentences import _titles_new_subject

    old = [
        _Node("1", "Juggling", None, True, 0),
        _Node(
            "1a",
            "Tossing a ball is an action. You may toss any time the hall is quiet "
            "during your turn, but only once each turn.",
            "1",
            False,
            1,
        ),
        _Node(
            "1b",
            "Catching a ball is an action. You may catch any time the hall is quiet "
            "during your turn.",
            "1",
            False,
            2,
        ),
        _Node("2", "Pair Juggling", None, True, 3),
        _Node("2a", "Each pair stands together on one side of the hall.", "2", False, 4),
    ]
    new = [
        _Node("1", "Juggling", None, True, 0),
        _Node(
            "1a",
            "Spinning a plate is an action. You may spin any time the hall is quiet "
            "during your turn.",
            "1",
            False,
            1,
        ),
        _Node("3", "Pair Juggling", None, True, 2),
        _Node("4", "Crowd vs. Crowd", None, True, 3),
    ]
    p = _Pairing(old, new)
    frame = "you may spin any time the hall is quiet during your turn."
    assert _said_by_sibling(p, 1, frame, 80.0)  # 1b says it about as well
    assert not _said_by_sibling(p, 1, frame, 80.0, besides=[2])  # no other sibling
    assert not _said_by_sibling(p, 1, "a text of another kind altogether.", 80.0)
    # A section whose title names what no heading over the old rule names (a new
    # variant), beside the section of the old rule's own subject.
    assert _titles_new_subject(p, 4, 3, 2)
    assert not _titles_new_subject(p, 4, 2, 2)


# --- round 19: a title-only heading linked to a rule with a body ---------------------------------

_SPINS = (
    "1. Widget Basics\n\n"
    "100. General\n\n"
    "100.1. A widget game is played by two or more players, each with a widget.\n\n"
    "{heading}\n\n"
    "{opening}"
    "{label}1 A widget tapped this turn can't be spun unless its owner has controlled it "
    "since the turn began.\n\n"
    "{label}2 If a spin has a limit on how often it may be made, the limit stays with that "
    "widget even when another player takes it.\n\n"
    "{label}3 Spins that say to spin only as a move follow the timing rules for moves, "
    "though the spin is not a move.\n"
)


def test_heading_goes_to_the_free_heading_over_the_rule_its_subrules_went_under() -> None:
    # The old heading's subrules became subrules of a new rule with a body (a rule on
    # spins an effect forbids) that stands under a free heading titled like the old one.
    # The rule says the title's words too, but a title is a title: the heading goes to
    # the heading, and the rule with a body stays added.
    old = _SPINS.format(heading="101. Widget Spins", opening="", label="101.")
    new = (
        _SPINS.format(
            heading="101. Making Widget Spins",
            opening="101.1. A player can't begin a widget spin that an effect forbids.\n\n",
            label="101.1",
        )
        .replace("101.11 ", "101.1a ")
        .replace("101.12 ", "101.1b ")
        .replace("101.13 ", "101.1c ")
    )
    a = align(edition(old), edition(new))
    assert by_old(a, "101").new_ids == ("101",)
    assert by_new(a, "101.1").old_ids == ()
    assert by_old(a, "101.2").new_ids == ("101.1b",)


def test_activated_abilities_heading_goes_to_the_activating_heading_not_a_rule_under_it() -> None:
    # 2005 → 2014 (held-out audit, round 19): the old title-only heading on activated
    # abilities saw its restriction subrules go under the new rule on prohibited
    # activations; it goes to the free heading on activating them, and that rule (a
    # body) is no counterpart of a title.
    old, new = corpus_edition("2005-08-01"), corpus_edition("2014-05-01")
    assert old.rule("403").title and new.rule("602").title
    assert not getattr(new.rule("602.5"), "title", None)
    a = align(old, new)
    assert by_old(a, "403").new_ids == ("602",)
    assert by_new(a, "602.5").old_ids != ("403",)


def test_timing_subheading_does_not_go_to_the_rule_on_actions_without_priority() -> None:
    # 2003 → 2011 (held-out audit, round 19): the old title-only subheading on timing,
    # priority and the stack saw two subrules go under the new rule on actions taken
    # without priority, which says one word of its title; the new heading over that
    # rule says two. The subheading and its own heading both go to that new heading.
    old, new = corpus_edition("2003-10-01"), corpus_edition("2011-04-01")
    assert old.rule("408").title and old.rule("408.1").title and new.rule("116").title
    a = align(old, new)
    assert by_new(a, "116").old_ids == ("408", "408.1")
    assert by_new(a, "116.2").old_ids == ()
    # No heading goes to the special-actions list rule; since round 20 the old rule that
    # lists the special actions may (no longer a source of one action's rule).
    assert not {"408", "408.1"} & set(by_new(a, "115.2").old_ids)


# --- round 19: wrong and lost links left -------------------------------------------------------


def test_frame_rule_keeping_an_old_rules_sentence_takes_it_though_its_rivals_are_refused() -> None:
    # 2009 → 2018: each step's new closing rule ("no turn-based actions; then the active
    # player gets priority") is written on a frame new to the edition. The old triggers
    # rule of the end step keeps no sentence there and is refused it; the old priority
    # rule keeps its sentence and still takes it, as it did before the refusal (which had
    # left it the frame rule's only candidate, so no undecided rule for the kept sentence
    # to decide, and the old rule's best candidates are other steps' taken rules).
    a = aligned("2009-09-04", "2018-01-19")
    assert by_old(a, "513.2").new_ids == ("513.1",)
    assert by_old(a, "513.1").new_ids == ()
    b = aligned("2015-01-23", "2025-11-14")
    assert by_old(b, "503.2").new_ids == ("503.1",)
    # The old rule refused the frame rule still goes where the refusal sent it: the
    # end-of-combat triggers rule to the new rule on those triggers.
    assert by_old(b, "511.1").new_ids == ("511.2",)


def test_variant_titled_by_a_word_sharing_an_old_words_stem_is_a_new_subject() -> None:
    # The old edition speaks of relaying widgets; the new one adds a variant "Relayers"
    # (cut to five letters, "relay", the old word's stem) and writes the old opening
    # rule again in it word for word. The old edition has no relayer: the copy is the
    # old text written for a new subject, no counterpart of the old rule.
    relay = "\n200.2. Players may relay widgets around the table.\n"
    old = _OLD_OPENING + relay
    new = (
        _OPENING.format(
            opening="100.2. Each player begins the match with a score of ten, and each player "
            "then takes five widgets from the pile."
        )
        + relay
        + "\n201. Relayers\n\n"
        "201.1. Relayers play in teams that hand one tower along.\n\n"
        "201.2. Once the first spinner has been chosen, every player sets a score of ten "
        "and takes five widgets from the pile.\n"
    )
    a = align(edition(old), edition(new))
    assert by_new(a, "201.2").old_ids == ()
    assert "201.2" not in by_old(a, "100.2").new_ids


def test_commander_copy_of_the_game_start_rule_is_no_counterpart_of_it() -> None:
    # 2009 → 2018: "commander" cut to five letters is "comma", a stem the old edition
    # has ("command zone"), yet the old edition has no commander: the Commander
    # variant's copy of the game-start rule is that rule written for a new subject.
    old, new = corpus_edition("2009-09-04"), corpus_edition("2018-01-19")
    words = set(re.findall(r"[a-z]+", " ".join(rule.text.lower() for rule in old.rules)))
    assert "command" in words and not {"commander", "commanders"} & words
    assert fuzz.ratio(old.rule("103.3").text, new.rule("903.7").text) >= 95
    a = align(old, new)
    assert "903.7" not in by_old(a, "103.3").new_ids
    assert by_new(a, "903.7").old_ids == ()


def test_a_new_keywords_special_action_is_no_piece_of_the_land_rule() -> None:
    # 2009 → 2021: the companion special action ends with the land rule's timing
    # sentence; no old sibling says that frame (the old edition has no planar-die
    # action), but it opens by naming the companion, a keyword the old edition has no
    # word for ("compa", its stem, is that of "compared"): no piece of the land rule.
    old, new = corpus_edition("2009-07-11"), corpus_edition("2021-02-05")
    words = set(re.findall(r"[a-z]+", " ".join(rule.text.lower() for rule in old.rules)))
    assert "companion" not in words and "compared" in words
    assert "companion" in new.rule("116.2g").text.lower().split(".")[0]
    a = align(old, new)
    assert by_old(a, "114.2a").new_ids == ("116.2a",)
    assert by_new(a, "116.2g").old_ids == ()
    # A rule widened to a new subject keeps its piece: 2009 → 2014, the split-card
    # comparison rule's third sentence, now also for fused split spells.
    b = aligned("2009-02-01", "2014-09-25")
    assert "fused" in new_text("2014-09-25", "708.6c").split(",")[0]
    assert "708.6c" in by_old(b, "505.6").new_ids
    # A word the pair's wording changes bring in ("casting") is no new subject.
    c = aligned("2001-09-24", "2012-05-01")
    assert "601.3b" in by_old(c, "409.1").new_ids


def new_text(date: str, rule: str) -> str:
    return corpus_edition(date).rule(rule).text.lower()


# --- round 19: speed (the same matches, cheaper) -----------------------------------------------


def _last_used_memos() -> list[tuple[str, object]]:
    """Every table the aligner keeps per edition (``LastUsed``), found by type."""
    from rulediff import align as align_module
    from rulediff import classify, matching, pairing, rescue, sentences
    from rulediff.lastused import LastUsed

    found: dict[int, tuple[str, object]] = {}  # one entry per table, named where it is made
    for module in (pairing, matching, sentences, rescue, classify, align_module):
        for name, memo in sorted(vars(module).items()):
            if isinstance(memo, LastUsed):
                found.setdefault(id(memo), (f"{module.__name__}.{name}", memo))
    return list(found.values())


def test_every_table_kept_per_edition_is_built_once_in_a_run_of_pairs(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """In a run of consecutive pairs (the site's), no table derived from one edition is
    built again for the edition shared by two pairings (the frames were: asked for the
    new side first, the old side's had just been dropped), and the second pairing gets
    the alignment that nothing kept gives (round 19, speed)."""
    memos = _last_used_memos()
    assert len(memos) >= 10
    made: list[tuple[str, object]] = []
    for name, memo in memos:
        make = memo._make  # type: ignore[attr-defined]
        monkeypatch.setattr(
            memo, "_make", lambda key, make=make, name=name: made.append((name, key)) or make(key)
        )
        memo.cache_clear()  # type: ignore[attr-defined]
    a, b, c = (corpus_edition(d) for d in ("2021-06-18", "2021-07-23", "2021-09-24"))
    align(a, b)
    first = list(made)  # holds the keys: their ids stay theirs
    made.clear()
    warm = align(b, c)
    again = {(name, id(key)) for name, key in first} & {(name, id(key)) for name, key in made}
    assert made and not again
    # b's own tables were built while it was the new side (its rule nodes among them)
    assert ("rulediff.align._rule_nodes_of", id(b)) in {(n, id(k)) for n, k in first}
    for _name, memo in memos:
        memo.cache_clear()  # type: ignore[attr-defined]
    assert warm == align(b, c)


def _forget_text_memos() -> None:
    """Empty every memo a text's comparison key may come from: the kept tables, the
    per-text memos and the edition targets read from the cache."""
    from rulediff import cache, clauses, provenance, textkeys

    for _name, memo in _last_used_memos():
        memo.cache_clear()  # type: ignore[attr-defined]
    for memo in (
        clauses._parsed_targets,
        textkeys.placeholder_references,
        textkeys.typography_key,
        provenance._cut,
        provenance.unit_keys,
    ):
        memo.cache_clear()
    clauses.forget_edition_targets()
    cache.forget_memo()


def test_alignment_is_the_same_with_the_edition_targets_read_from_the_cache(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Each edition's written targets are kept in the cache and read back instead of
    parsed (round 20, speed): the alignment is the one made without the cache, and
    ``use_cache=False`` neither reads nor writes a table."""
    from rulediff import cache

    monkeypatch.setenv(cache.CACHE_ENV, str(tmp_path / "cache"))
    a, b = corpus_edition("2021-06-18"), corpus_edition("2021-07-23")
    _forget_text_memos()
    plain = align(a, b, use_cache=False)
    assert not (tmp_path / "cache" / "targets").exists()
    _forget_text_memos()
    stored = align(a, b)  # each table computed and stored
    assert all(cache.entry_path("targets", e.sha256).is_file() for e in (a, b))
    _forget_text_memos()
    read = align(a, b)  # each table read back from the disk
    _forget_text_memos()
    assert plain == stored == read


def test_kept_tables_are_those_of_the_nodes() -> None:
    """The per-edition tables on paraphrases: plain dicts (a missing parent is an error,
    not a new empty entry shared with the next pairing), the texts drawing a line of a
    kind, every node by key, the heading titles."""
    from rulediff.matching import _all_keyed, _heading_titles
    from rulediff.pairing import _phrased_nodes, _tree_tables

    nodes = [
        _Node("1", "Juggling", None, True, 0),
        _Node("1a", "A spare ball is not a juggling ball.", "1", False, 1),
        _Node("1b", "Balls may be dropped.", "1", False, 2),
        _Node("2", "Juggling", None, True, 3),
        _Node("2a", "Balls may be dropped.", "2", False, 4),
    ]
    by_id, children, sibling_pos = _tree_tables(nodes)
    assert type(by_id) is dict and type(children) is dict
    assert children == {None: [0, 3], "1": [1, 2], "2": [4]}
    assert sibling_pos == {0: 0, 3: 1, 1: 0, 2: 1, 4: 0}
    assert by_id["1a"] == [1]
    assert _phrased_nodes(nodes) == ((1, (("juggling", "ball"),)),)
    keyed = _all_keyed(nodes)
    assert type(keyed) is dict and keyed[(False, nodes[2].key)] == [2, 4]
    assert _heading_titles(nodes) == {"juggling": 2}


def test_a_frame_the_old_edition_writes_word_for_word_is_not_new() -> None:
    """:func:`_new_frames` on paraphrases: a frame the new edition writes for two topics
    is new unless the old edition writes it too (the exact copy found without a fuzzy
    search) or nearly so."""
    from rulediff.pairing import _new_frames, _Pairing

    def edition(texts: dict[str, str]) -> list[_Node]:
        nodes: list[_Node] = []
        for k, (title, text) in enumerate(texts.items()):
            nodes.append(_Node(f"70{k}", title, None, True, len(nodes)))  # not a section
            nodes.append(_Node(f"70{k}.1", text, f"70{k}", False, len(nodes)))
        return nodes

    frame = "the {} rules apply in every room of the house."
    new = edition({"Juggling": frame.format("juggling"), "Tumbling": frame.format("tumbling")})
    same = edition({"Juggling": frame.format("juggling")})
    near = edition({"Juggling": "the juggling rules apply in each room of the house."})
    none = edition({"Juggling": "balls may be dropped at any time."})
    assert _new_frames(_Pairing(none, new)) == frozenset({1, 3})
    assert _new_frames(_Pairing(same, new)) == frozenset()
    assert _new_frames(_Pairing(near, new)) == frozenset()


# --- round 19b: errata notes on another keyword; a new step in a dropped step's slot -----------


def test_errata_note_of_one_keyword_is_not_the_note_of_another() -> None:
    # 2007 → 2024: the note that threshold became an ability word and the note that
    # "playing" an ability became "activating" it share the errata boilerplate; the
    # second names its heading (Play) only as "playing". Both old rules are gone.
    old, new = corpus_edition("2007-02-01"), corpus_edition("2024-06-07")
    assert old.rule("502.23").text.lower() == "threshold"
    assert new.rule("701.14").text.lower() == "play"
    assert "threshold" not in new.rule("701.14e").text.lower()
    assert "playing" in new.rule("701.14e").text.lower()
    a = align(old, new)
    assert by_old(a, "502.23a").new_ids == ()
    assert by_old(a, "502.23").new_ids == ()
    assert by_new(a, "701.14e").kind == "added"


_STEPS = (
    "1. Widget Turns\n\n"
    "100. General\n\n"
    "100.1. A widget game is played by two or more players, each with a widget.\n\n"
    "101. Spin Phase\n\n"
    "101.1. First, the active player turns every widget upright. This turn-based action "
    "doesn't use the pile.\n\n"
    "101.2. {second}\n\n"
    "101.3. Third, the active player may spin one widget. Players then pass in turn.\n\n"
    "102. Rest Phase\n\n"
    "102.1. First, the active player stacks the chips. This turn-based action doesn't use "
    "the pile.\n"
)


def test_a_new_step_in_a_dropped_steps_slot_is_not_its_rewrite() -> None:
    # The old second step (effects go on the pile) was dropped; the new second step is
    # another action sharing only the slot word, the phase's title and the stock sentence
    # several steps end with. With a content word of its own in common it is a rewrite.
    old = edition(_STEPS.format(second=_WAKE))
    new = edition(_STEPS.format(second=_GEARS))
    assert fuzz.ratio(_WAKE.lower(), _GEARS.lower()) < 50  # below every fuzzy pass
    assert by_old(align(old, new), "101.2").new_ids == ()
    kept = edition(_STEPS.format(second=_SHOWN))
    assert by_old(align(old, kept), "101.2").new_ids == ("101.2",)


_WAKE = "Second, any effects that wake at the start of the spin phase go on the pile."
_GEARS = (
    "Second, if the active player holds a clock widget and it is the first spin phase of "
    "the turn, they put a gear counter on each clock they hold. This turn-based action "
    "doesn't use the pile."
)
_SHOWN = (
    "Second, the active player holds each clock widget up so that all players see which "
    "effects wake before anyone may spin. This turn-based action doesn't use the pile."
)


def test_the_saga_step_does_not_take_the_main_phase_trigger_step() -> None:
    # 2013 → 2022: the main phase's second step (beginning-of-phase triggers) was dropped;
    # the new second step (lore counters) shares the stack only through the stock
    # sentence that a turn-based action doesn't use it.
    old, new = corpus_edition("2013-09-27"), corpus_edition("2022-09-08")
    assert old.rule("505.4").text.lower().startswith("second,")
    assert new.rule("505.4").text.lower().startswith("second,")
    assert "saga" in new.rule("505.4").text.lower()
    a = align(old, new)
    assert by_old(a, "505.4").new_ids == ()
    assert by_new(a, "505.4").kind == "added"


def test_a_keywords_note_is_not_matched_to_another_keywords_rule() -> None:
    # 2003 → 2024: the affinity note (it reduces only generic mana) names its own keyword;
    # the offering rule on how the sacrificed permanent's cost reduces the spell's cost
    # shares the cost words but stands under another keyword of the same chapter and
    # never names affinity, whose own heading lives on there.
    old, new = corpus_edition("2003-10-01"), corpus_edition("2024-06-07")
    assert old.rule("502.31").text.lower() == new.rule("702.41").text.lower() == "affinity"
    assert "affinity" in old.rule("502.31b").text.lower()
    assert "affinity" not in new.rule("702.48c").text.lower()
    a = aligned("2003-10-01", "2024-06-07")
    assert "702.48c" not in by_old(a, "502.31b").new_ids
    assert by_new(a, "702.48c").old_ids == ()
    # 2002 → 2011: the local-enchantment controller rule goes to the Aura rule of the
    # enchantments, not to the Equipment rule of the artifacts written on its frame, and
    # no sentence of it is shown as moved into that Equipment rule.
    old = corpus_edition("2002-02-20")
    assert "equipment" not in " ".join(rule.text.lower() for rule in old.rules)
    b = aligned("2002-02-20", "2011-02-04")
    assert by_old(b, "214.8i").new_ids == ("303.4e",)
    assert not [m for m in b.rules if any(t[:2] == ("214.8i", "301.5d") for t in m.moved_text)]


def test_a_rule_written_for_a_subject_the_old_edition_lacks_is_not_placed_by_its_words() -> None:
    # 2003 → 2024: the trample rule for blockers all removed before damage shares the
    # most words with the rule for a creature with trample over planeswalkers attacking a
    # planeswalker removed from combat (the old edition has no planeswalkers), but that
    # rule opens with the new subject as its case; the rule naming it only beside plain
    # trample ("trample or trample over planeswalkers") is the old rule widened.
    old, new = corpus_edition("2003-10-01"), corpus_edition("2024-06-07")
    assert "planeswalker" not in " ".join(rule.text.lower() for rule in old.rules)
    assert " or trample over planeswalkers" in new.rule("702.19d").text.lower()
    a = aligned("2003-10-01", "2024-06-07")
    assert by_old(a, "502.9c").new_ids == ("702.19d",)
    assert by_new(a, "702.19e").old_ids == ()
    # 2003-07 → 2010: the subgame-start rule is not the planar-deck rule of a subgame of
    # the Planar Magic variant, which the old edition lacks.
    old = corpus_edition("2003-07-01")
    assert "planar" not in " ".join(rule.text.lower() for rule in old.rules)
    b = aligned("2003-07-01", "2010-02-01")
    assert by_new(b, "712.2a").old_ids == ()
    assert "712.2a" not in by_old(b, "506.3").new_ids


# --- round 20: another keyword's rule; a rule written for a subject the old edition lacks -------


# --- round 21 (recall21a): a topic found by where its texts went ---------------------------


def _folded_topic_pairing() -> tuple:
    """Two toy editions: the old "Endless Cycles" section (an opening rule naming its
    cycle rules, and the rule on a cycle of forced actions) became part of a new
    "Taking Shortcuts" section, whose titles share no word with the old one."""
    from rulediff.pairing import _Pairing

    old = [
        _Node("4", "Play", None, True, 0),
        _Node("420", "Endless Cycles", "4", True, 1),
        _Node(
            "420.1",
            "At times a set of moves could go round forever; these endless cycle rules "
            "say how such cycles are broken.",
            "420",
            False,
            2,
        ),
        _Node("420.2", "If a cycle holds only forced moves, the game is drawn.", "420", False, 3),
        _Node("430", "Tokens", "4", True, 4),
        _Node("430.1", "A token is a marker standing for a piece.", "430", False, 5),
    ]
    new = [
        _Node("4", "Play", None, True, 0),
        _Node("430", "Tokens", "4", True, 1),
        _Node("430.1", "A token is a marker standing for a piece.", "430", False, 2),
        _Node("730", "Taking Shortcuts", "4", True, 3),
        _Node(
            "730.1b",
            "At times a set of moves could repeat without end; the shortcut rules then say "
            "how many times the moves are made.",
            "730",
            False,
            4,
        ),
        _Node("730.4", "If a cycle holds only forced moves, the game is drawn.", "730", False, 5),
    ]
    p = _Pairing(old, new)
    p.pair(0, 0, 100.0, "exact")
    p.pair(4, 1, 100.0, "exact")
    p.pair(5, 2, 100.0, "exact")
    return p


def test_a_topic_whose_placed_texts_all_went_under_one_free_topic_is_that_topic() -> None:
    """:meth:`_Pairing.topic_followed` on paraphrases: the old opening rule names its
    cycles where the new one names shortcuts instead, so the texts alone say two topics;
    once the rule on forced cycles is placed under the shortcut heading and the
    text-placing passes have run, the two headings are one topic."""
    p = _folded_topic_pairing()
    assert not p.same_topic(2, 4)  # nothing placed: the titles alone decide
    p.pair(3, 5, 100.0, "exact")
    assert not p.same_topic(2, 4)  # texts still being placed: not asked yet
    p.texts_placed = True
    assert p.topic_followed(1, 3) and p.same_topic(2, 4)
    assert not p.another_keywords_rule(2, 4)


def test_a_topic_is_not_followed_when_its_texts_went_apart_or_the_headings_are_taken() -> None:
    p = _folded_topic_pairing()
    p.texts_placed = True
    assert not p.topic_followed(1, 3)  # no text of the old section placed at all
    # One placed text elsewhere (the opening rule under Tokens): the section did not go
    # to one topic.
    q = _folded_topic_pairing()
    q.texts_placed = True
    q.pair(3, 5, 100.0, "exact")
    q.o2n[5], q.n2o[2] = -1, -1  # free the token rule's match
    q.pair(2, 2, 60.0, "content")
    assert not q.topic_followed(1, 3)
    # The new heading already has an old counterpart: not a free topic to fold into.
    r = _folded_topic_pairing()
    r.texts_placed = True
    r.pair(3, 5, 100.0, "exact")
    r.pair(4, 3, 100.0, "structure")
    assert not r.topic_followed(1, 3)


# --- round 21 (prec21): an exception written for one keyword ---


def test_a_general_exception_does_not_go_to_one_keywords_exception_in_the_list() -> None:
    # 2013-02-01 → 2022-06-10: the old exception (a resolving spell may act on an object
    # it moved to a public zone while being cast) ranks first the new exception written
    # for madness (it opens by naming madness, which the old edition says only in the
    # madness rules), just ahead of the general exception for objects an effect or cost
    # moved to a public zone. The madness rule is a rival, never the pick.
    old, new = corpus_edition("2013-02-01"), corpus_edition("2022-06-10")
    assert "madness" not in old.rule("400.7g").text.lower()
    assert "madness" in new.rule("400.7i").text.lower().split(",")[0]
    a = aligned("2013-02-01", "2022-06-10")
    assert "400.7i" not in by_old(a, "400.7g").new_ids
    assert by_new(a, "400.7i").old_ids == ()


def test_weak_link_out_of_section_returns_to_the_free_rule_its_neighbours_point_to() -> None:
    # An old rule on a widget's age (when it entered its area, unless it is gear pinned
    # to something) weakly linked to a rule elsewhere that shares only the list of gear;
    # the free rule after its matched neighbour says the age part, shorter: it goes
    # there. (The fuzzy pass is stood in for: the link is set by hand.)
    from rulediff.align import _rule_nodes
    from rulediff.matching import _match_rules, _return_to_slot
    from rulediff.pairing import _Pairing

    shared = "100.2c Tokens are never shared between players; see rule 100.2a for running out."
    age = (
        "100.2d A widget's age is the moment it entered the area it now sits in, unless "
        "it is a hat, cape, or badge pinned to another widget or player."
    )
    short = "100.2d A widget gets an age at the moment it enters an area."
    far = (
        "201.3. If an effect tries to put a widget that is not a hat, cape, or badge onto "
        "the table pinned to a widget or player, it arrives unpinned."
    )
    done = '201.2. The rest step ends when the active player says "done."'
    old = BASE.replace(shared, f"{shared}\n\n{age}")

    def linked(slot_rule: str) -> str:
        new = BASE.replace(shared, f"{shared}\n\n{slot_rule}").replace(done, f"{done}\n\n{far}")
        p = _Pairing(_rule_nodes(edition(old)), _rule_nodes(edition(new)))
        _match_rules(p)
        i, j = p.old_by_place["100.2d"], p.new_by_place["201.3"]
        if p.o2n[i] >= 0:
            p.n2o[p.o2n[i]] = -1
        p.pair(i, j, 62.0, "fuzzy")
        _return_to_slot(p)
        return p.new[p.o2n[i]].id

    assert linked(short) == "100.2d"
    # A free rule in the slot made of other words is no place for it: the link stays.
    assert linked("100.2d A widget painted red may move one extra space.") == "201.3"


def test_timestamp_rule_is_not_carried_off_by_its_list_of_attachments() -> None:
    # 2011-04-01 613.6c (an object's timestamp is when it entered its zone, except
    # attached Auras, Equipment or Fortifications) shares only that list of attachments
    # with 2024-09-20 303.4h (a non-Aura put onto the battlefield attached). The free
    # rule between its matched neighbours, 613.7d, says the timestamp part.
    old, new = corpus_edition("2011-04-01"), corpus_edition("2024-09-20")
    assert "timestamp" in new.rule("613.7d").text and "timestamp" not in new.rule("303.4h").text
    a = align(old, new)
    m = by_old(a, "613.6c")
    assert m.new_ids == ("613.7d",), m
    assert by_new(a, "303.4h").kind == "added"


def test_general_subtypes_rule_stays_in_its_place_not_with_a_sibling_types_rule() -> None:
    # 2003-10-01 205.3b (artifact, creature and land subtypes are single words after a
    # dash) shares that frame with 2007-10-01 212.4c (the enchantment-subtypes rule),
    # but the new 205.3b between its matched neighbours says the general part, every
    # word of it in the old rule.
    old, new = corpus_edition("2003-10-01"), corpus_edition("2007-10-01")
    assert "enchantment" in new.rule("212.4c").text.lower()
    assert "enchantment" not in old.rule("205.3b").text.lower()
    m = by_old(align(old, new), "205.3b")
    assert m.new_ids == ("205.3b",), m


# --- topic titles put as placeholders without a regex (round 21) ---------------------------
@pytest.mark.parametrize(
    ("lower", "title"),
    [
        ("flanking and flanking_x and xflanking, then flanking.", "flanking"),
        ("a two-headed game of two-headed", "two-headed"),
        ("(a) b (a)c", "(a)"),
        ("“x” then “x”y", "“x”"),
        ("aaa aa aaaa aa", "aa"),
    ],
)
def test_title_put_as_placeholder_is_the_whole_phrase_regex(lower: str, title: str) -> None:
    from rulediff.align import PLACEHOLDER
    from rulediff.pairing import _title_put_as_placeholder

    expected = re.sub(rf"\b{re.escape(title)}\b", PLACEHOLDER, lower)
    assert _title_put_as_placeholder(lower, title) == expected


def test_title_put_as_placeholder_over_an_edition() -> None:
    from rulediff.align import PLACEHOLDER, _rule_nodes
    from rulediff.pairing import _structure, _title_put_as_placeholder

    nodes = _rule_nodes(corpus_edition("2025-11-14"))
    _by_first, heads, _topics = _structure(nodes)
    checked = 0
    for k, node in enumerate(nodes):
        for h in heads[k]:
            title = nodes[h].lower.strip(" .")
            if title and title in node.lower:
                expected = re.sub(rf"\b{re.escape(title)}\b", PLACEHOLDER, node.lower)
                assert _title_put_as_placeholder(node.lower, title) == expected
                checked += 1
    assert checked > 100


def test_bigram_index_votes_are_one_over_the_posting_length() -> None:
    # The votes are worked out when a look-up asks: a feature held by few texts counts
    # for more, one held by more than MAX_POSTINGS texts not at all.
    from rulediff.matching import MAX_POSTINGS

    texts = ["red fox jumps"] + [f"blue bird {k} sings" for k in range(MAX_POSTINGS + 1)]
    nodes = [_Node(str(k), t, None, False, k) for k, t in enumerate(texts)]
    index = _BigramIndex(nodes, range(len(nodes)))
    assert index.top(["red fox"], 3) == [0]
    assert index.top(["blue bird"], 3) == []  # too common to vote
    assert index.top(["bird 3", "3 sings", "blue bird"], 1) == [4]
    assert index.may_hold(frozenset({"red fox", "green cat"}), 0.5)
    assert not index.may_hold(frozenset({"green cat", "grey owl"}), 0.5)


# --- round 21 (prec21c): a weak link yields to a grown rewrite keeping the old condition ---


def test_a_weak_link_yields_to_a_grown_rule_in_place_keeping_the_old_condition() -> None:
    # Paraphrases: the old team rule on setting one gardener's water total; the new team
    # rule keeps that condition and grew a second sentence, so a short sibling on another
    # condition (a gardener can't lose water) is closer on the whole text.
    from rulediff.matching import _opening_kept_by_sibling
    from rulediff.pairing import _Node, _Pairing

    old = [
        _Node("606", "Team Gardens", None, True, 0),
        _Node("606.9", "Water is shared by the team.", "606", False, 1),
        _Node(
            "606.9c",
            "If an effect would set one gardener's water total to a number, the team's "
            "water total becomes that number.",
            "606.9",
            False,
            2,
        ),
    ]
    grown = (
        "If an effect sets one gardener's water total to a given number, that gardener "
        "gains or loses the water needed to reach it. The team's total moves by the same "
        "amount of water."
    )
    other = "If a gardener can't lose water, nobody on that gardener's team can lose water."
    new = [
        _Node("810", "Team Gardens", None, True, 0),
        _Node("810.9", "Water is shared by the team.", "810", False, 1),
        _Node("810.9c", grown, "810.9", False, 2),
        _Node("810.9h", other, "810.9", False, 3),
    ]
    p = _Pairing(old, new)
    p.pair(0, 0, 100.0, "anchor")
    p.pair(1, 1, 100.0, "anchor")
    assert _opening_kept_by_sibling(p, 2, 3)  # the sibling on another condition yields
    assert not _opening_kept_by_sibling(p, 2, 2)  # the grown rewrite itself is kept
    # a piece no longer than the old rule keeping the opening: beside a sibling on
    # another condition it is the rule cut short, and takes it …
    piece = "If an effect would set one gardener's water total to a number, the team follows."
    p.new[2] = _Node("810.9c", piece, "810.9", False, 2)
    assert _opening_kept_by_sibling(p, 2, 3)
    # … but a link elsewhere may be its other piece (a split): the piece does not refuse it
    p.new.append(_Node("810.10", "Weeding is shared by the team.", "810", False, 4))
    p.new.append(_Node("810.10a", other, "810.10", False, 5))
    p = _Pairing(old, p.new)
    p.pair(0, 0, 100.0, "anchor")
    p.pair(1, 1, 100.0, "anchor")
    assert not _opening_kept_by_sibling(p, 2, 5)
    # an opening that states no condition (a time) says nothing
    p.old[2] = _Node(
        "606.9c", "At the start of a team game, water totals are set.", "606.9", False, 2
    )
    assert not _opening_kept_by_sibling(p, 2, 3)


def test_the_team_life_setting_rule_goes_to_its_grown_rewrite_not_a_short_sibling() -> None:
    # 2005-08-01 → 2014-05-01: the old Two-Headed Giant rule on an effect setting one
    # player's life total goes to the new rule keeping that condition (grown by a
    # paragraph on gaining or losing life), not to the short rule on not losing life.
    old, new = corpus_edition("2005-08-01"), corpus_edition("2014-05-01")
    opening = new.rule("810.9c").text.lower().split(",")[0]
    assert "single player" in opening and "life total" in opening
    assert "lose life" in new.rule("810.9h").text.lower()
    assert len(new.rule("810.9c").text) > len(old.rule("606.9c").text)
    m = align(old, new).match_for_old("606.9c")
    assert m is not None and m.new_ids == ("810.9c",), m


def test_the_mutate_resolution_rule_goes_to_the_piece_keeping_its_condition() -> None:
    # 2022-06-10 cut the resolution of permanent spells into steps: the old rule on
    # resolving a mutating creature spell kept its opening condition in a shorter rule,
    # while a new rule in its place on delayed triggers (another condition, same frame)
    # scored higher on the whole text. The neighbour pair and a far pair across it.
    for old_date, new_date in (("2022-04-29", "2022-06-10"), ("2020-11-20", "2025-07-25")):
        old, new = corpus_edition(old_date), corpus_edition(new_date)
        opening = old.rule("608.3c").text.lower().split(",")[0]
        assert "mutating creature spell" in opening
        assert new.rule("608.3d").text.lower().startswith(opening)
        assert "delayed triggered ability" in new.rule("608.3g").text.lower()
        m = align(old, new).match_for_old("608.3c")
        assert m is not None and "608.3d" in m.new_ids_of("608.3c"), (old_date, m)
        assert "608.3g" not in m.new_ids, (old_date, m)
    m = align(corpus_edition("2022-04-29"), corpus_edition("2022-06-10")).match_for_new("608.3g")
    assert m is not None and m.kind == "added", m


# --- a number printed twice -------------------------------------------------------------------
KEYWORDS = """
3. Keywords

300. Keyword Abilities

300.1. Keyword abilities are abilities a widget has because a single word says so.

300.2. Spinning

300.2a Spinning is a static ability of a widget: the widget turns in place while no player holds it.

300.2b A widget with more than one instance of spinning turns no faster than with one.

300.2. Hopping

300.2a Hopping is a triggered ability: whenever the widget lands, its owner moves it ahead.

300.2b A widget that hops onto an occupied space goes back to the space it left.

300.2c Hopping triggers only once for each landing, however high the widget bounced.
"""


def test_a_heading_number_printed_twice_follows_its_own_subrules() -> None:
    # The old edition gives two keyword headings one number (as 2024-09-20 did); the new
    # one numbers the second 300.3. Its subrules went to 300.3a-c, so the heading did too:
    # a parent is the rule printed above its subrules, not the first rule of its number.
    new = KEYWORDS.replace("300.2. Hopping", "300.3. Hopping")
    for letter in "abc":
        new = new.replace(f"300.2{letter} Hop", f"300.3{letter} Hop").replace(
            f"300.2{letter} A widget that hops", f"300.3{letter} A widget that hops"
        )
    old_ed, new_ed = edition(BASE + KEYWORDS), edition(BASE + new)
    assert [str(r.id) for r in old_ed.rules].count("300.2") == 2
    a = align(old_ed, new_ed)
    assert by_new(a, "300.3").kind == "renumbered"
    assert by_new(a, "300.3").old_ids == ("300.2",)
    assert by_new(a, "300.3a").old_ids == ("300.2a",)
    assert by_new(a, "300.2").kind == "unchanged"
    assert not [m for m in a.rules if m.kind in ("added", "removed", "merged", "split")]
    # And back: the new edition's second 300.2 comes from 300.3.
    back = align(new_ed, old_ed)
    assert [m.kind for m in back.rules if m.old_ids == ("300.3",)] == ["renumbered"]
    assert not [m for m in back.rules if m.kind in ("added", "removed", "merged", "split")]


STATUS = """
3. Widget States

301. Spinning

301.1. A spinning widget turns in place until a player stops it with one finger.

301.2. A widget that stops spinning falls on its side and stays there until picked up.

302. Colour

302.1. A widget's colour is the colour painted on its top, which no rule can change.

{n}.2. Colour is not a state, though a state may hide the colour from the other players.

{n}.3. A widget enters the game upright and unpainted unless its owner says otherwise.

{n}.4. A widget keeps its colour while it is spinning, even when no player can see the paint.

{n}.5. Only widgets in the game have a state; a widget kept in a box has none at all.
"""


def test_a_rule_printed_under_another_number_belongs_to_the_rule_above_it() -> None:
    # Rules whose number names another rule than the one they are printed under
    # (2006-05-01 printed the Status rules after 510.1 as 501.2 ...): they belong to the
    # rule above them, so each heading keeps its own texts, as in the next edition.
    old, new = edition(BASE + STATUS.format(n="301")), edition(BASE + STATUS.format(n="302"))
    a = align(old, new)
    assert by_old(a, "301").kind == by_old(a, "302").kind == "unchanged"
    assert by_new(a, "302.3").old_ids == ("301.3",)
    assert not [m for m in a.rules if m.kind in ("added", "removed", "merged", "split")]


def test_the_corpus_heading_printed_twice_is_renumbered_by_its_subrules() -> None:
    # 2024-09-20 prints two keyword headings as 702.175 (the second with its own
    # 702.175a); 2024-11-08 numbers the second 702.176. That heading is renumbered,
    # found by where its subrule went, and the first keeps its number.
    old, new = corpus_edition("2024-09-20"), corpus_edition("2024-11-08")
    headings = [r for r in old.rules if str(r.id) == "702.175"]
    assert len(headings) == 2 and headings[1].title == new.rule("702.176").title
    a = align(old, new)
    rows = {(m.kind, m.old_ids, m.new_ids) for m in a.rules if "702.175" in m.old_ids}
    assert rows == {
        ("unchanged", ("702.175",), ("702.175",)),
        ("renumbered", ("702.175",), ("702.176",)),
    }
    assert by_new(a, "702.176a").old_ids == ("702.175a",)


def test_the_corpus_rules_printed_under_another_rule_number_stay_with_their_heading() -> None:
    # 2006-05-01 prints the Status rules after 510.1 as 501.2 ... 501.6 (501 being the
    # evasion heading); 2006-07-15 numbers them 510.x. Each heading keeps its own texts.
    old, new = corpus_edition("2006-05-01"), corpus_edition("2006-07-15")
    assert [str(r.id) for r in old.rules].count("501.2") == 2
    a = align(old, new)
    assert (by_old(a, "501").kind, by_old(a, "501").new_ids) == ("unchanged", ("501",))
    assert (by_old(a, "510").kind, by_old(a, "510").new_ids) == ("unchanged", ("510",))


def test_places_name_each_printing_of_a_number() -> None:
    from rulediff.align import _places

    ed = edition(BASE + KEYWORDS)
    places = [(str(item.id), *where[:2]) for item, where in zip(ed.body, _places(ed), strict=True)]
    assert ("300.2", "300.2", "300") in places
    assert ("300.2", "300.2@2", "300") in places
    assert ("300.2a", "300.2a@2", "300.2@2") in places
    assert ("300.2c", "300.2c", "300.2@2") in places  # printed once, under the second
    assert ("100.2a", "100.2a", "100.2") in places


# --- round 22 (prec22): in a run of parallel rules, the member saying the old rule's own words ---


def _with_chores_paired_at_the_top(old: list[_Node], new: list[_Node]) -> _Pairing:
    """Both sides given the same section of rules on other things (so that rare words
    weigh more), paired on their first two nodes."""
    chores = ["weeding", "pruning", "mulching", "raking", "sowing", "fencing", "hoeing"]
    for side in (old, new):
        side.append(_Node("300", "Chores", None, True, len(side)))
        for n, chore in enumerate(chores, start=1):
            text = f"A gardener may spend a turn {chore} a bed instead of tending it."
            side.append(_Node(f"300.{n}", text, "300", False, len(side)))
    p = _Pairing(old, new)
    p.pair(0, 0, 100.0, "anchor")
    p.pair(1, 1, 100.0, "anchor")
    return p


def _parallel_run_pairing(striped: str):
    """An old rule on pouring water from a striped symbol, and a new run of two rules
    written to one frame: ``striped`` (the striped symbol's rule, as given) and the
    dotted symbol's rule, close to the old one on the whole text."""
    from rulediff.pairing import _Node

    old = [
        _Node("104", "Water Symbols", None, True, 0),
        _Node("104.3", "There are several kinds of water symbols.", "104", False, 1),
        _Node(
            "104.3g",
            "If an effect would pour water shown by a striped water symbol into a "
            "gardener's can, that gardener picks either of the symbol's stripes and pours "
            "one cup of that stripe into the can.",
            "104.3",
            False,
            2,
        ),
    ]
    dotted = (
        "If an effect would pour water shown by a dotted water symbol into a gardener's "
        "can, one cup of the color of that symbol is poured into that gardener's can."
    )
    new = [
        _Node("106", "Water Symbols", None, True, 0),
        _Node("106.1", "There are several kinds of water symbols.", "106", False, 1),
        _Node("106.8", striped, "106.1", False, 2),
        _Node("106.9", dotted, "106.1", False, 3),
    ]
    return _with_chores_paired_at_the_top(old, new)


def test_a_fuzzy_link_in_a_run_of_parallel_rules_goes_to_the_member_saying_its_own_words() -> None:
    # Paraphrases: the new striped rule grew two sentences, so the dotted rule (the same
    # frame, another symbol) is closer on the whole text; the old rule's own words
    # (striped, picks, stripes) are the striped rule's, and it goes there.
    from rulediff.matching import _own_words_in_sibling, _solve
    from rulediff.pairing import MIN_TOTAL

    striped = (
        "If an effect would pour water shown by a striped water symbol into a gardener's "
        "can, that gardener picks one stripe of that symbol. A cup of the picked stripe is "
        "poured into that gardener's can. A plain stripe gives as many cups of plain water "
        "as its number says."
    )
    p = _parallel_run_pairing(striped)
    ratios = {(2, j): fuzz.ratio(p.old[2].lower, p.new[j].lower) for j in (2, 3)}
    assert ratios[(2, 3)] > ratios[(2, 2)]  # the whole text alone picks the wrong member
    assert _own_words_in_sibling(p, 2, 3, [(ratios[(2, 2)] + 5, ratios[(2, 2)], 2)])
    assert not _own_words_in_sibling(p, 2, 2, [(ratios[(2, 3)] + 5, ratios[(2, 3)], 3)])
    _solve(p, ratios, min_total=MIN_TOTAL, by_condition=True)
    assert p.new[p.o2n[2]].id == "106.8"


def test_a_sibling_on_another_frame_does_not_take_the_link() -> None:
    # The free sibling shares no frame with the linked rule (a rule on watering times):
    # its words are no evidence, the closer rule keeps the link.
    from rulediff.matching import _own_words_in_sibling, _solve
    from rulediff.pairing import MIN_TOTAL

    other = "A gardener picks the striped stripes only at dawn, before any water is poured."
    p = _parallel_run_pairing(other)
    ratios = {(2, j): fuzz.ratio(p.old[2].lower, p.new[j].lower) for j in (2, 3)}
    assert not _own_words_in_sibling(p, 2, 3, [(ratios[(2, 2)] + 5, ratios[(2, 2)], 2)])
    _solve(p, {(2, 3): ratios[(2, 3)]}, min_total=MIN_TOTAL, by_condition=True)
    assert p.new[p.o2n[2]].id == "106.9"


def test_the_hybrid_and_cost_rules_go_to_their_own_members_of_the_parallel_runs() -> None:
    # 2007-05-01 → 2021-02-05: the old hybrid-mana rule goes to the new hybrid rule, not
    # to the Phyrexian rule written to the same frame (closer on the whole text); the
    # old rule on an ability modifying what its object costs goes to the new rule saying
    # so, not to the "can't be countered" member of the "functions on the stack" run.
    old, new = corpus_edition("2007-05-01"), corpus_edition("2021-02-05")
    assert "hybrid" in old.rule("104.3g").text.lower()
    assert "hybrid" in new.rule("106.8").text.lower()
    assert "hybrid" not in new.rule("106.9").text.lower()
    assert "modifies what" in old.rule("402.8c").text.lower()
    assert "modifies what" in new.rule("113.6c").text.lower()
    assert "countered" in new.rule("113.6f").text.lower()
    a = align(old, new)
    assert a.match_for_old("104.3g").new_ids == ("106.8",)
    assert a.match_for_old("402.8c").new_ids == ("113.6c",)


def _grown_member_pairing(old_text: str, grown: str, other: str):
    """An old rule under a matched parent, and two new siblings: ``grown`` (the old
    rule's rewrite, grown by a clause) and ``other`` (another subject on the same
    opening), plus filler rules so that rare words weigh more."""
    from rulediff.pairing import _Node

    mix = "Each gardener mixes their seed tray so the seeds lie in a random order."
    old = [
        _Node("103", "Starting the Season", None, True, 0),
        _Node("103.1", mix, "103", False, 1),
        _Node("103.1b", old_text, "103.1", False, 2),
    ]
    new = [
        _Node("103", "Starting the Season", None, True, 0),
        _Node("103.2", mix.replace("mixes", "then mixes"), "103", False, 1),
        _Node("103.2c", grown, "103.2", False, 2),
        _Node("103.2d", other, "103.2", False, 3),
    ]
    return _with_chores_paired_at_the_top(old, new)


_RELAY_OLD = (
    "In a relay season, each gardener puts their lead seedling from their tray face up "
    "into the shared bed before planting. See rule 903.6."
)
_RELAY_GROWN = (
    "In a relay season, each gardener puts their lead seedling from their tray face up "
    "into the shared bed after having the chance to show a companion bulb they own from "
    "outside the garden and before planting. See rule 903.8."
)


def test_a_grown_sibling_saying_all_the_link_shares_and_more_takes_the_old_rule() -> None:
    # Paraphrases: the relay rule grew a clause, so the two siblings share under half of
    # their words (no one frame by PARALLEL_SHARED), and the swap rule, another subject
    # on the same opening, is closer on the whole text. Every word the old rule shares
    # with the swap rule the relay rule says too, and the relay rule says the old rule's
    # own words (relay, lead seedling, tray, face up) besides: it takes the old rule.
    from rulediff.matching import CONFIDENT_TOTAL, _own_words_in_sibling, _solve
    from rulediff.pairing import MIN_TOTAL

    swap = (
        "In a swap season, each gardener puts any number of swap cuttings from their spare "
        "box of leftovers into the shared bed before planting. See rule 905.4."
    )
    p = _grown_member_pairing(_RELAY_OLD, _RELAY_GROWN, swap)
    ratios = {(2, j): fuzz.ratio(p.old[2].lower, p.new[j].lower) for j in (2, 3)}
    assert ratios[(2, 3)] > ratios[(2, 2)]  # the whole text alone picks the swap rule
    assert ratios[(2, 3)] < CONFIDENT_TOTAL
    assert _own_words_in_sibling(p, 2, 3, [(ratios[(2, 2)] + 5, ratios[(2, 2)], 2)])
    _solve(p, ratios, min_total=MIN_TOTAL, by_condition=True)
    assert p.new[p.o2n[2]].id == "103.2c"


def test_a_grown_sibling_off_the_frame_leaves_a_link_saying_its_own_words() -> None:
    # The same, but the closer rule also says one of the old rule's words the grown one
    # lacks (tray): the grown sibling no longer covers the link, shares no frame with
    # it, and the closer rule keeps the old rule.
    from rulediff.matching import _own_words_in_sibling

    swap = (
        "In a swap season, each gardener puts any number of swap cuttings from their tray "
        "of leftovers into the shared bed before planting. See rule 905.4."
    )
    grown = _RELAY_GROWN.replace("from their tray ", "")
    p = _grown_member_pairing(_RELAY_OLD, grown, swap)
    ratios = {(2, j): fuzz.ratio(p.old[2].lower, p.new[j].lower) for j in (2, 3)}
    assert not _own_words_in_sibling(p, 2, 3, [(ratios[(2, 2)] + 5, ratios[(2, 2)], 2)])


def test_the_commander_and_cost_rules_go_to_their_grown_members() -> None:
    # 2013-02-01 → 2022-06-10: the old rule putting the commander into the command zone
    # goes to the new commander rule (grown by the companion clause), not to the
    # conspiracy rule on the same opening. 2010-02-01 → 2026-02-27: the old rule on an
    # ability modifying what its object costs goes to the new rule saying so (grown by
    # alternative costs), not to the "can't be countered or copied" member.
    old, new = corpus_edition("2013-02-01"), corpus_edition("2022-06-10")
    assert "commander" in old.rule("103.1b").text.lower()
    assert "commander" in new.rule("103.2c").text.lower()
    assert "conspiracy" in new.rule("103.2d").text.lower()
    assert align(old, new).match_for_old("103.1b").new_ids == ("103.2c",)
    old, new = corpus_edition("2010-02-01"), corpus_edition("2026-02-27")
    assert "modifies what" in old.rule("112.6c").text.lower()
    assert "modifies what" in new.rule("113.6d").text.lower()
    assert "countered" in new.rule("113.6g").text.lower()
    assert align(old, new).match_for_old("112.6c").new_ids == ("113.6d",)


# --- round 26 (prec26): a free sibling saying all a weak link rests on, and more ---

_CHARM_OLD = (
    "If a gardener's charm lends a seedling a chant that names the charm, that name "
    "means only the charm that lent the chant, not any other charm with the same name."
)
_CHARM_GROWN = (
    "If a charm's spell lends a second chant to a seedling, and that chant names the "
    "first chant's charm, the name means only the specific charm that lent it. The "
    "second chant means no other charm with the same name as that charm. However, if "
    "the second chant moved the charm to another bed, the name means what the charm "
    "became there."
)
_CHARM_CONVERSE = (
    "If a chant of a charm names that charm, and a charm with another name gains that "
    "chant, each use of the first name in the gained chant that names the first charm is "
    "read as the second name."
)


def test_a_weak_link_yields_to_a_free_sibling_saying_all_it_rests_on_and_more() -> None:
    # Paraphrases: the old rule (a lent chant naming its charm) was rewritten at length;
    # the new converse rule (a charm gaining a chant that names another) is closer on the
    # letters. Every stem the old rule shares with the converse rule the rewrite says
    # too, and the rewrite says the old rule's own words besides (lends, lent, same,
    # seedling): the weak link to the converse rule is not made, even when the rewrite
    # is no candidate of its own (below the candidate floor).
    from rulediff.matching import WEAK_FUZZY, _sibling_says_all_and_more, _solve

    p = _grown_member_pairing(_CHARM_OLD, _CHARM_GROWN, _CHARM_CONVERSE)
    ratios = {(2, j): fuzz.ratio(p.old[2].lower, p.new[j].lower) for j in (2, 3)}
    assert ratios[(2, 2)] < ratios[(2, 3)] < WEAK_FUZZY  # the letters pick the converse
    assert _sibling_says_all_and_more(p, 2, 3)
    assert not _sibling_says_all_and_more(p, 2, 2)
    _solve(p, {(2, 3): ratios[(2, 3)]}, min_total=50.0, by_condition=True)
    assert p.o2n[2] == -1
    _solve(p, ratios, min_total=50.0, by_condition=True)
    assert p.new[p.o2n[2]].id == "103.2c"


def test_a_long_sibling_holding_a_short_links_words_does_not_take_it() -> None:
    # The same words held by a long rule on much else (a weighted Dice over both texts
    # lower than the link's): a long rule holding a short one's words is not closer, and
    # the link stands.
    from rulediff.matching import _sibling_says_all_and_more

    chores = (
        " Weeding, pruning and mulching wait until the frost has lifted, and raking, "
        "sowing, fencing and hoeing each take a whole morning of the gardener's week, "
        "unless a neighbour lends a barrow, a ladder, a trellis or a watering trough."
    )
    long_rule = _CHARM_GROWN + chores * 3
    p = _grown_member_pairing(_CHARM_OLD, long_rule, _CHARM_CONVERSE)
    assert not _sibling_says_all_and_more(p, 2, 3)


def test_the_granted_ability_and_revealed_top_card_rules_leave_their_converse_siblings() -> None:
    # 2008-07-15 → 2024-06-07: the old rule on an ability granted by an object naming
    # that object goes to its rewrite, not to the converse case (an object gaining an
    # ability that names another). 2003-03-15 → 2024-09-20: the old rule on a revealed
    # top card changing during an announcement goes to its rewrite alone, not also to
    # the rule on a revealed card becoming a new object. 2007-05-01 → 2018-07-13: the
    # short rule on the first turn keeps its short counterpart, though the long opening
    # hand rule beside it holds all its words.
    old, new = corpus_edition("2008-07-15"), corpus_edition("2024-06-07")
    assert "grants" in old.rule("202.2b").text.lower()
    assert "grants another ability" in new.rule("201.5a").text.lower()
    assert "gains that ability" in new.rule("201.5b").text.lower()
    assert align(old, new).match_for_old("202.2b").new_ids == ("201.5a",)
    old, new = corpus_edition("2003-03-15"), corpus_edition("2024-09-20")
    assert "top card" in old.rule("217.2e").text.lower()
    assert "new object" in new.rule("401.6").text.lower()
    assert "new object" not in old.rule("217.2e").text.lower()
    assert align(old, new).match_for_old("217.2e").new_ids == ("401.5",)
    old, new = corpus_edition("2007-05-01"), corpus_edition("2018-07-13")
    assert "first turn" in old.rule("101.5").text.lower()
    assert "first turn" in new.rule("103.7").text.lower()
    assert align(old, new).match_for_old("101.5").new_ids == ("103.7",)


def test_another_keywords_redundancy_sentence_is_a_template_even_when_kept_elsewhere() -> None:
    # 2015-07-17 → 2026-06-19: the old changeling redundancy sentence is gone from 2026;
    # the read ahead one says the same frame for another keyword. Other keywords'
    # redundancy sentences, kept word for word between the two editions, fit it about
    # as well: a template, not a rewrite. The old rule stays removed.
    old, new = corpus_edition("2015-07-17"), corpus_edition("2026-06-19")
    text = old.rule("702.72b").text.lower()
    assert "changeling" in text and text.endswith("are redundant.")
    assert "changeling" not in new.rule("702.155c").text.lower()
    m = align(old, new).match_for_old("702.72b")
    assert m is not None and m.kind == "removed", m


# --- the same answers by cheaper means (round 22: speed) ---------------------------------


def test_swept_is_apply_sweeps_for_the_pairings_sweeps() -> None:
    from rulediff import provenance
    from rulediff.align import _rule_nodes
    from rulediff.pairing import _Pairing

    p = _Pairing(_rule_nodes(edition(BASE)), _rule_nodes(edition(BASE)))
    text = "his or her widget spins. he or she wins."
    assert p.swept(text) == text  # no sweeps yet
    p.sweeps = provenance.longest_first([("his or her", "their"), ("he or she", "they")])
    assert (
        p.swept(text) == provenance.apply_sweeps(text, p.sweeps) == "their widget spins. they wins."
    )
    p.sweeps = (("widget", "gadget"),)  # another tuple: the memo starts again
    assert p.swept(text) == "his or her gadget spins. he or she wins."


def test_keeps_its_name_without_a_name() -> None:
    from rulediff.sentences import _keeps_its_name

    named = _Node("1", 'This is called the "spinner rule."', None, False, 0)
    other = _Node("2", "The spinner rule applies to every widget.", None, False, 0)
    plain = _Node("3", "A widget spins once a turn.", None, False, 0)
    assert _keeps_its_name(plain, other)
    assert _keeps_its_name(named, other)
    assert not _keeps_its_name(named, plain)


def _pointer_pairing(new_pointer: str, new_cites: str):
    """An old section with a rule on broken ladders and a short pointer to it, and a new
    section where the ladder rule kept its place and a short pointer ``new_pointer``
    cites ``new_cites``; the old pointer is linked (weakly) to the new one."""
    from rulediff.pairing import _Node, _Pairing

    old = [
        _Node("203", "Ladders", None, True, 0),
        _Node(
            "203.1",
            "A ladder with a broken rung is a broken ladder. Climbing a broken ladder is "
            "not allowed, but a gardener may still carry one.",
            "203",
            False,
            1,
        ),
        _Node("203.2", "A ladder has at least three rungs.", "203", False, 2),
        _Node("424", "Chores", None, True, 3),
        _Node("424.3", "Broken ladders can't be climbed. (See rule 203.1.)", "424", False, 4),
    ]
    new = [
        _Node("118", "Ladders and Chores", None, True, 0),
        _Node(
            "118.1",
            "A ladder with a broken rung is a broken ladder. Climbing a broken ladder is "
            "never allowed, though a gardener may carry one.",
            "118",
            False,
            1,
        ),
        _Node("118.2", "A ladder has three or more rungs.", "118", False, 2),
        _Node("118.4", new_pointer, "118", False, 3),
    ]
    p = _Pairing(old, new)
    for i, j in ((0, 0), (1, 1), (2, 2), (3, 0)):
        if p.n2o[j] < 0:
            p.pair(i, j, 90.0, "fuzzy")
    p.pair(4, 3, 60.0, "fuzzy")
    return p


def test_a_weak_link_between_pointers_to_rules_that_do_not_correspond_is_withdrawn() -> None:
    # Paraphrases: the old pointer sends the reader to the broken-ladder rule; the new
    # one, sharing only "ladders", to the rung-count rule: two pointers, two subjects.
    from rulediff.sentences import _withdraw_crossed_pointers

    p = _pointer_pairing("Some ladders have a rope instead. See rule 118.2.", "118.2")
    _withdraw_crossed_pointers(p, {}, {})
    assert p.o2n[4] == -1
    assert p.undecided_old[4] == (3,)  # the candidate is kept among the alternatives


def test_a_pointer_to_the_cited_rules_counterpart_or_saying_the_same_is_kept() -> None:
    from rulediff.sentences import _withdraw_crossed_pointers

    # the new pointer cites where the old pointer's rule went: the same pointer
    p = _pointer_pairing("A ladder that is broken can't be climbed. See rule 118.1.", "118.1")
    _withdraw_crossed_pointers(p, {}, {})
    assert p.o2n[4] == 3
    # another rule cited, but the two say one thing (broken ladders climbed)
    p = _pointer_pairing("Broken ladders can't be climbed by anyone. See rule 118.2.", "118.2")
    _withdraw_crossed_pointers(p, {}, {})
    assert p.o2n[4] == 3


def test_the_unpayable_cost_pointer_is_not_linked_to_the_x_cost_pointer() -> None:
    # 2007-05-01 → 2021-02-05: the old one-line rule that unpayable costs can't be paid
    # points to the old unpayable-cost rule (now split into 118.6 / 118.6a); the new
    # one-line rule on costs including X points to the X rule. Two pointers of the costs
    # section on two subjects: the old rule is not 118.4's source. Its one sentence, said
    # again by the cost-payment step 409.1h, lives on there (601.2h): it joins that rule
    # (round 47, ``_join_rules_said_twice``).
    old, new = corpus_edition("2007-05-01"), corpus_edition("2021-02-05")
    assert "unpayable" in old.rule("424.3").text.lower()
    assert "203.1b" in old.rule("424.3").text
    assert "unpayable" not in new.rule("118.4").text.lower()
    assert "107.3" in new.rule("118.4").text
    a = align(old, new)
    assert set(a.match_for_old("203.1b").new_ids) >= {"118.6"}
    m = a.match_for_old("424.3")
    assert m is not None and "118.4" not in m.new_ids, m
    assert m.kind == "merged" and m.new_ids == ("601.2h",) and "409.1h" in m.old_ids, m


def _boat_pairing():
    """An old rule on boats with three subrules; in the new edition the rule kept its
    place with a free subrule and one matched, and a new rule on sailboats (no old
    counterpart) has subrules of its own; old subrule 300.1b is weakly linked to one."""
    from rulediff.pairing import _Node, _Pairing

    old = [
        _Node("300", "Boats", None, True, 0),
        _Node("300.1", "A boat floats on water and carries gardeners.", "300", False, 1),
        _Node("300.1a", "A boat's bow is marked by a painted star.", "300.1", False, 2),
        _Node("300.1b", "Each side of a boat has a flag near its bow.", "300.1", False, 3),
        _Node("300.1c", "A boat can't carry more than four gardeners.", "300.1", False, 4),
    ]
    new = [
        _Node("400", "Boats", None, True, 0),
        _Node("400.1", "A boat floats on water and carries gardeners.", "400", False, 1),
        _Node("400.1a", "A boat's bow and stern carry painted symbols.", "400.1", False, 2),
        _Node("400.1c", "A boat can't carry more than five gardeners.", "400.1", False, 3),
        _Node("400.2", "A sailboat is a boat with a sail.", "400", False, 4),
        _Node("400.2a", "Each side of a sailboat has a ribbon near its mast.", "400.2", False, 5),
        _Node("400.2b", "A sailboat's sail is raised before it leaves.", "400.2", False, 6),
    ]
    p = _Pairing(old, new)
    for i, j in ((0, 0), (1, 1), (4, 3)):
        p.pair(i, j, 90.0, "fuzzy")
    p.pair(3, 5, 62.0, "fuzzy")
    return p


def test_a_weak_link_to_a_subrule_of_a_new_rule_away_from_its_family_is_withdrawn() -> None:
    # Paraphrases: the old flag subrule is linked by the shared frame ("each side of a
    # ... near its ...") to a subrule of the new sailboat rule, which no old rule became,
    # while its sibling's counterpart and a free rule stand under its parent's
    # counterpart: it stays removed, the candidate among its alternatives.
    from rulediff.sentences import _withdraw_links_under_new_rules

    p = _boat_pairing()
    _withdraw_links_under_new_rules(p, {}, {})
    assert p.o2n[3] == -1 and p.undecided_old[3] == (5,)


def test_a_weak_link_where_a_sibling_went_too_is_kept() -> None:
    # The bow subrule went under the sailboat rule as well: the family moved there.
    from rulediff.sentences import _withdraw_links_under_new_rules

    p = _boat_pairing()
    p.pair(2, 6, 70.0, "fuzzy")
    _withdraw_links_under_new_rules(p, {}, {})
    assert p.new[p.o2n[3]].id == "400.2a"


def test_the_face_icon_rule_is_not_linked_to_the_modal_hint_bar_rule() -> None:
    # 2015-07-17 → 2026-06-19: the old rule on the corner icon printed on both faces of a
    # double-faced card is not the new modal double-faced card's hint bar rule (a subrule
    # of a rule no old rule became); its sibling went under the counterpart of its
    # parent, where the front/back-face symbol rules are free. It stays removed.
    old, new = corpus_edition("2015-07-17"), corpus_edition("2026-06-19")
    assert "icon" in old.rule("711.1b").text.lower()
    assert "modal" in new.rule("712.3c").text.lower()
    m = align(old, new).match_for_old("711.1b")
    assert m is not None and m.kind == "removed" and "712.3c" in m.alternatives, m
    # 2010-07-16 → 2024-02-02: the Two-Headed Giant defending-team rule is not the
    # Two-Headed Giant poison rule under the new rule for the variants' state-based
    # actions.
    old, new = corpus_edition("2010-07-16"), corpus_edition("2024-02-02")
    assert "defending team" in old.rule("506.2b").text.lower()
    assert "poison" in new.rule("704.6b").text.lower()
    m = align(old, new).match_for_old("506.2b")
    assert m is not None and "704.6b" not in m.new_ids, m
    # 2004-10-01 → 2026-06-19: the total-cost step of casting went with its siblings
    # under the new casting rule: kept.
    m = align(corpus_edition("2004-10-01"), corpus_edition("2026-06-19")).match_for_old("409.1f")
    assert m is not None and m.new_ids == ("601.2f",), m


def test_run_of_a_free_rule_from_another_section_in_a_taken_rule_makes_it_a_merge_source() -> None:
    # A rule of another section folded into a kept rule: the new rule's added sentence
    # holds a long run of its words, and most of what that sentence adds to the kept
    # text is its. (The step is run by itself: on a toy edition later passes may pair the
    # lone free rule anyway.)
    from rulediff.align import _rule_nodes
    from rulediff.matching import _match_rules
    from rulediff.pairing import _Pairing
    from rulediff.sentences import _follow_runs_into_taken_rules

    kept = "100.2a A player who has no tokens left in the pile loses the game at once."
    star = "201.3. Tokens painted with a star count double toward every score at rest."
    old = BASE + f"\n{star}\n"

    def merges_found(new_text: str, old_text: str = old) -> dict[str, list[str]]:
        p = _Pairing(_rule_nodes(edition(old_text)), _rule_nodes(edition(new_text)))
        _match_rules(p)
        assert p.o2n[p.old_by_place["100.2a"]] == p.new_by_place["100.2a"]
        assert p.o2n[p.old_by_place["201.3"]] < 0
        merges: dict[int, list[int]] = {}
        _follow_runs_into_taken_rules(p, {}, merges)
        return {p.new[j].id: [p.old[i].id for i in group] for j, group in merges.items()}

    added = "Tokens painted with a star count double toward every score kept in the pile."
    assert merges_found(BASE.replace(kept, f"{kept} {added}")) == {"100.2a": ["100.2a", "201.3"]}
    # The run inside a sentence that mostly says other things: the surplus is not its.
    other = (
        "Tokens painted with a star count double toward every score, but judges of the venue "
        "inspect each scorecard and record the totals in a ledger kept by the organizer."
    )
    assert merges_found(BASE.replace(kept, f"{kept} {other}")) == {}
    # The same run said by a second old rule is a stock phrase: no evidence.
    count = "100.2b A player may count the tokens in any pile at any time."
    twice = f"{count} Tokens painted with a star count double toward every score of a team."
    new = BASE.replace(kept, f"{kept} {added}").replace(count, twice)
    assert merges_found(new, old.replace(count, twice)) == {}


def test_run_of_a_free_rule_from_another_section_in_a_taken_rule_in_the_corpus() -> None:
    # The rule that triggered mana abilities resolve at once, without waiting for
    # priority, stood under playing mana abilities; the new triggered-mana-ability rule,
    # matched to the old mana-ability rule, says it. A stock phrase of the threshold rule
    # (cards in a player's graveyard) inside the new graveyard rule's tournament sentence
    # brings no source.
    from rulediff.pairing import _runs, _word_list

    old, new = corpus_edition("2008-02-01"), corpus_edition("2009-10-01")
    free, grown = old.rule("411.3").text.lower(), new.rule("605.4a").text.lower()
    assert any(len(run) >= 6 for run in _runs(_word_list(free, "|o"), _word_list(grown, "|n"), 6))
    m = by_new(align(old, new), "605.4a")
    assert m.kind == "merged" and m.old_ids == ("406.4", "411.3"), m
    a = align(corpus_edition("2002-02-20"), corpus_edition("2011-02-04"))
    assert by_old(a, "502.23b").kind == "removed"
    assert by_new(a, "404.2").old_ids == ("217.4b",)


# --- round 23b (prec23b): a link resting only on a clause a run of new siblings repeats ---


def _frame_run_pairing(variant_rule: str):
    """An old variant section whose rule ``variant_rule`` ends on the clause a new run
    of water-symbol rules repeats for each symbol, the variant matched in both editions,
    plus filler rules so that rare words weigh more."""
    from rulediff.pairing import _Node, _Pairing

    crest = "Each gardener picks a champion whose crest shows one or more colours."
    old = [
        _Node("903", "Garden Variant", None, True, 0),
        _Node("903.1", crest, "903", False, 1),
        _Node("903.8", variant_rule, "903", False, 2),
        _Node("104", "Water Symbols", None, True, 3),
        _Node("104.1", "There are several kinds of water symbols.", "104", False, 4),
    ]
    run = (
        "If an effect would pour water shown by {} into a gardener's can, that much plain "
        "water is poured into that gardener's can."
    )
    new = [
        _Node("903", "Garden Variant", None, True, 0),
        _Node("903.1", crest, "903", False, 1),
        _Node("106", "Water Symbols", None, True, 2),
        _Node("106.1", "There are several kinds of water symbols.", "106", False, 3),
        _Node("106.10", run.format("a dotted water symbol"), "106", False, 4),
        _Node("106.11", run.format("one or more frosted water symbols"), "106", False, 5),
    ]
    chores = ["weeding", "pruning", "mulching", "raking", "sowing", "fencing", "hoeing"]
    for side in (old, new):
        side.append(_Node("300", "Chores", None, True, len(side)))
        for n, chore in enumerate(chores, start=1):
            text = f"A gardener may spend a turn {chore} a bed instead of tending it."
            side.append(_Node(f"300.{n}", text, "300", False, len(side)))
    p = _Pairing(old, new)
    for k in range(2):
        p.pair(k, k, 100.0, "anchor")
    p.pair(3, 2, 100.0, "anchor")
    p.pair(4, 3, 100.0, "anchor")
    return p


def test_a_variant_rule_ending_on_a_run_s_clause_is_left_out_of_the_run() -> None:
    # Paraphrase of the shape: the variant's rule (water of a colour outside the
    # champion's crest comes as plain water) shares with the frosted-symbol rule only
    # the clause the dotted-symbol rule says too; its own words (colour, crest,
    # champion) meet neither. The link is withdrawn: the old rule stays free.
    from rulediff.matching import _rests_on_sibling_frame, _solve
    from rulediff.pairing import MIN_TOTAL
    from rulediff.sentences import _withdraw_frame_matches

    variant = (
        "If water would be poured into a gardener's can of a colour that isn't on their "
        "champion's crest, that much plain water is poured into that gardener's can instead."
    )
    p = _frame_run_pairing(variant)
    ratios = {(2, j): fuzz.ratio(p.old[2].lower, p.new[j].lower) for j in (4, 5)}
    assert max(ratios.values()) >= MIN_TOTAL  # the whole text alone would link it
    assert _rests_on_sibling_frame(p, 2, 5) and _rests_on_sibling_frame(p, 2, 4)
    _solve(p, ratios, min_total=MIN_TOTAL, by_condition=True)
    assert p.o2n[2] >= 0  # the whole-text match links it to a member of the run ...
    _withdraw_frame_matches(p)
    assert p.o2n[2] < 0 and 2 in p.withdrawn  # ... and the frame test undoes it


def test_a_member_of_the_run_moved_from_the_variant_keeps_its_link() -> None:
    # The old rule is the frosted-symbol rule itself, standing in the variant section and
    # moved to the run: it says nearly all the new rule says, so the link stands.
    from rulediff.matching import _rests_on_sibling_frame, _solve
    from rulediff.pairing import MIN_TOTAL
    from rulediff.sentences import _withdraw_frame_matches

    moved = (
        "If an effect would pour water shown by one or more frosted water symbols into a "
        "gardener's can, the same amount of plain water is poured into the gardener's can."
    )
    p = _frame_run_pairing(moved)
    ratios = {(2, j): fuzz.ratio(p.old[2].lower, p.new[j].lower) for j in (4, 5)}
    assert not _rests_on_sibling_frame(p, 2, 5)
    _solve(p, ratios, min_total=MIN_TOTAL, by_condition=True)
    _withdraw_frame_matches(p)
    assert p.new[p.o2n[2]].id == "106.11"


def test_the_variant_colourless_mana_rules_are_left_out_of_the_mana_symbol_run() -> None:
    # 2010-07-16 → 2024-02-02 and 2012-02-01 → 2019-01-25: the Commander variant's rule
    # (mana of a colour outside the general's cost, or the commander's identity, comes
    # as colourless) ends on the clause of the new generic and snow mana rules; the new
    # editions drop the variant rule, which stays removed.
    old, new = corpus_edition("2010-07-16"), corpus_edition("2024-02-02")
    assert "general" in old.rule("903.8").text.lower()
    assert "snow" in new.rule("106.11").text.lower()
    assert align(old, new).match_for_old("903.8").kind == "removed"
    old, new = corpus_edition("2012-02-01"), corpus_edition("2019-01-25")
    assert "color identity" in old.rule("903.9").text.lower()
    assert "generic" in new.rule("106.10").text.lower()
    assert align(old, new).match_for_old("903.9").kind == "removed"


def _flavour_run_pairing(old_rule: str):
    """An old riddle section whose rule ``old_rule`` is matched in both editions by its
    parent, and a new flavour rule whose subrules say "... have no flavours" or name
    flavours for kind after kind; filler rules so that rare words weigh more."""
    from rulediff.pairing import _Node, _Pairing

    old = [
        _Node("212", "Card Kinds", None, True, 0),
        _Node("212.7", "Riddles", "212", True, 1),
        _Node("212.7a", "A riddle is read aloud when it is played.", "212.7", False, 2),
        _Node("212.7c", old_rule, "212.7", False, 3),
    ]
    new = [
        _Node("204", "Flavours", None, True, 0),
        _Node("204.3", "Cards of some kinds have flavours.", "204", False, 1),
        _Node("204.3j", "Riddles and hexes share flavours: spell flavours.", "204.3", False, 2),
        _Node("204.3m", "Beacon tiles have their own list of flavours.", "204.3", False, 3),
        _Node("204.3n", "Lantern cards have no flavours.", "204.3", False, 4),
        _Node("307", "Riddles", None, True, 5),
        _Node("307.1", "A riddle is read aloud when it is played.", "307", False, 6),
    ]
    chores = ["weeding", "pruning", "mulching", "raking", "sowing", "fencing", "hoeing"]
    for side in (old, new):
        side.append(_Node("300", "Chores", None, True, len(side)))
        for n, chore in enumerate(chores, start=1):
            text = f"A gardener may spend a turn {chore} a bed instead of tending it."
            side.append(_Node(f"300.{n}", text, "300", False, len(side)))
    p = _Pairing(old, new)
    p.pair(0, 0, 100.0, "anchor")
    p.pair(1, 5, 100.0, "anchor")
    p.pair(2, 6, 100.0, "anchor")
    return p


def test_a_short_rule_that_is_mostly_a_run_s_clause_is_left_out_above_the_weak_band() -> None:
    # Paraphrase of the shape: "riddles have no flavours" (its section kept elsewhere)
    # scores above WEAK_FUZZY against "lantern cards have no flavours" on the clause
    # alone, which the run's other members say too. The link is withdrawn.
    from rulediff.matching import CONFIDENT_TOTAL, WEAK_FUZZY, _rests_on_sibling_frame, _solve
    from rulediff.pairing import MIN_TOTAL
    from rulediff.sentences import _withdraw_frame_matches

    p = _flavour_run_pairing("Riddles have no flavours.")
    ratios = {(3, j): fuzz.ratio(p.old[3].lower, p.new[j].lower) for j in (2, 3, 4)}
    assert WEAK_FUZZY <= ratios[(3, 4)] < CONFIDENT_TOTAL
    assert _rests_on_sibling_frame(p, 3, 4)
    _solve(p, ratios, min_total=MIN_TOTAL, by_condition=True)
    assert p.new[p.o2n[3]].id == "204.3n"  # the whole-text match takes the lantern rule ...
    _withdraw_frame_matches(p)
    assert p.o2n[3] < 0 and 3 in p.withdrawn  # ... and the frame test undoes it


def test_a_reworded_member_of_the_run_above_the_weak_band_keeps_its_link() -> None:
    # The old rule is the lantern rule itself, reworded and moved into the run: it says
    # all the new rule says, so the link stands.
    from rulediff.matching import WEAK_FUZZY, _rests_on_sibling_frame, _solve
    from rulediff.pairing import MIN_TOTAL
    from rulediff.sentences import _withdraw_frame_matches

    p = _flavour_run_pairing("Lantern cards never have flavours.")
    ratios = {(3, j): fuzz.ratio(p.old[3].lower, p.new[j].lower) for j in (2, 3, 4)}
    assert ratios[(3, 4)] >= WEAK_FUZZY
    assert not _rests_on_sibling_frame(p, 3, 4)
    _solve(p, ratios, min_total=MIN_TOTAL, by_condition=True)
    _withdraw_frame_matches(p)
    assert p.new[p.o2n[3]].id == "204.3n"


def test_the_sorcery_and_two_headed_giant_rules_leave_the_runs_clause() -> None:
    # 2003-12-01 → 2009-10-01 (and 2003-07-01 → 2010-02-01): the rule that sorceries
    # have no subtypes met the vanguard rule of the new subtype list on its clause alone;
    # the new edition gives sorceries subtypes, so the rule stays removed.
    # 2009-07-11 → 2021-02-05: the Two-Headed Giant defending-team rule met a Two-Headed
    # Giant state-based action on the run's opening; it goes to the defending-team rule
    # in its own place instead.
    old, new = corpus_edition("2003-12-01"), corpus_edition("2009-10-01")
    assert "sorceries" in old.rule("212.7c").text.lower()
    assert "vanguard" in new.rule("204.3n").text.lower()
    assert align(old, new).match_for_old("212.7c").kind == "removed"
    old, new = corpus_edition("2009-07-11"), corpus_edition("2021-02-05")
    assert "defending team" in old.rule("506.2b").text.lower()
    assert "defending team" not in new.rule("704.6a").text.lower()
    assert align(old, new).match_for_old("506.2b").new_ids == ("506.2b",)


def test_free_parallel_twin_joins_the_general_rule_its_twin_holds() -> None:
    # Two rules written to one frame for two leagues; the new edition writes one rule for
    # every league. The free twin is one more source, unless the new rule names only the
    # held twin's league, or the free twin's league is gone from the new edition. (The
    # step is run by itself: on a toy edition later passes may pair the free rule anyway.)
    from rulediff.align import _rule_nodes
    from rulediff.matching import _match_rules
    from rulediff.pairing import _Pairing
    from rulediff.sentences import _join_parallel_twins

    field = "from the hall to the field and raises it."
    red = f"300.1a As a round of a red league starts, each captain moves the red banner {field}"
    blue = f"300.1b As a round of a blue league starts, the blue captain moves its pennant {field}"
    old = BASE + f"\n3. Leagues\n\n300. Rounds\n\n{red}\n\n{blue}\n"
    kept_blue = "300.2. The blue league keeps its pennant in the hall."

    def merges_found(new_rule: str, extra: str = kept_blue) -> dict[str, list[str]]:
        new = BASE + f"\n3. Leagues\n\n300. Rounds\n\n300.1a {new_rule}\n\n{extra}\n"
        p = _Pairing(_rule_nodes(edition(old)), _rule_nodes(edition(new)))
        _match_rules(p)
        assert p.o2n[p.old_by_place["300.1a"]] == p.new_by_place["300.1a"]
        assert p.o2n[p.old_by_place["300.1b"]] < 0
        merges: dict[int, list[int]] = {}
        _join_parallel_twins(p, {}, merges)
        return {p.new[j].id: [p.old[i].id for i in group] for j, group in merges.items()}

    general = f"As a round starts, each captain moves each of their flags {field}"
    assert merges_found(general) == {"300.1a": ["300.1a", "300.1b"]}
    # The new rule names the red league only: it is the red rule's alone.
    only_red = f"As a round of a red league starts, each captain moves each red banner {field}"
    assert merges_found(only_red) == {}
    # The blue league is gone from the new edition: its rule is removed, not merged.
    assert merges_found(general, "300.2. Each league keeps its flags in the hall.") == {}


def test_free_parallel_twin_joins_the_general_rule_in_the_corpus() -> None:
    # The Archenemy subgame rules written beside their Planechase twins became the one
    # rule for every supplementary deck; the meld rule that melded permanents can't be
    # turned face down went, with its double-faced twin, into the rule naming both (not
    # into the face-down rule sharing the frame). The multiplayer mulligan rule keeps its
    # own successor in the mulligan rule, though its multiplayer-section twin went to a
    # rule saying the same.
    a = align(corpus_edition("2018-06-08"), corpus_edition("2026-06-19"))
    assert by_new(a, "729.2a").old_ids == ("719.2a", "719.2d")
    assert by_new(a, "729.5a").old_ids == ("719.5a", "719.5d")
    assert by_new(a, "712.16").old_ids == ("711.10", "712.10")
    assert by_new(a, "708.2b").kind == "added"
    b = align(corpus_edition("2015-07-17"), corpus_edition("2026-06-19"))
    assert by_new(b, "729.2a").old_ids == ("715.2a", "715.2d")
    assert by_old(b, "103.4c").new_ids == ("103.5c",)


def test_a_twin_linked_to_a_rule_naming_its_subject_stays_there_in_the_corpus() -> None:
    # The back-face symbol rule and its front-face twin each keep their own successor:
    # the new front-face rule happens to say the back-face rule's symbol word (a set's
    # front symbol is a moon), and is a hair closer by edit ratio, but the back-face
    # rule's own link names both its words (audit23c, three held-out pairs).
    a = align(corpus_edition("2014-07-18"), corpus_edition("2017-07-08"))
    assert by_old(a, "711.1b").new_ids == ("711.1b",)
    assert by_new(a, "711.1a").old_ids == ("711.1a",)


def matched_pairing(old: str, new: str, taken: tuple[str, str] | None = None):
    """The rule pairing of two toy edition texts once rules and headings are matched:
    where a late step is run by itself. ``taken``: (old, new) ids linked as some other
    pass would have, each side's earlier link undone."""
    from rulediff.align import _rule_nodes
    from rulediff.matching import _match_headings, _match_rules
    from rulediff.pairing import _Pairing

    p = _Pairing(_rule_nodes(edition(old)), _rule_nodes(edition(new)))
    _match_rules(p)
    _match_headings(p)
    if taken is not None:
        i, j = p.old_by_place[taken[0]], p.new_by_place[taken[1]]
        for k in (i, p.n2o[j]):
            if k >= 0:
                p.withdraw(k)
        p.pair(i, j, 60.0, "structure")
    return p


def _merges_made_by(step, old: str, new: str) -> dict[str, list[str]]:
    """The merges a late joining step (``step(p, splits, merges)``) makes once rules and
    headings are matched: the step run by itself, as the twins' step above."""
    p = matched_pairing(old, new)
    merges: dict[int, list[int]] = {}
    step(p, {}, merges)
    return {p.new[j].id: [p.old[i].id for i in group] for j, group in merges.items()}


def _emptied_container_merges(old: str, new: str) -> dict[str, list[str]]:
    from rulediff.sentences import _join_emptied_containers

    return _merges_made_by(_join_emptied_containers, old, new)


_ROUND = (
    "Each round lasts ten minutes on the field of the league and ends when the referee "
    "rings the brass bell twice."
)
_ROUNDS = (
    f"300.1. {_ROUND}\n\n"
    "300.1a The home team chooses which end of the field it defends during the first round.\n\n"
    "300.1b Between two rounds each team may rest for as long as the referee allows it.\n\n"
    "300.1c A round that ends in a tie is played again from the start on the next day.\n\n"
)


def test_list_intro_joins_the_held_rule_its_listed_subrules_went_under() -> None:
    # A rule and the intro of a list after it were folded into one new rule heading the
    # listed subrules: the freed intro is one more source when the new rule says its words
    # or, both introducing a list, its role; not when the new rule does neither.
    limits = (
        "Each team raises its red flag before its blue flag, whatever the weather.",
        "A team with no flags left in its chest skips the raising altogether.",
        "The captain lowers every raised flag of the team as the round ends.",
    )
    old = BASE + (
        f"\n3. Leagues\n\n300. Rounds\n\n300.1. {_ROUND}\n\n"
        "300.2. A captain may order the flags of the team freely, within these limits:\n\n"
        + "".join(f"300.2{c} {t}\n\n" for c, t in zip("abc", limits, strict=True))
    )

    def new(intro: str) -> str:
        return BASE + (
            f"\n3. Leagues\n\n300. Rounds\n\n300.1. {_ROUND} {intro}\n\n"
            + "".join(f"300.1{c} {t}\n\n" for c, t in zip("abc", limits, strict=True))
        )

    joined = {"300.1": ["300.1", "300.2"]}
    says_its_words = new("A captain orders the flags by these rules:")
    assert _emptied_container_merges(old, says_its_words) == joined
    assert _emptied_container_merges(old, new("These rules come next:")) == joined
    assert _emptied_container_merges(old, new("The referee then checks the field.")) == {}


def test_heading_joins_the_held_rule_naming_it_not_a_broader_heading() -> None:
    # A heading whose first rule now heads its other rules joins that rule when the rule
    # names it; a heading whose rules went under a broader heading joins that heading only
    # if its title is said there (a heading goes to a heading, an intro never does).
    chest = (
        "A chest is a wooden box by the gate of the field where a team keeps its spare flags.",
        "No team may open the chest of another team while a round is being played on the field.",
        "A team that loses its chest borrows one from the referee until the end of the league.",
    )

    def old(title: str) -> str:
        return BASE + (
            f"\n3. Leagues\n\n300. Rounds\n\n{_ROUNDS}301. {title}\n\n"
            + "".join(f"301.{k}. {t}\n\n" for k, t in enumerate(chest, 1))
        )

    under = f"300.2. {chest[0]}\n\n300.2a {chest[1]}\n\n300.2b {chest[2]}\n"
    flat = "".join(f"300.{k}. {t}\n\n" for k, t in enumerate(chest, 2))
    new = BASE + f"\n3. Leagues\n\n300. Rounds\n\n{_ROUNDS}"
    assert _emptied_container_merges(old("Chests"), new + under) == {"300.2": ["301", "301.1"]}
    assert _emptied_container_merges(old("Chests"), new + flat) == {}
    assert _emptied_container_merges(old("Rounds"), new + flat) == {"300": ["300", "301"]}
    # Two of its three rules under the rule that names it, the third in another section: a
    # majority is where the heading went (round 32; three quarters were asked before).
    elsewhere = f"300.2. {chest[0]}\n\n300.2a {chest[1]}\n"
    moved = BASE.replace(
        "201.2. The rest step ends", f"201.2. {chest[2]}\n\n201.3. The rest step ends"
    )
    two_of_three = moved + f"\n3. Leagues\n\n300. Rounds\n\n{_ROUNDS}" + elsewhere
    assert _emptied_container_merges(old("Chests"), two_of_three) == {"300.2": ["301", "301.1"]}


def _restated_merges(old: str, new: str) -> dict[str, list[str]]:
    from rulediff.sentences import _join_restated_siblings

    return _merges_made_by(_join_restated_siblings, old, new)


_SLEEP_KEPT = "Hibernation is a rule of the winter league that sends a tired team off the field."
_SLEEP_OLD = (
    "A team waking from hibernation keeps the same captain and coach it had before.",
    "A sleeping team remembers its score and the pennants it had won before falling asleep.",
    "Waking from hibernation never rings the brass bell nor calls the spectators back.",
    "The referee paints the lines of the field white on the first snowy morning.",
)


def _sleep_rules(rules: tuple[str, ...]) -> str:
    return BASE + (
        f"\n3. Leagues\n\n300. Rounds\n\n{_ROUNDS}301. Hibernation\n\n301.1. {_SLEEP_KEPT}\n\n"
        + "".join(f"301.{k}. {t}\n\n" for k, t in enumerate(rules, 2))
    )


def test_free_rule_restating_several_free_siblings_merges_them() -> None:
    # The new edition says in one rule, in new words, what three removed siblings said
    # (captain, score, bell): each brings words no other sibling has, so all three are
    # its sources; the unrelated sibling stays removed. A rule sharing words of its own
    # with only two siblings, or written fresh, merges nothing.
    old = _sleep_rules(_SLEEP_OLD)
    restated = (
        "Hibernation isn't a departure: the team wakes with its captain and coach, its score "
        "and pennants intact, and no brass bell rings for the spectators."
    )
    fresh = "During hibernation the team trains indoors under the eye of its physician."
    assert _restated_merges(old, _sleep_rules((restated, fresh))) == {
        "301.2": ["301.2", "301.3", "301.4"]
    }
    two = (
        "Hibernation isn't a departure: the team wakes with its captain and coach, its score "
        "and pennants intact."
    )
    assert _restated_merges(old, _sleep_rules((two, fresh))) == {}
    # A cross-reference's title says no content: the bell sibling is no third source.
    cited = two + ' (See rule 300.1, "Brass Bell and Spectators.")'
    assert _restated_merges(old, _sleep_rules((cited, fresh))) == {}
    assert _restated_merges(old, _sleep_rules((fresh,))) == {}


def test_phasing_rule_restating_removed_siblings_merges_them_in_the_corpus() -> None:
    # The 2009 rewrite of phasing says in one new rule that phasing is no zone change,
    # that counters stay and the phasing doesn't count in a permanent's history: what the
    # old same-permanent and remembers-its-past rules said (blind answers). The rule on a
    # phased-out permanent's status shares only a couple of words with two old siblings
    # apiece: it stays added.
    a = align(corpus_edition("2009-05-01"), corpus_edition("2009-07-11"))
    sources = by_new(a, "702.23d").old_ids
    assert by_new(a, "702.23d").kind == "merged"
    assert {"502.15f", "502.15h"} <= set(sources)
    assert by_new(a, "702.23b").kind == "added"


def test_emptied_containers_join_their_held_rules_in_the_corpus() -> None:
    # The combat damage rule and the intro of its damage-assignment list became one rule
    # heading the list; the status heading's first rule became the status rule heading its
    # other rules, the tokens heading's the token rule (held by the old definition); the
    # triggered abilities heading joins the handling section its rules went to. The
    # heading of ability adding and removing, whose rules went to the abilities section
    # and two of its rules, stays removed.
    a = aligned("2004-10-01", "2026-06-19")
    assert by_new(a, "510.1").old_ids == ("310.1", "310.2")
    b = aligned("2007-10-01", "2017-04-28")
    # (214.5, the status summary under Permanents, joins as a restatement: rescue._said_twice)
    assert by_new(b, "110.6").old_ids == ("214.5", "510", "510.1")
    # (216.1, whose first sentence 110.5 also opens with, joins too: round 65)
    assert by_new(b, "110.5").old_ids == ("200.4", "216", "216.1")
    # The heading of ability adding and removing: two of its three rules went into the
    # rule now stating its subject, the third under the abilities section (round 32:
    # a majority decides; it stayed removed while three quarters were asked).
    assert by_new(b, "112.10").old_ids == ("407", "407.1", "407.3")
    # On 2004 -> 2026 that rule is a piece of its first rule's split: it joins the split.
    assert by_old(a, "407").new_ids_of("407") == ("113.10",)
    # Replacement and prevention effects, one heading, became two sections: its general
    # rules were split between them, so half of its subrules went to each side and the
    # heading goes to neither (its prevention subheading still goes to one).
    d = aligned("2003-03-15", "2021-07-23")
    assert by_old(d, "419").kind == "removed"
    assert by_new(d, "615").old_ids == ("419.7",)
    c = aligned("2009-05-01", "2009-07-11")
    assert by_new(c, "603").old_ids == ("404", "410")
    # The holder of the combat damage rule is split there: the intro joins that split as
    # a source of the piece heading its list (a group of two old and two new rules).
    intro = by_old(c, "310.2")
    assert intro.kind == "split" and intro.new_ids_of("310.2") == ("510.1",), intro


# A run of variants of one keyword (paraphrases): the plain sprinkler ability, a note,
# the "[quality] bed" variant, and the several-abilities rule. The new edition rewrites
# the quality variant as a limit on the targets and adds a "pond" variant on the old
# variant's template, closer on the whole text.
_TEND_BASE = (
    'Tend is an activated ability of Sprinkler cards. "Tend [cost]" means "[Cost]: Aim this '
    'sprinkler at target bed you own. Activate only as a sorcery."'
)
_TEND_NOTE = "For more on Sprinklers, see rule 301."
_TEND_MANY = "If a sprinkler has several tend abilities, any of them may be activated."
_TEND_QUALITY_OLD = (
    '"Tend [quality] bed" is a variant of the tend ability. "Tend [quality] [cost]" means '
    '"[Cost]: Aim this sprinkler at target [quality] bed you own. Activate only as a '
    "sorcery.\" This ability doesn't limit what the sprinkler may be aimed at."
)
_TEND_QUALITY_NEW = (
    "Tend abilities may further limit which beds may be chosen as targets, usually as "
    '"tend [quality]" or "tend [quality] bed". This ability doesn\'t limit what the '
    "sprinkler may be aimed at."
)
_TEND_POND = (
    '"Tend pond" is a variant of the tend ability. "Tend pond [cost]" means "[Cost]: Aim '
    "this sprinkler at target pond you own as though that pond were a bed. Activate only "
    'as a sorcery."'
)


def _variant_run_pairing(with_siblings: bool = True):
    """The old run (or the quality variant alone under its heading) and the new run, the
    unchanged members paired."""
    from rulediff.pairing import _Node

    old_run = [("702.6a", _TEND_BASE), ("702.6b", _TEND_NOTE)] if with_siblings else []
    old_run.append(("702.6c", _TEND_QUALITY_OLD))
    if with_siblings:
        old_run.append(("702.6d", _TEND_MANY))
    new_run = [
        ("702.6a", _TEND_BASE),
        ("702.6b", _TEND_NOTE),
        ("702.6c", _TEND_QUALITY_NEW),
        ("702.6d", _TEND_MANY),
        ("702.6e", _TEND_POND),
    ]
    sides = []
    for run in (old_run, new_run):
        nodes = [
            _Node("702", "Keyword Abilities", None, True, 0),
            _Node("702.6", "Tend", "702", True, 1),
        ]
        nodes += [_Node(rid, text, "702.6", False, n) for n, (rid, text) in enumerate(run, 2)]
        sides.append(nodes)
    p = _with_chores_paired_at_the_top(*sides)
    new_ids = {node.id: j for j, node in enumerate(p.new)}
    for k, node in enumerate(p.old):
        j = new_ids.get(node.id)
        if j is not None and p.n2o[j] < 0 and node.text == p.new[j].text:
            p.pair(k, j, 100.0, "anchor")
    return p


def test_a_keyword_variant_goes_to_the_member_saying_its_variant_words() -> None:
    # The old quality variant shares most of its words with its run (the keyword's
    # template, said by the plain ability). Its variant words (limit, what it may be
    # aimed at) are said only by the new limit rule; the pond variant, closer on the whole
    # text, says only "variant" of them. The free limit rule takes the old variant.
    from rulediff.matching import _own_words_in_sibling, _variant_words_lead

    p = _variant_run_pairing()
    i = next(k for k, n in enumerate(p.old) if n.id == "702.6c")
    limit = next(k for k, n in enumerate(p.new) if n.id == "702.6c")
    pond = next(k for k, n in enumerate(p.new) if n.id == "702.6e")
    ratios = {j: fuzz.ratio(p.old[i].lower, p.new[j].lower) for j in (limit, pond)}
    assert ratios[pond] > ratios[limit]  # the whole text alone picks the pond variant
    options = [(ratios[j] + 5, ratios[j], j) for j in (pond, limit)]
    assert _own_words_in_sibling(p, i, pond, options)
    assert _variant_words_lead(p, i, pond, limit)
    assert not _variant_words_lead(p, i, limit, pond)


def test_a_lone_rule_has_no_variant_words_to_tell_the_run_apart() -> None:
    # Guard: the same old rule with no siblings has no run template to set apart (all
    # its words are its own), so the variant test is not asked; the own-word test alone
    # decides, as before.
    from rulediff.matching import _variant_words_lead

    p = _variant_run_pairing(with_siblings=False)
    i = next(k for k, n in enumerate(p.old) if n.id == "702.6c")
    limit = next(k for k, n in enumerate(p.new) if n.id == "702.6c")
    pond = next(k for k, n in enumerate(p.new) if n.id == "702.6e")
    assert not _variant_words_lead(p, i, pond, limit)


def test_the_equip_quality_variant_goes_to_the_equip_restriction_rule() -> None:
    # 2018-06-08 → 2026-06-19: the old "equip [quality] creature" variant goes to the new
    # rule on equip abilities restricting their targets, not to the "equip
    # planeswalker" variant written on its template; that one stays added.
    old, new = corpus_edition("2018-06-08"), corpus_edition("2026-06-19")
    assert "variant" in old.rule("702.6c").text.lower()
    assert "restrict" in new.rule("702.6c").text.lower()
    assert "planeswalker" in new.rule("702.6e").text.lower()
    a = align(old, new)
    assert a.match_for_old("702.6c").new_ids == ("702.6c",)
    m = a.match_for_new("702.6e")
    assert m is not None and m.kind == "added", m


def test_denial_needs_a_negation_and_is_the_regex_search() -> None:
    """Round 26: ``_denies`` compiles the term's regex only for a text holding one of the
    negations the regex opens with; every answer is the regex's."""
    from rulediff.pairing import _DEFINES, _denial, _denies

    # paraphrased: "another" and "nothing" hold "not" but are no negation
    assert not _denies("mana ability", "another mana ability does nothing")
    assert _denies("mana ability", "that one is not a mana ability")
    assert _denies("blood token", "those aren't blood tokens")
    edition = corpus_edition("2025-11-14")
    lowers = [r.text.lower() for r in edition.rules if r.text]
    terms = sorted({m.group(1) for t in lowers if (m := _DEFINES.match(t))})
    assert len(terms) > 20
    denied = 0
    for term in terms:
        first = term.split()[0]
        for text in lowers:
            if first in text:
                expected = _denial(term).search(text) is not None
                assert _denies(term, text) == expected, (term, text)
                denied += expected
    assert denied > 0


def test_piece_that_only_restates_the_match_is_no_piece_of_a_split() -> None:
    # Old: a rule that a card may award the win (with a pointer aside). New: the same rule
    # without the aside, plus its converse (a card may award the loss) as a free rule. The
    # converse shares the old frame but says nothing of the old rule the match does not.
    from rulediff.align import _rule_nodes
    from rulediff.matching import _match_rules
    from rulediff.sentences import _restates_match

    win = "100.2d A card may declare that a player wins the game."
    lose = "100.2e A card may declare that a player loses the game."
    aside = "(With many players at the table, the game may go on; see rule 100.2a.)"
    old = BASE.replace("100.3. The player", f"{win} {aside}\n\n100.3. The player")
    new = BASE.replace("100.3. The player", f"{win}\n\n{lose}\n\n100.3. The player")
    p = _Pairing(_rule_nodes(edition(old)), _rule_nodes(edition(new)))
    _match_rules(p)
    i, j, k = p.old_by_place["100.2d"], p.new_by_place["100.2d"], p.new_by_place["100.2e"]
    assert p.o2n[i] == j
    assert _restates_match(p, i, j, k)
    # A piece that keeps an old sentence the match lost is a piece.
    both = f"{win} A judge records it."
    old2 = BASE.replace("100.3. The player", f"{both}\n\n100.3. The player")
    new2 = BASE.replace(
        "100.3. The player", f"{win}\n\n100.2e A judge records it.\n\n100.3. The player"
    )
    q = _Pairing(_rule_nodes(edition(old2)), _rule_nodes(edition(new2)))
    _match_rules(q)
    i, j, k = q.old_by_place["100.2d"], q.new_by_place["100.2d"], q.new_by_place["100.2e"]
    assert not _restates_match(q, i, j, k)
    # End to end (without the guard the converse joins a split: the pair reads closer to
    # the old text with its aside than the match alone): the converse is added.
    a = align(edition(old), edition(new))
    assert by_old(a, "100.2d").new_ids == ("100.2d",)
    assert by_new(a, "100.2e").kind == "added"


def test_converse_of_a_rule_is_no_piece_of_its_split_in_the_corpus() -> None:
    # The old rule that an effect may make a player win is kept (less its aside) under the
    # ways to win; the new rule that an effect may make a player lose differs from it by
    # one word and is new content, not a piece of the old rule.
    old, new = corpus_edition("2009-02-01"), corpus_edition("2022-10-07")
    kept, converse = new.rule("104.2b").text.split(), new.rule("104.3e").text.split()
    assert len(kept) == len(converse)
    assert sum(a != b for a, b in zip(kept, converse, strict=True)) == 1
    assert old.rule("102.2b").text.startswith(new.rule("104.2b").text)
    a = align(old, new)
    assert by_old(a, "102.2b").new_ids == ("104.2b",)
    assert by_new(a, "104.3e").kind == "added"


def test_closest_is_the_highest_ratio_of_any_key() -> None:
    """Round 27: ``_closest`` asks rapidfuzz once (``extractOne``) for the best ratio;
    the answer is the plain maximum of ``fuzz.ratio`` over the keys, 0 for none."""
    from rapidfuzz import fuzz

    from rulediff import provenance
    from rulediff.sentences import _closest

    # paraphrased sentences
    keys = ["a player draws two cards", "each opponent loses one life", "draw a card"]
    assert _closest("a player draws a card", []) == 0.0
    assert _closest("a player draws a card", keys) == max(
        fuzz.ratio("a player draws a card", k) for k in keys
    )
    edition = corpus_edition("2025-11-14")
    corpus_keys = [k for r in edition.rules[:400] if r.text for k in provenance.unit_keys(r.text)]
    assert len(corpus_keys) > 100
    for key in corpus_keys[::37]:
        assert _closest(key, corpus_keys) == max(fuzz.ratio(key, k) for k in corpus_keys)


def _shared_opening_pairs(old: str, new: str) -> dict[str, str]:
    """The links :func:`rulediff.sentences._pair_by_shared_opening` makes by itself once rules
    and headings are matched."""
    from rulediff.align import _rule_nodes
    from rulediff.matching import _match_headings, _match_rules
    from rulediff.pairing import _Pairing
    from rulediff.sentences import _pair_by_shared_opening

    p = _Pairing(_rule_nodes(edition(old)), _rule_nodes(edition(new)))
    _match_rules(p)
    _match_headings(p)
    before = list(p.o2n)
    _pair_by_shared_opening(p, {}, {})
    return {p.old[i].id: p.new[j].id for i, j in enumerate(p.o2n) if j >= 0 and before[i] < 0}


_PENNANT_OLD = (
    "The maker of a league pennant is stitched in gold thread right beneath the crest of the "
    "team that won it; that stitching never changes the outcome of any round or season."
)
_PENNANT_NEW = (
    'The maker of a league pennant follows the needle icon or, on old pennants, the word "Sewn."'
)


def test_free_rules_opening_on_one_distinctive_subject_are_one_rule() -> None:
    # The heading of the pennant maker is gone and its one rule, rewritten after its
    # subject, stands under the rounds now: both open on the same subject phrase, said by
    # no other rule, so they are one rule. When another new rule opens on that phrase too
    # it is no one rule's subject: nothing is linked.
    old = (
        BASE
        + f"\n3. Leagues\n\n300. Rounds\n\n{_ROUNDS}301. Pennant Maker\n\n301.1. {_PENNANT_OLD}\n"
    )
    new = BASE + (
        f"\n3. Leagues\n\n300. Rounds\n\n{_ROUNDS}"
        "300.2. Each pennant carries marks that do not count toward any score.\n\n"
        f"300.2a {_PENNANT_NEW}\n"
    )
    assert _shared_opening_pairs(old, new) == {"301.1": "300.2a"}
    twice = new + "\n300.2b The maker of a league pennant may sign it on the back in ink.\n"
    assert _shared_opening_pairs(old, twice) == {}


def test_free_rules_opening_on_one_distinctive_subject_in_the_corpus() -> None:
    # The illustration credit rule, moved under the rule on a card's credit line and
    # rewritten after its subject, keeps its opening words; two rules opening on a unique
    # phrase of common words (a multiplayer frame, a choice allowed) stay apart.
    from rulediff.textkeys import letter_words

    a = aligned("2004-10-01", "2026-06-19")
    old, new = (
        corpus_edition("2004-10-01").rule("209.1"),
        corpus_edition("2026-06-19").rule("213.1f"),
    )
    assert letter_words(old.text.lower())[:6] == letter_words(new.text.lower())[:6]
    assert by_old(a, "209.1").new_ids == ("213.1f",)
    b = aligned("2011-05-01", "2023-04-14")
    assert by_old(b, "800.7").new_ids != ("508.7d",)
    c = aligned("2009-07-11", "2019-08-23")
    assert by_old(c, "702.12c").new_ids != ("700.2d",)


_MAP_OLD = (
    "A two-sided map is laid out with its front side up by default. If a spell or ability "
    "lays it out \u201cflipped,\u201d it is laid out with its back side up."
)
_MAP_STAYS_OLD = (
    "If a player is told to lay out a sheet that isn\u2019t a two-sided map flipped, that "
    "sheet stays in its current zone."
)
_MAP_NEW = (
    "A two-sided map laid out from a zone other than the stack is laid out with its front "
    "side up by default."
)
_MAP_FLIPPED_NEW = (
    "If a spell or ability lays out a folding two-sided map \u201cflipped\u201d or "
    "\u201cturned,\u201d it is laid out with its back side up. If a player is told to lay "
    "out a sheet that isn\u2019t a folding two-sided map flipped or turned over, that sheet "
    "stays in its current zone."
)
_MAP_HINGED_NEW = (
    "If a player is told to lay out a hinged two-sided map whose front isn\u2019t a map, "
    "that sheet stays in its current zone."
)


def test_a_sentence_kept_near_exact_in_place_beats_a_frame_text_match() -> None:
    # The rule on a sheet that stays put is now the second sentence of a neighbour, a
    # word or two longer; a new sibling on another kind of map reuses its frame and is
    # its closest whole text. The sentence kept near word for word is the rule: the
    # sibling is new, not a piece of it.
    head = "\n3. Maps\n\n300. Two-Sided Maps\n\n300.1. Some maps are printed on both sides.\n"
    turned = "A map is turned over only by an effect."
    old = BASE + f"{head}\n300.2. {_MAP_OLD}\n\n300.2a {_MAP_STAYS_OLD}\n\n300.3. {turned}\n"
    new = BASE + (
        f"{head}\n300.2. {turned}\n\n300.3. {_MAP_NEW}\n\n300.3a {_MAP_FLIPPED_NEW}\n\n"
        f"300.3b {_MAP_HINGED_NEW}\n"
    )
    a = align(edition(old), edition(new))
    assert by_old(a, "300.2a").new_ids == ("300.3a",)
    assert by_new(a, "300.3b").kind == "added"
    assert by_old(a, "300.2").new_ids == ("300.3",)


def test_a_sentence_kept_near_exact_in_place_beats_a_frame_text_match_in_the_corpus() -> None:
    # The rule on a card put onto the battlefield transformed that can't be went into the
    # second sentence of its neighbour; the next new rule (modal double-faced cards) only
    # shares its frame. Its closing remark, said by other old rules too, is no evidence.
    old, new = corpus_edition("2017-04-28"), corpus_edition("2024-09-20")
    assert fuzz.ratio(old.rule("711.8a").text, new.rule("712.14b").text) < 85
    a = aligned("2017-04-28", "2024-09-20")
    assert by_old(a, "711.8a").new_ids == ("712.14a",)
    assert by_new(a, "712.14b").kind == "added"


def test_a_restated_sentence_is_not_refused_by_a_line_drawn() -> None:
    # 2009-07-11 605.5a restates old 406.5's mana-producing triggers as cases that are no
    # mana ability: the line it draws is the restatement, not another topic
    a = aligned("2009-05-01", "2009-07-11")
    m = by_old(a, "406.5")
    assert (m.new_ids, m.method) == (("605.5a",), "sentence")
    assert "not a mana ability" in corpus_edition("2009-07-11").rule("605.5a").text


# --- round 33: a source withheld from a merge goes to the free twin of its rule ----------------

_TWIN_OLD = """
1. Basics

100. General

100.1. A widget game is played by two or more players, each with a widget.

101. Checks

101.1. Whenever a player would act, the game first runs its checks.

101.2. A copied widget outside the arena crumbles away.

2. Copies

200. Copying

200.1. To copy a widget means to build a replica of it bearing the same markings.

200.1a A copied widget outside the arena crumbles away. (This is a check; see rule 101.)
"""

_TWIN_RULE = (
    "If a copied widget is outside the arena, it crumbles away. If a copied marker is "
    "anywhere but the arena or the shelf, it crumbles away."
)

_TWIN_NEW = f"""
1. Basics

100. General

100.1. A widget game is played by two or more players, each with a widget.

101. Checks

101.1. Whenever a player would act, the game first runs its checks.

101.2. {_TWIN_RULE}

2. Copies

200. Copying

200.1. To copy a widget means to build a replica of it bearing the same markings.

200.1a {_TWIN_RULE} These are checks. See rule 101.
"""


def _withheld_placed(old_text: str, new_text: str, *, free: tuple[str, ...] = ()) -> dict:
    """Old 200.1a withheld from new 101.2 (merged there with old 101.2, then undone):
    where :func:`_place_withheld_in_twins` puts it. ``free``: new rules left unpaired."""
    from rulediff.align import _rule_nodes
    from rulediff.pairing import _Pairing
    from rulediff.sentences import _place_withheld_in_twins

    p = _Pairing(_rule_nodes(edition(old_text)), _rule_nodes(edition(new_text)))
    old_at = {n.id: i for i, n in enumerate(p.old)}
    new_at = {n.id: j for j, n in enumerate(p.new)}
    for rule_id, j in new_at.items():
        if rule_id in old_at and rule_id != "200.1a" and rule_id not in free:
            p.pair(old_at[rule_id], j, 90.0, "anchor")
    # first drawn to 101.2, its rival the twin in its own chapter
    if "200.1a" in new_at:
        p.alternatives[old_at["200.1a"]] = (("new", new_at["200.1a"]),)
    _place_withheld_in_twins(p, [(old_at["200.1a"], new_at["101.2"])], {}, {})
    i = old_at["200.1a"]
    return {
        "to": p.new[p.o2n[i]].id if p.o2n[i] >= 0 else None,
        "rivals": p.alternatives.get(i, ()),
    }


def test_a_withheld_source_goes_to_the_free_twin_of_its_rule() -> None:
    placed = _withheld_placed(_TWIN_OLD, _TWIN_NEW)
    # its rivals were the twin it now takes: none left
    assert placed == {"to": "200.1a", "rivals": ()}


def test_a_withheld_source_with_two_free_twins_stays_free() -> None:
    # a third copy of the text, free too: the text does not say which one is its own
    third = f"\n200.2. Replicas of replicas are allowed.\n\n200.2a {_TWIN_RULE} See rule 101.\n"
    assert _withheld_placed(_TWIN_OLD, _TWIN_NEW + third, free=("200.2",))["to"] is None


def test_a_withheld_source_leaves_a_taken_twin_alone() -> None:
    # the new twin already has its counterpart (an old rule of the same number)
    old = _TWIN_OLD + "\n200.2. Replicas are built from spare parts.\n"
    new = _TWIN_NEW.replace("200.1a ", "200.2. ")
    assert _withheld_placed(old, new)["to"] is None


def test_the_copy_rules_reminder_of_a_state_based_action_keeps_its_place_in_the_corpus() -> None:
    # 2003-10-01 says twice that a copy of a spell outside the stack ceases to exist: as a
    # state-based effect (420.5j) and as the copy rules' reminder of it (503.10a); so does
    # 2024-06-07 (704.5e, 707.10a). Both old texts were drawn to 704.5e, the reminder was
    # withheld there for its own words, and was left removed beside its free new twin.
    old, new = corpus_edition("2003-10-01"), corpus_edition("2024-06-07")
    assert fuzz.token_set_ratio(new.rule("704.5e").text, new.rule("707.10a").text) >= 80
    a = aligned("2003-10-01", "2024-06-07")
    assert by_old(a, "503.10a").new_ids == ("707.10a",)
    assert by_old(a, "503.10a").kind == "renumbered-edited"
    assert by_old(a, "420.5j").new_ids == ("704.5e",)
    assert "see rule 420" in old.rule("503.10a").text.lower()


# --- round 34: a text match that is word for word another old rule's sentence gives way -----

_STEP_TRIGGERS_OLD = """
1. Turns

100. General

100.1. {turn}

100.2. {trigger}

100.3. A player who has no widget left skips the move phase.

2. Waiting Effects

200. General

200.1. Some effects of the widget game wait for an event before they happen.

200.2. {wakes} {second} {queue} {keeps}
"""

_STEP_TRIGGERS_NEW = """
1. Turns

100. General

100.1. {turn}

100.2. A player who has no widget left skips the move phase.

100.3. {kept} (See rule 200, "General.")

2. Waiting Effects

200. General

200.1. Some effects of the widget game wait for an event before they happen.

200.2. {wakes}

200.2a {piece}

200.3. {queue}

200.4. A woken effect keeps the text of the effect that made it, and nothing else.
"""

_STEP_TRIGGERS_SENTENCES = {
    "turn": "A turn of the widget game has three phases: the spin, the move and the rest phase.",
    "trigger": (
        'When a phase begins, any waiting effects that wait for "the start of" that phase '
        "are put in the queue."
    ),
    "wakes": "Whenever an event matches a waiting effect's event, that effect wakes up.",
    "queue": "A woken effect is put in the queue by the player who controls its source.",
    "keeps": "It keeps the text of the effect that made it, and nothing else.",
}

#: Old 200.2's second sentence, word for word the whole of new 200.2a.
_PIECE = 'When a phase begins, all waiting effects that wait for "the start of" that phase wake up.'
#: Old 100.2's sentence as new 100.3 keeps it in its own section: nearer to it than 200.2a.
_KEPT = 'When a phase begins, any waiting effects that wait for "the start of" that phase wake up.'


def _step_triggers(second: str = _PIECE, kept: str = _KEPT) -> Alignment:
    old = _STEP_TRIGGERS_OLD.format(second=second, **_STEP_TRIGGERS_SENTENCES)
    new = _STEP_TRIGGERS_NEW.format(kept=kept, piece=_PIECE, **_STEP_TRIGGERS_SENTENCES)
    return align(edition(old), edition(new))


def test_a_near_copy_gives_up_another_rules_sentence_for_its_own_kept_in_place() -> None:
    # Old 100.2 (turn structure) is a near copy of new 200.2a (ratio ~88), which is word
    # for word a piece of old 200.2; its own sentence stands nearer still (~90) in new
    # 100.3, in its own section. Without round 34, 100.2 took 200.2a (and 100.3 as a
    # second piece) and 200.2's split lost that piece.
    a = _step_triggers()
    assert by_old(a, "100.2").new_ids == ("100.3",)
    assert by_old(a, "100.2").kind == "renumbered-edited"
    assert by_old(a, "200.2").kind == "split"
    assert by_old(a, "200.2").new_ids == ("200.2", "200.2a", "200.3", "200.4")


@pytest.mark.parametrize(
    "second, kept",
    [
        # no old rule says 200.2a word for word: its text match keeps it
        ("At the start of a phase, every effect waiting for it wakes up.", _KEPT),
        # the sentence in place is no nearer than the text match
        (_PIECE, "As a phase begins, waiting effects for its start wake up at once."),
    ],
    ids=["no-exact-source", "kept-not-nearer"],
)
def test_a_near_copy_keeps_its_text_match_without_an_exact_source_or_a_nearer_place(
    second: str, kept: str
) -> None:
    assert "200.2a" in by_old(_step_triggers(second, kept), "100.2").new_ids


def test_the_beginning_of_step_triggers_stay_with_the_turn_rules_in_the_corpus() -> None:
    # 2004-10-01 says the beginning-of-step triggers twice: in the turn-structure rules
    # (300.5) and inside the long triggering rule (410.2). 2026-06-19 keeps the first in
    # 500.6 and cuts 410.2 into pieces, one of them (603.2b) its sentence word for word.
    old, new = corpus_edition("2004-10-01"), corpus_edition("2026-06-19")
    piece = comparison_key(new.rule("603.2b").text).lower()
    assert piece in comparison_key(old.rule("410.2").text).lower()
    a = aligned("2004-10-01", "2026-06-19")
    assert by_old(a, "300.5").new_ids == ("500.6",)
    assert {"603.2", "603.2b", "603.3", "603.3a"} <= set(by_old(a, "410.2").new_ids)
    assert by_new(a, "603.2b").old_ids == ("410.2",)


# --- round 35: a rule joins a heading's counterpart only with words the title lacks ---------


@pytest.mark.parametrize(
    "old_date, new_date", [("2004-10-01", "2026-06-19"), ("2005-08-01", "2021-11-19")]
)
def test_the_static_abilities_timestamp_rule_goes_to_the_timestamp_rules(
    old_date: str, new_date: str
) -> None:
    # The old heading on continuous effects from static abilities (418.4) lives on as a
    # one-sentence rule (611.3) saying such effects exist. The old timestamp rule for those
    # effects (418.5f) shares most of its words with that sentence, and was joined to it as
    # a "near copy" of its source; but the source is a heading, and every word of 418.5f,
    # its timestamp too, stands in the free timestamp rule 613.7a (its sibling 418.5g's
    # counterpart 613.7b is the next rule).
    old, new = corpus_edition(old_date), corpus_edition(new_date)
    assert getattr(old.rule("418.4"), "title", None) is not None
    assert "timestamp" in old.rule("418.5f").text.lower()
    assert "timestamp" not in new.rule("611.3").text.lower()
    a = aligned(old_date, new_date)
    assert by_old(a, "418.5f").new_ids == ("613.7a",)
    assert by_old(a, "418.4").new_ids == ("611.3",)
    assert by_old(a, "418.4").kind != "merged"


# --- round 36: two weak text matches between siblings, crossed, are uncrossed by words ------

#: Two sibling rules of an old edition and their two rewrites: the letters of the second
#: old rule fall nearest the first new rule (its opening words), while the words of each
#: old rule are nearest its own rewrite.
_CROSSED_OLD = (
    "A number mark such as {1} stands for a plain token cost that can be paid with one "
    "token of any kind, colored or colorless.",
    "Number marks (such as {1}) and letter marks (such as {X}) sometimes stand for "
    "colorless tokens, when an effect tells a player to add them to a pool.",
)
_CROSSED_NEW = (
    "Number marks (such as {1}) and letter marks (such as {X}) stand for plain tokens in "
    "costs. Plain tokens in costs can be paid with any kind of token.",
    "The colorless mark {C} stands for colorless tokens if an effect tells a player to "
    "add them to a pool, and for a cost paid only with colorless tokens.",
)


def _crossed(olds: tuple[str, str], news: tuple[str, str], *, apart: bool = False) -> dict:
    """Old 100.2 and 100.3 matched crossed to the two new rules (weak fuzzy pairs, as
    best-first matching left them): where :func:`_uncross_weak_pairs` puts them.
    ``apart``: the second new rule is a subrule of the first (100.2a), not its sibling."""
    from rulediff.align import _rule_nodes
    from rulediff.matching import WEAK_FUZZY, _uncross_weak_pairs

    second = "100.2a" if apart else "100.3."

    def body(texts: tuple[str, str], label: str) -> str:
        return (
            "\n1. Tokens\n\n100. Marks\n\n100.1. Marks on a card stand for tokens.\n\n"
            f"100.2. {texts[0]}\n\n{label} {texts[1]}\n"
        )

    p = _Pairing(
        _rule_nodes(edition(body(olds, "100.3."))), _rule_nodes(edition(body(news, second)))
    )
    old_at = {n.id: i for i, n in enumerate(p.old)}
    new_at = {n.id: j for j, n in enumerate(p.new)}
    for rule_id in ("1", "100", "100.1"):
        p.pair(old_at[rule_id], new_at[rule_id], 100.0, "anchor")
    for old_id, new_id in (("100.2", second.rstrip(".")), ("100.3", "100.2")):
        i, j = old_at[old_id], new_at[new_id]
        p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "fuzzy")
    assert all(p.score[old_at[r]] < WEAK_FUZZY for r in ("100.2", "100.3"))
    _uncross_weak_pairs(p)
    return {r: p.new[p.o2n[old_at[r]]].id for r in ("100.2", "100.3")}


def test_two_crossed_weak_matches_between_siblings_are_uncrossed() -> None:
    # best-first matching took the pair whose letters are closest (old 100.3, new 100.2:
    # the same opening words) first; the words of each old rule are its own rewrite's
    assert fuzz.ratio(_CROSSED_OLD[1], _CROSSED_NEW[0]) > fuzz.ratio(
        _CROSSED_OLD[0], _CROSSED_NEW[0]
    )
    assert _crossed(_CROSSED_OLD, _CROSSED_NEW) == {"100.2": "100.2", "100.3": "100.3"}


def test_crossed_weak_matches_stay_when_one_old_rule_prefers_its_own_match() -> None:
    # the second new rule no longer says the colorless tokens' effect: the second old
    # rule's words are nearer the first new rule, as its letters are
    plainer = ("The colorless mark {C} stands for a cost paid only with colorless tokens.",)
    news = (_CROSSED_NEW[0], *plainer)
    assert _crossed(_CROSSED_OLD, news) == {"100.2": "100.3", "100.3": "100.2"}


def test_crossed_weak_matches_under_different_parents_stay() -> None:
    # the second new rule is a subrule of the first: the two matches are not siblings'
    assert _crossed(_CROSSED_OLD, _CROSSED_NEW, apart=True) == {
        "100.2": "100.2a",
        "100.3": "100.2",
    }


@pytest.mark.parametrize(
    "old_date, new_date", [("2006-07-15", "2021-11-19"), ("2008-10-01", "2024-02-02")]
)
def test_the_generic_mana_rule_is_not_crossed_with_the_colorless_symbol_in_the_corpus(
    old_date: str, new_date: str
) -> None:
    # The old rule that numerals are generic mana costs (104.3b) and its sibling that
    # numerals and variables can also stand for colorless mana (104.3d); the later
    # editions open the generic-costs rule (107.4b) with the sibling's subject words, and
    # give 107.4c to the colorless symbol. Best-first text matching had crossed them.
    old, new = corpus_edition(old_date), corpus_edition(new_date)
    assert "generic" in old.rule("104.3b").text.lower()
    assert "generic" in new.rule("107.4b").text.lower()
    assert "generic" not in new.rule("107.4c").text.lower()
    a = aligned(old_date, new_date)
    assert by_old(a, "104.3b").new_ids == ("107.4b",)
    assert by_old(a, "104.3d").new_ids == ("107.4c",)


def test_short_sentence_said_inside_a_free_rule_makes_it_a_source() -> None:
    # Round 39: a new rule taken by one old rule ends on a short sentence that a free old
    # rule says word for word inside a longer sentence; nothing else says it.
    from rulediff.sentences import _follow_kept_clauses_into_taken_rules

    first = "100.1. A widget game is played by two or more players, each with a widget."
    clause = "Every widget has a painted number"
    last = "100.3. The player with the tallest widget chooses who takes the first turn."
    old = BASE.replace(last, f"{last}\n\n100.4. {clause} and is either spinning or still.")
    new = BASE.replace(first, f"{first} {clause}.")

    merges_found = functools.partial(_merges_by_step, _follow_kept_clauses_into_taken_rules)

    assert merges_found(old, new) == {"100.1": ["100.1", "100.4"]}
    # Said again by another new rule, the clause is stock wording: no source.
    rest = "201.1. During the rest step"
    twice = new.replace(rest, f"201.1. {clause}. During the rest step")
    assert merges_found(old, twice) == {}
    # A clause of four words is too short to tell.
    short = "Every widget is numbered"
    old4 = BASE.replace(last, f"{last}\n\n100.4. {short} and is either spinning or still.")
    assert merges_found(old4, BASE.replace(first, f"{first} {short}.")) == {}


def test_permanent_status_rule_joins_the_control_rule_by_its_first_clause() -> None:
    # 214.4 (every permanent has a controller, is tapped or untapped; who controls it by
    # default): the new control rule, taken by the ownership rule 200.6a, ends on the
    # first clause as a sentence of its own, and says the default with 214.4's words.
    a = align(corpus_edition("2004-10-01"), corpus_edition("2026-06-19"))
    m = by_old(a, "214.4")
    assert m.kind == "merged" and m.old_ids == ("200.6a", "214.4") and m.new_ids == ("110.2",)


def test_kept_sentences_pair_a_variant_rule_moved_under_a_shared_option_in_the_corpus() -> None:
    # 2010-06-18 moved the Two-Headed Giant mulligan rule under the new shared team turns
    # option, keeping two of its sentences whole and rewriting the rest after the general
    # multiplayer mulligan rule (taken by its own counterpart, and closer by words): the
    # kept sentences pair it; it is no rule removed whose text lives on.
    a = aligned("2010-04-23", "2010-06-18")
    moved = by_old(a, "806.6a")
    assert (moved.kind, moved.new_ids) == ("renumbered-edited", ("805.3a",))
    assert moved.method == "content"
    assert by_old(a, "103.4c").new_ids == ("103.4c",)  # the general rule keeps its own


def test_one_kept_sentence_pairs_two_rules_it_opens_in_the_corpus() -> None:
    # Round 46: the definition of a permanent opens 214.1 of 2002-02-20 and 110.1 of
    # 2026-01-16 (in play → on the battlefield, a sweep); every other sentence of both was
    # rewritten and the old heading went elsewhere: one sentence, the statement of both,
    # pairs them.
    a = aligned("2002-02-20", "2026-01-16")
    pair = by_old(a, "214.1")
    assert (pair.kind, pair.new_ids, pair.method) == ("renumbered-edited", ("110.1",), "content")


def test_one_kept_sentence_pairs_free_rules_only_when_it_opens_both() -> None:
    # A toy: an old rule and a new rule in other chapters share one sentence word for word
    # and nothing else of note (too little for the text matching). Opening both, it is
    # their statement and pairs them; closing the old rule, it does not.
    from rulediff.align import _rule_nodes
    from rulediff.matching import _match_rules
    from rulediff.pairing import _Pairing
    from rulediff.sentences import _pair_by_kept_sentences, _Provenance

    kept = "Each token in a pile counts once toward the total of that pile."
    old_rest = (
        "Spilled counters go back to the bag at once, returned by whoever spilled them, "
        "before anything else happens. A counter that rolls off the table is lost for good, "
        "and nobody may pick it up until the game has been won."
    )
    new_rest = (
        "Ties between equal heights are broken by a coin toss, called aloud by the youngest "
        "person seated at the table. The winner of that toss moves first; the loser "
        "shuffles the deck of event cards twice."
    )
    last = "100.3. The player with the tallest widget chooses who takes the first turn."
    new = BASE.replace(
        "201.2. The rest step ends", f"201.3. {kept} {new_rest}\n\n201.2. The rest step ends"
    )

    def step(old_rule: str) -> tuple[bool, str | None]:
        """Whether old 100.4 is free after the text matching, and what the step pairs it
        with."""
        old = BASE.replace(last, f"{last}\n\n100.4. {old_rule}")
        p = _Pairing(_rule_nodes(edition(old)), _rule_nodes(edition(new)))
        _match_rules(p)
        i = next(k for k, node in enumerate(p.old) if node.id == "100.4")
        free = p.o2n[i] < 0
        _pair_by_kept_sentences(p, _Provenance(p, ()), {}, {})
        return free, p.new[p.o2n[i]].id if p.o2n[i] >= 0 else None

    assert step(f"{kept} {old_rest}") == (True, "201.3")
    assert step(f"{old_rest} {kept}") == (True, None)


def test_a_statement_said_twice_keeps_both_sources_of_a_merge_in_the_corpus() -> None:
    # 2023-02-03 said the meld card's faces twice: in the double-faced cards' list
    # (712.1g) and under meld cards (713.1, whose second sentence, on the card back, went
    # into 712.1). 2023-04-14 keeps the statement once (712.4): both are its sources,
    # though 713.1's own words (the card back) are not in 712.4. A parallel rule of
    # another subject is still no source (test above).
    old = corpus_edition("2023-02-03")
    first, second = (old.rule(r).text.lower() for r in ("712.1g", "713.1"))
    assert "back" in second and "back" not in first
    a = aligned("2023-02-03", "2023-04-14")
    merged = by_new(a, "712.4")
    assert (merged.kind, merged.old_ids) == ("merged", ("712.1g", "713.1"))
