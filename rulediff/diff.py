"""The edit script between two editions: what changed, word by word, and how much it matters.

:func:`diff` turns an :class:`~rulediff.align.Alignment` into an :class:`EditionDiff`, a
tree of small frozen records in the spirit of sqlglot's edit script:

* :class:`Change` — one rule (or glossary entry) match: its kind, ids, score,
  significance, the readable word diff (:class:`WordOp`), the items added to or
  removed from an enumerated list ("The planeswalker types are …"), the reference
  retargets (:class:`Retarget`, ``702.36d → 702.36e``) and its examples' changes
  (:class:`ExampleChange`);
* :class:`ContentsChange` — one line of the contents table added, removed, renumbered
  or retitled.

Significance: ``editorial`` (typography, recurring wording sweeps, a pure renumbering),
``references`` (only rule numbers inside references changed), ``substantive``
(anything else); ``none`` for unchanged rules.

The records are what renderers build on: :func:`as_dict` (the JSON document, schema in
``rulediff/schemas/diff.schema.json``) here; the text, Markdown and HTML changelogs in
:mod:`rulediff.render`.

>>> d = diff(old_edition, new_edition)               # doctest: +SKIP
>>> [c.kind for c in d.changes if c.new_ids == ("702.36b",)]  # doctest: +SKIP
['added']
"""

from __future__ import annotations

import difflib
import logging
import re
from collections import Counter
from dataclasses import dataclass
from typing import Any, Literal, get_args

from rapidfuzz import fuzz

from .align import (
    KINDS,
    Alignment,
    Domain,
    EditionRef,
    Kind,
    Match,
    align,
    references,
    typography_key,
    word_opcodes,
)
from .clauses import list_lead, lists
from .collector import collector_paused
from .lastused import LastUsed
from .model import Diagnostic, Edition
from .serialize import Out, to_data

log = logging.getLogger(__name__)

#: Version of the ``diff --format json`` document; bumped when its shape changes.
DIFF_FORMAT_VERSION = 1
Significance = Literal["none", "editorial", "references", "substantive"]
SIGNIFICANCES: tuple[Significance, ...] = get_args(Significance)
_RANK = {s: k for k, s in enumerate(SIGNIFICANCES)}
Op = Literal["equal", "delete", "insert"]


# --- records ---------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class WordOp:
    """A run of text that is kept, deleted or inserted. A replacement is a delete then an insert."""

    op: Op
    text: str


@dataclass(frozen=True, slots=True)
class Retarget:
    """A reference whose rule number changed: ``702.36d → 702.36e``."""

    old: str
    new: str
    follows_renumbering: bool
    """The old number's rule is now numbered ``new``: the reference was only kept up to date."""


@dataclass(frozen=True, slots=True)
class ListChange:
    """Items added to / removed from one enumerated list, named by its lead-in."""

    lead: str
    """The words that introduce the list: "The planeswalker types are"."""
    added: tuple[str, ...]
    removed: tuple[str, ...]


@dataclass(frozen=True, slots=True)
class ExampleChange:
    """One example of a rule added, removed, edited or moved to another rule."""

    kind: Kind
    old_id: str | None
    new_id: str | None
    score: float
    significance: Significance
    words: tuple[WordOp, ...]


def printed_labels(ids: tuple[str, ...], printings: tuple[int, ...]) -> tuple[str, ...]:
    """Ids with a later printing named: ``("702.30d (2nd printing)",)`` for a number the
    edition prints twice; the ids themselves when ``printings`` is empty (nearly always)."""
    if not printings:
        return ids
    return tuple(
        ident if printing == 1 else f"{ident} ({_ordinal(printing)} printing)"
        for ident, printing in zip(ids, printings, strict=True)
    )


def _ordinal(n: int) -> str:
    suffix = "th" if 10 <= n % 100 <= 20 else {1: "st", 2: "nd", 3: "rd"}.get(n % 10, "th")
    return f"{n}{suffix}"


@dataclass(frozen=True, slots=True)
class MovedText:
    """A sentence that went from one rule to another outside this change (or came in)."""

    old_id: str
    new_id: str
    text: str
    """The sentence as the new edition writes it."""


