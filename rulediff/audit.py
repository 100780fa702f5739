"""Audit one edition the way a careful rules editor would.

Every finding is a :class:`~rulediff.model.Diagnostic`
(``code``, ``severity``, ``rule``, ``target``, ``message``, ``suggestion``, ``line``).
The parser's own diagnostics (malformed numbers, duplicates, stray text, placeholders,
a truncated edition …) are reported as they are; this module adds the checks that need
the clauses and the graph:

===================== ========= =========================================================
code                  severity  what
===================== ========= =========================================================
dangling-reference    error     a rule cites a number the edition does not have
glossary-dangling     error     a glossary entry cites a number the edition does not have
title-mismatch        warning   the quoted title is not the target's heading (typography
                                aside); suggests the rule that carries that title
malformed-reference   warning   a cited number is not a rule number (``4091f``, ``419,8``)
self-reference        info      a rule cites itself
placeholder-reference warning   a rule cites a rule that is an empty placeholder
numbering-gap         warning   a number is skipped among siblings (702.4 then 702.6)
numbering-order       error     a number is not after the one before it
skipped-letter        warning   a subrule uses l or o, which the CR skips
glued-heading         warning   a section heading with no blank line before it (kept
                                as a section: the contents list it, its rules follow)
contents-mismatch     warning   the contents table and the headings disagree
malformed-number      warning   a rule glued to its text (``901.4All …``), besides the
                                parser's own malformed-number findings (``901.4.All``)
stale-reference       warning   with ``audit --since OLD``: a reference kept the number
                                of a rule renumbered since (``rulediff.diff``)
===================== ========= =========================================================

Nothing is reported for text that is right: quote style, dashes and the punctuation a
sentence puts inside the quotes (``rule 717, "Attraction Cards;"``) are typography.
"""

from __future__ import annotations

import logging
import re
from collections.abc import Iterable, Iterator
from dataclasses import dataclass
from typing import Literal

from rapidfuzz import fuzz

from .clauses import EditionClauses, edition_clauses
from .graph import Citation, citations
from .model import SUBRULE_LETTERS, Diagnostic, Edition, Rule, RuleId

log = logging.getLogger(__name__)

SEVERITIES = ("error", "warning", "info")
_RANK = {name: rank for rank, name in enumerate(SEVERITIES)}

#: Every code the audit can report (the parser's included), in the order of the table.
CODES = (
    "dangling-reference",
    "glossary-dangling",
    "stale-reference",
    "title-mismatch",
    "malformed-reference",
    "self-reference",
    "placeholder-reference",
    "duplicate-number",
    "malformed-number",
    "numbering-gap",
    "numbering-order",
    "skipped-letter",
    "missing-parent",
    "glued-heading",
    "contents-mismatch",
    "empty-placeholder",
    "stray-text",
    "missing-glossary",
    "missing-credits",
    "missing-date",
)

_PLACEHOLDER = re.compile(
    r"^(?:this )?(?:section|rule) (?:is now empty|has been intentionally left blank)",
    re.IGNORECASE,
)


def meets(finding: Diagnostic, threshold: str) -> bool:
    """Whether a finding is at least as severe as ``threshold`` (``error``/``warning``)."""
    return _RANK[finding.severity] <= _RANK[threshold]


# --- titles -------------------------------------------------------------------------------
def title_key(title: str) -> str:
    """A title with typography removed: case, quotes, dashes, punctuation, spacing, and
    the ``?`` a file that lost its curly quotes and apostrophes has in their place."""
    text = title.casefold().replace("’", "'").replace("?", "'")
    text = re.sub(r"'s\b", "s", text)
    return " ".join(re.sub(r"[^\w]+", " ", text).split())


def heading(edition: Edition, target: str) -> str | None:
    """The heading a quoted title should match: a section's or a rule's title; for a
    numbered rule whose whole text is a short title ("Start Your Engines!") that text."""
    rule_id = RuleId.try_parse(target)
    if rule_id is None:
        return None
    if rule_id.is_section:
        section = edition.section(rule_id.rule)
        return section.title if section else None
    rule = edition.rule(rule_id)
    return None if rule is None else _own_heading(rule)


def _own_heading(rule: Rule) -> str | None:
    """:func:`heading` of this rule itself (a number printed twice has two)."""
    if rule.title:
        return rule.title
    text = rule.text.strip()
    if rule.id.depth == 2 and "\n" not in text and len(text) <= 80 and text.count(". ") == 0:
        return text
    return None


