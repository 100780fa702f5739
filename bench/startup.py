"""Start-up benchmark: how long ``rulediff --help`` and ``rulediff show 100.1`` take as
whole processes, against the eager start-up they replaced (every command module imported
up front), measured in the same run.

    python bench/startup.py [--repeat N]

Uses the corpus of ``$RULEDIFF_CORPUS`` and the cache of ``$RULEDIFF_CACHE_DIR`` (warm it
first with any command). Prints the median wall time and CPU time (user + system) per
command; CPU time is the fairer figure on a busy machine. Figures only: never fails.
"""

from __future__ import annotations

import argparse
import resource
import statistics
import subprocess
import sys
import time

PY = sys.executable
#: The old start-up: what ``import rulediff.cli`` used to import before any command ran.
EAGER = (
    "import rulediff.flags, rulediff.clauses, rulediff.audit, rulediff.diff, "
    "rulediff.history, rulediff.site, rulediff.corpus; "
    "import rulediff.commands.audit, rulediff.commands.citecheck, "
    "rulediff.commands.corpus, rulediff.commands.diff, rulediff.commands.engine, "
    "rulediff.commands.flags, rulediff.commands.graph, rulediff.commands.parse, "
    "rulediff.commands.refs, rulediff.commands.site; "
    "from rulediff.cli import run; run()"
)

CASES = [
    ("python -c pass (floor)", [PY, "-c", "pass"]),
    ("rulediff --help", [PY, "-m", "rulediff", "--help"]),
    ("  eager imports + --help", [PY, "-c", EAGER, "--help"]),
    ("rulediff show 100.1", [PY, "-m", "rulediff", "show", "100.1"]),
    ("  eager imports + show 100.1", [PY, "-c", EAGER, "show", "100.1"]),
]


def measure(args: list[str], repeat: int) -> tuple[float, float]:
    walls, cpus = [], []
    for _ in range(repeat):
        before = resource.getrusage(resource.RUSAGE_CHILDREN)
        start = time.perf_counter()
        subprocess.run(args, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, check=False)
        walls.append(time.perf_counter() - start)
        after = resource.getrusage(resource.RUSAGE_CHILDREN)
        cpus.append(after.ru_utime - before.ru_utime + after.ru_stime - before.ru_stime)
    return statistics.median(walls), statistics.median(cpus)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--repeat", type=int, default=7)
    args = parser.parse_args()
    subprocess.run([PY, "-m", "rulediff", "show", "100.1"], capture_output=True, check=False)
    figures = {}
    for name, command in CASES:
        figures[name] = measure(command, args.repeat)
        wall, cpu = figures[name]
        print(f"{name:30s} wall {wall * 1000:7.0f} ms   cpu {cpu * 1000:6.0f} ms")
    for lazy, eager in (
        ("rulediff --help", "  eager imports + --help"),
        ("rulediff show 100.1", "  eager imports + show 100.1"),
    ):
        ratio = figures[lazy][1] / figures[eager][1]
        print(f"{lazy}: {ratio:.2f}x the CPU time of the eager start-up (target <= 0.5x)")


if __name__ == "__main__":
    main()
