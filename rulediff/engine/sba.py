"""State-based actions: checked whenever a player would receive priority.

All conditions are looked at together and every resulting action happens at once;
then the check repeats until nothing applies (so a legend that survives one check is
not looked at twice). The variants of the legend rule, the planeswalker uniqueness rule
and the counter rule come from the flags.
"""

from __future__ import annotations

from collections import defaultdict

from .layers import power_toughness
from .state import Game, Permanent


def check(game: Game) -> bool:
    """Perform state-based actions until none apply; ``True`` if any was performed."""
    performed = False
    while _check_once(game):
        performed = True
    return performed


def _check_once(game: Game) -> bool:
    doomed: dict[str, str] = {}  # permanent id -> concept that sends it away
    losers: list[tuple[str, str, str]] = []
    threshold = None
    for p in game.players.values():
        if p.lost:
            continue
        if p.life <= 0:
            losers.append((p.id, "sba-zero-life", f"{p.id} has {p.life} life and loses the game"))
        elif p.drew_from_empty:
            losers.append((p.id, "sba-empty-library",
                           f"{p.id} attempted to draw from an empty library and loses the game"))
        elif p.poison:
            threshold = threshold or game.flag("poison_threshold")
            if p.poison >= threshold:
                losers.append((p.id, "sba-poison",
                               f"{p.id} has {p.poison} poison counters and loses the game"))
    for perm in game.battlefield.values():
        if perm.is_a("creature"):
            power, toughness = power_toughness(game, perm)
            if toughness <= 0:
                doomed[perm.id] = "sba-zero-toughness"
            elif perm.damage >= toughness:
                doomed[perm.id] = "sba-lethal-damage"
            elif perm.deathtouch_damage:
                doomed[perm.id] = "sba-deathtouch"
        if perm.is_a("planeswalker") and perm.counters.get("loyalty", 0) <= 0:
            doomed[perm.id] = "sba-zero-loyalty"
    _legend_rule(game, doomed)
    _planeswalker_uniqueness(game, doomed)
    _world_rule(game, doomed)
    annihilate = _counters(game)
    if not (doomed or losers or annihilate):
        return False
    for pid, concept, text in losers:
        game.players[pid].lost = True
        game.players[pid].drew_from_empty = False
        game.say(concept, text)
    for perm_id, n in annihilate:
        perm = game.battlefield[perm_id]
        for kind in ("+1/+1", "-1/-1"):
            perm.counters[kind] -= n
            if not perm.counters[kind]:
                del perm.counters[kind]
        game.say("sba-counters", f"{perm_id} loses {n} +1/+1 and {n} -1/-1 counters (pairs cancel)")
    for perm_id, concept in doomed.items():
        fate = "is destroyed" if concept in _DESTROYED else "is put into its owner's graveyard"
        game.say(concept, f"{perm_id} {fate} ({_WHY[concept]})")
    for perm_id in doomed:
        leave_battlefield(game, perm_id, "graveyard")
    for perm in game.battlefield.values():
        perm.deathtouch_damage = False
    return True


_DESTROYED = {"sba-lethal-damage", "sba-deathtouch"}
_WHY = {
    "sba-zero-toughness": "toughness 0 or less",
    "sba-lethal-damage": "lethal damage",
    "sba-deathtouch": "damage from a source with deathtouch",
    "sba-zero-loyalty": "no loyalty counters",
    "legend-rule": "legend rule",
    "planeswalker-uniqueness": "planeswalker uniqueness rule",
    "world-rule": "world rule",
}


def leave_battlefield(game: Game, perm_id: str, zone: str) -> None:
    """Move a permanent to its owner's ``graveyard`` (or ``exile``); its effects end."""
    perm = game.battlefield.pop(perm_id)
    if zone == "graveyard":
        game.players[perm.owner].graveyard.append(perm_id)
    else:
        game.exile.append(perm_id)
    game.effects = [
        e for e in game.effects if e.target != perm_id and not (e.static and e.source == perm_id)
    ]


def _keep(game: Game, group: list[Permanent], concept: str) -> Permanent:
    """The one a player chooses to keep: the scenario's choice, else the newest."""
    wanted = set(game.choices.get("keep", ()))
    chosen = [p for p in group if p.id in wanted]
    keep = chosen[0] if chosen else max(group, key=lambda p: p.timestamp)
    ids = ", ".join(p.id for p in group)
    game.say(concept, f"{keep.controller} chooses to keep {keep.id} among {ids}")
    return keep


def _legend_rule(game: Game, doomed: dict[str, str]) -> None:
    groups: dict[tuple[str, ...], list[Permanent]] = defaultdict(list)
    variant = None
    for perm in game.battlefield.values():
        if "legendary" in perm.supertypes or "Legend" in perm.subtypes:
            variant = variant or game.flag("legend_rule")
            key = (perm.name,) if variant != "controller-chooses" else (perm.controller, perm.name)
            groups[key].append(perm)
    for group in groups.values():
        if len(group) < 2:
            continue
        if variant == "all-die":
            survivors: list[Permanent] = []
        elif variant == "oldest-stays":
            oldest = min(p.timestamp for p in group)
            firsts = [p for p in group if p.timestamp == oldest]
            survivors = firsts if len(firsts) == 1 else []  # a tie: all go
        else:
            survivors = [_keep(game, group, "legend-rule")]
        for p in group:
            if p not in survivors:
                doomed.setdefault(p.id, "legend-rule")


def _planeswalker_uniqueness(game: Game, doomed: dict[str, str]) -> None:
    walkers = [p for p in game.battlefield.values() if p.is_a("planeswalker")]
    if len(walkers) < 2:
        return
    variant = game.flag("planeswalker_uniqueness")
    if variant == "absent":
        return
    by_type: dict[tuple[str, ...], list[Permanent]] = defaultdict(list)
    for p in walkers:
        for sub in p.subtypes:
            key = (sub,) if variant == "all-die" else (p.controller, sub)
            by_type[key].append(p)
    for group in by_type.values():
        if len(group) < 2:
            continue
        keep = [] if variant == "all-die" else [_keep(game, group, "planeswalker-uniqueness")]
        for p in group:
            if p not in keep:
                doomed.setdefault(p.id, "planeswalker-uniqueness")


def _world_rule(game: Game, doomed: dict[str, str]) -> None:
    worlds = [p for p in game.battlefield.values() if "world" in p.supertypes]
    if len(worlds) < 2:
        return
    newest = max(p.timestamp for p in worlds)
    lasts = [p for p in worlds if p.timestamp == newest]
    for p in worlds:
        if len(lasts) > 1 or p.timestamp != newest:
            doomed.setdefault(p.id, "world-rule")


def _counters(game: Game) -> list[tuple[str, int]]:
    both = [
        (p.id, min(p.counters.get("+1/+1", 0), p.counters.get("-1/-1", 0)))
        for p in game.battlefield.values()
    ]
    both = [(pid, n) for pid, n in both if n]
    if both and game.flag("counter_annihilation"):
        return both
    return []
