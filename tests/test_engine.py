"""The engine kernel under hand-built flag sets (no corpus needed).

Each procedure is checked for every value of the flag it reads; the scenarios are
checked for every combination of the flags they read against their own expectations.
"""

from __future__ import annotations

import datetime as dt
import itertools
from dataclasses import replace
from pathlib import Path

import pytest

from rulediff.engine import (
    Scenario,
    load_scenario,
    open_scenario,
    run,
    scenario_names,
)
from rulediff.engine.cite import CONCEPTS, FLAG_CONCEPTS, Citations, citations
from rulediff.engine.scenario import scenario_from_mapping
from rulediff.engine.state import UndeterminedFlag
from rulediff.errors import EngineError, ScenarioError
from rulediff.flags import REGISTRY, FlagSet, flags_for

from .flags_helpers import synthetic_edition

#: A modern rule set, written by hand (what an engine author would declare).
MODERN = dict(
    mana_burn=False, mana_empties="step", combat_damage_uses_stack=False,
    damage_assignment_order=False, legend_rule="controller-chooses",
    planeswalker_uniqueness="absent", planeswalker_damage_redirection=False, mulligan="london",
    pt_switch_sublayer="7d", deathtouch="static", lifelink="static",
    cleanup_repeats_after_end_turn=True, starting_life=20, max_hand_size=7,
    poison_threshold=10, counter_annihilation=True,
)
#: An "Old School" rule set: mana burn, damage on the stack, the oldest legend stays.
OLD_SCHOOL = dict(
    MODERN, mana_burn=True, mana_empties="phase", combat_damage_uses_stack=True,
    legend_rule="oldest-stays", mulligan="paris", pt_switch_sublayer="timestamp",
    deathtouch="absent", lifelink="absent", cleanup_repeats_after_end_turn=False,
    counter_annihilation=False,
)


def flags(**overrides: object) -> FlagSet:
    return FlagSet.from_mapping({**MODERN, **overrides})


def play(name: str, **overrides: object) -> str:
    return run(open_scenario(name), flags(**overrides)).result


# --- the scenario files -------------------------------------------------------------------
NAMED = ["pt-switch-then-pump", "pt-switch-then-end-pump", "pt-double-switch",
         "legend-same-controller", "legend-two-controllers", "planeswalker-same-type",
         "mana-burn", "mana-across-steps", "mulligan-once", "damage-order"]


def test_at_least_25_scenarios_including_the_named_ten() -> None:
    names = scenario_names()
    assert len(names) >= 25
    assert set(NAMED) <= set(names)


def _values(name: str) -> list[object]:
    spec = REGISTRY[name]
    if spec.type == "bool":
        return [False, True]
    if spec.type == "enum":
        return list(spec.allowed)
    return [MODERN[name]]


@pytest.mark.parametrize("name", scenario_names())
def test_every_flag_combination_gives_the_expected_result(name: str) -> None:
    """Every value of every flag the scenario reads, in every combination, is expected
    by the scenario file and gives that result (including combinations no edition had)."""
    scenario = open_scenario(name)
    read = sorted(run(scenario, flags()).flags)
    assert scenario.expect, f"{name} states no expected results"
    tried = 0
    for combo in itertools.product(*(_values(f) for f in read)):
        overrides = dict(zip(read, combo, strict=True))
        fs = flags(**overrides)
        expected = scenario.expected(fs)
        assert expected is not None, f"{name}: no expectation for {overrides}"
        got = run(scenario, fs)
        # A combination can make the scenario read further flags; they are in MODERN.
        assert got.result == expected.result, f"{name} under {overrides}"
        tried += 1
    assert tried >= 1


