"""The turn: moving through steps and phases, mana pools, cleanup, ending the turn.

What happens as a step or phase ends depends on two flags: ``mana_empties`` (pools
empty at the end of each step, or only of each phase) and ``mana_burn`` (lost mana
costs life).
"""

from __future__ import annotations

from ..errors import EngineError
from . import sba
from .state import POSITIONS, Game, position_name


def draw(game: Game, pid: str, n: int = 1, concept: str = "draw-card") -> None:
    """Draw ``n`` cards; drawing from an empty library is remembered for the SBA."""
    player = game.player(pid)
    for _ in range(n):
        if not player.library:
            player.drew_from_empty = True
            game.say("draw-empty", f"{pid} attempts to draw from an empty library")
            continue
        player.hand.append(player.library.pop(0))
    game.say(concept, f"{pid} draws {n} card{'s' if n != 1 else ''} (hand {len(player.hand)})")


def empty_pools(game: Game, why: str) -> None:
    """Unspent mana is lost; with mana burn, each mana lost costs 1 life."""
    burn = None
    for p in game.players.values():
        if not p.mana:
            continue
        lost, p.mana = len(p.mana), []
        game.say("mana-empties", f"{p.id}'s mana pool empties as {why} ({lost} mana lost)")
        burn = game.flag("mana_burn") if burn is None else burn
        if burn:
            p.life -= lost
            game.say("mana-burn", f"mana burn: {p.id} loses {lost} life (life {p.life})")


def end_position(game: Game) -> None:
    """End the current step (and its phase, if it is the phase's last step)."""
    if not any(p.mana for p in game.players.values()):
        return  # nothing to empty: the flags don't matter
    phase, step = POSITIONS[game.position]
    last_of_phase = (
        game.position + 1 == len(POSITIONS) or POSITIONS[game.position + 1][0] != phase
    )
    if step is not None and not last_of_phase:
        if game.flag("mana_empties") == "step":
            empty_pools(game, f"the {step} step ends")
        return
    if step is not None and game.flag("mana_empties") == "step":
        empty_pools(game, f"the {step} step and the {phase} phase end")
    else:
        empty_pools(game, f"the {phase} phase ends")


def begin_position(game: Game) -> None:
    """Turn-based actions at the start of a step, then state-based actions."""
    game.say(f"step-{game.where}", f"turn {game.turn} ({game.active}): {game.where}")
    step = game.step
    if step == "untap":
        return
    if step == "draw":
        draw(game, game.active, concept="draw")
    if step == "combat-damage":
        from .combat import combat_damage_step

        combat_damage_step(game)
    if step == "end-of-combat":
        game.combat.clear()
    if step == "cleanup":
        cleanup(game)
        return
    settle(game)


def advance(game: Game) -> None:
    """Go to the next step or phase; after cleanup, another cleanup or the next turn."""
    end_position(game)
    if game.step == "cleanup":
        if game.cleanup_priority:
            game.say("cleanup-again", "all players passed with an empty stack: "
                     "another cleanup step begins")
        else:
            next_turn(game)
    else:
        game.position += 1
    begin_position(game)


def goto(game: Game, where: str) -> None:
    """Advance until the named step or phase (``draw``, ``precombat-main``…) is current."""
    names = [position_name(*pos) for pos in POSITIONS]
    if where not in names:
        raise EngineError(f"unknown step or phase {where!r} (one of: {', '.join(names)})")
    for _ in range(2 * len(POSITIONS)):
        if game.where == where:
            return
        advance(game)
    if game.where != where:
        raise EngineError(f"{where} was not reached within two turns")


def next_turn(game: Game) -> None:
    game.say("turn-ends", f"turn {game.turn} ends")
    others = game.opponents(game.active)
    game.active = others[0] if others else game.active
    game.turn += 1
    game.position = 0


def cleanup(game: Game) -> None:
    """The cleanup step: discard to hand size, remove damage, end "until end of turn"."""
    game.cleanups += 1
    game.cleanup_priority = False
    player = game.player(game.active)
    limit = game.flag("max_hand_size")
    if len(player.hand) > limit:
        excess = len(player.hand) - limit
        discarded, player.hand = player.hand[limit:], player.hand[:limit]
        player.graveyard.extend(discarded)
        game.say("cleanup-discard", f"{player.id} discards {excess} down to {limit} cards")
    for perm in game.battlefield.values():
        perm.damage = 0
    game.effects = [e for e in game.effects if e.until != "end-of-turn"]
    game.say("cleanup-damage", "damage wears off and \"until end of turn\" effects end")
    settle(game)


def settle(game: Game) -> bool:
    """Before a player gets priority: SBAs, then waiting triggers go on the stack.

    Returns whether anything happened (which, in the cleanup step, gives priority).
    """
    happened = sba.check(game)
    if game.pending:
        happened = True
        for obj in game.pending:
            game.stack.append(obj)
            game.say("trigger", f"{obj.text} is put on the stack")
        game.pending.clear()
    if happened and game.step == "cleanup" and not game.cleanup_priority:
        game.cleanup_priority = True
        game.say("cleanup-priority", f"{game.active} receives priority during the cleanup step")
    return happened


def end_turn(game: Game) -> None:
    """An effect ends the turn: exile the stack, check SBAs, skip to the cleanup step."""
    for obj in reversed(game.stack):
        game.say("end-turn", f"{obj.text} is exiled from the stack")
    game.stack.clear()
    game.combat.clear()
    sba.check(game)
    in_cleanup = game.step == "cleanup"
    end_position(game)
    game.say("end-turn", f"the turn is ended during the {game.where} step"
             if game.step else f"the turn is ended during the {game.where} phase")
    if in_cleanup and not game.flag("cleanup_repeats_after_end_turn"):
        game.say("end-turn", "the cleanup step ends and, with it, the turn")
        next_turn(game)
        begin_position(game)
        return
    if in_cleanup:
        game.say("end-turn-cleanup", "the turn was ended during the cleanup step: "
                 "a new cleanup step begins")
    game.position = len(POSITIONS) - 1
    begin_position(game)
