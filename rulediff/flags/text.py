"""Searchable text of one edition, for the flag detectors.

Detectors ask questions of sentences ("which sentence says unused mana is lost?"). To
answer thirty such questions for 120 editions in seconds, the sentences of each scope
(rule texts, examples, glossary definitions) are joined into one string per scope and
searched with a single regex pass; a hit is mapped back to its sentence and rule.

Matching runs on a *normalized* copy (curly quotes and dashes straightened, the ``?``
that a lossy encoding left for an apostrophe repaired) of exactly the same length, so
the evidence we report is the edition's own text, character for character.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from ..model import Edition, RuleId

Scope = Literal["rules", "examples", "glossary"]

# One-for-one replacements (str.replace is much faster than str.translate here).
_REPLACE = (
    ("\u2019", "'"),
    ("\u2018", "'"),
    ("\u00b4", "'"),
    ("\u201c", '"'),
    ("\u201d", '"'),
    ("\u201e", '"'),
    ("\u2014", "-"),
    ("\u2013", "-"),
    ("\u00a0", " "),
    ("\u2212", "-"),
)
# "player?s", "don?t": a "?" standing for an apostrophe between letters.
_LOST_APOSTROPHE = re.compile(r"(?<=[A-Za-z])\?(?=[a-z])")
# A sentence ends at . ! ? (plus closing quotes/brackets) before a capital, quote,
# bracket or digit; a line break inside a text (a new paragraph) also ends one.
_SENTENCE_END = re.compile(r"[.!?][\"'\u201d\u2019)\]]*(?=\s+[\"'(\[\u201c\u2018]?[A-Z0-9])")

_VARIANT_HEADING = re.compile(
    r"variants?\b|multiplayer|two-headed|commander|\bEDH\b|vanguard|planechase|archenemy|"
    r"emperor|brawl|subgames?|conspiracy|limited range|teams?\b|oathbreaker",
    re.IGNORECASE,
)

_NEWLINE = re.compile("\n")

_NUMBER_WORDS = {
    "zero": 0,
    "one": 1,
    "two": 2,
    "three": 3,
    "four": 4,
    "five": 5,
    "six": 6,
    "seven": 7,
    "eight": 8,
    "nine": 9,
    "ten": 10,
    "eleven": 11,
    "twelve": 12,
    "thirteen": 13,
    "fourteen": 14,
    "fifteen": 15,
    "sixteen": 16,
    "seventeen": 17,
    "eighteen": 18,
    "nineteen": 19,
    "twenty": 20,
    "twenty-one": 21,
    "thirty": 30,
    "forty": 40,
    "fifty": 50,
    "sixty": 60,
    "hundred": 100,
}
NUMBER = r"(?:\d+|" + "|".join(sorted(_NUMBER_WORDS, key=len, reverse=True)) + r")"
"""A regex alternative matching a written number ("20", "twenty", "twenty-one")."""


def normalize(text: str) -> str:
    """Straighten quotes and dashes; same length as ``text`` (offsets stay valid)."""
    if not text.isascii():
        for old, new in _REPLACE:
            text = text.replace(old, new)
    # The regex tries every position of an edition's whole text; most have no "?" at all.
    return _LOST_APOSTROPHE.sub("'", text) if "?" in text else text


def number_value(word: str) -> int:
    """``"seven"`` → 7, ``"20"`` → 20."""
    word = word.strip().lower()
    return int(word) if word.isdigit() else _NUMBER_WORDS[word]


def split_sentences(text: str) -> list[str]:
    """Sentences of one text (a paragraph break always ends a sentence)."""
    out: list[str] = []
    for paragraph in text.split("\n"):
        start = 0
        norm = normalize(paragraph)
        for m in _SENTENCE_END.finditer(norm):
            piece = paragraph[start : m.end()].strip()
            if piece:
                out.append(piece)
            start = m.end()
        piece = paragraph[start:].strip()
        if piece:
            out.append(piece)
    return out


@dataclass(frozen=True, slots=True)
class Hit:
    """One sentence that matched a pattern."""

    where: str
    """Rule number (``704.5j``) or ``glossary:Term``."""
    sentence: str
    """The sentence exactly as the edition writes it."""
    norm: str
    """The normalized sentence the pattern matched."""
    match: re.Match[str]
    """The match inside ``norm``."""
    order: int = 0
    """The sentence's place in its scope (hits sort into document order by it)."""

    def group(self, index: int | str = 0) -> str:
        return self.match.group(index)


