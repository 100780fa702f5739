"""Flags on synthetic snippets: every value of every flag, undetermined cases, FlagSet,
hand-written flag files, exporters and the JSON Schema.

Every snippet below was written for these tests in the style of the rules; none is a
copied rule paragraph.
"""

from __future__ import annotations

import ast
import datetime as dt
import importlib.util
import json
import re
import sys
import typing
from dataclasses import FrozenInstanceError, dataclass, field, fields
from pathlib import Path

import jsonschema
import pytest
import tomllib
from hypothesis import given
from hypothesis import strategies as st

import rulediff
from rulediff.errors import FlagError, RuleDiffError
from rulediff.flags import (
    REGISTRY,
    Decision,
    FlagSet,
    Undetermined,
    detectors,
    flags_for,
    load_flagset,
)
from rulediff.flags import flagset as flagset_module
from rulediff.flags.detectors import _number_by, condition_of
from rulediff.flags.exporters import flags_schema, shipped_schema, to_json, to_python, to_toml
from rulediff.flags.flagset import flagset_field_names
from rulediff.flags.registry import flag, registry_of
from rulediff.flags.text import EditionText, normalize, split_sentences
from rulediff.flags.timeline import changes, check_engine

sys.path.insert(0, str(Path(__file__).parent))
from flags_helpers import synthetic_edition  # noqa: E402

# --- snippets: (flag, expected value, rules, titles, glossary) ------------------------------
# Each snippet is our own wording of a behaviour (checked by tests/test_no_cr_text.py): it
# keeps at most a few words of the phrasing a detector anchors on.
PHASE_BURN = {"300.3": "At the end of a phase (but not a step), unused mana in a pool is lost; "
                       "its player loses one life for each mana lost in this way."}
STEP_NO_BURN = {"500.4": "Unspent mana still in any mana pool empties as each step or phase "
                         "ends. No player loses life for it."}
NO_PW = {"300.1": "The card types are land, creature, sorcery, instant, artifact, and "
                  "enchantment."}
PARIS = ("Someone unhappy with the opening hand may take a mulligan. To take a mulligan, shuffle "
         "the hand away and draw a new hand of one fewer card than the last.")
SCRY = (" Once every opening hand is kept, any player holding fewer cards than their "
        "starting hand size is allowed to look at the top card of the library and leave it or "
        "move it under the rest.")
LONDON = ("Someone unhappy with the opening hand may take a mulligan. To take a mulligan, shuffle "
          "the hand away and draw a new hand of seven cards, then for each mulligan so far place "
          "one card from it on the bottom of their library.")
LEGEND_CHOOSES = ("When one player controls several legendary permanents with the same name, "
                  "the player chooses one of them to keep; the others go to their owners' "
                  "graveyards.")
LEGEND_ALL_DIE = ("Whenever the battlefield holds several legendary permanents with the same "
                  "name, all are put into their owners' graveyards.")
NO_STACK = ("Then the assigned combat damage is dealt simultaneously; this step's turn-based "
            "action doesn't use the stack.")

