"""A corpus: a folder of CR text files, one per edition, discovered and scanned.

The folder is ``--corpus DIR``, ``$RULEDIFF_CORPUS``, or the user data folder. The
effective date of a file comes from its text ("effective as of …"), never from its
name; when they disagree the text wins and a warning is logged.
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import os
import re
from collections.abc import Sequence
from dataclasses import dataclass
from pathlib import Path

import platformdirs

from .. import cache
from ..errors import CorpusError, EditionNotFound, RuleDiffError
from ..ingest import find_effective_date, ingest_bytes, read_bytes
from ..model import Edition
from .load import load_file
from .manifest import Manifest
from .refs import Ref, _match, _match_or_none, reference_path

log = logging.getLogger(__name__)

#: Environment variable naming the corpus folder.
CORPUS_ENV = "RULEDIFF_CORPUS"

HOW_TO_GET_EDITIONS = (
    "run `rulediff corpus import DIR` (a folder of CR .txt files) or `rulediff corpus fetch`"
    f", or point --corpus / ${CORPUS_ENV} at a corpus folder"
)

_NAME_DATE = re.compile(r"(\d{4})-(\d{2})-(\d{2})")


def default_corpus_dir() -> Path:
    """``$RULEDIFF_CORPUS``, else the user data folder (``~/.local/share/rulediff/corpus``)."""
    value = os.environ.get(CORPUS_ENV)
    if value:
        return Path(value).expanduser()
    return Path(platformdirs.user_data_dir("rulediff", appauthor=False)) / "corpus"


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
