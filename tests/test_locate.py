"""rulediff.locate: unnumbered text → rules, statuses, edition ranges, not-cr; paragraph diff.

Real text is read at run time (the seed pages in ../shared/seeds, the corpus); the
expected verdicts of the seeds were written by reading (tests/fixtures/locate_seeds.toml).
"""

from __future__ import annotations

import json
import random
import re
import xml.etree.ElementTree as ET
from functools import cache
from pathlib import Path

import pytest
import tomllib
from click.testing import CliRunner
from rapidfuzz import fuzz, process

from rulediff.cli import main
from rulediff.corpus import Corpus
from rulediff.locate import (
    REWORD_SCORE,
    Context,
    Paragraph,
    diff_paragraphs,
    edition_table,
    fuzzy_form,
    load_context,
    locate_paragraphs,
    locate_text,
    split_paragraphs,
)
from rulediff.model import RuleId

FIXTURES = Path(__file__).parent / "fixtures"
SEEDS = Path(__file__).resolve().parents[3] / "shared" / "seeds"


def _seeds_dir() -> Path:
    for folder in (SEEDS, Path("/work/shared/seeds")):
        if folder.is_dir():
            return folder
    pytest.fail("the seed pages (../shared/seeds) are missing")


def seed_text(pattern: str) -> str:
    (path,) = sorted(_seeds_dir().glob(pattern))
    return path.read_text(encoding="utf-8")


@cache
def expected() -> dict:
    return tomllib.loads((FIXTURES / "locate_seeds.toml").read_text(encoding="utf-8"))


@cache
def corpus() -> Corpus:
    return Corpus.open()


@cache
def context(edition: str = "latest") -> Context:
    return load_context(edition)


def _is_under(ident: str, ancestor: str) -> bool:
    if ident == ancestor:
        return True
    rid = RuleId.try_parse(ident)
    return rid is not None and any(str(a) == ancestor for a in rid.ancestors())


# --- paragraphs ------------------------------------------------------------------------------


def test_split_blank_line_and_single_line_paragraphs() -> None:
    text = (
        "Widgets\r\n\r\nA widget is a made-up object\r\nthat wraps onto a second line.\r\n"
        "A second paragraph starts on the next line.\n\n\n   Spaces   around   words.  \n"
    )
    got = [(p.line, p.text) for p in split_paragraphs(text)]
    assert got == [
        (1, "Widgets"),
        (3, "A widget is a made-up object that wraps onto a second line."),
        (5, "A second paragraph starts on the next line."),
        (8, "Spaces around words."),
    ]


def test_split_short_heading_line_inside_a_block() -> None:
    got = [p.text for p in split_paragraphs("Gadgets\nA gadget is not a widget.\n")]
    assert got == ["Gadgets", "A gadget is not a widget."]


# --- the seed pages --------------------------------------------------------------------------


@pytest.mark.parametrize("seed", [0, 1], ids=["001", "002"])
def test_seed_verdicts(seed: int) -> None:
    spec = expected()["seed"][seed]
    result = locate_text(seed_text(spec["glob"]), context=context(expected()["edition"]))
    assert [s.line for s in result.skipped] == spec["furniture"]
    by_line = {p.line: p for p in result.paragraphs}
    assert sorted(by_line) == [p["line"] for p in spec["paragraphs"]]
    for want in spec["paragraphs"]:
        got = by_line[want["line"]]
        where = f"line {want['line']} ({want['reason']})"
        assert got.status == want["status"], where
        if "rule" in want:
            assert got.rules[0].id == want["rule"], where
        if want["status"] == "not-cr":
            assert got.rules == () and got.editions is None, where
            ids = [c.id for c in got.concerns]
            assert any(_is_under(i, w) for i in ids for w in want["concerns"]), (where, ids)
    # Every quoted paragraph is still in force: the page's range reaches the newest edition.
    assert result.document is not None
    assert result.document.last == corpus().latest().date.isoformat()
    assert result.document.paragraphs == result.document.dated


def test_seed_diff_lists_added_and_removed() -> None:
    spec = expected()["diff"]
    d = diff_paragraphs(
        seed_text("001_*.txt"), seed_text("002_*.txt"), context=context(expected()["edition"])
    )
    removed = [p for c in d.changes if c.kind == "removed" for p in c.old]
    added = [p for c in d.changes if c.kind == "added" for p in c.new]
    assert sorted(p.rules[0].id for p in removed) == sorted(spec["removed"])
    assert sorted(p.rules[0].id for p in added if p.status == "exact") == spec["added_rules"]
    assert sum(1 for p in added if p.status == "not-cr") == spec["added_not_cr"]
    kept = [c for c in d.changes if c.kind == "unchanged"]
    assert len(kept) == 6  # the Morph heading and five rule paragraphs of both revisions
    # Every paragraph of both revisions appears in exactly one change.
    assert sorted(p.index for c in d.changes for p in c.old) == list(range(len(d.old.paragraphs)))
    assert sorted(p.index for c in d.changes for p in c.new) == list(range(len(d.new.paragraphs)))