@dataclass(frozen=True, slots=True)
class GroupLink:
    """In a group of several old and several new rules: one old rule and a new rule its
    text went into."""

    old_id: str
    new_id: str


@dataclass(frozen=True, slots=True)
class Change:
    """One match of the alignment with its edit script."""

    domain: Domain
    """``rule`` (sections, headings, rules, subrules) or ``glossary``."""
    kind: Kind
    old_ids: tuple[str, ...]
    new_ids: tuple[str, ...]
    score: float
    significance: Significance
    words: tuple[WordOp, ...]
    """Old text → new text; readable: short unchanged islands are folded into the change."""
    list_added: tuple[str, ...] = ()
    list_removed: tuple[str, ...] = ()
    lists: tuple[ListChange, ...] = ()
    retargets: tuple[Retarget, ...] = ()
    examples: tuple[ExampleChange, ...] = ()
    flags: tuple[str, ...] = ()
    """``typography``, ``references``, ``sweep`` (see :class:`rulediff.align.Match`)."""
    sweeps: tuple[tuple[str, str], ...] = ()
    moved: bool = False
    ambiguous: bool = False
    alternatives: tuple[str, ...] = ()
    method: str = "none"
    section: str = ""
    """The section digit it belongs to (of the new number, else the old): grouping key."""
    moved_text: tuple[MovedText, ...] = ()
    """Sentences that left this change's old rules for other rules, or came into its new
    rules from other rules (see :attr:`rulediff.align.Match.moved_text`)."""
    restates: tuple[str, ...] = ()
    """An added rule's old rules whose sentences it restates while they live on in their
    own counterparts: copied, not moved (see :attr:`rulediff.align.Match.restates`)."""
    old_printings: tuple[int, ...] = ()
    """Which printing of its number each of ``old_ids`` is (1, 2 …), when one of them is
    a later printing of a number the edition prints twice; else empty. Without it two
    changes of such an edition can carry the same ids and not be told apart."""
    new_printings: tuple[int, ...] = ()
    """The same for ``new_ids``."""
    links: tuple[GroupLink, ...] = ()
    """On a split with several old rules: which old rule went into which new one
    (:attr:`rulediff.matches.Match.links`); empty when each went into each."""

    #: An item of ``changes`` in ``rulediff diff --format json`` (the schema's order).
    __json_fields__ = (
        "kind",
        "domain",
        "old_ids",
        "new_ids",
        "score",
        "significance",
        "words",
        "list_added",
        "list_removed",
        "lists",
        "retargets",
        "examples",
        "flags",
        Out("sweeps", lambda c: [{"old": a, "new": b} for a, b in c.sweeps]),
        "moved",
        "ambiguous",
        "alternatives",
        "method",
        "section",
        "moved_text",
        "restates",
        "old_printings",
        "new_printings",
        "links",
    )

    @property
    def old_id(self) -> str | None:
        return self.old_ids[0] if self.old_ids else None

    @property
    def new_id(self) -> str | None:
        return self.new_ids[0] if self.new_ids else None

    def old_labels(self) -> tuple[str, ...]:
        """``old_ids`` as a reader needs them: a later printing named (``702.30d (2nd
        printing)``)."""
        return printed_labels(self.old_ids, self.old_printings)

    def new_labels(self) -> tuple[str, ...]:
        return printed_labels(self.new_ids, self.new_printings)

    @property
    def interesting(self) -> bool:
        """Shown without ``--all``: anything but an unchanged rule with unchanged examples."""
        return self.kind != "unchanged" or bool(self.examples)

    def old_text(self) -> str:
        return "".join(w.text for w in self.words if w.op != "insert")

    def new_text(self) -> str:
        return "".join(w.text for w in self.words if w.op != "delete")


@dataclass(frozen=True, slots=True)
class ContentsChange:
    """A line of the contents table that changed."""

    kind: Kind
    """``added``, ``removed``, ``renumbered``, ``edited`` (retitled) or ``renumbered-edited``."""
    old_id: str | None
    new_id: str | None
    old_title: str | None
    new_title: str | None


