"""HTML rendering: view-model dataclasses built from the diff, jinja2 templates in ``reports/``.

The public entry points:

* :func:`render_changelog_html` — a standalone changelog of two editions;
* :func:`render_history_html` — a standalone history of one rule;
* :func:`build_edition_view` / :func:`render_edition_html` — an edition's full text;
* :func:`build_index_view`, :func:`build_feed_view` — the site's index and Atom feed
  (:mod:`rulediff.site` puts them together).

Every template is autoescaped with ``StrictUndefined``; :data:`KIND_CLASS` is the one
mapping from a change kind to its CSS class.
"""

from __future__ import annotations

from .changelog import build_changelog_view, render_changelog, render_changelog_html
from .edition import build_edition_view, render_edition_html
from .env import STATIC_ASSETS, copy_static, environment, reports_dir
from .history import build_history_view, render_history, render_history_html
from .index import build_feed_view, build_index_view, render_feed, render_index_html
from .views import KIND_CLASS, kind_class

__all__ = [
    "KIND_CLASS",
    "STATIC_ASSETS",
    "build_changelog_view",
    "build_edition_view",
    "build_feed_view",
    "build_history_view",
    "build_index_view",
    "copy_static",
    "environment",
    "kind_class",
    "render_changelog",
    "render_changelog_html",
    "render_edition_html",
    "render_feed",
    "render_history",
    "render_history_html",
    "render_index_html",
    "reports_dir",
]
