"""Machine-readable text that every reader accepts: JSON and TOML with controls escaped.

Why: JSON only requires escaping U+0000–U+001F, and ``json.dumps(ensure_ascii=False)``
leaves DEL (U+007F) and the C1 controls (U+0080–U+009F) raw; TOML forbids DEL unescaped,
and a control character in an export is never what a reader wants raw. Every export
escapes all of them the same way (no corpus edition contains one, so real outputs are
unchanged). The separators U+2028/U+2029 are text, not controls, and stay as they are.
"""

from __future__ import annotations

import json
import re

#: Control characters a comment must not carry (line breaks included).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u2028\u2029]")
#: The controls ``json.dumps`` leaves raw.
_RAW_IN_JSON = re.compile("[\x7f-\x9f]")


def _u(match: re.Match[str]) -> str:
    return f"\\u{ord(match.group()):04x}"


def json_text(doc: object, *, indent: int | None = 2, sort_keys: bool = False) -> str:
    """``doc`` as JSON (UTF-8 characters kept, every control escaped, final newline)."""
    text = json.dumps(doc, ensure_ascii=False, indent=indent, sort_keys=sort_keys)
    return _RAW_IN_JSON.sub(_u, text) + "\n"


def toml_string(value: str) -> str:
    """A TOML basic string: quotes, backslashes and every control character escaped."""
    return _RAW_IN_JSON.sub(_u, json.dumps(value, ensure_ascii=False))


def comment_safe(text: str) -> str:
    """Text for a ``#`` comment (TOML, Python): controls and line breaks written as ``\\uXXXX``."""
    return _CONTROLS.sub(_u, text.replace("\n", " ").replace("\t", " "))
