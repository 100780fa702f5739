"""One serializer for the frozen records: :func:`to_data` turns them into JSON-ready data.

Why: every record used to spell out its own ``as_dict``; the shapes now come from the
dataclass fields, in declaration order, and a class states only what differs, once, in a
``__json_fields__`` class attribute: a tuple whose items are an attribute name (a field
or a property, kept as it is) or an :class:`Out` (a renamed, derived or omittable key).
``__json_fields__ = str`` writes the record as its text (a rule number).
Records keep ``as_dict = to_data`` so callers do not change.

>>> from dataclasses import dataclass
>>> @dataclass(frozen=True)
... class Pair:
...     name: str
...     items: tuple[int, ...] = ()
>>> to_data(Pair("a", (1, 2)))
{'name': 'a', 'items': [1, 2]}
"""

from __future__ import annotations

import dataclasses
import datetime as dt
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from pathlib import PurePath
from typing import Any

JSON_FIELDS = "__json_fields__"


@dataclass(frozen=True, slots=True)
class Out:
    """One key of a record's JSON form that is not simply a field of the same name."""

    key: str
    get: str | Callable[[Any], Any] | None = None
    """A dotted attribute path (``citation.path``) or a function of the record;
    default: the attribute named ``key``."""
    omit: Callable[[Any], bool] | None = None
    """Leave the key out when this is true of its value."""


def is_none(value: Any) -> bool:
    return value is None


def is_empty(value: Any) -> bool:
    return not value


def _attribute(obj: Any, path: str) -> Any:
    for name in path.split("."):
        obj = getattr(obj, name)
    return obj


def _record(obj: Any) -> dict[str, Any]:
    spec = getattr(type(obj), JSON_FIELDS, None)
    if spec is None:
        return {f.name: to_data(getattr(obj, f.name)) for f in dataclasses.fields(obj)}
    out: dict[str, Any] = {}
    for item in spec:
        if isinstance(item, str):
            out[item] = to_data(getattr(obj, item))
            continue
        get = item.key if item.get is None else item.get
        value = _attribute(obj, get) if isinstance(get, str) else get(obj)
        if item.omit is not None and item.omit(value):
            continue
        out[item.key] = to_data(value)
    return out


def to_data(obj: Any) -> Any:
    """JSON-ready data: records → dicts, tuples/lists → lists, dates and ids → str.

    Strings, numbers, booleans and ``None`` are kept; mapping keys are kept as they
    are; anything else (a set, an arbitrary object) is a :class:`TypeError`.
    """
    if obj is None or isinstance(obj, (str, bool, int, float)):
        return obj
    if getattr(type(obj), JSON_FIELDS, None) is str:  # a value written as text (RuleId)
        return str(obj)
    if dataclasses.is_dataclass(obj) and not isinstance(obj, type):
        return _record(obj)
    if isinstance(obj, (tuple, list)):
        return [to_data(item) for item in obj]
    if isinstance(obj, Mapping):
        return {key: to_data(value) for key, value in obj.items()}
    if isinstance(obj, (dt.date, PurePath)):
        return str(obj)
    raise TypeError(f"cannot serialize {type(obj).__qualname__}")
