"""Rule citations: which rule of *this* edition covers a concept the engine applied.

The engine narrates in concepts (``legend-rule``, ``mana-burn``, ``step-draw``…). A
concept that a behaviour flag decides is cited from that flag's provenance
(:meth:`rulediff.flags.FlagSet.provenance`): the engine cites the very rules the flag was
read from, so the two can never disagree. The other concepts are found by the
document's structure, never by a fixed number (numbers move between editions): a
step's or phase's own heading, an item of the state-based actions list, the first rule
below a heading ("Cleanup Step", "Sacrifice", "Interaction of Continuous Effects"…)
that has the concept's key words (older layouts: the heading that held the rule then,
"Creatures", "General"). Nothing is searched for in the whole text. A concept an
edition does not have cites nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache
from typing import Any, Literal

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
    """One way to find a concept by its place in the document.

    ``scope``: ``title`` (a heading whose title matches ``pattern``), ``sba`` (an item
    of the list of state-based actions/effects whose text has ``pattern``), ``under``
    (the first rule below a heading titled ``heading`` whose text has ``pattern``).
    There is no search of the whole text: a concept outside its place cites nothing.
    """

    pattern: str
    scope: Literal["title", "sba", "under"]
    heading: str = ""


def under(heading: str, pattern: str = "") -> Find:
    """The first rule below a heading (titled ``heading``) whose text has ``pattern``."""
    return Find(pattern, "under", heading)


_EMPTY_LIBRARY = (r"draw (?:a card )?from (?:a library with no cards|an empty library)"
                  r"|attempted to draw|required to draw more cards than")
_LAYERS = r"interaction of continuous effects"
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
    "draw": (under(r"draw step", r"\bdraws a card"), Find(r"^draw step$", "title")),
    "draw-card": (under(r"drawing a card"),),
    "enter": (under(_LAYERS, r"\btimestamp\b.{0,60}\benter"),
              under(_LAYERS, r"timestamp is the time it (?:entered|came into|enters)")),
    "effect-timestamp": (
        under(_LAYERS, r"\bresolution of a spell or ability\b.{0,20}\btimestamp"),
    ),
    "counters": (under(r"counters", r"\+X/\+Y counter"),
                 under(r"general", r"\+X/\+Y counter on a permanent")),
    "mana-add": (under(r"mana", r"\bmana pool\b"),),
    "cleanup-discard": (under(r"cleanup step", r"\bdiscard"),),
    "cleanup-damage": (
        under(r"cleanup step", r"\bdamage\b.{0,80}\bremoved|\bremoved?\b.{0,40}damage"),
    ),
    "cleanup-priority": (under(r"cleanup step", r"another cleanup step"),),
    "cleanup-again": (under(r"cleanup step", r"another cleanup step"),),
    "end-turn": (under(r"ending (?:the turn|turns and phases)", r"\bcleanup step\b"),
                 Find(r"^ending the turn$", "title")),
    "trigger": (under(r"handling triggered abilities", r"^once an ability has triggered\b"),
                Find(r"^handling triggered abilities$", "title")),
    "resolve": (under(r"stack|timing and priority", r"\bpass in succession\b.{0,80}"
                      r"(?:top|resolves)"),),
    "counter-ability": (under(r"counter|countering spells and abilities", r"^to counter\b"),),
    "sacrifice": (under(r"sacrifice", r"^to sacrifice\b"),),
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
    "damage-player": (under(r"damage|life", r"^damage dealt to a player\b"),),
    "damage-creature": (
        under(r"damage|creatures?", r"^damage dealt to a creature\b.{0,80}\bmarked"),
        under(r"creatures?", r"^damage dealt to a creature\b.{0,60}\b(?:stays|remains)"),
    ),
    "damage-planeswalker": (under(r"damage|planeswalkers?",
                                  r"^damage dealt to a planeswalker\b.{0,40}\bloyalty"),),
    "declare-attackers": (Find(r"^declare attackers step$", "title"),),
    "declare-blockers": (Find(r"^declare blockers step$", "title"),),
    "combat-damage": (Find(r"^combat damage step$", "title"),),
    # power and toughness
    "pt-timestamp": (under(_LAYERS, r"\bdependent effects form a loop\b.{0,60}timestamp order"),
                     under(_LAYERS, r"using a timestamp system")),
    "pt-counters": (under(_LAYERS, r"(?:power or toughness changes due to|changes from) "
                                   r"counters"),),
    # the sublayers: labels of the enumerated list in the layers rule
    "pt-6b": (under(_LAYERS, r"\(6b\)"),),
    "pt-6c": (under(_LAYERS, r"\(6c\)"),),
    "pt-6d": (under(_LAYERS, r"\(6d\)"),),
    "pt-6e": (under(_LAYERS, r"\(6e\)"),),
    "pt-7b": (under(_LAYERS, r"^layer 7b"),),
    "pt-7c": (under(_LAYERS, r"^layer 7c"),),
    "pt-7d": (under(_LAYERS, r"^layer 7d"),),
    "pt-7e": (under(_LAYERS, r"^layer 7e"),),
}


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

    def _under(self, find: Find) -> tuple[str, ...]:
        heading = re.compile(rf"^(?:{find.heading})$", re.I)
        pattern = _compiled(find.pattern)
        for rule in self.edition.rules:
            if rule.title and heading.search(rule.title.strip()):
                for below in (rule, *self.edition.descendants(rule.id)):
                    if below is not rule or rule.text.strip() != rule.title.strip():
                        if pattern.search(below.text):
                            return (str(below.id),)
        return ()

    def _find(self, concept: str) -> tuple[str, ...]:
        for find in CONCEPTS.get(concept, ()):
            if find.scope == "under":
                found = self._under(find)
                if found:
                    return found
                continue
            pattern = _compiled(find.pattern)
            for rule in self.edition.rules:
                if find.scope == "title":
                    if rule.title and pattern.search(rule.title.strip()):
                        return (str(rule.id),)
                elif _SBA_LIST.search(self._parent_text(rule)) and pattern.search(rule.text):
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
