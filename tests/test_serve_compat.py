"""Contract tests of the Academy Ruins-compatible routes (``/compat/academyruins/`` and, with
``--compat-root``, ``/``): paths, parameters, status codes, field names and types. The
expected texts are read from the corpus at run time."""

from __future__ import annotations

import json

import pytest

from rulediff.corpus import Corpus, load_edition
from rulediff.history import build_lineage

from .serve_helpers import Server, cli, running_server

pytestmark = pytest.mark.usefixtures("corpus_dir")  # without the corpus: fail loudly

BASE = "/compat/academyruins"


@pytest.fixture(scope="module")
def server() -> Server:
    with running_server("--compat-root") as s:
        yield s


def rule_reply(doc: object) -> None:
    assert isinstance(doc, dict) and set(doc) == {"ruleNumber", "ruleText"}
    assert isinstance(doc["ruleNumber"], str) and isinstance(doc["ruleText"], str)


def test_rule_gives_the_defining_subrule_of_a_keyword_heading(server: Server) -> None:
    ed = load_edition("2015-01-23")
    heading = ed.rule("702.36")
    assert heading is not None and heading.title  # a keyword heading in that edition
    reply = server.get(f"{BASE}/cr/702.36?edition=2015-01-23")
    assert reply.status == 200 and reply.headers["content-type"] == "application/json"
    doc = reply.json()
    rule_reply(doc)
    assert doc == {"ruleNumber": "702.36a", "ruleText": ed.rule("702.36a").text}
    exact = server.get(f"{BASE}/cr/702.36?exact_match=true&edition=2015-01-23").json()
    assert exact == {"ruleNumber": "702.36", "ruleText": heading.title}
    plain = server.get(f"{BASE}/cr/702.36d?edition=2015-01-23").json()
    assert plain == {"ruleNumber": "702.36d", "ruleText": ed.rule("702.36d").text}


def test_compat_root_mounts_the_same_routes_at_the_top(server: Server) -> None:
    for path in ("/cr/702.19", "/cr/glossary/trample", "/cr/keywords", "/file/cr"):
        assert server.get(path).body == server.get(BASE + path).body


def test_examples(server: Server) -> None:
    ed = load_edition("latest")
    rule = next(r for r in ed.rules if r.examples)
    doc = server.get(f"{BASE}/cr/example/{rule.id}").json()
    assert set(doc) == {"ruleNumber", "examples"}
    assert doc == {"ruleNumber": str(rule.id), "examples": [e.text for e in rule.examples]}


def test_glossary_exact_and_fuzzy(server: Server) -> None:
    ed = load_edition("latest")
    every = server.get(f"{BASE}/cr/glossary").json()
    assert isinstance(every, list) and len(every) == len(ed.glossary)
    assert all(set(g) == {"term", "definition"} for g in every)
    fuzzy = server.get(f"{BASE}/cr/glossary/facedown?fuzzy=true")
    assert fuzzy.status == 200
    entry = ed.glossary_entry("face down")
    assert fuzzy.json() == {"term": entry.term, "definition": entry.text}
    assert fuzzy.json()["term"].casefold() == "face down"
    assert server.get(f"{BASE}/cr/glossary/facedown").status == 404
    assert server.get(f"{BASE}/cr/glossary/Face%20Down").json()["term"] == entry.term


def test_toc_and_keywords(server: Server) -> None:
    ed = load_edition("latest")
    toc = server.get(f"{BASE}/cr/toc").json()
    assert [s["ruleNumber"] for s in toc] == [str(s.id) for s in ed.sections]
    assert all(set(s) == {"ruleNumber", "title", "subsections"} for s in toc)
    rules = {sub["ruleNumber"]: sub["title"] for s in toc for sub in s["subsections"]}
    assert rules["702"] == ed.rule("702").title
    kw = server.get(f"{BASE}/cr/keywords").json()
    assert set(kw) == {"keywordAbilities", "keywordActions", "abilityWords"}
    assert "Trample" in kw["keywordAbilities"] and all(
        isinstance(x, str) for x in kw["abilityWords"]
    )
    titles = {r.title for r in ed.children("702")}
    assert set(kw["keywordAbilities"]) <= titles


def test_trace_is_newest_first_with_old_and_new(server: Server) -> None:
    doc = server.get(f"{BASE}/cr/trace/702.19").json()
    assert isinstance(doc, list) and doc
    assert [c["date"] for c in doc] == sorted((c["date"] for c in doc), reverse=True)
    for change in doc:
        assert change["action"] in {"created", "moved", "edited", "replaced"}
        for side in ("old", "new"):
            assert change[side] is None or set(change[side]) == {"ruleNum", "ruleText"}
    history = json.loads(cli("history", "702.19", "--format", "json"))
    renumberings = [e for e in history["events"] if e["kind"] == "renumbered"]
    moved = [c for c in doc if c["action"] == "moved"]
    assert len(moved) == len(renumberings)
    assert doc[-1]["action"] == "created" and doc[-1]["old"] is None


