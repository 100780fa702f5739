"""The edit script: word diffs, list changes, retargets, significance, JSON, the command.

Synthetic editions come from tests/test_align.py's builder (widget game, not CR text);
real editions from $RULEDIFF_CORPUS.
"""

from __future__ import annotations

import functools
import json
import os
from importlib import resources
from pathlib import Path

import jsonschema
import pytest
from click.testing import CliRunner

from rulediff.cli import main
from rulediff.diff import (
    as_dict,
    diff,
    enumerated_lists,
    list_changes,
    printed_labels,
    retargets,
    word_diff,
)
from rulediff.render.difftext import to_markdown, to_text

from .conftest import corpus_edition
from .helpers import insert_100_2a
from .test_align import BASE, edition


def schema() -> dict:
    text = (resources.files("rulediff") / "schemas" / "diff.schema.json").read_text("utf-8")
    return json.loads(text)


def rebuild(words, side: str) -> str:
    skip = "insert" if side == "old" else "delete"
    return "".join(w.text for w in words if w.op != skip)


# --- word diffs --------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("old", "new"),
    [
        ("A widget spins once.", "A widget spins twice each turn."),
        ("one two three four five six", "one 2 three 4 five 6"),
        ("", "Brand new text."),
        ("Old text going away.", ""),
        ("Same text.", "Same text."),
        ("Line one.\nLine two.", "Line one.\nLine 2, changed."),
        ("“Curly” quotes — and dashes.", '"Straight" quotes - and dashes.'),
    ],
)
def test_word_diff_rebuilds_both_texts(old: str, new: str) -> None:
    words = word_diff(old, new)
    assert rebuild(words, "old") == old
    assert rebuild(words, "new") == new
    # Runs are merged: no two neighbours share an op, and no empty runs.
    assert all(w.text for w in words)
    assert all(a.op != b.op for a, b in zip(words, words[1:], strict=False))


def test_word_diff_folds_short_unchanged_islands() -> None:
    words = word_diff("one two three four five six", "one 2 three 4 five 6")
    # "three" and "five" alone between changes are folded into a single replacement.
    assert [w.op for w in words] == ["equal", "delete", "insert"]
    assert words[1].text == "two three four five six"
    # A long unchanged stretch stays unchanged.
    long = word_diff("alpha beta gamma delta epsilon zeta", "ALPHA beta gamma delta epsilon ZETA")
    assert [w.op for w in long] == ["delete", "insert", "equal", "delete", "insert"]


def test_word_diff_keeps_shared_spaces_outside_changes() -> None:
    words = word_diff("It doesn't have morph.", "It doesn't have a morph ability.")
    assert [(w.op, w.text) for w in words] == [
        ("equal", "It doesn't have "),
        ("delete", "morph"),
        ("insert", "a morph ability"),
        ("equal", "."),
    ]


# --- enumerated lists ----------------------------------------------------------------------------
def test_enumerated_lists_sentences_and_follows_lines() -> None:
    text = (
        "Gizmos have subtypes. The gizmo types are Cog, Lever (see rule 101.1), Spring, "
        "and Wheel. If a gizmo has two types, it is wobbly."
    )
    assert enumerated_lists(text) == [("The gizmo types are", ("Cog", "Lever", "Spring", "Wheel"))]
    assert enumerated_lists("The steps are as follows:\nSpin\nMove\nRest") == [
        ("The steps are as follows:", ("Spin", "Move", "Rest"))
    ]
    # Not a list: long clauses joined by commas.
    assert (
        enumerated_lists(
            "If a widget spins, the player moves it up to three spaces, and then that player "
            "rests for one entire turn before spinning again."
        )
        == []
    )


def test_list_changes_name_the_items() -> None:
    old = "The gizmo types are Cog, Lever, and Wheel."
    new = "The gizmo types are Cog, Lever, Spring, Sprocket, and Wheel."
    (change,) = list_changes(old, new)
    assert change.lead == "The gizmo types are"
    assert change.added == ("Spring", "Sprocket") and change.removed == ()
    (gone,) = list_changes(new, old)
    assert gone.removed == ("Spring", "Sprocket")


