"""The typed model of one Comprehensive Rules edition.

Frozen, slotted dataclasses. Every element keeps the exact text it was read from
(``label``, ``sep``, ``body``, ``trailing``) so :meth:`Edition.to_text` rebuilds the
ingested text byte for byte; the derived views (``text``, ``title``, ``id``) are what
the rest of the pipeline reads.
"""

from __future__ import annotations

import datetime as dt
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from functools import total_ordering
from typing import Literal

from .serialize import Out, is_empty, is_none, to_data

# Subrule letters skip l and o (they look like 1 and 0).
SUBRULE_LETTERS = "abcdefghijkmnpqrstuvwxyz"
# ASCII digits only: Arabic-Indic or fullwidth digits are not rule numbers.
_RULE_ID = re.compile(r"^(\d)$|^(\d{3})(?:\.(\d+)([a-z]{1,2})?)?$", re.ASCII)

#: A numbered sense of a glossary entry ("1. ", "2. ").
_SENSE_NUMBER = re.compile(r"\d+\.\s")


def letter_index(letters: str) -> int:
    """Position of a subrule suffix in the official sequence (a=0, k=9, m=10, …).

    Letters the CR never uses (l, o) get the position they would have in the plain
    alphabet, so ordering stays total; ``audit`` reports them.
    """
    value = 0
    for ch in letters:
        pos = SUBRULE_LETTERS.find(ch)
        if pos < 0:  # l or o: sort right after k or n
            pos = SUBRULE_LETTERS.find(chr(ord(ch) - 1)) + 0.5  # type: ignore[assignment]
        value = value * 30 + int(pos * 2) + 1
    return value


def next_letters(letters: str) -> str:
    """The suffix that follows ``letters`` (``k`` → ``m``, ``z`` → ``aa``)."""
    if letters and letters[-1] in SUBRULE_LETTERS and letters[-1] != "z":
        return letters[:-1] + SUBRULE_LETTERS[SUBRULE_LETTERS.index(letters[-1]) + 1]
    if not letters:
        return "a"
    return next_letters(letters[:-1]) + "a" if letters[-1] == "z" else letters + "a"


