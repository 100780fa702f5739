"""JSON endpoints under ``/api``: the CLI's answers over HTTP.

Where the CLI has a JSON form, the body is byte for byte what the CLI prints for the same
question (``rulediff diff A B --format json`` ↔ ``/api/diff/A/B``); ``?format=text`` gives
the CLI's text where it has one. Every ``{edition}`` (and ``edition=``) takes what the
CLI takes, except paths: a date ``2024-11-08``, a set code or name, ``latest``, ``@DATE``.
"""

from __future__ import annotations

import datetime as dt
import difflib
import json
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from ..model import Edition, GlossaryEntry, RuleId
from .http import send
from .state import BadRequest, Body, NotFound, State

router = APIRouter()

JSON = "application/json"
TEXT = "text/plain; charset=utf-8"

EditionRef = Annotated[
    str,
    Path(
        max_length=64,
        description="A date (2024-11-08), set code or name (FDN), 'latest', or '@DATE'.",
    ),
]
RuleRef = Annotated[str, Path(max_length=32, description="A rule number: 7, 702, 702.36, 702.36a.")]
TextOrJson = Annotated[Literal["json", "text"], Query()]


def state_of(request: Request) -> State:
    return request.app.state.rulediff  # type: ignore[no-any-return]


def dumps(doc: Any, indent: int = 2) -> str:
    return json.dumps(doc, ensure_ascii=False, indent=indent) + "\n"


def rule_id(text: str) -> RuleId:
    """A rule number from a request, or 400."""
    found = RuleId.try_parse(text.strip().lower().rstrip("."))
    if found is None:
        raise BadRequest(f"{text[:40]!r} is not a rule number (e.g. 7, 702, 702.36 or 702.36a)")
    return found


def existing_rule(edition: Edition, text: str) -> str:
    """The number of a rule (or section) of ``edition``, or 404 naming the nearest."""
    from ..commands.parse import nearest_rules

    rid = rule_id(text)
    if edition.rule(rid) is None and not (rid.is_section and edition.section(rid.rule)):
        raise NotFound(
            f"no rule {rid} in the edition of {edition.date_text}", nearest_rules(edition, rid)
        )
    return str(rid)


class Ask:
    """One request's edition(s), resolved; ``stable`` if every reference was a date or set."""

    def __init__(self, request: Request, *refs: str) -> None:
        self.request = request
        self.state = state_of(request)
        self.infos = [self.state.resolve(ref) for ref in refs]
        self.stable = all(self.state.stable(ref) for ref in refs)

    def edition(self, k: int = 0) -> Edition:
        return self.state.load(self.infos[k])

    def key(self, *parts: object) -> str:
        return "|".join([*(i.sha256 for i in self.infos), *(str(p) for p in parts)])

    def reply(self, key: str, make: Any, media_type: str = JSON) -> Response:
        body = self.state.body(key, lambda: Body.of(make(), media_type))
        return send(self.request, body, stable=self.stable)


# --- editions --------------------------------------------------------------------------
@router.get("/editions", summary="Every edition of the corpus, oldest first")
def editions(request: Request) -> Response:
    """The document of ``rulediff corpus list --format json``; file names only (the
    server's folders are not disclosed)."""
    state = state_of(request)

    def make() -> str:
        from ..commands.corpus import list_document

        rows = [(info, len(state.load(info).rules)) for info in state.infos]
        doc = list_document(state.corpus, rows)
        doc["corpus"] = state.corpus.directory.name
        for entry in doc["editions"]:
            entry["file"] = entry["file"].rsplit("/", 1)[-1]
        return dumps(doc)

    body = state.body(
        "editions|" + "|".join(i.sha256 for i in state.infos), lambda: Body.of(make(), JSON)
    )
    return send(request, body, stable=False)


@router.get("/editions/{edition}", summary="The whole model of an edition (rulediff parse)")
def parse(request: Request, edition: EditionRef, format: TextOrJson = "json") -> Response:  # noqa: A002
    """``rulediff parse EDITION`` (json) or ``--format text`` (the normalized text)."""
    from ..commands.parse import edition_json

    ask = Ask(request, edition)
    if format == "text":
        return ask.reply(ask.key("text"), lambda: ask.edition().to_text(), TEXT)
    return ask.reply(ask.key("parse"), lambda: edition_json(ask.edition()))


