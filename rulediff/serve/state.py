"""What the server holds between requests: the corpus, single-flight work, a response memo.

The server is stateless in the sense that matters for scaling: everything here is derived
from the read-only corpus and the cache folder, so any number of processes (``--workers``)
or machines give the same answers. Within a process, expensive results (the alignment and
diff of a pair, the lineage, the search index) are computed once however many requests ask
for them at the same moment (:class:`SingleFlight`), and across processes a file lock in
the cache folder keeps two workers from computing the same pair twice.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import re
import threading
from collections import OrderedDict
from collections.abc import Callable, Iterator
from concurrent.futures import Future
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

from rapidfuzz import fuzz, process

from .. import cache
from ..corpus import Corpus, EditionInfo, parse_reference
from ..errors import EditionNotFound, RuleDiffError
from ..model import Edition

T = TypeVar("T")
log = logging.getLogger(__name__)

#: Longest edition reference accepted (a set name is at most a few words).
MAX_REF = 64
#: Characters an edition reference may hold: letters, digits, space, ``@ - ' : , & .``
#: (``.`` only inside a name, never ``..``). No slash, backslash or NUL: a reference is
#: never a path in the server.
_REF_OK = re.compile(r"^[@A-Za-z0-9 _\-':,&.!]+$")


class BadRequest(RuleDiffError):
    """Malformed input (HTTP 400)."""


class NotFound(RuleDiffError):
    """A well-formed name of something that does not exist (HTTP 404), with the nearest."""

    def __init__(self, message: str, nearest: list[str] | None = None) -> None:
        super().__init__(message)
        self.nearest = nearest or []


class SingleFlight:
    """Run ``compute`` once per key while it is in flight; callers meanwhile wait for it."""

    def __init__(self) -> None:
        self._lock = threading.Lock()
        self._running: dict[str, Future[Any]] = {}

    def do(self, key: str, compute: Callable[[], T], *, across_processes: bool = False) -> T:
        """``compute()``, run once for all callers of ``key`` in flight together.

        ``across_processes``: also hold a file lock in the cache folder while computing,
        so that other server processes wait and then find the result in the cache
        (for expensive results that the cache stores: alignments, diffs, the lineage).
        """
        with self._lock:
            future = self._running.get(key)
            owner = future is None
            if owner:
                future = self._running[key] = Future()
        assert future is not None
        if not owner:
            return future.result()  # type: ignore[no-any-return]
        try:
            if across_processes:
                with _file_lock(key):
                    value = compute()
            else:
                value = compute()
        except BaseException as exc:
            future.set_exception(exc)
            raise
        else:
            future.set_result(value)
            return value
        finally:
            with self._lock:
                self._running.pop(key, None)


@contextlib.contextmanager
def _file_lock(key: str) -> Iterator[None]:
    """A lock shared by every server process on this cache folder (keys are hex digests)."""
    folder = cache.cache_dir() / "locks"
    folder.mkdir(parents=True, exist_ok=True)
    name = hashlib.sha256(key.encode()).hexdigest()[:32]
    with open(folder / f"{name}.lock", "w") as handle:
        fcntl.flock(handle, fcntl.LOCK_EX)
        try:
            yield
        finally:
            fcntl.flock(handle, fcntl.LOCK_UN)


@dataclass(frozen=True, slots=True)
class Body:
    """A finished response body with its entity tag."""

    data: bytes
    media_type: str
    etag: str

    @classmethod
    def of(cls, data: bytes | str, media_type: str) -> Body:
        raw = data.encode("utf-8") if isinstance(data, str) else data
        return cls(raw, media_type, '"' + hashlib.blake2b(raw, digest_size=16).hexdigest() + '"')


class State:
    """The corpus a server answers from, and the memos in front of the library."""

    def __init__(self, corpus_dir: str | os.PathLike[str] | None = None) -> None:
        self.corpus = Corpus.open(corpus_dir)
        self.infos: list[EditionInfo] = self.corpus.editions()
        self.flight = SingleFlight()
        self._memo: OrderedDict[str, Body] = OrderedDict()
        self._memo_lock = threading.Lock()
        self._memo_bytes = 0
        self.memo_limit = 256 * 1024 * 1024
        self._labels = self._edition_labels()
        self._editions: OrderedDict[str, Edition] = OrderedDict()
        self._editions_lock = threading.Lock()
        #: Parsed editions kept in memory (~6 MB each for a modern one).
        self.editions_kept = 24

    # -- editions ----------------------------------------------------------------------
    def _edition_labels(self) -> dict[str, str]:
        labels: dict[str, str] = {"latest": "latest"}
        for info in self.infos:
            labels.setdefault(str(info.date), str(info.date))
            for name in (info.set_code, info.set_name):
                if name:
                    labels.setdefault(name.casefold(), f"{name} ({info.date})")
        return labels

    def resolve(self, ref: str) -> EditionInfo:
        """The corpus edition ``ref`` names (date, set code or name, ``latest``, ``@DATE``).

        The CLI's resolver (:meth:`Corpus.resolve`) decides; a reference that could name
        a file (slashes, ``..``, ``.txt``) is refused before it, so nothing a request
        says reaches the file system.
        """
        text = ref.strip()
        if not text or len(text) > MAX_REF or not _REF_OK.match(text) or ".." in text:
            raise BadRequest(
                f"{ref[:80]!r} is not an edition reference (a date 2024-11-08, a set code "
                "or name, 'latest' or '@DATE')"
            )
        if text.casefold().endswith(".txt"):
            raise BadRequest(f"{ref!r}: the server takes no file names, only edition references")
        try:
            parse_reference(text)
        except EditionNotFound as exc:  # '@tomorrow', '2024-13-45'
            raise BadRequest(str(exc)) from None
        try:
            return self.corpus.resolve(text)
        except EditionNotFound as exc:
            raise NotFound(self.scrub(str(exc)), self.nearest_editions(text)) from None

    def scrub(self, message: str) -> str:
        """A message without the server's folders in it."""
        for folder in (str(self.corpus.directory), str(cache.cache_dir())):
            message = message.replace(f" {folder}", "").replace(folder, "<corpus>")
        return message

    def nearest_editions(self, ref: str) -> list[str]:
        found = process.extract(
            ref.casefold().lstrip("@"), list(self._labels), scorer=fuzz.WRatio, limit=3
        )
        return [self._labels[name] for name, _score, _k in found]

    def stable(self, ref: str) -> bool:
        """Does ``ref`` name the same edition forever (a date or a set), unlike ``latest``?"""
        kind, _value = parse_reference(ref)
        return kind in ("date", "name")

    def load(self, info: EditionInfo) -> Edition:
        """The parsed edition (kept for the next requests: reading it back from the disk
        cache costs tens of milliseconds, a dict lookup nothing)."""
        with self._editions_lock:
            found = self._editions.get(info.sha256)
            if found is not None:
                self._editions.move_to_end(info.sha256)
                return found
        edition = self.flight.do(
            "edition:" + info.sha256, lambda: self.corpus.load(info), across_processes=True
        )
        with self._editions_lock:
            self._editions[info.sha256] = edition
            while len(self._editions) > self.editions_kept:
                self._editions.popitem(last=False)
        return edition

    def warm(self) -> None:
        """After start (in a thread): the newest edition and the search index, so the
        first requests do not pay for them. The server answers meanwhile."""
        from ..search import open_index

        try:
            self.load(self.infos[-1])
            self.flight.do("search-index", lambda: open_index(self.corpus))
        except Exception:  # a warm-up failure only means the first request does the work
            log.warning("warming up failed; the first requests will do it", exc_info=True)

    def index_of(self, info: EditionInfo) -> int:
        return next(k for k, other in enumerate(self.infos) if other.path == info.path)

    # -- memo of finished responses -------------------------------------------------------
    def body(self, key: str, make: Callable[[], Body]) -> Body:
        """The memoised response ``key`` (keys name immutable inputs, e.g. a sha256)."""
        with self._memo_lock:
            found = self._memo.get(key)
            if found is not None:
                self._memo.move_to_end(key)
                return found
        made = self.flight.do("body:" + key, make)
        with self._memo_lock:
            if key not in self._memo:
                self._memo[key] = made
                self._memo_bytes += len(made.data)
            while self._memo_bytes > self.memo_limit and len(self._memo) > 1:
                _old, dropped = self._memo.popitem(last=False)
                self._memo_bytes -= len(dropped.data)
        return made


def corpus_name(path: Path) -> str:
    """Only a file's name leaves the server, never where the corpus lives."""
    return path.name