class _Blob:
    """Every sentence of one scope, one per line, with an index back to its rule.

    Built in one pass: the texts are joined by newlines, normalized (same length), and
    the whitespace character after each sentence end becomes a newline too, so every
    line of ``text`` is one sentence and offsets map straight back to the original.
    """

    def __init__(self, items: list[tuple[str, str]]) -> None:
        raw = "\n".join(text for _, text in items)
        norm = normalize(raw)
        lines: list[str] = []
        start = 0
        for m in _SENTENCE_END.finditer(norm):
            lines.append(norm[start : m.end()])
            start = m.end() + 1  # the whitespace the lookahead guaranteed becomes "\n"
        lines.append(norm[start:])
        self.text = "\n".join(lines)
        self.raw = raw
        lower = self.text.lower()
        self.lower = (
            lower
            if len(lower) == len(self.text)
            else "".join(c.lower() if len(c.lower()) == 1 else c for c in self.text)
        )
        # Where each item starts, to map a sentence back to its rule.
        self._item_starts: list[int] = []
        self._item_where: list[str] = []
        offset = 0
        for where, text in items:
            self._item_starts.append(offset)
            self._item_where.append(where)
            offset += len(text) + 1
        self.starts: list[int] = [0]
        self.starts.extend(m.end() for m in _NEWLINE.finditer(self.text))

    def _sentence(self, index: int) -> tuple[int, int]:
        start = self.starts[index]
        end = self.starts[index + 1] - 1 if index + 1 < len(self.starts) else len(self.text)
        return start, end

    def _hit(self, index: int, pattern: re.Pattern[str]) -> Hit | None:
        start, end = self._sentence(index)
        norm = self.text[start:end]
        local = pattern.search(norm.strip())
        if local is None:
            return None
        item = bisect.bisect_right(self._item_starts, start) - 1
        return Hit(self._item_where[item], self.raw[start:end].strip(), norm.strip(), local, index)

    def search(self, pattern: re.Pattern[str], key: tuple[str, ...] = ()) -> Iterator[Hit]:
        if key:
            indices: set[int] = set()
            for word in key:
                pos = self.lower.find(word)
                while pos >= 0:
                    indices.add(bisect.bisect_right(self.starts, pos) - 1)
                    pos = self.lower.find(word, pos + 1)
            candidates: Iterable[int] = sorted(indices)
        else:
            candidates = sorted(
                {
                    bisect.bisect_right(self.starts, m.start()) - 1
                    for m in pattern.finditer(self.text)
                }
            )
        for index in candidates:
            hit = self._hit(index, pattern)
            if hit is not None:
                yield hit


