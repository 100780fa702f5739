"""The result of an alignment: which rule of one edition is which rule of the other.

Only ids, kinds and scores — no rule text — so an :class:`Alignment` is small and cached
per pair of editions. Built by :func:`rulediff.align.align`.
"""

from __future__ import annotations

from collections import Counter
from dataclasses import dataclass, field
from typing import Literal, get_args

from .model import Edition

Kind = Literal[
    "unchanged",
    "edited",
    "renumbered",
    "renumbered-edited",
    "split",
    "merged",
    "added",
    "removed",
    "references-only",
    "editorial",
    "renamed",
]
#: Every match kind. ``renamed`` is the glossary's ``renumbered``: the term changed.
KINDS: tuple[Kind, ...] = get_args(Kind)
Domain = Literal["rule", "example", "glossary"]
Method = Literal[
    "anchor",
    "fuzzy",
    "structure",
    "sentence",
    "content",
    "term",
    "split",
    "merge",
    "lineage",
    "none",
]


@dataclass(frozen=True, slots=True)
class EditionRef:
    """Which edition an alignment or diff is about (no path: output must not depend on it)."""

    date: str
    """Effective date ``YYYY-MM-DD`` (``unknown`` if the text has none)."""
    sha256: str
    title: str = ""

    @classmethod
    def of(cls, edition: Edition) -> EditionRef:
        return cls(edition.date_text, edition.sha256, edition.title)


@dataclass(frozen=True, slots=True)
class Match:
    """One correspondence between the old and the new edition.

    ``old_ids`` is empty for ``added``, ``new_ids`` for ``removed``; ``split`` has one old
    id and several new ones (or several of each, with ``links``), ``merged`` the reverse.
    Ids are rule numbers (``702.36e``),
    example ids (``702.36e#ex1``: first example of 702.36e) or glossary terms.
    """

    domain: Domain
    kind: Kind
    old_ids: tuple[str, ...]
    new_ids: tuple[str, ...]
    score: float
    """Similarity of the normalized texts, 0–100 (100 for anchors; 0 for added/removed)."""
    method: Method = "none"
    """How it was found: ``anchor`` (unique exact text), ``fuzzy``, ``structure`` (a
    heading by where its children went), ``sentence`` (where its sentences went),
    ``content`` (a rule left free by every other pass, found by its rare words and where
    its neighbours went: :mod:`rulediff.rescue`), ``term`` (glossary term),
    ``split``/``merge``."""
    ambiguous: bool = False
    """Another candidate scored within :data:`AMBIGUITY_MARGIN`: check it by hand. On a
    ``removed`` or ``added`` rule: the text does not decide whether it has a counterpart
    among ``alternatives`` (close candidates, themselves unmatched)."""
    alternatives: tuple[str, ...] = ()
    """The runner-up ids when ``ambiguous``; for ``removed``/``added``, the undecided
    candidates of the other edition."""
    moved: bool = False
    """Really moved (a new parent, or out of order among its siblings), not just shifted."""
    flags: tuple[str, ...] = ()
    """What kind of difference the text has: ``typography``, ``references``, ``sweep``."""
    sweeps: tuple[tuple[str, str], ...] = ()
    """Recurring wording changes found in this text, e.g. ``("his or her", "their")``."""
    moved_text: tuple[tuple[str, str, str], ...] = ()
    """Sentences that went from one of this match's old rules to a rule outside it, or
    came into one of its new rules from outside: ``(old_id, new_id, text as in new)``."""
    old_printings: tuple[int, ...] = ()
    """Which printing of its number each of ``old_ids`` is (1, 2 …) when one of them is
    a number's second printing (an edition that prints a number twice); empty when all
    are first printings, as nearly always."""
    new_printings: tuple[int, ...] = ()
    """The same for ``new_ids``."""
    restates: tuple[str, ...] = ()
    """On an ``added`` rule: the old rules whose sentences it restates while they live on
    in their own counterparts (text copied, not moved; those sentences are in
    ``moved_text``)."""
    links: tuple[tuple[str, str], ...] = ()
    """On a ``split`` with several old rules: ``(old_id, new_id)`` for each old rule and
    each new rule it went into (a rule split in pieces, and another old rule whose text
    went into one of those pieces). Empty on every other match, where each old rule
    went into each new rule: see :meth:`new_ids_of`."""

    @property
    def old_id(self) -> str | None:
        return self.old_ids[0] if self.old_ids else None

    @property
    def new_id(self) -> str | None:
        return self.new_ids[0] if self.new_ids else None

    def new_ids_of(self, old_id: str) -> tuple[str, ...]:
        """The new rules old ``old_id`` went into: all of ``new_ids`` unless ``links``
        say otherwise."""
        return linked(self.links, old_id, self.new_ids, forward=True)

    def old_ids_of(self, new_id: str) -> tuple[str, ...]:
        """The old rules whose text went into new ``new_id``."""
        return linked(self.links, new_id, self.old_ids, forward=False)


