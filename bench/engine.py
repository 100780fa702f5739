"""Engine benchmark: ``rulediff engine compare`` over the whole corpus, warm caches.

    python bench/engine.py [--corpus DIR] [--repeat N] [--scenario NAME ...]

Prints:

* the wall time of ``rulediff engine compare SCENARIO`` as a user runs it (a fresh
  process, the edition cache already warm), best of N;
* in one process: loading every edition from the warm cache (the baseline the ratios
  are against), deriving every edition's flags from the text, reading them back from
  the warm flags cache (what ``compare`` does: results need no citations, so no
  edition is loaded), and playing one scenario under every edition with citations;
* every scenario compared over every edition once the flags are known.

The edition and flags caches are warmed first (what is missing is computed and stored).
Figures only: a benchmark never fails.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulediff.corpus import Corpus  # noqa: E402
from rulediff.engine import compare, open_scenario, run, scenario_names  # noqa: E402
from rulediff.engine.runner import corpus_rule_sets  # noqa: E402
from rulediff.flags import flags_for  # noqa: E402


def best(times: list[float]) -> float:
    return min(times)


def cli_compare(scenario: str, corpus: str | None, repeat: int) -> float:
    """Best wall time of the command in a fresh interpreter (imports included)."""
    cmd = [sys.executable, "-m", "rulediff"]
    if corpus:
        cmd += ["--corpus", corpus]
    cmd += ["engine", "compare", scenario]
    times = []
    for _ in range(repeat):
        t = time.perf_counter()
        subprocess.run(cmd, check=True, capture_output=True, cwd=ROOT,
                       env={**os.environ, "PYTHONPATH": str(ROOT)})
        times.append(time.perf_counter() - t)
    return best(times)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("RULEDIFF_CORPUS"))
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--scenario", action="append",
                        help="scenario(s) to time through the CLI (default: mana-burn)")
    args = parser.parse_args()

    corpus = Corpus.open(args.corpus)
    infos = corpus.editions()
    for info in infos:  # warm the edition cache
        corpus.load(info)
    corpus_rule_sets(corpus)  # and the flags cache

    t = time.perf_counter()
    editions = [corpus.load(info) for info in infos]
    load = time.perf_counter() - t

    t = time.perf_counter()
    flag_sets = [flags_for(e) for e in editions]
    flags_time = time.perf_counter() - t

    names = scenario_names()
    print(f"corpus: {len(editions)} editions, {len(names)} scenarios")
    print(f"baseline: load every edition from the warm cache   {load:7.2f} s  (1.00x)")
    print(f"derive every edition's flags                      {flags_time:7.2f} s  "
          f"({flags_time / load:.2f}x)")

    scenario = open_scenario("mana-burn")
    t = time.perf_counter()
    for e, fs in zip(editions, flag_sets, strict=True):
        run(scenario, fs, edition=e)
    play_one = time.perf_counter() - t
    print(f"play mana-burn under every edition (with cites)   {play_one:7.2f} s  "
          f"({play_one / load:.2f}x)")

    t = time.perf_counter()
    rule_sets = corpus_rule_sets(corpus)
    read_flags = time.perf_counter() - t
    print(f"read every edition's flags from the warm cache    {read_flags:7.2f} s  "
          f"({read_flags / load:.2f}x)")
    t = time.perf_counter()
    for name in names:
        compare(open_scenario(name), rule_sets)
    play_all = time.perf_counter() - t
    runs = len(names) * len(editions)
    print(f"every scenario under every edition ({runs} runs)  {play_all:7.2f} s  "
          f"({play_all / load:.2f}x, {1000 * play_all / runs:.2f} ms/run)")

    for name in args.scenario or ["mana-burn"]:
        wall = cli_compare(name, args.corpus, args.repeat)
        print(f"`rulediff engine compare {name}` (fresh process, best of {args.repeat}) "
              f"{wall:7.2f} s  ({wall / load:.2f}x)")


if __name__ == "__main__":
    main()
