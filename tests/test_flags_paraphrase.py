"""Rewordings of the rules behind every flag: decided right, undetermined, or wrong.

The cases (tests/fixtures/flags_paraphrases.toml) are our own rewordings, some of them
flipping the meaning of a rule with a word or two. A detector may say ``undetermined``
when it cannot read a wording (that is failing closed); it may never give a wrong
value. The summary line (``pytest -s``) gives the figures:

    paraphrases: N cases — R decided right, U undetermined, W wrong (D% decided)
"""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest
import tomllib

from rulediff.flags import REGISTRY, Decision, flags_for

from .flags_helpers import synthetic_edition

FILE = Path(__file__).parent / "fixtures" / "flags_paraphrases.toml"
CASES: list[dict] = tomllib.loads(FILE.read_text(encoding="utf-8"))["case"]
UNDETERMINED = "undetermined"


def _expected(case: dict) -> object:
    value = case["expect"]
    return tuple(value) if isinstance(value, list) else value


def outcome(case: dict) -> tuple[str, object]:
    """``("right" | "undetermined" | "wrong", what the detector said)``."""
    edition = synthetic_edition(
        case["rules"], titles=case.get("titles", {}), glossary=case.get("glossary", {})
    )
    out = flags_for(edition).outcome(case["flag"])
    expected = _expected(case)
    if not isinstance(out, Decision):
        return ("right" if expected == UNDETERMINED else "undetermined"), out
    return ("right" if out.value == expected else "wrong"), out


def test_the_cases_cover_every_flag_and_are_many():
    assert len(CASES) >= 60
    assert len({c["id"] for c in CASES}) == len(CASES)
    assert {c["flag"] for c in CASES} == set(REGISTRY)
    for case in CASES:
        expected = _expected(case)
        assert expected == UNDETERMINED or REGISTRY[case["flag"]].check(expected) is None, case


@pytest.mark.parametrize("case", CASES, ids=[c["id"] for c in CASES])
def test_no_rewording_gets_a_wrong_value(case):
    verdict, out = outcome(case)
    assert verdict != "wrong", f"{case['flag']}: expected {case['expect']!r}, got {out}"


def test_most_rewordings_are_decided():
    verdicts = Counter(outcome(c)[0] for c in CASES)
    decided = sum(1 for c in CASES if outcome(c)[0] == "right" and c["expect"] != UNDETERMINED)
    valued = sum(1 for c in CASES if c["expect"] != UNDETERMINED)
    share = decided / valued
    print(
        f"\nparaphrases: {len(CASES)} cases — {verdicts['right']} right "
        f"({decided} of {valued} valued cases decided, the rest correctly undetermined), "
        f"{verdicts['undetermined']} undetermined, {verdicts['wrong']} wrong "
        f"({share:.0%} of valued cases decided)"
    )
    assert verdicts["wrong"] == 0
    assert share >= 0.70
