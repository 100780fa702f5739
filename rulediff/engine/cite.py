"""Rule citations: which rule of *this* edition covers a concept the engine applied.

The engine narrates in concepts (``legend-rule``, ``mana-burn``, ``step-draw``…). A
concept that a behaviour flag decides is cited from that flag's provenance
(:meth:`rulediff.flags.FlagSet.provenance`): the engine cites the very rules the flag was
read from, so the two can never disagree. The other concepts are found by the
document's structure, never by a fixed number (numbers move between editions): a
step's or phase's own heading, an item of the state-based actions list, the layer
labels, or the first rule that uses a concept's key words. A concept an edition does
not have cites nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any

from ..model import Edition, Rule

FLAG_CONCEPTS: dict[str, str] = {
    "mana-burn": "mana_burn",
    "mana-empties": "mana_empties",
    "combat-damage-stack": "combat_damage_uses_stack",
    "combat-damage-now": "combat_damage_uses_stack",
    "damage-assignment-order": "damage_assignment_order",
    "assign-damage": "damage_assignment_order",
    "legend-rule": "legend_rule",
    "planeswalker-uniqueness": "planeswalker_uniqueness",
    "planeswalker-redirection": "planeswalker_damage_redirection",
    "mulligan": "mulligan",
    "mulligan-scry": "mulligan",
    "pt-switch": "pt_switch_sublayer",
    "deathtouch": "deathtouch",
    "lifelink": "lifelink",
    "end-turn-cleanup": "cleanup_repeats_after_end_turn",
    "sba-counters": "counter_annihilation",
    "sba-poison": "poison_threshold",
}
"""Concepts a behaviour flag decides: cited from the flag's provenance."""


@dataclass(frozen=True, slots=True)
class Find:
    """One way to find a concept: a pattern over a rule's text (or heading title).

    ``scope``: ``text`` (any rule), ``title`` (a heading's title), ``sba`` (a rule in
    the list of state-based actions/effects).
    """

    pattern: str
    scope: str = "text"


_EMPTY_LIBRARY = (r"draw (?:a card )?from (?:a library with no cards|an empty library)"
                  r"|attempted to draw|required to draw more cards than")
_SBA_LIST = re.compile(r"state-based (?:effects|actions) are(?: as follows)?:", re.I)

CONCEPTS: dict[str, tuple[Find, ...]] = {
    # turn structure: the step's or phase's own heading
    "step-untap": (Find(r"^untap step$", "title"),),
    "step-upkeep": (Find(r"^upkeep step$", "title"),),
    "step-draw": (Find(r"^draw step$", "title"),),
    "step-precombat-main": (Find(r"^main phase$", "title"),),
    "step-postcombat-main": (Find(r"^main phase$", "title"),),
    "step-beginning-of-combat": (Find(r"^beginning of combat step$", "title"),),
    "step-declare-attackers": (Find(r"^declare attackers step$", "title"),),
    "step-declare-blockers": (Find(r"^declare blockers step$", "title"),),
    "step-combat-damage": (Find(r"^combat damage step$", "title"),),
    "step-end-of-combat": (Find(r"^end of combat step$", "title"),),
    "step-end": (Find(r"^end(?: of turn)? step$", "title"),),
    "step-cleanup": (Find(r"^cleanup step$", "title"),),
    "draw": (Find(r"^first,.{0,20}\bdraws a card"), Find(r"active player draws a card"),
             Find(r"^draw step$", "title")),
    "draw-card": (Find(r"^a player draws a card by\b"),),
    "enter": (Find(r"^an object receives a timestamp\b.{0,30}\benters a zone"),
              Find(r"timestamp is the time it (?:entered|came into|enters)")),
    "effect-timestamp": (Find(r"\bresolution of a spell or ability\b.{0,20}\btimestamp"),),
    "counters": (Find(r"^a \+X/\+Y counter on a"), Find(r"\+X/\+Y counter on a permanent")),
    "mana-add": (Find(r"mana goes into a player.s mana pool"), Find(r"^mana pool")),
    "cleanup-discard": (Find(r"^first,.{0,60}\bhand contains more cards than"),
                        Find(r"maximum hand size.{0,200}discard|discard.{0,80}maximum hand")),
    "cleanup-damage": (Find(r"all damage (?:marked on permanents )?.{0,40}is removed.{0,80}"
                            r"until end of turn"),),
    "cleanup-priority": (Find(r"another cleanup step begins"),),
    "cleanup-again": (Find(r"another cleanup step begins"),),
    "end-turn": (Find(r"skips? straight to the cleanup step"), Find(r"^ending the turn$", "title")),
    "trigger": (Find(r"^once an ability has triggered, (?:its controller puts it|it goes) on the "
                     r"stack"),
                Find(r"^handling triggered abilities$", "title")),
    "resolve": (Find(r"all players pass in succession.{0,80}(?:top|resolves)"),
                Find(r"both players pass in succession, the top")),
    "counter-ability": (Find(r"^to counter a spell or ability means"),
                        Find(r"^to counter a spell")),
    "sacrifice": (Find(r"^to sacrifice a permanent"),),
    # state-based actions
    "sba-zero-life": (Find(r"(?:0|zero) (?:or less )?life(?: or less)?"
                           r"|life total (?:of )?(?:0|zero)", "sba"),),
    "sba-empty-library": (Find(_EMPTY_LIBRARY, "sba"),),
    "draw-empty": (Find(_EMPTY_LIBRARY, "sba"),),
    "sba-zero-toughness": (Find(r"toughness (?:0|zero) or less", "sba"),),
    "sba-lethal-damage": (Find(r"lethal damage|damage marked on it (?:is )?greater than or equal",
                               "sba"),),
    "sba-deathtouch": (Find(r"deathtouch", "sba"),),
    "sba-zero-loyalty": (Find(r"loyalty (?:0|zero)|(?:0|zero) loyalty", "sba"),),
    "world-rule": (Find(r"enchant worlds?|supertype world|world permanents?", "sba"),),
    # damage and combat
    "damage-player": (Find(r"^damage dealt to a player\b.{0,40}\bcauses"),
                      Find(r"damage (?:dealt )?to a player.{0,60}los(?:e|s)")),
    "damage-creature": (Find(r"damage dealt to a creature by a source\b.{0,40}\bwither.{0,40}"
                             r"marked"),
                        Find(r"^damage dealt to a creature stays"),
                        Find(r"damage (?:dealt )?to a creature.{0,60}(?:stays|remains|marked)")),
    "damage-planeswalker": (Find(r"damage dealt to a planeswalker causes that many loyalty"),),
    "declare-attackers": (Find(r"^declare attackers step$", "title"),),
    "declare-blockers": (Find(r"^declare blockers step$", "title"),),
    "combat-damage": (Find(r"^combat damage step$", "title"),),
    # power and toughness
    "pt-timestamp": (Find(r"\bdependent effects form a loop\b.{0,60}timestamp order"),
                     Find(r"using a timestamp system")),
    "pt-counters": (Find(r"(?:power or toughness changes due to|changes from) counters"),),
    "pt-6b": (Find(r"\(6b\)"),),
    "pt-6c": (Find(r"\(6c\)"),),
    "pt-6d": (Find(r"\(6d\)"),),
    "pt-6e": (Find(r"\(6e\)"),),
    "pt-7b": (Find(r"^layer 7b"),),
    "pt-7c": (Find(r"^layer 7c"),),
    "pt-7d": (Find(r"^layer 7d"),),
    "pt-7e": (Find(r"^layer 7e"),),
}


