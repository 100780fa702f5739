"""Locate benchmark: a 50-paragraph page against the newest edition, whole process.

    python bench/locate.py [--repeat N]

The page is built at run time from the corpus (nothing of it is stored): 35 rules of
the newest edition (exact), 5 single sentences of longer rules (partial), 5 wordings of
a 2015 edition changed since (reworded, dated by the index), 5 sentences invented here
(not-cr), and a line of page furniture. With every edition cached (a first run fills
the cache) it times, best of ``--repeat``, in fresh processes:

* ``rulediff locate PAGE`` (the target: < 1 s whole process);
* baselines in the same run: ``python -c pass`` and ``rulediff --help`` (start-up and
  the imports of the command line);

and, in this process, the locate call alone (context loaded from the cache + the 50
paragraphs). Figures only: a benchmark never fails.
"""

from __future__ import annotations

import argparse
import random
import re
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulediff import cache  # noqa: E402
from rulediff.corpus import Corpus  # noqa: E402
from rulediff.locate import load_context, locate_text  # noqa: E402

INVENTED = [
    "A widget token that would be destroyed is exiled instead, and its owner gains 2 life.",
    "Players may look at the top card of the granary at any time during their own turn.",
    "If a Shrine leaves the battlefield, each player who controls a Shrine draws a card.",
    "Echo costs of permanents that entered this turn are paid during the end step.",
    "A player can't cast more than one spell with bargain during each of their turns.",
]


def build_page(rng: random.Random) -> str:
    corpus = Corpus.open()
    infos = corpus.editions()
    newest = corpus.load(infos[-1])
    old = corpus.load(next(i for i in infos if i.date.year == 2015))
    rules = [r for r in newest.rules if r.text != (r.title or "") and len(r.text) > 40]
    paragraphs = [r.text for r in rng.sample(rules, 35)]
    long_rules = [r for r in rules if len(re.findall(r"\. [A-Z]", r.text)) >= 2]
    for r in rng.sample(long_rules, 5):
        paragraphs.append(max(re.split(r"(?<=\.) (?=[A-Z])", r.text), key=len))
    current = {str(r.id): r.text for r in newest.rules}
    changed = [r.text for r in old.rules if str(r.id) in current and current[str(r.id)] != r.text]
    paragraphs += rng.sample(changed, 5)
    paragraphs += INVENTED
    rng.shuffle(paragraphs)
    return "Search\n\n" + "\n\n".join(paragraphs) + "\n"


def best_of(cmd: list[str], repeat: int) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)
        times.append(time.perf_counter() - start)
    return min(times)


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    page = build_page(random.Random(50))
    with tempfile.NamedTemporaryFile("w", suffix=".txt", delete=False) as handle:
        handle.write(page)
    cmd = [sys.executable, "-m", "rulediff", "locate", handle.name]
    subprocess.run(cmd, check=True, stdout=subprocess.DEVNULL)  # fill the cache
    result = subprocess.run(cmd, check=True, capture_output=True, text=True)
    print(result.stdout.splitlines()[0])

    empty = best_of([sys.executable, "-c", "pass"], args.repeat)
    helpx = best_of([sys.executable, "-m", "rulediff", "--help"], args.repeat)
    whole = best_of(cmd, args.repeat)

    cache.forget_memo()
    start = time.perf_counter()
    ctx = load_context("latest")
    loaded = time.perf_counter() - start
    start = time.perf_counter()
    located = locate_text(page, context=ctx)
    work = time.perf_counter() - start
    print(f"paragraphs located: {len(located.paragraphs)} ({located.counts()})")
    print(f"python -c pass:            {empty:6.3f} s")
    print(f"rulediff --help:           {helpx:6.3f} s  (start-up + CLI imports)")
    print(f"rulediff locate PAGE:      {whole:6.3f} s  (target < 1 s; best of {args.repeat})")
    print(
        f"  in process: context {loaded:.3f} s (index + edition table from the cache), "
        f"locate {work:.3f} s"
    )
    print(f"  locate / --help: {whole / helpx:.2f}×; beyond start-up: {whole - helpx:.3f} s")
    Path(handle.name).unlink()


if __name__ == "__main__":
    main()
