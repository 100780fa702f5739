"""rulediff: version, diff and audit the Magic: The Gathering Comprehensive Rules.

The library API is usable on its own; the ``rulediff`` command is a thin shell over it.
The names below are imported on first use (PEP 562), so ``import rulediff`` and the
command's start-up do not pay for the parser, the flags or networkx until they are needed.
"""

from __future__ import annotations

import importlib
from typing import TYPE_CHECKING, Any

__version__ = "0.1.0"

#: public name -> the module that defines it
_EXPORTS = {
    "Edition": ".model",
    "FlagSet": ".flags",
    "GlossaryEntry": ".model",
    "Rule": ".model",
    "RuleDiffError": ".errors",
    "RuleId": ".model",
    "Section": ".model",
    "flags_for": ".flags",
    "parse_bytes": ".parse",
    "parse_file": ".parse",
    "parse_text": ".parse",
}

__all__ = [
    "Edition",
    "FlagSet",
    "GlossaryEntry",
    "Rule",
    "RuleDiffError",
    "RuleId",
    "Section",
    "flags_for",
    "parse_bytes",
    "parse_file",
    "parse_text",
]

if TYPE_CHECKING:
    from .errors import RuleDiffError
    from .flags import FlagSet, flags_for
    from .model import Edition, GlossaryEntry, Rule, RuleId, Section
    from .parse import parse_bytes, parse_file, parse_text


def __getattr__(name: str) -> Any:
    module = _EXPORTS.get(name)
    if module is None:
        raise AttributeError(f"module 'rulediff' has no attribute {name!r}")
    value = getattr(importlib.import_module(module, __name__), name)
    globals()[name] = value
    return value


def __dir__() -> list[str]:
    return sorted([*globals(), *_EXPORTS])