@dataclass(frozen=True, slots=True)
class EditionDiff:
    """Everything that changed from ``old`` to ``new`` (unchanged rules included)."""

    old: EditionRef
    new: EditionRef
    changes: tuple[Change, ...]
    """Rule changes in the new edition's order (removed rules where they stood), then the
    glossary's."""
    contents: tuple[ContentsChange, ...]
    sweeps: tuple[tuple[str, str, int], ...]
    """Recurring wording changes over the pair: (old phrase, new phrase, how many texts)."""

    def shown(self, include_unchanged: bool = False) -> tuple[Change, ...]:
        return (
            self.changes if include_unchanged else tuple(c for c in self.changes if c.interesting)
        )

    def summary(self) -> dict[str, Any]:
        """Counts by kind (rules, glossary, examples, contents) and by significance."""
        rules = Counter(c.kind for c in self.changes if c.domain == "rule")
        glossary = Counter(c.kind for c in self.changes if c.domain == "glossary")
        examples = Counter(e.kind for c in self.changes for e in c.examples)
        contents = Counter(c.kind for c in self.contents)
        significance = Counter(c.significance for c in self.changes if c.interesting)
        return {
            "rules": {k: rules.get(k, 0) for k in KINDS if k != "renamed"},
            "glossary": {k: glossary.get(k, 0) for k in KINDS if k in glossary},
            "examples": {k: examples.get(k, 0) for k in KINDS if k in examples},
            "contents": {k: contents.get(k, 0) for k in KINDS if k in contents},
            "significance": {s: significance.get(s, 0) for s in SIGNIFICANCES if s != "none"},
            "moved": sum(1 for c in self.changes if c.moved),
            "ambiguous": sum(1 for c in self.changes if c.ambiguous),
            "sweeps": [{"old": a, "new": b, "count": n} for a, b, n in self.sweeps],
        }


# --- word diffs ---------------------------------------------------------------------------


#: Tokens of a readable diff: a rule number (702.36d) is one token, never split at its dot
#: (``702.~~36d~~36e``); otherwise the words, spaces and marks of :func:`align.tokenize`.
_DIFF_TOKEN = re.compile(r"\d+(?:\.\d+[a-z]*)+|\w+(?:['\u2019]\w+)*|\s+|[^\w\s]")


def word_diff(old: str, new: str, *, island: int = 2) -> tuple[WordOp, ...]:
    """The readable word-level diff of two texts (runs merged, islands folded).

    ``island``: unchanged runs of at most that many words between two changes are folded
    into them (0 for an enumerated list, whose unchanged items must stay unchanged).

    >>> for w in word_diff("It doesn't have morph.", "It doesn't have a morph ability."):
    ...     print(w.op, repr(w.text))
    equal "It doesn't have "
    delete 'morph'
    insert 'a morph ability'
    equal '.'
    """
    if old == new:
        return (WordOp("equal", old),) if old else ()
    if not old:
        return (WordOp("insert", new),)
    if not new:
        return (WordOp("delete", old),)
    a, b = _DIFF_TOKEN.findall(old), _DIFF_TOKEN.findall(new)
    out: list[WordOp] = []

    def emit(op: Op, text: str) -> None:
        if not text:
            return
        if out and out[-1].op == op:
            out[-1] = WordOp(op, out[-1].text + text)
        else:
            out.append(WordOp(op, text))

    for tag, i1, i2, j1, j2 in word_opcodes(a, b, island=island):
        if tag == "equal":
            emit("equal", "".join(a[i1:i2]))
            continue
        old_part, new_part = "".join(a[i1:i2]), "".join(b[j1:j2])
        # Whitespace shared by both ends of a replacement belongs to the unchanged text.
        lead = _common_space_prefix(old_part, new_part)
        trail = _common_space_suffix(old_part[len(lead) :], new_part[len(lead) :])
        emit("equal", lead)
        emit("delete", old_part[len(lead) : len(old_part) - len(trail)])
        emit("insert", new_part[len(lead) : len(new_part) - len(trail)])
        emit("equal", trail)
    return _reorder(out)


def _common_space_prefix(a: str, b: str) -> str:
    k = 0
    while k < len(a) and k < len(b) and a[k] == b[k] and a[k].isspace():
        k += 1
    return a[:k]


