"""A content-addressed cache of parsed editions and the data derived from them, stored as data.

Why: a cold parse of a modern edition costs ~0.1–0.5 s and the history of the whole corpus
parses all of them. Every stage that derives data from an edition's bytes (the parsed
:class:`~rulediff.model.Edition`, clauses, alignments, diffs, lineage steps, flags …) can
store it here. An entry is found by

* ``kind`` — what the value is (``edition``, ``clauses`` …), one folder per kind, each
  declared once in :data:`KINDS` with the type of its value;
* ``key`` — the digest of the inputs (usually the sha256 of the edition's bytes);
* the kind's **version**, :func:`version`: a digest of the source of every rulediff module
  the kind's code imports (followed transitively), every grammar those modules name, and
  the versions of the kinds it is derived from. Editing a grammar, the parser, the clause
  reader or the aligner changes the version of every artefact that depends on it, so a
  stale result is never served and nothing is bumped by hand.

Entries are msgpack (:mod:`msgspec`), never pickle: decoding cannot run code. Each entry
carries its kind, key and version and is decoded against the kind's declared type; an
entry that does not decode, has the wrong shape or answers for another key (a file copied
from elsewhere) is a miss: it is recomputed and rewritten, with a warning. The folder is
created private (0700); an entry not owned by the user, writable by others, a symlink or
not a regular file is ignored with a warning. Writes are atomic (temporary file +
:func:`os.replace`). An in-process LRU memo sits in front of the disk. ``RULEDIFF_CACHE_DIR``
moves the folder (default: the user cache folder from :mod:`platformdirs`).
"""

from __future__ import annotations

import dataclasses
import functools
import hashlib
import importlib
import importlib.util
import logging
import os
import re
import stat
import tempfile
import threading
import types
import typing
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, TypeVar

import msgspec
import platformdirs

log = logging.getLogger(__name__)

T = TypeVar("T")

#: Environment variable that moves the cache folder.
CACHE_ENV = "RULEDIFF_CACHE_DIR"
#: How many values the in-process memo keeps (a parsed modern edition is ~6 MB).
MEMO_SIZE = 16
#: The layout of an entry file; part of every version.
FORMAT = "msgpack-1"
#: The package whose modules make up the code digests.
PACKAGE = "rulediff"

_SAFE = re.compile(r"[^A-Za-z0-9_.-]")
_memo: OrderedDict[tuple[str, str, str], Any] = OrderedDict()
_memo_lock = threading.Lock()


class _Missing:
    def __repr__(self) -> str:
        return "MISSING"


#: What :func:`read` returns for an absent (or rejected) entry.
MISSING: Any = _Missing()


# --- the kinds of artefact ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Kind:
    """One kind of cached artefact: what its value is and which code makes it."""

    name: str
    type: Callable[[], Any]
    """Returns the type of the value (imported lazily, so this module imports nothing)."""
    code: tuple[str, ...]
    """Modules that compute the value; everything they import from rulediff counts too."""
    inputs: tuple[str, ...] = ()
    """Kinds the value is derived from: their versions are part of this one's."""
    check: Callable[[str, Any], bool] | None = None
    """An extra check of a decoded value against its key (an edition's sha256)."""


def _edition_type() -> Any:
    from .model import Edition

    return Edition


def _clauses_type() -> Any:
    from .clauses import EditionClauses

    return EditionClauses


def _targets_type() -> Any:
    from .clauses import EditionTargets

    return EditionTargets


def _alignment_type() -> Any:
    from .align import Alignment

    return Alignment


def _diff_type() -> Any:
    from .diff import EditionDiff

    return EditionDiff


def _step_type() -> Any:
    from .history import Step

    return Step


def _lineage_type() -> Any:
    from .history import Lineage

    return Lineage


def _flags_type() -> Any:
    from .flags.registry import Outcome

    return dict[str, Outcome]  # type: ignore[valid-type]


def _scan_type() -> Any:
    from .corpus.scan import _Scanned

    return dict[str, _Scanned]


