"""Where pages are, and how one page links to another.

Every link is relative, so a site opens from ``file://`` as well as from a server. A
:class:`Links` knows the folder depth of the page being written (``root`` is ``""`` for
the index and ``"../"`` for pages one folder down). A standalone page (``rulediff diff
--format html -o FILE``) has no site around it: its ``Links`` has ``site=False`` and
links only inside itself.
"""

from __future__ import annotations

import datetime as dt
import re
from dataclasses import dataclass

_UNSAFE = re.compile(r"[^A-Za-z0-9._-]+")


def edition_page(date: dt.date | str) -> str:
    """Path of an edition's full text inside a site."""
    return f"editions/{date}.html"


def changelog_page(old: dt.date | str, new: dt.date | str) -> str:
    """Path of the changelog of two editions inside a site."""
    return f"changes/{old}_{new}.html"


def history_page(key: str) -> str:
    """Path of a rule's history page inside a site (``key`` names the lineage)."""
    return f"rules/{_UNSAFE.sub('_', key)}.html"


def rule_anchor(rule_id: object) -> str:
    """The ``id`` of a rule in a full-text page: ``r702.36e`` (``r7`` for a section)."""
    return f"r{rule_id}"


def glossary_anchor(term: str) -> str:
    """The ``id`` of a glossary entry: ``g-first-strike``."""
    return "g-" + _UNSAFE.sub("-", term.casefold()).strip("-")


def change_anchor(old_ids: tuple[str, ...], new_ids: tuple[str, ...]) -> str:
    """The permalink ``id`` of a rule's change in a changelog: ``n702.36e`` by its new
    number, ``o702.36d`` (by the old one) for a removed rule."""
    return f"n{new_ids[0]}" if new_ids else f"o{old_ids[0]}" if old_ids else ""


@dataclass(frozen=True, slots=True)
class Links:
    """Relative URLs from one page of a site (or from a standalone page)."""

    root: str = ""
    """Prefix from the current page to the site's top (``""`` or ``"../"``)."""
    site: bool = True
    """``False`` for a standalone page: no other page exists beside it."""

    def static(self, name: str) -> str:
        return f"{self.root}static/{name}"

    def index(self) -> str | None:
        return f"{self.root}index.html" if self.site else None

    def edition(self, date: dt.date | str) -> str | None:
        return self.root + edition_page(date) if self.site else None

    def rule(self, date: dt.date | str, rule_id: object) -> str | None:
        """The rule in the full text of the edition of ``date``."""
        page = self.edition(date)
        return f"{page}#{rule_anchor(rule_id)}" if page else None

    def changelog(self, old: dt.date | str, new: dt.date | str) -> str | None:
        return self.root + changelog_page(old, new) if self.site else None

    def search(self) -> str | None:
        """The site's search page (none beside a standalone page)."""
        return f"{self.root}search.html" if self.site else None

    def history(self, key: str | None) -> str | None:
        if key is None or not self.site:
            return None
        return self.root + history_page(key)