def _common_space_suffix(a: str, b: str) -> str:
    k = 0
    while k < len(a) and k < len(b) and a[-1 - k] == b[-1 - k] and a[-1 - k].isspace():
        k += 1
    return a[len(a) - k :] if k else ""


def _reorder(ops: list[WordOp]) -> tuple[WordOp, ...]:
    """Within a run of changes, every deletion before every insertion (one replacement)."""
    out: list[WordOp] = []
    k = 0
    while k < len(ops):
        if ops[k].op == "equal":
            out.append(ops[k])
            k += 1
            continue
        dels: list[str] = []
        ins: list[str] = []
        while k < len(ops) and ops[k].op != "equal":
            (dels if ops[k].op == "delete" else ins).append(ops[k].text)
            k += 1
        if dels:
            out.append(WordOp("delete", "".join(dels)))
        if ins:
            out.append(WordOp("insert", "".join(ins)))
    return tuple(out)


# --- enumerated lists ----------------------------------------------------------------------

_PAREN = re.compile(r"\s*\([^()]*\)")


def enumerated_lists(text: str) -> list[tuple[str, tuple[str, ...]]]:
    """The enumerated lists in a text (the clause grammar's ``list`` clauses): (lead-in,
    items), each item without its parentheses.

    >>> enumerated_lists("The spell types are Adventure, Arcane (see rule 715), and Trap.")
    [('The spell types are', ('Adventure', 'Arcane', 'Trap'))]
    """
    found: list[tuple[str, tuple[str, ...]]] = []
    for clause in lists(text):
        items = (_PAREN.sub("", item.value or "").strip() for item in clause.children)
        kept = tuple(item for item in items if item)
        if kept:
            found.append((list_lead(text, clause), kept))
    return found


def list_changes(old: str, new: str) -> tuple[ListChange, ...]:
    """Items added/removed per enumerated list present (by its lead-in) in both texts."""
    new_lists = enumerated_lists(new)
    if not new_lists:
        return ()  # most texts: then the old text need not be parsed at all
    old_lists = {typography_key(lead).casefold(): items for lead, items in enumerated_lists(old)}
    out: list[ListChange] = []
    for lead, items in new_lists:
        key = typography_key(lead).casefold()
        before = old_lists.pop(key, None)
        if before is None and old_lists:
            # The lead-in itself may change ("has three steps:" → "has four steps:").
            near = max(old_lists, key=lambda k: (fuzz.ratio(k, key), k))
            if fuzz.ratio(near, key) >= 75.0:
                before = old_lists.pop(near)
        if before is None:
            continue
        had = {typography_key(i).casefold() for i in before}
        has = {typography_key(i).casefold() for i in items}
        added = tuple(i for i in items if typography_key(i).casefold() not in had)
        removed = tuple(i for i in before if typography_key(i).casefold() not in has)
        if added or removed:
            out.append(ListChange(lead, added, removed))
    return tuple(out)


# --- references -------------------------------------------------------------------------------


def retargets(old: str, new: str, mapping: dict[str, str]) -> tuple[Retarget, ...]:
    """References whose number changed between two versions of one text, in order."""
    a, b = references(old), references(new)
    if a == b:
        return ()
    out: list[Retarget] = []
    matcher = difflib.SequenceMatcher(None, a, b, autojunk=False)
    for tag, i1, i2, j1, j2 in matcher.get_opcodes():
        if tag == "replace":
            for x, y in zip(a[i1:i2], b[j1:j2], strict=False):
                out.append(Retarget(x, y, mapping.get(x) == y))
    return tuple(dict.fromkeys(out))


# --- building ---------------------------------------------------------------------------------


def _significance(kind: Kind, flags: tuple[str, ...]) -> Significance:
    if kind == "unchanged":
        return "none"
    if kind == "editorial":
        return "editorial"
    if kind == "references-only":
        return "references"
    if kind in ("renumbered", "renamed"):
        return "references" if "references" in flags and "sweep" not in flags else "editorial"
    return "substantive"