def test_results_of_the_named_scenarios_under_two_hand_written_rule_sets() -> None:
    old = FlagSet.from_mapping(OLD_SCHOOL)
    results = {n: run(open_scenario(n), old).result for n in NAMED}
    assert results == {
        "pt-switch-then-pump": "9/1", "pt-switch-then-end-pump": "3/1",
        "pt-double-switch": "1/4", "legend-same-controller": "isamaru-1",
        "legend-two-controllers": "isamaru-1",
        "planeswalker-same-type": "jace-beleren,jace-the-mind-sculptor",
        "mana-burn": "life=17", "mana-across-steps": "spent",
        "mulligan-once": "hand=6,scry=no,bottom=0", "damage-order": "legal",
    }
    modern = {n: run(open_scenario(n), flags()).result for n in NAMED}
    assert modern["pt-switch-then-pump"] == "4/6"
    assert modern["legend-same-controller"] == "isamaru-2"
    assert modern["legend-two-controllers"] == "isamaru-1,isamaru-2"
    assert modern["mulligan-once"] == "hand=6,scry=no,bottom=1"
    assert modern["mana-across-steps"] == "lost"


# --- procedures, flag by flag ---------------------------------------------------------------
@pytest.mark.parametrize("scheme,expected", [
    ("timestamp", "0/1"), ("6e", "1/4"), ("7e", "5/8"), ("7d", "5/8")])
def test_gray_ogre_in_each_sublayer_scheme(scheme: str, expected: str) -> None:
    # The layer rules' own example: 1/4 with 6a-6e sublayers, 5/8 with 7a-7e.
    assert play("pt-gray-ogre", pt_switch_sublayer=scheme) == expected


@pytest.mark.parametrize("variant,same,two,tie", [
    ("oldest-stays", "isamaru-1", "isamaru-1", ""),
    ("all-die", "", "", ""),
    ("controller-chooses", "isamaru-2", "isamaru-1,isamaru-2", "isamaru-2"),
])
def test_legend_rule_variants(variant: str, same: str, two: str, tie: str) -> None:
    assert play("legend-same-controller", legend_rule=variant) == same
    assert play("legend-two-controllers", legend_rule=variant) == two
    assert play("legend-simultaneous", legend_rule=variant) == tie


def test_planeswalker_uniqueness_ignores_different_types() -> None:
    scenario = open_scenario("planeswalker-same-type")
    data = {"result": "{battlefield}", "players": [{"id": "alice"}],
            "permanents": [
                {"id": "jace", "types": ["planeswalker"], "subtypes": ["Jace"], "loyalty": 3},
                {"id": "chandra", "types": ["planeswalker"], "subtypes": ["Chandra"],
                 "loyalty": 3}]}
    other = scenario_from_mapping(data, name="two-types")
    for variant in ("all-die", "controller-chooses"):
        assert run(other, flags(planeswalker_uniqueness=variant)).result == "chandra,jace"
        assert run(scenario, flags(planeswalker_uniqueness=variant)).result != (
            "jace-beleren,jace-the-mind-sculptor")


def test_poison_threshold_comes_from_the_flags() -> None:
    assert play("poison-threshold", poison_threshold=10) == "alice=lost"
    assert play("poison-threshold", poison_threshold=15) == "alice=alive"


def test_max_hand_size_and_starting_life_come_from_the_flags() -> None:
    assert play("cleanup-discard", max_hand_size=5) == "hand=5"
    assert play("starting-life", starting_life=30) == "alice=30,bob=30"


def test_mana_burn_only_when_mana_is_lost() -> None:
    assert play("mana-upkeep-at-draw", mana_empties="phase", mana_burn=True) == (
        "life=20,pool=1")
    assert play("mana-upkeep-at-draw", mana_empties="step", mana_burn=True) == (
        "life=19,pool=0")


def test_combat_damage_on_the_stack_lets_a_sacrificed_blocker_deal_damage() -> None:
    assert play("combat-damage-stack-sacrifice", combat_damage_uses_stack=True) == (
        "attacker=graveyard")
    assert play("combat-damage-stack-sacrifice", combat_damage_uses_stack=False) == (
        "attacker=battlefield")


