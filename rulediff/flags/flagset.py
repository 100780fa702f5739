"""`FlagSet`: the behaviour flags of one edition as a typed, frozen object.

One attribute per flag (attribute name = flag name). A value of ``None`` means the
flag is undetermined (for a derived set: the detector could not decide; for a
hand-written set: the file does not declare it). :meth:`FlagSet.provenance` gives the
rule ids, evidence text or reason behind each value.

An engine can build one by hand (:meth:`FlagSet.from_mapping`) or load a hand-written
TOML/JSON file (:func:`rulediff.flags.load_flagset`); both validate every value.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from types import MappingProxyType
from typing import Literal

from .registry import REGISTRY, Decision, Undetermined, Value

FlagOutcome = Decision | Undetermined


@dataclass(frozen=True, slots=True)
class FlagSet:
    """The behaviour flags of one edition (``None`` = undetermined or not declared).

    What each flag means: ``rulediff.flags.REGISTRY[name].description`` (and
    docs/flags.md). Build one from an edition with :func:`rulediff.flags.flags_for`,
    from a hand-written mapping with :meth:`from_mapping` (validated), or directly
    (``FlagSet(mana_burn=False, …)``, not validated).
    """

    effective_date: dt.date | None = None
    """The edition's effective date, when known (informational; never used to decide)."""
    mana_burn: bool | None = None
    """Unused mana causes its owner to lose life as the pool empties."""
    mana_empties: Literal["phase", "step"] | None = None
    """Mana pools empty at the end of each phase only, or of each step and phase."""
    combat_damage_uses_stack: bool | None = None
    """Combat damage is put on the stack and can be responded to."""
    damage_assignment_order: bool | None = None
    """Attackers order blockers and must assign lethal damage in that order."""
    legend_rule: Literal["oldest-stays", "all-die", "controller-chooses"] | None = None
    planeswalker_uniqueness: Literal["absent", "all-die", "controller-chooses"] | None = None
    planeswalker_damage_redirection: bool | None = None
    """Noncombat damage to an opponent may be redirected to a planeswalker they control."""
    mulligan: Literal["paris", "vancouver", "london"] | None = None
    pt_switch_sublayer: Literal["timestamp", "6e", "7e", "7d"] | None = None
    deathtouch: Literal["absent", "triggered", "static"] | None = None
    lifelink: Literal["absent", "triggered", "static"] | None = None
    x_in_alternative_and_additional_costs: bool | None = None
    cleanup_repeats_after_end_turn: bool | None = None
    mana_value_term: Literal["converted mana cost", "mana value"] | None = None
    commander_zone_change: Literal["absent", "replacement", "state-based-action"] | None = None
    exile_zone_name: Literal["removed-from-game", "exile"] | None = None
    battlefield_term: Literal["in play", "battlefield"] | None = None
    sideboard_up_to_15: bool | None = None
    planeswalker_types: tuple[str, ...] | None = None
    ability_words: tuple[str, ...] | None = None
    starting_life: int | None = None
    max_hand_size: int | None = None
    poison_threshold: int | None = None
    starting_hand_size: int | None = None
    state_based_term: Literal["state-based effects", "state-based actions"] | None = None
    spell_verb: Literal["play", "cast"] | None = None
    kindred_type_name: Literal["absent", "tribal", "kindred"] | None = None
    counter_annihilation: bool | None = None
    """+1/+1 and -1/-1 counters on one permanent remove each other (a state-based action)."""
    _outcomes: Mapping[str, FlagOutcome] = field(
        default_factory=lambda: MappingProxyType({}), compare=False, hash=False, repr=False
    )

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


def flagset_field_names() -> tuple[str, ...]:
    """The flag attributes of :class:`FlagSet` (tests check they match the registry)."""
    return tuple(f.name for f in fields(FlagSet) if f.name not in ("effective_date", "_outcomes"))