def _sha_matches(key: str, value: Any) -> bool:
    return getattr(value, "sha256", None) == key


KINDS: dict[str, Kind] = {}


for _kind in (
    Kind("edition", _edition_type, ("rulediff.parse",), check=_sha_matches),
    Kind("clauses", _clauses_type, ("rulediff.clauses",), ("edition",), check=_sha_matches),
    Kind("targets", _targets_type, ("rulediff.clauses",), ("edition",), check=_sha_matches),
    Kind("alignment", _alignment_type, ("rulediff.align",), ("edition", "clauses")),
    Kind("diff", _diff_type, ("rulediff.diff",), ("alignment",)),
    Kind("through-diff", _diff_type, ("rulediff.through",), ("alignment", "step")),
    Kind("step", _step_type, ("rulediff.history",), ("alignment",)),
    Kind("lineage", _lineage_type, ("rulediff.history",), ("step",)),
    Kind("flags", _flags_type, ("rulediff.flags",), ("edition", "clauses")),
    Kind("scan", _scan_type, ("rulediff.corpus.scan",)),
    Kind("fulltext-html", lambda: str, ("rulediff.render.changelog",), ("edition",)),
    Kind("locate-index", lambda: dict[str, Any], ("rulediff.locate",), ("edition",)),
    Kind("locate-table", lambda: dict[str, Any], ("rulediff.locate",), ("edition",)),
):
    KINDS[_kind.name] = _kind


def _kind(name: str) -> Kind:
    try:
        return KINDS[name]
    except KeyError:
        raise KeyError(f"cache kind {name!r} is not declared in rulediff.cache.KINDS") from None


# --- versions: digests of the code and grammars behind each kind ----------------------------

_IMPORT = re.compile(
    r"^[ \t]*(?:from[ \t]+(?P<base>\.+[\w.]*|rulediff[\w.]*)[ \t]+import[ \t]+"
    r"(?P<names>\([^)]*\)|[^\n#]*)|import[ \t]+(?P<plain>rulediff[\w.]*))",
    re.MULTILINE,
)
_GRAMMAR = re.compile(r"[\"']([\w-]+\.lark)[\"']")


@functools.lru_cache(maxsize=1)
def _package_dir() -> Path:
    return Path(__file__).resolve().parent


@functools.cache
def _module_file(name: str) -> Path | None:
    """The source file of a rulediff module or package, found without importing it."""
    parts = name.split(".")
    if parts[0] != PACKAGE:
        return None
    base = _package_dir().joinpath(*parts[1:])
    for candidate in (base / "__init__.py", base.with_suffix(".py")):
        if candidate.is_file():
            return candidate
    return None


def _grammar_file(name: str) -> Path:
    """A grammar: inside the wheel (``rulediff/grammars``) or at the repository top."""
    packaged = _package_dir() / "grammars" / name
    return packaged if packaged.is_file() else _package_dir().parent / "grammars" / name


def _source(path: Path) -> bytes:
    """The bytes a digest reads (tests patch this to simulate an edited module)."""
    return path.read_bytes()


def _imports(name: str, text: str, is_package: bool) -> set[str]:
    """The rulediff modules a module's source imports (at any level, lazily or not)."""
    package = name if is_package else name.rpartition(".")[0]
    found: set[str] = set()
    for m in _IMPORT.finditer(text):
        if m.group("plain"):
            found.add(m.group("plain"))
            continue
        base = m.group("base")
        try:
            absolute = importlib.util.resolve_name(base, package) if base[0] == "." else base
        except ImportError:
            continue
        if base.strip("."):  # ``from . import x`` names modules, not the package's code
            found.add(absolute)
        for item in m.group("names").strip("()").split(","):
            word = item.split(" as ")[0].strip()
            if word.isidentifier():
                found.add(f"{absolute}.{word}")  # kept only if it is a module
    return {n for n in found if n == PACKAGE or n.startswith(PACKAGE + ".")}


