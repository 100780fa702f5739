"""Damage and combat: assignment, the combat damage step, deathtouch, lifelink, redirection.

Flags read here: ``damage_assignment_order`` (blockers are ordered and lethal damage is
assigned in that order), ``combat_damage_uses_stack`` (assigned combat damage waits on
the stack), ``deathtouch`` and ``lifelink`` (absent, triggered or static) and
``planeswalker_damage_redirection``.
"""

from __future__ import annotations

from dataclasses import dataclass

from ..errors import EngineError
from .layers import power_toughness
from .sba import leave_battlefield
from .state import Game, Permanent, StackObject


@dataclass(frozen=True, slots=True)
class Source:
    """A damage source as it last existed (last known information)."""

    id: str
    controller: str
    keywords: tuple[str, ...] = ()


def source_of(game: Game, perm: Permanent) -> Source:
    return Source(perm.id, perm.controller, perm.keywords)


# --- dealing damage ---------------------------------------------------------------------
def deal_damage(game: Game, source: Source, target: str, amount: int, *, combat: bool) -> None:
    """Deal damage to a player, creature or planeswalker, with its keyword results."""
    if amount <= 0:
        return
    what = "combat damage" if combat else "damage"
    if target in game.players:
        player = game.players[target]
        player.life -= amount
        game.say("damage-player", f"{source.id} deals {amount} {what} to {target} "
                 f"(life {player.life})")
    elif target in game.battlefield:
        perm = game.battlefield[target]
        if perm.is_a("creature"):
            perm.damage += amount
            game.say("damage-creature", f"{source.id} deals {amount} {what} to {target} "
                     f"(damage marked {perm.damage})")
        if perm.is_a("planeswalker"):
            loyalty = perm.counters.get("loyalty", 0)
            perm.counters["loyalty"] = max(0, loyalty - amount)
            game.say("damage-planeswalker", f"{source.id} deals {amount} {what} to {target}, "
                     f"removing loyalty counters (loyalty {perm.counters['loyalty']})")
        if perm.is_a("creature") and "deathtouch" in source.keywords:
            _deathtouch(game, source, perm)
    else:
        game.say("", f"{target} is gone: the {what} from {source.id} is not dealt")
        return
    if "lifelink" in source.keywords:
        _lifelink(game, source, amount)


def _deathtouch(game: Game, source: Source, victim: Permanent) -> None:
    mode = game.flag("deathtouch")
    if mode == "static":
        victim.deathtouch_damage = True
    elif mode == "triggered":

        def destroy(g: Game) -> None:
            if victim.id in g.battlefield:
                g.say("deathtouch", f"deathtouch trigger resolves: {victim.id} is destroyed")
                leave_battlefield(g, victim.id, "graveyard")
            else:
                g.say("deathtouch", f"deathtouch trigger resolves: {victim.id} is gone")

        game.pending.append(StackObject(game.new_id("trigger"), "trigger", source.controller,
                                        f"{source.id}'s deathtouch trigger ({victim.id})",
                                        destroy))
    else:
        game.say("", f"deathtouch has no rules meaning in this rule set ({source.id})")


def _lifelink(game: Game, source: Source, amount: int) -> None:
    mode = game.flag("lifelink")
    if mode == "static":
        gain_life(game, source.controller, amount, f"lifelink of {source.id}")
    elif mode == "triggered":
        game.pending.append(StackObject(
            game.new_id("trigger"), "trigger", source.controller,
            f"{source.id}'s lifelink trigger ({amount})",
            lambda g: gain_life(g, source.controller, amount, f"lifelink trigger of {source.id}"),
        ))
    else:
        game.say("", f"lifelink has no rules meaning in this rule set ({source.id})")


def gain_life(game: Game, pid: str, amount: int, why: str) -> None:
    player = game.player(pid)
    player.life += amount
    game.say("lifelink", f"{pid} gains {amount} life from {why} (life {player.life})")


def noncombat_damage(game: Game, source: Source, target: str, amount: int,
                     redirect_to: str | None) -> None:
    """Damage from a spell or ability, with planeswalker redirection when it exists."""
    if (redirect_to and target in game.players and source.controller != target
            and game.flag("planeswalker_damage_redirection")):
        walker = game.battlefield.get(redirect_to)
        if walker is not None and walker.is_a("planeswalker") and walker.controller == target:
            game.say("planeswalker-redirection",
                     f"{source.controller} has the damage to {target} dealt to {redirect_to}")
            target = redirect_to
    elif redirect_to:
        game.say("", f"damage to {target} can't be redirected to {redirect_to} in this rule set")
    deal_damage(game, source, target, amount, combat=False)


# --- declaring and assigning ------------------------------------------------------------
def declare_attackers(game: Game, attackers: list[str], defender: str) -> None:
    game.combat = {"attacking": {a: defender for a in attackers}, "blocks": {}, "order": {},
                   "assigned": {}}
    for a in attackers:
        game.permanent(a)
    game.say("declare-attackers", f"{game.active} attacks {defender} with {', '.join(attackers)}")


