"""``rulediff site``: layout, links, determinism, incremental rebuilds, static assets.

Built from the synthetic corpus of tests/render_corpus.py (seconds), plus a small real
corpus made of three consecutive editions of $RULEDIFF_CORPUS.
"""

from __future__ import annotations

import hashlib
import json
import os
import shutil
import xml.etree.ElementTree as ET
from html.parser import HTMLParser
from pathlib import Path
from urllib.parse import unquote, urlsplit

import pytest
from click.testing import CliRunner

from rulediff.cli import main
from rulediff.corpus import Corpus
from rulediff.render.env import STATIC_ASSETS, static_dir
from rulediff.site import MANIFEST_NAME, build_site

from .render_corpus import EDITIONS, edition_text, write_corpus

DATES = tuple(EDITIONS)


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(tmp_path_factory.mktemp("cache")))


def build(corpus: Path, out: Path, **kwargs: object):
    return build_site(out, Corpus.open(corpus), **kwargs)  # type: ignore[arg-type]


def tree(folder: Path) -> dict[str, bytes]:
    return {
        str(p.relative_to(folder)): p.read_bytes() for p in sorted(folder.rglob("*")) if p.is_file()
    }


def mtimes(folder: Path) -> dict[str, int]:
    return {
        str(p.relative_to(folder)): p.stat().st_mtime_ns for p in folder.rglob("*") if p.is_file()
    }


class Links(HTMLParser):
    def __init__(self) -> None:
        super().__init__()
        self.refs: list[str] = []
        self.ids: set[str] = set()

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        for name, value in attrs:
            if name in ("href", "src") and value:
                self.refs.append(value)
            if name == "id" and value:
                self.ids.add(value)


def parse_links(path: Path) -> Links:
    parser = Links()
    parser.feed(path.read_text(encoding="utf-8"))
    return parser


def check_links(site: Path, pages: list[Path] | None = None) -> int:
    """Every relative link of ``pages`` (default: every page) names a file of the site,
    and its #anchor exists there."""
    parsed: dict[Path, Links] = {}

    def links_of(path: Path) -> Links:
        if path not in parsed:
            parsed[path] = parse_links(path)
        return parsed[path]

    checked = 0
    for page in pages if pages is not None else sorted(site.rglob("*.html")):
        page = page.resolve()
        for ref in links_of(page).refs:
            parts = urlsplit(ref)
            assert not parts.scheme and not parts.netloc, f"{page}: external link {ref}"
            target = (page.parent / unquote(parts.path)).resolve() if parts.path else page
            assert target.is_file(), f"{page.relative_to(site.resolve())}: broken link {ref}"
            assert target.is_relative_to(site.resolve()), f"{page}: link leaves the site: {ref}"
            if parts.fragment and target.suffix == ".html":
                assert unquote(parts.fragment) in links_of(target).ids, f"{page}: no anchor {ref}"
            checked += 1
    return checked


# --- a whole build --------------------------------------------------------------------------------


