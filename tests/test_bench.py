"""The benchmarks' own set-up: a cold run must start with every in-process memo empty."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

from rulediff import align, clauses, provenance

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_forget_process_memos_empties_the_memos_and_skips_classes():
    """A module that imports a memo class (``LastUsed``) exposes the class's unbound
    ``cache_clear``; emptying must skip it and still empty the real memos."""
    bench_diff = _load("diff")
    provenance.unit_keys("A rule text of several words. Another sentence here too.")
    assert provenance.unit_keys.cache_info().currsize > 0
    align._glossary_nodes_of(SimpleNamespace(glossary=()))
    clauses._stored_targets["A text read from a stored table."] = ()
    clauses._stored_editions.add("an edition")
    bench_diff.forget_process_memos()
    assert provenance.unit_keys.cache_info().currsize == 0
    assert not align._glossary_nodes_of._entries
    assert not clauses._stored_targets and not clauses._stored_editions
