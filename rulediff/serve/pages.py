"""Live HTML pages under ``/``, rendered on demand from the static site's templates.

The URLs are the site's own (``editions/DATE.html``, ``changes/OLD_NEW.html``,
``rules/KEY.html``, ``static/…``), so the templates' relative links work unchanged; but
here *any* pair has a changelog and every rule of every edition a history page
(``rules/702.36e_2015-01-23.html``: 702.36e as numbered in that edition;
``rules/702.36e.html``: as numbered in the newest). A form on ``/`` picks two editions.
"""

from __future__ import annotations

import re
from typing import Annotated

from fastapi import APIRouter, Path, Query, Request
from fastapi.responses import RedirectResponse, Response

from ..render.links import Links
from .api import JSON, Ask, existing_rule, history_of, pair_diff, state_of
from .http import send
from .state import BadRequest, Body, NotFound

router = APIRouter(include_in_schema=False)

HTML = "text/html; charset=utf-8"
_PAIR = re.compile(r"^(\d{4}-\d{2}-\d{2})_(\d{4}-\d{2}-\d{2})$")
#: A query that is only a rule number: ``702.36``, ``702.36d``, ``704.5j.``.
_RULE_NUMBER = re.compile(r"(\d{3}(?:\.\d+[a-z]{0,2})?)\.?", re.IGNORECASE)
_RULE_KEY = re.compile(r"^([0-9][0-9a-z.]{0,15}?)(?:_(\d{4}-\d{2}-\d{2}))?$")


def _history_key(date: str):  # type: ignore[no-untyped-def]
    return lambda rule_id: f"{rule_id}_{date}"


@router.get("/")
@router.get("/index.html")
def home(request: Request) -> Response:
    from ..render.live import build_home_view, render_home

    state = state_of(request)
    view = build_home_view((str(i.date), i.set_name or i.set_code) for i in state.infos)
    html = render_home(view)
    return send(request, Body.of(html, HTML), stable=False)


@router.get("/compare")
def compare(
    request: Request,
    old: Annotated[str, Query(max_length=64)],
    new: Annotated[str, Query(max_length=64)],
) -> Response:
    """The form's target: resolve both references, go to the pair's changelog."""
    ask = Ask(request, old, new)
    a, b = ask.infos
    return RedirectResponse(f"changes/{a.date}_{b.date}.html", status_code=303)


@router.get("/history")
def history_form(
    request: Request,
    rule: Annotated[str, Query(max_length=32)],
    edition: Annotated[str, Query(max_length=64)] = "latest",
) -> Response:
    """The history form's target: the rule's history page, numbered as in ``edition``."""
    ask = Ask(request, edition)
    number = existing_rule(ask.edition(), rule)
    return RedirectResponse(f"rules/{number}_{ask.infos[0].date}.html", status_code=303)


@router.get("/favicon.ico")
def favicon() -> Response:
    """Browsers ask for it on every site; there is none (and no console error for it)."""
    return Response(status_code=204, headers={"Cache-Control": "public, max-age=86400"})


@router.get("/static/{name}")
def static(request: Request, name: Annotated[str, Path(max_length=64)]) -> Response:
    """Only the assets the site lists (read from the package, never from a request path)."""
    from ..render.env import STATIC_ASSETS, static_css

    if name not in STATIC_ASSETS or name != "rulediff.css":
        raise NotFound(f"no static file {name!r}", list(STATIC_ASSETS))
    return send(request, Body.of(static_css(), "text/css; charset=utf-8"), stable=False)


@router.get("/editions/{page}")
def edition_page(request: Request, page: Annotated[str, Path(max_length=80)]) -> Response:
    from ..render.edition import build_edition_view, render_edition_html

    ref = page.removesuffix(".html")
    ask = Ask(request, ref)
    info = ask.infos[0]
    if page != f"{info.date}.html":
        return RedirectResponse(f"{info.date}.html", status_code=303)
    state = ask.state
    k = state.index_of(info)

    def make() -> str:
        view = build_edition_view(
            ask.edition(),
            Links(root="../"),
            set_name=info.set_name,
            set_code=info.set_code,
            previous=str(state.infos[k - 1].date) if k > 0 else None,
            following=str(state.infos[k + 1].date) if k + 1 < len(state.infos) else None,
            history_key=_history_key(str(info.date)),
        )
        return render_edition_html(view)

    return ask.reply(ask.key("page-edition"), make, HTML)


