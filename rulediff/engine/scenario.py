"""Scenarios: a starting state, actions and choices, and the result they report.

A scenario is a TOML file (``corpus/scenarios/NAME.toml``)::

    summary = "A 1/3 gets +0/+1, is switched, then gets +5/+0"
    start = "precombat-main"          # where the game starts (default)
    result = "{pt:bear}"              # a template: {function:argument}

    [[players]]                       # life defaults to the flags' starting_life
    id = "alice"
    library = 20                      # a number of anonymous cards, or a list of ids

    [[permanents]]
    id = "bear"
    types = ["creature"]
    power = 1
    toughness = 3
    controller = "alice"

    [[actions]]
    do = "pump"
    target = "bear"
    toughness = 1

    [[expect]]                        # expected results per flag value, first match wins
    when = { pt_switch_sublayer = "timestamp" }
    result = "9/1"
    why = "418.5i: effects applied after the switch apply normally"

:data:`ACTIONS` lists every action and :data:`RESULTS` every result function.
"""

from __future__ import annotations

import random
import re
import sys
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any

import msgspec
from msgspec import Meta

if sys.version_info >= (3, 11):
    import tomllib
else:  # pragma: no cover
    import tomli as tomllib

from ..errors import EngineError, ScenarioError
from . import combat, mulligan, sba, turn
from .layers import power_toughness, sublayer_of
from .state import POSITIONS, Citer, Effect, Game, Permanent, Player, StackObject, position_name


@dataclass(frozen=True, slots=True)
class Expectation:
    """The result a scenario should give when the flags have the values in ``when``."""

    when: Mapping[str, Any]
    result: str
    why: str = ""

    def matches(self, flags: Any) -> bool:
        """Every flag in ``when`` has (one of) the listed value(s); ``"undetermined"``
        stands for a flag the rule set leaves undetermined."""
        for name, wanted in self.when.items():
            value = getattr(flags, name, None)
            allowed = wanted if isinstance(wanted, list) else [wanted]
            if value not in allowed and not (value is None and "undetermined" in allowed):
                return False
        return True


@dataclass(frozen=True, slots=True)
class Scenario:
    """A parsed scenario file (the raw tables are validated when it runs)."""

    name: str
    summary: str
    result: str
    start: str
    active: str
    players: tuple[Mapping[str, Any], ...]
    permanents: tuple[Mapping[str, Any], ...]
    actions: tuple[Mapping[str, Any], ...]
    choices: Mapping[str, Any] = field(default_factory=dict)
    expect: tuple[Expectation, ...] = ()
    seed: int = 0
    source: str = "<scenario>"
    lines: Mapping[int, int] = field(default_factory=dict)
    """Line of each action in the file (action index -> line), for error messages."""

    def expected(self, flags: Any) -> Expectation | None:
        """The first expectation whose flag values match, if any."""
        return next((e for e in self.expect if e.matches(flags)), None)


# --- the schema ---------------------------------------------------------------------------
# Types, ranges and sizes of every scenario value, checked before anything runs: a wrong
# type is an error naming the field (never coerced: ``life = true`` is not 1), and no
# value can make the engine allocate without bound (``hand = 100000000``).
_Count = Annotated[int, Meta(ge=0, le=10_000)]
_Number = Annotated[int, Meta(ge=-1_000_000_000, le=1_000_000_000)]
_Name = Annotated[str, Meta(max_length=200)]
_Text = Annotated[str, Meta(max_length=10_000)]
_Names = Annotated[list[_Name], Meta(max_length=1_000)]
_FlagValue = bool | _Number | _Name | Annotated[list[bool | _Number | _Name], Meta(max_length=100)]


class _Strict(msgspec.Struct, forbid_unknown_fields=True, omit_defaults=True):
    pass


class _PlayerSpec(_Strict):
    id: _Name
    life: _Number = 0
    poison: _Count = 0
    hand: _Count | _Names = 0
    library: _Count | _Names = 0
    mana: Annotated[str, Meta(max_length=1_000)] = ""


