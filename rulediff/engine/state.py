"""The game state the kernel works on: players, permanents, effects, the stack, the turn.

These classes are mutable on purpose (a game changes at every step); everything built
*from* a run (its log, its result) is frozen. Flags are read through :func:`flag`, so
a procedure can never look at anything but the :class:`~rulediff.flags.FlagSet`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

from ..errors import EngineError
from ..serialize import to_data

#: The turn: (phase, steps). A phase without steps has the single step ``None``.
TURN: tuple[tuple[str, tuple[str | None, ...]], ...] = (
    ("beginning", ("untap", "upkeep", "draw")),
    ("precombat-main", (None,)),
    ("combat", ("beginning-of-combat", "declare-attackers", "declare-blockers",
                "combat-damage", "end-of-combat")),
    ("postcombat-main", (None,)),
    ("ending", ("end", "cleanup")),
)
#: Every place in the turn as (phase, step), in order.
POSITIONS: tuple[tuple[str, str | None], ...] = tuple(
    (phase, step) for phase, steps in TURN for step in steps
)


def position_name(phase: str, step: str | None) -> str:
    """``draw``, ``precombat-main``…: a step's name, or the phase's when it has none."""
    return step or phase


class UndeterminedFlag(EngineError):
    """A procedure needs a flag the rule set leaves undetermined (or does not declare)."""

    def __init__(self, flag: str) -> None:
        super().__init__(f"flag {flag!r} is undetermined for this rule set")
        self.flag = flag


@dataclass(slots=True)
class Player:
    """A player: life, poison, zones (cards are plain ids) and mana pool."""

    id: str
    life: int
    poison: int = 0
    hand: list[str] = field(default_factory=list)
    library: list[str] = field(default_factory=list)
    """Top of the library first."""
    graveyard: list[str] = field(default_factory=list)
    mana: list[str] = field(default_factory=list)
    """Unspent mana, one symbol per mana (``R``, ``G``, ``C``…)."""
    drew_from_empty: bool = False
    """Attempted to draw from an empty library since state-based actions were checked."""
    lost: bool = False
    mulligans: int = 0
    kept: bool = False
    scried: bool = False
    bottomed: int = 0
    """Cards the mulligan procedure put on the bottom of the library."""


@dataclass(slots=True)
class Permanent:
    """A permanent on the battlefield (base characteristics plus status)."""

    id: str
    name: str
    controller: str
    owner: str
    timestamp: int
    card_types: tuple[str, ...] = ()
    subtypes: tuple[str, ...] = ()
    supertypes: tuple[str, ...] = ()
    power: int | None = None
    toughness: int | None = None
    keywords: tuple[str, ...] = ()
    counters: dict[str, int] = field(default_factory=dict)
    damage: int = 0
    deathtouch_damage: bool = False
    """Dealt damage by a source with (static) deathtouch since the last SBA check."""

    def is_a(self, card_type: str) -> bool:
        return card_type in self.card_types


@dataclass(slots=True)
class Effect:
    """A continuous effect on one permanent's power/toughness.

    ``kind`` is ``set`` (becomes P/T), ``modify`` (gets +X/+Y) or ``switch``;
    ``static`` marks effects of static abilities (they sit in their own sublayer in
    some editions); ``until`` is ``end-of-turn`` or ``None`` (until ended by an action
    or, for a static effect, by its source leaving the battlefield).
    """

    id: str
    target: str
    kind: str
    timestamp: int
    power: int = 0
    toughness: int = 0
    static: bool = False
    source: str | None = None
    until: str | None = None


@dataclass(slots=True)
class StackObject:
    """A spell, ability or (in some editions) combat damage waiting to resolve."""

    id: str
    kind: str
    """``spell``, ``ability``, ``trigger`` or ``combat-damage``."""
    controller: str
    text: str
    resolve: Callable[[Game], None]


@dataclass(frozen=True, slots=True)
class LogEntry:
    """One narrated step: what happened and the rules of the edition that applied."""

    text: str
    rules: tuple[str, ...] = ()
    concept: str = ""

    __json_fields__ = ("rules", "text")
    as_dict = to_data

    def __str__(self) -> str:
        where = ", ".join(self.rules)
        return f"[{where}] {self.text}" if where else self.text


Citer = Callable[[str], tuple[str, ...]]
"""Maps a concept (``legend-rule``, ``mana-burn``…) to rule numbers of one edition."""


def _no_citations(_concept: str) -> tuple[str, ...]:
    return ()


@dataclass(slots=True)
class Game:
    """The whole state, the flags it runs under and the log it writes."""

    flags: Any
    players: dict[str, Player]
    cite: Citer = _no_citations
    battlefield: dict[str, Permanent] = field(default_factory=dict)
    effects: list[Effect] = field(default_factory=list)
    stack: list[StackObject] = field(default_factory=list)
    exile: list[str] = field(default_factory=list)
    pending: list[StackObject] = field(default_factory=list)
    """Triggered abilities waiting to be put on the stack."""
    active: str = ""
    turn: int = 1
    position: int = 0
    """Index into :data:`POSITIONS`."""
    clock: int = 0
    cleanups: int = 0
    """Cleanup steps so far in the game."""
    cleanup_priority: bool = False
    """A player received priority during the current cleanup step."""
    combat: dict[str, Any] = field(default_factory=dict)
    notes: dict[str, str] = field(default_factory=dict)
    choices: dict[str, Any] = field(default_factory=dict)
    log: list[LogEntry] = field(default_factory=list)
    flags_read: dict[str, object] = field(default_factory=dict)
    next_id: int = 0
    rng: random.Random = field(default_factory=lambda: random.Random(0))

    # -- flags -------------------------------------------------------------------------
    def flag(self, name: str) -> Any:
        """The value of one flag; an undetermined flag stops the run with its name."""
        value = getattr(self.flags, name, None)
        if value is None:
            raise UndeterminedFlag(name)
        self.flags_read[name] = value
        return value

    # -- narration ---------------------------------------------------------------------
    def say(self, concept: str, text: str) -> None:
        """Log one step, citing the rules of this edition that cover ``concept``."""
        rules = self.cite(concept) if concept else ()
        self.log.append(LogEntry(text, rules, concept))

    # -- lookups -----------------------------------------------------------------------
    def tick(self) -> int:
        self.clock += 1
        return self.clock

    def new_id(self, prefix: str) -> str:
        self.next_id += 1
        return f"{prefix}-{self.next_id}"

    @property
    def phase(self) -> str:
        return POSITIONS[self.position][0]

    @property
    def step(self) -> str | None:
        return POSITIONS[self.position][1]

    @property
    def where(self) -> str:
        return position_name(self.phase, self.step)

    def player(self, pid: str) -> Player:
        try:
            return self.players[pid]
        except KeyError:
            raise EngineError(f"no player {pid!r}") from None

    def permanent(self, pid: str) -> Permanent:
        try:
            return self.battlefield[pid]
        except KeyError:
            raise EngineError(f"{pid!r} is not on the battlefield") from None

    def opponents(self, pid: str) -> list[str]:
        return [p for p in self.players if p != pid]

    def zone_of(self, card: str) -> str:
        """``battlefield``, ``graveyard``, ``hand``, ``library``, ``exile`` or ``none``."""
        if card in self.battlefield:
            return "battlefield"
        for p in self.players.values():
            for zone in ("graveyard", "hand", "library"):
                if card in getattr(p, zone):
                    return zone
        return "exile" if card in self.exile else "none"
