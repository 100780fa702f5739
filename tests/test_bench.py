"""The benchmarks' own set-up: a cold run must start with every in-process memo empty."""

from __future__ import annotations

import importlib.util
from pathlib import Path
from types import SimpleNamespace

from rulediff import align, clauses, pairing, provenance

from .conftest import corpus_edition

BENCH = Path(__file__).resolve().parent.parent / "bench"


def _load(name: str):
    spec = importlib.util.spec_from_file_location(f"bench_{name}", BENCH / f"{name}.py")
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def test_forget_process_memos_empties_the_memos_and_skips_classes():
    """A module that imports a memo class (``LastUsed``) exposes the class's unbound
    ``cache_clear``; emptying must skip it and still empty the real memos."""
    bench_diff = _load("diff")
    provenance.unit_keys("A rule text of several words. Another sentence here too.")
    assert provenance.unit_keys.cache_info().currsize > 0
    align._glossary_nodes_of(SimpleNamespace(glossary=()))
    clauses._stored_targets["A text read from a stored table."] = ()
    clauses._stored_editions.add("an edition")
    bench_diff.forget_process_memos()
    assert provenance.unit_keys.cache_info().currsize == 0
    assert not align._glossary_nodes_of._entries
    assert not clauses._stored_targets and not clauses._stored_editions


def test_align_passes_finds_the_passes_and_puts_them_back():
    """The per-pass benchmark times what ``align`` calls (its passes, read from its
    source), each outermost call once, and leaves the modules as they were."""
    bench_passes = _load("align_passes")
    passes = bench_passes.called_in_align()
    names = {name for _module, name in passes}
    assert {"rescue", "_match_rules", "_Provenance", "_classify", "_rule_nodes_of"} <= names
    assert "align" not in names and "sorted" not in names
    before = {name: vars(module)[name] for module, name in passes}
    spent, restore = bench_passes.timing(passes)
    assert align._match_rules is not before["_match_rules"]
    pairing._words("a few words")  # not a pass: untimed
    align._match_by_children(align._Pairing([], []))  # a pass on an empty pairing
    restore()
    assert {name: vars(module)[name] for module, name in passes} == before
    # the pairing's construction is timed too (a class ``align`` calls), the inner call not
    assert set(spent) == {"_Pairing", "_match_by_children"}
    assert all(seconds >= 0.0 for seconds in spent.values())


def test_alignment_dump_lists_each_changed_link_and_draws_far_pairs_reproducibly(corpus_dir):
    """``compare`` reports every rule whose counterparts or kind changed, pair by pair;
    ``dump`` writes every rule of both editions, and ``--far`` draws the same pairs for
    the same seed, each at least ``FAR_DAYS`` apart."""
    import argparse
    import datetime as dt

    dump = _load("alignment_dump")
    before = {
        "2001-01-01 2002-01-01": {
            "old:100.1": ["unchanged", ["100.1"], "anchor"],
            "old:100.2": ["removed", [], "none"],
        },
        "2003-01-01 2004-01-01": {"old:200.1": ["unchanged", ["200.1"], "anchor"]},
    }
    after = {
        "2001-01-01 2002-01-01": {
            "old:100.1": ["unchanged", ["100.1"], "anchor"],
            "old:100.2": ["renumbered", ["100.3"], "fuzzy"],
            "new:100.3": ["renumbered", ["100.2"], "fuzzy"],
        },
        "2003-01-01 2004-01-01": {"old:200.1": ["unchanged", ["200.1"], "anchor"]},
    }
    changed = dump.changed_links(before, after)
    assert changed["2003-01-01 2004-01-01"] == []
    assert changed["2001-01-01 2002-01-01"] == [
        ("new:100.3", None, ["renumbered", ["100.2"], "fuzzy"]),
        ("old:100.2", ["removed", [], "none"], ["renumbered", ["100.3"], "fuzzy"]),
    ]
    dates = sorted(p.stem for p in corpus_dir.glob("*.txt"))
    args = argparse.Namespace(neighbours=False, far=5, seed=3, pairs=None, pair=[])
    drawn = dump.chosen_pairs(args, dates)
    assert drawn == dump.chosen_pairs(args, dates) and len(drawn) == 5
    for a, b in drawn:
        assert (dt.date.fromisoformat(b) - dt.date.fromisoformat(a)).days >= dump.FAR_DAYS
    args.far, args.neighbours = 0, True
    assert dump.chosen_pairs(args, dates)[:2] == [(dates[0], dates[1]), (dates[1], dates[2])]
    links = dump.links_of(str(corpus_dir), "2021-06-18", "2021-07-23")
    old, new = corpus_edition("2021-06-18"), corpus_edition("2021-07-23")
    assert {k for k in links if k.startswith("old:")} == {f"old:{r.id}" for r in old.body}
    assert {k for k in links if k.startswith("new:")} == {f"new:{r.id}" for r in new.body}
    assert links["old:702.1"][1] == ["702.1"]