class _PermanentSpec(_Strict):
    id: _Name
    name: _Name = ""
    controller: _Name = ""
    owner: _Name = ""
    types: _Names = []
    subtypes: _Names = []
    supertypes: _Names = []
    keywords: _Names = []
    power: _Number = 0
    toughness: _Number = 0
    loyalty: _Number = 0
    counters: Annotated[dict[_Name, _Number], Meta(max_length=100)] = {}


class _ActionSpec(_Strict):
    do: _Name
    target: _Name = ""
    source: _Name = ""
    controller: _Name = ""
    player: _Name = ""
    id: _Name = ""
    power: _Number = 0
    toughness: _Number = 0
    amount: _Number = 0
    n: _Count = 0
    static: bool = False
    all: bool = False
    until: _Name = ""
    kind: _Name = ""
    redirect_to: _Name = ""
    permanent: _Name | _PermanentSpec = ""
    permanents: Annotated[list[_PermanentSpec], Meta(max_length=1_000)] = []
    keywords: _Names = []
    text: _Text = ""
    to: _Name = ""
    mana: Annotated[str, Meta(max_length=1_000)] = ""
    note: _Name = ""
    key: _Name = ""
    what: _Name = ""
    attackers: _Names = []
    defender: _Name = ""
    blocks: Annotated[dict[_Name, _Name], Meta(max_length=1_000)] = {}
    attacker: _Name = ""
    order: _Names = []
    damage: Annotated[dict[_Name, _Number], Meta(max_length=1_000)] = {}
    bottom: _Names = []
    scry: _Name = ""


class _ExpectSpec(_Strict):
    result: _Text
    when: Annotated[dict[_Name, _FlagValue], Meta(max_length=100)] = {}
    why: _Text = ""


class _ScenarioSpec(_Strict):
    result: _Text
    players: Annotated[list[_PlayerSpec], Meta(min_length=1, max_length=100)]
    name: _Name = ""
    summary: _Text = ""
    start: _Name = "precombat-main"
    active: _Name = ""
    permanents: Annotated[list[_PermanentSpec], Meta(max_length=1_000)] = []
    actions: Annotated[list[_ActionSpec], Meta(max_length=10_000)] = []
    choices: Annotated[dict[_Name, _FlagValue], Meta(max_length=100)] = {}
    expect: Annotated[list[_ExpectSpec], Meta(max_length=1_000)] = []
    seed: Annotated[int, Meta(ge=0, le=2**63 - 1)] = 0


#: Largest scenario file read (they are a few hundred bytes).
MAX_SCENARIO_BYTES = 1 << 20


def _check_schema(data: Mapping[str, Any], fail: Callable[..., ScenarioError], text: str) -> None:
    try:
        msgspec.convert(data, _ScenarioSpec, strict=True)
    except msgspec.ValidationError as exc:
        message, field_path = _schema_message(str(exc))
        raise fail(message, _line_of_path(text, field_path)) from None


def _line_of_path(text: str, path: str) -> int | None:
    """The line of a field such as ``actions[2].power``: the key after the third
    ``[[actions]]`` header (or the header itself, or a top-level key)."""
    m = re.match(r"(\w+)\[(\d+)\](?:\.(\w+))?", path)
    if m is None:
        return _line_of(text, path.split(".")[0]) if path else None
    table, index, key = m.group(1), int(m.group(2)), m.group(3)
    lines = text.splitlines()
    headers = [i for i, ln in enumerate(lines) if ln.strip() == f"[[{table}]]"]
    if index >= len(headers):
        return _line_of(text, table)
    start = headers[index]
    if key:
        for i in range(start + 1, len(lines)):
            if lines[i].lstrip().startswith("["):
                break
            if re.match(rf"\s*{re.escape(key)}\s*=", lines[i]):
                return i + 1
    return start + 1


