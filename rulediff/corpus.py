"""The set of editions: discovery, manifest, edition references, import, fetch, cache.

A *corpus* is a folder of CR text files, one per edition (``--corpus DIR``,
``$RULEDIFF_CORPUS``, or the user data folder). The effective date of a file comes
from its text ("effective as of …"), never from its name; when they disagree the text
wins and a warning is logged.

The *manifest* (``corpus/editions.toml``, shipped as ``rulediff/data/editions.toml``)
lists facts about official editions: effective date, the set whose release the
edition accompanies, Wizards' TXT URL where known, sha256 and size. No rules text.

An *edition reference* is what every command taking an EDITION accepts:

* a path to a CR text file;
* a date in the corpus: ``2024-11-08``;
* a set code or name from the manifest: ``FDN``, ``Foundations`` (any case);
* ``latest``;
* ``@2016-05-01``: the edition in force on that date (newest with date ≤ it).

>>> parse_reference("@2016-05-01")
('in-force', datetime.date(2016, 5, 1))
"""

from __future__ import annotations

import datetime as dt
import difflib
import hashlib
import logging
import os
import re
import stat
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, replace
from importlib import resources
from pathlib import Path
from typing import Literal, TypeVar

import platformdirs

from . import cache
from .errors import CorpusError, EditionNotFound, RuleDiffError
from .ingest import find_effective_date, ingest_bytes, read_bytes
from .model import Edition
from .parse import parse_bytes

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

log = logging.getLogger(__name__)

#: Environment variables.
CORPUS_ENV = "RULEDIFF_CORPUS"
MANIFEST_ENV = "RULEDIFF_MANIFEST"

HOW_TO_GET_EDITIONS = (
    "run `rulediff corpus import DIR` (a folder of CR .txt files) or `rulediff corpus fetch`"
    f", or point --corpus / ${CORPUS_ENV} at a corpus folder"
)

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_NAME_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")

Ref = str | os.PathLike[str]


# --- locations ---------------------------------------------------------------------


def default_corpus_dir() -> Path:
    """``$RULEDIFF_CORPUS``, else the user data folder (``~/.local/share/rulediff/corpus``)."""
    value = os.environ.get(CORPUS_ENV)
    if value:
        return Path(value).expanduser()
    return Path(platformdirs.user_data_dir("rulediff", appauthor=False)) / "corpus"


def default_manifest_path() -> Path:
    """``$RULEDIFF_MANIFEST``, else the manifest shipped in the package (or the checkout)."""
    value = os.environ.get(MANIFEST_ENV)
    if value:
        return Path(value).expanduser()
    packaged = resources.files("rulediff") / "data" / "editions.toml"
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "corpus" / "editions.toml"


# --- manifest ----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class ManifestEntry:
    """Facts about one official edition (no rules text)."""

    date: dt.date
    """Effective date printed in the edition."""
    set_code: str | None = None
    """Code of the Magic set whose release the edition accompanies (``FDN``)."""
    set_name: str | None = None
    url: str | None = None
    """Wizards' official TXT download, where known."""
    sha256: str | None = None
    size: int | None = None
    """Byte size of the file with that sha256."""

    @property
    def label(self) -> str:
        return f"{self.set_code} ({self.date})" if self.set_code else str(self.date)


@dataclass(frozen=True, slots=True)
class Manifest:
    """The parsed ``editions.toml``: entries oldest first."""

    entries: tuple[ManifestEntry, ...]
    path: Path | None = None

    @classmethod
    def load(cls, path: str | os.PathLike[str] | None = None) -> Manifest:
        """Read a manifest; without ``path``, the default one (missing → empty)."""
        explicit = path is not None or bool(os.environ.get(MANIFEST_ENV))
        where = Path(path) if path is not None else default_manifest_path()
        try:
            data = tomllib.loads(where.read_text(encoding="utf-8"))
        except FileNotFoundError:
            if explicit:
                raise CorpusError("manifest not found", file=str(where)) from None
            log.debug("no manifest at %s; set names and URLs unknown", where)
            return cls((), None)
        except (OSError, UnicodeDecodeError) as exc:
            raise CorpusError(f"cannot read manifest: {exc}", file=str(where)) from None
        except tomllib.TOMLDecodeError as exc:
            raise CorpusError(f"invalid TOML: {exc}", file=str(where)) from None
        return cls(_manifest_entries(data, str(where)), where)

    def by_date(self, date: dt.date) -> ManifestEntry | None:
        return next((e for e in self.entries if e.date == date), None)

    def by_sha256(self, sha256: str) -> ManifestEntry | None:
        return next((e for e in self.entries if e.sha256 == sha256), None)


