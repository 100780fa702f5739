"""Flags across editions: the timeline, the changes, and engine checks.

:func:`timeline` computes (or reads from the cache) the flags of every edition;
:func:`changes` lists, for each flag, the editions where its value changed and the
text on the new side that changed it. :func:`check_engine` compares the flags an
engine declares (a hand-written file) with those an edition's text gives.
"""

from __future__ import annotations

import logging
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from .. import cache
from ..model import Edition
from .flagset import REGISTRY, FlagSet
from .registry import Decision, Value

if TYPE_CHECKING:  # pragma: no cover
    from ..corpus import Corpus

log = logging.getLogger(__name__)


def cached_flags_for(edition: Edition, *, use_cache: bool = True) -> FlagSet:
    """:func:`rulediff.flags.flags_for` through the content-addressed cache (by sha256)."""
    from . import compute_outcomes

    if not edition.sha256 or not use_cache:
        return FlagSet.from_outcomes(compute_outcomes(edition), edition.effective_date)
    outcomes = cache.get_or_compute("flags", edition.sha256, lambda: compute_outcomes(edition))
    return FlagSet.from_outcomes(outcomes, edition.effective_date)


def corpus_timeline(corpus: Corpus, *, use_cache: bool = True) -> list[FlagSet]:
    """The flags of every edition of a corpus, oldest first.

    With a warm cache this reads only the cached flags (keyed by each file's sha256):
    no edition is loaded or parsed, so the whole timeline takes a fraction of a second.
    """
    sets: list[FlagSet] = []
    for info in corpus.editions():
        outcomes = cache.read("flags", info.sha256) if use_cache else None
        if isinstance(outcomes, dict) and set(outcomes) == set(REGISTRY):
            sets.append(FlagSet.from_outcomes(outcomes, info.date))
        else:
            edition = corpus.load(info, use_cache=use_cache)
            sets.append(cached_flags_for(edition, use_cache=use_cache))
    return sorted(sets, key=lambda fs: (fs.effective_date is None, fs.effective_date or 0))


def timeline(editions: Iterable[Edition], *, use_cache: bool = True) -> list[FlagSet]:
    """The flags of each edition, oldest first (by effective date, then input order)."""
    sets = [cached_flags_for(ed, use_cache=use_cache) for ed in editions]
    return sorted(sets, key=lambda fs: (fs.effective_date is None, fs.effective_date or 0))


@dataclass(frozen=True, slots=True)
class FlagChange:
    """A flag whose value differs from the previous edition's."""

    flag: str
    date: str
    """Effective date of the edition where the new value first appears."""
    previous_date: str | None
    before: Value | None
    after: Value | None
    rules: tuple[str, ...]
    """The rules (on the new side) that decided the new value."""
    evidence: str
    """Their text (or the reason, when the new value is undetermined)."""
    before_rules: tuple[str, ...] = ()
    before_evidence: str = ""

    @property
    def added(self) -> tuple[str, ...]:
        """For list flags: items new in this edition."""
        if isinstance(self.after, tuple):
            old = set(self.before) if isinstance(self.before, tuple) else set()
            return tuple(sorted(set(self.after) - old))
        return ()

    @property
    def removed(self) -> tuple[str, ...]:
        if isinstance(self.before, tuple):
            new = set(self.after) if isinstance(self.after, tuple) else set()
            return tuple(sorted(set(self.before) - new))
        return ()


def _date(fs: FlagSet) -> str:
    return fs.effective_date.isoformat() if fs.effective_date else "unknown"


def changes(sets: Sequence[FlagSet]) -> dict[str, list[FlagChange]]:
    """For each flag, its first value and every change, in edition order."""
    out: dict[str, list[FlagChange]] = {name: [] for name in REGISTRY}
    for name in REGISTRY:
        previous: FlagSet | None = None
        for fs in sets:
            value = getattr(fs, name)
            if previous is None or value != getattr(previous, name):
                rules, evidence = fs.provenance(name)
                before_rules, before_evidence = (
                    previous.provenance(name) if previous is not None else ((), "")
                )
                out[name].append(
                    FlagChange(
                        name,
                        _date(fs),
                        _date(previous) if previous else None,
                        getattr(previous, name) if previous is not None else None,
                        value,
                        rules,
                        evidence,
                        before_rules,
                        before_evidence,
                    )
                )
            previous = fs
    return out


@dataclass(frozen=True, slots=True)
class Disagreement:
    """A flag the engine declares with a value the edition's text does not give."""

    flag: str
    declared: Value
    derived: Value | None
    rules: tuple[str, ...]
    evidence: str
    """The edition's text for its value (or why it is undetermined)."""

    @property
    def undetermined(self) -> bool:
        return self.derived is None


def check_engine(declared: FlagSet, derived: FlagSet) -> tuple[list[Disagreement], list[str]]:
    """Compare an engine's declared flags with an edition's.

    Returns (disagreements, agreeing flag names). Flags the engine does not declare are
    not compared; a declared flag the edition leaves undetermined is a disagreement
    with ``derived=None`` (the engine claims what the text does not say).
    """
    bad: list[Disagreement] = []
    good: list[str] = []
    for name in REGISTRY:
        if not isinstance(declared.outcome(name), Decision):
            continue
        mine = getattr(declared, name)
        theirs = getattr(derived, name)
        if mine == theirs:
            good.append(name)
            continue
        rules, evidence = derived.provenance(name)
        bad.append(Disagreement(name, mine, theirs, rules, evidence))
    return bad, good
