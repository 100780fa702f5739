"""The jinja2 environment, the templates folder and the static assets.

Templates and assets live in the top-level ``reports/`` folder of the repository, which
the wheel ships as ``rulediff/reports``: like :func:`rulediff.parse.grammar_path`, the
packaged copy wins and the repository copy is the fallback of an editable install.
Autoescape is on for every template and undefined names raise (``StrictUndefined``), so
a typo in a template fails a test instead of printing nothing.
"""

from __future__ import annotations

import hashlib
import os
import re
import shutil
from collections.abc import Iterable
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

import jinja2
from markupsafe import Markup

#: The static assets every site (and every page that links them) needs. Listed, not
#: globbed: only these are copied, and their hashes are part of every page's inputs.
STATIC_ASSETS: tuple[str, ...] = ("rulediff.css", "search.js")

#: The templates of the changelog, history and site pages (reports/ also holds other
#: reports' templates, e.g. the audit's, which do not shape these pages).
TEMPLATES: tuple[str, ...] = (
    "_base.html.j2",
    "_macros.html.j2",
    "_embedded.html.j2",
    "_life.html.j2",
    "changelog.html.j2",
    "edition.html.j2",
    "feed.xml.j2",
    "history.html.j2",
    "index.html.j2",
    "redirect.html.j2",
    "rules.html.j2",
    "audit.html.j2",
    "flags_timeline.html.j2",
    "search.html.j2",
)


def reports_dir() -> Path:
    """Where the templates live: inside the wheel, or at the repository top."""
    packaged = resources.files("rulediff") / "reports"
    if packaged.is_dir():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent.parent / "reports"


def static_dir() -> Path:
    return reports_dir() / "static"


@cache
def environment() -> jinja2.Environment:
    """The one jinja2 environment: autoescaped, strict, whitespace-trimmed."""
    env = jinja2.Environment(
        loader=jinja2.FileSystemLoader(str(reports_dir())),
        autoescape=True,
        undefined=jinja2.StrictUndefined,
        trim_blocks=True,
        lstrip_blocks=True,
        keep_trailing_newline=True,
        auto_reload=False,
    )
    env.globals["static_css"] = static_css
    env.filters["spans"] = spans_html
    env.filters["segments"] = segments_html
    env.filters["oldside"] = lambda segments: segments_html(segments, keep="del")
    env.filters["newside"] = lambda segments: segments_html(segments, keep="ins")
    env.filters["rulelinks"] = rulelinks_html
    env.filters["fulltext"] = fulltext_html
    return env


# The filters below print the runs of text every page is made of (a full text is ~10,000
# of them). They do in Python what a macro would do in the template, escaping every value
# into the same entities as autoescape (markupsafe), at a fraction of the cost.


#: The five characters :func:`_escape` replaces; almost no run of rule text holds one.
_ESCAPED = re.compile("[&<>'\"]")


def _escape(value: Any) -> str:
    """What ``markupsafe.escape`` writes (the same five entities), as a plain ``str``: no
    ``Markup`` object per run of text, which was most of the cost of a full text. A plain
    string without any of the five is returned as it is (one scan instead of five)."""
    if type(value) is str:
        if _ESCAPED.search(value) is None:
            return value
    elif hasattr(value, "__html__"):
        return str(value.__html__())
    return (
        str(value)
        .replace("&", "&amp;")
        .replace(">", "&gt;")
        .replace("<", "&lt;")
        .replace("'", "&#39;")
        .replace('"', "&#34;")
    )


def spans_html(spans: Iterable[Any]) -> Markup:
    """``Span`` records as HTML: plain text, links, or classed ``<span>``s."""
    return Markup(_spans_text(spans))


def _spans_text(spans: Iterable[Any]) -> str:
    """What :func:`spans_html` prints, as a plain ``str`` (no ``Markup`` per segment of a
    word diff, see :func:`segments_html`)."""
    out: list[str] = []
    for s in spans:
        text = _escape(s.text)
        if not s.href and not s.cls:  # plain text (most runs): no tag, no title
            out.append(text)
            continue
        title = f' title="{_escape(s.title)}"' if s.title else ""
        if s.href:
            out.append(
                f'<a class="{_escape(s.cls or "ref")}" href="{_escape(s.href)}"{title}>{text}</a>'
            )
        elif s.cls:
            out.append(f'<span class="{_escape(s.cls)}"{title}>{text}</span>')
        else:
            out.append(text)
    return "".join(out)


