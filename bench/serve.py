"""Load test of ``rulediff serve`` on loopback: bounded, zero errors expected, latencies.

    python bench/serve.py [--corpus DIR] [--clients 32] [--seconds 20] [--requests 4000]
                          [--workers 1] [--generator async|threads]

Starts the server as a user would (a subprocess on a free 127.0.0.1 port) over a copy of
the warm cache without alignments or diffs (so a neighbouring pair's diff is truly not
cached), then, one scenario at a time, ``--clients`` keep-alive connections send requests,
each waiting for its answer before the next, until ``--requests`` are done or ``--seconds``
have passed. The clients run on one event loop in one thread (:class:`Load`), which costs
a fifth of the CPU per request of a thread per client with ``http.client``
(``--generator threads``, the generator used before): on 2 shared cores the generator's
own work was most of the measured latency.

* **rule first ask** — a rule of a random edition never asked before (no memo helps);
* **rule** — one rule of a random edition (``/api/editions/DATE/rules/N``), from a set
  of 400 asked once before (the server's memo answers, as for popular rules);
* **search** — a random one of 19 words or phrases in the newest edition (``/api/search``;
  asked once before, so the memo answers; ``direct`` is the uncached search);
* **diff uncached** — every client asks for the same neighbouring pair at the same moment
  (single flight: computed once), a new pair each round;
* **diff cached** — the pairs of the previous scenario again.

Prints p50/p99/max per scenario, errors (must be 0), the CPU time per request of the
server (its processes, from ``/proc``) and of the load generator, the machine's load
average, the startup time, and, as the baseline run in the same process, the same rule
lookups and searches made by calling the library directly (ratio = HTTP / direct). Goals:
rule p99 < 20 ms, search p99 < 50 ms on 2 cores. Figures only: a benchmark never fails.
"""

from __future__ import annotations

import argparse
import asyncio
import http.client
import json
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Callable
from pathlib import Path
from urllib.parse import quote

import httptools

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulediff import cache  # noqa: E402
from rulediff.corpus import Corpus  # noqa: E402
from rulediff.search import open_index, search_document  # noqa: E402

WORDS = [
    "trample", "flying", "mana burn", "\"damage on the stack\"", "legend rule", "mulligan",
    "layer", "face down", "commander", "token", "sacrifice", "priority", "combat damage",
    "planeswalker", "copy", "split second", "cleanup step", "702.19b", "state-based actions",
]  # fmt: skip


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


def percentile(values: list[float], p: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(p / 100 * (len(ordered) - 1))))]


class Load:
    """``clients`` keep-alive connections, each asking ``next_path()`` in turn, all driven by
    one event loop in one thread (uvloop when installed; httptools parses the answers).

    The load generator shares the 2 cores with the server, so it must be cheap: the thread
    per client of :class:`ThreadLoad` (``http.client``) costs ~4x more CPU per request
    than the server's own work and inflates every latency it measures. The questions, the
    bounds and what counts as a latency are the same: from writing the request to the last
    byte of the answer (status 200 and the whole body, per ``Content-Length`` or chunks).
    """

    def __init__(self, port: int, clients: int, timeout: float = 600.0) -> None:
        self.port, self.clients, self.timeout = port, clients, timeout

    def run(
        self, next_path: Callable[[int], str], requests: int, seconds: float
    ) -> tuple[list[float], int, int]:
        job = self._run(next_path, requests, seconds)
        try:
            import uvloop
        except ImportError:
            return asyncio.run(job)
        return uvloop.run(job)

    async def _run(
        self, next_path: Callable[[int], str], requests: int, seconds: float
    ) -> tuple[list[float], int, int]:
        loop = asyncio.get_running_loop()
        latencies: list[float] = []
        errors = 0
        asked = 0
        deadline = time.monotonic() + seconds
        host = f"127.0.0.1:{self.port}".encode()

        async def connect() -> _Connection:
            _transport, connection = await loop.create_connection(
                lambda: _Connection(host), "127.0.0.1", self.port
            )
            return connection

        async def client() -> None:
            nonlocal asked, errors
            connection = await connect()
            while asked < requests and time.monotonic() <= deadline:
                path = next_path(asked)
                asked += 1
                start = time.perf_counter()
                guard = loop.call_later(self.timeout, connection.abort)
                try:
                    ok = await connection.get(path) == 200
                except (OSError, httptools.HttpParserError):
                    ok = False
                guard.cancel()
                latencies.append(time.perf_counter() - start)
                if not ok:
                    errors += 1
                    connection.close()
                    connection = await connect()
            connection.close()

        await asyncio.gather(*(client() for _ in range(self.clients)))
        return latencies, errors, asked