@dataclass(frozen=True, slots=True)
class _Titles:
    """Every heading of the edition, by normalized title, to suggest the right rule."""

    by_key: dict[str, list[str]]
    all: list[tuple[str, str]]

    @classmethod
    def of(cls, edition: Edition) -> _Titles:
        by_key: dict[str, list[str]] = {}
        every: list[tuple[str, str]] = []
        for section in edition.sections:
            every.append((str(section.id), section.title))
        for rule in edition.rules:
            title = _own_heading(rule)
            if title:
                every.append((str(rule.id), title))
        for number, title in every:
            by_key.setdefault(title_key(title), []).append(number)
        return cls(by_key, every)

    def carrying(self, title: str) -> list[str]:
        """Numbers whose heading is ``title`` (typography aside)."""
        return list(dict.fromkeys(self.by_key.get(title_key(title), [])))


# --- the audit ----------------------------------------------------------------------------
def audit(edition: Edition, parsed: EditionClauses | None = None) -> list[Diagnostic]:
    """Every finding for ``edition``, in document order (line, then code)."""
    parsed = parsed or edition_clauses(edition)
    findings: list[Diagnostic] = list(edition.diagnostics)
    findings.extend(check_references(edition, parsed))
    findings.extend(check_numbering(edition))
    findings.extend(check_contents(edition))
    return sorted(
        dict.fromkeys(findings),
        key=lambda d: (d.line or 0, CODES.index(d.code) if d.code in CODES else 99, d.rule or ""),
    )


def check_references(edition: Edition, parsed: EditionClauses) -> Iterator[Diagnostic]:
    """dangling-reference, glossary-dangling, title-mismatch, malformed-reference,
    self-reference, placeholder-reference."""
    titles = _Titles.of(edition)
    context = _ContextText(edition, parsed)
    for cite in citations(edition, parsed):
        ref = cite.reference
        who = _who(cite)
        if ref.malformed:
            yield _malformed_reference(edition, cite, who)
            continue
        target_id = RuleId.try_parse(ref.target)
        present = target_id is not None and _exists(edition, target_id)
        if not present:
            if ref.implied:  # an unwritten member of a range: its ends are checked
                continue
            yield _dangling(edition, cite, who, titles, context)
            continue
        if ref.title is not None:
            finding = _title_mismatch(edition, cite, who, titles, context.source(cite))
            if finding is not None:
                yield finding
        if cite.where != "glossary" and ref.target == cite.source and not ref.implied:
            yield _finding(
                cite,
                "self-reference",
                "info",
                f"rule {cite.source} cites itself ({ref.text!r}, {cite.where})",
            )
        target_rule = edition.rule(ref.target)
        if (
            target_rule is not None
            and not ref.implied
            and _PLACEHOLDER.match(target_rule.text.strip())
        ):
            yield _finding(
                cite,
                "placeholder-reference",
                "warning",
                f"{who} cites {ref.target}, which is an empty placeholder "
                f"({target_rule.text.strip()[:80]!r})",
            )


def _finding(
    cite: Citation,
    code: str,
    severity: Literal["error", "warning", "info"],
    message: str,
    suggestion: str | None = None,
) -> Diagnostic:
    """A finding about one citation: at its line, about the citing rule and the cited number."""
    return Diagnostic(
        code,
        severity,
        message,
        cite.line,
        rule=cite.source,
        target=cite.reference.target,
        suggestion=suggestion,
    )


def _who(cite: Citation) -> str:
    if cite.where == "glossary":
        return f"glossary entry {cite.source.split(':', 1)[1]!r}"
    return f"rule {cite.source}" + ("" if cite.where == "text" else f" ({cite.where})")


def _exists(edition: Edition, rule_id: RuleId) -> bool:
    if rule_id.is_section:
        return edition.section(rule_id.rule) is not None
    return edition.rule(rule_id) is not None


def _malformed_reference(edition: Edition, cite: Citation, who: str) -> Diagnostic:
    ref = cite.reference
    repaired = _repair(edition, ref.written or ref.target)
    message = f"{who} cites {ref.written or ref.target!r} in {ref.text!r}: not a rule number"
    if repaired:
        message += f"; rule {repaired} exists"
    return _finding(cite, "malformed-reference", "warning", message, repaired)


