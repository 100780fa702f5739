"""Lineage across editions: rule histories, tracing numbers through time, ``history``/``at``.

Synthetic editions (widget game, not CR text) are built with tests/test_align.py's
helper; the real corpus comes from $RULEDIFF_CORPUS.
"""

from __future__ import annotations

import hashlib
import json
import os
from pathlib import Path

import pytest
from click.testing import CliRunner
from hypothesis import given
from hypothesis import strategies as st

from rulediff.cli import main
from rulediff.history import build_lineage, history_as_dict, rule_history, trace_to
from rulediff.model import Edition
from rulediff.parse import parse_file

from .helpers import insert_100_2a
from .test_align import BASE, edition

# Three editions of the widget game.
# 2030: BASE.
# 2031: a new 100.2a is inserted (old 100.2a-c shift to b-d); 200.3 is edited.
# 2032: 201.2 is removed; the old 100.2a (now 100.2b) is edited.
V2031 = (
    insert_100_2a(BASE)
    .replace("see rule 100.2a for running out", "see rule 100.2b for running out")
    .replace("up to three spaces", "up to four spaces")
)
V2032 = V2031.replace(
    '201.2. The rest step ends when the active player says "done."\n', ""
).replace("loses the game at once", "loses the game at the end of the turn")
DATES = {"2030": "May 1, 2030", "2031": "May 1, 2031", "2032": "May 1, 2032"}
BODIES = {"2030": BASE, "2031": V2031, "2032": V2032}


def editions() -> list[Edition]:
    return [edition(BODIES[y], date=DATES[y]) for y in ("2030", "2031", "2032")]


@pytest.fixture()
def lineage():
    return build_lineage(editions(), lambda e: e, use_cache=False)


def kinds(history) -> list[tuple[str, str, tuple, tuple]]:
    return [(e.date, e.kind, e.old_ids, e.new_ids) for e in history.events]


def test_lineage_steps(lineage) -> None:
    assert [e.date for e in lineage.editions] == ["2030-05-01", "2031-05-01", "2032-05-01"]
    assert len(lineage.steps) == 2
    assert lineage.steps[0].for_new("100.2d").old_ids == ("100.2c",)
    assert lineage.steps[0].for_new("100.1") is None  # unchanged rules are not stored


def test_history_follows_renumbering_back_to_the_origin(lineage) -> None:
    h = rule_history(lineage, "100.2b")  # numbered as in the newest edition
    assert kinds(h) == [
        ("2032-05-01", "edited", ("100.2b",), ("100.2b",)),
        ("2031-05-01", "renumbered", ("100.2a",), ("100.2b",)),
        ("2030-05-01", "added", (), ("100.2a",)),
    ]
    assert h.origin.in_oldest
    assert h.numbers() == ("100.2b", "100.2a")


def test_history_of_a_rule_born_later(lineage) -> None:
    h = rule_history(lineage, "100.2a")
    assert kinds(h) == [("2031-05-01", "added", (), ("100.2a",))]
    assert not h.origin.in_oldest


def test_history_from_an_older_edition_runs_forward_to_the_removal(lineage) -> None:
    h = rule_history(lineage, "201.2", edition=0)
    assert kinds(h) == [
        ("2032-05-01", "removed", ("201.2",), ()),
        ("2030-05-01", "added", (), ("201.2",)),
    ]


def test_trace_to_maps_numbers_through_time(lineage) -> None:
    assert trace_to(lineage, "100.2d", 2, 0) == "100.2c"
    assert trace_to(lineage, "100.2c", 0, 2) == "100.2d"
    assert trace_to(lineage, "100.2a", 2, 0) is None  # born in 2031
    assert trace_to(lineage, "201.2", 0, 2) is None  # removed in 2032