class _Connection(asyncio.Protocol):
    """One keep-alive HTTP/1.1 connection of :class:`Load`: one request at a time."""

    def __init__(self, host: bytes) -> None:
        self.host = host
        self.parser = httptools.HttpResponseParser(self)
        self.transport: asyncio.Transport | None = None
        self.waiter: asyncio.Future[int] | None = None

    def get(self, path: str) -> asyncio.Future[int]:
        """The status of ``GET path``, once the whole answer has arrived."""
        assert self.transport is not None
        self.waiter = asyncio.get_running_loop().create_future()
        if self.transport.is_closing():
            self.waiter.set_exception(ConnectionError("the connection is closed"))
            return self.waiter
        self.transport.write(
            b"GET " + path.encode("ascii") + b" HTTP/1.1\r\nHost: " + self.host
            + b"\r\nAccept-Encoding: gzip\r\n\r\n"
        )  # fmt: skip
        return self.waiter

    def abort(self) -> None:
        self._fail(TimeoutError(f"no answer in time on {self.host.decode()}"))
        if self.transport is not None:
            self.transport.abort()

    def close(self) -> None:
        if self.transport is not None:
            self.transport.close()

    # asyncio.Protocol
    def connection_made(self, transport: asyncio.BaseTransport) -> None:
        self.transport = transport  # type: ignore[assignment]

    def data_received(self, data: bytes) -> None:
        try:
            self.parser.feed_data(data)
        except httptools.HttpParserError as exc:
            self._fail(exc)

    def connection_lost(self, exc: Exception | None) -> None:
        self._fail(exc or ConnectionError("the server closed the connection"))

    # httptools callbacks
    def on_message_complete(self) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_result(self.parser.get_status_code())

    def _fail(self, exc: Exception) -> None:
        if self.waiter is not None and not self.waiter.done():
            self.waiter.set_exception(exc)


