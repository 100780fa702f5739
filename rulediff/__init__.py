"""rulediff: version, diff and audit the Magic: The Gathering Comprehensive Rules.

The library API is usable on its own; the ``rulediff`` command is a thin shell over it.
"""

from __future__ import annotations

from .errors import RuleDiffError
from .flags import FlagSet, flags_for  # behaviour flags of an edition (rulediff.flags)
from .model import Edition, GlossaryEntry, Rule, RuleId, Section
from .parse import parse_bytes, parse_file, parse_text

__version__ = "0.1.0"

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