class _Texts:
    """Text lookups for one edition (rules, sections, examples, glossary) by id.

    A number printed twice (2024-09-20 gives two rules 702.175) keeps every occurrence's
    text in ``repeated``, in document order: the id alone does not say which one a match
    is about, its printings do.
    """

    def __init__(self, edition: Edition) -> None:
        self.rules: dict[str, str] = {}
        self.examples: dict[str, str] = {}
        self.repeated: dict[str, list[str]] = {}
        for item in edition.body:
            key = str(item.id)
            if key in self.rules:
                text = item.title if item.id.is_section else item.text  # type: ignore[union-attr]
                self.repeated.setdefault(key, [self.rules[key]]).append(text)
                continue
            if item.id.is_section:
                self.rules[key] = item.title  # type: ignore[union-attr]
            else:
                self.rules[key] = item.text  # type: ignore[union-attr]
                for n, example in enumerate(item.examples, 1):  # type: ignore[union-attr]
                    self.examples[f"{key}#ex{n}"] = example.text
        self.glossary: dict[str, str] = {}
        for entry in edition.glossary:
            self.glossary.setdefault(entry.term, entry.text)

    def get(self, domain: Domain, ident: str) -> str:
        table = {"rule": self.rules, "example": self.examples, "glossary": self.glossary}[domain]
        return table.get(ident, "")


# Read-only lookups of one edition: kept for the next pair of a run (the site's).
_texts_of = LastUsed(_Texts)


def _owner(example_id: str) -> str:
    return example_id.split("#", 1)[0]


def _section_of(ids: tuple[str, ...]) -> str:
    if not ids:
        return ""
    head = ids[0].split(".", 1)[0]
    return head[0] if head[:1].isdigit() else ""


@collector_paused()
def diff(old: Edition, new: Edition, alignment: Alignment | None = None) -> EditionDiff:
    """The edit script from ``old`` to ``new`` (aligning them unless ``alignment`` is given)."""
    if alignment is None:
        alignment = align(old, new)
    mapping = alignment.rule_map()
    before, after = _texts_of(old), _texts_of(new)

    example_changes: dict[str, list[ExampleChange]] = {}
    for m in alignment.examples:
        if m.kind == "unchanged":
            continue
        old_text = before.get("example", m.old_ids[0]) if m.old_ids else ""
        new_text = after.get("example", m.new_ids[0]) if m.new_ids else ""
        change = ExampleChange(
            kind=m.kind,
            old_id=m.old_id,
            new_id=m.new_id,
            score=m.score,
            significance=_significance(m.kind, m.flags),
            words=word_diff(old_text, new_text),
        )
        # An example belongs to the rule it is in now (its old rule if it was removed);
        # one that moved to another rule says so by its old id.
        owner_old = _owner(m.old_ids[0]) if m.old_ids else None
        owner_new = _owner(m.new_ids[0]) if m.new_ids else None
        if owner_new is not None:
            example_changes.setdefault(f"new:{owner_new}", []).append(change)
        elif owner_old is not None:
            example_changes.setdefault(f"old:{owner_old}", []).append(change)

    occurrences = _repeated_occurrences(alignment.rules, before, after)
    changes: list[Change] = []
    for n, m in enumerate(alignment.rules):
        changes.append(
            _rule_change(m, before, after, mapping, example_changes, occurrences.get(n, {}))
        )
    for m in alignment.glossary:
        changes.append(_text_change(m, before.get, after.get, mapping, ()))
    return EditionDiff(
        old=alignment.old,
        new=alignment.new,
        changes=tuple(changes),
        contents=_contents_changes(old, new, mapping),
        sweeps=alignment.sweeps,
    )


def _repeated_occurrences(
    matches: tuple[Match, ...], before: _Texts, after: _Texts
) -> dict[int, dict[tuple[str, str], str]]:
    """Which occurrence of a number printed twice each match is about.

    The aligner tells the two rules under one number apart by where each is printed, and
    each match says which printing each of its ids is (``old_printings``,
    ``new_printings``). Returns, per match index, the text of each (side, id) that is a
    later printing of its number (a first printing is the number's own text).
    """
    chosen: dict[int, dict[tuple[str, str], str]] = {}
    for n, m in enumerate(matches):
        for side, ids, printings, texts in (
            ("old", m.old_ids, m.old_printings, before),
            ("new", m.new_ids, m.new_printings, after),
        ):
            for ident, printing in zip(ids, printings, strict=False):
                if printing > 1 and m.domain == "rule":
                    chosen.setdefault(n, {})[(side, ident)] = texts.repeated[ident][printing - 1]
    return chosen