def test_retargets_follow_the_renumbering_or_not() -> None:
    mapping = {"100.2a": "100.2b"}
    found = retargets("See rule 100.2a and rule 200.1.", "See rule 100.2b and rule 200.3.", mapping)
    assert [(r.old, r.new, r.follows_renumbering) for r in found] == [
        ("100.2a", "100.2b", True),
        ("200.1", "200.3", False),
    ]


# --- the edit script on synthetic editions -------------------------------------------------
def _changed(d, **where):
    return [c for c in d.changes if all(getattr(c, k) == v for k, v in where.items())]


def test_diff_kinds_significance_and_lists() -> None:
    new = (
        insert_100_2a(BASE)
        .replace("his or her", "their")  # a sweep: editorial
        .replace("see rule 100.2a for running out", "see rule 100.2b for running out")
        .replace(
            "200.1. A turn has three steps: the spin step, the move step, and the rest step.",
            "200.1. A turn has four steps: the spin step, the move step, the trade step, "
            "and the rest step.",
        )
    )
    d = diff(edition(BASE), edition(new))
    (added,) = _changed(d, kind="added", domain="rule")
    assert added.new_ids == ("100.2a",) and added.significance == "substantive"
    (shifted,) = _changed(d, old_ids=("100.2c",))
    assert shifted.new_ids == ("100.2d",) and shifted.kind == "renumbered"
    assert shifted.significance == "references"
    assert [(r.old, r.new, r.follows_renumbering) for r in shifted.retargets] == [
        ("100.2a", "100.2b", True)
    ]
    (steps,) = _changed(d, old_ids=("200.1",))
    assert steps.kind == "edited" and steps.significance == "substantive"
    assert steps.list_added == ("the trade step",) and steps.list_removed == ()
    swept = _changed(d, old_ids=("200.2",))[0]
    assert swept.kind == "editorial" and swept.significance == "editorial"
    assert ("his or her", "their") in swept.sweeps
    summary = d.summary()
    assert summary["rules"]["added"] == 1 and summary["rules"]["editorial"] == 3
    assert {"old": "his or her", "new": "their", "count": 3} in summary["sweeps"]


def test_unchanged_rules_are_shown_only_with_all() -> None:
    new = BASE.replace("tallest widget", "shortest widget")
    d = diff(edition(BASE), edition(new))
    assert [c.old_ids for c in d.shown()] == [("100.3",)]
    assert len(d.shown(include_unchanged=True)) == len(d.changes) > 10
    doc = as_dict(d)
    assert [c["kind"] for c in doc["changes"]] == ["edited"]
    assert len(as_dict(d, include_unchanged=True)["changes"]) == len(d.changes)


def test_example_changes_ride_on_their_rule() -> None:
    old = BASE.replace(
        "100.3. The player with the tallest widget chooses who takes the first turn.",
        "100.3. The player with the tallest widget chooses who takes the first turn.\n\n"
        "Example: Ann's widget is ten inches tall and Bob's is nine; Ann chooses.",
    )
    new = old.replace("Bob's is nine", "Bob's is eight")
    d = diff(edition(old), edition(new))
    (change,) = d.shown()
    assert change.kind == "unchanged" and change.new_ids == ("100.3",)
    (example,) = change.examples
    assert example.kind == "edited" and example.new_id == "100.3#ex1"
    assert rebuild(example.words, "new").endswith("eight; Ann chooses.")
    assert change.significance == "substantive"


def test_contents_changes() -> None:
    new = BASE.replace("201. Resting", "201. Resting and Trading")
    d = diff(edition(BASE), edition(new))
    assert [(c.kind, c.old_id, c.new_title) for c in d.contents] == [
        ("edited", "201", "201. Resting and Trading".split(". ", 1)[1])
    ]


def test_json_document_follows_the_schema_and_is_deterministic() -> None:
    new = BASE.replace("his or her", "their").replace("tallest", "shortest")
    a = json.dumps(as_dict(diff(edition(BASE), edition(new)), include_unchanged=True))
    b = json.dumps(as_dict(diff(edition(BASE), edition(new)), include_unchanged=True))
    assert a == b
    jsonschema.validate(json.loads(a), schema())


def test_text_and_markdown_renderings() -> None:
    new = BASE.replace("three spaces", "four spaces")
    d = diff(edition(BASE), edition(new))
    text = to_text(d)
    assert "200.3" in text and "[-three-]{+four+}" in text
    md = to_markdown(d)
    assert "~~three~~**four**" in md and md.startswith("# ")


