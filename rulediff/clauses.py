"""The inside of one rule: references, symbols, quotations, definitions, lists, conditions.

A second pass after the document grammar: the clause grammar (``grammars/clause.lark``,
LALR, contextual lexer) reads the text of each rule, example and glossary definition
and gives back :class:`~rulediff.model.Clause` spans with character offsets. The grammar
is permissive — what it cannot structure is a ``text`` span — so no real text fails.

>>> [r.target for r in references("See rules 601.2f–h and rule 704, “State-Based Actions.”")]
['601.2f', '601.2g', '601.2h', '704']

Parsing every text of a modern edition takes a fraction of a second; the result is
cached by the edition's sha256 (:func:`edition_clauses`).
"""

from __future__ import annotations

import logging
import re
import threading
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from functools import cache, lru_cache
from typing import Any

from lark import Lark, Token, Transformer, UnexpectedInput

from .model import SUBRULE_LETTERS, Clause, Edition, Reference, Rule, RuleId, next_letters
from .parse import grammar_path
from .serialize import to_data

log = logging.getLogger(__name__)

#: A range longer than this is kept as its two ends (a slip, not 500 references).
MAX_RANGE = 100

#: Nouns that introduce a list ("The planeswalker types are A, B, and C."): the grammar's
#: ``@LIST_NOUNS@`` and the pre-pass's list trigger are both built from this one tuple.
LIST_NOUNS = (
    "types",
    "supertypes",
    "subtypes",
    "words",
    "colors",
    "symbols",
    "characteristics",
    "designations",
    "names",
    "vowels",
)

_SEE_PREFIX = re.compile(r"[Ss]ee\s+(?:also\s+)?(?=(?:[Ss]ub)?[Rr]ule|[Ss]ection)")
_TITLE_QUOTES = re.compile(r"^,?\s*[“\"?](.*)[”\"?]$", re.DOTALL)
_TITLE_TAIL = re.compile(r"[\s.,;:]+$")
_CONJUNCTION = re.compile(r"^(?:and/or|and|or)\s+")
_LEAD_WORDS = re.compile(r"((?:[^\W\d_][\w’'-]*\s+){1,3})$")
_SUBJECT_TAIL = re.compile(r"\s+are\s+.*$", re.DOTALL)
#: A list introduced by "are"/"include(s)"/a colon after any words, or "… as follows:".
_LEAD_IN_INTRO = re.compile(r"(?:are|includes?|is)\b|:")
_SENTENCE_BREAK = re.compile(r"\.\s+|\n")


# --- the transformer (inline: it runs while the LALR parser reduces) --------------------
def _start(item: Clause | Token) -> int:
    return item.start if isinstance(item, Clause) else item.start_pos  # type: ignore[return-value]


def _end(item: Clause | Token) -> int:
    return item.end if isinstance(item, Clause) else item.end_pos  # type: ignore[return-value]


def _clauses(items: Iterable[Any]) -> tuple[Clause, ...]:
    return tuple(item for item in items if isinstance(item, Clause))


@dataclass(frozen=True, slots=True)
class _Target:
    """One written target of a reference: ``702.36e``, ``b``, ``601.2f–h``."""

    first: Token
    last: Token | None