def rulelinks_html(links: Iterable[Any], sep: str = " + ") -> Markup:
    """``RuleLink`` records (rule numbers linked to a full text), joined by `` + ``."""
    out: list[str] = []
    for r in links:
        if r.href:
            out.append(f'<a class="rn" href="{_escape(r.href)}">{_escape(r.label)}</a>')
        else:
            out.append(f'<span class="rn">{_escape(r.label)}</span>')
    return Markup(_escape(sep).join(out))


def fulltext_html(items: Iterable[Any]) -> Markup:
    """``TextItem`` records as the rules of a full text: one line per heading, rule and
    example, each rule anchored to itself (with its history link on a site).

    A full text is ~5,000 items of a few values each: printed by a macro, autoescape made
    a ``Markup`` object of every value, most of the cost of an embedded text."""
    out: list[str] = []
    for it in items:
        anchor, label = _escape(it.anchor), _escape(it.label)
        head = f'<a class="num" href="#{anchor}">{label}</a> {_spans_text(it.spans)}'
        history = ""
        if it.history:
            history = (
                f' <a class="hist" href="{_escape(it.history)}"'
                f' aria-label="History of {label}">history</a>'
            )
        if it.level == "section":
            out.append(f'<h2 id="{anchor}">{head}</h2>\n')
        elif it.level == "rule":
            out.append(f'<h3 id="{anchor}">{head}{history}</h3>\n')
        else:
            out.append(f'<p id="{anchor}" class="{_escape(it.level)}">{head}{history}</p>\n')
        for example in it.examples:
            out.append(f'<p class="example">{_spans_text(example)}</p>\n')
    return Markup("".join(out))


_SEGMENT_TAGS = {"": ("", ""), "ins": ("<ins>", "</ins>"), "del": ("<del>", "</del>")}


def segments_html(segments: Iterable[Any], keep: str | None = None) -> Markup:
    """Word-diff ``Segment`` records as HTML: kept text, ``<ins>`` and ``<del>``.

    ``keep="del"`` prints one side only, the old text (``"ins"``: the new text), for the
    side-by-side view."""
    out: list[str] = []
    for g in segments:
        if keep is not None and g.op and g.op != keep:
            continue
        start, end = _SEGMENT_TAGS[g.op]
        out.append(f"{start}{_spans_text(g.spans)}{end}")
    return Markup("".join(out))


def template(name: str) -> jinja2.Template:
    return environment().get_template(name)


@cache
def static_css() -> str:
    """The stylesheet's text, inlined into standalone pages (one file, works anywhere)."""
    return (static_dir() / "rulediff.css").read_text(encoding="utf-8")


@cache
def fingerprint() -> str:
    """A hash of everything that shapes a page besides its data.

    Templates, static assets, and the code that renders: :func:`rulediff.cache.code_digest`
    over the site builder and every module and grammar it imports (the one versioning
    scheme of the cache), so an incremental build never keeps a page made by older code.
    """
    from .. import cache  # the cache's own versioning, not its storage

    digest = hashlib.sha256(cache.code_digest("rulediff.site").encode())
    files: list[Path] = [reports_dir() / name for name in TEMPLATES]
    files += [static_dir() / name for name in STATIC_ASSETS]
    for path in files:
        digest.update(path.name.encode())
        digest.update(b"\0")
        digest.update(path.read_bytes())
        digest.update(b"\0")
    return digest.hexdigest()


def copy_static(dest: Path) -> list[Path]:
    """Copy the listed static assets into ``dest`` (atomically, only when they differ)."""
    dest.mkdir(parents=True, exist_ok=True)
    written: list[Path] = []
    for name in STATIC_ASSETS:
        source = static_dir() / name
        target = dest / name
        data = source.read_bytes()
        if target.is_file() and target.read_bytes() == data:
            continue
        tmp = target.with_name(f".{name}.tmp{os.getpid()}")
        shutil.copyfile(source, tmp)
        os.replace(tmp, target)
        written.append(target)
    return written