def _rule_change(
    m: Match,
    before: _Texts,
    after: _Texts,
    mapping: dict[str, str],
    example_changes: dict[str, list[ExampleChange]],
    occurrence: dict[tuple[str, str], str],
) -> Change:
    examples: list[ExampleChange] = []
    for new_id in m.new_ids:
        examples.extend(example_changes.get(f"new:{new_id}", ()))
    # Examples removed with (or moved away from) an old rule are shown where it went.
    for old_id in m.old_ids:
        examples.extend(example_changes.get(f"old:{old_id}", ()))

    def get_old(domain: Domain, ident: str) -> str:
        return occurrence.get(("old", ident)) or before.get(domain, ident)

    def get_new(domain: Domain, ident: str) -> str:
        return occurrence.get(("new", ident)) or after.get(domain, ident)

    return _text_change(m, get_old, get_new, mapping, tuple(examples))


def _text_change(
    m: Match,
    get_old: Any,
    get_new: Any,
    mapping: dict[str, str],
    examples: tuple[ExampleChange, ...],
) -> Change:
    old_text = "\n".join(get_old(m.domain, i) for i in m.old_ids)
    new_text = "\n".join(get_new(m.domain, i) for i in m.new_ids)
    lists = (
        list_changes(old_text, new_text) if m.old_ids and m.new_ids and old_text != new_text else ()
    )
    # A list's items are diffed one by one: no unchanged item folded into a change.
    words = word_diff(old_text, new_text, island=0 if lists else 2)
    moved_refs = retargets(old_text, new_text, mapping) if m.old_ids and m.new_ids else ()
    significance = _significance(m.kind, m.flags)
    if significance == "editorial" and moved_refs:
        significance = "references"  # a sweep or a renumbering plus updated references
    for example in examples:
        if _RANK[example.significance] > _RANK[significance]:
            significance = example.significance
    return Change(
        domain=m.domain,
        kind=m.kind,
        old_ids=m.old_ids,
        new_ids=m.new_ids,
        score=m.score,
        significance=significance,
        words=words,
        list_added=tuple(dict.fromkeys(i for lc in lists for i in lc.added)),
        list_removed=tuple(dict.fromkeys(i for lc in lists for i in lc.removed)),
        lists=lists,
        retargets=moved_refs,
        examples=examples,
        flags=m.flags,
        sweeps=m.sweeps,
        moved=m.moved,
        ambiguous=m.ambiguous,
        alternatives=m.alternatives,
        method=m.method,
        section=_section_of(m.new_ids or m.old_ids) if m.domain == "rule" else "",
        moved_text=tuple(MovedText(a, b, t) for a, b, t in m.moved_text),
        restates=m.restates,
        old_printings=m.old_printings,
        new_printings=m.new_printings,
        links=tuple(GroupLink(a, b) for a, b in m.links),
    )


def _contents_changes(
    old: Edition, new: Edition, mapping: dict[str, str]
) -> tuple[ContentsChange, ...]:
    """Contents lines matched through the rule alignment (unnumbered parts by title)."""
    new_by_id = {str(e.id): e for e in new.contents if e.id is not None}
    new_plain = {typography_key(e.title).casefold(): e for e in new.contents if e.id is None}
    seen: set[int] = set()
    out: list[ContentsChange] = []
    for entry in old.contents:
        if entry.id is None:
            other = new_plain.get(typography_key(entry.title).casefold())
            if other is None:
                out.append(ContentsChange("removed", None, None, entry.title, None))
            else:
                seen.add(id(other))
            continue
        old_id = str(entry.id)
        target = mapping.get(old_id)
        other = new_by_id.get(target) if target is not None else None
        if other is None:
            out.append(ContentsChange("removed", old_id, None, entry.title, None))
            continue
        seen.add(id(other))
        retitled = typography_key(entry.title) != typography_key(other.title)
        if target == old_id and not retitled:
            continue
        kind: Kind = (
            ("renumbered-edited" if retitled else "renumbered") if target != old_id else "edited"
        )
        out.append(ContentsChange(kind, old_id, target, entry.title, other.title))
    for entry in new.contents:
        if id(entry) not in seen:
            out.append(
                ContentsChange(
                    "added", None, str(entry.id) if entry.id else None, None, entry.title
                )
            )
    return tuple(out)