def _manifest_entries(data: dict, source: str) -> tuple[ManifestEntry, ...]:
    raw = data.get("edition", [])
    if not isinstance(raw, list):
        raise CorpusError("'edition' must be an array of tables ([[edition]])", file=source)
    entries: list[ManifestEntry] = []
    seen_dates: set[dt.date] = set()
    seen_names: dict[str, dt.date] = {}
    for i, item in enumerate(raw, start=1):
        date = item.get("date") if isinstance(item, dict) else None
        if not isinstance(date, dt.date) or isinstance(date, dt.datetime):
            raise CorpusError(f"edition #{i}: 'date' must be a TOML date (YYYY-MM-DD)", file=source)
        if date in seen_dates:
            raise CorpusError(f"edition #{i}: date {date} listed twice", file=source)
        seen_dates.add(date)
        size = item.get("bytes")
        entry = ManifestEntry(
            date=date,
            set_code=item.get("set_code"),
            set_name=item.get("set_name"),
            url=item.get("url"),
            sha256=(item.get("sha256") or "").lower() or None,
            size=int(size) if size is not None else None,
        )
        for name in _names(entry):
            if name in seen_names:
                raise CorpusError(
                    f"edition {date}: set {name!r} already names {seen_names[name]}", file=source
                )
            seen_names[name] = date
        entries.append(entry)
    return tuple(sorted(entries, key=lambda e: e.date))


def _fold(text: str) -> str:
    return " ".join(text.casefold().split())


def _names(entry: ManifestEntry | EditionInfo) -> tuple[str, ...]:
    return tuple(_fold(n) for n in (entry.set_code, entry.set_name) if n)


# --- corpus ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EditionInfo:
    """One edition file of a corpus, as discovered (not parsed)."""

    date: dt.date
    """Effective date from the text (the file name is not trusted)."""
    path: Path
    sha256: str
    size: int
    set_name: str | None = None
    set_code: str | None = None
    url: str | None = None
    known: bool = False
    """The file's sha256 is listed in the manifest (an official edition, byte for byte)."""
    name_date: dt.date | None = None
    """A date written in the file name, when there is one (may disagree with ``date``)."""

    @property
    def label(self) -> str:
        return f"{self.date} {self.set_code}" if self.set_code else str(self.date)


@dataclass(frozen=True, slots=True)
class _Scanned:
    size: int
    mtime_ns: int
    sha256: str
    date: dt.date | None


