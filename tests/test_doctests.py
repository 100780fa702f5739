"""Every runnable doctest of the package runs (a ``+SKIP`` example proves nothing).

Collected here, rather than with ``--doctest-modules`` in the shared pytest options,
so that CI runs them from ``tests/`` like every other test.
"""

from __future__ import annotations

import doctest
import importlib
import pkgutil

import pytest

import rulediff

MODULES = sorted(m.name for m in pkgutil.walk_packages(rulediff.__path__, "rulediff."))


@pytest.mark.parametrize("name", MODULES)
def test_module_doctests_pass(name):
    module = importlib.import_module(name)
    result = doctest.testmod(module, optionflags=doctest.ELLIPSIS, report=False)
    assert result.failed == 0, f"{name}: {result.failed} of {result.attempted} examples failed"


@pytest.mark.parametrize("name", ["rulediff.flags", "rulediff.engine"])
def test_package_overviews_have_runnable_examples(name):
    module = importlib.import_module(name)
    examples = doctest.DocTestFinder().find(module, name)[0].examples
    assert examples and not any(e.options.get(doctest.SKIP) for e in examples)
    assert doctest.testmod(module, report=False).attempted == len(examples)
