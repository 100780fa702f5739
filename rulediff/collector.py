"""Pausing Python's cyclic garbage collector while a heavy stage runs.

Parsing an edition, aligning two, diffing and rendering each make millions of small
objects (tokens, tuples, sets, view records) that reference counting frees as it goes or
that stay as the result. Their sheer number keeps triggering the cyclic collector, which
then walks everything alive (both editions, the memos) again and again: about an eighth
of a cold 10-year changelog. These stages leave next to no reference cycles behind, so
each pauses the collector; it resumes as it was when the stage returns, and collects
what little is left at its next turn. (``site.build_site`` freezes the editions for the
same reason.)
"""

from __future__ import annotations

import contextlib
import gc
from collections.abc import Iterator


@contextlib.contextmanager
def collector_paused() -> Iterator[None]:
    """The cyclic garbage collector paused for the ``with`` block (or the decorated call).

    Nested pauses are harmless: only the outermost one resumes the collector, and only if
    it was running when the block began.

    >>> import gc
    >>> with collector_paused():
    ...     gc.isenabled()
    False
    >>> gc.isenabled()
    True
    """
    running = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if running:
            _promote_survivors()
            gc.enable()


def _promote_survivors() -> None:
    """Move every tracked object to the oldest generation without walking it.

    What a stage leaves alive (an edition, an alignment, the memos) is long-lived; left
    in the youngest generation, the first allocation after the stage starts a collection
    that walks all of it (one walk per stage, about 0.1 s of a cold 10-year changelog).
    ``gc.freeze()`` then ``gc.unfreeze()`` splices the generations into the permanent
    one and back into the oldest (two list splices, no walk): nothing stays frozen, and
    a cycle among these objects is collected by the next full collection, as any
    long-lived object's. Skipped when a caller keeps objects frozen (the site build):
    unfreezing would hand those back to the collector.
    """
    if gc.get_freeze_count() == 0:
        gc.freeze()
        gc.unfreeze()
