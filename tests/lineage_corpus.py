"""A synthetic three-edition corpus in which one rule is split (written for the tests; no
CR text): 100.3 of the first edition becomes 100.3 and 100.4 of the second, and the
third renumbers the second half to 100.5."""

from __future__ import annotations

from pathlib import Path

from .helpers import edition_text

_HEAD = """1. Basics

100. General

100.1. A widget game is played by two or more players around a table of any shape.

100.2. Each player starts the game with twenty gears and a deck of forty widget cards.

"""
_TAIL = """
101. Tokens

101.1. Tokens are markers that some effects create; they are never cards.
"""
_WHOLE = (
    "100.3. A player with no gears left at the end of a turn loses the game. A player "
    "who must draw from an empty deck is eliminated as soon as the current step of the "
    "turn ends.\n"
)
_FIRST_HALF = "100.3. A player with no gears left at the end of a turn loses the game.\n"
_SECOND_HALF = (
    "{n}. A player who must draw from an empty deck is eliminated as soon as the "
    "current step of the turn ends.\n"
)
_INSERTED = "100.4. A player may concede at any time, and then leaves the game at once.\n"

EDITIONS = {
    "2031-03-03": ("March 3, 2031", _HEAD + _WHOLE + _TAIL),
    "2031-06-01": (
        "June 1, 2031",
        _HEAD + _FIRST_HALF + "\n" + _SECOND_HALF.format(n="100.4") + _TAIL,
    ),
    "2031-09-01": (
        "September 1, 2031",
        _HEAD + _FIRST_HALF + "\n" + _INSERTED + "\n" + _SECOND_HALF.format(n="100.5") + _TAIL,
    ),
}


def write_split_corpus(folder: Path) -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    for date, (words, body) in EDITIONS.items():
        (folder / f"{date}.txt").write_text(edition_text(body, date=words), encoding="utf-8")
    return folder