class Corpus:
    """A folder of editions plus the manifest that names them."""

    def __init__(self, directory: Path, manifest: Manifest, *, use_cache: bool = True) -> None:
        self.directory = directory
        self.manifest = manifest
        self.use_cache = use_cache
        self._editions: list[EditionInfo] | None = None

    @classmethod
    def open(
        cls,
        corpus_dir: str | os.PathLike[str] | None = None,
        *,
        manifest: Manifest | str | os.PathLike[str] | None = None,
        use_cache: bool = True,
        require: bool = True,
    ) -> Corpus:
        """Open a corpus folder; with ``require``, one without editions is an error."""
        directory = Path(corpus_dir).expanduser() if corpus_dir else default_corpus_dir()
        if not isinstance(manifest, Manifest):
            manifest = Manifest.load(manifest)
        corpus = cls(directory, manifest, use_cache=use_cache)
        if require:
            if not directory.is_dir():
                raise CorpusError(
                    f"no corpus folder here: {HOW_TO_GET_EDITIONS}", file=str(directory)
                )
            if not corpus.editions():
                raise CorpusError(
                    f"no CR editions in this folder: {HOW_TO_GET_EDITIONS}", file=str(directory)
                )
        return corpus

    # -- discovery ---------------------------------------------------------------------
    def editions(self) -> list[EditionInfo]:
        """Every edition file, oldest first (by the date in its text)."""
        if self._editions is None:
            self._editions = self._scan()
        return self._editions

    def refresh(self) -> None:
        """Forget the discovered list (after an import or a fetch)."""
        self._editions = None

    def _scan(self) -> list[EditionInfo]:
        if not self.directory.is_dir():
            return []
        index_key = hashlib.sha256(str(self.directory.resolve()).encode()).hexdigest()
        old: dict[str, _Scanned] = {}
        if self.use_cache:
            found = cache.read("scan", index_key)
            old = found if isinstance(found, dict) else {}
        new: dict[str, _Scanned] = {}
        infos: list[EditionInfo] = []
        for path in sorted(self.directory.glob("*.txt")):
            try:
                st = path.stat()
            except OSError as exc:
                log.warning("%s: cannot read (%s); skipped", path, exc)
                continue
            if not path.is_file():
                continue
            scanned = old.get(path.name)
            if scanned is None or (scanned.size, scanned.mtime_ns) != (st.st_size, st.st_mtime_ns):
                try:
                    scanned = _scan_file(path, st)
                except RuleDiffError as exc:
                    log.warning("%s; skipped", exc)
                    continue
            new[path.name] = scanned
            info = self._info(path, scanned)
            if info is not None:
                infos.append(info)
        if self.use_cache and new != old:
            cache.write("scan", index_key, new)
        infos.sort(key=lambda i: (i.date, i.path.name))
        _warn_duplicates(infos)
        return infos

    def _info(self, path: Path, scanned: _Scanned) -> EditionInfo | None:
        name_date = _date_in_name(path.name)
        date = scanned.date
        if date is None:
            if name_date is None:
                log.warning("%s: no effective date in the text nor in the name; skipped", path)
                return None
            log.warning("%s: no effective date in the text; using the file name's", path)
            date = name_date
        elif name_date is not None and name_date != date:
            log.warning(
                "%s: the file name says %s but the text says %s; the text wins",
                path,
                name_date,
                date,
            )
        known = self.manifest.by_sha256(scanned.sha256)
        entry = known or self.manifest.by_date(date)
        if known is not None and known.date != date:
            log.warning(
                "%s: manifest lists this file as %s, its text says %s", path, known.date, date
            )
            entry = self.manifest.by_date(date)
        return EditionInfo(
            date=date,
            path=path,
            sha256=scanned.sha256,
            size=scanned.size,
            set_name=entry.set_name if entry else None,
            set_code=entry.set_code if entry else None,
            url=entry.url if entry else None,
            known=known is not None,
            name_date=name_date,
        )

    # -- references ----------------------------------------------------------------
    def latest(self) -> EditionInfo:
        editions = self.editions()
        if not editions:
            raise CorpusError(
                f"no CR editions in this folder: {HOW_TO_GET_EDITIONS}", file=str(self.directory)
            )
        return editions[-1]

    def resolve(self, ref: str) -> EditionInfo:
        """The corpus edition a (non-path) reference names, or :class:`EditionNotFound`."""
        editions = self.editions()
        if not editions:
            raise CorpusError(
                f"no CR editions in this folder: {HOW_TO_GET_EDITIONS}", file=str(self.directory)
            )
        try:
            return _match(ref, editions, where=f"the corpus {self.directory}")
        except EditionNotFound:
            # Known to the manifest but absent here: say how to get it.
            entry = _match_or_none(ref, self.manifest.entries)
            if entry is not None and not any(e.date == entry.date for e in editions):
                hint = "rulediff corpus fetch" if entry.url else "rulediff corpus import FILE"
                raise EditionNotFound(
                    f"edition {entry.label} is not in the corpus {self.directory}: "
                    f"run `{hint}`" + (f" {entry.set_code or entry.date}" if entry.url else "")
                ) from None
            raise

    def load(self, ref: Ref | EditionInfo, use_cache: bool | None = None) -> Edition:
        """Parse (or load from the cache) the edition a reference names."""
        use = self.use_cache if use_cache is None else use_cache
        if isinstance(ref, EditionInfo):
            return load_file(ref.path, use_cache=use)
        path = reference_path(ref)
        if path is not None:
            return load_file(path, use_cache=use)
        return load_file(self.resolve(str(ref)).path, use_cache=use)