class ThreadLoad:
    """``clients`` threads, each with its own keep-alive ``http.client`` connection, asking
    ``next_path()`` (the generator before :class:`Load`; ``--generator threads``)."""

    def __init__(self, port: int, clients: int) -> None:
        self.port, self.clients = port, clients

    def run(
        self, next_path: Callable[[int], str], requests: int, seconds: float
    ) -> tuple[list[float], int, int]:
        latencies: list[float] = []
        errors = [0]
        counter = [0]
        lock = threading.Lock()
        deadline = time.monotonic() + seconds

        def client(k: int) -> None:
            con = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
            while True:
                with lock:
                    if counter[0] >= requests or time.monotonic() > deadline:
                        break
                    n = counter[0]
                    counter[0] += 1
                path = next_path(n)
                start = time.perf_counter()
                try:
                    con.request("GET", path, headers={"Accept-Encoding": "gzip"})
                    r = con.getresponse()
                    r.read()
                    ok = r.status == 200
                except (OSError, http.client.HTTPException):
                    ok = False
                    con.close()
                    con = http.client.HTTPConnection("127.0.0.1", self.port, timeout=600)
                took = time.perf_counter() - start
                with lock:
                    latencies.append(took)
                    if not ok:
                        errors[0] += 1
            con.close()

        threads = [threading.Thread(target=client, args=(k,)) for k in range(self.clients)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
        return latencies, errors[0], counter[0]


def cpu_seconds(pid: int) -> float:
    """CPU time (user + system) so far of process ``pid`` and its children (``--workers``),
    from ``/proc``; 0 where there is no ``/proc``."""
    try:
        with open(f"/proc/{pid}/stat") as handle:
            fields = handle.read().rsplit(")", 1)[1].split()
        with open(f"/proc/{pid}/task/{pid}/children") as handle:
            children = [int(c) for c in handle.read().split()]
    except OSError:
        return 0.0
    own = (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")
    return own + sum(cpu_seconds(child) for child in children)


def measured(
    load: Load | ThreadLoad,
    server: int,
    next_path: Callable[[int], str],
    requests: int,
    seconds: float,
) -> tuple[list[float], int, tuple[float, float]]:
    """``load.run(…)`` and the CPU time per request it cost: the server's, the generator's."""
    times = os.times()
    before = (cpu_seconds(server), times.user + times.system)
    lat, err, asked = load.run(next_path, requests, seconds)
    times = os.times()
    after = (cpu_seconds(server), times.user + times.system)
    per = tuple((b - a) / max(asked, 1) for a, b in zip(before, after, strict=True))
    return lat, err, (per[0], per[1])


def report(
    name: str,
    lat: list[float],
    errors: int,
    direct: list[float] | None = None,
    cpu: tuple[float, float] | None = None,
) -> None:
    if not lat:
        print(f"{name:<16} no requests")
        return
    p50, p99 = percentile(lat, 50) * 1000, percentile(lat, 99) * 1000
    line = (
        f"{name:<16} n={len(lat):>5}  errors={errors}  p50={p50:8.2f} ms  p99={p99:8.2f} ms  "
        f"max={max(lat) * 1000:8.2f} ms"
    )
    if direct:
        d50 = statistics.median(direct) * 1000
        line += f"  | direct p50={d50:.2f} ms, HTTP/direct={p50 / d50:.1f}x"
    if cpu:
        line += f"  | CPU/request: server {cpu[0] * 1e6:.0f} us, load {cpu[1] * 1e6:.0f} us"
    print(line, flush=True)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("RULEDIFF_CORPUS"))
    parser.add_argument("--clients", type=int, default=32)
    parser.add_argument("--seconds", type=float, default=20.0)
    parser.add_argument("--requests", type=int, default=4000)
    parser.add_argument("--workers", type=int, default=1)
    parser.add_argument("--pairs", type=int, default=3, help="uncached pairs (rounds)")
    parser.add_argument(
        "--generator",
        choices=("async", "threads"),
        default="async",
        help="the load generator: one event loop (default) or a thread per client (before)",
    )
    args = parser.parse_args()

    corpus = Corpus.open(args.corpus)
    infos = corpus.editions()
    rng = random.Random(7)
    print(f"cpus={os.cpu_count()} loadavg before={os.getloadavg()}", flush=True)

    # A bench cache: parsed editions, flags, search index, scan kept; alignments, diffs,
    # steps and lineage left out so the neighbouring pairs below are computed for real.
    warm = cache.cache_dir()
    open_index(corpus)  # make sure the index exists in the warm cache first
    scratch = Path(tempfile.mkdtemp(prefix="rulediff-bench-serve-"))
    for kind in ("edition", "scan", "flags", "search", "clauses"):
        if (warm / kind).is_dir():
            shutil.copytree(warm / kind, scratch / kind)

    # Requests: rules of random editions, searches in the newest.
    samples: list[tuple[str, str]] = []
    for info in rng.sample(infos, min(20, len(infos))):
        ed = corpus.load(info)
        for rule in rng.sample(list(ed.rules), 20):
            samples.append((str(info.date), str(rule.id)))
    rule_paths = [f"/api/editions/{d}/rules/{r}" for d, r in samples]
    # Rules nobody asked before (not in any memo of the server), from other editions.
    fresh = []
    for info in rng.sample(infos, min(20, len(infos))):
        ed = corpus.load(info)
        for rule in rng.sample(list(ed.rules), 60):
            path = f"/api/editions/{info.date}/rules/{rule.id}"
            if path not in rule_paths:
                fresh.append(path)
    rng.shuffle(fresh)
    search_paths = [f"/api/search?q={quote(w)}" for w in WORDS]

    # Baseline in this process: the same questions asked of the library directly.
    from rulediff.commands.parse import rule_block

    direct_rule = []
    for d, r in samples[:200]:
        start = time.perf_counter()
        rule_block(corpus.load(corpus.resolve(d)), r)
        direct_rule.append(time.perf_counter() - start)
    index = open_index(corpus)
    direct_search = []
    for w in WORDS * 5:
        start = time.perf_counter()
        search_document(index, w, edition=str(infos[-1].date))
        direct_search.append(time.perf_counter() - start)

    port = free_port()
    env = dict(os.environ, RULEDIFF_CACHE_DIR=str(scratch))
    command = [sys.executable, "-m", "rulediff", "serve", "--port", str(port)]
    command += ["--workers", str(args.workers)]
    if args.corpus:
        command += ["--corpus", args.corpus]
    start = time.perf_counter()
    server = subprocess.Popen(command, env=env, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
    try:
        while True:
            try:
                con = http.client.HTTPConnection("127.0.0.1", port, timeout=60)
                con.request("GET", rule_paths[0])
                if con.getresponse().status == 200:
                    break
            except OSError:
                if server.poll() is not None:
                    sys.exit(f"the server exited: {server.stderr.read().decode()[-2000:]}")
                time.sleep(0.05)
        print(f"startup to first rule answered: {time.perf_counter() - start:.2f} s", flush=True)
        load = (Load if args.generator == "async" else ThreadLoad)(port, args.clients)

        # Warm the server's own memo a little (one pass over a few paths), as in service.
        load.run(lambda n: rule_paths[n % len(rule_paths)], len(rule_paths), args.seconds)
        load.run(lambda n: search_paths[n % len(search_paths)], len(search_paths), args.seconds)

        lat, err, cpu = measured(
            load, server.pid, lambda n: fresh[n % len(fresh)], len(fresh), args.seconds
        )
        report("rule first ask", lat, err, direct_rule, cpu)
        lat, err, cpu = measured(
            load, server.pid, lambda n: rng.choice(rule_paths), args.requests, args.seconds
        )
        report("rule", lat, err, direct_rule, cpu)
        lat, err, cpu = measured(
            load, server.pid, lambda n: rng.choice(search_paths), args.requests, args.seconds
        )
        report("search", lat, err, direct_search, cpu)

        pairs = [(str(infos[k - 1].date), str(infos[k].date)) for k in range(len(infos) - 1, 0, -1)]
        pairs = pairs[: args.pairs]
        uncached: list[float] = []
        uncached_err = 0
        for old, new in pairs:
            path = f"/api/diff/{old}/{new}"
            lat, err, _ = load.run(lambda n, p=path: p, args.clients, max(args.seconds, 300))
            uncached += lat
            uncached_err += err
        report("diff uncached", uncached, uncached_err)
        diff_paths = [f"/api/diff/{o}/{n}" for o, n in pairs]
        lat, err, cpu = measured(
            load, server.pid, lambda n: diff_paths[n % len(diff_paths)], args.requests // 4,
            args.seconds,
        )  # fmt: skip
        report("diff cached", lat, err, cpu=cpu)
        computed = (
            len(list((scratch / "alignment").glob("*"))) if (scratch / "alignment").is_dir() else 0
        )
        print(
            f"alignments computed for {len(pairs)} pairs x {args.clients} simultaneous "
            f"requests: {computed} (single flight: expect {len(pairs)})"
        )
    finally:
        server.terminate()
        server.wait(timeout=30)
        shutil.rmtree(scratch, ignore_errors=True)
    print(f"loadavg after={os.getloadavg()}", flush=True)
    print(
        json.dumps({"clients": args.clients, "workers": args.workers, "generator": args.generator})
    )


if __name__ == "__main__":
    main()
