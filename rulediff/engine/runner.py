"""Running a scenario under one edition, a hand-written flag set, or every corpus edition."""

from __future__ import annotations

import os
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Any

from ..corpus import Corpus
from ..errors import EngineError, ScenarioError
from ..model import Edition
from ..serialize import Out, to_data
from .cite import citations
from .scenario import Scenario, load_scenario, play, render_result
from .state import LogEntry, UndeterminedFlag

SCENARIO_DIR_ENV = "RULEDIFF_SCENARIOS"


@dataclass(frozen=True, slots=True)
class Run:
    """What one scenario did under one rule set."""

    scenario: str
    edition: str | None
    """The edition's effective date, or the name of a hand-written flags file."""
    result: str
    log: tuple[LogEntry, ...]
    flags: Mapping[str, object]
    """The flags the run read, with their values (what decided the result)."""

    #: The ``engine run --format json`` shape.
    __json_fields__ = ("scenario", "edition", "result", "log")
    as_dict = to_data


def run(scenario: Scenario, flags: Any, *, edition: Edition | None = None,
        label: str | None = None) -> Run:
    """Play ``scenario`` under ``flags``; with ``edition``, the log cites its rules."""
    cite = citations(edition) if edition is not None else (lambda concept: ())
    if label is None and edition is not None and edition.effective_date is not None:
        label = edition.effective_date.isoformat()
    game = play(scenario, flags, cite)
    return Run(scenario.name, label, render_result(game, scenario.result), tuple(game.log),
               dict(game.flags_read))


_FLAGS: dict[str, Any] = {}


def flags_of(edition: Edition, *, use_cache: bool = True) -> Any:
    """The flags derived from an edition's text (through the flags cache, once per process)."""
    from ..flags.timeline import cached_flags_for

    if not edition.sha256 or not use_cache:
        return cached_flags_for(edition, use_cache=use_cache)
    found = _FLAGS.get(edition.sha256)
    if found is None:
        found = _FLAGS[edition.sha256] = cached_flags_for(edition)
    return found


def run_edition(scenario: Scenario, edition: Edition, *, use_cache: bool = True) -> Run:
    """Play ``scenario`` under the flags an edition's own text gives."""
    return run(scenario, flags_of(edition, use_cache=use_cache), edition=edition)


@dataclass(frozen=True, slots=True)
class ResultRun:
    """Consecutive editions that give the same result."""

    result: str
    editions: tuple[str, ...]
    unexpected: tuple[str, ...] = ()
    """Editions of the span whose result is not what the scenario expects for their flags."""

    @property
    def first(self) -> str:
        return self.editions[0]

    @property
    def last(self) -> str:
        return self.editions[-1]

    __json_fields__ = ("first", "last", Out("count", lambda r: len(r.editions)), "result",
                       "editions", "unexpected")
    as_dict = to_data


def compare(scenario: Scenario, rule_sets: Iterable[tuple[str, Any]]) -> tuple[ResultRun, ...]:
    """The result under each ``(label, flags)`` in order, collapsed into runs of equal results.

    A rule set under which the scenario cannot run shows ``undetermined: FLAG`` (a flag
    it needs is undetermined there) or ``error: …`` instead of stopping the comparison.
    Each run is also checked against the scenario's expectation for those flags.
    """
    spans: list[ResultRun] = []
    for label, flags in rule_sets:
        try:
            result = run(scenario, flags, label=label).result
        except UndeterminedFlag as exc:
            result = f"undetermined: {exc.flag}"
        except EngineError as exc:
            result = f"error: {exc.message}"
        expected = scenario.expected(flags)
        odd = (label,) if expected is None or expected.result != result else ()
        if spans and spans[-1].result == result:
            last = spans[-1]
            spans[-1] = ResultRun(result, last.editions + (label,), last.unexpected + odd)
        else:
            spans.append(ResultRun(result, (label,), odd))
    return tuple(spans)


def corpus_rule_sets(corpus: Corpus, *, use_cache: bool = True) -> list[tuple[str, Any]]:
    """``(effective date, flags)`` of every corpus edition, oldest first.

    Results don't depend on rule citations, so with warm caches only the cached flags
    are read: no edition is loaded.
    """
    from ..flags.timeline import corpus_timeline

    return [(fs.effective_date.isoformat() if fs.effective_date else "?", fs)
            for fs in corpus_timeline(corpus, use_cache=use_cache)]


# --- finding scenario files ---------------------------------------------------------------
def scenario_dirs() -> list[Path]:
    """Where named scenarios live: $RULEDIFF_SCENARIOS, the repository, the wheel."""
    dirs = []
    if os.environ.get(SCENARIO_DIR_ENV):
        dirs.append(Path(os.environ[SCENARIO_DIR_ENV]))
    dirs.append(Path(__file__).resolve().parent.parent.parent / "corpus" / "scenarios")
    packaged = resources.files("rulediff") / "data" / "scenarios"
    if packaged.is_dir():
        dirs.append(Path(str(packaged)))
    return [d for d in dirs if d.is_dir()]


def scenario_names() -> list[str]:
    """Every named scenario, sorted."""
    return sorted({p.stem for d in scenario_dirs() for p in d.glob("*.toml")})


def find_scenario(ref: str) -> Path:
    """A scenario file from a path or a name (``mana-burn``)."""
    path = Path(ref)
    if path.suffix == ".toml" or os.sep in ref or "/" in ref:
        if not path.is_file():
            raise ScenarioError("no such scenario file", file=ref)
        return path
    for d in scenario_dirs():
        candidate = d / f"{ref}.toml"
        if candidate.is_file():
            return candidate
    known = ", ".join(scenario_names()) or "none found"
    raise ScenarioError(f"unknown scenario {ref!r} (known: {known})")


def open_scenario(ref: str) -> Scenario:
    return load_scenario(find_scenario(ref))