def _scan_file(path: Path, st: os.stat_result) -> _Scanned:
    data = read_bytes(path)
    found = find_effective_date(ingest_bytes(data, str(path)).text)
    return _Scanned(
        size=len(data),
        mtime_ns=st.st_mtime_ns,
        sha256=hashlib.sha256(data).hexdigest(),
        date=found[0] if found else None,
    )


def _date_in_name(name: str) -> dt.date | None:
    m = _NAME_DATE.search(name)
    if not m:
        return None
    try:
        return dt.date(int(m.group(1)), int(m.group(2)), int(m.group(3)))
    except ValueError:
        return None


def _warn_duplicates(infos: Sequence[EditionInfo]) -> None:
    for a, b in zip(infos, infos[1:], strict=False):
        if a.date == b.date and a.sha256 != b.sha256:
            log.warning("two different files are dated %s: %s and %s", a.date, a.path, b.path)


# --- edition references ----------------------------------------------------------------

RefKind = Literal["latest", "date", "in-force", "name"]


def parse_reference(ref: str) -> tuple[RefKind, dt.date | str]:
    """Classify a non-path reference: ``latest``, a date, ``@date`` or a set name."""
    text = ref.strip()
    if _fold(text) == "latest":
        return "latest", "latest"
    kind: RefKind = "date"
    if text.startswith("@"):
        kind, text = "in-force", text[1:].strip()
        if not _DATE.match(text):
            raise EditionNotFound(f"{ref!r}: after '@' give a date, e.g. @2016-05-01")
    if _DATE.match(text):
        try:
            return kind, dt.date.fromisoformat(text)
        except ValueError:
            raise EditionNotFound(f"{ref!r} is not a valid date (YYYY-MM-DD)") from None
    return "name", text


def reference_path(ref: Ref) -> Path | None:
    """The file a reference names, if it is a path rather than a date/set/``latest``."""
    if isinstance(ref, os.PathLike):
        return Path(ref)
    text = ref.strip()
    looks_like_path = os.sep in text or "/" in text or text.lower().endswith(".txt")
    if looks_like_path:
        return Path(text).expanduser()
    if _fold(text) == "latest" or text.startswith("@") or _DATE.match(text):
        return None
    candidate = Path(text)
    try:
        return candidate if candidate.is_file() else None
    except OSError:  # a name the file system cannot even look up (too long …)
        return None


_X = TypeVar("_X", EditionInfo, ManifestEntry)


def _match(ref: str, items: Sequence[_X], *, where: str) -> _X:
    """Resolve a non-path reference among items sorted oldest first."""
    kind, value = parse_reference(ref)
    if kind == "latest":
        if not items:
            raise EditionNotFound(f"'latest': no editions in {where}")
        return items[-1]
    if kind == "in-force":
        assert isinstance(value, dt.date)
        in_force = [item for item in items if item.date <= value]
        if not in_force:
            first = items[0].date if items else None
            raise EditionNotFound(
                f"no edition in force on {value} in {where}"
                + (f": the oldest is {first}" if first else "")
            )
        return in_force[-1]
    if kind == "date":
        assert isinstance(value, dt.date)
        exact = [item for item in items if item.date == value]
        if exact:
            # Two files with one date: prefer the one named after it.
            named = [i for i in exact if isinstance(i, EditionInfo) and i.path.stem == str(value)]
            return (named or exact)[0]
        raise EditionNotFound(
            f"no edition dated {value} in {where}; nearest: {_nearest_dates(value, items)}"
        )
    assert isinstance(value, str)
    key = _fold(value)
    for item in items:
        if key in _names(item):
            return item
    raise EditionNotFound(
        f"no edition {value!r} in {where}; nearest: {_nearest_names(value, items)}"
    )


def _match_or_none(ref: str, items: Sequence[_X]) -> _X | None:
    try:
        return _match(ref, items, where="")
    except EditionNotFound:
        return None


def _describe(item: EditionInfo | ManifestEntry) -> str:
    return f"{item.date} ({item.set_code})" if item.set_code else str(item.date)


def _nearest_dates(value: dt.date, items: Sequence[EditionInfo | ManifestEntry]) -> str:
    ranked = sorted(items, key=lambda i: (abs((i.date - value).days), i.date))[:3]
    return ", ".join(_describe(i) for i in sorted(ranked, key=lambda i: i.date)) or "none"