# --- stale references across editions ------------------------------------------------------------


def stale_references(old: Edition, new: Edition, alignment: Alignment) -> list[Diagnostic]:
    """References in ``new`` still pointing at a number whose rule moved since ``old``.

    A reference is stale when the text citing it kept the old number (its counterpart
    in ``old`` cites the same number) while the rule that number named in ``old`` now has
    another number, and the number names something else now (or nothing). New text is
    never flagged: it may mean the number's new occupant. Rules, examples and glossary
    entries are checked; ``suggestion`` is the rule's current number.
    """
    mapping = alignment.rule_map()
    before, after = _Texts(old), _Texts(new)
    stays = {o for o, n in mapping.items() if o == n}
    out: list[Diagnostic] = []

    def check(
        domain: Domain, new_id: str, old_ids: tuple[str, ...], where: str, line: int | None
    ) -> None:
        cited_before = {n for i in old_ids for n in references(before.get(domain, i))}
        for number in dict.fromkeys(references(after.get(domain, new_id))):
            moved_to = mapping.get(number)
            if number not in cited_before or moved_to is None or moved_to == number:
                continue
            if number in stays:
                continue  # the number still names the same rule (a split kept it)
            now = new.rule(number)
            holder = f"now numbers {_short(now.text)!r}" if now is not None else "now names nothing"
            out.append(
                Diagnostic(
                    code="stale-reference",
                    severity="warning",
                    message=(
                        f"{where} still refers to {number}, the number of "
                        f"{_short(before.get('rule', number))!r} in the edition of "
                        f"{alignment.old.date}; that rule is {moved_to} now and {number} {holder}"
                    ),
                    line=line,
                    rule=new_id.split("#", 1)[0] if domain != "glossary" else None,
                    target=number,
                    suggestion=moved_to,
                )
            )

    lines = {str(r.id): r.line for r in new.rules}
    for m in alignment.rules:
        if m.old_ids and m.new_ids:
            for new_id in m.new_ids:
                check("rule", new_id, m.old_ids, f"rule {new_id}", lines.get(new_id))
    for m in alignment.examples:
        if m.old_ids and m.new_ids:
            owner = _owner(m.new_ids[0])
            check(
                "example", m.new_ids[0], m.old_ids, f"an example of rule {owner}", lines.get(owner)
            )
    glossary_lines = {e.term: e.line for e in new.glossary}
    for m in alignment.glossary:
        if m.old_ids and m.new_ids:
            term = m.new_ids[0]
            check("glossary", term, m.old_ids, f"glossary entry {term!r}", glossary_lines.get(term))
    return out


def _short(text: str, words: int = 8) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


# --- output -------------------------------------------------------------------------------------


def as_dict(d: EditionDiff, *, include_unchanged: bool = False) -> dict[str, Any]:
    """The JSON document of ``rulediff diff --format json`` (see the schema)."""
    return {
        "format": "rulediff-diff",
        "version": DIFF_FORMAT_VERSION,
        "old": d.old.date,
        "new": d.new.date,
        "old_sha256": d.old.sha256,
        "new_sha256": d.new.sha256,
        "summary": d.summary(),
        "changes": to_data(d.shown(include_unchanged)),
        "contents": to_data(d.contents),
    }


def diff_cached(
    old: Edition, new: Edition, *, use_cache: bool = True, alignment: Alignment | None = None
) -> EditionDiff:
    """:func:`diff` through the on-disk cache (the alignment is cached on its own too).

    ``alignment``: the pair's alignment when the caller already has it in memory.
    """
    from . import cache
    from .align import align_cached

    def compute() -> EditionDiff:
        return diff(old, new, alignment or align_cached(old, new, use_cache=use_cache))

    if not (old.sha256 and new.sha256):
        return compute()
    return cache.get_or_compute(
        "diff",
        f"{old.sha256[:32]}-{new.sha256[:32]}",
        compute,
        use_cache=use_cache,
    )