def _schema_message(raw: str) -> tuple[str, str]:
    """msgspec's "Expected `int`, got `str` - at `$.players[0].life`" as
    "players[0].life: expected int, got str", and the field's path."""
    what, _, where = raw.partition(" - at ")
    path = where.strip("`").removeprefix("$").lstrip(".")
    what = what.replace("`", "")
    unknown = re.match(r"Object contains unknown field (\S+)", what)
    if unknown:
        path = f"{path}.{unknown.group(1)}" if path else unknown.group(1)
        what = "unknown field"
    elif what.startswith("Object missing required field"):
        path = f"{path}.{what.split()[-1]}" if path else what.split()[-1]
        what = "missing"
    else:
        what = what[:1].lower() + what[1:]
    return (f"{path}: {what}" if path else what), path


# --- loading ------------------------------------------------------------------------------
def load_scenario(path: str | Path) -> Scenario:
    """Read and check a scenario file; errors name the file and, if known, the line."""
    from ..errors import IngestError
    from ..ingest import read_bytes

    path = Path(path)
    try:
        text = read_bytes(path, limit=MAX_SCENARIO_BYTES).decode("utf-8")
    except IngestError as exc:
        raise ScenarioError(f"cannot read scenario: {exc.message}", file=str(path)) from None
    except UnicodeDecodeError as exc:
        raise ScenarioError(f"not UTF-8 (byte {exc.start})", file=str(path)) from None
    try:
        data = tomllib.loads(text)
    except tomllib.TOMLDecodeError as exc:
        m = re.search(r"line (\d+)", str(exc))
        raise ScenarioError(f"invalid TOML: {exc}", file=str(path),
                            line=int(m.group(1)) if m else None) from None
    except RecursionError:
        raise ScenarioError("invalid TOML: nested too deeply", file=str(path)) from None
    return scenario_from_mapping(data, name=path.stem, source=str(path), text=text)


def scenario_from_mapping(data: Mapping[str, Any], *, name: str, source: str = "<scenario>",
                          text: str = "") -> Scenario:
    def fail(message: str, line: int | None = None) -> ScenarioError:
        return ScenarioError(message, file=source, line=line)

    known = {"name", "summary", "result", "start", "active", "players", "permanents",
             "actions", "choices", "expect", "seed"}
    for key in data:
        if key not in known:
            raise fail(f"unknown key {key!r} (expected one of: {', '.join(sorted(known))})",
                       _line_of(text, key))
    if not isinstance(data.get("result"), str):
        raise fail("a scenario needs a 'result' template, e.g. result = \"{pt:bear}\"")
    _check_schema(data, fail, text)
    players = tuple(data.get("players", ()))
    if not players:
        raise fail("a scenario needs at least one [[players]] table")
    for what in ("players", "permanents"):
        seen: set[str] = set()
        for item in data.get(what, ()):
            if not isinstance(item, Mapping) or not isinstance(item.get("id"), str):
                raise fail(f"each of {what} needs an 'id' string", _line_of(text, f"[[{what}]]"))
            if item["id"] in seen:
                raise fail(f"two {what} with the id {item['id']!r}")
            seen.add(item["id"])
    action_lines = [i + 1 for i, ln in enumerate(text.splitlines()) if ln.strip() == "[[actions]]"]
    actions = tuple(data.get("actions", ()))
    for i, action in enumerate(actions):
        kind = action.get("do")
        if kind not in ACTIONS:
            line = action_lines[i] if i < len(action_lines) else None
            raise fail(f"action {i + 1}: unknown 'do' {kind!r} (one of: {', '.join(ACTIONS)})",
                       line)
    for m in _PLACEHOLDER.finditer(data["result"]):
        if m.group(1) not in RESULTS:
            raise fail(f"unknown result function {m.group(1)!r} (one of: {', '.join(RESULTS)})",
                       _line_of(text, "result"))
    expect = []
    for item in data.get("expect", ()):
        if "result" not in item:
            raise fail("each [[expect]] needs a 'result'")
        for flag_name in item.get("when", {}):
            if flag_name not in _flag_names():
                raise fail(f"[[expect]] names an unknown flag {flag_name!r}",
                           _line_of(text, "when"))
        expect.append(Expectation(dict(item.get("when", {})), str(item["result"]),
                                  str(item.get("why", ""))))
    start = data.get("start", "precombat-main")
    if start not in [position_name(*p) for p in POSITIONS]:
        raise fail(f"unknown start {start!r}", _line_of(text, "start"))
    return Scenario(
        name=str(data.get("name", name)), summary=str(data.get("summary", "")),
        result=data["result"], start=start, active=str(data.get("active", players[0]["id"])),
        players=players, permanents=tuple(data.get("permanents", ())), actions=actions,
        choices=dict(data.get("choices", {})), expect=tuple(expect),
        seed=int(data.get("seed", 0)), source=source,
        lines=dict(enumerate(action_lines)),
    )