def test_alignment_eval_prints_each_pairs_figures(capsys, monkeypatch):
    """The blind-set report scores a pair as the test does (the neighbour pair is held
    to 100 %) and refuses a pair it has no file for."""
    import pytest

    report = _load("alignment_eval")
    monkeypatch.setattr("sys.argv", ["alignment_eval.py", "--pair", "2021-06-18_2021-07-23"])
    report.main()
    out = capsys.readouterr().out
    assert out.startswith("2021-06-18_2021-07-23: precision 100.0%, recall 100.0%"), out
    monkeypatch.setattr("sys.argv", ["alignment_eval.py", "--pair", "2001-01-01_2002-01-01"])
    with pytest.raises(SystemExit) as exc:
        report.main()
    assert exc.value.code == 2


def test_alignment_eval_marks_misses_left_undecided(capsys, monkeypatch):
    """A sampled rule the aligner leaves removed while naming the hand answer among its
    undecided candidates is reported as such (an abstention), and still counted missed:
    on 2004-10-01 -> 2026-06-19 the old loop rule on independent optional actions of
    each player (421.5) is left between three new loop rules, one of them the hand's."""
    import re

    report = _load("alignment_eval")
    monkeypatch.setattr("sys.argv", ["alignment_eval.py", "--pair", "2004-10-01_2026-06-19"])
    report.main()
    out = capsys.readouterr().out
    first, *lines = out.splitlines()
    counted = re.search(r"; (\d+) of (\d+) missed left undecided", first)
    assert counted, first
    undecided, missed = map(int, counted.groups())
    listed = [line for line in lines if re.match(r"  missed .*: aligner - \(undecided: ", line)]
    assert 1 <= undecided == len(listed) <= missed, out
    assert any(
        line.startswith("  missed old 421.5: aligner - (undecided: ") and "732.3" in line
        for line in listed
    ), out


def test_undecided_candidates_need_the_hand_answer_among_them():
    """Only an undecided removed or added rule whose candidates hold the hand answer is an
    abstention; a paired rule, or candidates all other than the answer, are not."""
    from rulediff.matches import Alignment, Match

    report = _load("alignment_eval")
    a = Alignment(
        old=None,
        new=None,
        rules=(
            Match(
                "rule", "removed", ("1.1",), (), 0.0, ambiguous=True, alternatives=("2.1", "2.2")
            ),
            Match(
                "rule",
                "renumbered",
                ("1.2",),
                ("2.3",),
                100.0,
                ambiguous=True,
                alternatives=("2.4",),
            ),
        ),
        examples=(),
        glossary=(),
    )
    assert report.undecided_candidates(a, "old", "1.1", ["2.2"]) == ["2.1", "2.2"]
    assert report.undecided_candidates(a, "old", "1.1", ["2.5"]) == []
    assert report.undecided_candidates(a, "old", "1.2", ["2.4"]) == []


def test_alignment_eval_scores_the_diff_through_the_lineage(capsys, monkeypatch):
    """``--through`` scores the lineage-following alignment and says so (on a neighbouring
    pair the lineage is the pair's own step: the same figures)."""
    report = _load("alignment_eval")
    argv = ["alignment_eval.py", "--pair", "2021-06-18_2021-07-23", "--quiet", "--through"]
    monkeypatch.setattr("sys.argv", argv)
    report.main()
    out = capsys.readouterr().out
    assert out.startswith("2021-06-18_2021-07-23 (--through): precision 100.0%, recall 100.0%")