# --- real editions ---------------------------------------------------------------------------


@functools.cache
def seed_diff():
    return diff(corpus_edition("2015-01-23"), corpus_edition("2015-03-27"))


def test_seed_pair_lists_and_references() -> None:
    d = seed_diff()
    (pw,) = _changed(d, old_ids=("205.3j",))
    assert pw.list_added == (
        "Daretti",
        "Freyalise",
        "Nahiri",
        "Narset",
        "Nixilis",
        "Teferi",
        "Ugin",
    )
    assert pw.list_removed == ()
    (aw,) = _changed(d, old_ids=("207.2c",))
    assert aw.list_added == ("formidable",)
    (manifest,) = _changed(d, old_ids=("701.31c",))
    assert manifest.kind == "references-only" and manifest.significance == "references"
    assert [(r.old, r.new, r.follows_renumbering) for r in manifest.retargets] == [
        ("702.36d", "702.36e", True)
    ]
    (megamorph,) = _changed(d, new_ids=("702.36b",), domain="rule")
    assert megamorph.kind == "added"
    for old, new in (("702.36b", "702.36c"), ("702.36c", "702.36d")):
        (c,) = _changed(d, old_ids=(old,))
        assert c.new_ids == (new,) and c.kind == "renumbered-edited"
        assert rebuild(c.words, "old") == corpus_edition("2015-01-23").rule(old).text
        assert rebuild(c.words, "new") == corpus_edition("2015-03-27").rule(new).text
    jsonschema.validate(as_dict(d, include_unchanged=True), schema())


def test_seed_pair_words_read_as_phrases() -> None:
    (c,) = _changed(seed_diff(), old_ids=("702.36c",))
    assert [(w.op, w.text) for w in c.words if w.op != "equal"] == [
        ("delete", "morph"),
        ("insert", "a morph ability"),
    ]


# --- the command -----------------------------------------------------------------------------
def _write(tmp_path: Path, name: str, body: str) -> Path:
    path = tmp_path / name
    path.write_text(edition(body).to_text(), encoding="utf-8")
    return path


def test_diff_command_formats(tmp_path: Path) -> None:
    old = _write(tmp_path, "old.txt", BASE)
    new = _write(tmp_path, "new.txt", BASE.replace("three spaces", "four spaces"))
    runner = CliRunner()
    text = runner.invoke(main, ["diff", str(old), str(new)])
    assert text.exit_code == 0, text.output
    assert "{+four+}" in text.output
    js = runner.invoke(main, ["diff", str(old), str(new), "--format", "json"])
    doc = json.loads(js.output)
    jsonschema.validate(doc, schema())
    assert [c["old_ids"] for c in doc["changes"]] == [["200.3"]]
    assert doc["old"] == doc["new"] == "2030-05-01"
    out = tmp_path / "out.md"
    md = runner.invoke(
        main, ["diff", str(old), str(new), "--format", "md", "-o", str(out), "--all"]
    )
    assert md.exit_code == 0 and out.read_text(encoding="utf-8").startswith("# ")
    again = runner.invoke(main, ["diff", str(old), str(new), "--format", "json"])
    assert again.output == js.output  # deterministic


def test_diff_command_bad_input_is_one_line(tmp_path: Path) -> None:
    old = _write(tmp_path, "old.txt", BASE)
    missing = tmp_path / "nope.txt"
    result = CliRunner().invoke(main, ["diff", str(old), str(missing)])
    assert result.exit_code == 2
    assert "rulediff: error:" in result.output and "nope.txt" in result.output
    assert "Traceback" not in result.output
    out = tmp_path / "never.json"
    CliRunner().invoke(main, ["diff", str(old), str(missing), "-o", str(out)])
    assert not out.exists()


