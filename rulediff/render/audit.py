"""The audit's reports: one line per finding (text), a Markdown table of every edition,
and HTML pages, built from :mod:`rulediff.audit`'s findings through typed view-models.

The analysis (:mod:`rulediff.audit`) returns :class:`~rulediff.model.Diagnostic` records
and counts; everything a reader sees is decided here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from ..audit import MEANINGS, SEVERITIES, AuditSummary, counts, severity_counts, table_codes
from ..model import Diagnostic, Edition
from .env import template
from .links import Links
from .views import NavLink, Page, RuleLink


@dataclass(frozen=True, slots=True)
class AuditCode:
    """One row of the summary by code and severity."""

    code: str
    severity: str
    count: int
    meaning: str


@dataclass(frozen=True, slots=True)
class AuditFinding:
    """One finding as the page shows it."""

    line: int | str
    """The line in the edition's text (``""``: not tied to a line)."""
    rule: RuleLink
    """The rule (or ``glossary:TERM``) it is about, linked to the full text in a site."""
    code: str
    severity: str
    message: str
    suggestion: str
    excerpt: str
    """The text of the rule the finding is about (``""``: none)."""


@dataclass(frozen=True, slots=True)
class AuditLegend:
    code: str
    meaning: str


@dataclass(frozen=True, slots=True)
class AuditEditionRow:
    """One edition of ``audit --all``: its findings by code."""

    edition: str
    counts: tuple[int, ...]
    total: int


@dataclass(frozen=True, slots=True)
class AuditReport:
    """What the audit page shows: either one edition's findings, or every edition's counts."""

    page: Page
    version: str
    title: str
    subtitle: str
    codes: tuple[str, ...]
    editions: tuple[AuditEditionRow, ...]
    summary: tuple[AuditCode, ...]
    findings: tuple[AuditFinding, ...]
    legend: tuple[AuditLegend, ...]


# --- text ---------------------------------------------------------------------------------
def _plural(n: int, word: str) -> str:
    return f"{n} {word}" + ("" if n == 1 else "s")


def audit_text(edition: Edition, findings: Sequence[Diagnostic]) -> str:
    """One line per finding (``LINE SEVERITY CODE RULE: message``), then a summary."""
    lines = []
    for f in findings:
        where = f"{f.line:>5}" if f.line else "    -"
        lines.append(f"{where}  {f.severity:<7}  {f.code:<21}  {f.rule or '-'}: {f.message}")
        if f.suggestion:
            lines.append(f"{'':>5}  {'':<7}  {'':<21}  suggestion: {f.suggestion}")
    tally = severity_counts(findings)
    errors, warnings = _plural(tally["error"], "error"), _plural(tally["warning"], "warning")
    total = _plural(len(findings), "finding")
    lines.append(f"{edition.date_text}: {total} ({errors}, {warnings}, {tally['info']} info)")
    return "\n".join(lines) + "\n"


def corpus_table(rows: Sequence[AuditSummary]) -> str:
    """A Markdown table: edition, errors, warnings, info, then one column per code."""
    codes = table_codes(rows)
    head = ["edition", "errors", "warnings", "info", *codes]
    out = ["| " + " | ".join(head) + " |", "|" + "|".join("---" for _ in head) + "|"]
    for row in rows:
        cells = [row.edition, *(str(row.severities[s]) for s in SEVERITIES)]
        cells += [str(row.counts.get(code, 0)) for code in codes]
        out.append("| " + " | ".join(cells) + " |")
    return "\n".join(out) + "\n"


# --- HTML ---------------------------------------------------------------------------------
def _page(title: str, links: Links) -> Page:
    """The frame: the site's navigation, or a standalone page (stylesheet inlined)."""
    return Page(
        title=title,
        search=links.search(),
        stylesheet=links.static("rulediff.css") if links.site else None,
        home=links.index(),
        crumbs=(NavLink("Editions", links.index()), NavLink("Audit", None)) if links.site else (),
        generator=f"rulediff {_version()}",
    )


def _rule_link(edition: Edition, finding: Diagnostic, links: Links) -> RuleLink:
    label = finding.rule or ""
    if not label or label.startswith("glossary:"):
        return RuleLink(label, None)
    exists = edition.rule(label) is not None
    return RuleLink(label, links.rule(edition.date_text, label) if exists else None)


def _version() -> str:
    from .. import __version__

    return __version__


def _excerpt(edition: Edition, finding: Diagnostic) -> str:
    if finding.rule is None:
        return ""
    if finding.rule.startswith("glossary:"):
        entry = edition.glossary_entry(finding.rule.split(":", 1)[1])
        return entry.text if entry else ""
    rule = edition.rule(finding.rule)
    return rule.text if rule is not None else ""


def build_audit_report(
    edition: Edition, findings: Sequence[Diagnostic], links: Links | None = None
) -> AuditReport:
    """The view of one edition's audit: a summary by code, then every finding in
    document order with its suggestion and the text of the rule it is about (linked to
    the full text when ``links`` is a site's)."""
    links = links or Links(site=False)
    tally = counts(findings)
    by_severity: dict[tuple[str, str], int] = {}
    for f in findings:
        by_severity[(f.code, f.severity)] = by_severity.get((f.code, f.severity), 0) + 1
    order = {code: i for i, code in enumerate(tally)}
    summary_keys = sorted(by_severity, key=lambda k: (order[k[0]], SEVERITIES.index(k[1])))
    title = f"Audit of the Comprehensive Rules of {edition.date_text}"
    return AuditReport(
        page=_page(title, links),
        version=_version(),
        title=title,
        subtitle=f"{edition.title} · {len(findings)} findings · sha256 {edition.sha256[:12]}",
        codes=(),
        editions=(),
        summary=tuple(
            AuditCode(c, sev, by_severity[(c, sev)], MEANINGS.get(c, "")) for c, sev in summary_keys
        ),
        findings=tuple(
            AuditFinding(
                line=f.line or "",
                rule=_rule_link(edition, f, links),
                code=f.code,
                severity=f.severity,
                message=f.message,
                suggestion=f.suggestion or "",
                excerpt=_excerpt(edition, f),
            )
            for f in findings
        ),
        legend=tuple(AuditLegend(c, m) for c, m in MEANINGS.items() if c in tally),
    )


def build_corpus_report(rows: Sequence[AuditSummary]) -> AuditReport:
    """The view of ``audit --all``: findings by code for every edition."""
    codes = table_codes(rows)
    title = "Audit of every edition of the Comprehensive Rules"
    return AuditReport(
        page=_page(title, Links(site=False)),
        version=_version(),
        title=title,
        subtitle=f"{len(rows)} editions · findings by code",
        codes=tuple(codes),
        editions=tuple(
            AuditEditionRow(r.edition, tuple(r.counts.get(c, 0) for c in codes), r.total)
            for r in rows
        ),
        summary=(),
        findings=(),
        legend=tuple(AuditLegend(c, MEANINGS.get(c, "")) for c in codes),
    )


def render_audit(report: AuditReport) -> str:
    return template("audit.html.j2").render(report=report, page=report.page)


def audit_html(edition: Edition, findings: Sequence[Diagnostic]) -> str:
    """A standalone page of one edition's audit."""
    return render_audit(build_audit_report(edition, findings))


def corpus_html(rows: Sequence[AuditSummary]) -> str:
    """A standalone page of every edition's findings by code."""
    return render_audit(build_corpus_report(rows))


__all__ = [
    "AuditReport",
    "audit_html",
    "audit_text",
    "build_audit_report",
    "build_corpus_report",
    "corpus_html",
    "corpus_table",
    "render_audit",
]