class EditionText:
    """The text of one edition as detectors see it: sentences by rule and scope."""

    def __init__(self, edition: Edition) -> None:
        self.edition = edition
        rules: list[tuple[str, str]] = []
        examples: list[tuple[str, str]] = []
        self.rule_texts: dict[str, str] = {}
        self.titles: dict[str, str] = {}
        for rule in edition.rules:
            rid = str(rule.id)
            text = rule.text
            if rule.title is not None:
                self.titles.setdefault(rid, rule.title)
            rules.append((rid, text))
            self.rule_texts[rid] = (
                f"{self.rule_texts[rid]}\n{text}" if rid in self.rule_texts else text
            )
            for example in rule.examples:
                examples.append((rid, example.text))
        glossary = [(f"glossary:{g.term}", g.text) for g in edition.glossary]
        self._items: dict[Scope, list[tuple[str, str]]] = {
            "rules": rules,
            "examples": examples,
            "glossary": glossary,
        }
        self._blobs: dict[Scope, _Blob] = {}
        self._variant: dict[str, bool] = {}
        self._sba: tuple[str, ...] | None = None
        self._below: dict[str, tuple[str, ...]] = {}
        self._placed: dict[str, frozenset[str]] | None = None
        self._sentences: dict[str, tuple[str, ...]] = {}
        self._chains: dict[tuple[bool, int, int | None, str | None], tuple[str, ...]] = {}

    def blob(self, scope: Scope) -> _Blob:
        found = self._blobs.get(scope)
        if found is None:
            found = self._blobs[scope] = _Blob(self._items[scope])
        return found

    def find(
        self, pattern: str | re.Pattern[str], *scopes: Scope, key: str | tuple[str, ...] = ()
    ) -> list[Hit]:
        """Every sentence (in ``scopes``, default rules) matching ``pattern`` (case-insensitive).

        ``key``: lowercase words of which every matching sentence contains at least one;
        only those sentences are tried (a plain substring search is ~50x faster than a
        regex pass over the whole edition).
        """
        compiled = _compile(pattern)
        keys = (key,) if isinstance(key, str) else key
        out: list[Hit] = []
        for scope in scopes or ("rules",):
            out.extend(self.blob(scope).search(compiled, keys))
        return out

    def mentions(
        self, pattern: str | re.Pattern[str], *scopes: Scope, key: str | tuple[str, ...] = ()
    ) -> bool:
        """Whether any sentence in ``scopes`` (default: rules) matches ``pattern``."""
        for _hit in (
            h
            for s in scopes or ("rules",)
            for h in self.blob(s).search(_compile(pattern), (key,) if isinstance(key, str) else key)
        ):
            return True
        return False

    def texts(self, scope: Scope) -> list[tuple[str, str]]:
        """``(where, text)`` of every item of a scope, in document order."""
        return list(self._items[scope])

    def rule_text(self, rule_id: str) -> str:
        """The normalized text of a rule (all paragraphs), or ``""``."""
        return normalize(self.rule_texts.get(rule_id, ""))

    def sentences_of(self, rule_id: str) -> list[str]:
        """The sentences of one rule, as written."""
        found = self._sentences.get(rule_id)
        if found is None:
            found = self._sentences[rule_id] = tuple(
                split_sentences(self.rule_texts.get(rule_id, ""))
            )
        return list(found)

    def sba_items(self) -> tuple[str, ...]:
        """The items of the list of state-based actions (or effects), in document order.

        Found by structure: the subrules of the rule that introduces the list ("… are as
        follows:"), whatever its number (420.5 in older editions, 704.5 since 2009).
        """
        if self._sba is None:
            items: list[str] = []
            intro = re.compile(r"\bstate-based (?:effects|actions) are(?: as follows)?:", re.I)
            for rule in self.edition.rules:
                # Only a text holding "tate" can hold "state-based": the regex, which
                # tries every position, is run on those few.
                if "tate" in rule.text.lower() and intro.search(normalize(rule.text)):
                    items.extend(str(c.id) for c in self.edition.children(rule.id))
            self._sba = tuple(dict.fromkeys(items))
        return self._sba

    def parent_of(self, rule_id: str) -> str:
        """The rule (or section, as ``"3"``) a rule sits under; ``""`` at the top."""
        rid = RuleId.try_parse(rule_id)
        parent = rid.parent if rid is not None else None
        if parent is None:
            return ""
        return str(parent.rule) if parent.is_section else str(parent)

    def headings(self, where: str) -> list[str]:
        """Titles of the rule headings and section above a rule (nearest first)."""
        rid = RuleId.try_parse(where)
        return [] if rid is None else list(self._chain(rid))

    def _chain(self, node: RuleId) -> tuple[str, ...]:
        """The titles of ``node`` and every heading above it (memoized along the way)."""
        key = (node.is_section, node.rule, node.number, node.letters)
        found = self._chains.get(key)
        if found is None:
            if node.is_section:
                section = self.edition.section(node.rule)
                own = (section.title,) if section is not None else ()
            else:
                title = self.titles.get(str(node))
                own = (title,) if title else ()
            parent = node.parent
            found = self._chains[key] = own + (self._chain(parent) if parent else ())
        return found

    def below(self, titles: str) -> tuple[str, ...]:
        """The rules, in document order, that sit below a heading (their own title, a
        rule above them, or their section) whose whole title is ``titles`` (a regex):
        the place where a topic is written ("Starting the Game", "Zones"…)."""
        found = self._below.get(titles)
        if found is None:
            if self._placed is None:
                plain: dict[str, str] = {}  # each title normalized once
                self._placed = {
                    rid: frozenset(
                        plain.get(h) or plain.setdefault(h, normalize(h).strip().lower())
                        for h in self.headings(rid)
                    )
                    for rid in self.rule_texts
                }
            pattern = re.compile(titles, re.IGNORECASE)
            every = set().union(*self._placed.values())
            named = {title for title in every if pattern.fullmatch(title)}
            found = self._below[titles] = tuple(
                rid for rid, above in self._placed.items() if above & named
            )
        return found

    def in_variant(self, where: str) -> bool:
        """Whether the rule sits under a heading about a variant or multiplayer play."""
        found = self._variant.get(where)
        if found is None:
            found = self._variant[where] = any(
                _VARIANT_HEADING.search(title) for title in self.headings(where)
            )
        return found


_CACHE: dict[str, re.Pattern[str]] = {}


def _compile(pattern: str | re.Pattern[str]) -> re.Pattern[str]:
    if isinstance(pattern, re.Pattern):
        return pattern
    found = _CACHE.get(pattern)
    if found is None:
        found = _CACHE[pattern] = re.compile(pattern, re.IGNORECASE | re.MULTILINE)
    return found