def concepts() -> tuple[str, ...]:
    return (*CONCEPTS, *FLAG_CONCEPTS)


class Citations:
    """Finds the rules of one edition for each concept (memoized per edition).

    ``flags``: the edition's :class:`~rulediff.flags.FlagSet`; the concepts of
    :data:`FLAG_CONCEPTS` cite the rules its provenance names (nothing without it).
    """

    def __init__(self, edition: Edition, flags: Any = None) -> None:
        self.edition = edition
        self.flags = flags
        self._parents: dict[str, str] = {}
        self._found: dict[str, tuple[str, ...]] = {}

    def __call__(self, concept: str) -> tuple[str, ...]:
        if concept not in self._found:
            flag = FLAG_CONCEPTS.get(concept)
            self._found[concept] = self._from_flag(flag) if flag else self._find(concept)
        return self._found[concept]

    def _from_flag(self, name: str) -> tuple[str, ...]:
        provenance = getattr(self.flags, "provenance", None)
        if provenance is None:
            return ()
        rules, _text = provenance(name)
        return tuple(r for r in rules if not r.startswith("glossary:"))[:2]

    def _parent_text(self, rule: Rule) -> str:
        parent = rule.id.parent
        if parent is None:
            return ""
        key = str(parent)
        if key not in self._parents:
            found = self.edition.rule(parent)
            self._parents[key] = found.text if found is not None else ""
        return self._parents[key]

    def _find(self, concept: str) -> tuple[str, ...]:
        for find in CONCEPTS.get(concept, ()):
            pattern = _compiled(find.pattern)
            for rule in self.edition.rules:
                if find.scope == "title":
                    if rule.title and pattern.search(rule.title.strip()):
                        return (str(rule.id),)
                    continue
                if find.scope == "sba" and not _SBA_LIST.search(self._parent_text(rule)):
                    continue
                if pattern.search(rule.text):
                    return (str(rule.id),)
        return ()


@cache
def _compiled(pattern: str) -> re.Pattern[str]:
    return re.compile(pattern, re.I | re.S)


_BY_SHA: dict[str, Citations] = {}


def citations(edition: Edition) -> Citations:
    """The citation finder of an edition (one per edition content, kept for the process),
    citing from the flags derived from the edition's own text."""
    from ..flags.timeline import cached_flags_for

    key = edition.sha256 or f"id:{id(edition)}"
    found = _BY_SHA.get(key)
    if found is None or found.edition is not edition and not edition.sha256:
        found = _BY_SHA[key] = Citations(edition, cached_flags_for(edition))
    return found
