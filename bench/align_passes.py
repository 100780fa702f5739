"""Where a cold alignment spends its time, pass by pass (issue 9, first speed figure).

    python bench/align_passes.py [--corpus DIR] [--old 2015-01-23] [--new 2025-11-14] [--top N]

``rulediff.align.align`` runs some sixty passes one after the other; the cold 10-year
changelog (``bench/diff.py``) spends most of its time there. This prints the wall time
of each pass called from ``align`` itself (the building of the rule nodes and of the
sentence links included), every in-process memo emptied before the two editions are
parsed (as in ``bench/diff.py``'s cold run), best of ``--repeat`` runs per pass. A pass
called from inside another is counted in the outer one only. Figures only: a benchmark
never fails; the machine may be shared.
"""

from __future__ import annotations

import argparse
import ast
import functools
import inspect
import sys
import time
from collections import defaultdict
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from diff import forget_process_memos  # noqa: E402

from rulediff import align as align_module  # noqa: E402
from rulediff import rescue as rescue_module  # noqa: E402
from rulediff.clauses import clause_parser  # noqa: E402
from rulediff.corpus import Corpus, load_file  # noqa: E402


def called_in_align() -> list[tuple[object, str]]:
    """(module, name) of every function or class ``align`` calls by name: its passes."""
    tree = ast.parse(inspect.getsource(align_module.align).lstrip())
    found: dict[tuple[int, str], tuple[object, str]] = {}
    for node in ast.walk(tree):
        if not isinstance(node, ast.Call):
            continue
        func = node.func
        if isinstance(func, ast.Name) and func.id != "align":
            module, name = align_module, func.id
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "rescue"
        ):
            module, name = rescue_module, func.attr
        else:
            continue
        if callable(vars(module).get(name)) and getattr(
            vars(module)[name], "__module__", ""
        ).startswith("rulediff"):
            found[(id(module), name)] = (module, name)
    return sorted(found.values(), key=lambda t: t[1])


def timing(passes: list[tuple[object, str]]) -> tuple[dict[str, float], Callable[[], None]]:
    """Wrap each pass so its wall time adds to the returned table (outermost call only);
    returns the table and a function putting the passes back."""
    spent: dict[str, float] = defaultdict(float)
    depth = [0]
    originals = []
    for module, name in passes:
        fn = vars(module)[name]
        originals.append((module, name, fn))

        @functools.wraps(fn)
        def timed(*args, _fn=fn, _name=name, **kwargs):
            if depth[0]:
                return _fn(*args, **kwargs)
            depth[0] += 1
            start = time.perf_counter()
            try:
                return _fn(*args, **kwargs)
            finally:
                spent[_name] += time.perf_counter() - start
                depth[0] -= 1

        setattr(module, name, timed)

    def restore() -> None:
        for module, name, fn in originals:
            setattr(module, name, fn)

    return spent, restore


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--old", default="2015-01-23")
    parser.add_argument("--new", default="2025-11-14")
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--top", type=int, default=25, help="passes to list (the rest summed)")
    args = parser.parse_args()

    corpus = Corpus.open(args.corpus, use_cache=False)
    paths = corpus.resolve(args.old).path, corpus.resolve(args.new).path
    clause_parser()  # built once per process
    passes = called_in_align()
    best: dict[str, float] = {}
    best_total = float("inf")
    for _ in range(max(1, args.repeat)):
        forget_process_memos()
        old, new = (load_file(path, use_cache=False) for path in paths)  # as a cold run
        spent, restore = timing(passes)
        start = time.perf_counter()
        try:
            align_module.align(old, new, use_cache=False)
        finally:
            restore()
        best_total = min(best_total, time.perf_counter() - start)
        for name, seconds in spent.items():
            best[name] = min(best.get(name, seconds), seconds)

    ranked = sorted(best.items(), key=lambda t: (-t[1], t[0]))
    print(
        f"cold align {args.old} → {args.new}: {best_total:.3f} s (best of {args.repeat}), "
        f"{len(ranked)} passes timed"
    )
    for name, seconds in ranked[: args.top]:
        print(f"  {seconds:7.3f} s  {seconds / best_total:6.1%}  {name}")
    rest = ranked[args.top :]
    if rest:
        print(f"  {sum(s for _n, s in rest):7.3f} s  the other {len(rest)} passes")
    untimed = best_total - sum(best.values())
    print(f"  {untimed:7.3f} s  the rest (align's own lines; each best is taken apart)")


if __name__ == "__main__":
    main()
