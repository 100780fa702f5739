"""Build tiny synthetic editions (modern layout) for the flag tests.

The sentences the tests feed in are written for the tests in the style of the rules;
they are not copied from any edition.
"""

from __future__ import annotations

from rulediff.model import Edition
from tests.helpers import toy_edition  # also imported as a top-level module (test_flags)

SECTION_TITLES = {
    1: "Game Concepts",
    2: "Parts of a Card",
    3: "Card Types",
    4: "Zones",
    5: "Turn Structure",
    6: "Spells, Abilities, and Effects",
    7: "Additional Rules",
    8: "Multiplayer Rules",
    9: "Casual Variants",
}


def synthetic_edition(
    rules: dict[str, str],
    *,
    titles: dict[str, str] | None = None,
    glossary: dict[str, str] | None = None,
    date: str = "March 3, 2031",
) -> Edition:
    """Parse a small edition whose numbered rules are ``rules`` (id → text)."""
    titles = dict(titles or {})
    by_heading: dict[int, list[tuple[str, str]]] = {}
    for rid, text in rules.items():
        by_heading.setdefault(int(rid.split(".")[0]), []).append((rid, text))
    sections: dict[int, list[int]] = {}
    for heading in sorted(by_heading):
        sections.setdefault(heading // 100, []).append(heading)
    contents: list[str] = []
    body: list[str] = []
    for section, headings in sorted(sections.items()):
        contents.append(f"{section}. {SECTION_TITLES[section]}")
        body += [f"{section}. {SECTION_TITLES[section]}", ""]
        for heading in headings:
            title = titles.get(str(heading), "General")
            contents.append(f"{heading}. {title}")
            body += [f"{heading}. {title}", ""]
            for rid, text in by_heading[heading]:
                label = f"{rid}." if rid.count(".") == 1 and rid[-1].isdigit() else rid
                body += [f"{label} {text}", ""]
    gloss = "\n\n".join(f"{term}\n{text}" for term, text in (glossary or {}).items())
    return toy_edition(
        "\n".join(body),
        gloss,
        game="Test",
        date=date,
        intro="A synthetic document written for the flag tests.",
        contents="\n".join(contents),
        credits="Written for tests.",
    )


#: A hand-written "Old School" flags file (what the engine implements), for the CLI tests.
OLD_SCHOOL_TOML = """\
# Hand-written "Old School" rules: what this engine implements.
mana_burn = true
mana_empties = "phase"
combat_damage_uses_stack = true
damage_assignment_order = false
legend_rule = "oldest-stays"
planeswalker_uniqueness = "absent"
planeswalker_damage_redirection = false
mulligan = "paris"
pt_switch_sublayer = "timestamp"
deathtouch = "absent"
lifelink = "absent"
starting_life = 20
max_hand_size = 7
poison_threshold = 10
"""
