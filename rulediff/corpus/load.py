"""Loading editions: bytes and files parsed through the cache."""

from __future__ import annotations

import hashlib
import os
from dataclasses import replace

from .. import cache
from ..ingest import read_bytes
from ..model import Edition
from ..parse import parse_bytes


def load_bytes(data: bytes, source: str, *, use_cache: bool = True) -> Edition:
    """Parse an edition's bytes through the cache keyed by sha256 and the parser version."""
    sha = hashlib.sha256(data).hexdigest()
    edition = cache.get_or_compute(
        "edition",
        sha,
        lambda: parse_bytes(data, source),
        use_cache=use_cache,
    )
    if edition.source != source:
        edition = replace(edition, source=source)
    return edition


def load_file(path: str | os.PathLike[str], *, use_cache: bool = True) -> Edition:
    """Read and parse one edition file, through the cache."""
    return load_bytes(read_bytes(path), str(path), use_cache=use_cache)
