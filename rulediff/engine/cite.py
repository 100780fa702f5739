"""Rule citations: which rule of *this* edition covers a concept the engine applied.

The engine narrates in concepts (``legend-rule``, ``mana-burn``, ``step-draw``…). A
concept is found in an edition by what its text says — never by a fixed number, since
numbers move between editions (420.5e became 704.5k, then 704.5j). Each concept lists
alternatives tried in order; the first that matches a rule wins and the first such rule
in document order is cited. A concept an edition does not have cites nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import cache

from ..model import Edition, Rule


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
    "draw": (Find(r"^first, the active player draws a card"),
             Find(r"active player draws a card"), Find(r"^draw step$", "title")),
    "mana-add": (Find(r"mana goes into a player.s mana pool"), Find(r"^mana pool")),
    "mana-empties": (
        Find(r"(?:unused|unspent) mana left in a player.s mana pool (?:is lost|empties)"),
        Find(r"mana pools? empt"),
    ),
    "mana-burn": (Find(r"called mana burn"), Find(r"mana burn")),
    "cleanup-discard": (Find(r"^first, if the active player.s hand contains more cards than"),
                        Find(r"maximum hand size.{0,200}discard|discard.{0,80}maximum hand")),
    "cleanup-damage": (Find(r"all damage (?:marked on permanents )?.{0,40}is removed.{0,80}"
                            r"until end of turn"),),
    "cleanup-priority": (Find(r"another cleanup step begins"),),
    "cleanup-again": (Find(r"another cleanup step begins"),),
    "end-turn": (Find(r"skips? straight to the cleanup step"), Find(r"^ending the turn$", "title")),
    "end-turn-cleanup": (Find(r"ends the turn during the cleanup step"),),
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
    "sba-poison": (Find(r"(?:ten|10) or more poison counters", "sba"),),
    "sba-zero-toughness": (Find(r"toughness (?:0|zero) or less", "sba"),),
    "sba-lethal-damage": (Find(r"lethal damage|damage marked on it (?:is )?greater than or equal",
                               "sba"),),
    "sba-deathtouch": (Find(r"deathtouch", "sba"),),
    "sba-zero-loyalty": (Find(r"loyalty (?:0|zero)|(?:0|zero) loyalty", "sba"),),
    "sba-counters": (Find(r"\+1/\+1 counter and a -1/-1 counter", "sba"),),
    "legend-rule": (Find(r"legend rule|legendary permanents? with the same name"
                         r"|same name .{0,40}legendary", "sba"),),
    "planeswalker-uniqueness": (Find(r"share a planeswalker type", "sba"),),
    "world-rule": (Find(r"enchant worlds?|supertype world|world permanents?", "sba"),),
    # damage and combat
    "damage-player": (Find(r"^damage dealt to a player (?:by a source without infect )?"
                           r"(?:normally )?causes"),
                      Find(r"damage (?:dealt )?to a player.{0,60}los(?:e|s)")),
    "damage-creature": (Find(r"damage dealt to a creature by a source (?:with neither|without) "
                             r"wither.{0,40}marked"),
                        Find(r"^damage dealt to a creature stays"),
                        Find(r"damage (?:dealt )?to a creature.{0,60}(?:stays|remains|marked)")),
    "damage-planeswalker": (Find(r"damage dealt to a planeswalker causes that many loyalty"),),
    "deathtouch": (Find(r"^deathtouch is a (?:triggered|static) ability"),),
    "lifelink": (Find(r"damage dealt by a source with lifelink causes"),
                 Find(r"^lifelink is a (?:triggered|static) ability")),
    "planeswalker-redirection": (Find(r"noncombat damage would be dealt to a player by a source "
                                      r"controlled by an opponent"),),
    "declare-attackers": (Find(r"^declare attackers step$", "title"),),
    "declare-blockers": (Find(r"^declare blockers step$", "title"),),
    "damage-assignment-order": (Find(r"announces? .{0,40}damage assignment order"),),
    "assign-damage": (Find(r"^a blocked creature (?:will )?assigns? (?:its )?combat damage"),),
    "combat-damage": (Find(r"^combat damage step$", "title"),),
    "combat-damage-stack": (Find(r"combat damage (?:go|goes) on the stack"),
                            Find(r"combat damage resolves as though")),
    "combat-damage-now": (Find(r"combat damage that.s been assigned is dealt simultaneously"),),
    "mulligan": (Find(r"dissatisfied with (?:his or her|their) (?:initial )?hand may"),),
    "mulligan-scry": (Find(r"fewer cards than that player.s starting hand size may look at the "
                           r"top card"),),
    # power and toughness
    "pt-timestamp": (Find(r"if several dependent effects form a loop, or if none depends on "
                          r"another, they.re applied in .?timestamp order"),
                     Find(r"usually done using a timestamp system")),
    "pt-counters": (Find(r"(?:power or toughness changes due to|changes from) counters"),),
    "pt-switch": (Find(r"switch(?:es)? (?:a|the) creature.s power and toughness"),),
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
    return tuple(CONCEPTS)


class Citations:
    """Finds the rules of one edition for each concept (memoized per edition)."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        self._parents: dict[str, str] = {}
        self._found: dict[str, tuple[str, ...]] = {}

    def __call__(self, concept: str) -> tuple[str, ...]:
        if concept not in self._found:
            self._found[concept] = self._find(concept)
        return self._found[concept]

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
    """The citation finder of an edition (one per edition content, kept for the process)."""
    key = edition.sha256 or f"id:{id(edition)}"
    found = _BY_SHA.get(key)
    if found is None:
        found = _BY_SHA[key] = Citations(edition)
    return found