# --- stale references -------------------------------------------------------------------------
def test_stale_references_are_left_behind_numbers() -> None:
    from rulediff.align import align
    from rulediff.diff import stale_references

    inserted = insert_100_2a(BASE)
    # 100.2d (old 100.2c) kept "see rule 100.2a" although that rule is 100.2b now.
    old, new = edition(BASE), edition(inserted)
    (finding,) = stale_references(old, new, align(old, new))
    assert (finding.code, finding.rule, finding.target, finding.suggestion) == (
        "stale-reference",
        "100.2d",
        "100.2a",
        "100.2b",
    )
    assert finding.severity == "warning" and finding.line == new.rule("100.2d").line
    # Updated references are not stale; nor is new text citing the number's new occupant.
    fixed = edition(
        inserted.replace("see rule 100.2a for running out", "see rule 100.2b for running out")
        + "\n"
    )
    assert stale_references(old, fixed, align(old, fixed)) == []
    cites_new = edition(
        inserted.replace(
            "see rule 100.2a for running out", "see rule 100.2b for running out"
        ).replace(
            "100.3. The player",
            "100.4. Borrowing is described in rule 100.2a.\n\n100.3. The player",
        )
    )
    assert stale_references(old, cites_new, align(old, cites_new)) == []


def test_stale_references_in_the_corpus() -> None:
    """2021-07-23 inserted rule 706: rule 901.3 kept citing 310 ("Phenomena", now 311)."""
    from rulediff.align import align
    from rulediff.diff import stale_references

    old, new = corpus_edition("2021-06-18"), corpus_edition("2021-07-23")
    found = {(d.rule, d.target, d.suggestion) for d in stale_references(old, new, align(old, new))}
    assert ("901.3", "310", "311") in found


@pytest.mark.parametrize(
    ("old_name", "new_name", "seeds"),
    [
        ("2015-01-23", "2015-03-27", ("1", "2")),
        ("2009-05-01", "2009-07-11", ("1", "2")),
        # A far pair where two stock sentences tied for a link: which one won followed
        # the order the sentence's word pairs (a set) came in, seed 0 against seed 1.
        ("2009-10-01", "2026-06-19", ("0", "1")),
    ],
    ids=["neighbours", "m2010-renumbering", "far-pair-tied-links"],
)
def test_output_is_byte_identical_whatever_the_hash_seed(
    tmp_path: Path, old_name: str, new_name: str, seeds: tuple[str, str]
) -> None:
    """Sets of strings iterate in a per-process order: the output must not depend on it.
    The renumbering pair runs every late alignment pass (rescue, recovery, merges), whose
    votes are summed over sets."""
    import subprocess
    import sys

    folder = Path(os.environ.get("RULEDIFF_CORPUS", ""))
    if not folder.is_dir():
        pytest.fail("RULEDIFF_CORPUS must point at the CR corpus (../shared/corpus/mtg-cr)")
    outputs = []
    for seed in seeds:
        env = dict(os.environ, PYTHONHASHSEED=seed, RULEDIFF_CACHE_DIR=str(tmp_path / seed))
        done = subprocess.run(
            [
                sys.executable,
                "-m",
                "rulediff",
                "--no-cache",
                "diff",
                "--format",
                "json",
                "--all",
                str(folder / f"{old_name}.txt"),
                str(folder / f"{new_name}.txt"),
            ],
            capture_output=True,
            env=env,
            check=True,
        )
        outputs.append(done.stdout)
    assert outputs[0] == outputs[1] and len(outputs[0]) > 10_000


def test_audit_since_reports_stale_references(tmp_path: Path) -> None:
    shifted = insert_100_2a(BASE)
    old = _write(tmp_path, "old.txt", BASE)
    new = _write(tmp_path, "new.txt", shifted)
    runner = CliRunner()
    result = runner.invoke(main, ["audit", str(new), "--since", str(old), "--format", "json"])
    assert result.exit_code == 0, result.output
    stale = [f for f in json.loads(result.output)["findings"] if f["code"] == "stale-reference"]
    assert [(f["rule"], f["target"], f["suggestion"]) for f in stale] == [
        ("100.2d", "100.2a", "100.2b")
    ]
    plain = runner.invoke(main, ["audit", str(new), "--format", "json"])
    assert "stale-reference" not in plain.output
    both = runner.invoke(main, ["audit", "--all", "--since", str(old)])
    assert both.exit_code == 2


def test_moved_text_in_json_follows_the_schema() -> None:
    """A sentence moved from one rule to another is listed on both changes (issue 9)."""
    rule = "100.3. The player with the tallest widget chooses who takes the first turn."
    short = "Ties are broken by a coin toss."
    spin = "the active player moves his or her widget up to three spaces."
    doc = as_dict(
        diff(
            edition(BASE.replace(rule, f"{rule} {short}")),
            edition(BASE.replace(spin, f"{spin} {short}")),
        )
    )
    jsonschema.validate(doc, schema())
    by_id = {tuple(c["old_ids"]): c for c in doc["changes"]}
    expected = [{"old_id": "100.3", "new_id": "200.3", "text": short}]
    assert by_id[("100.3",)]["moved_text"] == expected
    assert by_id[("200.3",)]["moved_text"] == expected
    assert by_id[("100.3",)]["significance"] == "substantive"


