"""`FlagSet`: the behaviour flags of one edition as a typed, frozen object.

One attribute per flag (attribute name = flag name), made from the flag declarations
(:data:`rulediff.flags.REGISTRY`): a flag is declared once, with its detector, and
the class, the exporters and the JSON Schema follow. A value of ``None`` means the
flag is undetermined (for a derived set: the detector could not decide; for a
hand-written set: the file does not declare it). :meth:`FlagSet.provenance` gives the
rule ids, evidence text or reason behind each value.

An engine can build one by hand (:meth:`FlagSet.from_mapping`) or load a hand-written
TOML/JSON file (:func:`rulediff.flags.load_flagset`); both validate every value.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Mapping
from dataclasses import field, fields, make_dataclass
from types import MappingProxyType
from typing import TYPE_CHECKING, Any, Literal

from . import detectors as _detectors  # noqa: F401  (declares every flag)
from .registry import REGISTRY, Decision, Flag, Undetermined, Value

FlagOutcome = Decision | Undetermined


class _FlagSetMethods:
    """What every :class:`FlagSet` can do (the fields come from the registry)."""

    __slots__ = ()

    # -- construction -------------------------------------------------------------
    @classmethod
    def from_outcomes(
        cls, outcomes: Mapping[str, FlagOutcome], effective_date: dt.date | None = None
    ) -> FlagSet:
        """Build from detector outcomes (what :func:`rulediff.flags.flags_for` does)."""
        values = {
            name: (out.value if isinstance(out, Decision) else None)
            for name, out in outcomes.items()
        }
        return cls(
            effective_date=effective_date,
            _outcomes=MappingProxyType(dict(outcomes)),
            **values,  # type: ignore[arg-type]
        )

    @classmethod
    def from_mapping(cls, data: Mapping[str, object], *, source: str = "<mapping>") -> FlagSet:
        """Build from a hand-written mapping, validating every name and value.

        Accepts ``{"mana_burn": false, …}``, the same under a ``"flags"`` key, and the
        JSON export's ``{"flags": {"mana_burn": {"value": false, …}}}``. Flags left
        out (or ``null``) are undetermined. Raises :class:`rulediff.errors.FlagError`.
        """
        from .loading import mapping_to_flagset

        return mapping_to_flagset(cls, data, source=source)

    # -- reading ---------------------------------------------------------------------
    def outcome(self, name: str) -> FlagOutcome:
        """The :class:`Decision` or :class:`Undetermined` behind one flag."""
        if name not in REGISTRY:
            raise KeyError(name)
        found = self._outcomes.get(name)
        if found is not None:
            return found
        value = getattr(self, name)
        if value is not None:  # built with FlagSet(name=value): no text behind it
            return Decision(value, (), "set by hand")
        return Undetermined("not declared")

    def provenance(self, name: str) -> tuple[tuple[str, ...], str]:
        """``(rule ids, evidence text)`` for a flag (reason text when undetermined)."""
        out = self.outcome(name)
        if isinstance(out, Decision):
            return out.rules, out.evidence
        return out.rules, out.reason

    def value(self, name: str) -> Value | None:
        if name not in REGISTRY:
            raise KeyError(name)
        return getattr(self, name)

    def values(self) -> dict[str, Value | None]:
        """Every flag's value by name, in registry order."""
        return {name: getattr(self, name) for name in REGISTRY}

    @property
    def undetermined(self) -> dict[str, str]:
        """Flags without a value, with the reason."""
        return {
            name: self.outcome(name).reason  # type: ignore[union-attr]
            for name in REGISTRY
            if getattr(self, name) is None
        }




def _annotation(spec: Flag) -> Any:
    """The attribute type of one flag (``None`` always allowed: undetermined)."""
    if spec.type == "enum":
        return Literal[spec.allowed] | None  # type: ignore[valid-type]
    return {"bool": bool, "int": int, "list": tuple[str, ...]}[spec.type] | None


_DOC = """The behaviour flags of one edition (``None`` = undetermined or not declared).

What each flag means: ``rulediff.flags.REGISTRY[name].description`` (and
docs/flags.md). Build one from an edition with :func:`rulediff.flags.flags_for`,
from a hand-written mapping with :meth:`from_mapping` (validated), or directly
(``FlagSet(mana_burn=False, …)``, not validated).
"""

if TYPE_CHECKING:  # pragma: no cover
    FlagSet = _FlagSetMethods  # type checkers see the methods; attributes are dynamic
else:
    FlagSet = make_dataclass(
        "FlagSet",
        [
            ("effective_date", dt.date | None, field(default=None)),
            *((name, _annotation(spec), field(default=None)) for name, spec in REGISTRY.items()),
            (
                "_outcomes",
                Mapping[str, FlagOutcome],
                field(
                    default_factory=lambda: MappingProxyType({}),
                    compare=False,
                    hash=False,
                    repr=False,
                ),
            ),
        ],
        bases=(_FlagSetMethods,),
        frozen=True,
        slots=True,
        namespace={"__doc__": _DOC},
    )
    FlagSet.__module__ = __name__


def flagset_field_names() -> tuple[str, ...]:
    """The flag attributes of :class:`FlagSet` (tests check they match the registry)."""
    return tuple(f.name for f in fields(FlagSet) if f.name not in ("effective_date", "_outcomes"))