def _repair(edition: Edition, written: str) -> str | None:
    """``4091f`` → ``409.1f``, ``419,8`` → ``419.8``: the existing rule a slip meant."""
    digits = re.match(r"^(\d{3})[,.]?(\d+)([a-z]{0,2})", written)
    if digits is None:
        return None
    candidate = f"{digits.group(1)}.{digits.group(2)}{digits.group(3)}"
    return candidate if edition.rule(candidate) is not None else None


class _ContextText:
    """The text around a citation, to rank candidate rules for a dangling reference."""

    def __init__(self, edition: Edition, parsed: EditionClauses) -> None:
        self.edition = edition
        self.phrases: dict[tuple[str, str, int], list[str]] = {}
        for cite in citations(edition, parsed):
            key = (cite.source, cite.where, cite.reference.start)
            self.phrases.setdefault(key, []).append(cite.reference.target)

    def phrase_targets(self, cite: Citation) -> list[str]:
        """Every target of the phrase ``cite`` belongs to (``509.1b`` for ``509.1b-c``)."""
        return self.phrases.get((cite.source, cite.where, cite.reference.start), [])

    def source(self, cite: Citation) -> str:
        """The text the reference's offsets are in (rule text, example, definition)."""
        if cite.where == "glossary":
            return self.edition.glossary[cite.index].text
        rule = self.edition.rules[cite.index]
        if cite.where.startswith("example"):
            return rule.examples[int(cite.where.split()[1]) - 1].text
        return rule.text

    def of(self, cite: Citation) -> str:
        """The citing text to compare candidates with (a glossary term included)."""
        if cite.where == "glossary":
            return f"{cite.source.split(':', 1)[1]} {self.source(cite)}"
        return self.source(cite)


def _near_numbers(edition: Edition, target: RuleId) -> list[Rule]:
    """Existing rules one keystroke away from ``target`` (a digit or letter changed,
    added or dropped) — where a slip or a stale renumbering usually lands."""
    text = str(target)
    alphabet = "0123456789" + SUBRULE_LETTERS
    seen: dict[str, Rule] = {}
    variants: set[str] = set()
    for i in range(len(text) + 1):
        for ch in alphabet:
            variants.add(text[:i] + ch + text[i:])
            if i < len(text):
                variants.add(text[:i] + ch + text[i + 1 :])
        if i < len(text):
            variants.add(text[:i] + text[i + 1 :])
    for variant in sorted(variants):
        rule_id = RuleId.try_parse(variant)
        if rule_id is None or rule_id.is_section or rule_id.depth != target.depth:
            continue
        rule = edition.rule(rule_id)
        if rule is not None and str(rule.id) != text:
            seen[str(rule.id)] = rule
    return list(seen.values())


def _dangling(
    edition: Edition, cite: Citation, who: str, titles: _Titles, context: _ContextText
) -> Diagnostic:
    ref = cite.reference
    code = "glossary-dangling" if cite.where == "glossary" else "dangling-reference"
    kind = "section" if ref.kind == "section" and len(ref.target) == 1 else "rule"
    message = f"{who} cites {kind} {ref.target} ({ref.text!r}), which is not in the edition"
    suggestion: str | None = None
    if ref.title:
        carriers = titles.carrying(ref.title)
        if carriers:
            suggestion = carriers[0]
            message += f"; {_quote(ref.title)} is the title of rule {suggestion}"
    if suggestion is None:
        target_id = RuleId.try_parse(ref.target)
        if target_id is not None and not target_id.is_section:
            taken = {cite.source, *context.phrase_targets(cite)}
            suggestion = _best_near(edition, target_id, context.of(cite), taken)
            if suggestion:
                message += f"; did it mean rule {suggestion}?"
    return _finding(cite, code, "error", message, suggestion)


def _best_near(edition: Edition, target: RuleId, context: str, taken: set[str]) -> str | None:
    """The near number whose text best matches the citing text, if it clearly does
    (never the citing rule itself, nor a number the same phrase already cites)."""
    scored = []
    for rule in _near_numbers(edition, target):
        if str(rule.id) in taken:
            continue
        body = " ".join([rule.title or "", rule.text, *(r.text for r in edition.children(rule.id))])
        scored.append((fuzz.token_set_ratio(context, body[:2000]), str(rule.id)))
    if not scored:
        return None
    scored.sort(key=lambda s: (-s[0], RuleId.parse(s[1])))
    best, number = scored[0]
    runner_up = scored[1][0] if len(scored) > 1 else 0.0
    return number if best >= 55 and best - runner_up >= 5 else None