def test_lineage_is_cached_and_then_needs_no_parsing(tmp_path: Path, monkeypatch) -> None:
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(tmp_path / "cache"))
    from rulediff import cache

    cache.forget_memo()

    class Info:
        def __init__(self, year: str) -> None:
            self.year = year
            self.sha256 = hashlib.sha256(BODIES[year].encode()).hexdigest()

    loads: list[str] = []

    def load(info: Info) -> Edition:
        loads.append(info.year)
        ed = edition(BODIES[info.year], date=DATES[info.year])
        object.__setattr__(ed, "sha256", info.sha256)
        return ed

    infos = [Info(y) for y in ("2030", "2031", "2032")]
    first = build_lineage(infos, load)
    assert loads
    loads.clear()
    cache.forget_memo()
    again = build_lineage(infos, load)
    assert loads == []  # whole lineage from the cache
    assert kinds(rule_history(again, "100.2b")) == kinds(rule_history(first, "100.2b"))
    # Another set of editions (a new whole-lineage key) reuses the cached steps.
    cache.forget_memo()
    loads.clear()
    build_lineage(infos[:2], load)
    assert loads == []


# --- the commands on a synthetic corpus --------------------------------------------------------
@pytest.fixture()
def corpus_dir(tmp_path: Path, monkeypatch) -> Path:
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(tmp_path / "cache"))
    folder = tmp_path / "corpus"
    folder.mkdir()
    for year in ("2030", "2031", "2032"):
        text = edition(BODIES[year], date=DATES[year]).to_text()
        (folder / f"{year}-05-01.txt").write_text(text, encoding="utf-8")
    return folder


def test_history_command(corpus_dir: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(main, ["--corpus", str(corpus_dir), "history", "100.2b"])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.output.splitlines() if line[:4].isdigit()]
    assert lines[0].startswith("2032-05-01  edited")
    assert "100.2a → 100.2b" in lines[1]
    as_json = runner.invoke(
        main, ["--corpus", str(corpus_dir), "history", "100.2b", "--format", "json"]
    )
    doc = json.loads(as_json.output)
    assert [e["kind"] for e in doc["events"]] == ["edited", "renumbered", "added"]
    assert doc["events"][0]["text"].endswith("at the end of the turn.")
    older = runner.invoke(
        main, ["--corpus", str(corpus_dir), "history", "201.2", "--edition", "2030-05-01"]
    )
    assert "removed" in older.output


def test_history_command_unknown_rule(corpus_dir: Path) -> None:
    result = CliRunner().invoke(main, ["--corpus", str(corpus_dir), "history", "100.9z"])
    assert result.exit_code == 2
    assert "rulediff: error:" in result.output and "100.9z" in result.output


def test_at_command(corpus_dir: Path) -> None:
    runner = CliRunner()
    then = runner.invoke(main, ["--corpus", str(corpus_dir), "at", "100.2a", "2030-12-31"])
    assert then.exit_code == 0, then.output
    assert "edition of 2030-05-01" in then.output
    assert "loses the game at once" in then.output
    follow = runner.invoke(
        main, ["--corpus", str(corpus_dir), "at", "100.2b", "2030-12-31", "--follow"]
    )
    assert "100.2a as of 2030-12-31" in follow.output
    assert "loses the game at once" in follow.output
    born_later = runner.invoke(
        main, ["--corpus", str(corpus_dir), "at", "100.2a", "2030-12-31", "--follow"]
    )
    assert born_later.exit_code == 2 and "did not exist" in born_later.output
    bad = runner.invoke(main, ["--corpus", str(corpus_dir), "at", "100.2a", "soon"])
    assert bad.exit_code == 2 and "not a date" in bad.output