def test_deathtouch_and_lifelink_modes() -> None:
    assert [play("deathtouch-kills", deathtouch=m) for m in ("absent", "triggered", "static")] \
        == ["attacker=battlefield", "attacker=graveyard", "attacker=graveyard"]
    assert [play("deathtouch-stifled", deathtouch=m) for m in ("triggered", "static")] \
        == ["attacker=battlefield", "attacker=graveyard"]
    assert [play("lifelink-race", lifelink=m) for m in ("absent", "triggered", "static")] \
        == ["alice=lost", "alice=lost", "alice=alive"]


def test_static_deathtouch_makes_one_damage_lethal_for_the_assignment_order() -> None:
    data = {
        "start": "declare-attackers", "result": "{note:assignment}",
        "players": [{"id": "alice"}, {"id": "bob"}],
        "permanents": [
            {"id": "a", "types": ["creature"], "power": 2, "toughness": 2,
             "keywords": ["deathtouch"], "controller": "alice"},
            {"id": "b1", "types": ["creature"], "power": 3, "toughness": 3, "controller": "bob"},
            {"id": "b2", "types": ["creature"], "power": 3, "toughness": 3, "controller": "bob"}],
        "actions": [
            {"do": "attack", "attackers": ["a"], "defender": "bob"},
            {"do": "goto", "to": "declare-blockers"},
            {"do": "block", "blocks": {"b1": "a", "b2": "a"}},
            {"do": "order-blockers", "attacker": "a", "order": ["b1", "b2"]},
            {"do": "assign", "attacker": "a", "damage": {"b1": 1, "b2": 1}}],
    }
    sc = scenario_from_mapping(data, name="deathtouch-order")
    assert run(sc, flags(damage_assignment_order=True, deathtouch="static")).result == "legal"
    assert run(sc, flags(damage_assignment_order=True, deathtouch="triggered")).result == (
        "illegal")


def test_assignments_must_use_all_damage_on_legal_recipients() -> None:
    base = {
        "start": "declare-attackers", "result": "{note:one};{note:two};{note:three}",
        "players": [{"id": "alice"}, {"id": "bob"}],
        "permanents": [
            {"id": "a", "types": ["creature"], "power": 3, "toughness": 3, "controller": "alice"},
            {"id": "u", "types": ["creature"], "power": 2, "toughness": 2, "controller": "alice"},
            {"id": "b", "types": ["creature"], "power": 1, "toughness": 1, "controller": "bob"}],
        "actions": [
            {"do": "attack", "attackers": ["a", "u"], "defender": "bob"},
            {"do": "goto", "to": "declare-blockers"},
            {"do": "block", "blocks": {"b": "a"}},
            {"do": "assign", "attacker": "a", "damage": {"b": 2}, "note": "one"},
            {"do": "assign", "attacker": "a", "damage": {"b": 1, "bob": 2}, "note": "two"},
            {"do": "assign", "attacker": "u", "damage": {"bob": 2}, "note": "three"}],
    }
    sc = scenario_from_mapping(base, name="assignments")
    for order in (False, True):
        got = run(sc, flags(damage_assignment_order=order)).result
        assert got == "illegal;illegal;legal"  # all 3 damage; no trample; unblocked is fine


def test_redirection_and_zero_loyalty() -> None:
    assert play("planeswalker-redirect", planeswalker_damage_redirection=True) == (
        "bob=20,jace=1")
    assert play("planeswalker-redirect-lethal", planeswalker_damage_redirection=True) == (
        "bob=20,jace=graveyard")
    assert play("planeswalker-redirect", planeswalker_damage_redirection=False) == (
        "bob=18,jace=3")


def test_cleanup_repeats_after_the_turn_is_ended() -> None:
    assert play("cleanup-end-turn", cleanup_repeats_after_end_turn=True) == "hand=7,cleanups=2"
    assert play("cleanup-end-turn", cleanup_repeats_after_end_turn=False) == "hand=9,cleanups=1"


