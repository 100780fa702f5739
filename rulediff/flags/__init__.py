"""Behaviour flags derived from the text of each edition.

>>> from rulediff import flags_for, load_edition            # doctest: +SKIP
>>> fs = flags_for(load_edition("2009-07-11"))               # doctest: +SKIP
>>> fs.mana_burn, fs.combat_damage_uses_stack, fs.legend_rule  # doctest: +SKIP
(False, False, 'all-die')
>>> fs.provenance("mana_burn")                               # doctest: +SKIP
(('500.4',), 'When a step or phase ends, any unused mana left in a player's mana pool is lost.')

:func:`flags_for` runs every registered detector over one edition and returns a
:class:`FlagSet` (one attribute per flag, ``None`` when undetermined, with the rule
ids and evidence behind each value). :func:`load_flagset` reads a hand-written TOML
or JSON flags file (what an engine declares it implements) into the same type.
"""

from __future__ import annotations

import logging

from ..model import Edition
from . import detectors as _detectors  # noqa: F401  (registers every flag)
from .flagset import FlagSet, flagset_field_names
from .loading import load_flagset
from .registry import REGISTRY, Decision, Flag, Outcome, Undetermined
from .text import EditionText

log = logging.getLogger(__name__)

__all__ = [
    "REGISTRY",
    "Decision",
    "Flag",
    "FlagSet",
    "Undetermined",
    "compute_outcomes",
    "flags_for",
    "load_flagset",
]


def compute_outcomes(edition: Edition) -> dict[str, Outcome]:
    """Run every detector over ``edition``: flag name → Decision or Undetermined."""
    text = EditionText(edition)
    out: dict[str, Outcome] = {}
    for name, spec in REGISTRY.items():
        result = spec.detector(text)
        if isinstance(result, Decision):
            problem = spec.check(result.value)
            if problem is not None:  # a detector bug must not leak a bad value
                log.warning("flag %s: detector returned a bad value: %s", name, problem)
                result = Undetermined(f"detector returned a bad value: {problem}")
            else:
                result = Decision(spec.normalize(result.value), result.rules, result.evidence)
        out[name] = result
    return out


def flags_for(edition: Edition) -> FlagSet:
    """The behaviour flags of ``edition``, read from its text.

    Every flag of :data:`REGISTRY` gets a value, or ``None`` with the reason in
    ``FlagSet.undetermined``; ``FlagSet.provenance(name)`` gives the rule ids and the
    exact text that decided it.
    """
    return FlagSet.from_outcomes(compute_outcomes(edition), edition.effective_date)


assert tuple(REGISTRY) == flagset_field_names(), "FlagSet fields must follow the registry"
