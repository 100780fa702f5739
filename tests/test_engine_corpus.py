"""Every scenario under every corpus edition, with the flags that edition's text gives.

Two independent checks:

* each scenario file states its expected result per flag value; the result under each
  edition must be the one expected for that edition's flags;
* for the ten named scenarios, the results per era below were read off the rules text
  of the editions themselves (the era starts at the first corpus edition whose text says
  so), so a wrong flag or a wrong procedure shows up as a wrong era.
"""

from __future__ import annotations

import functools
import os
from pathlib import Path

import pytest

from rulediff.corpus import load_edition
from rulediff.engine import open_scenario, run, scenario_names
from rulediff.engine.state import UndeterminedFlag
from rulediff.flags import flags_for
from rulediff.model import Edition

from .conftest import corpus_dates

DATES = corpus_dates()


@functools.cache
def edition(date: str) -> Edition:
    return load_edition(Path(os.environ["RULEDIFF_CORPUS"]) / f"{date}.txt")


@functools.cache
def flags(date: str):  # noqa: ANN201 - a FlagSet
    return flags_for(edition(date))


@functools.cache
def result(name: str, date: str) -> str:
    return run(open_scenario(name), flags(date), edition=edition(date)).result


def test_the_corpus_is_there(corpus_dir: Path) -> None:
    assert len(DATES) >= 100


#: An era that reaches back to the oldest edition present (sorts before every date): eras
#: are named by the dates of the changes, never by the first file of the corpus.
START = ""

#: scenario -> [(first edition of the era, result)], from reading each era's rules.
ERAS: dict[str, list[tuple[str, str]]] = {
    # Before sublayers, P/T effects apply in timestamp order (418.5c; from 2003-07 an
    # example in 418.5i says the later +5/+0 makes it 9/1). From 2005-10 switching
    # effects apply last (6e, later 7e, 7d); the examples say "4/6".
    "pt-switch-then-pump": [(START, "9/1"), ("2005-10-01", "4/6")],
    # The "+0/+1 ends" and "switch twice" examples give 3/1 and 1/4 in every era.
    "pt-switch-then-end-pump": [(START, "3/1")],
    "pt-double-switch": [(START, "1/4")],
    # 420.5e: all but the one legendary the longest go; from 2004-10 "all are put into
    # their owners' graveyards"; from 2013-07 (704.5k) the controller chooses one.
    "legend-same-controller": [(START, "isamaru-1"), ("2004-10-01", ""),
                               ("2013-07-13", "isamaru-2")],
    "legend-two-controllers": [(START, "isamaru-1"), ("2004-10-01", ""),
                               ("2013-07-13", "isamaru-1,isamaru-2")],
    # No planeswalkers before 2007-10; then "share a planeswalker type … all are put
    # into … graveyards"; 2013-07 the player chooses one; 2018-01 the rule is gone
    # (306.4: "has been removed"), and the names differ so the legend rule spares both.
    "planeswalker-same-type": [(START, "jace-beleren,jace-the-mind-sculptor"),
                               ("2007-10-01", ""), ("2013-07-13", "jace-the-mind-sculptor"),
                               ("2018-01-19", "jace-beleren,jace-the-mind-sculptor")],
    # 300.3/300.4 "This is called mana burn" until 2009-05; 500.4 (2009-07) empties
    # the pool "when a step or phase ends" with no life loss.
    "mana-burn": [(START, "life=17"), ("2009-07-11", "life=20")],
    "mana-across-steps": [(START, "spent"), ("2009-07-11", "lost")],
    # 101.4/103.4: one card fewer; 2015-09 adds looking at the top card and putting it
    # on the bottom; 2019-08 draws a full hand and puts cards on the bottom.
    "mulligan-once": [(START, "hand=6,scry=no,bottom=0"),
                      ("2015-09-26", "hand=6,scry=yes,bottom=0"),
                      ("2019-08-23", "hand=6,scry=no,bottom=1")],
    # 310.1c/310.2c "divided as its controller chooses"; 2009-07 (509.2, 510.1c) the
    # damage assignment order and lethal damage in order; 2024-11 510.1c divides freely.
    "damage-order": [(START, "legal"), ("2009-07-11", "illegal"),
                     ("2024-11-08", "legal")],
}


def era_result(name: str, date: str) -> str:
    return [res for first, res in ERAS[name] if first <= date][-1]


@pytest.mark.parametrize("date", DATES)
def test_named_scenarios_per_era(date: str) -> None:
    got = {name: result(name, date) for name in ERAS}
    want = {name: era_result(name, date) for name in ERAS}
    assert got == want


@pytest.mark.parametrize("date", DATES)
def test_every_scenario_gives_what_its_file_expects_for_the_editions_flags(date: str) -> None:
    fs = flags(date)
    wrong = {}
    for name in scenario_names():
        scenario = open_scenario(name)
        expected = scenario.expected(fs)
        assert expected is not None, f"{name} has no expectation for the flags of {date}"
        try:
            got = run(scenario, fs, edition=edition(date)).result
        except UndeterminedFlag as exc:  # an undetermined flag is a result of its own
            got = f"undetermined: {exc.flag}"
        if got != expected.result:
            wrong[name] = (got, expected.result)
    assert not wrong


@pytest.mark.parametrize("date", DATES[:: max(1, len(DATES) // 12)] + DATES[-1:])
def test_log_cites_rules_that_exist_in_that_edition(date: str) -> None:
    ed = edition(date)
    for name in scenario_names():
        try:
            r = run(open_scenario(name), flags(date), edition=ed)
        except UndeterminedFlag as exc:  # the run needs a flag this edition leaves open
            assert getattr(flags(date), exc.flag) is None, (name, exc.flag)
            continue
        for entry in r.log:
            for rid in entry.rules:
                assert ed.rule(rid) is not None, (name, rid)


@pytest.mark.parametrize("date", DATES)
def test_the_deciding_steps_cite_the_rule_that_decides(date: str) -> None:
    ed = edition(date)

    def cited(name: str, concept: str) -> list[str]:
        r = run(open_scenario(name), flags(date), edition=ed)
        return [rid for e in r.log if e.concept == concept for rid in e.rules]

    legend = cited("legend-same-controller", "legend-rule")
    assert legend and all("same name" in ed.rule(rid).text for rid in legend)
    burns = cited("mana-burn", "mana-burn")
    if flags(date).mana_burn:
        assert burns and all("mana burn" in ed.rule(rid).text for rid in burns)
    else:
        assert not burns
    empties = cited("mana-burn", "mana-empties")
    assert empties and all("mana pool" in ed.rule(rid).text for rid in empties)
