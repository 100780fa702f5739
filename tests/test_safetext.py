"""JSON and TOML exports escape every control character (U+007F and the C1 range too)."""

from __future__ import annotations

import json

import pytest

try:
    import tomllib
except ModuleNotFoundError:  # Python 3.10
    import tomli as tomllib  # type: ignore[no-redef]

from rulediff.flags import Decision, Undetermined
from rulediff.flags.exporters import to_json, to_toml
from rulediff.flags.flagset import REGISTRY, FlagSet
from rulediff.safetext import comment_safe, json_text, toml_string

#: Every control character (Unicode category Cc): none may appear raw in an export.
CONTROLS = [chr(c) for c in range(0x20)] + [chr(c) for c in range(0x7F, 0xA0)]


def _raw_controls(text: str) -> list[str]:
    return [f"U+{ord(ch):04X}" for ch in text if ch in CONTROLS and ch != "\n"]


@pytest.mark.parametrize("ch", CONTROLS, ids=lambda c: f"U+{ord(c):04X}")
def test_each_control_is_escaped_and_read_back(ch: str) -> None:
    value = f"a{ch}b"
    text = json_text({"v": value})
    assert _raw_controls(text) == []
    assert json.loads(text) == {"v": value}
    toml = f"v = {toml_string(value)}\n"
    assert _raw_controls(toml) == []
    assert tomllib.loads(toml) == {"v": value}
    assert _raw_controls(comment_safe(value)) == [] and "\n" not in comment_safe(value)


def test_printable_text_is_left_alone() -> None:
    value = "caf\u00e9 \u201cquote\u201d \u2014 \u00a0 \u2028 \U0001f600"
    assert json_text(value) == json.dumps(value, ensure_ascii=False) + "\n"
    assert toml_string(value) == json.dumps(value, ensure_ascii=False)


def _flagset_with(evidence: str) -> FlagSet:
    names = list(REGISTRY)
    outcomes: dict[str, object] = {name: Undetermined(f"reason {evidence}") for name in names}
    outcomes[names[0]] = Decision(
        REGISTRY[names[0]].normalize(_a_value(names[0])), ("100.1",), evidence
    )
    return FlagSet.from_outcomes(outcomes)  # type: ignore[arg-type]


def _a_value(name: str) -> object:
    spec = REGISTRY[name]
    return {"bool": True, "int": 1, "enum": (spec.allowed or ("x",))[0], "list": ("a",)}[spec.type]


@pytest.mark.parametrize("ch", ["\x7f", "\x85", "\x00", "\x1b", "\x9f", "\r"])
def test_flags_exports_are_valid_with_controls_in_evidence_and_reasons(ch: str) -> None:
    fs = _flagset_with(f"text{ch}with a control")
    toml = to_toml(fs)
    assert _raw_controls(toml) == []
    parsed = tomllib.loads(toml)  # U+007F raw used to make this fail
    name = next(iter(REGISTRY))
    assert parsed["provenance"][name]["evidence"].startswith("text")
    doc = to_json(fs)
    assert _raw_controls(doc) == []
    json.loads(doc)