CASES: list[tuple[str, object, dict[str, str], dict[str, str], dict[str, str]]] = [
    ("mana_burn", True, PHASE_BURN, {}, {}),
    ("mana_burn", False, STEP_NO_BURN, {}, {}),
    ("mana_empties", "phase", PHASE_BURN, {}, {}),
    ("mana_empties", "step", STEP_NO_BURN, {}, {}),
    ("combat_damage_uses_stack", True,
     {"510.2": "After assignment, the combat damage goes on the stack as a single object."},
     {}, {}),
    ("combat_damage_uses_stack", False, {"510.2": NO_STACK}, {}, {}),
    ("damage_assignment_order", True,
     {"510.1c": "A blocked creature assigns its combat damage among its blockers, going down "
                "the damage assignment order its controller announced."}, {}, {}),
    ("damage_assignment_order", False,
     {"510.1c": "A blocked creature assigns its combat damage among its blockers, divided as "
                "its controller chooses."}, {}, {}),
    ("legend_rule", "oldest-stays",
     {"420.5e": "Should legendary permanents with the same name be in play at once, all except "
                "the one in play the longest go into their owners' graveyards."}, {}, {}),
    ("legend_rule", "all-die", {"704.5k": LEGEND_ALL_DIE}, {}, {}),
    ("legend_rule", "controller-chooses", {"704.5j": LEGEND_CHOOSES}, {}, {}),
    ("planeswalker_uniqueness", "absent", NO_PW, {}, {}),
    ("planeswalker_uniqueness", "absent",
     {"306.1": "Planeswalkers are permanents.",
      "306.4": "Previously, planeswalkers obeyed a planeswalker uniqueness rule, which has "
               "since been dropped."}, {}, {}),
    ("planeswalker_uniqueness", "all-die",
     {"704.5j": "Whenever the battlefield holds several planeswalkers that share a "
                "planeswalker type, all are put into their owners' graveyards."}, {}, {}),
    ("planeswalker_uniqueness", "controller-chooses",
     {"704.5j": "When one player controls several planeswalkers that share a planeswalker type, "
                "the player chooses one of them to keep; the others go to their owners' "
                "graveyards."}, {}, {}),
    ("planeswalker_damage_redirection", True,
     {"306.7": "If noncombat damage from a source one of a player's opponents controls would "
               "be dealt to that player, that opponent may instead have it dealt to a "
               "planeswalker the player controls."}, {}, {}),
    ("planeswalker_damage_redirection", False,
     {"306.7": "Previously, planeswalkers could have noncombat damage redirect onto them; "
               "that option is gone."}, {}, {}),
    ("planeswalker_damage_redirection", False, NO_PW, {}, {}),
    ("mulligan", "paris", {"103.4": PARIS}, {}, {}),
    ("mulligan", "vancouver", {"103.4": PARIS + SCRY}, {}, {}),
    ("mulligan", "london", {"103.4": LONDON,
                            "903.8": "Commander games use another mulligan: a player may take a "
                                     "mulligan and draws a new hand of six cards."},
     {"903": "Commander"}, {}),
    ("pt_switch_sublayer", "timestamp",
     {"418.5i": "An effect may switch a creature's power and toughness. Every effect applied "
                "after the switching effect apply normally."}, {}, {}),
    ("pt_switch_sublayer", "timestamp",
     {"418.5a": "An object's characteristics' values are determined by starting with the card "
                "as printed, next copy effects, and last every other continuous effect."},
     {}, {}),
    ("pt_switch_sublayer", "6e",
     {"418.5a": "Layer 6 is applied in sublayers: (6a) abilities that define characteristics; "
                "(6b) everything else; (6c) counters; (6e) effects that switch power and "
                "toughness."}, {}, {}),
    ("pt_switch_sublayer", "7e",
     {"613.3e": "Layer 7e: effects that switch power and toughness come last."}, {}, {}),
    ("pt_switch_sublayer", "7d",
     {"613.4d": "Layer 7d: effects that switch power and toughness come here."}, {}, {}),
    ("deathtouch", "absent", NO_PW, {}, {}),
    ("deathtouch", "triggered",
     {"502.63a": "Deathtouch is a triggered ability: the creature it damages is destroyed."},
     {}, {}),
    ("deathtouch", "static", {"702.2a": "Deathtouch is a static ability."}, {}, {}),
    ("lifelink", "absent", NO_PW, {}, {}),
    ("lifelink", "triggered", {"502.68a": "Lifelink is a triggered ability."}, {}, {}),
    ("lifelink", "static", {"702.15a": "Lifelink is a static ability."}, {}, {}),
    ("x_in_alternative_and_additional_costs", True,
     {"107.3a": "As long as a spell is on the stack, each X in its mana cost, and also in an "
                "alternative cost or an additional cost, is the value that was chosen."},
     {}, {}),
    ("x_in_alternative_and_additional_costs", False,
     {"107.3a": "As long as a spell is on the stack, each X in its mana cost is the value "
                "that was chosen."}, {}, {}),
    ("cleanup_repeats_after_end_turn", True,
     {"724.1d": "Play jumps to the cleanup step. Should an effect end the turn during the "
                "cleanup step, another cleanup step follows."}, {}, {}),
    ("cleanup_repeats_after_end_turn", False,
     {"713.1": "When an effect ends the turn, the game does the following, in this order.",
      "713.1c": "The turn skips straight to the cleanup step."}, {}, {}),
    ("mana_value_term", "converted mana cost",
     {"202.3": "Each object's converted mana cost is how much mana its cost adds up to."},
     {}, {}),
    ("mana_value_term", "mana value",
     {"202.3": "Each object's mana value is how much mana its mana cost adds up to."},
     {}, {}),
    ("commander_zone_change", "absent", NO_PW, {}, {}),
    ("commander_zone_change", "replacement",
     {"903.10": "If a general would be exiled from anywhere, its owner may move it to the "
                "command zone instead."}, {"903": "EDH"}, {}),
    ("commander_zone_change", "state-based-action",
     {"704.6d": "During Commander play, if a commander is in exile or in a graveyard since the "
                "previous check, its owner may move it to the command zone.",
      "903.9b": "If a commander would go to a hand from anywhere, its owner may move it to "
                "the command zone instead."}, {"903": "Commander"}, {}),
    ("exile_zone_name", "removed-from-game",
     {"217.1": "There are six basic zones: hand, library, in play, graveyard, removed from the "
               "game, and stack."}, {}, {}),
    ("exile_zone_name", "exile",
     {"400.1": "There are normally seven zones: hand, library, graveyard, battlefield, exile, "
               "command, and stack."}, {}, {}),
    ("battlefield_term", "in play",
     {"217.1": "There are six basic zones: hand, library, in play, graveyard, removed from the "
               "game, and stack."}, {}, {}),
    ("battlefield_term", "battlefield",
     {"400.1": "There are normally seven zones: hand, library, graveyard, battlefield, exile, "
               "command, and stack."}, {}, {}),
    ("sideboard_up_to_15", True,
     {"100.4a": "For constructed decks, a sideboard holds no more than fifteen cards."}, {}, {}),
    ("sideboard_up_to_15", False,
     {"100.4a": "For constructed decks, any sideboard used holds exactly fifteen cards."},
     {}, {}),
    ("planeswalker_types", ("Ajani", "Chandra", "Jace"),
     {"205.3j": "Planeswalkers have planeswalker types. The planeswalker types are Jace, Ajani, "
                "and Chandra."}, {}, {}),
    ("planeswalker_types", ("Garruk", "Liliana"),
     {"212.9": "Planeswalkers are a card type."}, {},
     {"Planeswalker Type": "The list of planeswalker types, updated through the Test set, is "
                           "as follows: Liliana, Garruk."}),
    ("planeswalker_types", (), NO_PW, {}, {}),
    ("ability_words", ("council's dilemma", "landfall", "threshold"),
     {"207.2c": "The ability words are threshold, council\u2019s dilemma, and landfall."}, {}, {}),
    ("ability_words", ("chroma", "sweep"),
     {"207.2c": "An ability word has no rules meaning."}, {},
     {"Ability Word": "The list of ability words, updated through the Test set, is as follows: "
                      "sweep and chroma."}),
    ("ability_words", (), NO_PW, {}, {}),
    ("starting_life", 30,
     {"103.3": "In a game, every player begins the game with a life total of 30.",
      "903.7": "In a game, every player begins the game with a life total of 40."},
     {"903": "Commander"}, {}),
    ("max_hand_size", 8,
     {"402.2": "A player's maximum hand size, normally eight cards, is checked at cleanup."},
     {}, {}),
    ("poison_threshold", 15,
     {"104.3d": "Any player with fifteen or more poison counters loses the game."}, {}, {}),
    ("starting_hand_size", 7, {"101.3": "To start, each player draws a hand of seven cards."},
     {}, {}),
    ("state_based_term", "state-based actions",
     {"704.1": "The game looks at these each time a player would get priority."},
     {"704": "State-Based Actions"}, {}),
    ("state_based_term", "state-based effects",
     {"420.1": "The game looks at these each time a player would get priority."},
     {"420": "State-Based Effects"}, {}),
    ("spell_verb", "cast", {"601.1": "Casting a spell puts it on the stack."},
     {"601": "Casting Spells"}, {}),
    ("spell_verb", "play", {"409.1": "Playing a spell puts it on the stack."},
     {"409": "Playing Spells and Activated Abilities"}, {}),
    ("kindred_type_name", "absent", NO_PW, {}, {}),
    ("kindred_type_name", "tribal",
     {"300.1": "The card types are artifact, creature, land, and tribal."}, {}, {}),
    ("kindred_type_name", "kindred",
     {"300.1": "The card types are artifact, creature, kindred, and land."}, {}, {}),
    ("counter_annihilation", True,
     {"704.5q": "A permanent that has +1/+1 counters and -1/-1 counters has N of each "
                "removed, N being the smaller count."}, {}, {}),
    ("counter_annihilation", False,
     {"704.5r": "Any player at 0 life or less loses.",
      "704.5": "The state-based actions are as follows:"}, {}, {}),
]