class ClauseTransformer(Transformer):
    """Tree of the clause grammar → :class:`Clause` objects (one method per rule).

    It runs inline while the LALR parser reduces, and needs the text being parsed (the
    spaces between tokens are not tokens): :class:`ClauseParser` sets :attr:`text` for
    each parse.
    """

    def __init__(self) -> None:
        super().__init__()
        self.text = ""

    def start(self, items: list[Any]) -> tuple[Clause, ...]:
        return tile(_clauses(items), 0, len(self.text))

    def target(self, items: list[Token]) -> _Target:
        return _Target(items[0], items[2] if len(items) == 3 else None)

    bare_target = target

    def reference(self, items: list[Any]) -> Clause:
        keyword: Token | None = items[0] if isinstance(items[0], Token) else None
        title_tok = (
            items[-1] if isinstance(items[-1], Token) and items[-1].type == "TITLE" else None
        )
        targets = [item for item in items if isinstance(item, _Target)]
        if keyword is None:  # a bare number: the reference is the number (or range) alone
            start = targets[0].first.start_pos
        else:
            see = _SEE_PREFIX.match(keyword) if keyword.type != "SEE_KW" else None
            start = keyword.start_pos + (see.end() if see else 0)
        last = targets[-1].last or targets[-1].first
        end = last.end_pos
        text = self.text[start:end]
        kind = "section" if keyword is not None and keyword.type == "SECTION_KW" else "rule"
        title = _title(title_tok) if title_tok is not None else None
        refs: list[Reference] = []
        previous: RuleId | None = None
        for i, tgt in enumerate(targets):
            members, previous = _expand(tgt, previous)
            written = self.text[tgt.first.start_pos : (tgt.last or tgt.first).end_pos]
            for k, (target, implied, malformed) in enumerate(members):
                # Where this member is written: the first token, or the range's last one
                # (the members in between are not written: no span).
                token = tgt.first if k == 0 else tgt.last if k == len(members) - 1 else None
                refs.append(
                    Reference(
                        target=target,
                        text=text,
                        start=start,
                        end=end,
                        title=title if i == len(targets) - 1 else None,
                        kind=kind,
                        written=written,
                        implied=implied,
                        malformed=malformed,
                        target_start=token.start_pos if token is not None else -1,
                        target_end=token.end_pos if token is not None else -1,
                        bare=keyword is None,
                    )
                )
        clause_end = title_tok.end_pos if title_tok is not None else end
        clause_start = keyword.start_pos if keyword is not None else start
        return Clause("reference", clause_start, clause_end, references=tuple(refs))

    def quote(self, items: list[Token]) -> Clause:
        return _quote(items[0])

    def definition(self, items: list[Token]) -> Clause:
        left, right = _quote(items[0]), _quote(items[2])
        return Clause("definition", left.start, right.end, left.value, (left, right))

    def symbol(self, items: list[Token]) -> Clause:
        tok = items[0]
        return Clause("symbol", tok.start_pos, tok.end_pos, tok[1:-1])  # type: ignore[arg-type]

    def number(self, items: list[Token]) -> Clause:
        tok = items[0]
        return Clause("number", tok.start_pos, tok.end_pos, str(tok))  # type: ignore[arg-type]

    def condition(self, items: list[Any]) -> Clause:
        body = (
            items[:-1]
            if isinstance(items[-1], Token) and items[-1].type in ("PLAIN_COMMA", "PERIOD")
            else items
        )
        return Clause("condition", _start(items[0]), _end(body[-1]), children=_clauses(body))

    open_condition = condition

    def item(self, items: list[Any]) -> Clause:
        return _item(self.text, _start(items[0]), _end(items[-1]), _clauses(items))

    def list(self, items: list[Any]) -> Clause:
        intro: Token = items[0]
        body = items[:-1] if isinstance(items[-1], Token) and items[-1].type == "PERIOD" else items
        items_ = (item for item in body[1:] if isinstance(item, Clause))
        children = tuple(line for item in items_ for line in _lines(self.text, item))
        subject = _subject(self.text, intro, children[0].start if children else intro.end_pos)  # type: ignore[arg-type]
        return Clause("list", intro.start_pos, _end(body[-1]), subject, children)

    open_list = list


def _item(text: str, start: int, end: int, children: tuple[Clause, ...]) -> Clause:
    """An item of a list: its text without surrounding space and leading "and"/"or"."""
    while start < end and text[start].isspace():
        start += 1
    while end > start and text[end - 1].isspace():
        end -= 1
    return Clause("item", start, end, _CONJUNCTION.sub("", text[start:end]), children)


def _lines(text: str, item: Clause) -> tuple[Clause, ...]:
    """An item that runs over line breaks is an item a line ("… as follows:⏎A⏎B⏎C")."""
    if "\n" not in text[item.start : item.end]:
        return (item,)
    cuts = [
        i
        for i in range(item.start, item.end)
        if text[i] == "\n" and not any(c.start <= i < c.end for c in item.children)
    ]
    lines = zip([item.start, *(i + 1 for i in cuts)], [*cuts, item.end], strict=True)
    out = (
        _item(text, a, b, tuple(c for c in item.children if a <= c.start and c.end <= b))
        for a, b in lines
    )
    return tuple(line for line in out if line.end > line.start)


def _subject(text: str, intro: Token, first_item: int) -> str | None:
    """What a list enumerates: "The planeswalker types" (the words before "are"); for a
    list without such a noun, its lead-in ("Costs may include", "… is as follows:")."""
    if _LEAD_IN_INTRO.match(intro):
        return lead_in(text, intro.start_pos, first_item) or None  # type: ignore[arg-type]
    noun = _SUBJECT_TAIL.sub("", str(intro)).strip()
    before = text[max(0, intro.start_pos - 80) : intro.start_pos]  # type: ignore[operator]
    lead = _LEAD_WORDS.search(before)
    return f"{lead.group(1)}{noun}" if lead else noun


def lead_in(text: str, start: int, end: int) -> str:
    """The words of ``text`` from the start of the sentence holding ``start`` up to ``end``.

    >>> lead_in("Cogs spin. The cog types are Big, Small, and Tiny.", 21, 29)
    'The cog types are'
    """
    at = 0
    for m in _SENTENCE_BREAK.finditer(text, 0, start):
        at = m.end()
    return text[at:end].strip()


def list_lead(text: str, clause: Clause) -> str:
    """The words that introduce a ``list`` clause of ``text``, from the start of its
    sentence to its first item: "The planeswalker types are", "Costs may include"."""
    return lead_in(text, clause.start, clause.children[0].start if clause.children else clause.end)


