"""The HTML in a real browser: headless Chromium (Debian's package) opens a changelog and a
site, takes a screenshot, dumps the DOM, and logs nothing on the console.

Skipped only where no Chromium is installed (``.ci/run`` installs it).
"""

from __future__ import annotations

import os
import re
import shutil
import struct
import subprocess
import zlib
from html.parser import HTMLParser
from pathlib import Path

import pytest

from rulediff.corpus import Corpus
from rulediff.diff import diff
from rulediff.render import render_changelog_html
from rulediff.site import build_site

from .conftest import corpus_edition
from .render_corpus import write_corpus

CHROMIUM = next(
    (found for name in ("chromium", "chromium-browser") if (found := shutil.which(name))), None
)
pytestmark = pytest.mark.skipif(CHROMIUM is None, reason="no chromium installed")

FLAGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
    "--no-first-run",
    "--hide-scrollbars",
    "--enable-logging=stderr",
    "--v=0",
    "--virtual-time-budget=5000",
]


def chromium(page: Path, profile: Path, *args: str) -> subprocess.CompletedProcess[str]:
    assert CHROMIUM is not None
    command = [CHROMIUM, *FLAGS, f"--user-data-dir={profile}", *args, page.resolve().as_uri()]
    return subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)


def console_messages(stderr: str) -> list[str]:
    """What the page said on the console: errors, failed loads, uncaught exceptions."""
    return [
        line
        for line in stderr.splitlines()
        if "CONSOLE" in line or "Uncaught" in line or "ERR_FILE_NOT_FOUND" in line
    ]


def png_size(data: bytes) -> tuple[int, int]:
    assert data[:8] == b"\x89PNG\r\n\x1a\n", "not a PNG"
    width, height = struct.unpack(">II", data[16:24])
    return width, height


