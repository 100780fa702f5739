"""The keyword abilities, keyword actions and ability words of one edition.

Read from the text's structure: the numbered rules under the heading titled "Keyword
Abilities" (or "Keyword Actions") are one keyword each, named by their title (the
"General" rule that opens each list is not a keyword); the ability words are the list
the ``ability_words`` flag reads ("The ability words are …"). Nothing is listed by hand.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from .model import Edition

_NOT_KEYWORDS = {"general"}


@dataclass(frozen=True, slots=True)
class Keywords:
    keyword_abilities: tuple[tuple[str, str], ...]
    """(rule number, name) of each keyword ability, in the order of the rules."""
    keyword_actions: tuple[tuple[str, str], ...]
    ability_words: tuple[str, ...] | None
    """Sorted; ``None`` when the text mentions ability words but the list is undetermined."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "keyword_abilities": [{"rule": r, "name": n} for r, n in self.keyword_abilities],
            "keyword_actions": [{"rule": r, "name": n} for r, n in self.keyword_actions],
            "ability_words": list(self.ability_words) if self.ability_words is not None else None,
        }


def _listed_under(edition: Edition, heading: str) -> tuple[tuple[str, str], ...]:
    for rule in edition.rules:
        if rule.id.depth == 1 and (rule.title or "").strip().casefold() == heading:
            return tuple(
                (str(child.id), child.title.strip())
                for child in edition.children(rule.id)
                if child.title and child.title.strip().casefold() not in _NOT_KEYWORDS
            )
    return ()


def keywords(edition: Edition, *, use_cache: bool = True) -> Keywords:
    """The keywords of ``edition`` (ability words through the flags, cached)."""
    from .flags.timeline import cached_flags_for

    words = cached_flags_for(edition, use_cache=use_cache).ability_words
    return Keywords(
        keyword_abilities=_listed_under(edition, "keyword abilities"),
        keyword_actions=_listed_under(edition, "keyword actions"),
        ability_words=tuple(words) if words is not None else None,
    )
