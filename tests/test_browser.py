"""The HTML in a real browser: headless Chromium (Debian's package) opens a changelog and a
site, takes a screenshot, dumps the DOM, and logs nothing on the console.

Skipped only where no Chromium is installed (``.ci/run`` installs it).
"""

from __future__ import annotations

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
    for row in range(min(height, 1200)):
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
    changes = dom.find("article", "change")
    assert len(changes) >= 20
    assert all(c.get("id") for c in changes), "every change has a permalink anchor"
    perma = dom.find("a", "perma")
    assert {a["href"] for a in perma} == {f"#{c['id']}" for c in changes}
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
    assert bytes((0xFB, 0xDA, 0xDA)) in colours, "no <del> background"
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
