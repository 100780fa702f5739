"""Parse benchmark: cold parse vs warm (cache) load vs a plain decode+split.

    python bench/parse.py [--corpus DIR] [--repeat N]

Prints, for the newest edition and for the whole corpus: the cold parse time, the warm
load time (from the on-disk cache, in-process memo emptied: read + sha256 + msgpack decode),
each as a ratio to a plain ``bytes.decode().splitlines()`` of the same bytes, the
warm/cold speedup (target ≥ 10×), and peak memory. Everything is measured in this
process against a throw-away cache folder, so the figures compare like with like.
Figures only: a benchmark never fails.
"""

from __future__ import annotations

import argparse
import gc
import os
import resource
import statistics
import sys
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulediff import cache  # noqa: E402
from rulediff.corpus import Corpus, load_file  # noqa: E402
from rulediff.ingest import ingest_bytes  # noqa: E402
from rulediff.parse import document_parser, parse_bytes  # noqa: E402

_CODEC = {"utf-16-le": "utf-16", "utf-16-be": "utf-16"}


def timed(fn: Callable[[], object], setup: Callable[[], object] | None = None) -> float:
    """Wall time of one ``fn()`` call; ``setup`` (untimed) runs first."""
    if setup is not None:
        setup()
    gc.collect()
    start = time.perf_counter()
    fn()
    return time.perf_counter() - start


def rounds(
    measures: dict[str, tuple[Callable[[], object], Callable[[], object] | None]], repeat: int
) -> dict[str, float]:
    """Best time of each measure over ``repeat`` interleaved rounds.

    Interleaving (a, b, c, a, b, c …) exposes every measure to the same machine load,
    so their ratios hold even on a busy machine.
    """
    best: dict[str, float] = {}
    for _ in range(repeat):
        for name, (fn, setup) in measures.items():
            t = timed(fn, setup)
            best[name] = min(best.get(name, t), t)
    return best


def baseline(data: bytes, codec: str) -> list[str]:
    """What any reader must do at least: decode the bytes and split the lines."""
    return data.decode(codec).splitlines()


def peak_memory(fn: Callable[[], object]) -> int:
    """Peak bytes allocated by Python while ``fn`` runs (tracemalloc)."""
    gc.collect()
    tracemalloc.start()
    try:
        fn()
        return tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()


def mib(n: float) -> str:
    return f"{n / 2**20:.1f} MiB"


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    ap.add_argument("--corpus", default=os.environ.get("RULEDIFF_CORPUS"))
    ap.add_argument("--repeat", type=int, default=5, help="runs per figure for one edition")
    args = ap.parse_args(argv)
    if not args.corpus:
        ap.error("give --corpus DIR or set RULEDIFF_CORPUS")

    with tempfile.TemporaryDirectory(prefix="rulediff-bench-") as tmp:
        os.environ["RULEDIFF_CACHE_DIR"] = tmp
        cache.forget_memo()
        start = time.perf_counter()
        document_parser()
        build = time.perf_counter() - start

        infos = Corpus.open(args.corpus, use_cache=False).editions()
        files = []
        for info in infos:
            data = info.path.read_bytes()
            codec = _CODEC.get(ingest_bytes(data).encoding, ingest_bytes(data).encoding)
            files.append((info, data, codec))
        info, data, codec = files[-1]

        print(f"rulediff parse benchmark — Python {sys.version.split()[0]}")
        print(f"parser build (once per process): {build * 1000:.0f} ms")
        print()
        print(
            f"newest edition: {info.date} {info.path.name}, {len(data) / 1000:.0f} kB, "
            f"best of {args.repeat}"
        )
        load_file(info.path)  # fills the disk cache
        got = rounds(
            {
                "base": (lambda: baseline(data, codec), None),
                "cold": (lambda: parse_bytes(data, str(info.path)), None),
                "warm": (lambda: load_file(info.path), cache.forget_memo),
                "memo": (lambda: load_file(info.path), None),
            },
            args.repeat,
        )
        _report(got["base"], got["cold"], got["warm"], got["memo"])
        cold_peak = peak_memory(lambda: parse_bytes(data, str(info.path)))
        cache.forget_memo()
        warm_peak = peak_memory(lambda: load_file(info.path))
        print(
            f"  peak memory (tracemalloc): cold parse {mib(cold_peak)}, warm load {mib(warm_peak)}"
        )
        print()

        total = sum(len(d) for _, d, _ in files)
        print(f"whole corpus: {len(files)} editions, {total / 1e6:.1f} MB, one pass each")
        base_all = cold_all = hot_all = 0.0
        cold_times = []
        for i, d, c in files:
            load_file(i.path)  # fills the disk cache
            got = rounds(
                {
                    "base": (lambda d=d, c=c: baseline(d, c), None),
                    "cold": (lambda d=d, i=i: parse_bytes(d, str(i.path)), None),
                    "warm": (lambda i=i: load_file(i.path), cache.forget_memo),
                },
                1,
            )
            base_all += got["base"]
            cold_all += got["cold"]
            hot_all += got["warm"]
            cold_times.append(got["cold"])
        cache.forget_memo()
        _report(base_all, cold_all, hot_all, None)
        slowest = max(zip(cold_times, files, strict=True), key=lambda t: t[0])
        print(
            f"  cold parse per edition: median {statistics.median(cold_times) * 1000:.0f} ms, "
            f"slowest {slowest[0] * 1000:.0f} ms ({slowest[1][0].date})"
        )
        peak = max(
            peak_memory(lambda d=d, i=i: parse_bytes(d, str(i.path)))
            for i, d, _ in files[-3:] + files[:1]
        )
        print(f"  peak memory parsing one edition (tracemalloc, max of 4): {mib(peak)}")
        rss = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss * 1024
        print(f"  process peak RSS: {mib(rss)}")
    return 0


def _report(base: float, cold: float, hot: float, memo: float | None) -> None:
    print(f"  decode+split baseline : {base * 1000:9.1f} ms")
    print(f"  cold parse            : {cold * 1000:9.1f} ms  = {cold / base:6.1f}x baseline")
    print(f"  warm load (disk cache): {hot * 1000:9.1f} ms  = {hot / base:6.1f}x baseline")
    if memo is not None:
        print(f"  warm load (in-process): {memo * 1000:9.3f} ms")
    verdict = "meets" if cold / hot >= 10 else "MISSES"
    print(f"  warm/cold speedup     : {cold / hot:9.1f}x  ({verdict} the 10x target)")


if __name__ == "__main__":
    raise SystemExit(main())
