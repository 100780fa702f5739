"""Fetch: download official editions named in the manifest (the only network code)."""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from .. import cache
from ..errors import CorpusError
from ..parse import parse_bytes
from .manifest import Manifest, ManifestEntry
from .refs import _match
from .scan import Corpus, EditionInfo

log = logging.getLogger(__name__)

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

    from .. import __version__

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