def _title(tok: Token) -> str:
    m = _TITLE_QUOTES.match(str(tok))
    inner = m.group(1) if m else str(tok)
    return _TITLE_TAIL.sub("", inner.strip())


def _quote(tok: Token) -> Clause:
    """A quotation, with the clauses of its inside (offsets in the outer text)."""
    inner = str(tok)[1:-1]
    offset = tok.start_pos + 1  # type: ignore[operator]
    children = tuple(
        shift(clause, offset) for clause in parse_clauses(inner) if clause.kind != "text"
    )
    return Clause("quote", tok.start_pos, tok.end_pos, inner, children)  # type: ignore[arg-type]


# --- targets and ranges -------------------------------------------------------------------
def _rule_id(written: str, previous: RuleId | None) -> tuple[RuleId | None, bool]:
    """The rule a written target names, and whether it was malformed."""
    if written.isalpha():  # "b" in "608.3a and b": a subrule of the rule before
        if previous is not None and previous.number is not None:
            return RuleId(previous.rule, previous.number, written), False
        return None, True
    rule_id = RuleId.try_parse(written)
    if rule_id is not None:
        return rule_id, False
    repaired = RuleId.try_parse(written.replace(",", "."))
    return repaired, True


def _expand(
    tgt: _Target, previous: RuleId | None
) -> tuple[list[tuple[str, bool, bool]], RuleId | None]:
    """Members of one written target: ``[(target, implied, malformed)]``, and the last id."""
    first, malformed = _rule_id(str(tgt.first), previous)
    if first is None:
        return [(str(tgt.first), False, True)], previous
    if tgt.last is None:
        return [(str(first), False, malformed)], first
    last_written = str(tgt.last)
    members = _range(first, last_written)
    if members is None:  # endpoints only
        last, bad = _rule_id(last_written, first)
        out = [(str(first), False, malformed)]
        if last is not None:
            out.append((str(last), False, bad))
            return out, last
        out.append((last_written, False, True))
        return out, first
    out = [(str(m), 0 < i < len(members) - 1, malformed) for i, m in enumerate(members)]
    return out, members[-1]


def _range(first: RuleId, last: str) -> list[RuleId] | None:
    """Every member of ``first``–``last`` in order, or ``None`` if it cannot be listed."""
    if last.isalpha():  # 601.2f–h
        if first.number is None:
            return None
        return _letter_range(first, first.letters or "a", last)
    if "." not in last and first.number is not None and first.letters is None and len(last) <= 2:
        # 119.7–8: numbered rules of the same rule
        return _number_range(first.rule, first.number, int(last))
    end = RuleId.try_parse(last)
    if end is None or end.is_section or first.is_section:
        return None
    if first.number is None and end.number is None:  # rules 800–810
        if not 0 <= end.rule - first.rule < MAX_RANGE:
            return None
        return [RuleId(n) for n in range(first.rule, end.rule + 1)]
    if first.rule != end.rule or first.number is None or end.number is None:
        return None
    if first.letters is None and end.letters is None:  # 903.3–903.5
        return _number_range(first.rule, first.number, end.number)
    if first.number == end.number and first.letters and end.letters:  # 409.1a–409.1f
        return _letter_range(first, first.letters, end.letters)
    return None


def _number_range(rule: int, low: int, high: int) -> list[RuleId] | None:
    if not 0 <= high - low < MAX_RANGE:
        return None
    return [RuleId(rule, n) for n in range(low, high + 1)]


def _letter_range(first: RuleId, low: str, high: str) -> list[RuleId] | None:
    if any(ch not in SUBRULE_LETTERS for ch in low + high) and low != high:
        # A range written with l or o cannot be walked in the official sequence.
        if len(low) != 1 or len(high) != 1 or low > high:
            return None
        letters = [chr(c) for c in range(ord(low), ord(high) + 1)]
        return [RuleId(first.rule, first.number, x) for x in letters]
    out: list[RuleId] = []
    current = low
    while len(out) < MAX_RANGE:
        out.append(RuleId(first.rule, first.number, current))
        if current == high:
            return out
        current = next_letters(current)
    return None


# --- the parser ----------------------------------------------------------------------------
@cache
def clause_grammar() -> str:
    """``grammars/clause.lark`` with :data:`LIST_NOUNS` filled in."""
    text = grammar_path("clause.lark").read_text(encoding="utf-8")
    return text.replace("@LIST_NOUNS@", "|".join(map(re.escape, LIST_NOUNS)))


class ClauseParser:
    """The clause grammar (LALR, contextual lexer) with its transformer applied inline.

    Building it takes a moment, so each thread keeps one (:func:`clause_parser`); a parse
    hands the transformer the text it reads.
    """

    def __init__(self) -> None:
        self.transformer = ClauseTransformer()
        self.lark = Lark(
            clause_grammar(),
            parser="lalr",
            lexer="contextual",
            transformer=self.transformer,
            maybe_placeholders=False,
        )

    def parse(self, text: str) -> tuple[Clause, ...]:
        # A quotation's inside is parsed from within a parse: the outer text comes back.
        outer, self.transformer.text = self.transformer.text, text
        try:
            return self.lark.parse(text)  # type: ignore[return-value]
        finally:
            self.transformer.text = outer