def png_colours(data: bytes) -> set[bytes]:
    """The RGB colours of the image (every pixel of every 4th row; a blank page has one)."""
    width, height = png_size(data)
    pos, idat, kind = 8, b"", None
    while pos < len(data):
        length = struct.unpack(">I", data[pos : pos + 4])[0]
        tag = data[pos + 4 : pos + 8]
        if tag == b"IHDR":
            kind = data[pos + 17]  # colour type
        if tag == b"IDAT":
            idat += data[pos + 8 : pos + 8 + length]
        pos += 12 + length
    raw = zlib.decompress(idat)
    channels = {2: 3, 6: 4}[kind]  # type: ignore[index]
    stride = width * channels
    colours: set[bytes] = set()
    previous = bytearray(stride)
    for row in range(min(height, 1600)):
        start = row * (stride + 1)
        line = bytearray(raw[start + 1 : start + 1 + stride])
        f = raw[start]
        for i in range(stride):  # undo the PNG filters
            left = line[i - channels] if i >= channels else 0
            up = previous[i]
            corner = previous[i - channels] if i >= channels else 0
            if f == 1:
                line[i] = (line[i] + left) & 255
            elif f == 2:
                line[i] = (line[i] + up) & 255
            elif f == 3:
                line[i] = (line[i] + (left + up) // 2) & 255
            elif f == 4:
                p = left + up - corner
                pa, pb, pc = abs(p - left), abs(p - up), abs(p - corner)
                pred = left if pa <= pb and pa <= pc else up if pb <= pc else corner
                line[i] = (line[i] + pred) & 255
        if row % 4 == 0:
            colours.update(bytes(line[i : i + 3]) for i in range(0, stride, channels))
        previous = line
    return colours


class Dom(HTMLParser):
    def __init__(self, html: str) -> None:
        super().__init__()
        self.elements: list[tuple[str, dict[str, str | None]]] = []
        self.feed(html)

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        self.elements.append((tag, dict(attrs)))

    def find(self, tag: str | None = None, cls: str | None = None) -> list[dict[str, str | None]]:
        return [
            a
            for t, a in self.elements
            if (tag is None or t == tag) and (cls is None or cls in (a.get("class") or "").split())
        ]


@pytest.fixture(scope="module")
def seed_changelog(tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path) -> Path:
    old, new = corpus_edition("2015-01-23"), corpus_edition("2015-03-27")
    page = tmp_path_factory.mktemp("browser") / "changes.html"
    page.write_text(render_changelog_html(diff(old, new), old, new), encoding="utf-8")
    return page


def test_changelog_dom_in_chromium(seed_changelog: Path, tmp_path: Path) -> None:
    run = chromium(seed_changelog, tmp_path / "profile", "--dump-dom")
    assert run.returncode == 0, run.stderr[-2000:]
    dom = Dom(run.stdout)
    assert dom.find("section", "overview") and dom.find("ul", "summary")
    cards = dom.find("article", "change")
    rows = dom.find("tr", "row")  # renumbered only, references only, typography
    changes = cards + rows
    assert len(changes) >= 20 and len(cards) >= 10 and rows
    assert all(c.get("id") for c in changes), "every change has a permalink anchor"
    perma = dom.find("a", "perma")
    assert {a["href"] for a in perma} == {f"#{c['id']}" for c in changes}
    assert all(a.get("aria-label") for a in perma), "the # links have an accessible name"
    assert dom.find("ins") and dom.find("del")
    kinds = {k for c in changes for k in (c.get("class") or "").split() if k.startswith("ch-")}
    assert {"ch-added", "ch-renumbered-edited", "ch-edited", "ch-references"} <= kinds
    assert any(a.get("href") == "#n-r702.36c" for a in dom.find("a", "rn"))
    assert not console_messages(run.stderr), console_messages(run.stderr)


def test_changelog_screenshot(seed_changelog: Path, tmp_path: Path) -> None:
    shot = tmp_path / "changelog.png"
    run = chromium(
        seed_changelog, tmp_path / "profile", f"--screenshot={shot}", "--window-size=1200,1600"
    )
    assert run.returncode == 0, run.stderr[-2000:]
    data = shot.read_bytes()
    assert png_size(data) == (1200, 1600)
    colours = png_colours(data)
    assert len(colours) > 40  # text and badges, not a blank page
    # the stylesheet is applied: insertions and deletions have their background colours
    assert bytes((0xD7, 0xF5, 0xDD)) in colours, "no <ins> background"
    assert bytes((0xF3, 0xF4, 0xF7)) in colours, "no side-by-side columns"
    assert not console_messages(run.stderr), console_messages(run.stderr)


def test_followed_link_opens_the_embedded_full_text(seed_changelog: Path, tmp_path: Path) -> None:
    """The tiny script unfolds the full text that a rule link points into."""
    target = seed_changelog.with_name("changes.html")
    run = chromium(target, tmp_path / "profile", "--dump-dom")
    assert '<details class="embedded" id="text-new">' in run.stdout  # closed without a hash
    assert CHROMIUM is not None
    url = target.resolve().as_uri() + "#n-r702.36c"
    command = [CHROMIUM, *FLAGS, f"--user-data-dir={tmp_path / 'p2'}", "--dump-dom", url]
    opened = subprocess.run(command, capture_output=True, text=True, timeout=120, check=False)
    assert re.search(r'<details class="embedded" id="text-new" open="">', opened.stdout)
    assert not console_messages(opened.stderr), console_messages(opened.stderr)


def test_site_pages_in_chromium(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("RULEDIFF_CACHE_DIR", str(tmp_path / "cache"))
    site = tmp_path / "site"
    build_site(site, Corpus.open(write_corpus(tmp_path / "corpus")), jobs=1)
    pages = [
        site / "index.html",
        site / "changes" / "2031-03-03_2031-06-01.html",
        site / "editions" / "2031-06-01.html",
        site / "rules" / "100.1b_2031-03-03.html",
        site / "rules" / "index.html",
    ]
    for n, page in enumerate(pages):
        run = chromium(page, tmp_path / f"profile{n}", "--dump-dom")
        assert run.returncode == 0, run.stderr[-2000:]
        assert "</main>" in run.stdout, page
        assert not console_messages(run.stderr), (page, console_messages(run.stderr))
    index = Dom(chromium(pages[0], tmp_path / "p-index", "--dump-dom").stdout)
    assert len(index.find("rect", "hit")) == 3  # one bar per edition in the inline SVG
    shot = tmp_path / "index.png"
    chromium(pages[0], tmp_path / "p-shot", f"--screenshot={shot}", "--window-size=1000,900")
    assert len(png_colours(shot.read_bytes())) > 20


# --- the site as a reader uses it (Playwright driving the same Chromium) ---------------------
#
# A site of the corpus's three newest editions, opened at 1400 px and 390 px. Screenshots of
# every page type go to $RULEDIFF_SCREENSHOTS (default: out/screenshots/ at the repository
# top), named <page>-<width>.png, for a reviewer to look at.

WIDTHS = (1400, 390)
SCREENSHOTS = Path(
    os.environ.get("RULEDIFF_SCREENSHOTS")
    or Path(__file__).resolve().parent.parent / "out" / "screenshots"
)


def _contrast(fg: tuple[float, ...], bg: tuple[float, ...]) -> float:
    """WCAG 2 contrast ratio of two sRGB colours (0-255)."""

    def lum(c: tuple[float, ...]) -> float:
        parts = []
        for v in c[:3]:
            s = v / 255
            parts.append(s / 12.92 if s <= 0.04045 else ((s + 0.055) / 1.055) ** 2.4)
        return 0.2126 * parts[0] + 0.7152 * parts[1] + 0.0722 * parts[2]

    a, b = sorted((lum(fg), lum(bg)), reverse=True)
    return (a + 0.05) / (b + 0.05)


def _rgb(css: str) -> tuple[float, ...]:
    found = re.findall(r"[\d.]+", css)
    assert len(found) >= 3, css
    return tuple(float(x) for x in found[:3])


#: Three consecutive editions whose changelogs hold every kind these tests look at (named,
#: not "the newest three": a corpus that grows by a small edition must not change them).
SITE_EDITIONS = ("2026-02-27", "2026-04-17", "2026-06-19")


@pytest.fixture(scope="module")
def real_site(tmp_path_factory: pytest.TempPathFactory, corpus_dir: Path) -> Path:
    corpus = tmp_path_factory.mktemp("corpus3")
    for date in SITE_EDITIONS:
        (corpus / f"{date}.txt").symlink_to((corpus_dir / f"{date}.txt").resolve())
    site = tmp_path_factory.mktemp("site3")
    build_site(site, Corpus.open(corpus), jobs=2)
    return site


@pytest.fixture(scope="module")
def browser():  # type: ignore[no-untyped-def]
    playwright_api = pytest.importorskip("playwright.sync_api")
    with playwright_api.sync_playwright() as p:
        b = p.chromium.launch(executable_path=CHROMIUM, args=["--no-sandbox"])
        yield b
        b.close()


def _newest(site: Path) -> tuple[str, str]:
    """(newest edition date, the changelog page that leads to it)."""
    date = max(p.stem for p in (site / "editions").glob("*.html"))
    change = max(p.name for p in (site / "changes").glob("*.html"))
    return date, f"changes/{change}"


def _open(browser, site: Path, rel: str, width: int, **kwargs):  # type: ignore[no-untyped-def]
    page = browser.new_page(viewport={"width": width, "height": 900}, **kwargs)
    errors: list[str] = []
    page.on("console", lambda m: errors.append(m.text) if m.type in ("error", "warning") else None)
    page.on("pageerror", lambda e: errors.append(str(e)))
    path, _, rest = rel.partition("?")
    url = (site / path.split("#")[0]).resolve().as_uri()
    url += ("#" + path.split("#")[1]) if "#" in path else ""
    page.goto(url + (f"?{rest}" if rest else ""))
    page.wait_for_load_state("load")
    return page, errors


def test_no_page_scrolls_sideways_and_screenshots(browser, real_site: Path) -> None:
    date, changes = _newest(real_site)
    pages = {
        "index": "index.html",
        "changelog": changes,
        "edition": f"editions/{date}.html",
        "rule": "rules/704.5j.html",
        "keyword": "rules/702.37.html",
        "rules": "rules/index.html",
        "audit": "audit.html",
        "flags": "flags.html",
        "search": "search.html?q=legend+rule",
    }
    SCREENSHOTS.mkdir(parents=True, exist_ok=True)
    for width in WIDTHS:
        for name, rel in pages.items():
            page, errors = _open(browser, real_site, rel, width)
            scroll = page.evaluate("document.documentElement.scrollWidth")
            client = page.evaluate("document.documentElement.clientWidth")
            assert scroll <= client, f"{rel} scrolls sideways at {width} px ({scroll} > {client})"
            assert not errors, (rel, errors)
            shot = SCREENSHOTS / f"{name}-{width}.png"
            page.screenshot(path=str(shot))
            assert png_size(shot.read_bytes())[0] == width
            page.close()


def test_search_finds_a_rule_by_number_and_by_phrase(browser, real_site: Path) -> None:
    date, _ = _newest(real_site)
    # by number, from the box in any page's header
    page, errors = _open(browser, real_site, "index.html", 1400)
    page.fill("#site-q", "704.5j")
    page.press("#site-q", "Enter")
    page.wait_for_url("**/rules/704.5j.html")
    assert "History of rule 704.5j" in page.inner_text("h1")
    page.close()
    # by a phrase of the rule's own text (read from the corpus, not written here)
    text = corpus_edition(date).rule("704.5j").text
    phrase = " ".join(re.findall(r"[A-Za-z]+", text)[2:6])
    page, errors = _open(browser, real_site, "search.html?q=" + phrase.replace(" ", "+"), 390)
    page.wait_for_selector("#results li")
    first = [a.inner_text() for a in page.query_selector_all("#results .hit-title")][:5]
    assert any(t.startswith("704.5j") for t in first), (phrase, first)
    hrefs = [a.get_attribute("href") for a in page.query_selector_all("#results a")]
    assert f"editions/{date}.html#r704.5j" in hrefs and "rules/704.5j.html" in hrefs
    assert "result" in page.inner_text("#search-status")
    assert not errors, errors
    page.close()


def test_search_page_without_javascript_says_how_to_open_a_rule_by_number(
    browser, real_site: Path
) -> None:
    # A file:// page cannot read its query without a script; the page says so and
    # gives the guessable address, which exists, and the rules list.
    page, errors = _open(browser, real_site, "search.html?q=704.5j", 390, java_script_enabled=False)
    note = page.inner_text("p.note")
    assert "rules/704.5j.html" in note and "rulediff serve" in note
    assert (real_site / "rules" / "704.5j.html").is_file()
    link = page.query_selector("p.note a")
    assert link is not None and link.get_attribute("href") == "rules/index.html"
    scroll = page.evaluate("document.documentElement.scrollWidth")
    assert scroll <= page.evaluate("document.documentElement.clientWidth")
    page.close()


def test_rule_page_is_todays_rule(browser, real_site: Path) -> None:
    date, _ = _newest(real_site)
    rule = corpus_edition(date).rule("704.5j")
    page, errors = _open(browser, real_site, "rules/704.5j.html", 1400)
    body = " ".join(page.inner_text("main").split())
    assert "In force, numbered 704.5j." in body
    assert " ".join(rule.text.split()) in body
    page.close()
    # a numbered rule's page rolls up its subrules
    page, _ = _open(browser, real_site, "rules/702.37.html", 1400)
    parts = [a.inner_text() for a in page.query_selector_all("main p.meta > a.rn")]
    subrules = [str(r.id) for r in corpus_edition(date).rules if str(r.id).startswith("702.37")]
    assert parts == subrules[1:] and len(parts) >= 3
    page.close()


def test_chips_filter_the_changes(browser, real_site: Path) -> None:
    _, changes = _newest(real_site)
    page, errors = _open(browser, real_site, changes, 1400)
    chips = page.query_selector_all("a.chip[href^='#f-']")
    assert chips
    visible = "els => els.filter(e => e.offsetParent !== null).map(e => e.className)"
    before = page.eval_on_selector_all("article.change, tr.row", visible)
    for chip in chips:
        kind = chip.get_attribute("href")[3:]
        chip.click()
        shown = page.eval_on_selector_all("article.change, tr.row", visible)
        assert shown, kind
        assert all(kind in cls.split() for cls in shown), (kind, shown)
        assert len(shown) < len(before)
    page.click("a.chip[href='#summary']")
    assert len(page.eval_on_selector_all("article.change, tr.row", visible)) == len(before)
    assert not errors, errors
    page.close()


def test_side_by_side_toggle_and_inline_on_phones(browser, real_site: Path) -> None:
    _, changes = _newest(real_site)
    page, _ = _open(browser, real_site, changes, 1400)
    assert page.is_visible(".sbs") and not page.is_visible(".change .text.inline")
    page.click("label.toggle")
    assert not page.is_visible(".sbs") and page.is_visible(".change .text.inline")
    page.close()
    page, _ = _open(browser, real_site, changes, 390)
    assert not page.is_visible(".sbs") and page.is_visible(".change .text.inline")
    page.close()


def test_print_keeps_insertions_distinguishable(browser, real_site: Path) -> None:
    _, changes = _newest(real_site)
    page, _ = _open(browser, real_site, changes, 1400)
    page.emulate_media(media="print")
    style = page.evaluate(
        """() => { const i = document.querySelector('.change .text.inline ins');
        const d = document.querySelector('.change .text.inline del');
        return [getComputedStyle(i).textDecorationLine, getComputedStyle(i, '::before').content,
                getComputedStyle(d).textDecorationLine, getComputedStyle(d, '::before').content,
                i.offsetParent !== null]; }"""
    )
    assert "underline" in style[0] and style[1] == '"[+"'
    assert "line-through" in style[2] and style[3] == '"[-"'
    assert style[4], "the inline text is printed"
    page.close()


@pytest.mark.parametrize("scheme", ["light", "dark"])
def test_badges_have_contrast(browser, real_site: Path, scheme: str) -> None:
    _, changes = _newest(real_site)
    for rel in (changes, "rules/704.5j.html"):
        page, _ = _open(browser, real_site, rel, 1400, color_scheme=scheme)
        colours = page.eval_on_selector_all(
            ".kind",
            "els => els.map(e => [getComputedStyle(e).color, getComputedStyle(e).backgroundColor])",
        )
        assert colours
        for fg, bg in set(map(tuple, colours)):
            assert _contrast(_rgb(fg), _rgb(bg)) >= 4.5, (rel, scheme, fg, bg)
        page.close()