def _title_mismatch(
    edition: Edition, cite: Citation, who: str, titles: _Titles, source: str
) -> Diagnostic | None:
    ref = cite.reference
    assert ref.title is not None
    actual = heading(edition, ref.target)
    if actual is not None and title_key(actual) == title_key(ref.title):
        return None
    if actual is not None and _nested_quotes_match(actual, ref.title, source[ref.end :]):
        return None
    if ref.target in titles.carrying(ref.title):
        return None  # a number printed twice: the title of its other rule
    carriers = [n for n in titles.carrying(ref.title) if n != ref.target]
    kind = "section" if ref.kind == "section" and len(ref.target) == 1 else "rule"
    if actual is None:
        message = f"{who} quotes {_quote(ref.title)} for {kind} {ref.target}, which has no heading"
    else:
        message = (
            f"{who} quotes {_quote(ref.title)} for {kind} {ref.target}, titled {_quote(actual)}"
        )
    if carriers:
        suggestion = carriers[0]
        message += f"; {_quote(ref.title)} is the title of rule {suggestion}"
    else:
        suggestion = actual
    return _finding(cite, "title-mismatch", "warning", message, suggestion)


def _nested_quotes_match(actual: str, quoted: str, after: str) -> bool:
    """A title with quotes inside (``"Handling "Infinite" Loops."``) is cut at the inner
    quote by the grammar; it matches when the text after the number spells the heading."""
    want, got = title_key(actual), title_key(quoted)
    if not want.startswith(got) or want == got:
        return False
    return title_key(after[: len(actual) + 8]).startswith(want)


def _quote(title: str) -> str:
    return f"“{title}”"


# --- numbering ------------------------------------------------------------------------------
def _letter_position(letters: str) -> float:
    """Position in the official sequence a, b, … k, m, n, p … z, aa, ab …; l and o sit
    half-way after k and n so they neither open nor close a gap."""
    value = 0.0
    for ch in letters:
        pos = SUBRULE_LETTERS.find(ch)
        here = pos if pos >= 0 else SUBRULE_LETTERS.find(chr(ord(ch) - 1)) + 0.5
        value = value * len(SUBRULE_LETTERS) + here + 1
    return value - 1


def _position(rule_id: RuleId) -> float:
    """Where ``rule_id`` sits among its siblings (0 for the first expected one)."""
    if rule_id.letters is not None:
        return _letter_position(rule_id.letters)
    if rule_id.number is not None:
        return float(rule_id.number - 1)
    return float(rule_id.rule % 100)


def check_numbering(edition: Edition) -> Iterator[Diagnostic]:
    """numbering-gap, numbering-order, skipped-letter: siblings in document order."""
    for rule in edition.rules:
        if rule.id.letters and any(ch in "lo" for ch in rule.id.letters):
            yield Diagnostic(
                "skipped-letter",
                "warning",
                f"subrule {rule.id} uses the letter {_lo(rule.id.letters)!r}, which the "
                f"rules skip (it looks like 1 or 0)",
                rule.line,
                rule=str(rule.id),
            )
    glued = list(check_glued(edition))
    yield from glued
    glued_numbers = {f.rule for f in glued}
    seen: set[str] = set()
    firsts: list[Rule] = []
    for rule in edition.rules:  # a duplicate number is reported once, by the parser
        if str(rule.id) not in seen:
            seen.add(str(rule.id))
            firsts.append(rule)
    groups: dict[str, list[Rule]] = {}
    for rule in firsts:
        groups.setdefault(str(rule.id.parent), []).append(rule)
    for parent, group in groups.items():
        for finding in _sequence(parent, group):
            if finding.code == "numbering-gap" and finding.target in glued_numbers:
                continue  # not missing: written without its space (reported above)
            yield finding


_GLUED = re.compile(r"^(\d{3}\.\d+[a-z]{0,2})(\.?)(?=[^\s.\d])")