_per_thread = threading.local()


def clause_parser() -> ClauseParser:
    """This thread's clause parser (built on first use)."""
    parser = getattr(_per_thread, "parser", None)
    if parser is None:
        parser = _per_thread.parser = ClauseParser()
    return parser


def tile(clauses: Iterable[Clause], start: int, end: int) -> tuple[Clause, ...]:
    """``clauses`` (in order, not overlapping) with ``text`` clauses filling every gap."""
    out: list[Clause] = []
    at = start
    for clause in clauses:
        if clause.start > at:
            out.append(Clause("text", at, clause.start))
        out.append(clause)
        at = clause.end
    if end > at:
        out.append(Clause("text", at, end))
    return tuple(out)


def shift(clause: Clause, delta: int) -> Clause:
    """The same clause with every offset moved by ``delta`` (children and references too)."""
    return Clause(
        clause.kind,
        clause.start + delta,
        clause.end + delta,
        clause.value,
        tuple(shift(child, delta) for child in clause.children),
        tuple(
            Reference(
                r.target,
                r.text,
                r.start + delta,
                r.end + delta,
                r.title,
                r.kind,
                r.written,
                r.implied,
                r.malformed,
                r.target_start + delta if r.target_start >= 0 else -1,
                r.target_end + delta if r.target_end >= 0 else -1,
                r.bare,
            )
            for r in clause.references
        ),
    )


def parse_clauses(text: str) -> tuple[Clause, ...]:
    """The top-level clauses of one text (they tile it). Never raises on any text.

    >>> [c.kind for c in parse_clauses("Pay {2}{W}. See rule 601.")]
    ['text', 'symbol', 'symbol', 'text', 'reference', 'text']
    """
    if not text:
        return ()
    return tile(_structures(text, _TRIGGER), 0, len(text))


def _structures(text: str, trigger: re.Pattern[str], *, from_trigger: bool = False) -> list[Clause]:
    """The clauses other than ``text`` in the sentences of ``text`` that match ``trigger``.

    ``from_trigger``: parse each sentence from its first trigger on, unless a quotation
    is open there (what comes before a reference keyword cannot change the reference,
    but a quotation around it makes it part of the quotation).
    """
    found: list[Clause] = []
    for start, end in _parsed_spans(text, trigger, from_trigger=from_trigger):
        found.extend(
            c if start == 0 else shift(c, start)
            for c in _parse(text[start:end])
            if c.kind != "text"
        )
    return found


def _parsed_spans(
    text: str, trigger: re.Pattern[str], *, from_trigger: bool = False
) -> list[tuple[int, int]]:
    """The spans of ``text`` that :func:`_structures` parses (see there)."""
    spans = segments(text, trigger)
    if from_trigger:
        for k, (start, end) in enumerate(spans):
            first = trigger.search(text, start, end)
            if first is not None and not _QUOTES.search(text, start, first.start()):
                spans[k] = (first.start(), end)
    return spans


def parse_whole(text: str) -> tuple[Clause, ...]:
    """:func:`parse_clauses` without the sentence pre-pass: the grammar over all of ``text``."""
    return _parse(text) if text else ()


@lru_cache(maxsize=1 << 15)
def _parse(text: str) -> tuple[Clause, ...]:
    """One parse of the grammar, memoized: the same sentence recurs in many rules and in
    every edition (clauses are immutable, so a memoized parse is shared safely)."""
    try:
        return clause_parser().parse(text)
    except UnexpectedInput as exc:  # the grammar is meant to accept everything
        log.warning("clause grammar could not structure %r (%s); kept as text", text[:60], exc)
        return (Clause("text", 0, len(text)),)