def test_counter_annihilation() -> None:
    assert play("counters-annihilate", counter_annihilation=True) == "counters=+1/+1:1,pt=3/3"
    assert play("counters-annihilate", counter_annihilation=False) == (
        "counters=+1/+1:2,-1/-1:1,pt=3/3")


def test_mulligans() -> None:
    assert play("mulligan-twice", mulligan="paris") == "hand=5,scry=no,bottom=0"
    assert play("mulligan-twice", mulligan="vancouver") == "hand=5,scry=yes,bottom=0"
    assert play("mulligan-twice", mulligan="london") == "hand=5,scry=no,bottom=2"


# --- flags only, never dates ------------------------------------------------------------------
@pytest.mark.parametrize("name", scenario_names())
def test_the_effective_date_never_matters(name: str) -> None:
    scenario = open_scenario(name)
    base = flags()
    early = replace(base, effective_date=dt.date(1993, 8, 5))
    late = replace(base, effective_date=dt.date(2099, 1, 1))
    assert run(scenario, early).result == run(scenario, late).result == run(scenario, base).result


def test_an_undetermined_flag_stops_the_run_naming_the_flag() -> None:
    fs = FlagSet.from_mapping({k: v for k, v in MODERN.items() if k != "mana_burn"})
    with pytest.raises(UndeterminedFlag) as info:
        run(open_scenario("mana-burn"), fs)
    assert info.value.flag == "mana_burn"
    assert "mana-burn.toml" in str(info.value)
    # A scenario that never looks at mana burn runs fine without it.
    assert run(open_scenario("pt-double-switch"), fs).result == "1/4"


def test_any_object_with_the_flag_attributes_will_do() -> None:
    from types import SimpleNamespace

    assert run(open_scenario("mana-burn"), SimpleNamespace(**OLD_SCHOOL)).result == "life=17"


# --- the log ----------------------------------------------------------------------------------
def test_log_cites_rules_found_by_their_text_not_their_number() -> None:
    # A made-up edition numbers the rules its own way; the citations follow the text: a
    # flag's concept cites the rules the flag was read from (its provenance).
    edition = synthetic_edition({
        "500.1": "At the end of a phase (but not a step), unused mana in a pool is lost; its "
                 "player loses one life for each mana lost in this way.",
        "799.9a": "Whenever the battlefield holds several legendary permanents with the same "
                  "name, all are put into their owners' graveyards.",
        "799.9": "The state-based actions are as follows:",
    })
    cite = citations(edition)
    fs = flags_for(edition)
    assert cite("mana-burn") == fs.provenance("mana_burn")[0] == ("500.1",)
    assert cite("legend-rule") == fs.provenance("legend_rule")[0] == ("799.9a",)
    assert cite("planeswalker-uniqueness") == ()  # no planeswalkers: nothing to cite
    assert Citations(edition)("mana-burn") == ()  # without flags, a flag's concept cites nothing
    r = run(open_scenario("mana-burn"), FlagSet.from_mapping(OLD_SCHOOL), edition=edition)
    assert any(e.rules == ("500.1",) and "mana burn" in e.text for e in r.log)


def test_citations_are_looked_up_by_place_never_in_the_whole_text() -> None:
    # The same sentence (ours) cites under a creatures heading and nowhere else.
    sentence = "Damage dealt to a creature stays on it until the turn's cleanup step."
    placed = synthetic_edition({"212.3": "Creatures", "212.3a": sentence},
                               titles={"212": "Creature Cards"})
    stray = synthetic_edition({"450.1": sentence}, titles={"450": "Odds and Ends"})
    assert Citations(placed)("damage-creature") == ("212.3a",)
    assert Citations(stray)("damage-creature") == ()
    assert {f.scope for finds in CONCEPTS.values() for f in finds} <= {"title", "sba", "under"}
    assert not set(CONCEPTS) & set(FLAG_CONCEPTS)  # a flag's concept: its provenance only