def check_glued(edition: Edition) -> Iterator[Diagnostic]:
    """malformed-number: a rule glued to its text in a way the grammar does not take as a
    rule line (``901.4All…``) reads as a line of the rule above; the number is not
    missing, it is malformed. (``901.4.All…``, a period then a capital, is read as the
    rule by the parser, which reports it itself.)"""
    for rule in edition.rules:
        # the rule's text as written from its number on: body, examples, stray lines
        for offset, raw in enumerate(rule.to_text().split("\n")[1:], start=1):
            m = _GLUED.match(raw)
            if m is None or RuleId.try_parse(m.group(1)) is None:
                continue
            if edition.rule(m.group(1)) is not None:
                continue
            yield Diagnostic(
                "malformed-number",
                "warning",
                f"rule {m.group(1)} is written without a space after its number "
                f"({raw[:20]!r}…), so it reads as part of {rule.id}",
                rule.line + offset,
                rule=m.group(1),
                suggestion=f"{m.group(1)}{m.group(2)} {raw[m.end() : m.end() + 16]}…",
            )


def _lo(letters: str) -> str:
    return next(ch for ch in letters if ch in "lo")


def _sequence(parent: str, group: list[Rule]) -> Iterator[Diagnostic]:
    previous: Rule | None = None
    for rule in group:
        here = _position(rule.id)
        before = _position(previous.id) if previous is not None else -1.0
        if previous is not None and str(previous.id) == str(rule.id):
            previous = rule  # a duplicate number: the parser reports it
            continue
        if previous is not None and here <= before:
            yield Diagnostic(
                "numbering-order",
                "error",
                f"rule {rule.id} comes after {previous.id}",
                rule.line,
                rule=str(rule.id),
                target=str(previous.id),
            )
        elif here - before > 1:
            missing = _missing_between(previous.id if previous else None, rule.id)
            where = f"after {previous.id}" if previous else f"first under {parent}"
            yield Diagnostic(
                "numbering-gap",
                "warning",
                f"rule {rule.id} comes {where}; {_span(missing)} missing",
                rule.line,
                rule=str(rule.id),
                target=str(missing[0]) if missing else None,
            )
        previous = rule


def _missing_between(previous: RuleId | None, current: RuleId) -> list[RuleId]:
    """The numbers a gap skips (at most a few, for the message)."""
    out: list[RuleId] = []
    if current.letters is not None:
        letters = previous.letters if previous is not None and previous.letters else None
        nxt = _next_official(letters) if letters else "a"
        while (
            nxt != current.letters and len(out) < 50 and _letter_position(nxt) < _position(current)
        ):
            out.append(RuleId(current.rule, current.number, nxt))
            nxt = _next_official(nxt)
    elif current.number is not None:
        start = previous.number + 1 if previous is not None and previous.number else 1
        out = [RuleId(current.rule, n) for n in range(start, current.number)][:50]
    else:
        start = previous.rule + 1 if previous is not None else current.rule // 100 * 100
        out = [RuleId(n) for n in range(start, current.rule)][:50]
    return out


def _next_official(letters: str) -> str:
    from .model import next_letters

    base = "".join(ch if ch in SUBRULE_LETTERS else chr(ord(ch) - 1) for ch in letters)
    return next_letters(base)


def _span(missing: list[RuleId]) -> str:
    if not missing:
        return "a number is"
    if len(missing) == 1:
        return f"{missing[0]} is"
    return f"{missing[0]}–{missing[-1]} are"


# --- contents -----------------------------------------------------------------------------
def check_contents(edition: Edition) -> Iterator[Diagnostic]:
    """contents-mismatch: a heading missing from the contents, an entry without a heading,
    or a title that differs (typography aside)."""
    if not edition.contents:
        return
    headings: dict[str, tuple[str, int]] = {}
    for section in edition.sections:
        headings.setdefault(str(section.id), (section.title, section.line))
    for rule in edition.rules:
        if rule.id.depth == 1 and rule.title is not None:
            headings.setdefault(str(rule.id), (rule.title, rule.line))
    listed: dict[str, tuple[str, int]] = {}
    for entry in edition.contents:
        if entry.id is not None:
            listed.setdefault(str(entry.id), (entry.title, entry.line))
    lists_rules = any(RuleId.parse(key).depth == 1 for key in listed)
    for key, (title, line) in listed.items():
        if key not in headings:
            yield Diagnostic(
                "contents-mismatch",
                "warning",
                f"the contents list {key} {_quote(title)}, but no heading {key} exists",
                line,
                rule=key,
            )
        elif title_key(headings[key][0]) != title_key(title):
            yield Diagnostic(
                "contents-mismatch",
                "warning",
                f"the contents list {key} as {_quote(title)}, the heading says "
                f"{_quote(headings[key][0])}",
                line,
                rule=key,
                suggestion=headings[key][0],
            )
    for key, (title, line) in headings.items():
        if key in listed or (RuleId.parse(key).depth == 1 and not lists_rules):
            continue
        yield Diagnostic(
            "contents-mismatch",
            "warning",
            f"heading {key} {_quote(title)} is not in the contents",
            line,
            rule=key,
        )


