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
            gc.enable()