@pytest.mark.parametrize(
    "name,value,rules,titles,glossary", CASES,
    ids=[f"{c[0]}={c[1]!r}"[:60] for c in CASES],
)
def test_snippet_gives_value(name, value, rules, titles, glossary):
    fs = flags_for(synthetic_edition(rules, titles=titles, glossary=glossary))
    assert getattr(fs, name) == value, fs.outcome(name)
    out = fs.outcome(name)
    assert isinstance(out, Decision)
    assert out.evidence  # every decision says why


def test_every_flag_and_value_has_a_snippet():
    covered: dict[str, set[object]] = {}
    for name, value, *_ in CASES:
        covered.setdefault(name, set()).add(value)
    assert set(covered) == set(REGISTRY)
    for name, spec in REGISTRY.items():
        if spec.type == "enum":
            assert covered[name] >= set(spec.allowed), name
        if spec.type == "bool":
            assert covered[name] == {True, False}, name


def test_decisions_cite_the_deciding_rule_and_its_words():
    fs = flags_for(synthetic_edition(PHASE_BURN))
    rules, evidence = fs.provenance("mana_burn")
    assert rules == ("300.3",)
    assert "loses one life for each mana" in evidence
    assert fs.outcome("mana_burn").evidence.startswith("At the end of a phase")