# --- summaries ----------------------------------------------------------------------------
def counts(findings: Iterable[Diagnostic]) -> dict[str, int]:
    """Findings per code, in the order of :data:`CODES` (codes with none left out)."""
    tally: dict[str, int] = {}
    for finding in findings:
        tally[finding.code] = tally.get(finding.code, 0) + 1
    order = {code: i for i, code in enumerate(CODES)}
    return dict(sorted(tally.items(), key=lambda kv: (order.get(kv[0], len(order)), kv[0])))


def audit_json(edition: Edition, findings: list[Diagnostic]) -> dict[str, object]:
    """``{"edition": …, "findings": [...]}`` — each finding ``{"code", "severity",
    "rule", "target", "message", "suggestion", "line"}``."""
    return {"edition": edition.date_text, "findings": [f.as_dict() for f in findings]}


#: What each code means, for the reports' legend.
MEANINGS = {
    "dangling-reference": "A rule cites a rule or section the edition does not have.",
    "glossary-dangling": "A glossary entry cites a rule or section the edition does not have.",
    "stale-reference": "A reference kept the number of a rule renumbered since an older "
    "edition (audit --since OLD).",
    "title-mismatch": "The quoted title is not the heading of the cited rule (typography aside).",
    "malformed-reference": "A cited number is not a rule number (4091f, 419,8).",
    "self-reference": "A rule cites itself.",
    "placeholder-reference": "A rule cites a rule that is an empty placeholder.",
    "duplicate-number": "Two rules carry the same number.",
    "malformed-number": "A rule's number is written oddly (702. 37b, 119.1d., no period, glued).",
    "numbering-gap": "A number is skipped among sibling rules.",
    "numbering-order": "A rule's number does not follow the one before it.",
    "skipped-letter": "A subrule uses l or o, letters the rules skip.",
    "missing-parent": "A subrule whose numbered rule is absent.",
    "glued-heading": "A section heading follows a rule's text without a blank line.",
    "contents-mismatch": "The contents table and the headings disagree.",
    "empty-placeholder": "A rule kept only as a placeholder (This section is now empty).",
    "stray-text": "Text without a number between rules.",
    "missing-glossary": "The edition ends before its glossary.",
    "missing-credits": "The edition has no credits.",
    "missing-date": "No effective date in the text.",
}


# --- reports --------------------------------------------------------------------------------
def severity_counts(findings: Iterable[Diagnostic]) -> dict[str, int]:
    tally = dict.fromkeys(SEVERITIES, 0)
    for finding in findings:
        tally[finding.severity] += 1
    return tally


@dataclass(frozen=True, slots=True)
class AuditSummary:
    """One row of ``audit --all``."""

    edition: str
    counts: dict[str, int]
    severities: dict[str, int]

    @property
    def total(self) -> int:
        return sum(self.counts.values())


def summarize(edition: Edition, findings: list[Diagnostic]) -> AuditSummary:
    return AuditSummary(edition.date_text, counts(findings), severity_counts(findings))


def table_codes(rows: Iterable[AuditSummary]) -> list[str]:
    """The codes found in any row, in the order of :data:`CODES`."""
    found = {code for row in rows for code in row.counts}
    return [c for c in CODES if c in found] + sorted(found - set(CODES))


def corpus_json(rows: list[AuditSummary]) -> dict[str, object]:
    return {
        "editions": [
            {"edition": r.edition, "severities": r.severities, "counts": r.counts} for r in rows
        ]
    }


__all__ = [
    "CODES",
    "MEANINGS",
    "AuditSummary",
    "severity_counts",
    "table_codes",
    "corpus_json",
    "summarize",
    "SEVERITIES",
    "audit",
    "audit_json",
    "check_contents",
    "check_numbering",
    "check_references",
    "counts",
    "heading",
    "meets",
    "title_key",
]
