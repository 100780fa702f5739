"""An old rule's statement, said after its lead-in, opening the new rules it was cut into."""

from __future__ import annotations

import pytest

from rulediff.align import align

from .conftest import corpus_edition
from .test_align import BASE, _merges_made_by, by_old, matched_pairing

# The old edition states once, in a section of its own, how a spin is checked.
OLD_SECTION = (
    "\n3. Spinning\n\n300. Spinning Widgets\n\n300.1. Some widgets spin faster than others.\n"
    "\n301. Legal Spins\n\n301.1. Some effects limit spinning and some demand it.\n"
    "\n301.2. As part of spinning, the active player checks each widget he or she controls "
    "to see whether it must spin, can't spin, or is touched by some other limit or demand. "
    "If a limit or demand is not met by the proposed spin, that spin can't happen, and its "
    "player names another set of spinning widgets. (Widgets that are asleep are exempt "
    "from every demand to spin.)\n"
)
# The new edition checks limits and demands as two parts of the spin rule itself.
LIMITS = (
    "The active player checks each widget he or she controls to see whether it's touched "
    "by any limits (effects that say a widget can't spin). If any limit is broken, the "
    "spin is illegal."
)
DEMANDS = (
    "The active player checks each widget he or she controls to see whether it's touched "
    "by any demands (effects that say a widget spins if able). If fewer demands are obeyed "
    "than could be, the spin is illegal."
)
NEW_SECTION = (
    "\n3. Spinning\n\n300. Spinning Widgets\n\n300.1. Some widgets spin faster than others.\n"
    "\n300.2. To spin, the active player chooses which widgets spin.\n"
    f"\n300.2a {LIMITS}\n\n300.2b {DEMANDS}\n"
)


def _opening_run_links(
    old: str, new: str, taken: tuple[str, str] | None = None
) -> dict[str, list[str]]:
    """What :func:`rulediff.sentences._pair_by_opening_run` does by itself once rules and
    headings are matched: old id → the new ids it was paired with or split into."""
    from rulediff.sentences import _pair_by_opening_run

    p = matched_pairing(old, new, taken)  # taken: a link made before, by another pass
    before = {i for i, j in enumerate(p.o2n) if j >= 0}
    splits: dict[int, list[int]] = {}
    _pair_by_opening_run(p, splits, {})
    out = {p.old[i].id: [p.new[x].id for x in group] for i, group in splits.items()}
    for i, j in enumerate(p.o2n):
        if j >= 0 and i not in before:
            out[p.old[i].id] = [p.new[j].id]
    return out


def test_a_statement_after_its_lead_in_goes_to_the_rules_opening_on_it() -> None:
    old, new = BASE + OLD_SECTION, BASE + NEW_SECTION
    assert _opening_run_links(old, new) == {"301.2": ["300.2a", "300.2b"]}
    # one piece taken before: by one of the old rule's own subrules, the rule goes to
    # the other; by any other rule, nothing is decided
    subrule = OLD_SECTION + "\n301.2a A sleeping widget is exempt from every demand.\n"
    assert _opening_run_links(BASE + subrule, new, ("301.2a", "300.2b")) == {"301.2": ["300.2a"]}
    assert _opening_run_links(BASE + subrule, new, ("301.1", "300.2b")) == {}


def test_a_run_said_by_another_old_rule_or_inside_a_new_rule_decides_nothing() -> None:
    # another old rule says the run as well: a frame of the old edition, no statement
    twice = OLD_SECTION + (
        "\n301.3. Between turns, the active player checks each widget he or she controls "
        "for dust.\n"
    )
    assert _opening_run_links(BASE + twice, BASE + NEW_SECTION) == {}
    # a new rule says it inside its text: not only the opening of the pieces
    inside = NEW_SECTION + (
        "\n300.3. Once a turn, the active player checks each widget he or she controls for dust.\n"
    )
    assert _opening_run_links(BASE + OLD_SECTION, BASE + inside) == {}


def test_an_old_rule_opening_on_the_run_is_left_to_the_shared_opening_pass() -> None:
    # without its lead-in the old rule opens on the run: the two openings are asked
    # what tells them from the openings other rules share (round 51), not here
    bare = OLD_SECTION.replace("As part of spinning, the", "The")
    assert _opening_run_links(BASE + bare, BASE + NEW_SECTION) == {}