def test_nothing_to_read_is_undetermined_with_a_reason():
    fs = flags_for(synthetic_edition({"100.1": "A game is played by two players."}))
    for name in ("mana_burn", "mana_empties", "combat_damage_uses_stack", "legend_rule",
                 "mulligan", "starting_life", "exile_zone_name", "sideboard_up_to_15"):
        assert getattr(fs, name) is None
        assert fs.undetermined[name]
        assert isinstance(fs.outcome(name), Undetermined)


def test_conflicting_text_is_undetermined_not_a_guess():
    fs = flags_for(synthetic_edition({
        "704.5j": LEGEND_CHOOSES,
        "801.9": LEGEND_ALL_DIE,
    }))
    assert fs.legend_rule is None
    assert "conflicting" in fs.undetermined["legend_rule"]
    both = flags_for(synthetic_edition({
        "510.2": "Combat damage goes on the stack once assigned.",
        "510.3": NO_STACK,
    }))
    assert both.combat_damage_uses_stack is None


def test_history_notes_do_not_count_as_current_rules():
    fs = flags_for(synthetic_edition({
        **STEP_NO_BURN,
        "500.9": "Previously, a player who lost unused mana this way lost 1 life for each mana; "
                 "that rule no longer exists.",
    }))
    assert fs.mana_burn is False


def test_variant_rules_do_not_set_the_ordinary_game():
    fs = flags_for(synthetic_edition({
        "103.3": "At the start, every player sets their life total to 20.",
        "810.2": "In a game, every team begins the game with a life total of 30.",
        "903.7": "In a game, every player begins the game with a life total of 40.",
    }, titles={"810": "Two-Headed Giant Variant", "903": "Commander"}))
    assert fs.starting_life == 20


def test_detectors_never_read_the_date():
    rules = {"613.4d": "Layer 7d: effects that switch power and toughness come here.",
             **PHASE_BURN}
    early = flags_for(synthetic_edition(rules, date="March 3, 1995"))
    late = flags_for(synthetic_edition(rules, date="March 3, 2099"))
    assert early.values() == late.values()
    assert early.effective_date == dt.date(1995, 3, 3)


