"""Routes and JSON shapes of the best-known public CR API (Academy Ruins), for its clients.

Mounted at ``/compat/academyruins/`` (and at ``/`` with ``--compat-root``), so a client
switches by changing its base URL. Same paths, parameters, status codes and field names:

* ``GET /cr/{rule_id}[?exact_match=true]`` → ``{"ruleNumber", "ruleText"}``; a bare
  keyword heading (``702.36`` "Morph") gives the subrule that defines the keyword (its
  first subrule) unless ``exact_match=true``;
* ``GET /cr/example/{rule_id}`` → ``{"ruleNumber", "examples"}``;
* ``GET /cr/glossary`` → ``[{"term", "definition"}]``; ``GET /cr/glossary/{term}
  [?fuzzy=true]`` → ``{"term", "definition"}``;
* ``GET /cr/toc`` → ``[{"ruleNumber", "title", "subsections": [{"ruleNumber", "title"}]}]``;
* ``GET /cr/keywords`` → ``{"keywordAbilities", "keywordActions", "abilityWords"}``;
* ``GET /cr/trace/{rule_id}`` → changes newest first: ``{"action": created | moved |
  edited | replaced, "old": {"ruleNum", "ruleText"} | null, "new": … , "date"}``;
* ``GET /diff/cr?old=SET&new=SET`` → ``{"creationDay", "changes": [{"old", "new"}],
  "moves": [{"from", "to"}], "sourceSet", "sourceCode", "destSet", "destCode"}``, changed
  words wrapped in ``<<<<``…``>>>>``; reference-only and spacing-only changes left out
  (as the original, which diffs words); any two editions;
* ``GET /file/cr`` → the text, UTF-8.

Unknown rule or term: 404 ``{"detail": …}``. Beyond the original, every route takes
``edition=`` (any reference the CLI takes; default ``latest``).
"""

from __future__ import annotations

import json
from typing import Annotated, Any

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import Response

from ..model import Edition, Rule
from .api import TEXT, Ask, existing_rule, find_term, history_of, pair_diff, rule_id
from .state import NotFound

router = APIRouter(tags=["compatible (Academy Ruins)"])

EditionParam = Annotated[
    str, Query(max_length=64, description="Any edition reference the CLI takes (default latest).")
]
RuleParam = Annotated[str, Path(max_length=32)]
OPEN, CLOSE = "<<<<", ">>>>"


def _json(doc: Any) -> str:
    return json.dumps(doc, ensure_ascii=False) + "\n"


def _defining(edition: Edition, number: str) -> Rule | None:
    """For a keyword heading (702.36 "Morph"), the subrule that defines it (702.36a)."""
    rule = edition.rule(number)
    if rule is None or not rule.title:
        return rule
    children = edition.children(number)
    return children[0] if children else rule


def _rule_text(rule: Rule) -> str:
    return rule.title if rule.title and not rule.text else rule.text


@router.get("/cr/example/{rule_id}", summary="A rule's examples")
def cr_examples(request: Request, rule_id: RuleParam, edition: EditionParam = "latest") -> Response:
    ask = Ask(request, edition)
    ed = ask.edition()
    number = existing_rule(ed, rule_id)
    rule = ed.rule(number)
    examples = [e.text for e in rule.examples] if rule is not None else []
    return ask.reply(
        ask.key("ar-example", number), lambda: _json({"ruleNumber": number, "examples": examples})
    )


@router.get("/cr/glossary", summary="The whole glossary")
def cr_glossary(request: Request, edition: EditionParam = "latest") -> Response:
    ask = Ask(request, edition)
    return ask.reply(
        ask.key("ar-glossary"),
        lambda: _json([{"term": g.term, "definition": g.text} for g in ask.edition().glossary]),
    )


@router.get("/cr/glossary/{term}", summary="One glossary term (fuzzy=true: the closest)")
def cr_glossary_term(
    request: Request,
    term: Annotated[str, Path(max_length=100)],
    fuzzy: bool = False,
    edition: EditionParam = "latest",
) -> Response:
    ask = Ask(request, edition)
    ed = ask.edition()
    entry = find_term(ed, term, fuzzy)
    return ask.reply(
        ask.key("ar-term", entry.term),
        lambda: _json({"term": entry.term, "definition": entry.text}),
    )


@router.get("/cr/toc", summary="Table of contents")
def cr_toc(request: Request, edition: EditionParam = "latest") -> Response:
    ask = Ask(request, edition)

    def make() -> str:
        ed = ask.edition()
        out = []
        for section in ed.sections:
            subs = [
                {"ruleNumber": str(r.id), "title": r.title or r.text}
                for r in ed.rules
                if r.id.depth == 1 and r.id.section == section.id.section
            ]
            out.append({"ruleNumber": str(section.id), "title": section.title, "subsections": subs})
        return _json(out)

    return ask.reply(ask.key("ar-toc"), make)


@router.get("/cr/keywords", summary="Keyword abilities, keyword actions, ability words")
def cr_keywords(request: Request, edition: EditionParam = "latest") -> Response:
    from ..keywords import keywords

    ask = Ask(request, edition)

    def make() -> str:
        k = keywords(ask.edition())
        return _json(
            {
                "keywordAbilities": [name for _n, name in k.keyword_abilities],
                "keywordActions": [name for _n, name in k.keyword_actions],
                "abilityWords": list(k.ability_words or ()),
            }
        )

    return ask.reply(ask.key("ar-keywords"), make)


