"""Edition references: what every command taking an EDITION accepts.

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
import os
import re
from collections.abc import Sequence
from pathlib import Path
from typing import Literal, TypeVar

from ..errors import EditionNotFound
from .manifest import Named, _fold, _names

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")

Ref = str | os.PathLike[str]

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


_X = TypeVar("_X", bound=Named)


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
            named = [i for i in exact if _stem(i) == str(value)]
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


def _describe(item: Named) -> str:
    return f"{item.date} ({item.set_code})" if item.set_code else str(item.date)


def _nearest_dates(value: dt.date, items: Sequence[Named]) -> str:
    ranked = sorted(items, key=lambda i: (abs((i.date - value).days), i.date))[:3]
    return ", ".join(_describe(i) for i in sorted(ranked, key=lambda i: i.date)) or "none"


def _nearest_names(value: str, items: Sequence[Named]) -> str:
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


def _stem(item: Named) -> str | None:
    """The file name (without ``.txt``) of a corpus edition; ``None`` for a manifest entry."""
    path = getattr(item, "path", None)
    return path.stem if isinstance(path, Path) else None