def declare_blockers(game: Game, blocks: dict[str, str]) -> None:
    attacking = game.combat.get("attacking", {})
    for blocker, attacker in blocks.items():
        game.permanent(blocker)
        if attacker not in attacking:
            raise EngineError(f"{blocker} can't block {attacker}: it is not attacking")
        game.combat["blocks"].setdefault(attacker, []).append(blocker)
        game.say("declare-blockers", f"{blocker} blocks {attacker}")


def order_blockers(game: Game, attacker: str, order: list[str]) -> None:
    blockers = game.combat.get("blocks", {}).get(attacker, [])
    if sorted(order) != sorted(blockers):
        raise EngineError(f"the order for {attacker} must list its blockers {blockers}")
    if game.flag("damage_assignment_order"):
        game.combat["order"][attacker] = list(order)
        game.say("damage-assignment-order",
                 f"{game.active} orders the blockers of {attacker}: {', '.join(order)}")
    else:
        game.combat["blocks"][attacker] = list(order)
        game.say("assign-damage", f"no damage assignment order exists in this rule set; "
                 f"{attacker}'s damage may be divided freely")


def _lethal(game: Game, source: Source, blocker: str) -> int:
    perm = game.battlefield[blocker]
    toughness = power_toughness(game, perm)[1]
    if "deathtouch" in source.keywords and game.flag("deathtouch") == "static":
        return 1
    return max(toughness - perm.damage, 0)


def check_assignment(game: Game, attacker: str, split: dict[str, int]) -> str | None:
    """Why an attacker's proposed assignment is illegal, or ``None`` if it is legal."""
    perm = game.permanent(attacker)
    power = power_toughness(game, perm)[0]
    blockers = game.combat["blocks"].get(attacker, [])
    defender = game.combat["attacking"][attacker]
    if sum(split.values()) != power:
        return f"it must assign all {power} of its combat damage"
    trample = "trample" in perm.keywords
    blocked = attacker in game.combat["blocks"]
    for target in split:
        legal = target in blockers or (target == defender and (trample or not blocked))
        if not legal:
            return f"{target} is not a legal recipient"
    src = source_of(game, perm)
    order = game.combat["order"].get(attacker)
    if order is not None:
        for i, blocker in enumerate(order):
            if split.get(blocker, 0) and any(
                split.get(b, 0) < _lethal(game, src, b) for b in order[:i]
            ):
                return f"{blocker} comes after a blocker not assigned lethal damage"
    if split.get(defender, 0) and any(split.get(b, 0) < _lethal(game, src, b) for b in blockers):
        return "trample damage needs lethal damage assigned to every blocker"
    return None


def assign(game: Game, attacker: str, split: dict[str, int], note: str) -> None:
    problem = check_assignment(game, attacker, split)
    text = ", ".join(f"{n} to {t}" for t, n in split.items())
    concept = "damage-assignment-order" if game.combat["order"].get(attacker) else "assign-damage"
    if problem:
        game.notes[note] = "illegal"
        game.say(concept, f"assigning {text} for {attacker} is illegal: {problem}")
    else:
        game.notes[note] = "legal"
        game.combat["assigned"][attacker] = dict(split)
        game.say(concept, f"{game.active} assigns {attacker}'s combat damage: {text}")


def _default_split(game: Game, attacker: str) -> dict[str, int]:
    perm = game.battlefield[attacker]
    power = power_toughness(game, perm)[0]
    defender = game.combat["attacking"][attacker]
    blockers = [b for b in game.combat["order"].get(attacker) or
                game.combat["blocks"].get(attacker, []) if b in game.battlefield]
    if attacker not in game.combat["blocks"]:
        return {defender: power}
    split: dict[str, int] = {}
    left = power
    src = source_of(game, perm)
    for b in blockers:
        n = min(left, _lethal(game, src, b))
        split[b] = n
        left -= n
    if left and "trample" in perm.keywords:
        split[defender] = split.get(defender, 0) + left
    elif left and blockers:
        split[blockers[-1]] += left
    return split


# --- the combat damage step -------------------------------------------------------------
def combat_damage_step(game: Game) -> None:
    """Assign all combat damage, then deal it now or put it on the stack."""
    if not game.combat.get("attacking"):
        return
    events: list[tuple[Source, str, int]] = []
    for attacker in game.combat["attacking"]:
        if attacker not in game.battlefield:
            continue
        split = game.combat["assigned"].get(attacker) or _default_split(game, attacker)
        src = source_of(game, game.battlefield[attacker])
        events += [(src, target, n) for target, n in split.items() if n > 0]
    for attacker, blockers in game.combat["blocks"].items():
        for b in blockers:
            if b in game.battlefield:
                power = power_toughness(game, game.battlefield[b])[0]
                events.append((source_of(game, game.battlefield[b]), attacker, power))
    text = "; ".join(f"{s.id}: {n} to {t}" for s, t, n in events)

    def deal(g: Game) -> None:
        g.say("combat-damage", "combat damage is dealt")
        for src, target, n in events:
            deal_damage(g, src, target, n, combat=True)

    if game.flag("combat_damage_uses_stack"):
        game.stack.append(StackObject(game.new_id("damage"), "combat-damage", game.active,
                                      "combat damage", deal))
        game.say("combat-damage-stack", f"combat damage is assigned and put on the stack ({text})")
    else:
        game.say("combat-damage-now", f"combat damage is assigned and dealt at once ({text})")
        deal(game)