def _nearest_names(value: str, items: Sequence[EditionInfo | ManifestEntry]) -> str:
    choices: dict[str, str] = {"latest": "latest"}
    for item in items:
        for name in (item.set_code, item.set_name, str(item.date)):
            if name:
                choices.setdefault(
                    _fold(name), f"{name} ({item.date})" if name != str(item.date) else name
                )
    close = difflib.get_close_matches(_fold(value), list(choices), n=4, cutoff=0.5)
    if not close:
        newest = [_describe(i) for i in list(items)[-3:]][::-1]
        return ", ".join(newest + ["latest"]) if newest else "latest"
    return ", ".join(choices[c] for c in close)


# --- loading ---------------------------------------------------------------------------


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


def load_edition(
    ref: Ref, *, corpus_dir: str | os.PathLike[str] | None = None, use_cache: bool = True
) -> Edition:
    """Load the edition a reference names (path, date, set code/name, latest, @date).

    >>> load_edition("FDN").effective_date  # doctest: +SKIP
    datetime.date(2024, 11, 8)
    """
    path = reference_path(ref)
    if path is not None:
        return load_file(path, use_cache=use_cache)
    corpus = Corpus.open(corpus_dir, use_cache=use_cache)
    return corpus.load(str(ref), use_cache=use_cache)


def resolve_edition(
    ref: Ref, *, corpus_dir: str | os.PathLike[str] | None = None, use_cache: bool = True
) -> EditionInfo | Path:
    """What a reference names, without parsing: a corpus entry or a file path."""
    path = reference_path(ref)
    if path is not None:
        return path
    return Corpus.open(corpus_dir, use_cache=use_cache).resolve(str(ref))


# --- import ----------------------------------------------------------------------------

ImportStatus = Literal["added", "replaced", "unchanged"]


@dataclass(frozen=True, slots=True)
class ImportResult:
    source: Path
    date: dt.date
    path: Path
    """Where it is stored in the corpus."""
    sha256: str
    status: ImportStatus


def _expand_sources(sources: Iterable[str | os.PathLike[str]]) -> list[Path]:
    files: list[Path] = []
    for source in sources:
        path = Path(source).expanduser()
        if path.is_dir():
            found = sorted(p for p in path.glob("*.txt") if p.is_file())
            if not found:
                raise CorpusError("no *.txt files in this folder", file=str(path))
            files.extend(found)
        else:
            files.append(path)
    return files


def import_editions(
    sources: Iterable[str | os.PathLike[str]],
    corpus_dir: str | os.PathLike[str] | None = None,
    *,
    force: bool = False,
    allow_truncated: bool = False,
    use_cache: bool = True,
    on_file: Callable[[Path, int, int], None] | None = None,
) -> list[ImportResult]:
    """Validate every file first (parse, date from the text), then store them.

    Each file is stored as ``YYYY-MM-DD.txt`` with its original bytes, atomically. A
    different file for a date already in the corpus is refused unless ``force``; an
    identical one is a no-op. A truncated edition (no glossary or no credits) is refused
    unless ``allow_truncated``. Every target is checked before the first write (a folder
    in the way, a corpus that cannot be written), and a write that still fails undoes
    the ones before it: if anything is wrong, nothing is stored.
    """
    corpus = Corpus.open(corpus_dir, use_cache=use_cache, require=False)
    planned: dict[dt.date, tuple[Path, bytes, str]] = {}
    files = _expand_sources(sources)
    for index, path in enumerate(files):
        if on_file is not None:
            on_file(path, index, len(files))
        data = read_bytes(path)
        sha = hashlib.sha256(data).hexdigest()
        edition = load_bytes(data, str(path), use_cache=use_cache)
        date = edition.effective_date
        if date is None:
            raise CorpusError(
                "no effective date in the text ('effective as of …'): not a CR edition",
                file=str(path),
            )
        _refuse_incomplete(edition, str(path), allow_truncated)
        name_date = _date_in_name(path.name)
        if name_date is not None and name_date != date:
            log.warning(
                "%s: the file name says %s but the text says %s; the text wins",
                path,
                name_date,
                date,
            )
        if date in planned and planned[date][2] != sha:
            raise CorpusError(
                f"two different files are dated {date}: {planned[date][0]} and this one",
                file=str(path),
            )
        planned.setdefault(date, (path, data, sha))

    existing: dict[dt.date, list[EditionInfo]] = {}
    for info in corpus.editions():
        existing.setdefault(info.date, []).append(info)
    for date, (path, _, sha) in planned.items():
        others = existing.get(date, [])
        if others and all(o.sha256 != sha for o in others) and not force:
            raise CorpusError(
                f"the corpus already has a different edition dated {date} "
                f"({others[0].path}); use --force to replace it",
                file=str(path),
            )

    writes: list[tuple[Path, dt.date, Path, bytes, str]] = []
    results: list[ImportResult] = []
    for date, (path, data, sha) in sorted(planned.items()):
        target = corpus.directory / f"{date.isoformat()}.txt"
        others = existing.get(date, [])
        if any(o.sha256 == sha for o in others):
            same = next(o for o in others if o.sha256 == sha)
            results.append(ImportResult(path, date, same.path, sha, "unchanged"))
            continue
        _check_target(target)
        writes.append((path, date, target, data, sha))
    if writes:
        _check_corpus_writable(corpus.directory)
    stored = _store_all(writes)
    for (path, date, target, _data, sha), status in zip(writes, stored, strict=True):
        for other in existing.get(date, []):
            if other.path != target:
                log.warning("%s is also dated %s; it was left in place", other.path, date)
        results.append(ImportResult(path, date, target, sha, status))
    results.sort(key=lambda r: r.date)
    corpus.refresh()
    return results


