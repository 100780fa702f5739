"""Power and toughness: the P/T layer, with the sublayers the flags say.

``pt_switch_sublayer`` names where switching effects apply, and with it the sublayer
scheme each edition describes around them:

* ``timestamp`` — no sublayers: counters first, then every other effect (set, modify,
  switch) in timestamp order;
* ``6e`` — 6a characteristic-defining, 6b other effects not in 6c–6e, 6c counters,
  6d static abilities that modify, 6e switches;
* ``7e`` — 7a characteristic-defining, 7b set, 7c modify, 7d counters, 7e switches;
* ``7d`` — 7a characteristic-defining, 7b set, 7c modify and counters, 7d switches.

Within a sublayer effects apply in timestamp order (dependency is not modelled).
"""

from __future__ import annotations

from collections.abc import Callable

from .state import Effect, Game, Permanent

Sublayer = tuple[str, Callable[[Effect], bool], bool]
"""(label, which effects, counters applied here)."""


def _switch(e: Effect) -> bool:
    return e.kind == "switch"


def _set(e: Effect) -> bool:
    return e.kind == "set"


def _modify(e: Effect) -> bool:
    return e.kind == "modify"


def _none(e: Effect) -> bool:
    return False


SCHEMES: dict[str, tuple[Sublayer, ...]] = {
    "timestamp": (("counters", _none, True), ("timestamp", lambda e: True, False)),
    "6e": (
        ("6b", lambda e: _set(e) or (_modify(e) and not e.static), False),
        ("6c", _none, True),
        ("6d", lambda e: _modify(e) and e.static, False),
        ("6e", _switch, False),
    ),
    "7e": (("7b", _set, False), ("7c", _modify, False), ("7d", _none, True),
           ("7e", _switch, False)),
    "7d": (("7b", _set, False), ("7c", _modify, True), ("7d", _switch, False)),
}


def counter_bonus(perm: Permanent) -> tuple[int, int]:
    """What +1/+1 and -1/-1 counters add to power and toughness."""
    n = perm.counters.get("+1/+1", 0) - perm.counters.get("-1/-1", 0)
    return n, n


def power_toughness(game: Game, perm: Permanent) -> tuple[int, int]:
    """The permanent's current power and toughness under the flags in force."""
    if perm.power is None or perm.toughness is None:
        return 0, 0
    scheme = SCHEMES[game.flag("pt_switch_sublayer")]
    effects = sorted((e for e in game.effects if e.target == perm.id), key=lambda e: e.timestamp)
    p, t = perm.power, perm.toughness
    for _label, selects, with_counters in scheme:
        if with_counters:
            dp, dt = counter_bonus(perm)
            p, t = p + dp, t + dt
        for e in effects:
            if selects(e):
                p, t = _apply(e, p, t)
    return p, t


def _apply(e: Effect, p: int, t: int) -> tuple[int, int]:
    if e.kind == "set":
        return e.power, e.toughness
    if e.kind == "modify":
        return p + e.power, t + e.toughness
    return t, p


def sublayer_of(game: Game, e: Effect) -> str:
    """The (sub)layer an effect applies in, for the log."""
    for label, selects, _ in SCHEMES[game.flag("pt_switch_sublayer")]:
        if selects(e):
            return label
    return "?"