def _line_of(text: str, key: str) -> int | None:
    """The first line assigning ``key`` (or the table header ``key`` itself)."""
    for i, line in enumerate(text.splitlines(), 1):
        if re.match(rf"\s*{re.escape(key)}\s*=", line) or line.strip() == key:
            return i
    return None


def _flag_names() -> frozenset[str]:
    from ..flags import REGISTRY

    return frozenset(REGISTRY)


# --- building the starting state ----------------------------------------------------------
def _cards(value: Any, prefix: str) -> list[str]:
    if isinstance(value, int):
        return [f"{prefix}-{i + 1}" for i in range(value)]
    return [str(v) for v in value or ()]


def _permanent(game: Game, spec: Mapping[str, Any], timestamp: int) -> Permanent:
    counters = {str(k): int(v) for k, v in dict(spec.get("counters", {})).items()}
    if "loyalty" in spec:
        counters["loyalty"] = int(spec["loyalty"])
    controller = str(spec.get("controller", game.active))
    return Permanent(
        id=str(spec["id"]), name=str(spec.get("name", spec["id"])), controller=controller,
        owner=str(spec.get("owner", controller)), timestamp=timestamp,
        card_types=tuple(spec.get("types", ())), subtypes=tuple(spec.get("subtypes", ())),
        supertypes=tuple(spec.get("supertypes", ())), power=spec.get("power"),
        toughness=spec.get("toughness"), keywords=tuple(spec.get("keywords", ())),
        counters=counters,
    )


def new_game(scenario: Scenario, flags: Any, cite: Citer) -> Game:
    """The starting state of a scenario under ``flags``."""
    game = Game(flags=flags, players={}, cite=cite, active=scenario.active,
                choices=dict(scenario.choices))
    for spec in scenario.players:
        pid = str(spec["id"])
        life = spec["life"] if "life" in spec else game.flag("starting_life")
        game.players[pid] = Player(
            id=pid, life=int(life), poison=int(spec.get("poison", 0)),
            hand=_cards(spec.get("hand", 0), f"{pid}-hand"),
            library=_cards(spec.get("library", 0), f"{pid}-card"),
            mana=list(str(spec.get("mana", ""))),
        )
    if game.active not in game.players:
        raise ScenarioError(f"active player {game.active!r} is not a player", file=scenario.source)
    for spec in scenario.permanents:
        perm = _permanent(game, spec, game.tick())
        game.battlefield[perm.id] = perm
    game.position = [position_name(*p) for p in POSITIONS].index(scenario.start)
    return game


# --- actions ------------------------------------------------------------------------------
Action = Callable[[Game, Mapping[str, Any]], None]
ACTIONS: dict[str, Action] = {}


def action(name: str) -> Callable[[Action], Action]:
    def register(fn: Action) -> Action:
        ACTIONS[name] = fn
        return fn

    return register


def _need(a: Mapping[str, Any], key: str) -> Any:
    if key not in a:
        raise EngineError(f"action {a.get('do')!r} needs {key!r}")
    return a[key]


def _effect(game: Game, a: Mapping[str, Any], kind: str) -> None:
    target = _need(a, "target")
    game.permanent(target)
    static = bool(a.get("static", False))
    e = Effect(id=str(a.get("id", game.new_id("effect"))), target=target, kind=kind,
               timestamp=game.tick(), power=int(a.get("power", 0)),
               toughness=int(a.get("toughness", 0)), static=static, source=a.get("source"),
               until=a.get("until", None if static else "end-of-turn"))
    game.effects.append(e)
    label = sublayer_of(game, e)
    what = {"set": f"becomes {e.power}/{e.toughness}",
            "modify": f"gets {e.power:+d}/{e.toughness:+d}",
            "switch": "has its power and toughness switched"}[kind]
    p, t = power_toughness(game, game.permanent(target))
    concept = "pt-switch" if kind == "switch" and game.cite("pt-switch") else f"pt-{label}"
    game.say(concept, f"{target} {what} ({e.id}, applied in {label}): now {p}/{t}")


