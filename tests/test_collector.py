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