def _pair_with_renumbering() -> tuple[str, str]:
    corpus = Corpus.open()
    lineage = build_lineage(corpus.editions(), corpus.load)
    for step in reversed(lineage.steps):
        if any(c.kind == "renumbered" for c in step.changes):
            return step.old.date, step.new.date
    raise AssertionError("no neighbouring pair renumbers a rule")


def test_diff_lists_moves_apart_and_leaves_reference_only_changes_out(server: Server) -> None:
    for old, new in (_pair_with_renumbering(), ("2015-01-23", "2015-03-27")):
        reply = server.get(f"{BASE}/diff/cr?old={old}&new={new}")
        assert reply.status == 200
        doc = reply.json()
        assert set(doc) == {
            "creationDay",
            "changes",
            "moves",
            "sourceSet",
            "sourceCode",
            "destSet",
            "destCode",
        }
        ours = json.loads(cli("diff", old, new, "--format", "json"))
        rules = [c for c in ours["changes"] if c["domain"] == "rule"]
        renumbered = [
            c
            for c in rules
            if c["kind"] == "renumbered"
            or (c["kind"] == "references-only" and c["old_ids"] != c["new_ids"])
        ]
        assert doc["moves"] == [
            {"from": c["old_ids"][0], "to": c["new_ids"][0]} for c in renumbered
        ]
        pairs = {
            ((c["old"] or {}).get("ruleNum"), (c["new"] or {}).get("ruleNum"))
            for c in doc["changes"]
        }
        for c in rules:
            key = ("+".join(c["old_ids"]) or None, "+".join(c["new_ids"]) or None)
            words = [w for w in c["words"] if w["op"] != "equal"]
            spacing_only = bool(c["old_ids"] and c["new_ids"]) and all(
                not w["text"].strip() for w in words
            )
            if c["kind"] in ("references-only", "renumbered", "unchanged") or spacing_only:
                assert key not in pairs, c
            else:
                assert key in pairs, c
        edited = [c for c in doc["changes"] if c["old"] and c["new"]]
        if new == "2015-03-27":
            assert any(c["kind"] == "references-only" for c in rules)
            assert edited
        before, after = load_edition(old), load_edition(new)
        for c in edited:
            assert "<<<<" in c["old"]["ruleText"] + c["new"]["ruleText"]
            if "+" not in c["old"]["ruleNum"] + c["new"]["ruleNum"]:
                unwrapped = c["new"]["ruleText"].replace("<<<<", "").replace(">>>>", "")
                assert unwrapped == after.rule(c["new"]["ruleNum"]).text
                unwrapped = c["old"]["ruleText"].replace("<<<<", "").replace(">>>>", "")
                assert unwrapped == before.rule(c["old"]["ruleNum"]).text
    default = server.get(f"{BASE}/diff/cr").json()
    dates = [str(i.date) for i in Corpus.open().editions()]
    assert default["creationDay"] == dates[-1]
    any_pair = server.get(f"{BASE}/diff/cr?old=2015-01-23&new=FDN")
    assert any_pair.status == 200 and any_pair.json()["destCode"] == "FDN"


def test_file_and_edition_everywhere(server: Server) -> None:
    assert server.get(f"{BASE}/file/cr").body == cli("parse", "latest", "--format", "text")
    assert server.get(f"{BASE}/file/cr?edition=FDN").body == cli("parse", "FDN", "--format", "text")
    old = load_edition("2009-07-11")
    q = "?edition=2009-07-11"
    assert server.get(f"{BASE}/cr/100.1{q}").json()["ruleText"] == old.rule("100.1").text
    with_examples = next(r for r in old.rules if r.examples)
    examples = server.get(f"{BASE}/cr/example/{with_examples.id}{q}").json()["examples"]
    assert examples == [e.text for e in with_examples.examples]
    assert len(server.get(f"{BASE}/cr/glossary{q}").json()) == len(old.glossary)
    toc = server.get(f"{BASE}/cr/toc{q}").json()
    assert [s["title"] for s in toc] == [s.title for s in old.sections]
    kw = server.get(f"{BASE}/cr/keywords{q}").json()["keywordAbilities"]
    assert kw and set(kw) <= {r.title for r in old.children("702")}
    assert server.get(f"{BASE}/cr/trace/100.1{q}").status == 200
    trample = server.get(f"{BASE}/cr/glossary/trample{q}").json()
    assert trample["definition"] == old.glossary_entry("trample").text


def test_errors_are_404_and_400(server: Server) -> None:
    assert server.get(f"{BASE}/cr/999.9").status == 404
    assert server.get(f"{BASE}/cr/example/999.9").status == 404
    assert server.get(f"{BASE}/cr/not-a-rule").status == 400
    assert server.get(f"{BASE}/cr/702.19?edition=nope").status == 404
    assert server.get(f"{BASE}/diff/cr?old=nope&new=latest").status == 404
