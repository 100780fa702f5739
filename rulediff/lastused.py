"""A memo of what is computed from one object alone, kept for the objects used last.

The site aligns a run of consecutive pairs of editions: each edition is the new side of
one pairing and the old side of the next, so what the alignment derives from a single
edition (its comparable texts, their stems and word index) need not be derived twice.

Entries are found by *identity* and each holds its key object itself: while an entry
lives, its object lives, so no other object can take its ``id`` and be given its value.
Only the last ``size`` keys are kept (two: the editions of the pair at hand), so memory
stays that of one pairing. Keys are compared with ``is``, never ``==``: two equal
editions loaded twice are two entries, which costs time, never a wrong answer.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Generic, TypeVar

K = TypeVar("K")
V = TypeVar("V")


class LastUsed(Generic[K, V]):
    """``memo(key)`` is ``make(key)``, computed once while ``key`` is among the last used."""

    __slots__ = ("_entries", "_make", "_size")

    def __init__(self, make: Callable[[K], V], size: int = 2) -> None:
        self._make = make
        self._size = size
        self._entries: list[tuple[K, V]] = []

    def __call__(self, key: K) -> V:
        for k, (held, value) in enumerate(self._entries):
            if held is key:
                if k:
                    self._entries.insert(0, self._entries.pop(k))
                return value
        value = self._make(key)
        self._entries.insert(0, (key, value))
        del self._entries[self._size :]
        return value

    def cache_clear(self) -> None:
        """Forget every entry (as ``functools.lru_cache`` objects do: benchmarks call it)."""
        self._entries.clear()


__all__ = ["LastUsed"]
