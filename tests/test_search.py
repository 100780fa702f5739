"""The search index (SQLite FTS5 in the cache dir) and ``rulediff search``.

Synthetic editions of a made-up widget game check the ranking and the first/last edition
of a phrase exactly; the real corpus checks a phrase's span against a plain scan."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from click.testing import CliRunner

from rulediff import search
from rulediff.cli import main
from rulediff.corpus import Corpus
from rulediff.search import SearchError, build_index, open_index, parse_query, tokenize

from .helpers import edition_text, toy_edition

BODY_2031 = """1. Widgets

100. General

100.1. Widget Tax

100.1a Each player pays the widget tax at the start of their turn.

100.2. Tokens

100.2a A player who has no tokens may not trade.

100.2b A player may count tokens at any time.
Example: A player counts three tokens and trades one of them.

101. Trading

101.1. Trades happen only in the trade step. See rule 100.2a.
"""

GLOSSARY = """Widget
A small object that players trade.

Widget Tax
The cost each player pays at the start of their turn. See rule 100.1."""

DATES = ("March 3, 2031", "June 6, 2032", "May 5, 2033")


def _bodies() -> list[tuple[str, str]]:
    removed_tax = BODY_2031.replace(
        "100.1a Each player pays the widget tax at the start of their turn.",
        "100.1a Nobody pays anything at the start of their turn.",
    ).replace("100.1. Widget Tax", "100.1. Upkeep")
    return [
        (BODY_2031, GLOSSARY),
        (BODY_2031.replace("at any time", "at any moment"), GLOSSARY),
        (removed_tax, "Widget\nA small object that players trade."),
    ]


@pytest.fixture()
def toy_corpus(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    folder = tmp_path / "corpus"
    folder.mkdir()
    for (body, glossary), date in zip(_bodies(), DATES, strict=True):
        text = edition_text(body, glossary, date=date)
        (folder / f"toy-{date.split()[-1]}.txt").write_text(text, encoding="utf-8")
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(tmp_path / "cache"))
    monkeypatch.setenv("RULEDIFF_MANIFEST", str(tmp_path / "none.toml"))
    (tmp_path / "none.toml").write_text("", encoding="utf-8")
    search._opened.clear()
    return folder


def test_tokenize_and_queries() -> None:
    assert tokenize("Face-down 702.36e, Lim-Dûl!") == ["face", "down", "702", "36e", "lim", "dul"]
    assert parse_query('"mana burn" stack') == [["mana", "burn"], ["stack"]]
    assert parse_query('"unclosed phrase') == [["unclosed", "phrase"]]
    for bad in ("", "  ", '""', "!!!", "x" * (search.MAX_QUERY + 1), "a " * 40):
        with pytest.raises(SearchError):
            parse_query(bad)


def _toy_index(tmp_path: Path) -> search.SearchIndex:
    """The index of the three toy editions (built in ``tmp_path``)."""
    editions = [
        toy_edition(body, glossary, date=date)
        for (body, glossary), date in zip(_bodies(), DATES, strict=True)
    ]
    path = tmp_path / "ix.sqlite"
    build_index(path, editions)
    return search.SearchIndex(path)


def test_index_ranks_numbers_titles_then_text(tmp_path: Path) -> None:
    index = _toy_index(tmp_path)
    assert index.dates == ("2031-03-03", "2032-06-06", "2033-05-05")
    hits = index.search("widget tax", edition="2031-03-03")
    # The rule titled exactly so first, then the glossary term, then text mentions.
    assert [(h.kind, h.number, h.title) for h in hits[:2]] == [
        ("rule", "100.1", "Widget Tax"),
        ("glossary", "", "Widget Tax"),
    ]
    assert {h.number for h in hits} >= {"100.1a"}
    assert "«widget» «tax»" in next(h for h in hits if h.number == "100.1a").snippet
    assert index.search("widget tax", edition="2033-05-05") == []
    first = index.search("100.2b", edition="2032-06-06")[0]
    assert (first.kind, first.number, first.score) == ("rule", "100.2b", float("-inf"))
    assert "moment" in first.snippet
    # Examples are searchable as part of their rule.
    assert [h.number for h in index.search("counts three", edition="2031-03-03")] == ["100.2b"]
    # An unchanged rule is stored once for all the editions that have it.
    count = index._con().execute("SELECT count(*) FROM docs WHERE number = '101.1'").fetchone()
    assert count == (1,)
    with pytest.raises(SearchError):
        index.search("widget", edition="1999-01-01")


def test_all_editions_and_phrase_spans(tmp_path: Path) -> None:
    index = _toy_index(tmp_path)
    hits = index.search("widget tax", all_editions=True)
    rule = next(h for h in hits if h.number == "100.1a")
    assert (rule.first, rule.last, rule.editions) == ("2031-03-03", "2032-06-06", 2)
    counted = next(h for h in index.search("tokens", all_editions=True) if h.number == "100.2b")
    assert (counted.first, counted.last, counted.editions) == ("2031-03-03", "2033-05-05", 3)
    spans = index.phrases('"widget tax" "any moment" "no such words"')
    assert [(s.phrase, s.first, s.last, s.editions) for s in spans] == [
        ("widget tax", "2031-03-03", "2032-06-06", 2),
        ("any moment", "2032-06-06", "2032-06-06", 1),
        ("no such words", None, None, 0),
    ]
    # Without quotes the whole query is one phrase.
    assert [s.phrase for s in index.phrases("widget tax")] == ["widget tax"]


def test_open_index_builds_once_and_rebuilds_when_the_corpus_changes(
    toy_corpus: Path, tmp_path: Path
) -> None:
    first = open_index(Corpus.open(toy_corpus))
    assert first.path.parent == tmp_path / "cache" / "search"
    stamp = first.path.stat().st_mtime_ns
    search._opened.clear()
    again = open_index(Corpus.open(toy_corpus))
    assert again.path == first.path and again.path.stat().st_mtime_ns == stamp
    extra = edition_text(
        BODY_2031.replace("trade step", "swap step"), GLOSSARY, date="April 4, 2034"
    )
    (toy_corpus / "toy-2034.txt").write_text(extra, encoding="utf-8")
    grown = open_index(Corpus.open(toy_corpus))
    assert grown.path != first.path and grown.dates[-1] == "2034-04-04"
    assert grown.search("swap step")[0].number == "101.1"


def test_the_index_key_follows_the_code(monkeypatch: pytest.MonkeyPatch) -> None:
    from rulediff import cache

    before = search.index_key(["a", "b"])
    real = cache._source
    edited = Path(search.__file__).resolve()
    monkeypatch.setattr(  # an edit to search.py (the one cache-versioning helper sees it)
        cache, "_source", lambda p: real(p) + (b"#" if p.resolve() == edited else b"")
    )
    cache.forget_versions()
    assert search.index_key(["a", "b"]) != before
    monkeypatch.setattr(cache, "_source", real)
    cache.forget_versions()
    assert search.index_key(["a"]) != search.index_key(["a", "b"])


def test_cli_search(toy_corpus: Path) -> None:
    runner = CliRunner()
    result = runner.invoke(
        main,
        [
            "--corpus",
            str(toy_corpus),
            "search",
            "widget",
            "tax",
            "--all-editions",
            "--format",
            "json",
        ],
        catch_exceptions=False,
    )
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert doc["phrases"] == [
        {"phrase": "widget tax", "first": "2031-03-03", "last": "2032-06-06", "editions": 2}
    ]
    text = runner.invoke(
        main,
        ["--corpus", str(toy_corpus), "search", "widget", "tax", "-e", "2031-03-03"],
        catch_exceptions=False,
    )
    assert text.exit_code == 0
    assert text.stdout.splitlines()[1].strip() == "1. 100.1 Widget Tax"
    assert text.stdout.splitlines()[3].strip() == "2. glossary: Widget Tax"
    bad = runner.invoke(main, ["--corpus", str(toy_corpus), "search", '""'])
    assert bad.exit_code == 2 and "nothing to search for" in bad.output
    missing = runner.invoke(main, ["--corpus", str(toy_corpus), "search", "x", "-e", "1999-01-01"])
    assert missing.exit_code == 2 and "rulediff: error:" in missing.output


def test_phrase_span_on_the_real_corpus_agrees_with_a_plain_scan(corpus_dir) -> None:
    corpus = Corpus.open()
    index = open_index(corpus)
    phrase = ["damage", "on", "the", "stack"]
    having = []
    for info in corpus.editions():
        ed = corpus.load(info)
        texts = [r.text + " " + " ".join(e.text for e in r.examples) for r in ed.rules]
        texts += [g.text for g in ed.glossary] + [r.title or "" for r in ed.rules]
        words = " " + " ".join(" ".join(tokenize(t)) for t in texts) + " "
        if " " + " ".join(phrase) + " " in words:
            having.append(str(info.date))
    (span,) = index.phrases("damage on the stack")
    assert having and (span.first, span.last, span.editions) == (having[0], having[-1], len(having))