# --- built from the corpus at run time ---------------------------------------------------


_QUOTES = str.maketrans({"\u2019": "'", "\u201c": '"', "\u201d": '"', "\u2018": "'"})
_CURLY = str.maketrans({"'": "\u2019", '"': "\u201d"})


def noisy(text: str, rng: random.Random) -> str:
    """Typographic noise a web page adds: quotes changed, spaces doubled or dropped after
    a sentence, a non-breaking space, a line break, trailing spaces."""
    text = text.translate(_QUOTES if rng.random() < 0.5 else _CURLY)
    words = text.split(" ")
    out = []
    for w in words:
        sep = rng.choice([" ", " ", " ", "  ", "\u00a0"])
        out.append(w + sep)
    text = "".join(out).rstrip() + rng.choice(["", "  ", "\t"])
    if rng.random() < 0.3:
        text = re.sub(r"\. +(?=[A-Z])", ".", text, count=1)
    return text


def plain_key(text: str) -> str:
    """A deliberately simple comparison key for the plain scan (not rulediff's code):
    quotes, dashes and the '?' one edition prints for them made one mark; trademark signs
    (™ ®) dropped; no spaces."""
    text = re.sub("[\"'`\u2018\u2019\u201c\u201d?\u2010-\u2015\u2212-]+", "'", text)
    text = re.sub("[\u2122\u00ae]", "", text).replace("\u2026", "...")
    return re.sub(r"\s+", "", text).casefold()


@cache
def all_editions() -> list:
    c = corpus()
    return [c.load(info) for info in c.editions()]


@cache
def plain_keys() -> list[set[str]]:
    """For each edition, the plain keys of all its rule texts (the plain scan)."""
    return [{plain_key(r.text) for r in e.rules} for e in all_editions()]


@cache
def corpus_sample() -> list[tuple[int, str, str, str]]:
    """(edition index, rule id, original text, noisy text) for random rules of random
    editions: every paragraph a rule's own text, its number stripped."""
    rng = random.Random(20261201)
    editions = all_editions()
    picks = rng.sample(range(len(editions)), 12)
    out = []
    for k in sorted(picks):
        rules = [r for r in editions[k].rules if r.text != (r.title or "") and r.text.strip()]
        for rule in rng.sample(rules, 15):
            out.append((k, str(rule.id), rule.text, noisy(rule.text, rng)))
    return out


def test_corpus_paragraphs_located_and_dated() -> None:
    editions = all_editions()
    dates = [e.date_text for e in editions]
    index = context().index
    right = wrong = 0
    misses = []
    range_errors = []
    for k, rule_id, original, text in corpus_sample():
        table = edition_table(editions[k])
        (got,) = locate_paragraphs([Paragraph(1, text)], table, index).paragraphs
        if rule_id in [h.id for h in got.rules] and got.status in ("exact", "partial"):
            right += 1
        else:
            wrong += 1
            misses.append((dates[k], rule_id, got.status, [h.id for h in got.rules]))
            continue
        if got.status != "exact":
            continue
        key = plain_key(original)
        present = [j for j, keys in enumerate(plain_keys()) if key in keys]
        want = (dates[present[0]], dates[present[-1]])
        if got.editions is None or (got.editions.first, got.editions.last) != want:
            range_errors.append((dates[k], rule_id, want, got.editions))
        elif got.editions.count != len(present):
            range_errors.append((dates[k], rule_id, len(present), got.editions.count))
    accuracy = right / (right + wrong)
    print(f"located {right}/{right + wrong} = {accuracy:.1%}; misses: {misses}")
    assert accuracy >= 0.98, misses
    assert range_errors == []


def test_a_sentence_of_a_longer_rule_is_partial() -> None:
    edition = all_editions()[-1]
    ctx = context()
    rule = next(
        r
        for r in edition.rules
        if str(r.id).startswith("702.") and len(re.findall(r"\. [A-Z]", r.text)) >= 3
    )
    sentences = re.split(r"(?<=\.) (?=[A-Z])", rule.text)
    longest = max(sentences, key=len)
    (got,) = locate_paragraphs([Paragraph(1, longest)], ctx.table, ctx.index).paragraphs
    assert got.status == "partial"
    assert str(rule.id) in [r.id for r in got.rules]  # (a sentence may be in two rules)


