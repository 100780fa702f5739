"""Comparison keys of rule texts: typography made uniform, reference numbers as placeholders.

Two texts that differ only in quotes, dashes or the rule numbers they cite get the same
:func:`comparison_key`; alignment matches on these keys, classification tells the kinds
of difference apart with them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

# Quotes (straight, curly, guillemets), "?" (the 2008-05-01 edition prints it for every
# quote, apostrophe and dash), and every dash and hyphen: one class for comparison.
_TYPO_CHARS = (
    "\"'`\u00b4\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u2039\u203a\u00ab\u00bb?"
    "\u2010\u2011\u2012\u2013\u2014\u2015\u2212-"
)
_TYPO_CLASS = re.compile("[" + re.escape(_TYPO_CHARS) + "]+")
_TYPO_RUN = re.compile(r"\s*'(?:\s*')*\s*")
_SPACE = re.compile(r"\s+")

_NUM = r"\d{3}(?:\.\d+[a-z]{0,2})?"
_REF_LIST = re.compile(
    rf"\b(?:[Rr]ules?|[Ss]ections?)\s+((?:{_NUM}|\d)\b"
    rf"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+|\s*[-\u2013\u2014]\s*){_NUM}\b)*)"
)
_REF_DOTTED = re.compile(r"(?<![\w.])\d{3}\.\d+[a-z]{0,2}\b")
_REF_ONE = re.compile(rf"{_NUM}|\d")
_REF_HINT = re.compile(r"\d\d\d|[Ss]ection")
PLACEHOLDER = "\u00a7"
_RANGE_TAIL = re.compile(PLACEHOLDER + r"\s*[-\u2013\u2014]\s*[a-z]{1,2}\b")


@functools.lru_cache(maxsize=1 << 16)
def typography_key(text: str) -> str:
    """Text with quotes, dashes, ``?``-for-quote, ellipses and whitespace made uniform.

    Only for comparing: two texts that differ only in typography get the same key.
    """
    text = _TYPO_CLASS.sub("'", text.replace("\u2026", "..."))
    if "'" in text:
        text = _TYPO_RUN.sub("'", text)
    return " ".join(text.split())


def soft_typography(text: str) -> str:
    """Like :func:`typography_key` but keeping word boundaries (for word diffs)."""
    return " ".join(_TYPO_CLASS.sub("'", text.replace("\u2026", "...")).split())


def reference_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every rule number written inside a reference, in order.

    Covers ``rule 702.36d``, ``rules 613 and 614``, ``section 7``, ``rules 601.2a–h``
    (the first number) and bare dotted numbers such as ``(see 702.36d)``.

    >>> t = "See rules 613 and 614.2a, and 702.36d."
    >>> [t[a:b] for a, b in reference_spans(t)]
    ['613', '614.2a', '702.36d']
    """
    if _REF_HINT.search(text) is None:
        return []
    spans: set[tuple[int, int]] = set()
    for m in _REF_LIST.finditer(text):
        start = m.start(1)
        for one in _REF_ONE.finditer(m.group(1)):
            spans.add((start + one.start(), start + one.end()))
    for m in _REF_DOTTED.finditer(text):
        spans.add((m.start(), m.end()))
    out: list[tuple[int, int]] = []
    for span in sorted(spans):
        if out and span[0] < out[-1][1]:
            continue
        out.append(span)
    return out


@functools.lru_cache(maxsize=1 << 16)
def references(text: str) -> tuple[str, ...]:
    """The rule numbers referenced in ``text``, in order."""
    return tuple(text[a:b] for a, b in reference_spans(text))


def replace_references(text: str, replace: Callable[[str], str]) -> str:
    """``text`` with each referenced rule number passed through ``replace``."""
    spans = reference_spans(text)
    if not spans:
        return text
    parts: list[str] = []
    last = 0
    for a, b in spans:
        parts.append(text[last:a])
        parts.append(replace(text[a:b]))
        last = b
    parts.append(text[last:])
    return "".join(parts)


@functools.lru_cache(maxsize=1 << 16)
def placeholder_references(text: str) -> str:
    """Rule numbers inside references replaced by ``§``: "rule 702.36d" → "rule §".

    The letter that ends a range goes too: "rules 601.2a–h" → "rules §".
    """
    out = replace_references(text, lambda _n: PLACEHOLDER)
    return _RANGE_TAIL.sub(PLACEHOLDER, out) if PLACEHOLDER in out else out


def comparison_key(text: str) -> str:
    """The key texts are matched on: typography made uniform, references as placeholders."""
    return typography_key(placeholder_references(text))