@router.get("/editions/{edition}/text", summary="The text of an edition, UTF-8")
def raw_text(request: Request, edition: EditionRef) -> Response:
    """Exactly ``rulediff parse EDITION --format text``: the edition's text, UTF-8, LF."""
    ask = Ask(request, edition)
    return ask.reply(ask.key("text"), lambda: ask.edition().to_text(), TEXT)


@router.get("/editions/{edition}/toc", summary="Sections and contents table")
def toc(request: Request, edition: EditionRef) -> Response:
    """``sections`` and ``contents`` as in ``rulediff parse`` JSON."""
    from ..commands.parse import edition_as_dict

    ask = Ask(request, edition)

    def make() -> str:
        doc = edition_as_dict(ask.edition())
        keep = ("effective_date", "title", "sha256", "sections", "contents")
        return dumps({k: doc[k] for k in keep})

    return ask.reply(ask.key("toc"), make)


def _rule_dicts(edition: Edition) -> tuple[list[dict[str, Any]], list[dict[str, Any]]]:
    """Rules and glossary entries as ``rulediff parse`` JSON has them (with clauses)."""
    from ..commands.parse import edition_as_dict

    doc = edition_as_dict(edition)
    return doc["rules"], doc["glossary"]


@router.get("/editions/{edition}/rules", summary="Every rule of an edition")
def rules(request: Request, edition: EditionRef) -> Response:
    """The ``rules`` of ``rulediff parse`` JSON."""
    ask = Ask(request, edition)
    return ask.reply(ask.key("rules"), lambda: dumps(_rule_dicts(ask.edition())[0]))


@router.get("/editions/{edition}/rules/{rule}", summary="One rule with its subrules and examples")
def rule(
    request: Request, edition: EditionRef, rule: RuleRef, format: TextOrJson = "json"
) -> Response:  # noqa: A002
    """JSON: the rule and its subrules (each as in ``rulediff parse``, without the clause
    structure, which ``/rules`` has); text: exactly ``rulediff show``."""
    from ..commands.parse import rule_as_dict, rule_block

    ask = Ask(request, edition)
    ed = ask.edition()
    number = existing_rule(ed, rule)
    if format == "text":
        return ask.reply(ask.key("show", number), lambda: rule_block(ed, number), TEXT)

    def make() -> str:
        section = ed.section(number) if RuleId.parse(number).is_section else None
        own = ed.rule(number)
        found = [rule_as_dict(r) for r in ((own,) if own else ()) + ed.descendants(number)]
        return dumps(
            {
                "edition": ed.date_text,
                "rule": number,
                "section": {"id": number, "title": section.title} if section else None,
                "rules": found,
            }
        )

    return ask.reply(ask.key("rule", number), make)


@router.get("/editions/{edition}/glossary", summary="The glossary")
def glossary(request: Request, edition: EditionRef) -> Response:
    """The ``glossary`` of ``rulediff parse`` JSON."""
    ask = Ask(request, edition)
    return ask.reply(ask.key("glossary"), lambda: dumps(_rule_dicts(ask.edition())[1]))


def find_term(ed: Edition, term: str, fuzzy: bool) -> GlossaryEntry:
    """The glossary entry named ``term`` (any case); with ``fuzzy``, the closest one; else
    a 404 naming the nearest terms. Shared by ``/api`` and the compatible routes."""
    from ..commands.parse import nearest_terms

    entry = ed.glossary_entry(term)
    if entry is None and fuzzy and ed.glossary:
        entry = ed.glossary_entry(nearest_terms(ed, term, limit=1)[0])
    if entry is None:
        near = nearest_terms(ed, term) if ed.glossary else []
        raise NotFound(f"no glossary term {term!r} in the edition of {ed.date_text}", near)
    return entry


@router.get("/editions/{edition}/glossary/{term}", summary="One glossary term (exact or fuzzy)")
def glossary_term(
    request: Request,
    edition: EditionRef,
    term: Annotated[str, Path(max_length=100)],
    fuzzy: bool = False,
    format: TextOrJson = "json",  # noqa: A002
) -> Response:
    """Exact (case-insensitive) lookup; with ``fuzzy=true`` the closest term (rapidfuzz).
    Text: ``rulediff glossary TERM``."""
    from ..commands.parse import glossary_as_dict, glossary_block

    ask = Ask(request, edition)
    ed = ask.edition()
    entry = find_term(ed, term, fuzzy)
    if format == "text":
        return ask.reply(ask.key("term", entry.term), lambda: glossary_block(ed, entry.term), TEXT)
    return ask.reply(
        ask.key("term-json", entry.term),
        lambda: dumps({"edition": ed.date_text, "asked": term} | glossary_as_dict(entry)),
    )


