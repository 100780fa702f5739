"""Where the rule numbers cited in a text are written, to hyperlink them.

The references themselves come from the clause grammar (:func:`rulediff.clauses.references`:
``rule 702.36e``, ``rules 103.2, 103.3, and 103.4``, ``rules 601.2a–h``, ``section 4``,
``see 805.8``, ``subrule 702.36e``); each carries where its number is written,
so each becomes one link. The end of a range written as a bare letter (``h`` in
``601.2a–h``) links to ``601.2h``; the members a range leaves unwritten get no link.

>>> text = "See rules 601.2a–h and 702.36."
>>> [(text[s:e], target) for s, e, target in find_references(text)]
[('601.2a', '601.2a'), ('h', '601.2h'), ('702.36', '702.36')]
"""

from __future__ import annotations

from ..clauses import written_targets

#: ``(start, end, target)`` for every rule number written in a text, in order.
find_references = written_targets