def test_run_json_shape() -> None:
    r = run(open_scenario("mana-burn"), FlagSet.from_mapping(OLD_SCHOOL), label="old-school")
    doc = r.as_dict()
    assert list(doc) == ["scenario", "edition", "result", "log"]
    assert doc["scenario"] == "mana-burn" and doc["edition"] == "old-school"
    assert doc["result"] == "life=17"
    assert all(set(e) == {"rules", "text"} for e in doc["log"])


# --- scenario files ---------------------------------------------------------------------------
def _write(tmp_path: Path, text: str) -> Path:
    path = tmp_path / "bad.toml"
    path.write_text(text, encoding="utf-8")
    return path


def test_unknown_action_names_file_and_line(tmp_path: Path) -> None:
    path = _write(tmp_path, 'result = "{battlefield}"\n[[players]]\nid = "a"\n\n'
                            '[[actions]]\ndo = "fly"\n')
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.file == str(path) and info.value.line == 5
    assert "fly" in info.value.message


def test_invalid_toml_names_the_line(tmp_path: Path) -> None:
    path = _write(tmp_path, 'result = "{battlefield}"\n[[players]]\nid = \n')
    with pytest.raises(ScenarioError) as info:
        load_scenario(path)
    assert info.value.line == 3


def test_unknown_result_function_and_missing_result(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match="unknown result function"):
        load_scenario(_write(tmp_path, 'result = "{colour:x}"\n[[players]]\nid = "a"\n'))
    with pytest.raises(ScenarioError, match="needs a 'result'"):
        load_scenario(_write(tmp_path, '[[players]]\nid = "a"\n'))


def test_a_step_that_makes_no_sense_is_an_engine_error_with_its_line(tmp_path: Path) -> None:
    path = _write(tmp_path, 'result = "{battlefield}"\n[[players]]\nid = "a"\n\n'
                            '[[actions]]\ndo = "switch"\ntarget = "nobody"\n')
    with pytest.raises(EngineError) as info:
        run(load_scenario(path), flags())
    assert info.value.line == 5 and "nobody" in info.value.message


def test_malformed_tables_and_values_are_scenario_errors(tmp_path: Path) -> None:
    with pytest.raises(ScenarioError, match=r"players\[0\]\.id: missing"):
        load_scenario(_write(tmp_path, 'result = "{battlefield}"\n[[players]]\nlife = 3\n'))
    with pytest.raises(ScenarioError, match="unknown flag 'mana_brun'") as info:
        load_scenario(_write(tmp_path, 'result = "x"\n[[players]]\nid = "a"\n[[expect]]\n'
                                       'when = { mana_brun = true }\nresult = "x"\n'))
    assert info.value.line == 5
    path = _write(tmp_path, 'result = "{battlefield}"\n[[players]]\nid = "a"\n\n'
                            '[[permanents]]\nid = "c"\ntypes = ["creature"]\npower = 1\n'
                            'toughness = 1\n\n[[actions]]\ndo = "pump"\ntarget = "c"\n'
                            'power = "lots"\n')
    with pytest.raises(ScenarioError) as info:  # refused when read, before anything runs
        load_scenario(path)
    assert info.value.line == 14
    assert info.value.message == "actions[0].power: expected int, got str"


def test_scenario_type() -> None:
    assert isinstance(open_scenario("mana-burn"), Scenario)


def test_the_scenario_readme_documents_every_action_and_result_function() -> None:
    from rulediff.engine import ACTIONS, RESULTS

    readme = (Path(__file__).resolve().parent.parent / "corpus" / "scenarios" / "README.md")
    text = readme.read_text(encoding="utf-8")
    assert all(f"| `{name}` |" in text for name in ACTIONS), "an action is undocumented"
    assert all(("{" + name + ":") in text or ("{" + name + "}") in text for name in RESULTS)
