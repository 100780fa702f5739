"""The three speed figures of alignment (issue 9), printed, never asserted.

    python bench/align_speed.py [--corpus DIR] [--skip-site] [--skip-through]

1. **cold 10-year changelog** 2015-01-23 → 2025-11-14 against ``difflib.HtmlDiff`` in
   the same run (target ≤ 0.5×): runs ``bench/diff.py --repeat 1`` and relays its lines;
2. **neighbouring pair from cached editions** 2021-06-18 → 2021-07-23, the whole process
   (interpreter start, imports, editions read from the cache, align, diff, JSON out;
   the alignment and the diff themselves are *not* cached): target ≤ 1.0 s. Modules are
   imported from their compiled bytecode, as Python does by default (a
   ``PYTHONDONTWRITEBYTECODE`` set on the machine is lifted for this figure, and said);
3. **whole site from an empty cache** (``rulediff site`` into a temporary directory with a
   fresh cache dir): target ≤ 60 s on 2 cores. The 1-minute load average is printed
   before and after, since the machine may be shared.

Also printed, with no target: ``diff --through`` 2004-10-01 → 2026-06-19 as a whole
process, with no step between aligned yet, with every step cached, and with its diff
cached too, beside the cached direct diff of the same pair (``--skip-through`` leaves it
out).
"""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

NEIGHBOUR = """
import json, sys
from rulediff.corpus import Corpus
from rulediff.align import align
from rulediff.diff import as_dict, diff
corpus = Corpus.open()
old, new = (corpus.load(corpus.resolve(d)) for d in sys.argv[1:3])
json.dumps(as_dict(diff(old, new, align(old, new))))
"""


def _verdict(met: bool) -> str:
    """The word bench/diff.py prints after a target, so all three figures read alike."""
    return "ok" if met else "MISSED"


def run(args: list[str], env: dict[str, str]) -> tuple[float, subprocess.CompletedProcess]:
    start = time.perf_counter()
    done = subprocess.run(args, env=env, cwd=ROOT, capture_output=True, text=True)
    return time.perf_counter() - start, done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("RULEDIFF_CORPUS", ""))
    parser.add_argument("--skip-site", action="store_true")
    parser.add_argument("--skip-through", action="store_true")
    opts = parser.parse_args()
    env = dict(os.environ, RULEDIFF_CORPUS=opts.corpus)

    print("1. cold 10-year HTML changelog vs difflib.HtmlDiff (bench/diff.py):")
    _t, done = run([sys.executable, "bench/diff.py", "--repeat", "1"], env)
    for line in done.stdout.splitlines():
        print("   ", line)
    if done.returncode:
        print("    bench/diff.py failed:", done.stderr.strip().splitlines()[-1:])

    with tempfile.TemporaryDirectory() as tmp:
        env_n = dict(env, RULEDIFF_CACHE_DIR=str(Path(tmp) / "cache"))
        # Imports read the compiled modules, as Python does by default: a machine setting
        # PYTHONDONTWRITEBYTECODE would compile the package afresh in every process.
        lifted = bool(env_n.pop("PYTHONDONTWRITEBYTECODE", ""))
        pair = ["2021-06-18", "2021-07-23"]
        neighbour = [sys.executable, "-c", NEIGHBOUR, *pair]
        run(neighbour, env_n)  # fills the edition cache (and the bytecode cache)
        best = min(run(neighbour, env_n)[0] for _ in range(3))
        print(f"2. neighbouring pair {pair[0]} → {pair[1]}, whole process, cached editions:")
        note = " (PYTHONDONTWRITEBYTECODE lifted for it)" if lifted else ""
        print(f"    {best:.2f} s (best of 3; target ≤ 1.0 s: {_verdict(best <= 1.0)}){note}")

    if not opts.skip_through:
        # no target: the price of following the editions between, cold and warm
        with tempfile.TemporaryDirectory() as tmp:
            env_t = dict(env, RULEDIFF_CACHE_DIR=str(Path(tmp) / "cache"))
            pair = ["2004-10-01", "2026-06-19"]
            args = [sys.executable, "-m", "rulediff", "diff", *pair, "--format", "json"]
            args += ["-o", str(Path(tmp) / "out.json")]
            direct = min(run(args, env_t)[0] for _ in range(2))  # the first fills the cache
            cold, done = run([*args, "--through"], env_t)
            steps = []
            for _ in range(2):  # the steps cached, the through diff itself not
                shutil.rmtree(Path(tmp) / "cache" / "through-diff", ignore_errors=True)
                steps.append(run([*args, "--through"], env_t)[0])
            warm = min(run([*args, "--through"], env_t)[0] for _ in range(2))
            print(f"4. diff --through {pair[0]} → {pair[1]}, whole process:")
            if done.returncode:
                print(f"    failed: exit {done.returncode}")
            else:
                print(
                    f"    {cold:.1f} s with no step cached, {min(steps):.2f} s with the steps "
                    f"cached, {warm:.2f} s with the diff cached too "
                    f"(direct diff, cached: {direct:.2f} s; no target)"
                )

    if opts.skip_site:
        return
    with tempfile.TemporaryDirectory() as tmp:
        env_s = dict(env, RULEDIFF_CACHE_DIR=str(Path(tmp) / "cache"))
        load_before = os.getloadavg()[0]
        took, done = run(
            [sys.executable, "-m", "rulediff", "site", "-o", str(Path(tmp) / "site")], env_s
        )
        load_after = os.getloadavg()[0]
        # The verdict is on the target; a failed build has no time worth judging.
        status = _verdict(took <= 60.0) if done.returncode == 0 else f"exit {done.returncode}"
        print("3. whole site from an empty cache:")
        print(
            f"    {took:.1f} s (target ≤ 60 s on 2 cores: {status}; "
            f"load {load_before:.1f} before, {load_after:.1f} after, {os.cpu_count()} cpus)"
        )


if __name__ == "__main__":
    main()