# --- the real corpus ---------------------------------------------------------------------------
def test_corpus_history_of_the_morph_rules() -> None:
    folder = os.environ.get("RULEDIFF_CORPUS")
    if not folder:
        pytest.fail("RULEDIFF_CORPUS must point at the CR corpus (../shared/corpus/mtg-cr)")
    dates = ["2014-09-25", "2015-01-23", "2015-03-27", "2015-07-17"]
    eds = [parse_file(Path(folder) / f"{d}.txt") for d in dates]
    lin = build_lineage(eds, lambda e: e, use_cache=False)
    h = rule_history(lin, "702.36f")
    assert ("2015-03-27", "renumbered-edited", ("702.36e",), ("702.36f",)) in kinds(h)
    assert kinds(rule_history(lin, "702.36b"))[-1] == ("2015-03-27", "added", (), ("702.36b",))
    assert trace_to(lin, "702.36f", 3, 0) == "702.36e"


def test_steps_computed_in_parallel_equal_serial_ones(corpus_dir: Path) -> None:
    from rulediff.corpus import Corpus

    corpus = Corpus.open(corpus_dir)
    infos = corpus.editions()
    parallel = build_lineage(infos, corpus.load, workers=2)
    serial = build_lineage(infos, corpus.load, use_cache=False)
    assert parallel.steps == serial.steps and len(serial.steps) == 2


def test_history_passes_through_a_split_and_shows_moved_sentences() -> None:
    """A rule cut in two: each piece's history goes back to the one old rule, and a
    sentence moved into another rule is listed on the events of both rules."""
    rule = "100.3. The player with the tallest widget chooses who takes the first turn."
    extra = "A widget taller than the table is measured from the floor instead of the table top."
    short = "Ties are broken by a coin toss."
    spin = "the active player moves his or her widget up to three spaces."
    v1 = BASE.replace(rule, f"{rule} {extra} {short}")
    v2 = BASE.replace(rule, f"{rule}\n\n100.4. {extra}").replace(spin, f"{spin} {short}")
    eds = [edition(v1, date="May 1, 2030"), edition(v2, date="May 1, 2031")]
    lin = build_lineage(eds, lambda e: e, use_cache=False)
    for piece in ("100.3", "100.4"):
        h = rule_history(lin, piece)
        assert h.events[0].kind == "split" and h.events[0].old_ids == ("100.3",), h.events
    split = rule_history(lin, "100.3").events[0]
    assert [(o, n) for o, n, _t in split.moved_text] == [("100.3", "200.3")]
    doc = json.loads(json.dumps(history_as_dict(rule_history(lin, "200.3"))))
    assert doc["events"][0]["moved_text"] == [{"old_id": "100.3", "new_id": "200.3", "text": short}]


def test_pair_runs_cover_every_consecutive_pair_once_in_contiguous_runs() -> None:
    """Workers get runs of neighbouring pairs, so each edition is parsed once per run."""
    from rulediff.history import pair_runs

    for n, parts in ((0, 2), (1, 2), (2, 2), (9, 2), (126, 2), (126, 1), (5, 8)):
        items = list(range(n))
        runs = pair_runs(items, parts)
        pairs = [pair for run in runs for pair in run]
        assert pairs == list(zip(items, items[1:], strict=False))
        for run in runs:
            assert run and all(a[1] == b[0] for a, b in zip(run, run[1:], strict=False))
        if n > 1:
            assert len(runs) <= max(1, parts * 4)
            assert max(map(len, runs)) - min(map(len, runs)) <= max(map(len, runs)) // 2 + 1


def _examples_by_scan(step, new_id, old_id):  # type: ignore[no-untyped-def]
    """What ``Step.examples_of`` answers, read off every example change in turn."""
    out = []
    for change in step.examples:
        owner_new = change.new_ids[0].split("#")[0] if change.new_ids else None
        owner_old = change.old_ids[0].split("#")[0] if change.old_ids else None
        if (new_id is not None and owner_new == new_id) or (
            owner_new is None and old_id is not None and owner_old == old_id
        ):
            out.append(change)
    return tuple(out)


