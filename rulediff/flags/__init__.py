"""Behaviour flags derived from the text of each edition.

>>> from rulediff.flags import FlagSet, REGISTRY
>>> REGISTRY["mana_burn"].type, REGISTRY["legend_rule"].allowed
('bool', ('oldest-stays', 'all-die', 'controller-chooses'))
>>> fs = FlagSet.from_mapping({"mana_burn": False, "legend_rule": "all-die"})
>>> fs.mana_burn, fs.legend_rule, fs.mulligan
(False, 'all-die', None)
>>> fs.provenance("mana_burn"), fs.undetermined["mulligan"]
(((), 'declared in <mapping>'), 'not declared in <mapping>')

With an edition (``rulediff.corpus`` loads one), ``flags_for(edition)`` gives the same
type with every value read from the text, and ``provenance`` the rule ids and the
sentence that decided it.

:func:`flags_for` runs every registered detector over one edition and returns a
:class:`FlagSet` (one attribute per flag, ``None`` when undetermined, with the rule
ids and evidence behind each value). :func:`load_flagset` reads a hand-written TOML
or JSON flags file (what an engine declares it implements) into the same type.
"""

from __future__ import annotations

import logging

from ..model import Edition
from .flagset import REGISTRY, FlagSet
from .loading import load_flagset
from .registry import Decision, Flag, Outcome, Undetermined
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