@router.get("/changes/{page}")
def changelog_page(request: Request, page: Annotated[str, Path(max_length=80)]) -> Response:
    from ..render.changelog import build_changelog_view, render_changelog

    m = _PAIR.match(page.removesuffix(".html"))
    if m is None:
        raise BadRequest(f"{page!r}: a changelog page is named OLD_NEW.html (two dates)")
    ask = Ask(request, m.group(1), m.group(2))
    a, b = ask.infos
    state = ask.state

    def make() -> str:
        old, new = ask.edition(0), ask.edition(1)
        d = pair_diff(state, old, new)
        ka, kb = state.index_of(a), state.index_of(b)
        neighbours = kb == ka + 1
        view = build_changelog_view(
            d,
            Links(root="../"),
            old=old,
            new=new,
            old_set=(a.set_name, a.set_code),
            new_set=(b.set_name, b.set_code),
            previous=str(state.infos[ka - 1].date) if neighbours and ka > 0 else None,
            following=str(state.infos[kb + 1].date)
            if neighbours and kb + 1 < len(state.infos)
            else None,
            history_old=_history_key(str(a.date)),
            history_new=_history_key(str(b.date)),
        )
        return render_changelog(view)

    return ask.reply(ask.key("page-changelog"), make, HTML)


@router.get("/rules/{page}")
def history_page(request: Request, page: Annotated[str, Path(max_length=80)]) -> Response:
    from ..render.history import build_history_view, render_history

    state = state_of(request)
    key = page.removesuffix(".html")
    if key == "index":
        return RedirectResponse(f"../editions/{state.infos[-1].date}.html", status_code=303)
    m = _RULE_KEY.match(key)
    if m is None:
        raise BadRequest(f"{page!r}: a history page is named RULE.html or RULE_DATE.html")
    ask = Ask(request, m.group(2) or "latest")
    number = existing_rule(ask.edition(), m.group(1))
    by_date = {str(i.date): i for i in state.infos}

    def text_of(date: str, rule_id: str) -> str | None:
        info = by_date.get(date)
        rule = state.load(info).rule(rule_id) if info else None
        return rule.text if rule is not None else None

    def make() -> str:
        found, details = history_of(state, ask.infos[0], number)
        view = build_history_view(
            found,
            Links(root="../"),
            text_of=text_of,
            details=details,
            first_date=str(state.infos[0].date),
        )
        return render_history(view)

    return ask.reply(ask.key("page-history", number), make, HTML)


@router.get("/search")
@router.get("/search.html")  # the search box in every page's header (as in a static site)
def search_page(
    request: Request,
    q: Annotated[str, Query(min_length=1, max_length=500)],
    edition: Annotated[str, Query(max_length=64)] = "all",
) -> Response:
    """Ranked hits (the ranking of ``rulediff search``), each linked to its text and history."""
    from ..render.live import build_search_view, render_search_results
    from ..search import open_index, search_document

    state = state_of(request)
    every = edition == "all"
    date = None if every else str(state.resolve(edition).date)
    number = _RULE_NUMBER.fullmatch(q.strip())
    if number is not None:
        # A rule number goes straight to its page, as the site's script does; here it needs
        # no JavaScript: the server answers the box's plain form submission.
        ask = Ask(request, edition if date else "latest")
        try:
            found = existing_rule(ask.edition(), number.group(1).lower())
        except NotFound:
            found = None
        if found is not None:
            return RedirectResponse(f"rules/{found}_{ask.infos[0].date}.html", status_code=303)
    index = state.flight.do("search-index", lambda: open_index(state.corpus))
    doc = search_document(index, q, edition=date, all_editions=every, limit=50)
    html = render_search_results(build_search_view(doc, q, edition, date))
    return send(request, Body.of(html, HTML), stable=False)


__all__ = ["router", "JSON"]