def _refuse_incomplete(edition: Edition, source: str, allow_truncated: bool) -> None:
    """A truncated or doubled file is not stored as an edition without a word."""
    for diag in edition.diagnostics:
        if diag.code == "appended-document":
            raise CorpusError(diag.message, file=source, line=diag.line)
        if diag.code in ("missing-glossary", "missing-credits") and not allow_truncated:
            raise CorpusError(
                f"{diag.message}; use --allow-truncated to store it anyway",
                file=source,
                line=diag.line,
            )


def _check_target(target: Path) -> None:
    try:
        st = os.lstat(target)
    except FileNotFoundError:
        return
    except OSError as exc:
        raise CorpusError(f"cannot store here: {exc.strerror or exc}", file=str(target)) from None
    if not stat.S_ISREG(st.st_mode):
        kind = "a folder" if stat.S_ISDIR(st.st_mode) else "not a regular file"
        raise CorpusError(f"the name is taken by {kind}; nothing was stored", file=str(target))


def _check_corpus_writable(directory: Path) -> None:
    try:
        directory.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise CorpusError(
            f"cannot create the corpus folder: {exc.strerror or exc}", file=str(directory)
        ) from None
    if not directory.is_dir():
        raise CorpusError("the corpus is not a folder", file=str(directory))
    if not os.access(directory, os.W_OK | os.X_OK):
        raise CorpusError("the corpus folder is read-only; nothing was stored", file=str(directory))


def _store_all(writes: list[tuple[Path, dt.date, Path, bytes, str]]) -> list[ImportStatus]:
    """Write every file; if one fails, put back what the earlier ones replaced."""
    done: list[tuple[Path, bytes | None]] = []
    statuses: list[ImportStatus] = []
    for _path, _date, target, data, _sha in writes:
        try:
            previous = target.read_bytes() if target.exists() else None
            cache.atomic_write_bytes(target, data)
        except OSError as exc:
            _undo(done)
            raise CorpusError(
                f"cannot store: {exc.strerror or exc}; nothing was stored", file=str(target)
            ) from None
        done.append((target, previous))
        statuses.append("replaced" if previous is not None else "added")
    return statuses


def _undo(done: list[tuple[Path, bytes | None]]) -> None:
    for target, previous in reversed(done):
        try:
            if previous is None:
                target.unlink()
            else:
                cache.atomic_write_bytes(target, previous)
        except OSError as exc:
            log.warning("%s: could not undo the import (%s)", target, exc.strerror or exc)


# --- fetch -----------------------------------------------------------------------------

FetchStatus = Literal["downloaded", "replaced", "unchanged"]


