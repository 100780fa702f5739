"""Where the rule numbers cited in a text are written, to hyperlink them.

The references themselves come from the clause grammar (:func:`rulediff.clauses.references`:
``rule 702.36e``, ``rules 103.2, 103.3, and 103.4``, ``rules 601.2a–h``, ``section 4``,
``see 805.8``, ``subrule 702.36e``); this module only finds where each written number
stands, so each becomes one link. The end of a range written as a bare letter (``h`` in
``601.2a–h``) links to ``601.2h``; the members a range leaves unwritten get no link.

>>> text = "See rules 601.2a–h and 702.36."
>>> [(text[s:e], target) for s, e, target in find_references(text)]
[('601.2a', '601.2a'), ('h', '601.2h'), ('702.36', '702.36')]
"""

from __future__ import annotations

import re
from functools import lru_cache

from ..clauses import references

#: Between the two ends of a written range (as in the clause grammar's ``RANGE_SEP``).
_RANGE_SEP = re.compile(r"\s*[–—−-]\s*(?=\w)|\s+through\s+")


@lru_cache(maxsize=1 << 16)
def find_references(text: str) -> tuple[tuple[int, int, str], ...]:
    """``(start, end, target)`` for every rule number written in ``text``, in order.

    Memoized: the two editions of a changelog share most of their texts, and a rule's
    text is searched again for its word diff.
    """
    found: list[tuple[int, int, str]] = []
    cursor = 0
    range_end: tuple[int, int, str] | None = None  # where the written end of a range stands
    for ref in references(text):
        if ref.implied:
            continue
        if range_end is not None and range_end[2] == ref.written:
            found.append((range_end[0], range_end[1], ref.target))
            range_end = None
            continue
        range_end = None
        written = re.compile(rf"(?<![\w.]){re.escape(ref.written)}(?!\w)")
        m = written.search(text, max(cursor, ref.start), ref.end)
        if m is None:  # not expected: every target is written inside its phrase
            continue
        sep = _RANGE_SEP.search(ref.written)
        if sep is None:
            found.append((m.start(), m.end(), ref.target))
        else:
            found.append((m.start(), m.start() + sep.start(), ref.target))
            range_end = (m.start() + sep.end(), m.end(), ref.written)
        cursor = m.end()
    return tuple(found)
