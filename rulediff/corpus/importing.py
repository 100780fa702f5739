"""Import: validate CR text files, then store them in the corpus, all or nothing."""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import os
import stat
from collections.abc import Callable, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .. import cache
from ..errors import CorpusError
from ..ingest import read_bytes
from ..model import Edition
from .load import load_bytes
from .scan import Corpus, EditionInfo, _date_in_name

log = logging.getLogger(__name__)

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