@dataclass(frozen=True, slots=True)
class FetchResult:
    entry: ManifestEntry
    path: Path
    status: FetchStatus


def fetch_targets(refs: Sequence[str], manifest: Manifest) -> list[ManifestEntry]:
    """The manifest entries a fetch names (all with a URL when ``refs`` is empty)."""
    where = f"the manifest {manifest.path}" if manifest.path else "the manifest"
    if not refs:
        return [e for e in manifest.entries if e.url]
    chosen: list[ManifestEntry] = []
    for ref in refs:
        entry = _match(ref, manifest.entries, where=where)
        if not entry.url:
            raise CorpusError(
                f"no official URL is known for {entry.label}; get the file and run "
                "`rulediff corpus import FILE`"
            )
        if entry not in chosen:
            chosen.append(entry)
    return chosen


def download(url: str, *, timeout: float = 60.0) -> bytes:
    """The bytes at ``url`` (one-line :class:`CorpusError` on any failure)."""
    import urllib.error  # only a fetch needs the network stack: keep start-up light
    import urllib.request

    from . import __version__

    request = urllib.request.Request(url, headers={"User-Agent": f"rulediff/{__version__}"})
    try:
        with urllib.request.urlopen(request, timeout=timeout) as response:  # noqa: S310
            return response.read()
    except urllib.error.HTTPError as exc:
        raise CorpusError(f"download failed: HTTP {exc.code} {exc.reason}", file=url) from None
    except urllib.error.URLError as exc:
        raise CorpusError(f"download failed: {exc.reason}", file=url) from None
    except (OSError, ValueError) as exc:
        raise CorpusError(f"download failed: {exc}", file=url) from None


def fetch_editions(
    refs: Sequence[str] = (),
    corpus_dir: str | os.PathLike[str] | None = None,
    *,
    manifest: Manifest | str | os.PathLike[str] | None = None,
    force: bool = False,
    timeout: float = 60.0,
    on_entry: Callable[[ManifestEntry], None] | None = None,
) -> list[FetchResult]:
    """Download official editions named in the manifest into the corpus.

    Each download is checked against the manifest's sha256 (or, for an entry without
    one, parsed and its date compared) before it is written, atomically, as
    ``YYYY-MM-DD.txt``. A mismatch raises and writes nothing for that edition.
    """
    corpus = Corpus.open(corpus_dir, manifest=manifest, require=False)
    targets = fetch_targets(refs, corpus.manifest)
    present: dict[dt.date, list[EditionInfo]] = {}
    for info in corpus.editions():
        present.setdefault(info.date, []).append(info)
    results: list[FetchResult] = []
    for entry in targets:
        assert entry.url is not None
        target = corpus.directory / f"{entry.date.isoformat()}.txt"
        here = present.get(entry.date, [])
        same = next((i for i in here if entry.sha256 and i.sha256 == entry.sha256), None)
        if same is not None:
            results.append(FetchResult(entry, same.path, "unchanged"))
            continue
        if here and not force:
            if not refs:
                log.info("%s: a different file is already in the corpus; skipped", entry.label)
                continue
            raise CorpusError(
                f"the corpus already has a different edition dated {entry.date} "
                f"({here[0].path}); use --force to replace it"
            )
        if on_entry is not None:
            on_entry(entry)
        data = download(entry.url, timeout=timeout)
        _verify_download(entry, data)
        corpus.directory.mkdir(parents=True, exist_ok=True)
        status: FetchStatus = "replaced" if target.exists() else "downloaded"
        cache.atomic_write_bytes(target, data)
        results.append(FetchResult(entry, target, status))
    corpus.refresh()
    return results


def _verify_download(entry: ManifestEntry, data: bytes) -> None:
    url = entry.url or "<url>"
    if entry.sha256:
        got = hashlib.sha256(data).hexdigest()
        if got != entry.sha256:
            raise CorpusError(
                f"sha256 mismatch for {entry.label}: expected {entry.sha256[:16]}…, "
                f"got {got[:16]}…; nothing written",
                file=url,
            )
        return
    edition = parse_bytes(data, url)
    if edition.effective_date != entry.date:
        raise CorpusError(
            f"the downloaded text is dated {edition.effective_date}, the manifest says "
            f"{entry.date}; nothing written",
            file=url,
        )
