"""The set of editions: manifest, discovery, edition references, loading, import, fetch.

One module per job, data flowing one way::

    manifest ─→ refs ─→ scan (Corpus) ─→ importing
                load ─↗        └──────→ fetch (the only network code)

* :mod:`.manifest` — ``editions.toml``: facts about official editions (no rules text);
* :mod:`.refs` — edition references (path, date, set code/name, ``latest``, ``@date``);
* :mod:`.load` — parsing an edition's bytes through the cache;
* :mod:`.scan` — a corpus folder: its editions, dated by their text, and resolution;
* :mod:`.importing` — storing CR text files in a corpus, all or nothing;
* :mod:`.fetch` — downloading official editions named in the manifest.

Every public name is re-exported here, so ``from rulediff.corpus import Corpus`` works.
"""

from __future__ import annotations

from .fetch import FetchResult, FetchStatus, download, fetch_editions, fetch_targets
from .importing import ImportResult, ImportStatus, import_editions
from .load import load_bytes, load_file
from .manifest import MANIFEST_ENV, Manifest, ManifestEntry, default_manifest_path, tomllib
from .refs import Ref, RefKind, parse_reference, reference_path
from .scan import (
    CORPUS_ENV,
    HOW_TO_GET_EDITIONS,
    Corpus,
    EditionInfo,
    _Scanned,
    default_corpus_dir,
    load_edition,
    resolve_edition,
)

__all__ = [
    "CORPUS_ENV",
    "HOW_TO_GET_EDITIONS",
    "MANIFEST_ENV",
    "Corpus",
    "EditionInfo",
    "FetchResult",
    "FetchStatus",
    "ImportResult",
    "ImportStatus",
    "Manifest",
    "ManifestEntry",
    "Ref",
    "RefKind",
    "_Scanned",
    "default_corpus_dir",
    "default_manifest_path",
    "download",
    "fetch_editions",
    "fetch_targets",
    "import_editions",
    "load_bytes",
    "load_edition",
    "load_file",
    "parse_reference",
    "reference_path",
    "resolve_edition",
    "tomllib",
]