@action("pump")
def _pump(game: Game, a: Mapping[str, Any]) -> None:
    """``target`` gets +``power``/+``toughness`` (``static = true`` for a static ability)."""
    _effect(game, a, "modify")


@action("set-pt")
def _set_pt(game: Game, a: Mapping[str, Any]) -> None:
    _effect(game, a, "set")


@action("switch")
def _switch(game: Game, a: Mapping[str, Any]) -> None:
    _effect(game, a, "switch")


@action("end-effect")
def _end_effect(game: Game, a: Mapping[str, Any]) -> None:
    eid = _need(a, "id")
    gone = [e for e in game.effects if e.id == eid]
    if not gone:
        raise EngineError(f"no effect {eid!r} to end")
    game.effects = [e for e in game.effects if e.id != eid]
    target = gone[0].target
    p, t = power_toughness(game, game.permanent(target))
    game.say("", f"effect {eid} ends: {target} is now {p}/{t}")


@action("counters")
def _counters(game: Game, a: Mapping[str, Any]) -> None:
    perm = game.permanent(_need(a, "target"))
    kind, n = str(_need(a, "kind")), int(a.get("n", 1))
    perm.counters[kind] = perm.counters.get(kind, 0) + n
    game.say("counters" if "/" in kind else "", f"{n} {kind} counter{'s' if n != 1 else ''} "
             f"put on {perm.id}")


@action("enter")
def _enter(game: Game, a: Mapping[str, Any]) -> None:
    """One permanent (``permanent``) or several at once (``permanents``) enter."""
    specs = a.get("permanents") or [_need(a, "permanent")]
    stamp = game.tick()
    for spec in specs:
        perm = _permanent(game, spec, stamp)
        game.battlefield[perm.id] = perm
    ids = ", ".join(str(s["id"]) for s in specs)
    game.say("enter", f"{ids} enter{'s' if len(specs) == 1 else ''} the battlefield"
             + (" simultaneously" if len(specs) > 1 else "") + f" (timestamp {stamp})")


@action("damage")
def _damage(game: Game, a: Mapping[str, Any]) -> None:
    """A spell or ability from ``source`` (controlled by ``controller``) deals damage."""
    src = combat.Source(str(_need(a, "source")), str(a.get("controller", game.active)),
                        tuple(a.get("keywords", ())))
    combat.noncombat_damage(game, src, str(_need(a, "target")), int(_need(a, "amount")),
                            a.get("redirect_to"))


@action("activate-sacrifice")
def _activate_sacrifice(game: Game, a: Mapping[str, Any]) -> None:
    """Sacrifice ``permanent`` to have it deal ``amount`` damage to ``target`` (on the stack)."""
    pid = str(_need(a, "permanent"))
    if pid not in game.battlefield:
        game.say("", f"{pid} is not on the battlefield: its ability can't be activated")
        return
    src = combat.source_of(game, game.battlefield[pid])
    sba.leave_battlefield(game, pid, "graveyard")
    game.say("sacrifice", f"{src.controller} sacrifices {pid} to activate its ability")
    target, amount = str(_need(a, "target")), int(_need(a, "amount"))
    game.stack.append(StackObject(
        game.new_id("ability"), "ability", src.controller, f"{pid}'s ability",
        lambda g: combat.noncombat_damage(g, src, target, amount, None)))


@action("counter-trigger")
def _counter_trigger(game: Game, a: Mapping[str, Any]) -> None:
    """Counter the topmost triggered ability on the stack (a Stifle)."""
    for obj in reversed(game.stack):
        if obj.kind == "trigger":
            game.stack.remove(obj)
            game.say("counter-ability", f"{obj.text} is countered")
            return
    game.say("", "there is no triggered ability on the stack to counter")