@router.get(
    "/editions/{edition}/keywords", summary="Keyword abilities, keyword actions, ability words"
)
def keywords(request: Request, edition: EditionRef) -> Response:
    from ..keywords import keywords as find

    ask = Ask(request, edition)
    return ask.reply(
        ask.key("keywords"),
        lambda: dumps({"edition": ask.edition().date_text} | find(ask.edition()).as_dict()),
    )


@router.get("/editions/{edition}/flags", summary="Behaviour flags of an edition")
def flags(request: Request, edition: EditionRef) -> Response:
    """``rulediff flags EDITION`` (json)."""
    from ..flags.exporters import to_json
    from ..flags.timeline import cached_flags_for

    ask = Ask(request, edition)
    return ask.reply(ask.key("flags"), lambda: to_json(cached_flags_for(ask.edition())))


@router.get("/flags/timeline", summary="Every edition's flags and where each changed")
def flags_timeline(request: Request) -> Response:
    """``rulediff flags --timeline --format json``."""
    from ..flags.exporters import timeline_to_json
    from ..flags.timeline import corpus_timeline

    state = state_of(request)
    key = "timeline|" + "|".join(i.sha256 for i in state.infos)
    body = state.body(key, lambda: Body.of(timeline_to_json(corpus_timeline(state.corpus)), JSON))
    return send(request, body, stable=False)


@router.get("/editions/{edition}/audit", summary="Audit findings of an edition")
def audit(request: Request, edition: EditionRef) -> Response:
    """``rulediff audit EDITION --format json``."""
    from ..audit import audit as run_audit
    from ..audit import audit_json

    ask = Ask(request, edition)

    def make() -> str:
        ed = ask.edition()
        return dumps(audit_json(ed, run_audit(ed)))

    return ask.reply(ask.key("audit"), make)


@router.get("/editions/{edition}/engine/{scenario}", summary="Run a named scenario")
def engine_run(
    request: Request, edition: EditionRef, scenario: Annotated[str, Path(max_length=64)]
) -> Response:
    """``rulediff engine run SCENARIO --edition EDITION --format json`` (named scenarios only)."""
    from ..engine import open_scenario, run, scenario_names
    from ..engine.runner import flags_of

    names = scenario_names()
    if scenario not in names:
        near = difflib.get_close_matches(scenario, names, n=3, cutoff=0.3)
        raise NotFound(f"no scenario named {scenario!r}", near or names[:3])
    ask = Ask(request, edition)

    def make() -> str:
        ed = ask.edition()
        return dumps(run(open_scenario(scenario), flags_of(ed), edition=ed).as_dict())

    return ask.reply(ask.key("engine", scenario), make)


@router.get("/scenarios", summary="The named engine scenarios")
def scenarios() -> list[str]:
    from ..engine import scenario_names

    return scenario_names()


# --- across editions ---------------------------------------------------------------------
@router.get("/diff/{old}/{new}", summary="What changed from OLD to NEW (any two editions)")
def diff(
    request: Request,
    old: EditionRef,
    new: EditionRef,
    all: bool = False,  # noqa: A002
    format: Literal["json", "text", "md"] = "json",  # noqa: A002
    through: bool = False,
) -> Response:
    """``rulediff diff OLD NEW --format json`` (``all=true``: ``--all``; ``through=true``:
    ``--through``); also text, md. Computed once per pair however many ask at once, then
    cached on disk."""
    from ..commands import diff as cli  # the CLI's own renderers, wherever they live
    from ..diff import as_dict

    ask = Ask(request, old, new)
    if through and ask.state.index_of(ask.infos[0]) > ask.state.index_of(ask.infos[1]):
        raise BadRequest(f"through: OLD ({old}) is newer than NEW ({new}); swap them")

    def make() -> str:
        if through:
            d = through_diff(ask.state, ask.infos[0], ask.infos[1])
        else:
            d = pair_diff(ask.state, ask.edition(0), ask.edition(1))
        if format == "json":
            return dumps(as_dict(d, include_unchanged=all), indent=1)
        render = cli.to_markdown if format == "md" else cli.to_text
        return render(d, include_unchanged=all)

    media = JSON if format == "json" else TEXT
    return ask.reply(ask.key("diff", format, all, through), make, media)