@functools.cache
def code_files(*modules: str) -> tuple[Path, ...]:
    """Every source file and grammar the given modules depend on, sorted.

    Follows ``import``/``from … import`` statements (module-level and inside functions)
    within the rulediff package; a grammar counts when a module names its ``.lark`` file.
    The packages around a module count (their ``__init__`` runs first) but what they
    import does not, and neither do the value types this module imports to decode.
    """
    files: set[Path] = set()
    followed: set[str] = set()
    grammars: set[str] = set()
    todo = [(name, True) for name in modules]
    while todo:
        name, follow = todo.pop()
        path = _module_file(name)
        if path is None or name in followed or (path in files and not follow):
            continue
        files.add(path)
        parent = name.rpartition(".")[0]
        if parent:
            todo.append((parent, False))
        if not follow or name == __name__:
            continue
        followed.add(name)
        text = _source(path).decode("utf-8", "replace")
        if ".lark" in text:
            grammars.update(_GRAMMAR.findall(text))
        todo.extend((n, True) for n in _imports(name, text, path.name == "__init__.py"))
    files.update(_grammar_file(g) for g in grammars)
    return tuple(sorted(files))


def code_digest(*modules: str) -> str:
    """sha256 over the files of :func:`code_files` (names and bytes)."""
    digest = hashlib.sha256()
    for path in code_files(*modules):
        digest.update(path.name.encode() + b"\0")
        try:
            digest.update(_source(path))
        except OSError:
            digest.update(b"\0unreadable")
        digest.update(b"\0")
    return digest.hexdigest()


@functools.cache
def version(kind: str) -> str:
    """The version of a kind: its code digest and the versions of the kinds it reads.

    >>> version("alignment") != version("edition")
    True
    """
    spec = _kind(kind)
    digest = hashlib.sha256(f"{FORMAT}\0{kind}\0".encode())
    digest.update(code_digest(*spec.code).encode())
    for name in spec.inputs:
        digest.update(b"\0" + version(name).encode())
    return digest.hexdigest()[:20]


def forget_versions() -> None:
    """Recompute versions and codecs on next use (tests that edit a module or a kind)."""
    code_files.cache_clear()
    version.cache_clear()
    _codec.cache_clear()


# --- codec: values ⇄ msgspec-typed data ----------------------------------------------------
# msgspec decodes msgpack straight into the frozen slotted dataclasses of the model, checking
# every field's type on the way (in C: an edition decodes faster than it unpickled). Two things
# it does not do are handled by a thin "wire" layer built from the type hints: a union of two
# or more dataclasses (``Section | Rule``) is stored as a tuple with one slot per member, and a
# dataclass with private fields (memo dicts) is stored without them.


@dataclass(frozen=True, slots=True)
class _Plan:
    wire: Any
    dump: Callable[[Any], Any] | None = None
    load: Callable[[Any], Any] | None = None


def _is_dataclass_type(tp: Any) -> bool:
    return isinstance(tp, type) and dataclasses.is_dataclass(tp)


def _plan(tp: Any, busy: frozenset[Any] = frozenset()) -> _Plan:
    origin = typing.get_origin(tp)
    args = typing.get_args(tp)
    if _is_dataclass_type(tp):
        return _plan_dataclass(tp, busy)
    if origin in (typing.Union, types.UnionType):
        return _plan_union(tp, args, busy)
    if origin in (tuple, list, frozenset, set) and args:
        if origin is tuple and not (len(args) == 2 and args[1] is Ellipsis):
            parts = [_plan(a, busy) for a in args]
            if all(p.dump is None for p in parts):
                return _Plan(tp)
            dumps_ = [p.dump or _identity for p in parts]
            loads_ = [p.load or _identity for p in parts]
            return _Plan(
                tuple[tuple(p.wire for p in parts)],  # type: ignore[misc]
                lambda v: tuple(f(x) for f, x in zip(dumps_, v, strict=True)),
                lambda w: tuple(f(x) for f, x in zip(loads_, w, strict=True)),
            )
        item = _plan(args[0], busy)
        if item.dump is None:
            return _Plan(tp)
        rebuild = tuple if origin is tuple else origin
        dump, load = item.dump, item.load or _identity
        return _Plan(
            tuple[item.wire, ...],  # type: ignore[name-defined]
            lambda v: tuple(map(dump, v)),
            lambda w: rebuild(map(load, w)),
        )
    if origin is dict and len(args) == 2:
        value = _plan(args[1], busy)
        if value.dump is None:
            return _Plan(tp)
        dump, load = value.dump, value.load or _identity
        return _Plan(
            dict[args[0], value.wire],  # type: ignore[valid-type]
            lambda v: {k: dump(x) for k, x in v.items()},
            lambda w: {k: load(x) for k, x in w.items()},
        )
    return _Plan(tp)


