"""What a behaviour flag is, and how a flag is declared.

A flag is a fact an engine needs to behave as an edition says (mana burn? which
legend rule?). Each flag is declared once, as a field of
:class:`rulediff.flags.FlagSet`: the field's name is the flag's name, its annotation
the domain, and its metadata (:func:`flag`) the description and the detector.
:func:`registry_of` reads those fields back as :class:`Flag` records
(:data:`rulediff.flags.REGISTRY`). A detector is a function that reads the text of a
parsed edition and returns a :class:`Decision` — the value plus the rule ids and
exact text that decided it — or an :class:`Undetermined` with the reason. Detectors
never look at the edition's date.
"""

from __future__ import annotations

import dataclasses
import typing
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING, Literal

if TYPE_CHECKING:  # pragma: no cover
    from .text import EditionText

FlagType = Literal["bool", "enum", "int", "list"]
Value = bool | str | int | tuple[str, ...]


@dataclass(frozen=True, slots=True)
class Decision:
    """A determined value and the text that decided it."""

    value: Value
    rules: tuple[str, ...]
    """Rule numbers (or ``glossary:Term``) whose text decided the value."""
    evidence: str
    """The exact text (a sentence or clause) that decided the value."""


@dataclass(frozen=True, slots=True)
class Undetermined:
    """The detector could not decide; ``reason`` says why (never a silent default)."""

    reason: str
    rules: tuple[str, ...] = ()
    evidence: str = ""

    def __bool__(self) -> bool:
        return False


Outcome = Decision | Undetermined
Detector = Callable[["EditionText"], Outcome]


@dataclass(frozen=True, slots=True)
class Flag:
    """One behaviour flag: name, type, allowed values, description and detector."""

    name: str
    type: FlagType
    description: str
    detector: Detector
    allowed: tuple[str, ...] = ()
    """For ``enum`` flags: every value the flag can take, in a meaningful order."""

    def check(self, value: object) -> str | None:
        """Why ``value`` is not a valid value of this flag, or ``None`` if it is."""
        if self.type == "bool":
            if not isinstance(value, bool):
                return f"expected true or false, got {value!r}"
        elif self.type == "int":
            if isinstance(value, bool) or not isinstance(value, int):
                return f"expected an integer, got {value!r}"
        elif self.type == "enum":
            if value not in self.allowed:
                allowed = ", ".join(repr(a) for a in self.allowed)
                return f"{value!r} is not one of {allowed}"
        elif self.type == "list":
            if not isinstance(value, (list, tuple)) or not all(isinstance(v, str) for v in value):
                return f"expected a list of strings, got {value!r}"
        return None

    def normalize(self, value: Value) -> Value:
        """The canonical form: lists become sorted tuples without duplicates."""
        if self.type == "list":
            return tuple(sorted(set(value)))  # type: ignore[arg-type]
        return value


FLAG_METADATA = "rulediff.flag"
"""The key, in a :class:`FlagSet` field's metadata, of that flag's detector and description."""


@dataclass(frozen=True, slots=True)
class FlagDeclaration:
    """What a :class:`FlagSet` field carries besides its name and type."""

    detector: Detector
    description: str


def flag(detector: Detector, description: str) -> dict[str, FlagDeclaration]:
    """The metadata of one flag field of :class:`FlagSet`: ``field(metadata=flag(…))``."""
    return {FLAG_METADATA: FlagDeclaration(detector, description)}


def registry_of(cls: type) -> dict[str, Flag]:
    """Every flag of a dataclass declared with :func:`flag` fields, in field order.

    The domain of a flag is its field's annotation: ``bool | None``, ``int | None``,
    ``tuple[str, ...] | None`` (a list) or ``Literal[…] | None`` (an enum, whose
    arguments are its allowed values in order).
    """
    hints = typing.get_type_hints(cls)
    out: dict[str, Flag] = {}
    for f in dataclasses.fields(cls):
        declared = f.metadata.get(FLAG_METADATA)
        if declared is None:
            continue
        kind, allowed = _domain(f.name, hints[f.name])
        out[f.name] = Flag(f.name, kind, declared.description, declared.detector, allowed)
    return out


def _domain(name: str, annotation: object) -> tuple[FlagType, tuple[str, ...]]:
    """``(type, allowed values)`` of a flag from its annotation (``X | None``)."""
    args = [a for a in typing.get_args(annotation) if a is not type(None)]
    if len(args) != 1:
        raise TypeError(f"flag {name!r}: annotate it as 'X | None', got {annotation!r}")
    inner = args[0]
    if inner is bool:
        return "bool", ()
    if inner is int:
        return "int", ()
    if typing.get_origin(inner) is typing.Literal:
        return "enum", tuple(typing.get_args(inner))
    if typing.get_origin(inner) is tuple and typing.get_args(inner) == (str, ...):
        return "list", ()
    raise TypeError(f"flag {name!r}: no flag domain for {inner!r}")
