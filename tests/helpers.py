"""Small synthetic editions for the tests, and the widget game's usual edit.

Everything here is written for the tests in the style of the rules; none of it is CR text.
"""

from __future__ import annotations

import re

from rulediff.model import Edition
from rulediff.parse import parse_text

#: Section and rule headings ("1. Basics", "100. General"): what the contents list.
HEADINGS = re.compile(r"^(?:\d|\d{3})\. .+$", re.M)


def edition_text(
    body: str,
    glossary: str = "",
    *,
    game: str = "Toy",
    date: str = "March 3, 2031",
    intro: str = "",
    contents: str | None = None,
    credits: str = "Toy credits.",
) -> str:
    """The text of an edition around ``body`` (its rules, from section 1 on), laid out as
    the real editions are: title, effective date, introduction (when given), contents
    (by default the section and rule headings of ``body``), rules, glossary, credits."""
    if contents is None:
        contents = "\n".join(HEADINGS.findall(body))
    intro_part = f"Introduction\n\n{intro.strip()}\n\n" if intro else ""
    glossary_part = f"{glossary.strip()}\n\n" if glossary.strip() else ""
    return (
        f"{game} Game Comprehensive Rules\n\nThese rules are effective as of {date}.\n\n"
        f"{intro_part}Contents\n\n{contents.strip()}\n\nGlossary\n\nCredits\n\n"
        f"{body.strip()}\n\nGlossary\n\n{glossary_part}Credits\n\n{credits}\n"
    )


def toy_edition(body: str, glossary: str = "", **layout: str) -> Edition:
    """:func:`edition_text` parsed (``layout``: its keyword arguments)."""
    return parse_text(edition_text(body, glossary, **layout))


def insert_100_2a(body: str) -> str:
    """The widget game's usual edit: a new 100.2a, the old 100.2a–c shifted to 100.2b–d."""
    return (
        body.replace(
            "100.2a A player who has no tokens",
            "100.2a A player may borrow one token from the bank once per game.\n\n"
            "100.2b A player who has no tokens",
        )
        .replace("100.2b A player may count", "100.2c A player may count")
        .replace("100.2c Tokens are never shared", "100.2d Tokens are never shared")
    )