def test_corpus_diff_with_moved_text_follows_the_schema() -> None:
    """Across the 2009 renumbering some changes carry moved sentences; all validate."""
    d = diff(corpus_edition("2009-05-01"), corpus_edition("2009-07-11"))
    doc = as_dict(d)
    jsonschema.validate(doc, schema())
    assert sum(1 for c in doc["changes"] if c["moved_text"]) >= 10
    assert any(c["method"] == "sentence" for c in doc["changes"])


def test_rule_numbers_are_whole_tokens_in_word_diffs() -> None:
    words = word_diff("See rule 702.36d.", "See rule 702.36e.")
    assert [(w.op, w.text) for w in words if w.op != "equal"] == [
        ("delete", "702.36d"),
        ("insert", "702.36e"),
    ]


def test_list_items_are_diffed_one_by_one() -> None:
    old = "The widget kinds are Alder, Birch, Cedar, and Elm."
    new = "The widget kinds are Alder, Ash, Birch, Cedar, Dogwood, and Elm."
    folded = word_diff(old, new)  # prose: short unchanged islands fold into the change
    assert any(w.op == "delete" and "Birch" in w.text for w in folded)
    line = "During the move step, the active player moves his or her widget up to three spaces."
    d = diff(edition(BASE.replace(line, old)), edition(BASE.replace(line, new)))
    changed = [c for c in d.changes if c.kind != "unchanged"]
    assert changed and changed[0].lists
    ops = [(w.op, w.text.strip(" ,")) for w in changed[0].words if w.op != "equal"]
    assert ops == [("insert", "Ash"), ("insert", "Dogwood")]


def test_text_lookups_kept_for_the_next_pair_give_the_diff_computed_afresh() -> None:
    """The diff of a run of pairs builds each edition's text lookups once (round 17,
    speed); the second pair of an edition gets the diff nothing kept gives."""
    from rulediff import diff as diff_module
    from rulediff.align import align

    from .conftest import corpus_edition

    a, b, c = (corpus_edition(d) for d in ("2021-06-18", "2021-07-23", "2021-09-24"))
    diff_module._texts_of.cache_clear()
    diff_module.diff(a, b, align(a, b))
    kept = diff_module._texts_of(b)
    assert diff_module._texts_of(b) is kept
    second = align(b, c)
    warm = diff_module.diff(b, c, second)
    diff_module._texts_of.cache_clear()
    assert warm == diff_module.diff(b, c, second)
    assert kept.rules == diff_module._Texts(b).rules
    assert kept.examples == diff_module._Texts(b).examples
    assert kept.glossary == diff_module._Texts(b).glossary


def _old_words(change) -> str:
    return "".join(w.text for w in change.words if w.op != "insert")


def _new_words(change) -> str:
    return "".join(w.text for w in change.words if w.op != "delete")


def test_a_number_printed_twice_shows_each_rule_its_own_text() -> None:
    # An edition that prints one number twice (as 2024-09-20 did with 702.175): the
    # second heading and its rule are renumbered in the next edition. Each change must
    # show the text of the occurrence it is about, not the first rule under that number.
    spinning = "\n202. Spinning\n\n202.1. A spun widget keeps turning until a player stops it.\n"
    old = edition(BASE + spinning.replace("202", "201"))
    new = edition(BASE + spinning)
    d = diff(old, new)
    for change in _changed(d, domain="rule"):
        if change.old_ids == ("201.1",) and change.new_ids:
            assert _old_words(change) == _new_words(change)
        if change.old_ids == ("201",) and change.new_ids:
            assert _old_words(change) == _new_words(change)
    (moved,) = _changed(d, new_ids=("202.1",))
    assert moved.old_ids == ("201.1",) and {w.op for w in moved.words} == {"equal"}