def test_an_example_is_located_as_an_example() -> None:
    edition = all_editions()[-1]
    ctx = context()
    rule = next(r for r in edition.rules if len(r.examples) >= 2 and str(r.id).startswith("6"))
    text = rule.examples[1].text
    (got,) = locate_paragraphs([Paragraph(1, text)], ctx.table, ctx.index).paragraphs
    assert got.status == "exact"
    assert f"{rule.id}#ex2" in [r.id for r in got.rules]


def test_an_older_wording_is_reworded_and_dated_to_its_editions() -> None:
    editions = all_editions()
    newest = editions[-1]
    ctx = context()
    index = ctx.index
    current = {str(r.id): plain_key(r.text) for r in newest.rules}
    # A rule of a 2015 edition whose text changed since but whose number still holds
    # a close relative of it: quoting the old text must say reworded, with its dates.
    old = next(e for e in editions if e.date_text.startswith("2015"))
    for rule in old.rules:
        rid = str(rule.id)
        if rid not in current or current[rid] == plain_key(rule.text):
            continue
        new_text = newest.rule(rid).text
        if fuzz.ratio(fuzzy_form(rule.text), fuzzy_form(new_text)) < 90 or len(rule.text) < 80:
            continue
        (got,) = locate_paragraphs([Paragraph(1, rule.text)], ctx.table, index).paragraphs
        assert got.status == "reworded", rid
        assert got.rules[0].id == rid
        assert got.words and any(w.op != "equal" for w in got.words)
        key = plain_key(rule.text)
        pairs = zip(editions, plain_keys(), strict=True)
        present = [e.date_text for e, keys in pairs if key in keys]
        assert (got.editions.first, got.editions.last) == (present[0], present[-1])
        return
    pytest.fail("no reworded rule found in the 2015 editions")


# Sentences written for these tests in the style of the rules; no edition has them.
INVENTED = [
    "Vigil is a static ability. A permanent with vigil can't become tapped during its "
    "controller's upkeep step unless an effect instructs its controller to tap it.",
    "To harvest a card, its owner reveals it and puts it into a separate zone called the "
    "granary. Cards in the granary are public information.",
    "If a player would draw a card while their library contains exactly one card, that "
    "player instead reveals the top card of any opponent's library.",
    "A Shrine enchantment that enters the battlefield tapped doesn't count toward the "
    "number of Shrines its controller controls until the next untap step.",
    "Echoing is a triggered ability that copies the last instant its controller cast this "
    "turn. The copy has no mana value and can't be countered.",
    "When a player concedes during the cleanup step, all damage marked on permanents they "
    "controlled is removed before those permanents leave the game.",
    "A face-up planeswalker with no loyalty counters on it may still activate one loyalty "
    "ability each turn if its controller pays 3 life.",
    "The starting player skips their first draw step only in games with exactly two "
    "players; in any other game, every player draws as normal.",
    "Bargain is a keyword ability that lets a player sacrifice a token as they cast a "
    "spell. A spell that was bargained costs {2} less to cast for each token sacrificed.",
    "If two or more replacement effects would modify how a creature deals combat damage, "
    "the controller of the creature being dealt damage chooses one of them to apply first.",
    "A player who controls no lands at the beginning of their upkeep may search their "
    "library for a basic land card and put it onto the battlefield tapped.",
    "Tokens that are phased out are considered to be in the command zone for the purposes "
    "of effects that count permanents.",
    "Each Saga gets one lore counter at the end of its controller's turn instead of at the "
    "beginning of their precombat main phase.",
    "Mana abilities that produce colorless mana can be activated while a spell is being "
    "cast only if that spell has convoke.",
    "A creature with two or more instances of flanking deals double damage to each "
    "blocking creature without flanking.",
    "If a copy of a permanent spell resolves, it becomes a token that has the name of the "
    "original card followed by the word Echo.",
    "Players may agree before the game to ignore rule changes published less than thirty "
    "days before their event.",
    "A dungeon card that leaves the command zone is put on the bottom of its owner's "
    "library at random.",
    "The defending player chooses the damage assignment order of each attacking creature "
    "that has menace.",
    "An Aura with enchant player that somehow ends up attached to a planeswalker is "
    "discarded by its owner at the end of the current phase.",
]


def test_invented_sentences_are_not_cr() -> None:
    ctx = context()
    paragraphs = [Paragraph(k + 1, text) for k, text in enumerate(INVENTED)]
    result = locate_paragraphs(paragraphs, ctx.table, ctx.index)
    assert [p.status for p in result.paragraphs] == ["not-cr"] * len(INVENTED)
    assert all(p.editions is None and p.rules == () for p in result.paragraphs)