def linked(
    links: tuple[tuple[str, str], ...], ident: str, others: tuple[str, ...], *, forward: bool
) -> tuple[str, ...]:
    """The ids on the other side of a match that ``ident`` is linked to (``forward``: from
    an old id to new ids): ``others`` (the whole other side) when there are no links."""
    if not links:
        return others
    if forward:
        return tuple(b for a, b in links if a == ident)
    return tuple(a for a, b in links if b == ident)


@dataclass(frozen=True, slots=True)
class Alignment:
    """All matches between two editions, each list in the new edition's document order."""

    old: EditionRef
    new: EditionRef
    rules: tuple[Match, ...]
    """Sections, rule headings, rules and subrules."""
    examples: tuple[Match, ...]
    glossary: tuple[Match, ...]
    sweeps: tuple[tuple[str, str, int], ...] = ()
    """Recurring wording changes detected over the whole pair: (old, new, count)."""
    _index: dict = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self) -> tuple:
        return tuple(getattr(self, name) for name in _ALIGNMENT_STATE)

    def __setstate__(self, state: tuple) -> None:
        for name, value in zip(_ALIGNMENT_STATE, state, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_index", {})

    def all(self) -> tuple[Match, ...]:
        return self.rules + self.examples + self.glossary

    def _lookup(self, name: str, domain: Domain) -> dict[str, Match]:
        key = f"{name}:{domain}"
        found = self._index.get(key)
        if found is None:
            found = {}
            matches = {"rule": self.rules, "example": self.examples, "glossary": self.glossary}[
                domain
            ]
            for m in matches:
                for i in m.old_ids if name == "old" else m.new_ids:
                    found.setdefault(i, m)
            self._index[key] = found
        return found

    def match_for_old(self, old_id: str, domain: Domain = "rule") -> Match | None:
        """The match that the old edition's ``old_id`` takes part in."""
        return self._lookup("old", domain).get(old_id)

    def match_for_new(self, new_id: str, domain: Domain = "rule") -> Match | None:
        return self._lookup("new", domain).get(new_id)

    def rule_map(self) -> dict[str, str]:
        """Old rule number → new rule number (a split maps to its first part)."""
        found = self._index.get("rule_map")
        if found is None:
            found = {}
            for m in self.rules:
                if m.old_ids and m.new_ids:
                    for old_id in m.old_ids:
                        found.setdefault(old_id, m.new_ids_of(old_id)[0])
            self._index["rule_map"] = found
        return found

    def counts(self) -> dict[str, int]:
        """How many rule matches of each kind (every kind present, zeros included)."""
        counter = Counter(m.kind for m in self.rules)
        return {kind: counter.get(kind, 0) for kind in KINDS}


_ALIGNMENT_STATE = ("old", "new", "rules", "examples", "glossary", "sweeps")