_RULES = st.sampled_from(["100.1", "100.1a", "100.2", "702.36", "702.36e"])
_EXAMPLE_IDS = st.lists(st.builds("{}#ex{}".format, _RULES, st.integers(1, 3)), max_size=2)


@given(
    st.lists(st.tuples(_EXAMPLE_IDS, _EXAMPLE_IDS), max_size=12),
    st.one_of(st.none(), _RULES),
    st.one_of(st.none(), _RULES),
)
def test_examples_of_a_rule_are_those_a_scan_of_the_step_finds(
    changes: list, new_id: str | None, old_id: str | None
) -> None:
    """The owner index (round 17, speed) gives the scan's answer, in the step's order."""
    from rulediff.history import Step, StepChange
    from rulediff.matches import EditionRef

    ref = EditionRef("2020-01-24", "", "")
    step = Step(
        ref, ref, (), tuple(StepChange("edited", tuple(o), tuple(n), 90.0) for o, n in changes)
    )
    assert step.examples_of(new_id, old_id) == _examples_by_scan(step, new_id, old_id)
    assert step.examples_of(new_id, old_id) == _examples_by_scan(step, new_id, old_id)


def test_examples_of_every_rule_of_a_real_step_match_the_scan() -> None:
    from rulediff.align import align
    from rulediff.history import step_from

    from .conftest import corpus_edition

    step = step_from(align(corpus_edition("2009-05-01"), corpus_edition("2009-07-11")))
    asked = 0
    for change in step.changes:
        for new_id in (*change.new_ids, None):
            for old_id in (*change.old_ids, None):
                expected = _examples_by_scan(step, new_id, old_id)
                assert step.examples_of(new_id, old_id) == expected
                asked += bool(expected)
    assert asked > 10


def _without_hopping(body: str) -> str:
    return body[: body.index("300.2. Hopping")]


def printed_twice_editions() -> list[Edition]:
    """2030 has one keyword 300.2; 2031 adds a second under the same number (as
    2024-09-20 did); 2032 numbers it 300.3."""
    from .test_align import KEYWORDS

    hopping_apart = KEYWORDS.replace("300.2. Hopping", "300.3. Hopping")
    for letter in "abc":
        hopping_apart = hopping_apart.replace(f"300.2{letter} Hop", f"300.3{letter} Hop")
        hopping_apart = hopping_apart.replace(
            f"300.2{letter} A widget that hops", f"300.3{letter} A widget that hops"
        )
    bodies = [BASE + _without_hopping(KEYWORDS), BASE + KEYWORDS, BASE + hopping_apart]
    return [edition(b, date=d) for b, d in zip(bodies, DATES.values(), strict=True)]


def test_history_tells_apart_the_two_rules_of_a_number_printed_twice() -> None:
    # The first keyword's history does not take the second's birth for its own, and the
    # second's runs back through its renumbering to its birth.
    eds = printed_twice_editions()
    lin = build_lineage(eds, lambda e: e, use_cache=False)
    spinning = rule_history(lin, "300.2")
    assert spinning.events == () or spinning.origin.in_oldest
    assert ("2031-05-01", "added", (), ("300.2",)) not in kinds(spinning)
    hopping = kinds(rule_history(lin, "300.3"))
    assert hopping == [
        ("2032-05-01", "renumbered", ("300.2",), ("300.3",)),
        ("2031-05-01", "added", (), ("300.2",)),
    ]
    # From the middle edition: its second 300.2 goes on to 300.3, its first stays.
    assert kinds(rule_history(lin, "300.2", 1, printing=2))[0][1:] == (
        "renumbered",
        ("300.2",),
        ("300.3",),
    )
    assert trace_to(lin, "300.2", 1, 2) == "300.2"


