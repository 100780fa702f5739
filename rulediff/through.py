"""``rulediff diff --through``: the diff of two editions whose alignment follows the
lineage through the editions between (:class:`rulediff.history.Through`).

Its own module, after both :mod:`rulediff.diff` and :mod:`rulediff.history`, so that the
cache of either stage does not depend on the other's code.
"""

from __future__ import annotations

import hashlib

from . import cache
from .align import align
from .diff import EditionDiff, diff
from .history import Lineage, Through
from .model import Edition


def diff_through(
    old: Edition, new: Edition, lineage: Lineage, *, use_cache: bool = True
) -> EditionDiff:
    """:func:`rulediff.diff.diff` with the alignment following ``lineage``, the steps from
    ``old`` to ``new``, through the on-disk cache keyed by every edition of the lineage
    (the answer depends on each of them)."""

    def compute() -> EditionDiff:
        return diff(old, new, align(old, new, use_cache=use_cache, through=Through(lineage)))

    shas = [ref.sha256 for ref in lineage.editions]
    if not (old.sha256 and new.sha256 and shas and all(shas)):
        return compute()
    key = hashlib.sha256("\n".join(shas).encode()).hexdigest()
    return cache.get_or_compute("through-diff", key, compute, use_cache=use_cache)
