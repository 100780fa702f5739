"""Flags on the real corpus: every edition decided (or undetermined with a reason), the
transitions verified by reading the rules on both sides, and held-out editions parsed
as plain files.

The expected transitions below were checked by reading, in the editions on both sides
of each change, the rules the detectors cite (e.g. 300.3 vs 500.4 for mana burn, 420.5e
vs 704.5k/704.5j for the legend rule, 103.4 for the mulligan, 418.5a/613.x for the
power/toughness switch). They are facts about these texts, not about dates.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from rulediff.corpus import Corpus
from rulediff.flags import REGISTRY, FlagSet, flags_for
from rulediff.flags.timeline import changes, corpus_timeline
from rulediff.parse import parse_file, parse_text

#: The value an era starts with when the era reaches back to the oldest edition present:
#: these tests pin when a value changed, never which file happens to come first.
START = "oldest edition"

#: flag -> [(effective date where the value first appears, value)], oldest first.
EXPECTED: dict[str, list[tuple[str, object]]] = {
    "mana_burn": [(START, True), ("2009-07-11", False)],
    "mana_empties": [(START, "phase"), ("2009-07-11", "step")],
    "combat_damage_uses_stack": [(START, True), ("2009-07-11", False)],
    "damage_assignment_order": [(START, False), ("2009-07-11", True), ("2024-11-08", False)],
    "legend_rule": [
        (START, "oldest-stays"),
        ("2004-10-01", "all-die"),
        ("2013-07-13", "controller-chooses"),
    ],
    "planeswalker_uniqueness": [
        (START, "absent"),
        ("2007-10-01", "all-die"),
        ("2013-07-13", "controller-chooses"),
        ("2018-01-19", "absent"),
    ],
    "planeswalker_damage_redirection": [
        (START, False),
        ("2007-10-01", True),
        ("2018-04-27", False),
    ],
    "mulligan": [(START, "paris"), ("2015-09-26", "vancouver"), ("2019-08-23", "london")],
    "pt_switch_sublayer": [
        (START, "timestamp"),
        ("2005-10-01", "6e"),
        ("2009-07-11", "7e"),
        ("2020-04-17", "7d"),
    ],
    "deathtouch": [(START, "absent"), ("2007-05-01", "triggered"), ("2009-07-11", "static")],
    "lifelink": [(START, "absent"), ("2007-05-01", "triggered"), ("2009-07-11", "static")],
    "x_in_alternative_and_additional_costs": [
        (START, None),
        ("2009-07-11", False),
        ("2015-03-27", True),
    ],
    "cleanup_repeats_after_end_turn": [(START, None), ("2004-10-01", False), ("2015-03-27", True)],
    "mana_value_term": [(START, "converted mana cost"), ("2021-04-22", "mana value")],
    "commander_zone_change": [
        (START, "absent"),
        ("2009-10-01", "replacement"),
        ("2020-07-03", "state-based-action"),
    ],
    "exile_zone_name": [(START, "removed-from-game"), ("2009-07-11", "exile")],
    "battlefield_term": [(START, "in play"), ("2009-07-11", "battlefield")],
    "sideboard_up_to_15": [(START, None), ("2009-07-11", False), ("2013-07-13", True)],
    "starting_life": [(START, 20)],
    "max_hand_size": [(START, 7)],
    "poison_threshold": [(START, 10)],
    "starting_hand_size": [(START, 7)],
    "state_based_term": [(START, "state-based effects"), ("2009-07-11", "state-based actions")],
    "spell_verb": [(START, "play"), ("2009-07-11", "cast")],
    "kindred_type_name": [(START, "absent"), ("2007-05-01", "tribal"), ("2024-06-07", "kindred")],
    "counter_annihilation": [(START, False), ("2006-10-01", True)],
}

#: The only undetermined flags in the corpus, and why: the text has no rule to read.
UNDETERMINED_OK = {
    "x_in_alternative_and_additional_costs": "no rule says what X equals",
    "cleanup_repeats_after_end_turn": "no rule describes an effect ending the turn",
    "sideboard_up_to_15": "no rule states the size of a sideboard",
    "ability_words": "lists no ability words",
}


@pytest.fixture(scope="module")
def first(oldest_date: str) -> str:
    return oldest_date


def _dated(name: str, first: str) -> list[tuple[str, object]]:
    return [(first if date == START else date, value) for date, value in EXPECTED[name]]


@pytest.fixture(scope="module")
def sets(corpus_dir: Path) -> list[FlagSet]:
    return corpus_timeline(Corpus.open(corpus_dir))


@pytest.fixture(scope="module")
def by_date(sets: list[FlagSet]) -> dict[str, FlagSet]:
    return {fs.effective_date.isoformat(): fs for fs in sets}


def test_the_timeline_covers_every_edition(sets, corpus_dir, first):
    assert len(sets) == len(list(corpus_dir.glob("*.txt"))) >= 100
    dates = [fs.effective_date for fs in sets]
    assert dates == sorted(dates) and dates[0].isoformat() == first


def test_every_flag_is_decided_or_undetermined_with_a_known_reason(sets):
    for fs in sets:
        for name, reason in fs.undetermined.items():
            assert name in UNDETERMINED_OK, (fs.effective_date, name, reason)
            assert UNDETERMINED_OK[name] in reason
        for name in REGISTRY:
            if getattr(fs, name) is not None:
                rules, evidence = fs.provenance(name)
                assert evidence, (fs.effective_date, name)


@pytest.mark.parametrize("name", sorted(EXPECTED))
def test_transitions_match_the_text(sets, first, name):
    got = [(c.date, c.after) for c in changes(sets)[name]]
    assert got == _dated(name, first)


def test_expected_covers_every_scalar_flag():
    lists = {n for n, s in REGISTRY.items() if s.type == "list"}
    assert set(EXPECTED) | lists == set(REGISTRY)


def test_transitions_cite_the_rules_that_changed(sets, first):
    ch = {name: {c.date: c for c in items} for name, items in changes(sets).items()}
    assert "loses 1 life" in ch["mana_burn"][first].evidence
    assert ch["mana_burn"]["2009-07-11"].rules[0] == "106.4"
    assert "doesn't use the stack" in ch["combat_damage_uses_stack"]["2009-07-11"].evidence
    assert "chooses one of them" in ch["legend_rule"]["2013-07-13"].evidence
    assert ch["legend_rule"]["2004-10-01"].rules == ("420.5e",)
    assert "Previously" in ch["planeswalker_uniqueness"]["2018-01-19"].evidence
    assert "look at the top card" in ch["mulligan"]["2015-09-26"].evidence
    assert "bottom of their library" in ch["mulligan"]["2019-08-23"].evidence
    assert ch["pt_switch_sublayer"]["2020-04-17"].evidence.startswith("Layer 7d")
    assert ch["commander_zone_change"]["2009-10-01"].evidence.startswith("If a general")


def test_list_flags(by_date, sets):
    assert by_date["2007-09-07"].planeswalker_types == ()
    assert by_date["2007-10-01"].planeswalker_types == (
        "Ajani",
        "Chandra",
        "Garruk",
        "Jace",
        "Liliana",
    )
    assert {"Nissa", "Sorin"} <= set(by_date["2009-10-01"].planeswalker_types)
    assert "Nissa" not in by_date["2009-09-04"].planeswalker_types
    assert by_date["2008-05-01"].ability_words == (
        "channel",
        "grandeur",
        "hellbent",
        "kinship",
        "radiance",
        "sweep",
        "threshold",
    )
    assert "council's dilemma" in by_date["2019-01-25"].ability_words  # straight apostrophe
    assert "council's dilemma" in by_date["2020-01-24"].ability_words  # from a curly one
    latest = sets[-1]
    assert len(latest.planeswalker_types) > 70 and len(latest.ability_words) > 50
    for older, newer in zip(sets, sets[1:], strict=False):  # these lists only ever grew
        for name in ("planeswalker_types", "ability_words"):
            a, b = getattr(older, name), getattr(newer, name)
            if a is not None and b is not None:
                assert set(a) <= set(b), (newer.effective_date, name)


# --- held-out editions: parsed as plain files, never through the corpus -----------------
HELD_OUT = {
    "2009-07-11": {
        "mana_burn": False,
        "combat_damage_uses_stack": False,
        "damage_assignment_order": True,
        "legend_rule": "all-die",
        "exile_zone_name": "exile",
        "deathtouch": "static",
    },
    "2016-08-26": {
        "mulligan": "vancouver",
        "legend_rule": "controller-chooses",  # UTF-16 file
        "planeswalker_uniqueness": "controller-chooses",
        "pt_switch_sublayer": "7e",
    },
    "2024-11-08": {
        "damage_assignment_order": False,
        "mulligan": "london",
        "mana_value_term": "mana value",
        "kindred_type_name": "kindred",
        "commander_zone_change": "state-based-action",
    },
}


@pytest.mark.parametrize("date", sorted(HELD_OUT))
def test_held_out_edition_file(corpus_dir, date):
    fs = flags_for(parse_file(corpus_dir / f"{date}.txt"))
    for name, value in HELD_OUT[date].items():
        assert getattr(fs, name) == value, (name, fs.outcome(name))


def test_an_unseen_edition_with_changed_rules(corpus_dir):
    """A 'future' edition: the newest text, re-dated, with two rules rewritten.

    The rules to rewrite are read from the corpus (704.5j, the legend rule, and 103.4, the
    starting life total, of the 2026-06-19 edition); the new wording is ours. The flags
    follow the rewritten sentences, whatever the date says.
    """
    edition = parse_file(corpus_dir / "2026-06-19.txt")
    text = edition.to_text()
    text = text.replace("effective as of", "effective as of March 3, 2031. Formerly", 1)
    legend = edition.rule("704.5j")
    life = edition.rule("103.4")
    assert legend is not None and life is not None
    assert legend.body in text and life.body in text
    text = text.replace(legend.body, "If one player controls several legendary permanents with "
                                     "the same name, all of them are put into their owners' "
                                     "graveyards.")
    text = text.replace(life.body, "At the start, every player sets their life total to 25.")
    fs = flags_for(parse_text(text))
    assert fs.legend_rule == "all-die"
    assert fs.starting_life == 25
    assert fs.provenance("starting_life")[0][0] == "103.4"
    assert fs.mulligan == "london" and fs.mana_burn is False


def test_held_out_file_matches_the_corpus_timeline(corpus_dir, by_date):
    fs = flags_for(parse_file(corpus_dir / "2013-07-13.txt"))
    assert fs.values() == by_date["2013-07-13"].values()