def test_rules_are_found_below_their_heading_in_document_order():
    edition = synthetic_edition(
        {"103.1": "Players shuffle.", "103.2": "Players draw.", "402.1": "A hand is a zone.",
         "450.1": "Odd things happen."},
        titles={"103": "Starting the Game", "402": "Hand", "450": "Odds and Ends"},
    )
    t = EditionText(edition)
    assert t.below(r"starting the game") == ("103", "103.1", "103.2")
    assert t.below(r"hand|starting the game") == ("103", "103.1", "103.2", "402", "402.1")
    assert t.below(r"starting") == ()  # the whole title, not a part of it


def test_condition_and_consequence_come_from_the_clause_grammar():
    sentence = "If a player has 12 or more poison counters, that player loses the game."
    condition, consequence = condition_of(sentence)
    assert condition == "a player has 12 or more poison counters"
    assert consequence.strip() == "that player loses the game."
    should = condition_of("Should a player have twelve poison counters, the player loses.")
    assert should is not None and should[0].startswith("a player have twelve")
    assert condition_of("A player loses the game. If so, shuffle.") is None


@pytest.mark.parametrize("text,term,number_first,expected", [
    ("her life total of 25 and a hand", r"life total", False, 25),
    ("a maximum hand size, which is normally six cards", r"maximum hand size", False, 6),
    ("a maximum hand size (normally 9)", r"maximum hand size", False, 9),
    ("reduce the maximum hand size by one", r"maximum hand size", False, None),
    ("with twelve or more poison counters loses", r"poison counters", True, 12),
    ("with 3 cards and poison counters", r"poison counters", True, None),
])
def test_a_number_counts_only_when_link_words_join_it_to_its_term(text, term, number_first,
                                                                   expected):
    match = re.search(term, text)
    assert match is not None
    assert _number_by(text, match, number_first) == expected


def test_sentences_and_normalization():
    assert split_sentences('He said "Stop." Then he left. (Note: rule 1.2.) Done') == [
        'He said "Stop."', "Then he left.", "(Note: rule 1.2.)", "Done"]
    assert normalize("player\u2019s \u201cmana\u201d player?s") == "player's \"mana\" player's"
    assert len(normalize("a\u2014b")) == 3


# --- the registry and FlagSet ------------------------------------------------------------
def test_flagset_fields_follow_the_registry():
    assert flagset_field_names() == tuple(REGISTRY)
    for spec in REGISTRY.values():
        assert spec.description
        assert (spec.type == "enum") == bool(spec.allowed)


def test_each_flag_is_declared_once_as_a_written_out_field():
    """Readers and type checkers see every flag: an annotated field in FlagSet's source,
    whose annotation is the domain the registry reports (nothing made at run time)."""
    source = Path(flagset_module.__file__).read_text(encoding="utf-8")
    cls = next(n for n in ast.parse(source).body
               if isinstance(n, ast.ClassDef) and n.name == "FlagSet")
    written = [n.target.id for n in cls.body
               if isinstance(n, ast.AnnAssign) and isinstance(n.target, ast.Name)]
    assert [n for n in written if n not in ("effective_date", "_outcomes")] == list(REGISTRY)
    hints = typing.get_type_hints(FlagSet)
    assert hints["legend_rule"] == (
        typing.Literal["oldest-stays", "all-die", "controller-chooses"] | None)
    assert hints["mana_burn"] == bool | None and hints["starting_life"] == int | None
    assert hints["ability_words"] == tuple[str, ...] | None
    assert REGISTRY["legend_rule"].allowed == ("oldest-stays", "all-die", "controller-chooses")
    assert REGISTRY["starting_life"].type == "int" and REGISTRY["ability_words"].type == "list"
    assert REGISTRY["mana_burn"].detector is detectors.mana_burn


def test_a_flag_with_an_unknown_domain_is_refused():
    @dataclass(frozen=True)
    class Odd:
        ratio: float | None = field(default=None, metadata=flag(detectors.mana_burn, "x"))

    @dataclass(frozen=True)
    class NotOptional:
        burn: bool = field(default=False, metadata=flag(detectors.mana_burn, "x"))

    with pytest.raises(TypeError, match="ratio"):
        registry_of(Odd)
    with pytest.raises(TypeError, match="burn"):
        registry_of(NotOptional)


