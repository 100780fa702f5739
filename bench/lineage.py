"""Lineage-graph benchmark: every rule of every corpus edition as one networkx graph.

    python bench/lineage.py

From a warm cache (a first run fills it: parsed editions and the alignment of every
consecutive pair), in this process:

* **baseline** — load every edition from the cache and list its rule ids (what any
  corpus-wide command pays first);
* **graph** — the same loads plus the chained lineage (cached steps) and
  :func:`rulediff.lineage.lineage_graph` without ``--refs`` (target: < 30 s);
* **graphml** — writing that graph as GraphML text;

with the peak resident memory of the process (target: < 2 GB). Figures only.
"""

from __future__ import annotations

import resource
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulediff import cache  # noqa: E402
from rulediff.corpus import Corpus  # noqa: E402
from rulediff.history import build_lineage  # noqa: E402
from rulediff.lineage import graph_graphml, lineage_graph  # noqa: E402


def cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def peak_mb() -> float:
    return resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024


def main() -> None:
    corpus = Corpus.open()
    infos = corpus.editions()
    build_lineage(infos, corpus.load, workers=2)  # fill the cache (no-op when warm)
    cache.forget_memo()

    start, cpu0 = time.perf_counter(), cpu()
    ids = [[str(r.id) for r in corpus.load(i).rules] for i in infos]
    baseline, baseline_cpu = time.perf_counter() - start, cpu() - cpu0
    cache.forget_memo()

    start, cpu0 = time.perf_counter(), cpu()
    lineage = build_lineage(infos, corpus.load)
    graph = lineage_graph((corpus.load(i) for i in infos), lineage)
    cache.forget_memo()
    built, built_cpu = time.perf_counter() - start, cpu() - cpu0

    print(f"peak memory after the graph: {peak_mb():.0f} MB")
    start = time.perf_counter()
    text = graph_graphml(graph)
    written = time.perf_counter() - start
    kinds: dict[str, int] = {}
    for _, _, kind in graph.edges(data="kind"):
        kinds[kind] = kinds.get(kind, 0) + 1
    print(f"editions: {len(infos)}; rules listed by the baseline: {sum(map(len, ids))}")
    print(f"graph: {graph.number_of_nodes()} nodes, {graph.number_of_edges()} edges {kinds}")
    print(f"baseline (load editions, list rules): {baseline:6.2f} s (cpu {baseline_cpu:.2f} s)")
    print(
        f"lineage graph (no --refs):            {built:6.2f} s (cpu {built_cpu:.2f} s; "
        f"target < 30 s; {built / baseline:.1f}× the baseline)"
    )
    print(f"GraphML text ({len(text) / 1e6:.0f} MB):              {written:6.2f} s")
    print(f"peak memory: {peak_mb():.0f} MB (target < 2048 MB)")


if __name__ == "__main__":
    main()