def test_corpus_history_of_the_keyword_number_printed_twice() -> None:
    # 2024-09-20 prints Offspring and Impending both as 702.175; 2024-11-08 numbers
    # Impending 702.176. Offspring is older than 2024-09-20; Impending is born there.
    folder = os.environ.get("RULEDIFF_CORPUS")
    if not folder:
        pytest.fail("RULEDIFF_CORPUS must point at the CR corpus (../shared/corpus/mtg-cr)")
    dates = ["2024-07-30", "2024-09-20", "2024-11-08"]
    eds = [parse_file(Path(folder) / f"{d}.txt") for d in dates]
    assert [str(r.id) for r in eds[1].rules].count("702.175") == 2
    lin = build_lineage(eds, lambda e: e, use_cache=False)
    offspring = rule_history(lin, "702.175")
    assert all(e.kind != "added" or e.in_oldest for e in offspring.events)
    impending = kinds(rule_history(lin, "702.176"))
    assert impending == [
        ("2024-11-08", "renumbered", ("702.175",), ("702.176",)),
        ("2024-09-20", "added", (), ("702.175",)),
    ]


def test_a_walk_back_through_a_folded_container_follows_the_rule_under_it() -> None:
    """A heading (or list intro) joined with a rule numbered under it: the history of the
    new rule goes on through that rule, whose text it carries; other groups keep the
    first rule in document order."""
    from rulediff.history import _trunk

    assert _trunk([("510", 1), ("510.1", 1)]) == ("510.1", 1)
    assert _trunk([("310.2", 1), ("310.2a", 1), ("311.1", 1)]) == ("310.2a", 1)
    assert _trunk([("200.4", 1), ("216", 1)]) == ("200.4", 1)
    assert _trunk([("702.1", 2), ("702.12", 1)]) == ("702.1", 2)  # no number under another


def test_corpus_history_of_the_status_rule_goes_through_the_old_status_rule() -> None:
    folder = os.environ.get("RULEDIFF_CORPUS")
    if not folder:
        pytest.fail("RULEDIFF_CORPUS must point at the CR corpus (../shared/corpus/mtg-cr)")
    dates = ["2008-05-01", "2008-07-15", "2009-07-11"]
    eds = [parse_file(Path(folder) / f"{d}.txt") for d in dates]
    lin = build_lineage(eds, lambda e: e, use_cache=False)
    events = kinds(rule_history(lin, "110.6"))
    # the status summary under Permanents (214.5) said the categories again: it joins
    assert ("2009-07-11", "merged", ("214.5", "510", "510.1"), ("110.6",)) in events, events
    # before the merge the walk is on the status rule (the closest text), neither on the
    # Status heading nor on the summary that comes first in document order
    assert events[-2][0] == "2008-07-15" and events[-2][2] == ("510.1",), events


def test_corpus_walks_back_through_the_renumbering_follow_the_source_of_the_opening() -> None:
    """On the 2009 renumbering, rules merged from several old ones walk back through the
    one their opening comes from, not the first in document order: the spell definition
    (111.1) through the old "spells on the stack" rule, the linked-choice rule (706.7a)
    through the old rule on linked choices, not the copy rule before it."""
    folder = os.environ.get("RULEDIFF_CORPUS")
    if not folder:
        pytest.fail("RULEDIFF_CORPUS must point at the CR corpus (../shared/corpus/mtg-cr)")
    eds = [parse_file(Path(folder) / f"{d}.txt") for d in ("2009-05-01", "2009-07-11")]
    lin = build_lineage(eds, lambda e: e, use_cache=False)
    step = lin.steps[0]
    for new_id, first, trunk in (("111.1", "213.1", "401.1"), ("706.7a", "503.7", "503.8a")):
        change = step.for_new(new_id)
        assert change is not None and change.old_ids[0] == first and trunk in change.old_ids
        assert trace_to(lin, new_id, 1, 0) == trunk, change