def _identity(value: Any) -> Any:
    return value


def _plan_dataclass(tp: type, busy: frozenset[Any]) -> _Plan:
    if tp in busy:  # a recursive type (Clause.children): stored as it is
        return _Plan(tp)
    busy = busy | {tp}
    try:
        hints = typing.get_type_hints(tp)
    except NameError as exc:
        raise TypeError(f"cannot cache {tp.__qualname__}: {exc}") from None
    fields = dataclasses.fields(tp)
    stored = [f for f in fields if f.init and not f.name.startswith("_")]
    plans = {f.name: _plan(hints[f.name], busy) for f in stored}
    if len(stored) == len(fields) and all(p.dump is None for p in plans.values()):
        return _Plan(tp)
    names = [f.name for f in stored]
    wire = msgspec.defstruct(
        f"{tp.__name__}Stored",
        [(n, plans[n].wire) for n in names],
        array_like=True,
        module=__name__,
    )
    dumps_ = [(n, plans[n].dump) for n in names]
    loads_ = [(n, plans[n].load) for n in names]

    def dump(value: Any) -> Any:
        return wire(*(f(getattr(value, n)) if f else getattr(value, n) for n, f in dumps_))

    def load(stored_value: Any) -> Any:
        return tp(
            **{n: f(getattr(stored_value, n)) if f else getattr(stored_value, n) for n, f in loads_}
        )

    return _Plan(wire, dump, load)


def _plan_union(tp: Any, args: tuple[Any, ...], busy: frozenset[Any]) -> _Plan:
    optional = type(None) in args
    members = [a for a in args if a is not type(None)]
    classes = [a for a in members if _is_dataclass_type(a)]
    if len(classes) > 1:
        if len(classes) != len(members):
            raise TypeError(f"cannot cache {tp}: a union of dataclasses and other types")
        plans = [_plan(c, busy) for c in classes]
        wire: Any = tuple[tuple(p.wire | None for p in plans)]  # type: ignore[misc]
        slot = {c: i for i, c in enumerate(classes)}
        width = len(classes)
        dumps_ = [p.dump or _identity for p in plans]
        loads_ = [p.load or _identity for p in plans]

        def dump(value: Any) -> Any:
            if value is None:
                return None
            out: list[Any] = [None] * width
            i = slot[type(value)]
            out[i] = dumps_[i](value)
            return tuple(out)

        def load(stored: Any) -> Any:
            if stored is None:
                return None
            for i, item in enumerate(stored):
                if item is not None:
                    return loads_[i](item)
            raise msgspec.ValidationError("an empty union slot")

        return _Plan(wire | None if optional else wire, dump, load)
    plans = [_plan(a, busy) for a in members]
    odd = [(a, p) for a, p in zip(members, plans, strict=True) if p.dump is not None]
    if not odd:
        return _Plan(tp)
    if len(odd) > 1:
        raise TypeError(f"cannot cache {tp}: more than one member needs a stored form")
    ((member, plan),) = odd
    wire_union: Any = plan.wire
    for p in plans:
        if p is not plan:
            wire_union = wire_union | p.wire
    if optional:
        wire_union = wire_union | None
    odd_dump, odd_load = plan.dump, plan.load or _identity
    base = typing.get_origin(member) or member
    wire_base = typing.get_origin(plan.wire) or plan.wire
    return _Plan(
        wire_union,
        lambda v: odd_dump(v) if isinstance(v, base) else v,  # type: ignore[misc]
        lambda w: odd_load(w) if isinstance(w, wire_base) else w,
    )