def test_the_corpus_edition_with_a_number_printed_twice() -> None:
    # 2024-09-20 prints 702.175 (and 702.175a) twice; 2024-11-08 renumbers the second to
    # 702.176. The texts are read from the corpus: every change keeps its own.
    old, new = corpus_edition("2024-09-20"), corpus_edition("2024-11-08")
    repeated = [r for r in old.body if str(r.id) == "702.175a"]
    assert len(repeated) == 2
    d = diff(old, new)
    (renumbered,) = _changed(d, old_ids=("702.175a",), new_ids=("702.176a",))
    assert _old_words(renumbered) == repeated[1].text == new.rule("702.176a").text
    (kept,) = _changed(d, old_ids=("702.175a",), new_ids=("702.175a",))
    assert _old_words(kept) == repeated[0].text


def test_restates_in_json_follows_the_schema() -> None:
    """An added summary rule that repeats a step's action and points to the rule keeping
    it lists the old rule it restates; every other change has an empty list (round 22)."""
    from tests.test_classify import _STEPS, _SUMMARY

    doc = as_dict(diff(edition(_STEPS), edition(_STEPS + _SUMMARY)))
    jsonschema.validate(doc, schema())
    by_new = {tuple(c["new_ids"]): c for c in doc["changes"]}
    assert by_new[("202.1a",)]["kind"] == "added"
    assert by_new[("202.1a",)]["restates"] == ["200.1"]
    assert [e["old_id"] for e in by_new[("202.1a",)]["moved_text"]] == ["200.1"]
    assert all(c["restates"] == [] for c in doc["changes"] if c["new_ids"] != ["202.1a"])


def test_changes_of_a_number_printed_twice_are_told_apart_by_printing() -> None:
    """2009-09-04 prints 702.30d for two kicker rules (the second should be 702.30e). The
    two changes reaching it carry the same new id; ``new_printings`` tells them apart in
    the JSON, and the text changelog names the second printing."""
    d = diff(corpus_edition("2009-07-11"), corpus_edition("2009-09-04"))
    new = corpus_edition("2009-09-04")
    assert [str(r.id) for r in new.rules].count("702.30d") == 2
    doc = as_dict(d)
    jsonschema.validate(doc, schema())
    reaching = [c for c in doc["changes"] if "702.30d" in c["new_ids"]]
    assert len(reaching) == 2
    printings = sorted(
        p
        for c in reaching
        for i, p in zip(c["new_ids"], c["new_printings"] or [1] * len(c["new_ids"]), strict=True)
        if i == "702.30d"
    )
    assert printings == [1, 2]
    # nearly every change is of first printings only: the field stays empty there
    assert sum(1 for c in doc["changes"] if c["new_printings"] or c["old_printings"]) == 1
    assert "702.30d (2nd printing)" in to_text(d)


def test_printed_labels_name_later_printings_only() -> None:
    assert printed_labels(("1.2a", "1.2b"), ()) == ("1.2a", "1.2b")
    assert printed_labels(("1.2a", "1.2a"), (1, 2)) == ("1.2a", "1.2a (2nd printing)")
    assert printed_labels(("9",), (3,)) == ("9 (3rd printing)",)
    assert printed_labels(("9",), (11,)) == ("9 (11th printing)",)


def test_links_of_a_group_in_json_text_and_markdown() -> None:
    """A split that another old rule joined lists which old rule went where: ``links`` in
    the JSON (schema-valid, empty on every other change) and a "pieces" line in the text
    and Markdown changelogs, a note on the HTML card."""
    from rulediff.render import render_changelog_html

    from .test_align import lead_follows_its_list

    old, new = lead_follows_its_list()
    before, after = edition(old), edition(new)
    d = diff(before, after)
    doc = as_dict(d)
    jsonschema.validate(doc, schema())
    grouped = [c for c in doc["changes"] if c["links"]]
    assert [(c["kind"], c["old_ids"], c["new_ids"]) for c in grouped] == [
        ("split", ["200.2", "200.3"], ["200.2", "200.3"])
    ]
    assert grouped[0]["links"][-1] == {"old_id": "200.3", "new_id": "200.2"}
    note = "pieces: 200.2 → 200.2, 200.3; 200.3 → 200.2"
    assert f"  {note}" in to_text(d).splitlines()
    assert f"  - {note}" in to_markdown(d).splitlines()
    assert f'<p class="note">{note}</p>' in render_changelog_html(d, before, after, use_cache=False)
