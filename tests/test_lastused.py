"""The identity memo kept for the objects used last (rulediff.lastused)."""

from __future__ import annotations

from hypothesis import given
from hypothesis import strategies as st

from rulediff.lastused import LastUsed


class _Box:
    """A key equal to every other box: the memo must still tell them apart."""

    def __init__(self, value: int) -> None:
        self.value = value

    def __eq__(self, other: object) -> bool:
        return isinstance(other, _Box)

    def __hash__(self) -> int:
        return 0


def test_a_key_used_again_is_not_recomputed() -> None:
    calls: list[int] = []
    memo = LastUsed(lambda box: calls.append(box.value) or box.value * 10)
    a, b = _Box(1), _Box(2)
    assert (memo(a), memo(b), memo(a), memo(b)) == (10, 20, 10, 20)
    assert calls == [1, 2]


def test_equal_but_distinct_keys_get_their_own_values() -> None:
    memo = LastUsed(lambda box: box.value)
    a, b = _Box(1), _Box(2)
    assert a == b
    assert memo(a) == 1
    assert memo(b) == 2


def test_only_the_last_keys_are_kept_and_the_oldest_goes_first() -> None:
    calls: list[int] = []
    memo = LastUsed(lambda box: calls.append(box.value) or box.value, size=2)
    a, b, c = _Box(1), _Box(2), _Box(3)
    memo(a)
    memo(b)
    memo(a)  # a is the last used now: c pushes out b
    memo(c)
    memo(a)
    assert calls == [1, 2, 3]
    memo(b)
    assert calls == [1, 2, 3, 2]


def test_cache_clear_forgets_every_entry() -> None:
    calls: list[int] = []
    memo = LastUsed(lambda box: calls.append(box.value) or box.value)
    a = _Box(1)
    memo(a)
    memo.cache_clear()
    memo(a)
    assert calls == [1, 1]


@given(st.lists(st.integers(0, 5), max_size=40), st.integers(1, 4))
def test_every_answer_is_that_of_the_function(picks: list[int], size: int) -> None:
    keys = [_Box(v) for v in range(6)]
    memo = LastUsed(lambda box: ("value", box.value, id(box)), size=size)
    for k in picks:
        assert memo(keys[k]) == ("value", k, id(keys[k]))