@total_ordering
@dataclass(frozen=True, slots=True)
class RuleId:
    """A rule number: section ``7``, rule ``702``, numbered rule ``702.36``, subrule ``702.36e``.

    Ordering follows the document: 7 < 700 < 702 < 702.1 < 702.1a < 702.2 < 702.10.
    """

    __json_fields__ = str  # written as its text: ``702.36e``

    rule: int
    """Three-digit rule (702), or the section digit (7) when ``is_section``."""
    number: int | None = None
    """The numbered rule inside ``rule`` (36 in 702.36e)."""
    letters: str | None = None
    """The subrule suffix (``e`` in 702.36e)."""
    is_section: bool = False

    @classmethod
    def parse(cls, text: str) -> RuleId:
        """Parse ``"7"``, ``"702"``, ``"702.36"``, ``"702.36e"``; trailing period allowed."""
        s = text.strip().rstrip(".")
        m = _RULE_ID.match(s)
        if not m:
            raise ValueError(f"not a rule number: {text!r}")
        if m.group(1):
            return cls(int(m.group(1)), is_section=True)
        number = int(m.group(3)) if m.group(3) is not None else None
        return cls(int(m.group(2)), number, m.group(4) or None)

    @classmethod
    def try_parse(cls, text: str) -> RuleId | None:
        try:
            return cls.parse(text)
        except ValueError:
            return None

    @property
    def section(self) -> int:
        """The section digit (7 for 702.36e)."""
        return self.rule if self.is_section else self.rule // 100

    @property
    def depth(self) -> int:
        """0 section, 1 rule, 2 numbered rule, 3 subrule."""
        if self.is_section:
            return 0
        if self.number is None:
            return 1
        return 2 if self.letters is None else 3

    @property
    def parent(self) -> RuleId | None:
        """702.36e → 702.36 → 702 → 7 → None."""
        if self.is_section:
            return None
        if self.number is None:
            return RuleId(self.rule // 100, is_section=True)
        if self.letters is None:
            return RuleId(self.rule)
        return RuleId(self.rule, self.number)

    def ancestors(self) -> Iterator[RuleId]:
        node = self.parent
        while node is not None:
            yield node
            node = node.parent

    def sort_key(self) -> tuple[int, int, int, int]:
        if self.is_section:
            return (self.rule * 100 - 1, -1, -1, -1)
        return (
            self.rule,
            -1 if self.number is None else self.number,
            -1 if self.letters is None else letter_index(self.letters),
            0,
        )

    def __lt__(self, other: object) -> bool:
        if not isinstance(other, RuleId):
            return NotImplemented
        return self.sort_key() < other.sort_key()

    def __str__(self) -> str:
        if self.is_section or self.number is None:
            return str(self.rule)
        return f"{self.rule}.{self.number}{self.letters or ''}"

    def __repr__(self) -> str:
        return f"RuleId({str(self)!r})"


@dataclass(frozen=True, slots=True)
class Diagnostic:
    """Something odd in the text. The parser records these; ``audit`` reports them."""

    code: str
    """Stable kebab-case code, e.g. ``malformed-number``, ``missing-glossary``."""
    severity: Literal["error", "warning", "info"]
    message: str
    line: int | None = None
    """1-based line in the normalized text, where it applies."""
    rule: str | None = None
    """The rule number it is about, as text."""
    target: str | None = None
    suggestion: str | None = None

    __json_fields__ = ("code", "severity", "rule", "target", "message", "suggestion", "line")
    as_dict = to_data


def unwrap(body: str) -> str:
    """Logical text of a raw body: hard-wrapped lines joined, paragraphs kept.

    A line that starts with whitespace (the old layout's indented paragraph) starts a
    new paragraph; any other line break inside a body is a hard wrap.
    """
    if "\n" not in body:
        return body.strip()
    paragraphs: list[str] = []
    for line in body.split("\n"):
        if not paragraphs or (line[:1].isspace() and line.strip()):
            paragraphs.append(line.strip())
        else:
            joined = paragraphs[-1].rstrip()
            piece = line.strip()
            paragraphs[-1] = f"{joined} {piece}" if joined and piece else joined + piece
    return "\n".join(p for p in paragraphs)


@dataclass(frozen=True, slots=True)
class Example:
    """An ``Example:`` paragraph attached to the rule (or glossary entry) above it."""

    label: str
    """``Example:`` as written."""
    body: str
    """Raw text after the label, hard wraps kept (``\\n``)."""
    line: int
    trailing: str = ""
    """Blank lines (or stray text) after the example, exact."""

    @property
    def text(self) -> str:
        return unwrap(self.body)

    def to_text(self) -> str:
        return f"{self.label}{self.body}\n{self.trailing}"


RuleKind = Literal["rule", "numbered", "subrule"]


@dataclass(frozen=True, slots=True)
class Rule:
    """One numbered item of the rules: ``702`` heading, ``702.36`` rule, ``702.36e`` subrule."""

    id: RuleId
    label: str
    """The number exactly as written: ``702.36e``, ``119.1d.``, ``702. 37b``, ``306.b``."""
    sep: str
    """Whitespace between the label and the body (usually one space)."""
    body: str
    """Raw text after the separator; continuation lines joined with ``\\n``."""
    line: int
    """1-based line of the number in the normalized text."""
    spacing: str = ""
    """Blank lines right after the rule's own text, exact."""
    examples: tuple[Example, ...] = ()
    trailing: str = ""
    """Stray text (and its blank lines) after the rule and its examples, exact."""
    title: str | None = None
    """For headings (``702. Keyword Abilities``, ``702.36. Morph``), the heading text."""

    @property
    def kind(self) -> RuleKind:
        return ("rule", "rule", "numbered", "subrule")[self.id.depth]  # type: ignore[return-value]

    @property
    def text(self) -> str:
        """The rule's own text, hard wraps undone (its examples excluded)."""
        return unwrap(self.body)

    @property
    def parent(self) -> RuleId | None:
        return self.id.parent

    def to_text(self) -> str:
        head = f"{self.label}{self.sep}{self.body}\n{self.spacing}"
        return head + "".join(e.to_text() for e in self.examples) + self.trailing


@dataclass(frozen=True, slots=True)
class Section:
    """A top-level section heading of the rules: ``7. Additional Rules``."""

    id: RuleId
    title: str
    line: int
    heading: str
    """The heading line as written (without its newline)."""
    trailing: str = ""

    def to_text(self) -> str:
        return f"{self.heading}\n{self.trailing}"


@dataclass(frozen=True, slots=True)
class ContentsEntry:
    """One line of the contents table: a section, a rule heading, or a named part."""

    id: RuleId | None
    """``None`` for ``Glossary``, ``Credits`` and other unnumbered parts."""
    title: str
    line: int


@dataclass(frozen=True, slots=True)
class GlossaryEntry:
    """A glossary term and its definition."""

    term: str
    lines: tuple[str, ...]
    """Definition lines, raw (numbered senses, indented paragraphs, See-rule lines)."""
    line: int
    """1-based line of the term."""
    trailing: str = ""

    @property
    def text(self) -> str:
        """The definition, hard wraps undone; senses and paragraphs on their own lines."""
        out: list[str] = []
        for raw in self.lines:
            starts_new = (
                not out
                or raw[:1].isspace()
                or _SENSE_NUMBER.match(raw) is not None
                or raw.startswith(("See ", "Example:"))
            )
            if starts_new:
                out.append(raw.strip())
            else:
                out[-1] = f"{out[-1].rstrip()} {raw.strip()}".strip()
        return "\n".join(out)

    @property
    def senses(self) -> tuple[str, ...]:
        """Numbered senses (``1. …``, ``2. …``) when the entry has them."""
        return tuple(s for s in self.text.split("\n") if _SENSE_NUMBER.match(s))

    def to_text(self) -> str:
        return "".join(f"{raw}\n" for raw in (self.term, *self.lines)) + self.trailing


BodyItem = Section | Rule


@dataclass(frozen=True, slots=True)
class Edition:
    """One parsed Comprehensive Rules edition."""

    effective_date: dt.date | None
    """From the text ("effective as of …" / "current as of …"), never the file name."""
    title: str
    preamble: str
    """Everything before the contents table (title, date line, introduction), exact."""
    contents_text: str
    """The contents table, exact."""
    contents: tuple[ContentsEntry, ...]
    body: tuple[BodyItem, ...]
    """Sections and rules in document order."""
    glossary_heading: str | None
    glossary: tuple[GlossaryEntry, ...]
    glossary_lead: str = ""
    """Blank lines between the Glossary heading and the first entry."""
    credits: str | None = None
    """Credits and everything after them, exact (``None`` if the edition has none)."""
    final_newline: bool = True
    diagnostics: tuple[Diagnostic, ...] = ()
    source: str = "<text>"
    sha256: str = ""
    encoding: str = ""
    line_endings: str = ""
    _index: dict[str, object] = field(default_factory=dict, repr=False, compare=False)

    # -- views -------------------------------------------------------------------
    @property
    def rules(self) -> tuple[Rule, ...]:
        """Every numbered item (headings included), in document order."""
        cached = self._index.get("rules")
        if cached is None:
            cached = tuple(item for item in self.body if isinstance(item, Rule))
            self._index["rules"] = cached
        return cached  # type: ignore[return-value]

    @property
    def sections(self) -> tuple[Section, ...]:
        cached = self._index.get("sections")
        if cached is None:
            cached = tuple(item for item in self.body if isinstance(item, Section))
            self._index["sections"] = cached
        return cached  # type: ignore[return-value]

    def _by_id(self) -> dict[str, Rule]:
        cached = self._index.get("by_id")
        if cached is None:
            cached = {}
            for rule in self.rules:
                cached.setdefault(str(rule.id), rule)  # first wins on duplicates
            self._index["by_id"] = cached
        return cached  # type: ignore[return-value]

    def _children(self) -> dict[str, list[Rule]]:
        cached = self._index.get("children")
        if cached is None:
            cached = {}
            for rule in self.rules:
                parent = rule.id.parent
                if parent is not None:
                    cached.setdefault(str(parent), []).append(rule)
            self._index["children"] = cached
        return cached  # type: ignore[return-value]

    def rule(self, rule_id: str | RuleId) -> Rule | None:
        """The rule with that number, or ``None``."""
        return self._by_id().get(str(rule_id).strip().rstrip("."))

    def __contains__(self, rule_id: object) -> bool:
        return isinstance(rule_id, (str, RuleId)) and self.rule(rule_id) is not None

    def children(self, rule_id: str | RuleId) -> tuple[Rule, ...]:
        """Direct children: 702 → 702.1, 702.2 …; 702.36 → 702.36a …; 7 → 700, 701 …"""
        return tuple(self._children().get(str(rule_id).strip().rstrip("."), ()))

    def descendants(self, rule_id: str | RuleId) -> tuple[Rule, ...]:
        out: list[Rule] = []
        for child in self.children(rule_id):
            out.append(child)
            out.extend(self.descendants(child.id))
        return tuple(out)

    def section(self, number: int | str) -> Section | None:
        for sec in self.sections:
            if str(sec.id) == str(number):
                return sec
        return None

    def glossary_entry(self, term: str) -> GlossaryEntry | None:
        """Case-insensitive lookup of a glossary term."""
        cached = self._index.get("glossary")
        if cached is None:
            cached = {}
            for entry in self.glossary:
                cached.setdefault(_term_key(entry.term), entry)
            self._index["glossary"] = cached
        return cached.get(_term_key(term))  # type: ignore[union-attr]

    @property
    def date_text(self) -> str:
        return self.effective_date.isoformat() if self.effective_date else "unknown"

    # -- round trip ----------------------------------------------------------------
    def to_text(self) -> str:
        """Rebuild the normalized text from the model: equal to the ingested text."""
        parts = [self.preamble, self.contents_text]
        parts.extend(item.to_text() for item in self.body)
        if self.glossary_heading is not None:
            parts.append(f"{self.glossary_heading}\n{self.glossary_lead}")
            parts.extend(entry.to_text() for entry in self.glossary)
        if self.credits is not None:
            parts.append(self.credits)
        text = "".join(parts)
        if not self.final_newline and text.endswith("\n"):
            text = text[:-1]
        return text

    def __getstate__(self) -> tuple:
        return tuple(getattr(self, f) for f in _EDITION_FIELDS if f != "_index")

    def __setstate__(self, state: tuple) -> None:
        names = [f for f in _EDITION_FIELDS if f != "_index"]
        for name, value in zip(names, state, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_index", {})


def _term_key(term: str) -> str:
    return " ".join(term.casefold().split())


_EDITION_FIELDS = tuple(Edition.__dataclass_fields__)


# --- clauses (the inside of one rule; see rulediff/clauses.py) ------------------------
ClauseKind = Literal[
    "text", "reference", "quote", "definition", "symbol", "number", "condition", "list", "item"
]


@dataclass(frozen=True, slots=True)
class Reference:
    """One rule (or section) a text cites: ``rule 702.36e``, one member of ``601.2a–h``."""

    target: str
    """The cited number, canonical (``702.36e``, ``7`` for section 7); as written when
    ``malformed``. A range contributes one reference per member (``601.2f``, ``601.2g`` …)."""
    text: str
    """The reference phrase as written, keyword included, title excluded:
    ``rule 702.36e``, ``rules 103.2, 103.3, and 103.4`` (shared by its members), ``see 805.8``."""
    start: int
    """Offset of ``text`` in the text it was read from (rule text, example, glossary)."""
    end: int
    title: str | None = None
    """The quoted title after the number (``State-Based Actions``), without the quotes and
    the punctuation the sentence put inside them; ``None`` when there is none."""
    kind: Literal["rule", "section"] = "rule"
    """``section`` after the word "section"; ``rule`` otherwise."""
    written: str = ""
    """The number (or range) exactly as written: ``601.2f–h``, ``b`` in ``608.3a and b``."""
    implied: bool = False
    """A member of a range that is not written out (``601.2g`` in ``601.2f–h``)."""
    malformed: bool = False
    """The number is not a well-formed rule number (``4091f``, ``419,8``)."""
    target_start: int = -1
    """Offset of the characters that write this target (``601.2a`` or the ``h`` of
    ``601.2a–h``) in the text it was read from; -1 for a member a range leaves unwritten."""
    target_end: int = -1
    bare: bool = False
    """Cited by its number alone, no keyword before it ("the steps described in 409.1a")."""

    #: The ``references`` item of ``rulediff parse --format json``.
    __json_fields__ = ("target", "text", "title", "start", "end")
    as_dict = to_data


@dataclass(frozen=True, slots=True)
class Clause:
    """A span of a rule's text with a kind: reference, quote, symbol, list, condition …

    The top-level clauses of a text tile it: they are contiguous, in order, and cover
    every character (what the grammar does not structure is a ``text`` clause).
    """

    kind: ClauseKind
    start: int
    """Offset of the first character in the text the clause was read from."""
    end: int
    """Offset just past the last character."""
    value: str | None = None
    """Kind-specific: a symbol's inside (``2/W``), a number's digits, a quote's inside,
    a definition's defined phrase (``Morph [cost]``), a list's subject or lead-in
    (``The planeswalker types``, ``Costs may include``), an item's text without its
    conjunction."""
    children: tuple[Clause, ...] = ()
    """Nested clauses: a quote's inside, a definition's two quotes, a list's items, the
    pieces of a condition or of an item (text between them is not repeated)."""
    references: tuple[Reference, ...] = ()
    """For ``reference`` clauses: one per target (ranges expanded)."""

    #: Compact JSON form: ``kind``, ``start``, ``end``, then only what is set.
    __json_fields__ = (
        "kind",
        "start",
        "end",
        Out("value", omit=is_none),
        Out("targets", lambda c: [ref.target for ref in c.references], omit=is_empty),
        Out("title", lambda c: c._title(), omit=is_none),
        Out("children", omit=is_empty),
    )
    as_dict = to_data

    def _title(self) -> str | None:
        """The last quoted title among the references."""
        titled = [ref.title for ref in self.references if ref.title is not None]
        return titled[-1] if titled else None

    def walk(self) -> Iterator[Clause]:
        """This clause and every clause nested in it, depth first."""
        yield self
        for child in self.children:
            yield from child.walk()
