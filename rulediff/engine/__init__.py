"""A small rules kernel that behaves as any edition's text says.

Every procedure whose behaviour changed between editions (state-based actions, the P/T
sublayers, mana pools, mulligans, combat damage, redirection, cleanup) reads only the
behaviour flags (:class:`rulediff.flags.FlagSet` or any object with the same attribute
names), never an edition's date. Scenarios (``corpus/scenarios/*.toml``) drive it.

>>> from rulediff.engine import open_scenario, run
>>> from rulediff.flags import FlagSet
>>> burn = FlagSet(starting_life=20, mana_burn=True, mana_empties="phase")
>>> run(open_scenario("mana-burn"), burn).result
'life=17'
>>> no_burn = FlagSet(starting_life=20, mana_burn=False, mana_empties="step")
>>> run(open_scenario("mana-burn"), no_burn).result
'life=20'
"""

from __future__ import annotations

from .runner import (
    Run,
    Span,
    compare,
    find_scenario,
    open_scenario,
    run,
    run_edition,
    scenario_names,
)
from .scenario import ACTIONS, RESULTS, Expectation, Scenario, load_scenario
from .state import Game, LogEntry

__all__ = [
    "ACTIONS",
    "RESULTS",
    "Expectation",
    "Game",
    "LogEntry",
    "Run",
    "Scenario",
    "Span",
    "compare",
    "find_scenario",
    "load_scenario",
    "open_scenario",
    "run",
    "run_edition",
    "scenario_names",
]