@action("trigger")
def _trigger(game: Game, a: Mapping[str, Any]) -> None:
    """A triggered ability (with no effect of its own) triggers."""
    game.pending.append(StackObject(game.new_id("trigger"), "trigger",
                                    str(a.get("player", game.active)),
                                    str(a.get("text", "a triggered ability")), lambda g: None))


@action("resolve")
def _resolve(game: Game, a: Mapping[str, Any]) -> None:
    """All players pass and the top object resolves; ``all = true`` repeats until the stack
    is empty, ``until = "trigger"`` until a triggered ability is on top."""
    until_trigger = a.get("until") == "trigger"
    while game.stack:
        if until_trigger and game.stack[-1].kind == "trigger":
            return
        obj = game.stack.pop()
        game.say("resolve", f"all players pass: {obj.text} resolves")
        obj.resolve(game)
        turn.settle(game)
        if not (a.get("all", False) or until_trigger):
            return


@action("goto")
def _goto(game: Game, a: Mapping[str, Any]) -> None:
    turn.goto(game, str(_need(a, "to")))


@action("end-turn")
def _end_turn(game: Game, a: Mapping[str, Any]) -> None:
    game.say("end-turn", f"{a.get('source', 'an effect')} ends the turn")
    turn.end_turn(game)


@action("draw")
def _draw(game: Game, a: Mapping[str, Any]) -> None:
    turn.draw(game, str(a.get("player", game.active)), int(a.get("n", 1)))


@action("add-mana")
def _add_mana(game: Game, a: Mapping[str, Any]) -> None:
    player = game.player(str(a.get("player", game.active)))
    mana = str(_need(a, "mana"))
    player.mana.extend(mana)
    game.say("mana-add", f"{player.id} adds {mana} to the mana pool")


@action("spend-mana")
def _spend_mana(game: Game, a: Mapping[str, Any]) -> None:
    """Try to spend ``mana``; ``note`` records ``spent`` or ``lost``."""
    player = game.player(str(a.get("player", game.active)))
    wanted = list(str(_need(a, "mana")))
    pool = list(player.mana)
    ok = True
    for m in wanted:
        if m in pool:
            pool.remove(m)
        else:
            ok = False
    game.notes[str(a.get("note", "mana"))] = "spent" if ok else "lost"
    if ok:
        player.mana = pool
        game.say("", f"{player.id} spends {''.join(wanted)}")
    else:
        game.say("", f"{player.id} has no {''.join(wanted)} left to spend")


@action("lose-life")
def _lose_life(game: Game, a: Mapping[str, Any]) -> None:
    player = game.player(str(a.get("player", game.active)))
    player.life -= int(_need(a, "n"))
    game.say("", f"{player.id} loses {a['n']} life (life {player.life})")


@action("poison")
def _poison(game: Game, a: Mapping[str, Any]) -> None:
    player = game.player(str(a.get("player", game.active)))
    player.poison += int(a.get("n", 1))
    game.say("", f"{player.id} gets {a.get('n', 1)} poison (total {player.poison})")


@action("note")
def _note(game: Game, a: Mapping[str, Any]) -> None:
    """Record the active player (or the current step, ``what = "step"``) under ``key``."""
    game.notes[str(_need(a, "key"))] = game.where if a.get("what") == "step" else game.active


@action("attack")
def _attack(game: Game, a: Mapping[str, Any]) -> None:
    combat.declare_attackers(game, list(_need(a, "attackers")), str(_need(a, "defender")))


@action("block")
def _block(game: Game, a: Mapping[str, Any]) -> None:
    combat.declare_blockers(game, {str(k): str(v) for k, v in dict(_need(a, "blocks")).items()})


@action("order-blockers")
def _order(game: Game, a: Mapping[str, Any]) -> None:
    combat.order_blockers(game, str(_need(a, "attacker")), list(_need(a, "order")))