def test_site_layout_links_and_assets(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    site = tmp_path / "site"
    report = build(corpus, site, jobs=1)
    for date in DATES:
        assert (site / "editions" / f"{date}.html").is_file()
    assert (site / "changes" / f"{DATES[0]}_{DATES[1]}.html").is_file()
    assert (site / "changes" / f"{DATES[1]}_{DATES[2]}.html").is_file()
    assert (site / "index.html").is_file() and (site / "feed.xml").is_file()
    assert (site / "rules" / "index.html").is_file()
    # a history page for every rule of every edition (13 lineages + 100.1b duel + 101.2),
    # named by the current number while in force, with a redirect from its start name
    histories = sorted(p.name for p in (site / "rules").glob("*.html") if p.name != "index.html")
    assert "100.1b_2031-03-03.html" in histories  # the crowd game rule, later 100.1c
    assert "100.1c.html" in histories
    assert "100.1b_2031-06-01.html" in histories  # the duel rule that took its number
    assert "100.1b.html" in histories
    assert "101.2_2031-09-01.html" in histories and "101.2.html" in histories
    assert "100.3_2031-03-03.html" in histories and "100.3.html" not in histories  # removed
    for name in ("search.html", "search/index.js", "audit.html", "flags.html"):
        assert (site / name).is_file(), name
    # static assets: listed, copied, identical
    for name in STATIC_ASSETS:
        assert (site / "static" / name).read_bytes() == (static_dir() / name).read_bytes()
    assert check_links(site) > 100
    manifest = json.loads((site / MANIFEST_NAME).read_text())
    assert set(manifest["pages"]) == {
        str(p.relative_to(site))
        for p in site.rglob("*")
        if p.is_file() and p.parent.name != "static"
    } - {MANIFEST_NAME}
    assert report.pages == len(manifest["pages"]) and report.skipped == 0
    assert not [p for p in site.rglob("*") if p.name.endswith(".tmp")], "temporary files left"


def test_history_of_a_renumbered_rule_in_the_site(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    site = tmp_path / "site"
    build(corpus, site, jobs=1)
    # a rule in force: its page is named by its current number ...
    html = (site / "rules" / "100.1c.html").read_text(encoding="utf-8")
    assert "In force, numbered 100.1c." in html
    assert 'href="../changes/2031-03-03_2031-06-01.html#n100.1c"' in html
    # ... and the name of where its lineage starts is kept, as a redirect
    moved = (site / "rules" / "100.1b_2031-03-03.html").read_text(encoding="utf-8")
    assert '<meta http-equiv="refresh" content="0; url=100.1c.html">' in moved
    assert '<a href="100.1c.html">' in moved
    # the rule that took the number 100.1b has the page 100.1b.html
    assert "In force, numbered 100.1b." in (site / "rules" / "100.1b.html").read_text("utf-8")
    removed = (site / "rules" / "100.3_2031-03-03.html").read_text(encoding="utf-8")
    assert "removed in the edition of 2031-09-01" in removed
    assert not (site / "rules" / "100.3.html").exists()
    # an older full text links each rule through the stable start name; the newest
    # links straight to the current number
    text = (site / "editions" / "2031-06-01.html").read_text(encoding="utf-8")
    assert 'href="../rules/100.1b_2031-03-03.html" aria-label="History of 100.1c"' in text
    newest = (site / "editions" / "2031-09-01.html").read_text(encoding="utf-8")
    assert 'href="../rules/100.1c.html" aria-label="History of 100.1c"' in newest


def test_index_and_feed(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    site = tmp_path / "site"
    build(corpus, site, jobs=1)
    index = (site / "index.html").read_text(encoding="utf-8")
    assert index.count("<svg") == 1 and index.count("<g><title>") == len(DATES)
    assert 'href="changes/2031-06-01_2031-09-01.html"' in index
    root = ET.fromstring((site / "feed.xml").read_bytes())
    entries = root.findall("{http://www.w3.org/2005/Atom}entry")
    assert len(entries) == len(DATES)


# --- determinism ----------------------------------------------------------------------------------


def test_two_builds_are_byte_identical(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    build(corpus, tmp_path / "a", jobs=1)
    build(corpus, tmp_path / "b", jobs=2)  # the pool must not change a byte
    a, b = tree(tmp_path / "a"), tree(tmp_path / "b")
    assert a.keys() == b.keys()
    different = [k for k in a if a[k] != b[k]]
    assert not different


# --- incremental ----------------------------------------------------------------------------------


def test_second_build_writes_nothing(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    site = tmp_path / "site"
    first = build(corpus, site, jobs=1)
    before = mtimes(site)
    again = build(corpus, site, jobs=1)
    assert again.written == () and again.removed == ()
    assert again.skipped == first.pages
    after = mtimes(site)
    assert {k: v for k, v in after.items() if k != MANIFEST_NAME} == {
        k: v for k, v in before.items() if k != MANIFEST_NAME
    }


def test_adding_an_edition_rebuilds_only_what_changed(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", DATES[:2])
    site = tmp_path / "site"
    build(corpus, site, jobs=1)
    write_corpus(corpus, DATES[2:])
    report = build(corpus, site, jobs=1)
    written = set(report.written)
    assert {
        f"editions/{DATES[2]}.html",  # the new edition
        f"changes/{DATES[1]}_{DATES[2]}.html",  # its changelog
        f"editions/{DATES[1]}.html",  # gains a "next edition" link
        f"changes/{DATES[0]}_{DATES[1]}.html",  # gains a "next changes" link
        "rules/100.3_2031-03-03.html",  # removed in the new edition: its page, not a redirect
        "rules/101.2_2031-09-01.html",  # born in it: a redirect to ...
        "rules/101.2.html",  # ... its page
        "index.html",
        "feed.xml",
        "rules/index.html",
        "search.html",  # names the newest edition
        "search/index.js",  # which is searched
        "audit.html",  # and audited
        "flags.html",
    } == written
    assert f"editions/{DATES[0]}.html" not in written


def test_touching_one_edition_rebuilds_only_dependent_pages(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    site = tmp_path / "site"
    build(corpus, site, jobs=1)
    (corpus / f"{DATES[1]}.txt").write_text(
        edition_text(DATES[1], extra="Each extra is announced."), encoding="utf-8"
    )
    written = set(build(corpus, site, jobs=1).written)
    assert f"editions/{DATES[1]}.html" in written
    assert f"changes/{DATES[0]}_{DATES[1]}.html" in written
    assert f"changes/{DATES[1]}_{DATES[2]}.html" in written
    assert "rules/200.1.html" in written  # the rule that changed
    assert "rules/200.1_2031-03-03.html" not in written  # its redirect did not move
    assert f"editions/{DATES[0]}.html" not in written
    assert f"editions/{DATES[2]}.html" not in written
    assert "rules/100.1.html" not in written
    assert "rules/101.1c.html" not in written


def test_a_deleted_page_is_rebuilt_and_a_dropped_edition_removed(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    site = tmp_path / "site"
    build(corpus, site, jobs=1)
    (site / "editions" / f"{DATES[0]}.html").unlink()
    assert build(corpus, site, jobs=1).written == (f"editions/{DATES[0]}.html",)
    (corpus / f"{DATES[2]}.txt").unlink()
    report = build(corpus, site, jobs=1)
    assert f"editions/{DATES[2]}.html" in report.removed
    assert f"changes/{DATES[1]}_{DATES[2]}.html" in report.removed
    assert not (site / "editions" / f"{DATES[2]}.html").exists()
    check_links(site)


def test_static_asset_is_restored(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    site = tmp_path / "site"
    build(corpus, site, jobs=1)
    (site / "static" / STATIC_ASSETS[0]).write_text("tampered")
    report = build(corpus, site, jobs=1)
    assert report.written == (f"static/{STATIC_ASSETS[0]}",)
    assert (site / "static" / STATIC_ASSETS[0]).read_bytes() == (
        static_dir() / STATIC_ASSETS[0]
    ).read_bytes()


# --- command --------------------------------------------------------------------------------------


def test_site_command(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    out = tmp_path / "site"
    result = CliRunner().invoke(main, ["--corpus", str(corpus), "site", "-o", str(out), "-j", "1"])
    assert result.exit_code == 0, result.output
    assert "written" in result.output and (out / "index.html").is_file()
    again = CliRunner().invoke(main, ["--corpus", str(corpus), "site", "-o", str(out)])
    assert again.exit_code == 0 and " 0 written" in again.output


def test_site_command_refuses_a_file_as_output(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    target = tmp_path / "file.html"
    target.write_text("keep me")
    result = CliRunner().invoke(main, ["--corpus", str(corpus), "site", "-o", str(target)])
    assert result.exit_code == 2
    assert result.output.startswith("rulediff: error: ") and str(target) in result.output
    assert len(result.output.strip().splitlines()) == 1
    assert target.read_text() == "keep me"


# --- real editions --------------------------------------------------------------------------------


def test_site_of_three_real_editions(corpus_dir: Path, tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    for date in ("2015-01-23", "2015-03-27", "2015-07-17"):
        shutil.copyfile(corpus_dir / f"{date}.txt", corpus / f"{date}.txt")
    site = tmp_path / "site"
    report = build(corpus, site, jobs=2)
    assert report.pages > 2000  # one history page per rule lineage
    changelog = (site / "changes" / "2015-01-23_2015-03-27.html").read_text(encoding="utf-8")
    assert 'id="n702.36b"' in changelog
    assert 'href="../editions/2015-03-27.html#r702.36c"' in changelog
    # a sample of pages for links (all of them takes long: thousands of history pages)
    sample = [site / "index.html", site / "changes" / "2015-01-23_2015-03-27.html"]
    sample += sorted((site / "rules").glob("702.36*.html"))
    sample.append(site / "editions" / "2015-03-27.html")
    sample += [site / "audit.html", site / "flags.html", site / "search.html"]
    # the morph rule's page tells its subrules' changes too (702.36b was added in March)
    morph = (site / "rules" / "702.36.html").read_text(encoding="utf-8")
    assert 'id="e2015-03-27-702.36b"' in morph and "Morph" in morph
    assert check_links(site, sample) > 5000  # the full text links every rule and reference
    digest = hashlib.sha256((site / "editions" / "2015-03-27.html").read_bytes()).hexdigest()
    again = build(corpus, tmp_path / "again", jobs=1)
    assert again.pages == report.pages
    assert (
        hashlib.sha256(
            (tmp_path / "again" / "editions" / "2015-03-27.html").read_bytes()
        ).hexdigest()
        == digest
    )
    assert os.path.getsize(site / "editions" / "2015-03-27.html") > 500_000


def test_single_edition_site(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus", DATES[:1])
    site = tmp_path / "site"
    report = build(corpus, site, jobs=2)
    assert (site / "editions" / f"{DATES[0]}.html").is_file()
    assert not (site / "changes").exists()
    assert report.pages == len(json.loads((site / MANIFEST_NAME).read_text())["pages"])
    check_links(site)


def test_a_numbered_rule_rolls_up_its_subrules_removed_ones_too(tmp_path: Path) -> None:
    corpus = write_corpus(tmp_path / "corpus")
    # a fourth edition drops the subrule 101.1b (and the crowd game's example stays)
    fourth = edition_text(DATES[2]).replace("September 1, 2031", "December 1, 2031")
    start = fourth.index("101.1b ")
    fourth = fourth[:start] + fourth[fourth.index("101.1c", start) :]
    (corpus / "2031-12-01.txt").write_text(fourth, encoding="utf-8")
    site = tmp_path / "site"
    build(corpus, site, jobs=1)
    page = (site / "rules" / "100.1.html").read_text(encoding="utf-8")
    # the duel subrule's birth and the crowd rule's renumbering, on the numbered rule's page
    assert 'id="e2031-06-01-100.1b"' in page and 'id="e2031-06-01-100.1c"' in page
    tokens = (site / "rules" / "101.1.html").read_text(encoding="utf-8")
    assert 'class="removed-parts"' in tokens
    assert 'id="e2031-12-01-101.1b"' in tokens  # removed, still told on 101.1's page
    assert 'href="../rules/101.1b_2031-03-03.html">101.1b</a>' in tokens  # its page
    check_links(site, [site / "rules" / "100.1.html", site / "rules" / "101.1.html"])