# Why a pre-pass: about half of a modern edition's sentences contain nothing the grammar
# structures (no digit, quote, brace, "If", list). Every structure ends at a sentence end
# (". ") outside quotes, so sentences can be parsed apart, and those without a trigger
# need no parse at all. The pre-pass never changes a result (tests compare it with
# parse_whole over the corpus); where quotes are unbalanced or written "?", it steps back
# and the whole text is parsed.
#: What can start a list (the three forms of ``LIST_INTRO``): the sentences :func:`lists`
#: parses.
_LIST_TRIGGER = re.compile(
    r"\b(?:is|are)\s+as\s+follows:|\b(?:" + "|".join(LIST_NOUNS) + r")\s+are\s"
    r"|(?:\b(?:are|includes?)|:)\s[^\n]*?,\s*(?:and|or)\s"
)
_TRIGGER = re.compile(r"[\d{“”\"?]|\bIf\b|" + _LIST_TRIGGER.pattern)
#: What can start a reference (the keywords of ``reference`` in the grammar): the sentences
#: :func:`references` parses. The same matches as
#: ``\b(?:(?:[Ss]ub)?[Rr]ules?|[Ss]ections?|[Ss]ee)\s+\d|(?<![\w.])\d{3}\.\d``, written to
#: begin with one character class (the word's first letter or the number's first digit,
#: then look-behinds for what it must be and what may not precede it), so the regex
#: engine scans for that class instead of trying every position (~2.5× faster).
_REFERENCE_TRIGGER = re.compile(
    r"[RrSs\d](?:"
    r"(?<=[Ss])(?<!\w[Ss])(?:ub[Rr]ules?|ections?|ee)\s+\d"  # subrule(s), section(s), see
    r"|(?<=[Rr])(?<!\w[Rr])ules?\s+\d"  # rule(s)
    r"|(?<=\d)(?<![\w.]\d)\d{2}\.\d"  # a dotted number: 702.3
    r")"
)
#: Every form of ``_REFERENCE_TRIGGER`` holds a digit: a text without one cites nothing.
_DIGIT = re.compile(r"\d")
_SPLIT = re.compile(r"[“”\"\n]|\.\s+")
_QUOTES = re.compile(r"[“”\"?]")


def segments(text: str, trigger: re.Pattern[str] = _TRIGGER) -> list[tuple[int, int]]:
    """Spans of ``text`` worth parsing: runs of sentences that contain a ``trigger``."""
    if trigger.search(text) is None:
        return []
    if "?" in text:
        return [(0, len(text))]
    sentences: list[tuple[int, int]] = []
    at = 0
    curly = straight = False
    for m in _SPLIT.finditer(text):
        ch = m.group()
        if ch == "“":
            if curly:
                return [(0, len(text))]
            curly = True
        elif ch == "”":
            if not curly:
                return [(0, len(text))]
            curly = False
        elif ch == '"':
            straight = not straight
        elif ch == "\n":
            if straight:
                return [(0, len(text))]
        elif not curly and not straight:
            sentences.append((at, m.start() + 1))
            at = m.end()
    if curly or straight:
        return [(0, len(text))]
    if at < len(text):
        sentences.append((at, len(text)))
    out: list[tuple[int, int]] = []
    for start, end in sentences:
        if trigger.search(text, start, end) is None:
            continue
        if out and text[out[-1][1] : start].isspace():
            out[-1] = (out[-1][0], end)
        else:
            out.append((start, end))
    return out


def iter_references(clauses: Iterable[Clause]) -> Iterator[Reference]:
    """Every reference in these clauses and the clauses nested in them, in text order."""
    for clause in clauses:
        for node in clause.walk():
            yield from node.references


def references(text: str) -> tuple[Reference, ...]:
    """Every rule or section ``text`` cites (ranges expanded), in order.

    The same references as ``iter_references(parse_clauses(text))`` (tests compare them
    over the corpus), in a fraction of the time: only the sentences that hold a reference
    keyword are parsed, each from its first keyword on.
    """
    if not text or _DIGIT.search(text) is None:  # the cheap test first (most texts)
        return ()
    return tuple(iter_references(_structures(text, _REFERENCE_TRIGGER, from_trigger=True)))


Targets = tuple[tuple[int, int, str], ...]


def written_targets(text: str) -> Targets:
    """``(start, end, target)`` of every rule number written in a reference of ``text``.

    What alignment keys, diffs and hyperlinks need from the references: where each written
    number stands (the ``h`` of ``601.2a–h`` too, as ``601.2h``). Read from the tables of
    the editions at hand when they hold ``text`` (:func:`use_edition_targets`), else
    parsed and memoized: the texts of two editions, and of every page built from them,
    repeat.
    """
    stored = _stored_targets.get(text)
    if stored is not None:
        return stored
    return _parsed_targets(text)


@lru_cache(maxsize=1 << 16)
def _parsed_targets(text: str) -> Targets:
    """The written targets of :func:`references`, span by span of what it parses; a span
    of lone references (:func:`_lone_targets`) is read without the grammar."""
    if not text or _DIGIT.search(text) is None:
        return ()
    found: list[tuple[int, int, str]] = []
    for start, end in _parsed_spans(text, _REFERENCE_TRIGGER, from_trigger=True):
        span = text[start:end]
        targets = _targets_without_grammar(span)
        if targets is None:
            refs = iter_references(c for c in _parse(span) if c.kind != "text")
            targets = tuple((r.target_start, r.target_end, r.target) for r in refs)
        found.extend((a + start, b + start, t) for a, b, t in targets if a >= 0)
    return tuple(found)


