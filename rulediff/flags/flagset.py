"""`FlagSet`: the behaviour flags of one edition as a typed, frozen object.

Every flag is declared here, once: one field per flag (field name = flag name), its
annotation the flag's domain (``bool``, ``int``, a ``Literal`` of allowed values, a
tuple of strings for a list), its metadata the description and the detector
(:func:`rulediff.flags.registry.flag`). :data:`REGISTRY` is read back from these
fields, and the exporters and the JSON Schema follow from it. A value of ``None``
means the flag is undetermined (for a derived set: the detector could not decide; for
a hand-written set: the file does not declare it). :meth:`FlagSet.provenance` gives
the rule ids, evidence text or reason behind each value.

An engine can build one by hand (:meth:`FlagSet.from_mapping`) or load a hand-written
TOML/JSON file (:func:`rulediff.flags.load_flagset`); both validate every value.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Literal

from . import detectors
from .registry import Decision, Flag, Undetermined, Value, flag, registry_of

FlagOutcome = Decision | Undetermined


@dataclass(frozen=True, slots=True)
class FlagSet:
    """The behaviour flags of one edition (``None`` = undetermined or not declared).

    What each flag means: ``REGISTRY[name].description`` (the field's declaration
    below, and docs/flags.md). Build one from an edition with
    :func:`rulediff.flags.flags_for`, from a hand-written mapping with
    :meth:`from_mapping` (validated), or directly (``FlagSet(mana_burn=False, …)``,
    not validated).
    """

    effective_date: dt.date | None = None
    mana_burn: bool | None = field(
        default=None,
        metadata=flag(
            detectors.mana_burn,
            "Unused mana causes its player to lose life as the pool empties (mana burn).",
        ),
    )
    mana_empties: Literal["phase", "step"] | None = field(
        default=None,
        metadata=flag(
            detectors.mana_empties,
            "Mana pools empty at the end of each phase only ('phase'), or of each step and "
            "phase ('step').",
        ),
    )
    combat_damage_uses_stack: bool | None = field(
        default=None,
        metadata=flag(
            detectors.combat_damage_uses_stack,
            "Combat damage is put on the stack and can be responded to before it is dealt.",
        ),
    )
    damage_assignment_order: bool | None = field(
        default=None,
        metadata=flag(
            detectors.damage_assignment_order,
            "A creature blocked by several creatures has a damage assignment order and must"
            " assign lethal damage in that order.",
        ),
    )
    legend_rule: Literal["oldest-stays", "all-die", "controller-chooses"] | None = field(
        default=None,
        metadata=flag(
            detectors.legend_rule,
            "What happens when legendary permanents share a name.",
        ),
    )
    planeswalker_uniqueness: Literal["absent", "all-die", "controller-chooses"] | None = field(
        default=None,
        metadata=flag(
            detectors.planeswalker_uniqueness,
            "What happens when planeswalkers share a planeswalker type ('absent': no such "
            "rule).",
        ),
    )
    planeswalker_damage_redirection: bool | None = field(
        default=None,
        metadata=flag(
            detectors.planeswalker_damage_redirection,
            "Noncombat damage a source would deal to an opponent may be dealt to a "
            "planeswalker that opponent controls instead.",
        ),
    )
    mulligan: Literal["paris", "vancouver", "london"] | None = field(
        default=None,
        metadata=flag(
            detectors.mulligan,
            "How a mulligan works: 'paris' (a new hand of one fewer card), 'vancouver' "
            "(Paris, then scry 1 if the hand is smaller), 'london' (draw seven, put one "
            "card on the bottom per mulligan).",
        ),
    )
    pt_switch_sublayer: Literal["timestamp", "6e", "7e", "7d"] | None = field(
        default=None,
        metadata=flag(
            detectors.pt_switch_sublayer,
            "Where effects that switch power and toughness apply: 'timestamp' (in timestamp"
            " order with the other power/toughness effects), or the sublayer the text "
            "names.",
        ),
    )
    deathtouch: Literal["absent", "triggered", "static"] | None = field(
        default=None,
        metadata=flag(
            detectors.deathtouch,
            "Whether deathtouch exists and whether it is a triggered or a static ability.",
        ),
    )
    lifelink: Literal["absent", "triggered", "static"] | None = field(
        default=None,
        metadata=flag(
            detectors.lifelink,
            "Whether lifelink exists and whether it is a triggered or a static ability.",
        ),
    )
    x_in_alternative_and_additional_costs: bool | None = field(
        default=None,
        metadata=flag(
            detectors.x_in_alternative_and_additional_costs,
            "While a spell is on the stack, an X in its alternative or additional costs "
            "equals the announced value too, not only an X in its mana cost.",
        ),
    )
    cleanup_repeats_after_end_turn: bool | None = field(
        default=None,
        metadata=flag(
            detectors.cleanup_repeats_after_end_turn,
            "Ending the turn during the cleanup step starts a new cleanup step.",
        ),
    )
    mana_value_term: Literal["converted mana cost", "mana value"] | None = field(
        default=None,
        metadata=flag(
            detectors.mana_value_term,
            "The name of the number of mana symbols in a mana cost.",
        ),
    )
    commander_zone_change: Literal["absent", "replacement", "state-based-action"] | None = field(
        default=None,
        metadata=flag(
            detectors.commander_zone_change,
            "How a commander (earlier: EDH general) that goes to the graveyard or exile "
            "returns to the command zone: a replacement effect, a state-based action, or "
            "'absent' (no such variant).",
        ),
    )
    exile_zone_name: Literal["removed-from-game", "exile"] | None = field(
        default=None,
        metadata=flag(
            detectors.exile_zone_name,
            "The name of the zone for cards removed from the game.",
        ),
    )
    battlefield_term: Literal["in play", "battlefield"] | None = field(
        default=None,
        metadata=flag(
            detectors.battlefield_term,
            "The name of the zone permanents are in.",
        ),
    )
    sideboard_up_to_15: bool | None = field(
        default=None,
        metadata=flag(
            detectors.sideboard_up_to_15,
            "A constructed sideboard may have up to fifteen cards (false: exactly fifteen "
            "if used).",
        ),
    )
    planeswalker_types: tuple[str, ...] | None = field(
        default=None,
        metadata=flag(
            detectors.planeswalker_types,
            "The planeswalker types (sorted).",
        ),
    )
    ability_words: tuple[str, ...] | None = field(
        default=None,
        metadata=flag(
            detectors.ability_words,
            "The ability words (sorted): words with no rules meaning that tie cards "
            "together.",
        ),
    )
    starting_life: int | None = field(
        default=None,
        metadata=flag(
            detectors.starting_life,
            "Each player's starting life total in an ordinary game.",
        ),
    )
    max_hand_size: int | None = field(
        default=None,
        metadata=flag(
            detectors.max_hand_size,
            "The normal maximum hand size checked in the cleanup step.",
        ),
    )
    poison_threshold: int | None = field(
        default=None,
        metadata=flag(
            detectors.poison_threshold,
            "How many poison counters make a player lose the game.",
        ),
    )
    starting_hand_size: int | None = field(
        default=None,
        metadata=flag(
            detectors.starting_hand_size,
            "How many cards each player draws for an opening hand.",
        ),
    )
    state_based_term: Literal["state-based effects", "state-based actions"] | None = field(
        default=None,
        metadata=flag(
            detectors.state_based_term,
            "What the rules call the checks the game makes whenever a player would receive "
            "priority.",
        ),
    )
    spell_verb: Literal["play", "cast"] | None = field(
        default=None,
        metadata=flag(
            detectors.spell_verb,
            "The verb for putting a spell on the stack: 'play' (older rules) or 'cast'.",
        ),
    )
    kindred_type_name: Literal["absent", "tribal", "kindred"] | None = field(
        default=None,
        metadata=flag(
            detectors.kindred_type_name,
            "The card type for typal cards like 'Tribal Instant — Goblin': 'tribal', "
            "'kindred', or 'absent'.",
        ),
    )
    counter_annihilation: bool | None = field(
        default=None,
        metadata=flag(
            detectors.counter_annihilation,
            "A permanent with both +1/+1 and -1/-1 counters on it has pairs of them removed"
            " as a state-based action.",
        ),
    )


    _outcomes: Mapping[str, FlagOutcome] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, hash=False, repr=False
    )
    """The detector outcomes behind the values (empty when built by hand)."""

    # -- construction -------------------------------------------------------------
    @classmethod
    def from_outcomes(
        cls, outcomes: Mapping[str, FlagOutcome], effective_date: dt.date | None = None
    ) -> FlagSet:
        """Build from detector outcomes (what :func:`rulediff.flags.flags_for` does)."""
        values = {
            name: (out.value if isinstance(out, Decision) else None)
            for name, out in outcomes.items()
        }
        return cls(
            effective_date=effective_date,
            _outcomes=MappingProxyType(dict(outcomes)),
            **values,  # type: ignore[arg-type]
        )

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, source: str = "<mapping>") -> FlagSet:
        """Build from a hand-written mapping, validating every name and value.

        Accepts ``{"mana_burn": false, …}``, the same under a ``"flags"`` key, and the
        JSON export's ``{"flags": {"mana_burn": {"value": false, …}}}``. Flags left
        out (or ``null``) are undetermined. Raises :class:`rulediff.errors.FlagError`.
        """
        from .loading import mapping_to_flagset

        return mapping_to_flagset(cls, data, source=source)

    # -- reading ---------------------------------------------------------------------
    def outcome(self, name: str) -> FlagOutcome:
        """The :class:`Decision` or :class:`Undetermined` behind one flag."""
        if name not in REGISTRY:
            raise KeyError(name)
        found = self._outcomes.get(name)
        if found is not None:
            return found
        value = getattr(self, name)
        if value is not None:  # built with FlagSet(name=value): no text behind it
            return Decision(value, (), "set by hand")
        return Undetermined("not declared")

    def provenance(self, name: str) -> tuple[tuple[str, ...], str]:
        """``(rule ids, evidence text)`` for a flag (reason text when undetermined)."""
        out = self.outcome(name)
        if isinstance(out, Decision):
            return out.rules, out.evidence
        return out.rules, out.reason

    def value(self, name: str) -> Value | None:
        if name not in REGISTRY:
            raise KeyError(name)
        return getattr(self, name)

    def values(self) -> dict[str, Value | None]:
        """Every flag's value by name, in registry order."""
        return {name: getattr(self, name) for name in REGISTRY}

    @property
    def undetermined(self) -> dict[str, str]:
        """Flags without a value, with the reason."""
        return {
            name: self.outcome(name).reason  # type: ignore[union-attr]
            for name in REGISTRY
            if getattr(self, name) is None
        }


REGISTRY: dict[str, Flag] = registry_of(FlagSet)
"""Every flag by name, in declaration order (the order of :class:`FlagSet`'s fields)."""


def flagset_field_names() -> tuple[str, ...]:
    """The flag attributes of :class:`FlagSet` (tests check they match the registry)."""
    return tuple(f.name for f in fields(FlagSet) if f.name not in ("effective_date", "_outcomes"))
