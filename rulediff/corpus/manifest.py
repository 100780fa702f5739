"""The manifest (``corpus/editions.toml``, shipped as ``rulediff/data/editions.toml``).

It lists facts about official editions: effective date, the set whose release the
edition accompanies, Wizards' TXT URL where known, sha256 and size. No rules text.
"""

from __future__ import annotations

import datetime as dt
import logging
import os
from dataclasses import dataclass
from importlib import resources
from pathlib import Path
from typing import Protocol

from ..errors import CorpusError

try:  # Python 3.11+
    import tomllib
except ModuleNotFoundError:  # pragma: no cover - Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

log = logging.getLogger(__name__)

#: Environment variable naming another manifest.
MANIFEST_ENV = "RULEDIFF_MANIFEST"


def default_manifest_path() -> Path:
    """``$RULEDIFF_MANIFEST``, else the manifest shipped in the package (or the checkout)."""
    value = os.environ.get(MANIFEST_ENV)
    if value:
        return Path(value).expanduser()
    packaged = resources.files("rulediff") / "data" / "editions.toml"
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parents[2] / "corpus" / "editions.toml"


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


class Named(Protocol):
    """What a reference can match: a manifest entry or a corpus edition."""

    @property
    def date(self) -> dt.date: ...
    @property
    def set_code(self) -> str | None: ...
    @property
    def set_name(self) -> str | None: ...


def _names(entry: Named) -> tuple[str, ...]:
    return tuple(_fold(n) for n in (entry.set_code, entry.set_name) if n)