def test_flagset_is_frozen_hashable_and_public():
    fs = FlagSet(mana_burn=True, legend_rule="all-die")
    with pytest.raises(FrozenInstanceError):
        fs.mana_burn = False  # type: ignore[misc]
    assert hash(fs) == hash(FlagSet(mana_burn=True, legend_rule="all-die"))
    assert rulediff.flags_for is flags_for and rulediff.FlagSet is FlagSet
    assert "effective_date" in {f.name for f in fields(FlagSet)}
    assert fs.provenance("mana_burn") == ((), "set by hand")
    assert fs.undetermined["mulligan"] == "not declared"


def test_from_mapping_accepts_flat_nested_and_export_shapes():
    flat = FlagSet.from_mapping({"mana_burn": False, "legend_rule": "controller-chooses",
                                 "ability_words": ["sweep", "chroma", "sweep"]})
    assert flat.mana_burn is False and flat.legend_rule == "controller-chooses"
    assert flat.ability_words == ("chroma", "sweep")
    assert flat.mulligan is None and "not declared" in flat.undetermined["mulligan"]
    nested = FlagSet.from_mapping({"effective_date": "2010-01-01",
                                   "flags": {"mana_burn": {"value": True, "rules": ["300.3"],
                                                           "evidence": "burn"}}})
    assert nested.mana_burn is True and nested.provenance("mana_burn") == (("300.3",), "burn")
    assert nested.effective_date == dt.date(2010, 1, 1)


@pytest.mark.parametrize("data,message", [
    ({"mana_brun": True}, "unknown flag 'mana_brun' (did you mean 'mana_burn'?)"),
    ({"mana_burn": "yes"}, "flag 'mana_burn': expected true or false, got 'yes'"),
    ({"legend_rule": "oldest"}, "flag 'legend_rule': 'oldest' is not one of"),
    ({"starting_life": True}, "flag 'starting_life': expected an integer"),
    ({"ability_words": "sweep"}, "flag 'ability_words': expected a list of strings"),
    ({"flags": {"mulligan": {"rules": []}}}, "a table must have a 'value' key"),
    ({"effective_date": "soon"}, "effective_date must be a YYYY-MM-DD date"),
])
def test_from_mapping_rejects_bad_input_clearly(data, message):
    with pytest.raises(FlagError) as info:
        FlagSet.from_mapping(data)
    assert message in str(info.value)
    assert isinstance(info.value, RuleDiffError)


def test_load_flagset_reports_file_and_line(tmp_path):
    good = tmp_path / "engine.toml"
    good.write_text('# my engine\n[flags]\nmana_burn = true\nmulligan = "london"\n')
    fs = load_flagset(good)
    assert fs.mana_burn is True and fs.mulligan == "london"
    bad = tmp_path / "bad.toml"
    bad.write_text('[flags]\nmana_burn = true\n\nmulligan = "vancover"\n')
    with pytest.raises(FlagError) as info:
        load_flagset(bad)
    assert str(info.value).startswith(f"{bad}:4: flag 'mulligan'")
    broken = tmp_path / "broken.toml"
    broken.write_text("[flags]\nmana_burn = \n")
    with pytest.raises(FlagError, match=r"broken.toml:2: invalid TOML"):
        load_flagset(broken)
    js = tmp_path / "engine.json"
    js.write_text('{\n  "mana_burn": false,\n  "legend_rule": 3\n}\n')
    with pytest.raises(FlagError, match=r"engine.json:3: flag 'legend_rule'"):
        load_flagset(js)
    with pytest.raises(FlagError, match="cannot read"):
        load_flagset(tmp_path / "missing.toml")


# --- exporters -------------------------------------------------------------------------------
@pytest.fixture(scope="module")
def sample() -> FlagSet:
    return flags_for(synthetic_edition({
        **PHASE_BURN, "103.4": LONDON,
        "205.3j": "The planeswalker types are Jace and Ajani.",
        "704.5j": LEGEND_CHOOSES,
    }))


def test_shipped_schema_matches_the_registry():
    assert shipped_schema() == flags_schema()


