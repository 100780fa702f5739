"""Loading hand-written flag files (TOML or JSON) into a validated `FlagSet`.

Engine authors write the flags their engine implements by hand; a mistake there must
be one clear line (file, line when we can find it, flag, what was expected), never a
traceback or a silently ignored key.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
import math
import re
from collections.abc import Mapping
from pathlib import Path

import tomllib

from ..errors import FlagError
from .flagset import REGISTRY, FlagSet
from .registry import Decision, Undetermined

_META_KEYS = {
    "effective_date",
    "edition",
    "engine",
    "name",
    "version",
    "format",
    "$schema",
    "schema",
    "provenance",
    "description",
}


def load_flagset(path: str | Path) -> FlagSet:
    """Read a ``.toml`` or ``.json`` flags file and validate it.

    The file may be flat (``mana_burn = false``), hold a ``[flags]`` table, or be a
    ``rulediff flags --format json|toml`` export. Raises :class:`FlagError`.
    """
    from ..errors import IngestError
    from ..ingest import read_bytes
    path = Path(path)
    try:
        raw = read_bytes(path, limit=MAX_FLAGS_BYTES)
    except IngestError as exc:
        raise FlagError(f"cannot read flags file: {exc.message}", file=str(path)) from None
    try:
        text = raw.decode("utf-8-sig")
    except UnicodeDecodeError:
        raise FlagError("flags file is not UTF-8 text", file=str(path)) from None
    data: object
    if path.suffix.lower() == ".json" or text.lstrip().startswith("{"):
        try:
            data = json.loads(text)
        except json.JSONDecodeError as exc:
            raise FlagError(
                f"invalid JSON: {exc.msg}", file=str(path), line=exc.lineno, column=exc.colno
            ) from None
        except RecursionError:
            raise FlagError("invalid JSON: nested too deeply", file=str(path)) from None
    else:
        try:
            data = tomllib.loads(text)
        except tomllib.TOMLDecodeError as exc:
            line = _toml_error_line(str(exc))
            raise FlagError(f"invalid TOML: {exc}", file=str(path), line=line) from None
        except RecursionError:
            raise FlagError("invalid TOML: nested too deeply", file=str(path)) from None
    if not isinstance(data, dict):
        raise FlagError("a flags file must hold a table/object of flags", file=str(path))
    _check_shape(data, str(path), text)
    return mapping_to_flagset(FlagSet, data, source=str(path), text=text)


#: Largest flags file read (an export is a few kB).
MAX_FLAGS_BYTES = 1 << 20
#: How deep tables may nest (``[provenance.NAME]`` is 2), and how big a list or string may be.
MAX_DEPTH = 4
MAX_ITEMS = 1_000
MAX_TEXT = 10_000
MAX_INT = 10**9


def _check_shape(data: Mapping[str, object], source: str, text: str) -> None:
    """Nesting, sizes and numbers of a flags file, checked before any value is read.

    The error names the field (``provenance.mana_burn.rules``) and its line.
    """
    todo: list[tuple[str, object, int]] = [(str(k), v, 1) for k, v in data.items()]
    while todo:
        where, value, depth = todo.pop()
        problem = None
        if isinstance(value, (dict, list)) and depth > MAX_DEPTH:
            problem = f"nested deeper than {MAX_DEPTH} levels"
        elif isinstance(value, (dict, list)) and len(value) > MAX_ITEMS:
            problem = f"more than {MAX_ITEMS} items"
        elif isinstance(value, str) and len(value) > MAX_TEXT:
            problem = f"text longer than {MAX_TEXT} characters"
        elif isinstance(value, float) and not math.isfinite(value):
            problem = f"{value} is not a finite number"
        elif isinstance(value, int) and not isinstance(value, bool) and abs(value) > MAX_INT:
            problem = f"{value} is out of range (at most {MAX_INT:,} either way)"
        if problem is not None:
            top = where.split(".")[0].split("[")[0]
            raise FlagError(f"{_cut(where)}: {problem}", file=source, line=_line(text, top))
        if isinstance(value, dict):
            todo.extend((f"{where}.{k}", v, depth + 1) for k, v in value.items())
        elif isinstance(value, list):
            todo.extend((f"{where}[{i}]", v, depth + 1) for i, v in enumerate(value))


def _cut(text: str, limit: int = 200) -> str:
    """Echoed input cut to a readable length."""
    return text if len(text) <= limit else text[: limit - 1] + "…"


def mapping_to_flagset(
    cls: type[FlagSet],
    data: Mapping[str, object],
    *,
    source: str = "<mapping>",
    text: str | None = None,
) -> FlagSet:
    """Validate ``data`` flag by flag and build the :class:`FlagSet` (see ``from_mapping``)."""
    if not isinstance(data, Mapping):
        raise FlagError("flags must be given as a mapping", file=source)
    effective = _effective_date(data.get("effective_date"), source, text)
    table: Mapping[str, object] = data
    if "flags" in data:
        inner = data["flags"]
        if not isinstance(inner, Mapping):
            raise FlagError(
                "'flags' must be a table/object", file=source, line=_line(text, "flags")
            )
        table = inner
        extra = [k for k in data if k != "flags" and k not in _META_KEYS]
        if extra:
            _unknown(extra[0], source, text)
    provenance = data.get("provenance")
    if not isinstance(provenance, Mapping):
        provenance = {}
    outcomes: dict[str, Decision | Undetermined] = {}
    for name, raw in table.items():
        if name in _META_KEYS and table is data:
            continue
        spec = REGISTRY.get(name)
        if spec is None:
            _unknown(name, source, text)
        assert spec is not None
        rules: tuple[str, ...] = ()
        evidence = f"declared in {source}"
        value = raw
        cited = provenance.get(name)
        if isinstance(cited, Mapping):  # a TOML export's [provenance.NAME] table
            got = cited.get("rules", ())
            if isinstance(got, (list, tuple)) and all(isinstance(r, str) for r in got):
                rules = tuple(got)
            if isinstance(cited.get("evidence"), str) and cited["evidence"]:
                evidence = cited["evidence"]  # type: ignore[assignment]
        if isinstance(raw, Mapping):
            if "value" not in raw:
                raise FlagError(
                    f"flag {name!r}: a table must have a 'value' key",
                    file=source,
                    line=_line(text, name),
                )
            value = raw["value"]
            got_rules = raw.get("rules", ())
            if isinstance(got_rules, (list, tuple)) and all(isinstance(r, str) for r in got_rules):
                rules = tuple(got_rules)
            if isinstance(raw.get("evidence"), str) and raw["evidence"]:
                evidence = raw["evidence"]  # type: ignore[assignment]
        if value is None:
            reason = raw.get("reason") if isinstance(raw, Mapping) else None
            outcomes[name] = Undetermined(str(reason or f"declared undetermined in {source}"))
            continue
        problem = spec.check(value)
        if problem is not None:
            raise FlagError(
                f"flag {name!r}: {_cut(problem)}", file=source, line=_line(text, name)
            )
        outcomes[name] = Decision(spec.normalize(value), rules, evidence)  # type: ignore[arg-type]
    for name in REGISTRY:
        outcomes.setdefault(name, Undetermined(f"not declared in {source}"))
    ordered = {name: outcomes[name] for name in REGISTRY}
    return cls.from_outcomes(ordered, effective)


def _unknown(name: str, source: str, text: str | None) -> None:
    close = difflib.get_close_matches(name, list(REGISTRY), n=1)
    hint = f" (did you mean {close[0]!r}?)" if close else ""
    raise FlagError(f"unknown flag {name!r}{hint}", file=source, line=_line(text, name))


def _effective_date(raw: object, source: str, text: str | None) -> dt.date | None:
    if raw is None:
        return None
    if isinstance(raw, dt.datetime):
        return raw.date()
    if isinstance(raw, dt.date):
        return raw
    if isinstance(raw, str):
        try:
            return dt.date.fromisoformat(raw)
        except ValueError:
            pass
    raise FlagError(
        f"effective_date must be a YYYY-MM-DD date, got {raw!r}",
        file=source,
        line=_line(text, "effective_date"),
    )


def _line(text: str | None, key: str) -> int | None:
    """The first line of ``text`` that assigns ``key`` (TOML ``key =`` or JSON ``"key":``)."""
    if not text:
        return None
    pattern = re.compile(
        rf'^\s*(?:"{re.escape(key)}"\s*:|{re.escape(key)}\s*=|\[{re.escape(key)}\]|"{re.escape(key)}"\s*=)'
        rf'|[{{,]\s*"{re.escape(key)}"\s*:'
    )
    for number, line in enumerate(text.split("\n"), start=1):
        if pattern.search(line):
            return number
    return None


def _toml_error_line(message: str) -> int | None:
    m = re.search(r"\(at line (\d+)", message)
    return int(m.group(1)) if m else None