def test_the_legal_attacks_and_blocks_rules_go_to_the_checks_of_the_two_steps() -> None:
    # Before 2009 a section of its own said how attacks and blocks are checked, once for
    # attackers and once for blockers, each after a lead-in ("As part of declaring …,").
    # Later editions open two subrules of each step's declaration rule on that statement
    # (restrictions, then requirements). The blockers' restriction subrule is taken by
    # the old evasion-ability subrule (its text says evasion abilities now).
    from rulediff.textkeys import letter_words

    old, new = corpus_edition("2007-05-01"), corpus_edition("2020-01-24")

    def words(text: str) -> tuple[str, ...]:
        swept = text.lower().replace("he or she controls", "they control")
        return letter_words(swept)

    for old_id, pieces in (("500.2", ("508.1c", "508.1d")), ("500.3", ("509.1b", "509.1c"))):
        said = [words(new.rule(k).text)[:9] for k in pieces]
        assert said[0] == said[1]
        old_words = words(old.rule(old_id).text)
        assert old_words[:9] != said[0]
        assert any(old_words[k : k + 9] == said[0] for k in range(1, len(old_words)))
    a = align(old, new)
    assert set(by_old(a, "500.2").new_ids) == {"508.1c", "508.1d"}
    assert by_old(a, "500.3").new_ids == ("509.1c",)
    assert by_old(a, "500.3a").new_ids == ("509.1b",)


@pytest.mark.parametrize(
    ("old", "new", "rule", "counterparts", "run_from"),
    [
        # the mana value of a split card off the stack: once a subrule of the split card
        # rules (a spell or ability using that value), now the mana value rule's own
        # subrule, opening on that case
        ("2015-03-27", "2025-11-14", "708.5a", {"202.3d"}, "202.3d"),
        # an object changing zones is a new object, with its exceptions in one rule: the
        # trigger exception opens a subrule of its own, and the statement the rule
        # (found by its opening once the subrule placed the old rule: round 50)
        ("2008-10-01", "2024-09-20", "217.1c", {"400.7", "400.7e"}, "400.7e"),
    ],
)
def test_corpus_rules_whose_run_opens_their_new_rule(
    old: str, new: str, rule: str, counterparts: set[str], run_from: str
) -> None:
    from rulediff.textkeys import letter_words

    a = align(corpus_edition(old), corpus_edition(new))
    new_rule = corpus_edition(new).rule(run_from)  # the new rule opening on the run
    swept = corpus_edition(old).rule(rule).text.lower().replace("converted mana cost", "mana value")
    old_words = letter_words(swept)
    said = letter_words(new_rule.text.lower())[:9]
    assert old_words[:9] != said  # the old rule opens otherwise …
    assert any(old_words[k : k + 9] == said for k in range(1, len(old_words)))  # … and says it
    assert set(by_old(a, rule).new_ids) == counterparts


# Two subrules of one rule opening alike: what a wound still does, and when it fails.
WOUND_STAYS = (
    "A slow wound that points to a particular widget still slows it even if the widget "
    "changes colour."
)
WOUND_FAILS = (
    "A slow wound that points to a particular widget ends if the widget leaves the shelf, "
    "even if it comes back before the wound would tick."
)
WOUND_NEW = (
    "A slow wound that points to a particular widget still slows it even if the widget "
    "changes colour. But if the widget is no longer on the shelf when the wound ticks, "
    "the wound does nothing to it."
)


def _wounds(*subrules: str) -> str:
    rules = "".join(f"\n300.2{'abc'[k]} {text}\n" for k, text in enumerate(subrules))
    return (
        BASE + "\n3. Spinning\n\n300. Spinning Widgets\n\n300.1. Some widgets spin faster."
        "\n\n300.2. Wounds slow widgets down.\n" + rules
    )


def _merges(old: str, new: str) -> dict[str, list[str]]:
    """What :func:`rulediff.sentences._join_sibling_opening_on_one_run` does by itself once
    the rules are matched: new id → its old sources."""
    from rulediff.sentences import _join_sibling_opening_on_one_run

    return _merges_made_by(_join_sibling_opening_on_one_run, old, new)


def test_a_sibling_opening_on_the_same_run_joins_its_siblings_counterpart() -> None:
    old, new = _wounds(WOUND_STAYS, WOUND_FAILS), _wounds(WOUND_NEW)
    assert _merges(old, new) == {"300.2a": ["300.2a", "300.2b"]}
    # the new rule says nothing of the second case beyond the first: no merge
    assert _merges(old, _wounds(WOUND_STAYS + " It slows it twice if it is red.")) == {}
    # a third old rule opens on the run too: the run is a frame, it decides nothing
    third = "A slow wound that points to a particular widget can be healed by its owner."
    assert _merges(_wounds(WOUND_STAYS, WOUND_FAILS, third), new) == {}


def test_the_delayed_trigger_subrules_merged_into_one() -> None:
    # 2003-10-01: one subrule says what a delayed triggered ability referring to a
    # particular object still does, the next when it fails; 2024-06-07 says both in one
    # subrule, opening on their shared words.
    from rulediff.textkeys import letter_words

    old, new = corpus_edition("2003-10-01"), corpus_edition("2024-06-07")
    opening = [letter_words(old.rule(r).text.lower())[:9] for r in ("404.4c", "404.4d")]
    assert opening[0] == opening[1] == letter_words(new.rule("603.7c").text.lower())[:9]
    m = align(old, new).match_for_new("603.7c")
    assert m is not None and m.kind == "merged" and set(m.old_ids) == {"404.4c", "404.4d"}, m