def test_json_export_validates_and_round_trips(sample):
    text = to_json(sample)
    doc = json.loads(text)
    jsonschema.validate(doc, shipped_schema())
    assert list(doc["flags"]) == list(REGISTRY)
    assert doc["flags"]["mana_burn"] == {"value": True, "rules": ["300.3"],
                                         "evidence": sample.outcome("mana_burn").evidence,
                                         "reason": None}
    assert doc["flags"]["sideboard_up_to_15"]["value"] is None
    assert doc["flags"]["sideboard_up_to_15"]["reason"]
    assert FlagSet.from_mapping(doc) == sample
    assert to_json(sample) == text  # deterministic
    doc["flags"]["mulligan"]["value"] = "oxford"
    with pytest.raises(jsonschema.ValidationError):
        jsonschema.validate(doc, shipped_schema())


def test_toml_export_round_trips_with_provenance(sample):
    text = to_toml(sample)
    loaded = FlagSet.from_mapping(tomllib.loads(text))
    assert loaded == sample
    assert loaded.provenance("legend_rule") == sample.provenance("legend_rule")
    assert "# sideboard_up_to_15: undetermined" in text


def test_python_export_is_an_importable_frozen_dataclass(sample, tmp_path, monkeypatch):
    path = tmp_path / "cr_flags.py"
    path.write_text(to_python(sample))
    monkeypatch.syspath_prepend(str(tmp_path))
    module = importlib.import_module("cr_flags")
    try:
        assert module.FLAGS.mana_burn is True
        assert module.FLAGS.mulligan == "london"
        assert module.FLAGS.planeswalker_types == ("Ajani", "Jace")
        assert module.FLAGS.effective_date == dt.date(2031, 3, 3)
        assert module.PROVENANCE["mana_burn"][0] == ("300.3",)
        assert "sideboard_up_to_15" in module.UNDETERMINED
        with pytest.raises(AttributeError):  # dataclasses.FrozenInstanceError
            module.FLAGS.mana_burn = False
        imports = [ln for ln in path.read_text().splitlines() if ln.startswith(("import", "from"))]
        assert imports and not any("rulediff" in ln for ln in imports)  # vendorable
        assert FlagSet.from_mapping({k: getattr(module.FLAGS, k) for k in REGISTRY
                                     if getattr(module.FLAGS, k) is not None}).values() == {
            k: v for k, v in sample.values().items()}
    finally:
        sys.modules.pop("cr_flags", None)


def test_check_engine_lists_disagreements(sample):
    declared = FlagSet.from_mapping({"mana_burn": True, "legend_rule": "all-die",
                                     "sideboard_up_to_15": True})
    bad, good = check_engine(declared, sample)
    assert good == ["mana_burn"]
    assert [(d.flag, d.declared, d.derived) for d in bad] == [
        ("legend_rule", "all-die", "controller-chooses"), ("sideboard_up_to_15", True, None)]
    assert bad[0].rules == ("704.5j",)


def test_changes_report_first_value_and_each_change():
    a = FlagSet.from_mapping({"effective_date": "2001-01-01", "mana_burn": True,
                              "planeswalker_types": ["Jace"]})
    b = FlagSet.from_mapping({"effective_date": "2002-01-01", "mana_burn": True,
                              "planeswalker_types": ["Jace", "Ajani"]})
    c = FlagSet.from_mapping({"effective_date": "2003-01-01", "mana_burn": False,
                              "planeswalker_types": ["Ajani"]})
    got = changes([a, b, c])
    assert [(x.date, x.after) for x in got["mana_burn"]] == [("2001-01-01", True),
                                                             ("2003-01-01", False)]
    pw = got["planeswalker_types"]
    assert [(x.date, x.added, x.removed) for x in pw] == [
        ("2001-01-01", ("Jace",), ()), ("2002-01-01", ("Ajani",), ()),
        ("2003-01-01", (), ("Jace",))]