# Why lone references are read without the grammar: most spans :func:`references`
# parses are one keyword and one rule number closed by the sentence's end, a parenthesis
# or a quoted title ("rule 702.19b.", "section 6, <title>.)"), or a few such references
# one after the other ("rule 614, <title>, and rule 615, <title>."), and the parse of each
# was most of the written targets' cost in a cold alignment. Each piece of such a span
# (from one reference keyword to the next) cites its one number and nothing else: every
# other reference form holds a digit (the rest of the piece has none), and the only
# digit-free continuations of a target, a letter listed or ranged after it ("608.3a and
# b", "601.2a-h"), are excluded. Nothing before a later keyword can take it into a token
# of its own: no straight quote or "?" (a quotation of a file that lost its quotes), no
# curly quotation left open, no colon (a list's lead-in). The grammar stays the one
# reference parser: tests compare both over the corpus.
#: One reference keyword and its number: a whole rule number after "rule" (the grammar's
#: ``RULE_KW`` wants three digits), a section digit after "section"; then no digit.
_LONE_REFERENCE = re.compile(
    r"(?:[Rr]ule (\d{3}(?:\.\d+[a-z]?)?)|[Ss]ection (\d))"
    # not continued by a letter, a digit, a dash or a question mark for a lost dash
    r"(?![\w\u2013\u2014\u2212\-?\ufffd]|\.\w|\s+[\u2013\u2014\u2212\-]|\s+through\s)"
    # no letter listed after it ("…, and b", "… or c")
    r"(?!\s*,\s+(?:(?:and|or)\s+)?[a-z]\b|\s+(?:and/or|and|or)\s+[a-z]\b)"
    r"\D*"
)
#: What could carry a later keyword into a token of another kind (see above).
_HIDES_LATER_KEYWORD = re.compile(r'["?:]')
#: A closed curly quotation (a title): what is left of a piece without them must hold no
#: curly quote.
_CURLY_QUOTED = re.compile("“[^“”]*”")


def _open_quote(piece: str) -> bool:
    """``piece`` holds a curly quote that closes no quotation it opened."""
    if "“" not in piece and "”" not in piece:
        return False
    rest = _CURLY_QUOTED.sub("", piece)
    return "“" in rest or "”" in rest


def _lone_targets(span: str) -> Targets | None:
    """The written targets of a span made of lone references (see above), else None."""
    starts = [m.start() for m in _REFERENCE_TRIGGER.finditer(span)]
    if not starts or starts[0] != 0:
        return None
    ends = [*starts[1:], len(span)]
    found: list[tuple[int, int, str]] = []
    for start, end in zip(starts, ends, strict=True):
        piece = span[start:end]
        if end < len(span) and (_HIDES_LATER_KEYWORD.search(piece) or _open_quote(piece)):
            return None
        m = _LONE_REFERENCE.fullmatch(piece)
        if m is None:
            return None
        group = 1 if m.group(1) is not None else 2
        rule_id = RuleId.try_parse(m.group(group))
        if rule_id is None:
            return None
        found.append((start + m.start(group), start + m.end(group), str(rule_id)))
    return tuple(found)


# Why a listed reference is read without the grammar too: after the lone references, most
# spans the grammar still parsed in a cold alignment are one plural keyword and a list of
# rule numbers ("rules 614 and 615.", "rules 205.1a-b, 305.7, and 613.1d."), a subrule
# letter range among them, closed as a lone reference is and followed by no digit. The
# rest of such a span holds no digit, so it cites nothing more and holds no later keyword
# (every keyword form holds a digit); the list itself is read item by item: a number,
# and for a subrule a range's end letter after an en dash (the grammar writes that end as
# its own target, "h" of "601.2a-h" as 601.2h). Tests compare both over every span of
# the corpus.
#: A rule number of a list: a whole rule, a numbered rule, or a subrule with an optional
#: range end letter (after an en dash).
_LISTED_ITEM = r"\d{3}(?:\.\d+(?:[a-z](?:\u2013[a-z])?)?)?"
_LISTED_REFERENCES = re.compile(
    r"[Rr]ules? (" + _LISTED_ITEM + r"(?:(?:, | and |, and | or |, or )" + _LISTED_ITEM + r")*)"
    # closed as a lone reference is (_LONE_REFERENCE), then no digit
    r"(?![\w\u2013\u2014\u2212\-?\ufffd]|\.\w|\s+[\u2013\u2014\u2212\-]|\s+through\s)"
    r"(?!\s*,\s+(?:(?:and|or)\s+)?[a-z]\b|\s+(?:and/or|and|or)\s+[a-z]\b)"
    r"\D*"
)
#: One item of a list read by :data:`_LISTED_REFERENCES`: the number, the range's end.
_LISTED_NUMBER = re.compile(r"(\d{3}(?:\.\d+[a-z]?)?)(?:\u2013([a-z]))?")


def _listed_targets(span: str) -> Targets | None:
    """The written targets of a span that is one keyword and a list of rule numbers (see
    above), else None."""
    m = _LISTED_REFERENCES.fullmatch(span)
    if m is None:
        return None
    found: list[tuple[int, int, str]] = []
    for item in _LISTED_NUMBER.finditer(span, m.start(1), m.end(1)):
        rule_id = RuleId.try_parse(item.group(1))
        if rule_id is None:
            return None
        found.append((item.start(1), item.end(1), str(rule_id)))
        last = item.group(2)
        if last is not None:
            first = item.group(1)[-1]
            end_id = RuleId.try_parse(item.group(1)[:-1] + last)
            if end_id is None or last <= first:
                return None
            found.append((item.start(2), item.end(2), str(end_id)))
    return tuple(found)


