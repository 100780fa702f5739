"""Where the whole-site build spends its CPU (issue 9, third speed figure), printed.

    python bench/site_stages.py [--corpus DIR]

Builds the site with one process (``build_site(..., jobs=1)``) into a temporary folder
with an empty cache, and prints the CPU time (``time.process_time``) of each stage:
parsing, aligning, diffing, the flags, the lineage histories, loading and storing cache
entries (by kind) and rendering each kind of page; "other" is the rest (corpus scan,
planning, small pages, writing). A stage called from inside another is counted in the
outer one only. Never asserted: the machine may be shared, so compare runs made one
after the other (e.g. two checkouts, alternating).
"""

from __future__ import annotations

import argparse
import collections
import functools
import os
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("RULEDIFF_CORPUS", ""))
    opts = parser.parse_args()
    with tempfile.TemporaryDirectory() as tmp:
        os.environ["RULEDIFF_CORPUS"] = opts.corpus
        os.environ["RULEDIFF_CACHE_DIR"] = str(Path(tmp) / "cache")
        run(Path(tmp) / "site")


def run(out: Path) -> None:
    import rulediff.align as align_module
    import rulediff.cache as cache_module
    import rulediff.corpus.load as load_module
    import rulediff.diff as diff_module
    import rulediff.flags as flags_module
    import rulediff.history as history_module
    import rulediff.site as site_module
    from rulediff.corpus import Corpus

    spent: collections.Counter[str] = collections.Counter()
    calls: collections.Counter[str] = collections.Counter()
    depth = [0]

    def timed(fn: Any, stage: str, by_kind: bool = False) -> Any:
        @functools.wraps(fn)
        def wrapper(*args: Any, **kwargs: Any) -> Any:
            if depth[0]:
                return fn(*args, **kwargs)
            name = f"{stage}:{args[0]}" if by_kind else stage
            depth[0] += 1
            start = time.process_time()
            try:
                return fn(*args, **kwargs)
            finally:
                spent[name] += time.process_time() - start
                calls[name] += 1
                depth[0] -= 1

        return wrapper

    load_module.parse_bytes = timed(load_module.parse_bytes, "parse")
    align_module.align = timed(align_module.align, "align")
    diff_module.diff = timed(diff_module.diff, "diff")
    flags_module.compute_outcomes = timed(flags_module.compute_outcomes, "flags")
    cache_module.loads = timed(cache_module.loads, "cache load", by_kind=True)
    cache_module.dumps = timed(cache_module.dumps, "cache store", by_kind=True)
    site_module.rule_history = timed(site_module.rule_history, "lineage histories")
    history_module.step_from = timed(history_module.step_from, "steps")
    for kind, render in list(site_module._RENDERERS.items()):
        site_module._RENDERERS[kind] = timed(render, f"render {kind} pages")

    start = time.process_time()
    site_module.build_site(out, Corpus.open(), jobs=1)
    total = time.process_time() - start
    for stage, seconds in spent.most_common():
        if seconds >= 0.05:
            print(f"{stage:28s} {seconds:7.2f} s  ({calls[stage]} calls)")
    print(f"{'other':28s} {total - sum(spent.values()):7.2f} s")
    print(f"{'whole build (CPU, 1 process)':28s} {total:7.2f} s")


if __name__ == "__main__":
    main()