# --- failing closed: the rule's topic is there, its wording is not read -----------------------
@pytest.mark.parametrize("name,rules,titles", [
    ("planeswalker_uniqueness",
     {"306.1": "Planeswalkers are permanents with loyalty.",
      "306.4": "Planeswalkers that have a planeswalker type in common can't be controlled by "
               "one player at once; the extra ones go to the graveyard."}, {}),
    ("planeswalker_damage_redirection",
     {"306.1": "Planeswalkers are permanents with loyalty.",
      "306.7": "A player hit by noncombat damage from an opposing source may see that damage "
               "rerouted by the opponent onto a planeswalker."}, {}),
    ("counter_annihilation",
     {"704.5b": "Any player at 0 life or less loses.",
      "704.5r": "A permanent carrying +1/+1 counters as well as -1/-1 counters sheds pairs of "
                "them until only one kind is left.",
      "704.5": "The state-based actions are as follows:"}, {}),
    ("kindred_type_name",
     {"307.1": "A sorcery is cast only in a main phase.",
      "300.1": "Every card has at least one of these types: artifact, tribal, creature, land."},
     {"307": "Sorceries"}),
])
def test_a_rule_found_but_not_read_is_undetermined(name, rules, titles):
    fs = flags_for(synthetic_edition(rules, titles=titles))
    assert getattr(fs, name) is None, fs.outcome(name)
    out = fs.outcome(name)
    assert isinstance(out, Undetermined) and out.reason and out.rules


def test_counter_rule_in_other_words_is_read_or_flipped():
    said = {"704.5": "The state-based actions are as follows:"}
    yes = flags_for(synthetic_edition({**said, "704.5r": "When one permanent has +1/+1 counters "
                                       "and -1/-1 counters, pairs of one of each are removed."}))
    no = flags_for(synthetic_edition({**said, "122.3": "+1/+1 counters and -1/-1 counters on "
                                      "one permanent are not removed; both stay."}))
    assert (yes.counter_annihilation, no.counter_annihilation) == (True, False)


def test_uniqueness_rules_are_read_from_the_state_based_actions_list():
    # The list item decides; a sentence elsewhere (an aside, a variant) does not.
    fs = flags_for(synthetic_edition({
        "704.5j": LEGEND_CHOOSES,
        "704.5": "The state-based actions are as follows:",
        "810.9": LEGEND_ALL_DIE,
    }))
    assert fs.legend_rule == "controller-chooses"
    assert fs.provenance("legend_rule")[0] == ("704.5j",)
    # Without a list, both sentences count, and they disagree.
    assert flags_for(synthetic_edition({"704.5j": LEGEND_CHOOSES, "810.9": LEGEND_ALL_DIE}
                                       )).legend_rule is None


def _blob_text_by_characters(raw: str) -> str:
    """The sentence-per-line text of a scope, one character replaced at a time."""
    from rulediff.flags.text import _LOST_APOSTROPHE, _REPLACE, _SENTENCE_END

    text = raw
    for old, new in _REPLACE:
        text = text.replace(old, new)
    chars = list(_LOST_APOSTROPHE.sub("'", text))
    for m in _SENTENCE_END.finditer("".join(chars)):
        chars[m.end()] = "\n"
    return "".join(chars)


_TEXT = st.text(alphabet="Ab c.?!\"')\u2019\u201c\u2014\n1", max_size=60)


@given(st.lists(_TEXT, min_size=1, max_size=4))
def test_scope_text_cut_by_slices_is_the_text_cut_character_by_character(texts) -> None:
    """Round 17 (speed): the lines are joined from slices and the lost-apostrophe regex
    runs only on text holding a "?": the same text, offsets and all."""
    from rulediff.flags.text import _Blob

    blob = _Blob([(f"100.{k}", t) for k, t in enumerate(texts)])
    assert blob.text == _blob_text_by_characters("\n".join(texts))
    assert len(blob.text) == len(blob.raw)


def test_scope_text_of_real_editions_is_the_text_cut_character_by_character() -> None:
    from rulediff.flags.text import EditionText

    from .conftest import corpus_edition

    for date in ("2004-10-01", "2015-01-23", "2025-11-14"):
        t = EditionText(corpus_edition(date))
        for scope in ("rules", "examples", "glossary"):
            blob = t.blob(scope)
            assert blob.text == _blob_text_by_characters(blob.raw)
            assert blob.text.count("\n") > 100