def _targets_without_grammar(span: str) -> Targets | None:
    """The written targets of a span of lone references or of one listed reference
    (:func:`_lone_targets`, :func:`_listed_targets`), after a digit-free lead-in outside
    any quotation ("… means “Tap this permanent.” See rule 107.5."): what stands before
    the first keyword, no quotation open, cannot change the reference (as for
    :func:`_parsed_spans`'s ``from_trigger``). None: the grammar reads the span."""
    first = _REFERENCE_TRIGGER.search(span)
    if first is None:
        return None
    at = first.start()
    if at:
        lead_in = span[:at]
        if _DIGIT.search(lead_in) or _HIDES_LATER_KEYWORD.search(lead_in) or _open_quote(lead_in):
            return None
        span = span[at:]
    targets = _lone_targets(span)
    if targets is None:
        targets = _listed_targets(span)
    if targets is None or not at:
        return targets
    return tuple((start + at, end + at, target) for start, end, target in targets)


# --- written targets kept per edition --------------------------------------------------------
# Why: the comparison keys of every text of both editions need their written targets, and
# those reference parses were half of a neighbouring pair's alignment in a fresh process,
# redone by every process although they depend on one edition alone. An edition's table
# is kept in the cache beside it (kind ``targets``, keyed by its sha256) and read back into
# :data:`_stored_targets`, which :func:`written_targets` consults before parsing. The
# values are those of :func:`_parsed_targets` for the same text, so nothing read changes.

#: Written targets of the texts of the editions in use (text → targets), from their tables.
_stored_targets: dict[str, Targets] = {}
#: The editions (sha256) whose tables are in :data:`_stored_targets`.
_stored_editions: set[str] = set()
_stored_lock = threading.Lock()
#: Texts kept in :data:`_stored_targets` before it is emptied (a modern edition has about
#: 5,000 texts; a long-running server must not keep every edition's).
STORED_TEXTS = 1 << 15


@dataclass(frozen=True, slots=True)
class EditionTargets:
    """:func:`written_targets` of the texts of an edition: ``(index in edition_texts,
    targets)`` of each text that cites a rule; the other texts of the ``count`` cite none."""

    sha256: str
    count: int
    found: tuple[tuple[int, Targets], ...]


def edition_texts(edition: Edition) -> list[str]:
    """Every text of ``edition`` whose references are read: section and heading titles,
    rule texts, examples and glossary definitions, in document order."""
    texts: list[str] = []
    for item in edition.body:
        if isinstance(item, Rule):
            texts.append(item.text)
            for example in item.examples:
                texts.append(example.text)
        if item.title is not None:
            texts.append(item.title)
    texts.extend(entry.text for entry in edition.glossary)
    return texts


def compute_edition_targets(edition: Edition, texts: list[str] | None = None) -> EditionTargets:
    """Parse the written targets of every text of ``edition``."""
    texts = edition_texts(edition) if texts is None else texts
    found: list[tuple[int, Targets]] = []
    for i, text in enumerate(texts):
        targets = _parsed_targets(text)
        if targets:
            found.append((i, targets))
    return EditionTargets(edition.sha256, len(texts), tuple(found))


def use_edition_targets(edition: Edition, *, use_cache: bool = True) -> None:
    """Make :func:`written_targets` answer ``edition``'s texts from its table in the cache
    (read, or computed and stored). Without a sha256 or ``use_cache``, nothing is done
    (the texts are parsed when asked, as before)."""
    if not edition.sha256 or not use_cache or edition.sha256 in _stored_editions:
        return
    from . import cache

    texts = edition_texts(edition)
    table = cache.get_or_compute(
        "targets", edition.sha256, lambda: compute_edition_targets(edition, texts)
    )
    if table.count != len(texts):  # cannot happen for a table of this edition's parse
        return
    with _stored_lock:
        if len(_stored_targets) > STORED_TEXTS:
            forget_edition_targets()
        _stored_targets.update(dict.fromkeys(texts, ()))
        for i, targets in table.found:
            _stored_targets[texts[i]] = targets
        _stored_editions.add(edition.sha256)


def forget_edition_targets() -> None:
    """Empty the tables read by :func:`use_edition_targets` (benchmarks of a cold run)."""
    _stored_targets.clear()
    _stored_editions.clear()


def lists(text: str) -> tuple[Clause, ...]:
    """Every ``list`` clause of ``text`` (nested ones too), in text order.

    The same lists as walking :func:`parse_clauses` (tests compare them over the corpus),
    for less: only the sentences that can hold a list are parsed.
    """
    found = _structures(text, _LIST_TRIGGER) if text and _may_hold_list(text) else []
    return tuple(node for clause in found for node in clause.walk() if node.kind == "list")


