"""Comparison keys of rule texts: typography made uniform, reference numbers as placeholders.

Two texts that differ only in quotes, dashes or the rule numbers they cite get the same
:func:`comparison_key`; alignment matches on these keys, classification tells the kinds
of difference apart with them.
"""

from __future__ import annotations

import functools
import re
from collections.abc import Callable

from .clauses import written_targets

# Quotes (straight, curly, guillemets), "?" (the 2008-05-01 edition prints it for every
# quote, apostrophe and dash), and every dash and hyphen: one class for comparison.
_TYPO_CHARS = (
    "\"'`\u00b4\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u2039\u203a\u00ab\u00bb?"
    "\u2010\u2011\u2012\u2013\u2014\u2015\u2212-"
)
_TYPO_CLASS = re.compile("[" + re.escape(_TYPO_CHARS) + "]+")
_SPACE = re.compile(r"\s+")

PLACEHOLDER = "\u00a7"


@functools.lru_cache(maxsize=1 << 16)
def typography_key(text: str) -> str:
    """Text with quotes, dashes, ``?``-for-quote, ellipses and whitespace made uniform.

    Only for comparing: two texts that differ only in typography get the same key.
    """
    # Whitespace runs are one space already; a quote then takes the spaces around it and
    # the quotes next to it: every run of whitespace and quotes holding a quote is one
    # quote (``\s*'(?:\s*')*\s*`` → ``'``), found by ``str`` methods, not a regex that
    # tries every position of the text.
    text = soft_typography(text)
    if "'" in text:
        while "' '" in text:
            text = text.replace("' '", "'")
        text = text.replace(" '", "'").replace("' ", "'")
    return text


@functools.lru_cache(maxsize=1 << 15)
def soft_typography(text: str) -> str:
    """Like :func:`typography_key` but keeping word boundaries (for word diffs).

    Memoized: the wording sweeps and the classification ask again for the texts whose
    comparison keys were made first.
    """
    return " ".join(_TYPO_CLASS.sub("'", text.replace("\u2026", "...")).split())


def reference_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every rule number written inside a reference, in order.

    The references are the clause grammar's (:func:`rulediff.clauses.references`, the one
    reference parser): ``rule 702.36d``, ``rules 613 and 614``, ``section 7``, both written
    ends of ``rules 601.2a–h``, ``see 805.8`` and bare dotted numbers such as
    ``described in 409.1a``.

    >>> t = "See rules 613 and 614.2a, and 702.36d–f."
    >>> [t[a:b] for a, b in reference_spans(t)]
    ['613', '614.2a', '702.36d', 'f']
    """
    return [(a, b) for a, b, _ in written_targets(text)]


def references(text: str) -> tuple[str, ...]:
    """The rule numbers written in the references of ``text``, canonical, in order
    (``601.2h`` for the ``h`` of ``601.2a–h``; the members a range leaves unwritten are not
    listed)."""
    return tuple(target for _, _, target in written_targets(text))


def replace_references(text: str, replace: Callable[[str], str]) -> str:
    """``text`` with each written rule number (as written) passed through ``replace``."""
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
    """Rule numbers inside references replaced by ``§``: "rule 702.36d" → "rule §",
    "rules 601.2a–h" → "rules §–§"."""
    return replace_references(text, lambda _n: PLACEHOLDER)


#: A run of the letters a–z: the words the stems, roots and conditions of a lowercased
#: text are read from.
_LETTER_RUN = re.compile(r"[a-z]+")


@functools.lru_cache(maxsize=1 << 15)
def letter_words(text: str) -> tuple[str, ...]:
    """``re.findall("[a-z]+", text)``, memoized: the stems, roots, conditions and content
    words of one text are each read from these words (one regex pass per text, not one
    per reading)."""
    return tuple(_LETTER_RUN.findall(text))


def comparison_key(text: str) -> str:
    """The key texts are matched on: typography made uniform, references as placeholders."""
    return typography_key(placeholder_references(text))
