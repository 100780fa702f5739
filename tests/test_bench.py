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


def test_align_passes_finds_the_passes_and_puts_them_back():
    """The per-pass benchmark times what ``align`` calls (its passes, read from its
    source), each outermost call once, and leaves the modules as they were."""
    bench_passes = _load("align_passes")
    passes = bench_passes.called_in_align()
    names = {name for _module, name in passes}
    assert {"rescue", "_match_rules", "_Provenance", "_classify", "_rule_nodes_of"} <= names
    assert "align" not in names and "sorted" not in names
    before = {name: vars(module)[name] for module, name in passes}
    spent, restore = bench_passes.timing(passes)
    assert align._match_rules is not before["_match_rules"]
    align._words("a few words")  # not a pass: untimed
    align._match_by_children(align._Pairing([], []))  # a pass on an empty pairing
    restore()
    assert {name: vars(module)[name] for module, name in passes} == before
    # the pairing's construction is timed too (a class ``align`` calls), the inner call not
    assert set(spent) == {"_Pairing", "_match_by_children"}
    assert all(seconds >= 0.0 for seconds in spent.values())
