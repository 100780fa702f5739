"""The cyclic collector is paused only while a stage runs, and always left as it was."""

from __future__ import annotations

import gc

import pytest

from rulediff.collector import collector_paused
from rulediff.parse import parse_text
from tests.helpers import edition_text


def test_paused_inside_and_resumed_after() -> None:
    assert gc.isenabled()
    with collector_paused():
        assert not gc.isenabled()
        with collector_paused():  # nested: the inner block does not resume it early
            assert not gc.isenabled()
        assert not gc.isenabled()
    assert gc.isenabled()


def test_resumed_after_an_error() -> None:
    with pytest.raises(ValueError), collector_paused():
        raise ValueError("boom")
    assert gc.isenabled()


def test_a_collector_switched_off_by_the_caller_stays_off() -> None:
    gc.disable()
    try:
        with collector_paused():
            assert not gc.isenabled()
        assert not gc.isenabled()
    finally:
        gc.enable()


def test_a_decorated_stage_leaves_the_collector_running() -> None:
    seen: list[bool] = []

    @collector_paused()
    def stage() -> None:
        seen.append(gc.isenabled())

    stage()
    stage()
    assert seen == [False, False]
    assert gc.isenabled()
    parse_text(edition_text("1. Basics\n\n100. General\n\n100.1. A rule of ours.\n"))
    assert gc.isenabled()


def test_what_a_stage_leaves_alive_goes_to_the_oldest_generation_unfrozen() -> None:
    """Round 24: a stage's survivors are promoted without a walk (freeze, then unfreeze
    at once): nothing stays frozen, and cyclic garbage made in the stage is still
    collected by a full collection."""
    gc.collect()

    class Holder:
        pass

    @collector_paused()
    def stage() -> list[Holder]:
        cycle = Holder()
        cycle.me = cycle  # type: ignore[attr-defined]  # garbage once the stage returns
        return [Holder() for _ in range(3)]

    kept = stage()
    assert gc.get_freeze_count() == 0
    oldest = {id(o) for o in gc.get_objects(generation=2)}
    assert all(id(h) in oldest for h in kept)
    before = sum(isinstance(o, Holder) for o in gc.get_objects())
    assert gc.collect() >= 1
    assert sum(isinstance(o, Holder) for o in gc.get_objects()) == before - 1


def test_objects_a_caller_froze_stay_frozen() -> None:
    """The site build freezes its editions; a stage run inside it unfreezes nothing."""
    gc.collect()
    gc.freeze()
    try:
        frozen = gc.get_freeze_count()
        with collector_paused():
            made = [object() for _ in range(10)]
        assert made and gc.get_freeze_count() == frozen
    finally:
        gc.unfreeze()
