"""Find rule references in a rule's text, to hyperlink them.

The full text of an edition links every ``rule 702.36e``, ``rules 103.2, 103.3, and
103.4``, ``rules 601.2a–h`` and ``section 4`` to the rule it names. Each number written
in the text becomes one link (the end of a range written as a bare letter, ``h`` in
``601.2a–h``, links to ``601.2h``).

>>> text = "See rules 601.2a–h and 702.36."
>>> [(text[s:e], target) for s, e, target in find_references(text)]
[('601.2a', '601.2a'), ('h', '601.2h'), ('702.36', '702.36')]
"""

from __future__ import annotations

import re

_LEAD = re.compile(r"\b(?:([Rr]ules?)|[Ss]ections?)[ \u00a0]+(?=\d)")
_RULE_NUMBER = re.compile(r"\d{3}(?:\.\d+[a-z]{0,2})?(?![\d])")
_SECTION_NUMBER = re.compile(r"\d(?!\d)(?!\.\d)")
_SEPARATOR = re.compile(
    r"[ \u00a0]*,[ \u00a0]*(?:(?:and|or)[ \u00a0]+)?|[ \u00a0]+(?:and|or|through)[ \u00a0]+"
)
_RANGE = re.compile(r"[ \u00a0]*[–—-][ \u00a0]*")
_RANGE_END = re.compile(r"\d{3}(?:\.\d+[a-z]{0,2})?(?![\d])|[a-z]{1,2}\b|\d+[a-z]{0,2}\b")
_SPLIT = re.compile(r"^(\d{3})(?:\.(\d+)([a-z]{0,2}))?$")


def _range_end(start: str, written: str) -> str:
    """The full number a range end stands for: ``601.2a``–``h`` → ``601.2h``."""
    if _SPLIT.match(written):
        return written
    m = _SPLIT.match(start)
    if m is None:
        return written
    if written.isalpha() and m.group(2) is not None:
        return f"{m.group(1)}.{m.group(2)}{written}"
    if written[:1].isdigit():  # 903.3–5 → 903.5
        return f"{m.group(1)}.{written}"
    return written


def find_references(text: str) -> list[tuple[int, int, str]]:
    """``(start, end, target)`` for every rule number cited in ``text``, in order."""
    found: list[tuple[int, int, str]] = []
    for lead in _LEAD.finditer(text):
        pos = lead.end()
        number = _RULE_NUMBER if lead.group(1) else _SECTION_NUMBER
        m = number.match(text, pos)
        if m is None:
            continue
        found.append((m.start(), m.end(), m.group()))
        pos = m.end()
        while True:
            rng = _RANGE.match(text, pos)
            if rng is not None:
                end = _RANGE_END.match(text, rng.end())
                if end is not None:
                    found.append((end.start(), end.end(), _range_end(found[-1][2], end.group())))
                    pos = end.end()
                    continue
            sep = _SEPARATOR.match(text, pos)
            if sep is None:
                break
            nxt = number.match(text, sep.end())
            if nxt is None:
                break
            found.append((nxt.start(), nxt.end(), nxt.group()))
            pos = nxt.end()
    return found