_SERIAL_HINT = re.compile(r",\s*(?:and|or)\s")
_ARE_HINT = re.compile(r"\sare\s")


def _may_hold_list(text: str) -> bool:
    """Whether ``text`` holds what every form of ``_LIST_TRIGGER`` holds: "follows:", a
    serial comma (", and", ", or") or "are" between spaces.

    Why: the trigger tries its three forms at every position of a text; these scans
    (substring tests first) are a tenth of that, and most texts fail them."""
    return (
        "follows:" in text
        or ("," in text and _SERIAL_HINT.search(text) is not None)
        or ("are" in text and _ARE_HINT.search(text) is not None)
    )


# --- whole editions --------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class ParsedText:
    """One text of an edition (a rule's text, an example, a glossary definition), parsed."""

    clauses: tuple[Clause, ...]
    references: tuple[Reference, ...]

    __json_fields__ = ("references", "clauses")
    as_dict = to_data


def parse_text_clauses(text: str) -> ParsedText:
    clauses = parse_clauses(text)
    return ParsedText(clauses, tuple(iter_references(clauses)))


@dataclass(frozen=True, slots=True)
class RuleClauses:
    """The clauses of one rule: its own text, and each of its examples."""

    rule: str
    text: ParsedText
    examples: tuple[ParsedText, ...]

    def references(self) -> Iterator[tuple[Reference, int | None]]:
        """``(reference, example index)``: ``None`` for the rule's own text."""
        for ref in self.text.references:
            yield ref, None
        for i, example in enumerate(self.examples):
            for ref in example.references:
                yield ref, i


@dataclass(frozen=True, slots=True)
class EditionClauses:
    """Clauses of a whole edition, aligned with ``edition.rules`` and ``edition.glossary``."""

    sha256: str
    rules: tuple[RuleClauses, ...]
    glossary: tuple[ParsedText, ...]

    def rule_refs(self) -> Iterator[tuple[int, Reference, int | None]]:
        """``(index in edition.rules, reference, example index or None)`` for every rule."""
        for i, rc in enumerate(self.rules):
            for ref, example in rc.references():
                yield i, ref, example

    def reference_count(self) -> int:
        rules = sum(
            len(rc.text.references) + sum(len(e.references) for e in rc.examples)
            for rc in self.rules
        )
        return rules + sum(len(g.references) for g in self.glossary)


def rule_clauses(rule: Rule) -> RuleClauses:
    """Parse one rule's text and examples."""
    return RuleClauses(
        str(rule.id),
        parse_text_clauses(rule.text),
        tuple(parse_text_clauses(example.text) for example in rule.examples),
    )


def compute_edition_clauses(edition: Edition) -> EditionClauses:
    """Parse every rule, example and glossary definition of ``edition`` (no cache)."""
    return EditionClauses(
        edition.sha256,
        tuple(rule_clauses(rule) for rule in edition.rules),
        tuple(parse_text_clauses(entry.text) for entry in edition.glossary),
    )


def edition_clauses(edition: Edition, *, use_cache: bool = True) -> EditionClauses:
    """The clauses of a whole edition, cached by its sha256 (memo and disk).

    An edition without a sha256 (built from a string in a test) is parsed every time.
    """
    if not edition.sha256 or not use_cache:
        return compute_edition_clauses(edition)
    from . import cache

    return cache.get_or_compute("clauses", edition.sha256, lambda: compute_edition_clauses(edition))


def rule_clauses_json(rule: Rule, parsed: RuleClauses | None = None) -> dict[str, object]:
    """What ``rulediff parse --format json`` adds to each rule.

    ``references`` and ``clauses`` of the rule's text (offsets in its ``text``), and
    ``example_clauses``: the same for each example (offsets in that example's text).
    A reference is ``{"target", "text", "title", "start", "end"}``; a clause is
    ``{"kind", "start", "end"}`` plus, when set, ``value``, ``targets`` and ``title``
    (reference clauses) and ``children``. The schema is in
    ``rulediff/schemas/parse.schema.json``.
    """
    parsed = parsed or rule_clauses(rule)
    out = parsed.text.as_dict()
    out["example_clauses"] = [example.as_dict() for example in parsed.examples]
    return out


def edition_clauses_json(
    edition: Edition, *, use_cache: bool = True
) -> tuple[list[dict[str, object]], list[dict[str, object]]]:
    """:func:`rule_clauses_json` for every rule, and ``references``/``clauses`` for every
    glossary definition (offsets in its text), aligned with ``edition.rules`` and
    ``edition.glossary``."""
    parsed = edition_clauses(edition, use_cache=use_cache)
    rules = [
        rule_clauses_json(rule, rc) for rule, rc in zip(edition.rules, parsed.rules, strict=True)
    ]
    return rules, [entry.as_dict() for entry in parsed.glossary]