def test_a_walk_back_through_a_merge_follows_the_closest_source() -> None:
    """Several old rules into one: the walk back goes on through the source whose text
    the new rule keeps best, whatever the document order; a heading joined with a rule
    numbered under it is never the trunk; without the texts, document order."""
    from rulediff.history import Lineage, Step, StepChange, _closest_sources
    from rulediff.matches import EditionRef

    texts = (
        {
            ("100.2", 1): "A summary of the colour rule, said again here.",
            ("300", 1): "Colour",
            ("300.1", 1): "Each object has a colour, which is one of five colours or none.",
        },
        {("110.4", 1): "Each object has a colour: one of five colours, or none at all."},
    )
    ids = ("100.2", "300", "300.1")

    def group(olds: tuple[str, ...]) -> StepChange:
        return StepChange("merged", olds, ("110.4",), 60.0)

    assert _closest_sources(group(ids), texts) == ("300.1",)
    assert _closest_sources(group(ids), None) == ()
    assert _closest_sources(group(("300.1",)), texts) == ()
    ref = EditionRef("2030-01-01", "0" * 64)
    merged = StepChange("merged", ids, ("110.4",), 60.0, trunk_old=("300.1",))
    lin = Lineage((ref, ref), (Step(ref, ref, (merged,)),))
    assert rule_history(lin, "110.4").events[0].old_ids == ids
    assert trace_to(lin, "110.4", 1, 0) == "300.1"
    unknown = StepChange("merged", ids, ("110.4",), 60.0)
    lin = Lineage((ref, ref), (Step(ref, ref, (unknown,)),))
    assert trace_to(lin, "110.4", 1, 0) == "100.2"  # document order (the heading held)


def test_history_and_lineage_follow_the_links_of_a_group() -> None:
    """A group of two old and two new rules (a split that a list's lead joined): each
    rule's history, trace and chart go only where its links say, not to every rule of
    the group."""
    from rulediff.history import Through
    from rulediff.lineage import step_edges, tree_from_history

    from .test_align import lead_follows_its_list

    old, new = lead_follows_its_list()
    lin = build_lineage(
        [edition(old, date="May 1, 2030"), edition(new, date="May 1, 2031")],
        lambda e: e,
        use_cache=False,
    )
    (change,) = [c for c in lin.steps[0].changes if c.links]
    assert change.old_ids == ("200.2", "200.3") and change.new_ids == ("200.2", "200.3")
    through = Through(lin)
    assert through("200.3", True) == {"200.2"}  # the lead went into new 200.2 only
    assert through("200.2", True) == {"200.2", "200.3"}
    assert through("200.3", False) == {"200.2"}  # new 200.3 came from old 200.2 only
    assert trace_to(lin, "200.3", 0, 1) == "200.2"
    assert trace_to(lin, "200.3", 1, 0) == "200.2"
    edges = {(a, b) for a, b, *_ in step_edges(lin.steps[0], ["200.2", "200.3"])}
    assert edges == {("200.2", "200.2"), ("200.2", "200.3"), ("200.3", "200.2")}
    tree = tree_from_history(rule_history(lin, "200.2"))
    drawn = {(link.source, link.target) for link in tree.links}
    assert ("200.3@2030-05-01", "200.3@2031-05-01") not in drawn
    assert ("200.3@2030-05-01", "200.2@2031-05-01") in drawn
    doc = json.loads(json.dumps(history_as_dict(rule_history(lin, "200.3", edition=0))))
    assert doc["events"][0]["links"] == [
        {"old_id": "200.2", "new_id": "200.2"},
        {"old_id": "200.2", "new_id": "200.3"},
        {"old_id": "200.3", "new_id": "200.2"},
    ]
    assert all(e["links"] == [] for e in doc["events"][1:])
    # The numbers a rule has had are those its history followed, not every rule of the
    # group: new 200.3 was old 200.2 (never old 200.3, nor new 200.2).
    assert rule_history(lin, "200.3").numbers() == ("200.3", "200.2")
    assert rule_history(lin, "200.3", edition=0).numbers() == ("200.2", "200.3")