def test_threshold_separates_real_from_invented() -> None:
    """The not-cr threshold, justified: best fuzz.ratio against every wording of every
    edition, for real noisy paragraphs vs invented sentences and the seed's rulings."""
    index = context().index
    rulings = [
        p.text
        for p in split_paragraphs(seed_text("002_*.txt"))
        if p.line in {w["line"] for w in expected()["seed"][1]["paragraphs"]}
        and next(w for w in expected()["seed"][1]["paragraphs"] if w["line"] == p.line)["status"]
        == "not-cr"
    ]
    assert len(rulings) == 15

    def best(text: str) -> float:
        return process.extractOne(fuzzy_form(text), index.fuzzy, scorer=fuzz.ratio)[1]

    real = sorted(best(t) for _, _, _, t in corpus_sample()[::3])
    made_up = sorted(best(t) for t in [*INVENTED, *rulings])
    print(
        f"real paragraphs (n={len(real)}): min {real[0]:.1f} median {real[len(real) // 2]:.1f};"
        f" invented + rulings (n={len(made_up)}): max {made_up[-1]:.1f}"
        f" median {made_up[len(made_up) // 2]:.1f}; threshold {REWORD_SCORE}"
    )
    assert made_up[-1] < REWORD_SCORE <= real[0]


# --- the commands ------------------------------------------------------------------------------


def _seed_path(pattern: str) -> str:
    return str(sorted(_seeds_dir().glob(pattern))[0])


def test_cli_locate_json_is_deterministic_and_shaped() -> None:
    runner = CliRunner()
    args = ["locate", _seed_path("001_*.txt"), "--format", "json"]
    first = runner.invoke(main, args)
    second = runner.invoke(main, args)
    assert first.exit_code == 0, first.output
    assert first.stdout_bytes == second.stdout_bytes
    doc = json.loads(first.output)
    assert doc["format"] == "rulediff-locate"
    assert doc["counts"]["exact"] == 7 and doc["counts"]["heading"] == 1
    assert doc["skipped"] == [{"line": 1, "text": "Search", "reason": "furniture"}]
    para = doc["paragraphs"][0]
    assert set(para) >= {"status", "rules", "editions", "score", "words", "concerns"}
    assert set(para["editions"]) == {"first", "last", "runs", "count"}


def test_cli_locate_reads_stdin_and_reports_bad_files() -> None:
    runner = CliRunner()
    made_up = INVENTED[0]
    ok = runner.invoke(main, ["locate", "-"], input=made_up)
    assert ok.exit_code == 0, ok.output
    assert "not-cr" in ok.output
    bad = runner.invoke(main, ["locate", "/nonexistent/page.txt"])
    assert bad.exit_code == 2
    assert bad.output.startswith("rulediff: error: /nonexistent/page.txt")


def test_cli_diff_paragraphs_text_json_html(tmp_path: Path) -> None:
    runner = CliRunner()
    old, new = _seed_path("001_*.txt"), _seed_path("002_*.txt")
    text = runner.invoke(main, ["diff", "--paragraphs", old, new])
    assert text.exit_code == 0, text.output
    assert "2 removed" in text.output and "17 added" in text.output
    data = runner.invoke(main, ["diff", "--paragraphs", old, new, "--format", "json"])
    doc = json.loads(data.output)
    assert doc["counts"]["removed"] == 2
    out = tmp_path / "p.html"
    html = runner.invoke(main, ["diff", "--paragraphs", old, new, "--format", "html", "-o", out])
    assert html.exit_code == 0, html.output
    page = out.read_text(encoding="utf-8")
    assert page.count('class="kind">not-cr<') == 15
    assert "<script" not in page
    # Autoescaped: the seed's quotes and brackets arrive as text, never as markup.
    body = page[page.index("<main") : page.index("</main>") + len("</main>")]
    ET.fromstring(body.replace("&nbsp;", " "))


def test_cli_locate_html_escapes(tmp_path: Path) -> None:
    page = tmp_path / "page.txt"
    page.write_text("<b>Bold claims</b> about <script>alert(1)</script> widgets.\n")
    runner = CliRunner()
    out = tmp_path / "out.html"
    result = runner.invoke(main, ["locate", str(page), "--format", "html", "-o", str(out)])
    assert result.exit_code == 0, result.output
    html = out.read_text(encoding="utf-8")
    assert "&lt;script&gt;" in html and "<script>alert" not in html
