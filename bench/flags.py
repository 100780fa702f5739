"""Flags benchmark: the whole-corpus timeline with warm caches.

    python bench/flags.py [--corpus DIR] [--repeat N]

Prints, best of N:

* ``rulediff flags --timeline`` as a user runs it (a fresh process, warm caches);
* in one process: reading every edition from the warm edition cache (the baseline the
  ratios are against), deriving every edition's flags from its text (detectors only,
  no flags cache), and the timeline from the warm flags cache;
* the per-edition cost of the detectors.

Caches are warmed first. Figures only: a benchmark never fails.
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
from rulediff.flags import compute_outcomes  # noqa: E402
from rulediff.flags.timeline import corpus_timeline  # noqa: E402
from rulediff.render.flags import timeline_text  # noqa: E402


def timed(fn, repeat: int) -> tuple[float, object]:
    best = float("inf")
    value = None
    for _ in range(repeat):
        start = time.perf_counter()
        value = fn()
        best = min(best, time.perf_counter() - start)
    return best, value


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("RULEDIFF_CORPUS"))
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()

    corpus = Corpus.open(args.corpus)
    infos = corpus.editions()
    corpus_timeline(corpus)  # warm both caches (editions and flags)
    print(f"corpus: {len(infos)} editions ({infos[0].date} to {infos[-1].date})")

    cmd = [sys.executable, "-m", "rulediff", "flags", "--timeline"]
    if args.corpus:
        cmd += ["--corpus", args.corpus]
    cli, _ = timed(lambda: subprocess.run(cmd, check=True, capture_output=True), args.repeat)

    load, editions = timed(lambda: [corpus.load(i) for i in infos], args.repeat)
    derive, _ = timed(lambda: [compute_outcomes(ed) for ed in editions], 1)  # type: ignore[union-attr]
    cached, sets = timed(lambda: corpus_timeline(corpus), args.repeat)
    render, _ = timed(lambda: timeline_text(sets), args.repeat)  # type: ignore[arg-type]

    n = len(infos)
    print(f"rulediff flags --timeline (fresh process, warm caches): {cli:8.3f} s")
    print(f"load every edition from the warm cache (baseline):       {load:8.3f} s")
    print(
        f"derive every edition's flags from its text:              {derive:8.3f} s  "
        f"({derive / load:5.2f}x baseline, {1000 * derive / n:6.1f} ms/edition)"
    )
    print(
        f"timeline from the warm flags cache:                      {cached:8.3f} s  "
        f"({cached / load:5.3f}x baseline)"
    )
    print(f"render the text timeline:                                {render:8.3f} s")


if __name__ == "__main__":
    main()
