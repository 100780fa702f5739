"""Start ``rulediff serve`` as a user would (a subprocess on a free loopback port) and ask it."""

from __future__ import annotations

import json
import os
import socket
import subprocess
import sys
import time
import urllib.error
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from typing import Any

from click.testing import CliRunner

from rulediff.cli import main


def free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


@dataclass
class Reply:
    status: int
    headers: dict[str, str]
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


@dataclass
class Server:
    base: str
    process: subprocess.Popen[bytes]

    def get(
        self,
        path: str,
        headers: dict[str, str] | None = None,
        method: str = "GET",
        data: bytes | None = None,
    ) -> Reply:
        request = urllib.request.Request(
            self.base + path, headers=headers or {}, method=method, data=data
        )
        try:
            with urllib.request.urlopen(request, timeout=300) as r:
                return Reply(r.status, {k.lower(): v for k, v in r.headers.items()}, r.read())
        except urllib.error.HTTPError as e:
            return Reply(e.code, {k.lower(): v for k, v in e.headers.items()}, e.read())


@contextmanager
def running_server(*args: str) -> Iterator[Server]:
    port = free_port()
    command = [sys.executable, "-m", "rulediff", "serve", "--port", str(port), *args]
    process = subprocess.Popen(
        command, stdout=subprocess.PIPE, stderr=subprocess.STDOUT, env=os.environ.copy()
    )
    server = Server(f"http://127.0.0.1:{port}", process)
    try:
        deadline = time.monotonic() + 120
        while True:
            if process.poll() is not None:
                out = process.stdout.read().decode() if process.stdout else ""
                raise AssertionError(f"the server exited: {out}")
            try:
                with socket.create_connection(("127.0.0.1", port), timeout=1):
                    break
            except OSError:
                if time.monotonic() > deadline:
                    raise AssertionError("the server did not start in 120 s") from None
                time.sleep(0.2)
        yield server
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()


def cli(*args: str) -> bytes:
    """What ``rulediff ARGS`` prints (exit code 0 expected)."""
    result = CliRunner().invoke(main, list(args), catch_exceptions=False)
    assert result.exit_code == 0, result.output
    return result.stdout_bytes