@dataclass(frozen=True, slots=True)
class _Codec:
    plan: _Plan
    decoder: msgspec.msgpack.Decoder
    entry: type


@functools.cache
def _codec(kind: str) -> _Codec:
    plan = _plan(_kind(kind).type())
    entry = msgspec.defstruct(
        "Entry",
        [("kind", str), ("key", str), ("version", str), ("value", plan.wire)],
        array_like=True,
        module=__name__,
    )
    return _Codec(plan, msgspec.msgpack.Decoder(entry), entry)


_encoder = msgspec.msgpack.Encoder()


def dumps(kind: str, key: str, value: Any) -> bytes:
    """The bytes of an entry: kind, key, version and the value, as msgpack."""
    codec = _codec(kind)
    stored = codec.plan.dump(value) if codec.plan.dump else value
    return _encoder.encode(codec.entry(kind, key, version(kind), stored))


class BadEntry(ValueError):
    """An entry that does not decode, check, or answer for its key."""


def loads(kind: str, key: str, data: bytes) -> Any:
    """Decode and check an entry (:class:`BadEntry` if it is not what ``kind``/``key`` need)."""
    codec = _codec(kind)
    try:
        entry = codec.decoder.decode(data)
    except (msgspec.DecodeError, msgspec.ValidationError) as exc:
        raise BadEntry(f"not a valid {kind} entry ({_short(exc)})") from None
    if (entry.kind, entry.version) != (kind, version(kind)):
        raise BadEntry(f"an entry of another kind or version ({_short(entry.kind)})")
    if entry.key != key:
        raise BadEntry(f"the entry of another key ({_short(entry.key)})")
    try:
        value = codec.plan.load(entry.value) if codec.plan.load else entry.value
    except (msgspec.ValidationError, TypeError, ValueError) as exc:
        raise BadEntry(f"not a valid {kind} entry ({_short(exc)})") from None
    check = _kind(kind).check
    if check is not None and not check(key, value):
        raise BadEntry(f"a {kind} that does not match its key")
    return value


