"""Text → :class:`~rulediff.model.Edition`, with the Lark document grammar.

The parser is built once (LALR, contextual lexer, whole-line terminals). A
:class:`DocumentTransformer` turns the rules it reduces into small intermediate records, then
:func:`build_edition` gives each rule its id, undoes the hard wraps that put a rule
number at the start of a line ("… See rule\\n103.4. …"), and records oddities as
diagnostics. It never fails on real text: only a text that is not a CR edition at all
(no contents table, no rules) raises :class:`~rulediff.errors.ParseError`.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass, field, replace
from functools import cache
from importlib import resources
from pathlib import Path
from typing import Any

from lark import Lark, Token, Transformer, UnexpectedEOF, UnexpectedInput

from .collector import collector_paused
from .errors import ParseError
from .ingest import IngestedText, find_effective_date, ingest_bytes, ingest_file
from .model import (
    ContentsEntry,
    Diagnostic,
    Edition,
    Example,
    GlossaryEntry,
    Rule,
    RuleId,
    Section,
)

log = logging.getLogger(__name__)

_LABEL = re.compile(
    r"^(?P<label>(?P<rule>\d{3})\.(?:(?P<space>[ \t]?)(?P<number>\d+)(?P<letters>[a-z]{0,2})"
    r"|(?P<bare>[a-z]))(?P<dot>\.?))(?P<sep>[ \t]*)(?P<body>.*)$",
    re.DOTALL,
)
_HEAD = re.compile(r"^(?P<label>\d{1,3}\.)(?P<sep>[ \t]+)(?P<body>.*)$", re.DOTALL)
_WRAPPED_REFERENCE = re.compile(
    r"(?:\b(?:rules?|sections?|and|or|to|see|through)|\d[a-z]?,|[–-])[ \t]*$", re.IGNORECASE
)
_PLACEHOLDER = re.compile(
    r"section (?:is now empty|has been intentionally left blank)", re.IGNORECASE
)
_TITLE_END = re.compile(r"[.:;?!)\]\"”’']\s*$")


def grammar_path(name: str = "document.lark") -> Path:
    """Where a grammar file lives: inside the wheel, or at the repository top."""
    packaged = resources.files("rulediff") / "grammars" / name
    if packaged.is_file():
        return Path(str(packaged))
    return Path(__file__).resolve().parent.parent / "grammars" / name


@cache
def document_parser() -> Lark:
    """The document parser, built once per process. Its :class:`DocumentTransformer` runs
    inline while the parser reduces: no tree is built and walked again (a third of the
    time of a parse)."""
    return Lark(
        grammar_path().read_text(encoding="utf-8"),
        parser="lalr",
        lexer="contextual",
        maybe_placeholders=False,
        transformer=DocumentTransformer(),
    )


# --- intermediate records produced by the transformer ------------------------------
@dataclass(slots=True)
class _Para:
    """A run of lines: the first (labelled) line, continuation lines, blank lines."""

    first: Token
    conts: list[str]
    blanks: str


@dataclass(slots=True)
class _RawRule:
    head: _Para
    extras: list[tuple[str, _Para]] = field(default_factory=list)  # ("example"|"stray", para)


class _Cont(str):
    """A continuation line (kept apart from the blank-line runs, also strings)."""


def _line(tok: Token) -> str:
    return str(tok)[:-1]


class DocumentTransformer(Transformer):
    """Rules of the document grammar → intermediate records (one method per rule), applied
    inline while the LALR parser reduces."""

    def preamble(self, items: list[Token]) -> str:
        return "".join(items)

    def toc_line(self, items: list[Token]) -> Token:
        return items[0]

    def toc_tail(self, items: list[Token]) -> list[Token]:
        return items

    def contents(self, items: list) -> tuple[str, list[ContentsEntry]]:
        tokens: list[Token] = [items[0], *items[1:-1], *items[-1]]
        entries: list[ContentsEntry] = []
        for tok in tokens[1:]:
            text = _line(tok).strip()
            if not text:
                continue
            head = _HEAD.match(text)
            rule_id = RuleId.try_parse(head.group("label")) if head else None
            title = head.group("body").strip() if head and rule_id else text
            entries.append(ContentsEntry(rule_id, title, tok.line))
        return "".join(tokens), entries

    def blanks(self, items: list[Token]) -> str:
        return "".join(items)

    def cont(self, items: list[Token]) -> _Cont:
        return _Cont(_line(items[0]))

    def _para(self, items: list) -> _Para:
        return _Para(items[0], list(items[1:-1]), items[-1])

    def example(self, items: list) -> tuple[str, _Para]:
        return ("example", self._para(items))

    def stray(self, items: list) -> tuple[str, _Para]:
        return ("stray", self._para(items))

    def rule(self, items: list) -> _RawRule:
        conts = [x for x in items[1:] if isinstance(x, _Cont)]
        rest = items[1 + len(conts) :]
        return _RawRule(_Para(items[0], [str(c) for c in conts], rest[0]), list(rest[1:]))

    def section(self, items: list) -> tuple[Token, str, list[_RawRule]]:
        return items[0], items[1], items[2:]

    def body(self, items: list) -> list:
        return items

    def gloss_line(self, items: list[Token]) -> str:
        return _line(items[0])

    def gloss_entry(self, items: list) -> tuple[list[str], str, int]:
        return items[:-1], items[-1], 0

    def glossary(self, items: list) -> tuple[Token, str, list]:
        return items[0], items[1], items[2:]

    def credits(self, items: list[Token]) -> str:
        return "".join(items)

    def start(self, items: list) -> dict[str, Any]:
        """The parts by name: preamble, contents, body, then a glossary (a tuple) and
        credits (a string) when the edition has them."""
        parts = {"preamble": items[0], "contents": items[1], "body": items[2]}
        for part in items[3:]:
            parts["credits" if isinstance(part, str) else "glossary"] = part
        return parts


# --- assembling the edition -------------------------------------------------------
class _Builder:
    def __init__(self, text_lines_source: str) -> None:
        self.source = text_lines_source
        self.diagnostics: list[Diagnostic] = []

    def diag(
        self, code: str, severity: str, message: str, line: int | None, **kw: str | None
    ) -> None:
        self.diagnostics.append(Diagnostic(code, severity, message, line, **kw))  # type: ignore[arg-type]

    def section(self, tok: Token, blanks: str) -> Section:
        heading = _line(tok)
        head = _HEAD.match(heading)
        assert head is not None
        return Section(
            RuleId.parse(head.group("label")),
            head.group("body").strip(),
            tok.line,
            heading,
            blanks,
        )

    def rule(self, raw: _RawRule, previous: Rule | None) -> Rule:
        first = _line(raw.head.first)
        line_no = raw.head.first.line
        indent = first[: len(first) - len(first.lstrip(" \t\u00a0"))]
        first = first[len(indent) :]
        m = _LABEL.match(first)
        if m is None:  # a heading: "702. Keyword Abilities"
            head = _HEAD.match(first)
            assert head is not None
            rule_id = RuleId.parse(head.group("label"))
            label, sep, body = head.group("label"), head.group("sep"), head.group("body")
        else:
            label, sep, body = m.group("label"), m.group("sep"), m.group("body")
            rule_id = self._rule_id(m, previous, line_no)
            if not sep and body:  # "901.4.All …": read as the rule it numbers, kept as written
                self.diag(
                    "malformed-number",
                    "warning",
                    f"rule {rule_id} is written without a space after its number ({first[:20]!r}…)",
                    line_no,
                    rule=str(rule_id),
                    suggestion=f"{label} {body[:16]}…",
                )
        if indent:
            self.diag(
                "malformed-number",
                "warning",
                f"rule {rule_id}'s line starts with {len(indent)} space(s)",
                line_no,
                rule=str(rule_id),
                suggestion=str(rule_id),
            )
            label = indent + label
        conts = list(raw.head.conts)
        spacing = raw.head.blanks
        trailing = ""
        # A one- or two-character line glued under a rule is debris, not text.
        if conts and len(conts[-1].strip()) <= 2 and not spacing and not raw.extras:
            stray = conts.pop()
            trailing = stray + "\n"
            self.diag(
                "stray-text",
                "warning",
                f"stray line {stray!r} after rule {rule_id}",
                line_no + len(conts) + 1,
                rule=str(rule_id),
            )
        body_text = "\n".join([body, *conts])
        examples: list[Example] = []
        stray_parts: list[str] = []
        for kind, para in raw.extras:
            para_text = "\n".join([_line(para.first), *para.conts])
            if kind == "example" and not stray_parts:
                ex_label = re.match(r"Examples?:", para_text).group(0)  # type: ignore[union-attr]
                examples.append(
                    Example(ex_label, para_text[len(ex_label) :], para.first.line, para.blanks)
                )
            else:
                stray_parts.append(para_text + "\n" + para.blanks)
                self.diag(
                    "stray-text",
                    "info",
                    f"paragraph without a number after rule {rule_id}",
                    para.first.line,
                    rule=str(rule_id),
                )
        if stray_parts:
            if examples:
                last = examples[-1]
                examples[-1] = replace(last, trailing=last.trailing + "".join(stray_parts))
            else:
                trailing += "".join(stray_parts)
        title = self._title(rule_id, body_text, conts, line_no)
        return Rule(
            rule_id, label, sep, body_text, line_no, spacing, tuple(examples), trailing, title
        )

    def _rule_id(self, m: re.Match[str], previous: Rule | None, line_no: int) -> RuleId:
        label = m.group("label")
        if m.group("bare"):
            # "306.b": the numbered rule was left out; take it from the rule above.
            number = (
                previous.id.number
                if previous and previous.id.rule == int(m.group("rule"))
                else None
            )
            rule_id = RuleId(int(m.group("rule")), number or 0, m.group("bare"))
            self.diag(
                "malformed-number",
                "warning",
                f"{label!r} has no rule number; read as {rule_id}",
                line_no,
                rule=str(rule_id),
                suggestion=str(rule_id),
            )
            return rule_id
        rule_id = RuleId(int(m.group("rule")), int(m.group("number")), m.group("letters") or None)
        if m.group("space"):
            self.diag(
                "malformed-number",
                "warning",
                f"number written {label!r}; read as {rule_id}",
                line_no,
                rule=str(rule_id),
                suggestion=str(rule_id),
            )
        elif rule_id.letters and m.group("dot"):
            self.diag(
                "malformed-number",
                "info",
                f"subrule written {label!r} with a period; read as {rule_id}",
                line_no,
                rule=str(rule_id),
                suggestion=str(rule_id),
            )
        elif not rule_id.letters and not m.group("dot"):
            self.diag(
                "malformed-number",
                "info",
                f"rule {label!r} has no period after its number",
                line_no,
                rule=str(rule_id),
                suggestion=f"{rule_id}.",
            )
        return rule_id

    def _title(self, rule_id: RuleId, body: str, conts: list[str], line_no: int) -> str | None:
        text = body.strip()
        if _PLACEHOLDER.search(text):
            self.diag(
                "empty-placeholder",
                "info",
                f"rule {rule_id} is a placeholder: {text}",
                line_no,
                rule=str(rule_id),
            )
            return None
        if rule_id.depth == 1:
            return text
        short = bool(text) and len(text) <= 80 and not conts
        if rule_id.depth == 2 and short and not _TITLE_END.search(text):
            return text  # "702.36. Morph": a headed numbered rule
        return None


_INDENTED_LABEL = re.compile(r"^[ \t\u00a0]+\d{3}\.\d+[a-z]{0,2}\.?[ \t]")


def _split_indented(rules: list[_RawRule]) -> list[_RawRule]:
    """A numbered rule whose line starts with a space is a rule, not a stray paragraph.

    Some 2009 editions indent a few rule lines (" 509.1c The …") after a blank line; the
    line grammar reads them as indented text after the rule above. Each becomes a rule of
    its own again (the builder keeps the indent in its label and says so).
    """
    out: list[_RawRule] = []
    for raw in rules:
        current = _RawRule(raw.head, [])
        out.append(current)
        for kind, para in raw.extras:
            if kind == "stray" and _INDENTED_LABEL.match(_line(para.first)):
                current = _RawRule(para, [])
                out.append(current)
            else:
                current.extras.append((kind, para))
    return out


def _merge_wrapped(rules: list[_RawRule]) -> list[_RawRule]:
    """Undo hard wraps that left a rule number at the start of a line.

    In the hard-wrapped editions, "See rule\\n103.4. If …" puts a number at the start
    of a line inside a paragraph. Such a line follows a non-blank line that ends with
    "rule", "rules", "see", "and", …; it continues the rule above.
    """
    merged: list[_RawRule] = []
    for raw in rules:
        if merged:
            prev = merged[-1]
            glued = not prev.head.blanks and not prev.extras
            last_line = prev.head.conts[-1] if prev.head.conts else _line(prev.head.first)
            first = _line(raw.head.first)
            numbered = _LABEL.match(first) or _HEAD.match(first)
            if glued and numbered and _WRAPPED_REFERENCE.search(last_line):
                prev.head.conts.append(_line(raw.head.first))
                prev.head.conts.extend(raw.head.conts)
                prev.head.blanks = raw.head.blanks
                prev.extras = raw.extras
                continue
        merged.append(raw)
    return merged


def _layout_error(exc: UnexpectedInput, work: str, source: str) -> ParseError:
    """One clear line for a text the document grammar cannot read."""
    token = getattr(exc, "token", None)
    at_end = isinstance(exc, UnexpectedEOF) or getattr(token, "type", None) == "$END"
    lines = work.split("\n")
    if at_end:
        where = "before the rules begin" if "\nGlossary" not in work else "early"
        return ParseError(
            f"the text ends {where}: a truncated or incomplete Comprehensive Rules edition",
            file=source,
            line=max(1, len(lines) - 1),
        )
    line = getattr(exc, "line", None)
    line = line if isinstance(line, int) and line > 0 else None
    snippet = lines[line - 1][:60] if line else ""
    return ParseError(
        f"unexpected line {snippet!r}: not the layout of a Comprehensive Rules edition",
        file=source,
        line=line,
    )


def _merge_glued_sections(
    sections: list, contents: list[ContentsEntry], builder: _Builder
) -> list:
    """A section heading glued under a rule's text is a hard-wrapped line, not a section…

    …unless it is plainly the next section: real headings follow a blank line, and
    "… a mana cost of\\n1. The …" in a hard-wrapped edition does not. A heading that is
    missing its blank line (a copy made from another format) is still a section when the
    contents table lists it, its number follows the previous section's, and the rules
    under it carry its number; it is kept with a ``glued-heading`` diagnostic.
    """
    listed = {(str(e.id), e.title) for e in contents if e.id is not None and e.id.depth == 0}
    merged: list = []
    for sec_tok, sec_blanks, raw_rules in sections:
        if merged and merged[-1][2]:
            prev = merged[-1][2][-1]
            if not prev.head.blanks and not prev.extras:
                if _is_next_section(merged[-1][0], sec_tok, raw_rules, listed):
                    builder.diag(
                        "glued-heading",
                        "warning",
                        f"section heading {_line(sec_tok).strip()!r} follows a rule's text "
                        "without a blank line",
                        sec_tok.line,
                    )
                else:
                    prev.head.conts.append(_line(sec_tok))
                    prev.head.blanks = sec_blanks
                    merged[-1][2].extend(raw_rules)
                    continue
        merged.append((sec_tok, sec_blanks, list(raw_rules)))
    return merged


def _is_next_section(
    previous: Token, heading: Token, raw_rules: list[_RawRule], listed: set[tuple[str, str]]
) -> bool:
    prev_head, head = _HEAD.match(_line(previous)), _HEAD.match(_line(heading))
    if prev_head is None or head is None or not raw_rules:
        return False
    number, title = head.group("label").rstrip("."), head.group("body").strip()
    if (number, title) not in listed or not prev_head.group("label").rstrip(".").isdigit():
        return False
    first_rule = _line(raw_rules[0].head.first)
    return int(number) == int(prev_head.group("label").rstrip(".")) + 1 and first_rule.startswith(
        number
    )


@collector_paused()
def parse_text(
    text: str,
    *,
    source: str = "<text>",
    sha256: str = "",
    encoding: str = "",
    line_endings: str = "",
) -> Edition:
    """Parse a normalized (LF) text into an :class:`Edition`."""
    if not text.strip():
        raise ParseError("empty text: not a Comprehensive Rules edition", file=source, line=1)
    final_newline = text.endswith("\n")
    work = text if final_newline else text + "\n"
    if "\nContents" not in work and not work.startswith("Contents"):
        raise ParseError(
            "no contents table ('Contents' line): not a Comprehensive Rules edition",
            file=source,
            line=1,
        )
    try:
        parts = document_parser().parse(work)
    except UnexpectedInput as exc:
        raise _layout_error(exc, work, source) from None
    preamble = parts["preamble"]
    contents_text, contents = parts["contents"]
    body_tree = parts["body"]

    builder = _Builder(source)
    body: list[Section | Rule] = []
    previous: Rule | None = None
    for sec_tok, sec_blanks, raw_rules in _merge_glued_sections(body_tree, contents, builder):
        body.append(builder.section(sec_tok, sec_blanks))
        for raw in _merge_wrapped(_split_indented(raw_rules)):
            rule = builder.rule(raw, previous)
            body.append(rule)
            previous = rule

    glossary_heading = None
    glossary_lead = ""
    glossary: list[GlossaryEntry] = []
    if "glossary" in parts:
        heading_tok, glossary_lead, entries = parts["glossary"]
        glossary_heading = _line(heading_tok)
        line_no = heading_tok.line + 1 + glossary_lead.count("\n")
        for lines, blanks, _ in entries:
            glossary.append(GlossaryEntry(lines[0], tuple(lines[1:]), line_no, blanks))
            line_no += len(lines) + blanks.count("\n")
    credits = parts.get("credits")

    _check_structure(builder, body, glossary_heading, credits, work)
    found = find_effective_date(preamble) or find_effective_date(text)
    effective_date = found[0] if found else None
    if found is None:
        builder.diag(
            "missing-date", "warning", "no 'effective as of' / 'current as of' date in the text", 1
        )
    title = next((ln.strip() for ln in preamble.split("\n") if ln.strip()), "")
    return Edition(
        effective_date=effective_date,
        title=title,
        preamble=preamble,
        contents_text=contents_text,
        contents=tuple(contents),
        body=tuple(body),
        glossary_heading=glossary_heading,
        glossary=tuple(glossary),
        glossary_lead=glossary_lead,
        credits=credits,
        final_newline=final_newline,
        diagnostics=tuple(sorted(builder.diagnostics, key=lambda d: (d.line or 0, d.code))),
        source=source,
        sha256=sha256,
        encoding=encoding,
        line_endings=line_endings,
    )


def _check_structure(
    builder: _Builder,
    body: list[Section | Rule],
    glossary_heading: str | None,
    credits: str | None,
    work: str,
) -> None:
    last_line = work.count("\n")
    first_seen: dict[str, int] = {}
    for item in body:
        if isinstance(item, Rule):
            key = str(item.id)
            if key in first_seen:
                builder.diag(
                    "duplicate-number",
                    "error",
                    f"rule {key} appears twice (first on line {first_seen[key]})",
                    item.line,
                    rule=key,
                )
            else:
                first_seen[key] = item.line
    sections = {str(item.id) for item in body if isinstance(item, Section)}
    for item in body:
        if isinstance(item, Rule):
            parent = item.id.parent
            if parent is not None and str(parent) not in first_seen and str(parent) not in sections:
                builder.diag(
                    "missing-parent",
                    "warning",
                    f"rule {item.id} has no parent rule {parent} in this edition",
                    item.line,
                    rule=str(item.id),
                    target=str(parent),
                )
    if glossary_heading is None:
        builder.diag(
            "missing-glossary",
            "warning",
            "the edition ends before its glossary (truncated?)",
            last_line,
        )
    if credits is None:
        builder.diag(
            "missing-credits",
            "warning",
            "the edition has no credits section (truncated?)",
            last_line,
        )
    if credits:
        _check_appended(builder, credits, work)
    if not any(isinstance(item, Rule) for item in body):
        raise ParseError(
            "no numbered rules found: not a Comprehensive Rules edition",
            file=builder.source,
            line=1,
        )


_RULE_LINE = re.compile(r"^\d{3}\.\d+[a-z]{0,2}\.? ", re.MULTILINE)


def _check_appended(builder: _Builder, credits: str, work: str) -> None:
    """Numbered rules after the credits: another document was appended (a concatenated
    or duplicated file). The text is kept (round trip), but it is said, not dropped."""
    found = list(_RULE_LINE.finditer(credits))
    if len(found) < 3:
        return
    start = work.rfind(credits)
    line = work.count("\n", 0, start) + credits.count("\n", 0, found[0].start()) + 1
    builder.diag(
        "appended-document",
        "error",
        f"{len(found)} numbered rule lines after the credits: another document is appended "
        "(concatenated or duplicated file); only the first one is read",
        line,
    )


def parse_ingested(ingested: IngestedText) -> Edition:
    return parse_text(
        ingested.text,
        source=ingested.source,
        sha256=ingested.sha256,
        encoding=ingested.encoding,
        line_endings=ingested.line_endings,
    )


def parse_bytes(data: bytes, source: str = "<bytes>") -> Edition:
    """Decode, normalize and parse the bytes of one edition (no cache)."""
    return parse_ingested(ingest_bytes(data, source))


def parse_file(path: str | Path) -> Edition:
    """Read and parse one edition file (no cache; see :mod:`rulediff.corpus` for that)."""
    return parse_ingested(ingest_file(path))