@action("assign")
def _assign(game: Game, a: Mapping[str, Any]) -> None:
    split = {str(k): int(v) for k, v in dict(_need(a, "damage")).items()}
    combat.assign(game, str(_need(a, "attacker")), split, str(a.get("note", "assignment")))


@action("mulligan")
def _mulligan(game: Game, a: Mapping[str, Any]) -> None:
    mulligan.mulligan(game, str(a.get("player", game.active)), game.rng)


@action("keep")
def _keep(game: Game, a: Mapping[str, Any]) -> None:
    mulligan.keep(game, str(a.get("player", game.active)), a.get("bottom"), a.get("scry"))


_NO_PRIORITY = {"goto", "mulligan", "keep", "end-turn", "resolve"}
"""Actions after which the game does not check state-based actions on its own."""


# --- results ------------------------------------------------------------------------------
def _pt(game: Game, arg: str) -> str:
    if arg not in game.battlefield:
        return game.zone_of(arg)
    p, t = power_toughness(game, game.battlefield[arg])
    return f"{p}/{t}"


def _counters_of(game: Game, arg: str) -> str:
    perm = game.battlefield.get(arg)
    if perm is None:
        return game.zone_of(arg)
    items = sorted((k, v) for k, v in perm.counters.items() if v)
    return ",".join(f"{k}:{v}" for k, v in items) or "none"


RESULTS: dict[str, Callable[[Game, str], object]] = {
    "pt": _pt,
    "battlefield": lambda g, arg: ",".join(sorted(g.battlefield)),
    "life": lambda g, arg: g.player(arg).life,
    "poison": lambda g, arg: g.player(arg).poison,
    "hand": lambda g, arg: len(g.player(arg).hand),
    "library": lambda g, arg: len(g.player(arg).library),
    "graveyard": lambda g, arg: len(g.player(arg).graveyard),
    "mana": lambda g, arg: len(g.player(arg).mana),
    "status": lambda g, arg: "lost" if g.player(arg).lost else "alive",
    "zone": lambda g, arg: g.zone_of(arg),
    "damage": lambda g, arg: g.permanent(arg).damage,
    "loyalty": lambda g, arg: g.battlefield[arg].counters.get("loyalty", 0)
    if arg in g.battlefield else g.zone_of(arg),
    "counters": _counters_of,
    "note": lambda g, arg: g.notes.get(arg, "none"),
    "mulligan": lambda g, arg: mulligan.summary(g, arg),
    "cleanups": lambda g, arg: g.cleanups,
}
_PLACEHOLDER = re.compile(r"\{([a-z]+)(?::([\w.+/-]+))?\}")


def render_result(game: Game, template: str) -> str:
    """Fill a result template such as ``life={life:alice}``."""
    return _PLACEHOLDER.sub(lambda m: str(RESULTS[m.group(1)](game, m.group(2) or "")), template)


# --- running ------------------------------------------------------------------------------
def play(scenario: Scenario, flags: Any, cite: Citer) -> Game:
    """Run every action of the scenario; the final state is returned."""
    try:
        game = new_game(scenario, flags, cite)
    except EngineError as exc:
        if not exc.file:
            exc.message = f"setting up the game: {exc.message}"
            exc.file, exc.args = scenario.source, (exc.message,)
        raise
    except (KeyError, ValueError, TypeError) as exc:
        raise ScenarioError(f"setting up the game: bad value ({exc})",
                            file=scenario.source) from None
    game.rng = random.Random(scenario.seed)
    for i, a in enumerate(scenario.actions):
        try:
            ACTIONS[a["do"]](game, a)
            if a["do"] not in _NO_PRIORITY:
                turn.settle(game)
        except EngineError as exc:
            if not exc.file:  # say where in the scenario it happened
                exc.message = f"action {i + 1} ({a['do']}): {exc.message}"
                exc.file, exc.line = scenario.source, scenario.lines.get(i)
                exc.args = (exc.message,)
            raise
        except (KeyError, ValueError, TypeError, AttributeError) as exc:
            raise ScenarioError(f"action {i + 1} ({a['do']}): bad value ({exc})",
                                file=scenario.source, line=scenario.lines.get(i)) from None
    return game
