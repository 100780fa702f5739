"""A content-addressed pickle cache for parsed editions and data derived from them.

Why: a cold parse of a modern edition costs ~0.1 s and the history of the whole corpus
parses 121 of them. Every stage that derives data from one edition's bytes (the parsed
:class:`~rulediff.model.Edition`, clauses, alignments …) can store it here, keyed by

* ``kind`` — what the value is (``edition``, ``clauses`` …), one folder per kind;
* ``key`` — the sha256 of the input bytes (or any other stable hex/text digest);
* ``version`` — the version of the code that derives it (``PARSER_VERSION`` …);
* the Python version, since pickles of one interpreter are not promised to the next.

Writes are atomic (temporary file + :func:`os.replace`), so readers never see half a
file; a corrupt or unreadable entry is ignored, recomputed and rewritten. An
in-process LRU memo sits in front of the disk. ``RULEDIFF_CACHE_DIR`` moves the folder
(default: the user cache folder from :mod:`platformdirs`).
"""

from __future__ import annotations

import dataclasses
import io
import logging
import os
import pickle
import re
import sys
import tempfile
import threading
from collections import OrderedDict
from collections.abc import Callable
from pathlib import Path
from typing import Any, TypeVar

import platformdirs

from . import model

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Environment variable that moves the cache folder.
CACHE_ENV = "RULEDIFF_CACHE_DIR"
#: How many values the in-process memo keeps (a parsed modern edition is ~6 MB).
MEMO_SIZE = 16

_PY = f"py{sys.version_info.major}{sys.version_info.minor}"
_SAFE = re.compile(r"[^A-Za-z0-9_.-]")
_memo: OrderedDict[tuple[str, str, str], Any] = OrderedDict()
_memo_lock = threading.Lock()


def cache_dir() -> Path:
    """``$RULEDIFF_CACHE_DIR`` or the user cache folder (``~/.cache/rulediff``)."""
    value = os.environ.get(CACHE_ENV)
    if value:
        return Path(value).expanduser()
    return Path(platformdirs.user_cache_dir("rulediff", appauthor=False))


def entry_path(kind: str, key: str, version: str) -> Path:
    """Where the value for ``(kind, key, version)`` lives on disk."""
    name = f"{_SAFE.sub('_', key)}-v{_SAFE.sub('_', str(version))}-{_PY}.pickle"
    return cache_dir() / _SAFE.sub("_", kind) / name


# --- pickling ---------------------------------------------------------------------
# The model is frozen slotted dataclasses. Their default pickling restores each object
# through a generic ``__setstate__`` loop; rebuilding them through the constructor
# instead halves the load time of an edition (~15 ms → ~8 ms), which is what makes a
# warm load ≥ 10× faster than a cold parse. Only our own pickler uses this table.


def _constructor_reducer(cls: type) -> Callable[[Any], tuple] | None:
    fields = dataclasses.fields(cls)
    public = [f.name for f in fields if not f.name.startswith("_")]
    private = [f for f in fields if f.name.startswith("_")]
    # Positional reconstruction through __init__ needs every field in __init__, the
    # private ones (memo dicts) last and defaulted; other classes pickle the usual way.
    in_order = all(f.name in public for f in fields[: len(public)])
    defaulted = all(
        f.default is not dataclasses.MISSING or f.default_factory is not dataclasses.MISSING
        for f in private
    )
    if not in_order or not defaulted or not all(f.init for f in fields):
        return None

    def reduce(obj: Any) -> tuple:
        return cls, tuple(getattr(obj, name) for name in public)

    return reduce


def _dispatch_table() -> dict[type, Callable[[Any], tuple]]:
    table: dict[type, Callable[[Any], tuple]] = {}
    for obj in vars(model).values():
        if (
            isinstance(obj, type)
            and dataclasses.is_dataclass(obj)
            and obj.__module__ == model.__name__
        ):
            reducer = _constructor_reducer(obj)
            if reducer is not None:
                table[obj] = reducer
    return table


_DISPATCH = _dispatch_table()


def dumps(value: Any) -> bytes:
    """Pickle a value (model objects through their constructors)."""
    buffer = io.BytesIO()
    pickler = pickle.Pickler(buffer, protocol=pickle.HIGHEST_PROTOCOL)
    pickler.dispatch_table = _DISPATCH
    pickler.dump(value)
    return buffer.getvalue()


def loads(data: bytes) -> Any:
    return pickle.loads(data)


# --- disk + memo ------------------------------------------------------------------
_MISSING = object()


def _remember(mkey: tuple[str, str, str], value: Any) -> None:
    with _memo_lock:
        _memo[mkey] = value
        _memo.move_to_end(mkey)
        while len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)


def _recall(mkey: tuple[str, str, str]) -> Any:
    with _memo_lock:
        value = _memo.get(mkey, _MISSING)
        if value is not _MISSING:
            _memo.move_to_end(mkey)
        return value


def read(kind: str, key: str, version: str) -> Any:
    """The cached value, or :data:`MISSING` (absent, unreadable or corrupt)."""
    mkey = (kind, key, str(version))
    value = _recall(mkey)
    if value is not _MISSING:
        return value
    path = entry_path(kind, key, version)
    try:
        data = path.read_bytes()
    except FileNotFoundError:
        return _MISSING
    except OSError as exc:
        log.warning("cache: cannot read %s (%s); recomputing", path, exc)
        return _MISSING
    try:
        value = loads(data)
    except Exception as exc:  # noqa: BLE001 - any corrupt pickle means "recompute"
        log.warning("cache: corrupt entry %s (%s); recomputing", path, type(exc).__name__)
        return _MISSING
    _remember(mkey, value)
    return value


def write(kind: str, key: str, version: str, value: Any) -> Path | None:
    """Store a value atomically; a cache that cannot be written is only a warning."""
    _remember((kind, key, str(version)), value)
    path = entry_path(kind, key, version)
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
        atomic_write_bytes(path, dumps(value))
    except OSError as exc:
        log.warning("cache: cannot write %s (%s)", path, exc)
        return None
    return path


def get_or_compute(
    kind: str,
    key: str,
    version: str,
    compute: Callable[[], T],
    *,
    use_cache: bool = True,
) -> T:
    """The value for ``(kind, key, version)``: from the memo, the disk, or ``compute()``.

    With ``use_cache=False`` the cache is neither read nor written.
    """
    if not use_cache:
        return compute()
    value = read(kind, key, version)
    if value is not _MISSING:
        log.debug("cache hit: %s %s", kind, key[:12])
        return value  # type: ignore[no-any-return]
    log.debug("cache miss: %s %s", kind, key[:12])
    value = compute()
    write(kind, key, version, value)
    return value


def forget_memo() -> None:
    """Empty the in-process memo (tests and benchmarks measure the disk this way)."""
    with _memo_lock:
        _memo.clear()


MISSING = _MISSING


# --- atomic files ------------------------------------------------------------------


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: Path, data: bytes) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder."""
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=f".{path.name}.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, 0o666 & ~_umask())  # mkstemp makes 0600; give a normal file's mode
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
