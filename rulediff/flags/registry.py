"""The flag registry: every behaviour flag declared once, with its detector.

A flag is a fact an engine needs to behave as an edition says (mana burn? which
legend rule?). Each :class:`Flag` names its type and allowed values and carries a
detector: a function that reads the text of a parsed edition and returns a
:class:`Decision` — the value plus the rule ids and exact text that decided it — or
an :class:`Undetermined` with the reason. Detectors never look at the edition's date.
"""

from __future__ import annotations

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


REGISTRY: dict[str, Flag] = {}
"""Every flag by name, in declaration order (the order of :class:`FlagSet` fields)."""


def flag(
    name: str, type: FlagType, description: str, allowed: tuple[str, ...] = ()
) -> Callable[[Detector], Detector]:
    """Declare a flag and register the decorated function as its detector."""

    def register(detector: Detector) -> Detector:
        if name in REGISTRY:
            raise ValueError(f"flag {name!r} declared twice")
        if (type == "enum") != bool(allowed):
            raise ValueError(f"flag {name!r}: only enum flags list allowed values")
        REGISTRY[name] = Flag(name, type, description, detector, tuple(allowed))
        return detector

    return register