def pair_diff(state: State, old: Edition, new: Edition) -> Any:
    """The diff of a pair, computed once however many requests want it at the same time."""
    from ..diff import diff_cached

    return state.flight.do(
        f"diff:{old.sha256}:{new.sha256}", lambda: diff_cached(old, new), across_processes=True
    )


def through_diff(state: State, old: Any, new: Any) -> Any:
    """The diff of a pair following the corpus editions between (``diff --through``),
    computed once however many requests want it at the same time."""
    from ..history import Lineage
    from ..through import diff_through

    def make() -> Any:
        lineage = lineage_of(state)
        first, last = state.index_of(old), state.index_of(new)
        between = Lineage(lineage.editions[first : last + 1], lineage.steps[first:last])
        return diff_through(state.load(old), state.load(new), between)

    return state.flight.do(f"through:{old.sha256}:{new.sha256}", make, across_processes=True)


def lineage_of(state: State) -> Any:
    from ..history import build_lineage

    return state.flight.do(
        "lineage:" + "|".join(i.sha256 for i in state.infos),
        lambda: build_lineage(state.infos, state.corpus.load),
        across_processes=True,
    )


def history_of(state: State, info: Any, rule: str) -> tuple[Any, Any]:
    """The history of ``rule`` as numbered in edition ``info`` and its texts."""
    from ..history import history_details, rule_history

    lineage = lineage_of(state)
    k = state.index_of(info)
    number = existing_rule(state.load(info), rule)
    by_date = {str(i.date): i for i in state.infos}
    found = rule_history(lineage, number, k)
    return found, history_details(found, lambda date: state.load(by_date[date]))


@router.get("/history/{rule}", summary="Every change of a rule across the corpus")
def history(
    request: Request,
    rule: RuleRef,
    edition: str = "latest",
    format: TextOrJson = "json",  # noqa: A002
) -> Response:
    """``rulediff history RULE --edition E --format json|text`` (RULE numbered as in E)."""
    from ..commands.diff import history_text
    from ..history import history_as_dict

    ask = Ask(request, edition)
    existing_rule(ask.edition(), rule)

    def make() -> str:
        found, details = history_of(ask.state, ask.infos[0], rule)
        if format == "text":
            return history_text(found)
        return dumps(history_as_dict(found, details), indent=1)

    return ask.reply(
        ask.key("history", rule_id(rule), format), make, TEXT if format == "text" else JSON
    )


@router.get("/at/{rule}/{date}", summary="A rule as it stood on a date")
def at(
    request: Request,
    rule: RuleRef,
    date: Annotated[str, Path(max_length=10)],
    follow: bool = False,
) -> Response:
    """``rulediff at RULE DATE --format json`` (``follow=true``: ``--follow``, RULE numbered
    as today and traced back through renumberings)."""
    from ..commands.diff import at_document, follow_back

    try:
        day = dt.date.fromisoformat(date.strip())
    except ValueError:
        raise BadRequest(f"{date!r} is not a date (YYYY-MM-DD)") from None
    state = state_of(request)
    wanted = str(rule_id(rule))
    if follow:
        wanted = follow_back(lineage_of(state), state.load(state.infos[-1]), rule, day)
    ask = Ask(request, f"@{day.isoformat()}")
    ed = ask.edition()
    wanted = existing_rule(ed, wanted)
    ask.stable = False  # the corpus may gain an edition in force on that day
    return ask.reply(
        ask.key("at", rule, day, follow),
        lambda: dumps(at_document(ed, wanted, rule, day), indent=1),
    )


@router.get("/search", summary="Ranked search of one edition or all of them")
def search(
    request: Request,
    q: Annotated[
        str, Query(min_length=1, max_length=500, description='Words, "a phrase", or a rule number.')
    ],
    edition: str = "latest",
    all_editions: bool = False,
    limit: Annotated[int, Query(ge=1, le=200)] = 20,
) -> Response:
    """``rulediff search WORDS [--edition E] [--all-editions] --format json``: the same
    ranking; with ``all_editions`` the first and last edition of each phrase."""
    from ..search import open_index, search_document

    state = state_of(request)
    date = None if all_editions else str(state.resolve(edition).date)
    index = state.flight.do("search-index", lambda: open_index(state.corpus))

    def make() -> Body:
        doc = search_document(index, q, edition=date, all_editions=all_editions, limit=limit)
        return Body.of(dumps(doc), JSON)

    # The index is immutable (its file is named by its inputs): answers can be kept.
    key = f"search|{index.path.name}|{date}|{all_editions}|{limit}|{q}"
    return send(request, state.body(key, make), stable=False)
