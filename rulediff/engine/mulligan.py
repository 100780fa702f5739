"""Mulligans, per the ``mulligan`` flag.

* ``paris`` — shuffle the hand away, draw one card fewer than before;
* ``vancouver`` — as paris, then a player whose kept hand is smaller than the starting
  hand may scry 1 (look at the library's top card, maybe move it to the bottom);
* ``london`` — shuffle the hand away, draw a full starting hand, then put one card on
  the bottom of the library for each mulligan taken.
"""

from __future__ import annotations

import random

from ..errors import EngineError
from .state import Game

STARTING_HAND = 7


def mulligan(game: Game, pid: str, rng: random.Random) -> None:
    """Take one mulligan."""
    player = game.player(pid)
    if player.kept:
        raise EngineError(f"{pid} already kept an opening hand")
    size = len(player.hand)
    player.library.extend(player.hand)
    player.hand.clear()
    rng.shuffle(player.library)
    player.mulligans += 1
    style = game.flag("mulligan")
    n = STARTING_HAND if style == "london" else size - 1
    if n <= 0 and style != "london":
        raise EngineError(f"{pid} can't take a mulligan to zero cards")
    player.hand, player.library = player.library[:n], player.library[n:]
    game.say("mulligan", f"{pid} takes mulligan {player.mulligans}: shuffles the hand away "
             f"and draws {n} cards")


def keep(game: Game, pid: str, bottom: list[str] | None, scry: str | None) -> None:
    """Keep the hand; London puts cards on the bottom, Vancouver offers a scry."""
    player = game.player(pid)
    style = game.flag("mulligan") if player.mulligans else None
    if style == "london" and player.mulligans:
        n = player.mulligans
        chosen = [c for c in (bottom or []) if c in player.hand][:n]
        chosen += [c for c in reversed(player.hand) if c not in chosen][: n - len(chosen)]
        for card in chosen:
            player.hand.remove(card)
            player.library.append(card)
        player.bottomed += n
        game.say("mulligan", f"{pid} keeps and puts {n} card{'s' if n > 1 else ''} on the "
                 "bottom of the library")
    else:
        game.say("mulligan", f"{pid} keeps {len(player.hand)} cards")
    player.kept = True
    if style == "vancouver" and len(player.hand) < STARTING_HAND and player.library:
        player.scried = True
        if scry == "bottom":
            player.library.append(player.library.pop(0))
            player.bottomed += 1
        game.say("mulligan-scry", f"{pid} looks at the top card of the library and leaves it "
                 f"on the {'bottom' if scry == 'bottom' else 'top'}")


def summary(game: Game, pid: str) -> str:
    """``hand=N,scry=yes|no,bottom=N``."""
    p = game.player(pid)
    return f"hand={len(p.hand)},scry={'yes' if p.scried else 'no'},bottom={p.bottomed}"