_ACTIONS = {
    "added": "created",
    "renumbered": "moved",
    "edited": "edited",
    "renumbered-edited": "edited",
    "split": "replaced",
    "merged": "replaced",
    "removed": "replaced",
}


@router.get("/cr/trace/{rule_id}", summary="A rule's changes, newest first")
def cr_trace(request: Request, rule_id: RuleParam, edition: EditionParam = "latest") -> Response:
    ask = Ask(request, edition)
    number = existing_rule(ask.edition(), rule_id)

    def make() -> str:
        found, details = history_of(ask.state, ask.infos[0], number)
        out = []
        for detail in details:
            e = detail.event
            action = _ACTIONS.get(e.kind)
            if action is None:  # unchanged text (only examples changed)
                continue
            if e.kind == "renumbered-edited" or (e.kind == "edited" and e.moved):
                action = "edited"
            old = (
                {"ruleNum": "+".join(e.old_ids), "ruleText": detail.old_text}
                if e.old_ids and e.kind != "added"
                else None
            )
            new = (
                {"ruleNum": "+".join(e.new_ids), "ruleText": detail.new_text} if e.new_ids else None
            )
            out.append({"action": action, "old": old, "new": new, "date": e.date})
        return _json(out)

    return ask.reply(ask.key("ar-trace", number), make)


def _wrapped(words: Any, side: str) -> str:
    """One side of a word diff with the changed words inside ``<<<<`` … ``>>>>``."""
    skip, mark = ("insert", "delete") if side == "old" else ("delete", "insert")
    out = []
    for w in words:
        if w.op == skip:
            continue
        if w.op == mark:
            core = w.text.strip()
            lead = w.text[: len(w.text) - len(w.text.lstrip())]
            tail = w.text[len(w.text.rstrip()) :]
            out.append(f"{lead}{OPEN}{core}{CLOSE}{tail}" if core else w.text)
        else:
            out.append(w.text)
    return "".join(out)


@router.get("/diff/cr", summary="Changes between two editions (any two)")
def diff_cr(
    request: Request,
    old: Annotated[str | None, Query(max_length=64)] = None,
    new: Annotated[str | None, Query(max_length=64)] = None,
    edition: EditionParam | None = None,
) -> Response:
    """Without ``old``/``new``: the newest edition (or ``edition``) against the one before."""
    state = Ask(request).state
    if new is None:
        new = edition or "latest"
    if old is None:
        k = state.index_of(state.resolve(new))
        if k == 0:
            raise NotFound(f"{new!r} is the oldest edition: give old=")
        old = str(state.infos[k - 1].date)
    ask = Ask(request, old, new)

    def make() -> str:
        before, after = ask.edition(0), ask.edition(1)
        d = pair_diff(ask.state, before, after)
        changes, moves = [], []
        for c in d.changes:
            if c.domain != "rule" or c.kind == "unchanged":
                continue
            if c.kind == "renumbered" or (c.kind == "references-only" and c.old_ids != c.new_ids):
                # A move; a renumbered rule whose references were only kept up to date too.
                pairs = zip(c.old_ids, c.new_ids, strict=False)
                moves.extend({"from": a, "to": b} for a, b in pairs)
                continue
            if c.kind == "references-only":
                continue
            one_to_one = len(c.old_ids) <= 1 and len(c.new_ids) <= 1
            old_text = _wrapped(c.words, "old") if one_to_one else c.old_text()
            new_text = _wrapped(c.words, "new") if one_to_one else c.new_text()
            if c.old_ids and c.new_ids and one_to_one and OPEN not in old_text + new_text:
                continue  # only spacing changed: no word to mark, nothing a reader would see
            changes.append(
                {
                    "old": {"ruleNum": "+".join(c.old_ids), "ruleText": old_text}
                    if c.old_ids
                    else None,
                    "new": {"ruleNum": "+".join(c.new_ids), "ruleText": new_text}
                    if c.new_ids
                    else None,
                }
            )
        a, b = ask.infos
        return _json(
            {
                "creationDay": str(b.date),
                "changes": changes,
                "moves": moves,
                "sourceSet": a.set_name,
                "sourceCode": a.set_code,
                "destSet": b.set_name,
                "destCode": b.set_code,
            }
        )

    return ask.reply(ask.key("ar-diff"), make)


@router.get("/file/cr", summary="The text of the edition, UTF-8")
def file_cr(request: Request, edition: EditionParam = "latest") -> Response:
    ask = Ask(request, edition)
    return ask.reply(ask.key("text"), lambda: ask.edition().to_text(), TEXT)


# Declared last: "/cr/glossary", "/cr/toc"… are matched before a rule number.
@router.get("/cr/{rule_id}", summary="One rule: ruleNumber, ruleText")
def cr_rule(
    request: Request,
    rule_id: RuleParam,
    exact_match: bool = False,
    edition: EditionParam = "latest",
) -> Response:
    ask = Ask(request, edition)
    ed = ask.edition()
    number = existing_rule(ed, rule_id)

    def make() -> str:
        rule = ed.rule(number) if exact_match else _defining(ed, number)
        if rule is None:  # a section: its title
            section = ed.section(number)
            return _json({"ruleNumber": number, "ruleText": section.title if section else ""})
        return _json({"ruleNumber": str(rule.id), "ruleText": _rule_text(rule)})

    return ask.reply(ask.key("ar-rule", number, exact_match), make)


__all__ = ["router", "rule_id"]