def _short(text: object, limit: int = 80) -> str:
    text = " ".join(str(text).split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


# --- folders and entries -----------------------------------------------------------------


def cache_dir() -> Path:
    """``$RULEDIFF_CACHE_DIR`` or the user cache folder (``~/.cache/rulediff``)."""
    value = os.environ.get(CACHE_ENV)
    if value:
        return Path(value).expanduser()
    return Path(platformdirs.user_cache_dir("rulediff", appauthor=False))


def entry_path(kind: str, key: str) -> Path:
    """Where the entry for ``(kind, key)`` at the kind's current version lives."""
    name = f"{_SAFE.sub('_', key)}-{version(kind)}.msgpack"
    return cache_dir() / _SAFE.sub("_", kind) / name


def private_dir(path: Path) -> Path:
    """Create ``path`` (and missing parents) with mode 0700; tighten it if it is ours."""
    path.mkdir(mode=0o700, parents=True, exist_ok=True)
    st = path.stat()
    if st.st_uid == os.getuid() and st.st_mode & 0o077:
        os.chmod(path, 0o700)
    return path


def _trusted(path: Path, st: os.stat_result) -> str | None:
    """Why an entry must not be read (``None`` when it can be)."""
    if not stat.S_ISREG(st.st_mode):
        return "not a regular file"
    if st.st_uid != os.getuid():
        return "owned by another user"
    if st.st_mode & 0o022:
        return "writable by others"
    return None


def _read_entry(path: Path) -> bytes | None:
    """The bytes of an entry file, or ``None`` (absent, or refused with a warning)."""
    flags = os.O_RDONLY | getattr(os, "O_NOFOLLOW", 0) | getattr(os, "O_NONBLOCK", 0)
    try:
        fd = os.open(path, flags)
    except FileNotFoundError:
        return None
    except OSError as exc:
        reason = "a symbolic link" if path.is_symlink() else (exc.strerror or str(exc))
        log.warning("cache: ignoring %s (%s); recomputing", path, reason)
        return None
    try:
        st = os.fstat(fd)
        problem = _trusted(path, st)
        if problem is not None:
            log.warning("cache: ignoring %s (%s); recomputing", path, problem)
            return None
        with os.fdopen(fd, "rb", closefd=False) as handle:
            return handle.read()
    except OSError as exc:
        log.warning("cache: cannot read %s (%s); recomputing", path, exc.strerror or exc)
        return None
    finally:
        os.close(fd)


def _remember(mkey: tuple[str, str, str], value: Any) -> None:
    with _memo_lock:
        _memo[mkey] = value
        _memo.move_to_end(mkey)
        while len(_memo) > MEMO_SIZE:
            _memo.popitem(last=False)


def _recall(mkey: tuple[str, str, str]) -> Any:
    with _memo_lock:
        value = _memo.get(mkey, MISSING)
        if value is not MISSING:
            _memo.move_to_end(mkey)
        return value


def read(kind: str, key: str) -> Any:
    """The cached value, or :data:`MISSING` (absent, refused, or not a valid entry)."""
    mkey = (kind, key, version(kind))
    value = _recall(mkey)
    if value is not MISSING:
        return value
    path = entry_path(kind, key)
    data = _read_entry(path)
    if data is None:
        return MISSING
    try:
        value = loads(kind, key, data)
    except BadEntry as exc:
        log.warning("cache: %s: %s; recomputing", path, exc)
        return MISSING
    _remember(mkey, value)
    return value


def has(kind: str, key: str) -> bool:
    """Whether an entry for ``(kind, key)`` at the current version exists (not decoded:
    a bad entry is still found and recomputed by whoever reads it)."""
    return _recall((kind, key, version(kind))) is not MISSING or entry_path(kind, key).is_file()


def write(kind: str, key: str, value: Any) -> Path | None:
    """Store a value atomically (mode 0600); a cache that cannot be written is a warning."""
    _remember((kind, key, version(kind)), value)
    path = entry_path(kind, key)
    try:
        private_dir(cache_dir())
        private_dir(path.parent)
        atomic_write_bytes(path, dumps(kind, key, value), mode=0o600)
    except OSError as exc:
        log.warning("cache: cannot write %s (%s)", path, exc.strerror or exc)
        return None
    return path


def get_or_compute(
    kind: str,
    key: str,
    compute: Callable[[], T],
    *,
    use_cache: bool = True,
) -> T:
    """The value of ``kind`` for ``key``: from the memo, the disk, or ``compute()``.

    With ``use_cache=False`` the cache is neither read nor written.
    """
    if not use_cache:
        return compute()
    value = read(kind, key)
    if value is not MISSING:
        log.debug("cache hit: %s %s", kind, key[:12])
        return value  # type: ignore[no-any-return]
    log.debug("cache miss: %s %s", kind, key[:12])
    value = compute()
    write(kind, key, value)
    return value


def forget_memo() -> None:
    """Empty the in-process memo (tests and benchmarks measure the disk this way)."""
    with _memo_lock:
        _memo.clear()


# --- atomic files ------------------------------------------------------------------------


def _umask() -> int:
    mask = os.umask(0o022)
    os.umask(mask)
    return mask


def atomic_write_bytes(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Write ``data`` to ``path`` through a temporary file in the same folder.

    ``mode`` defaults to a normal file's (0666 minus the umask).
    """
    path = Path(path)
    fd, tmp = tempfile.mkstemp(prefix=".rd.", suffix=".tmp", dir=path.parent)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
        os.chmod(tmp, (0o666 & ~_umask()) if mode is None else mode)
        os.replace(tmp, path)
    except BaseException:
        try:
            os.unlink(tmp)
        except OSError:
            pass
        raise
