"""A tiny synthetic corpus in the CR's layout, for the render, site and browser tests.

Three editions of an imaginary "Widget Game" (no CR text): the second inserts a subrule
(the one after it is renumbered), edits a rule, adds an item to an enumerated list and
updates a reference; the third removes a rule and adds one. One rule carries markup
characters (``<script>``, ``&``) that must come out escaped.
"""

from __future__ import annotations

from pathlib import Path

HEAD = """Widget Game Comprehensive Rules

These rules are effective as of {date}.

Introduction

This synthetic document imitates the modern layout of the rules for tests.

Contents

1. Basics
100. General
101. Tokens

2. Extras
200. General

Glossary

Credits

1. Basics

100. General

"""

TAIL = """Glossary

Crowd Game
A game with more than two widgets. See rule {crowd}.

Widget
A player of the widget game. See rule 100, "General."

Credits

Synthetic Design: The Test Suite
"""

SCRIPT_RULE = '200.2. A label may read <script>alert("x")</script> & still be plain text.'

FIRST = """100.1. A widget game is played by two or more players.

100.1a A two-widget game has exactly two widgets.

100.1b A crowd game has more than two widgets. See rule 200, "General."

Example: Three widgets sit at a table; that is a crowd game.

100.2. Each player starts the game with twenty gears.

100.3. A player with no gears loses the game. See rule 101.1b.

101. Tokens

101.1. Tokens are markers that some effects create.

101.1a A token is a marker that is not a card.

101.1b A token that leaves the table ceases to exist the next time a player would receive priority.

101.1c The token types are Gear, Sprocket, and Cog.

2. Extras

200. General

200.1. Extras are optional parts of the game that players agree on before it starts.

{script}

"""

SECOND = """100.1. A widget game is played by two or more players.

100.1a A two-widget game has exactly two widgets.

100.1b A duel is a two-widget game played with the dueling variant of these rules.

100.1c A crowd game has more than two widgets. See rule 200, "General."

Example: Three widgets sit at a table; that is a crowd game.

100.2. Each player starts the game with thirty gears.

100.3. A player with no gears loses the game. See rule 101.1b.

101. Tokens

101.1. Tokens are markers that some effects create.

101.1a A token is a marker that is not a card.

101.1b A token that leaves the table ceases to exist the next time a player would receive priority.

101.1c The token types are Gear, Sprocket, Flywheel, and Cog.

2. Extras

200. General

200.1. Extras are optional parts of the game that players agree on before it starts.

{script}

"""

THIRD = """100.1. A widget game is played by two or more players.

100.1a A two-widget game has exactly two widgets.

100.1b A duel is a two-widget game played with the dueling variant of these rules.

100.1c A crowd game has more than two widgets. See rule 200, "General."

Example: Three widgets sit at a table; that is a crowd game.

100.2. Each player starts the game with thirty gears.

101. Tokens

101.1. Tokens are markers that some effects create.

101.1a A token is a marker that is not a card.

101.1b A token that leaves the table ceases to exist the next time a player would receive priority.

101.1c The token types are Gear, Sprocket, Flywheel, and Cog.

101.2. A copy of a token is also a token, and it has the token's types.

2. Extras

200. General

200.1. Extras are optional parts of the game that players agree on before it starts.

{script}

"""

EDITIONS = {
    "2031-03-03": ("March 3, 2031", FIRST, "100.1b"),
    "2031-06-01": ("June 1, 2031", SECOND, "100.1c"),
    "2031-09-01": ("September 1, 2031", THIRD, "100.1c"),
}


def edition_text(date: str, *, extra: str = "") -> str:
    """The text of one synthetic edition (``extra`` is appended to rule 200.1)."""
    words, body, crowd = EDITIONS[date]
    body = body.format(script=SCRIPT_RULE)
    if extra:
        body = body.replace("before it starts.", f"before it starts. {extra}")
    return HEAD.format(date=words) + body + TAIL.format(crowd=crowd)


def write_corpus(folder: Path, dates: tuple[str, ...] = tuple(EDITIONS)) -> Path:
    """Write the editions ``dates`` into ``folder`` (created) and return it."""
    folder.mkdir(parents=True, exist_ok=True)
    for date in dates:
        (folder / f"{date}.txt").write_text(edition_text(date), encoding="utf-8")
    return folder
