"""Build the static site of a whole corpus (``rulediff site -o DIR``).

Layout (every link relative, so the site opens from ``file://``)::

    index.html                     editions, counts, a chart of changes per edition
    feed.xml                       Atom feed of editions
    static/rulediff.css            the listed static assets
    editions/2015-03-27.html       hyperlinked full text of each edition
    changes/2015-01-23_2015-03-27.html   changelog of each consecutive pair
    rules/index.html               every rule, current and removed
    rules/702.36e.html             history of a rule in force, named by its current number
                                   (a numbered rule's page, 702.36, rolls up its subrules)
    rules/702.36b_2015-03-27.html  history of a removed rule (named by where its lineage
                                   starts), or, for a rule in force, a redirect to its page
    search.html, search/index.js   the search page and its index (rules, glossary, words)
    audit.html, flags.html         the newest edition's audit; the behaviour flags' timeline
    .rulediff-site.json            manifest: page -> hash of its inputs

Incremental, like coverage.py's HTML report: every page has a key, the hash of what it
is made from (the rendering code and templates, the sha256 of the editions it shows,
its neighbours, the history it tells). A page whose key is in the manifest and whose
file exists is not rendered again, so adding an edition rewrites the pages that
change (its own, its changelog, its neighbours', the histories it touches, the index)
and nothing else. A rule in force has its page at its current number (a guessable,
stable URL: ``rules/704.5j.html`` is today's 704.5j); every lineage also keeps a page
named by its *start* (first number and edition), which a newer edition never changes:
the history itself once the rule is gone, a redirect to the current page while it is in
force. Only the newest edition's pages link to current numbers; older editions link
through the start names, so a renumbering rewrites the pages it moves and no others.

Output is deterministic (no clock, sorted iteration) and every file is written to a
temporary name and renamed. The pairs are aligned, and the pages rendered, in a pool
of worker processes (``jobs``).
"""

from __future__ import annotations

import gc
import hashlib
import json
import logging
import multiprocessing
import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from .cache import atomic_write_bytes
from .corpus import Corpus, EditionInfo
from .errors import OutputError
from .history import (
    Lineage,
    RuleHistory,
    build_lineage,
    pair_runs,
    rule_history,
    step_key,
    step_of,
)
from .model import Edition, RuleId
from .render.audit import build_audit_report, render_audit
from .render.changelog import build_changelog_view, render_changelog, rule_title
from .render.edition import build_edition_view, render_edition_html, rule_count
from .render.env import STATIC_ASSETS, copy_static, fingerprint
from .render.flags import render_timeline, timeline_page
from .render.history import build_history_view, render_history, render_redirect
from .render.index import (
    EditionSummary,
    build_feed_view,
    build_index_view,
    render_feed,
    render_index_html,
)
from .render.links import Links, changelog_page, edition_page, glossary_anchor, history_page
from .render.rules_index import build_rules_index_view, render_rules_index
from .render.search_index import INDEX_PATH, build_search_view, render_search, search_index_js

log = logging.getLogger(__name__)

MANIFEST_NAME = ".rulediff-site.json"
#: Version of the manifest's shape.
SITE_FORMAT = 1

#: ``progress(phase, done, total)``: phases ``align``, ``lineage``, ``plan``, ``pages``.
Progress = Callable[[str, int, int], None]


@dataclass(frozen=True, slots=True)
class SiteReport:
    """What a build did."""

    out: Path
    pages: int
    """Pages the site has (static assets not counted)."""
    written: tuple[str, ...]
    """Pages (and static assets) written by this build, sorted."""
    removed: tuple[str, ...]
    """Pages of an earlier build that no longer belong to the site."""
    skipped: int
    """Pages whose inputs had not changed."""


@dataclass(frozen=True, slots=True)
class Chain:
    """One rule's lineage across the corpus: where it starts and where it ends."""

    key: str
    first: tuple[int, str]
    """(edition index, rule number) where it appears."""
    last: tuple[int, str]
    """(edition index, rule number) of its last edition."""


@dataclass(frozen=True, slots=True)
class _Job:
    path: str
    key: str
    kind: str
    arg: Any


# --- lineages ---------------------------------------------------------------------------------


def chains(
    lineage: Lineage, ids: Sequence[Sequence[str]]
) -> tuple[list[dict[str, str]], dict[str, Chain]]:
    """Give every rule of every edition the key of its lineage.

    A rule continues the lineage of the rule it came from (same number and text, or
    its match in the step); a split continues in its first part and a merge in the
    merged rule's first source, as :func:`rulediff.history.rule_history` follows them.
    Everything else starts a lineage, keyed ``<number>_<date>`` where it starts.
    Returns one ``{rule number: key}`` per edition and the chains by key.
    """
    keymaps: list[dict[str, str]] = []
    found: dict[str, Chain] = {}
    for k, numbers in enumerate(ids):
        date = lineage.editions[k].date
        step = lineage.steps[k - 1] if k > 0 else None
        previous = keymaps[k - 1] if k > 0 else {}
        taken: set[str] = set()
        here: dict[str, str] = {}
        for number in numbers:
            if number in here:
                continue  # a number printed twice: one lineage
            source: str | None = None
            if step is not None:
                change = step.for_new(number)
                if change is None:
                    source = number
                elif change.old_ids and change.new_ids and change.new_ids[0] == number:
                    source = change.old_ids[0]
            key = previous.get(source) if source is not None else None
            if key is None or key in taken:
                key = f"{number}_{date}"
                found[key] = Chain(key, (k, number), (k, number))
            else:
                chain = found[key]
                found[key] = Chain(key, chain.first, (k, number))
            taken.add(key)
            here[number] = key
        keymaps.append(here)
    return keymaps, found


# --- the build state (shared with forked workers) -----------------------------------------------


@dataclass
class _State:
    infos: list[EditionInfo]
    editions: list[Edition]
    lineage: Lineage
    keymaps: list[dict[str, str]]
    chains: dict[str, Chain]
    histories: dict[str, RuleHistory]
    out: Path
    by_date: dict[str, int]
    stems: dict[str, str] = field(default_factory=dict)
    """Lineage key -> name of its history page (its current number while in force)."""
    linkmaps: list[dict[str, str]] = field(default_factory=list)
    """Per edition: rule number -> the history page its pages link to."""
    parts: dict[str, tuple[str, ...]] = field(default_factory=dict)
    """A numbered rule in force (702.36) -> the lineages of its subrules, rolled up."""

    def date(self, k: int) -> str:
        return self.lineage.editions[k].date

    def text_of(self, date: str, rule_id: str) -> str | None:
        k = self.by_date.get(date)
        if k is None:
            return None
        edition = self.editions[k]
        rule = edition.rule(rule_id)
        if rule is not None:
            return rule.text
        if rule_id.isdigit() and len(rule_id) == 1:
            section = edition.section(rule_id)
            return section.title if section is not None else None
        return None


_STATE: _State | None = None


def _hash(*parts: Any) -> str:
    digest = hashlib.sha256()
    for part in parts:
        digest.update(repr(part).encode("utf-8"))
        digest.update(b"\x1f")
    return digest.hexdigest()


def _keymap_hash(keymap: dict[str, str]) -> str:
    return _hash(sorted(keymap.items()))


def _history_status(state: _State, chain: Chain) -> str:
    newest = len(state.editions) - 1
    k, number = chain.last
    if k == newest:
        return f"In force, numbered {number}."
    following = state.date(k + 1)
    step = state.lineage.steps[k]
    change = step.for_old(number)
    if change is not None and change.new_ids:
        targets = " + ".join(change.new_ids)
        return f"Last numbered {number}; became part of {targets} in the edition of {following}."
    return f"Last numbered {number}; removed in the edition of {following}."


def _history_inputs(state: _State, chain: Chain) -> tuple:
    """Everything a history page shows, cheaply: the events and the texts they quote."""
    history = state.histories[chain.key]
    texts = []
    for e in history.events:
        for date, ids in ((e.previous, e.old_ids), (e.date, e.new_ids)):
            if date is not None:
                texts.extend((date, i, state.text_of(date, i)) for i in ids)
    return (history.rule, history.events, tuple(texts), _history_status(state, chain))


# --- page renderers (run in workers) ------------------------------------------------------------


def _set(info: EditionInfo) -> tuple[str | None, str | None]:
    return (info.set_name, info.set_code)


def _render_edition(state: _State, k: int) -> str:
    from .clauses import use_edition_targets

    n = len(state.editions)
    # Every text of the page is searched for references: read them from the edition's
    # table (stored when its pairs were aligned) instead of parsing them again.
    use_edition_targets(state.editions[k])
    view = build_edition_view(
        state.editions[k],
        Links(root="../"),
        set_name=state.infos[k].set_name,
        set_code=state.infos[k].set_code,
        previous=state.date(k - 1) if k > 0 else None,
        following=state.date(k + 1) if k + 1 < n else None,
        history_key=state.linkmaps[k].get,
    )
    return render_edition_html(view)


def _render_changelog(state: _State, k: int) -> str:
    """The changelog from edition ``k - 1`` to edition ``k``."""
    from .diff import diff_cached

    old, new = state.editions[k - 1], state.editions[k]
    d = diff_cached(old, new)
    view = build_changelog_view(
        d,
        Links(root="../"),
        old=old,
        new=new,
        old_set=_set(state.infos[k - 1]),
        new_set=_set(state.infos[k]),
        previous=state.date(k - 2) if k >= 2 else None,
        following=state.date(k + 1) if k + 1 < len(state.editions) else None,
        history_old=state.linkmaps[k - 1].get,
        history_new=state.linkmaps[k].get,
    )
    return render_changelog(view)


def _render_history(state: _State, key: str) -> str:
    chain = state.chains[key]
    links = Links(root="../")
    parts = tuple(
        (
            state.chains[p].last[1],
            links.history(state.stems[p]),
            state.histories[p],
            state.chains[p].last[0] == len(state.editions) - 1,
        )
        for p in state.parts.get(key, ())
    )
    view = build_history_view(
        state.histories[key],
        links,
        text_of=state.text_of,
        first_date=state.date(0),
        status=_history_status(state, chain),
        alive=chain.last[0] == len(state.editions) - 1,
        parts=parts,
        name=rule_title(state.editions[chain.last[0]], chain.last[1]),
    )
    return render_history(view)


def _render_redirect(state: _State, key: str) -> str:
    return render_redirect(state.stems[key], f"{state.stems[key]}.html")


_RENDERERS: dict[str, Callable[[_State, Any], str]] = {
    "edition": _render_edition,
    "changelog": _render_changelog,
    "history": _render_history,
    "redirect": _render_redirect,
}


def _run_job(job: _Job) -> str:
    """Render one page and write it (in a worker, or in the main process)."""
    state = _STATE
    assert state is not None
    html = _RENDERERS[job.kind](state, job.arg)
    _write(state.out / job.path, html.encode("utf-8"))
    return job.path


def _write(path: Path, data: bytes) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    atomic_write_bytes(path, data)


def _prepare_run(run: list[tuple[EditionInfo, EditionInfo]]) -> int:
    """Worker of the ``align`` phase: cache what the pages need from a run of pairs.

    For each consecutive pair: its alignment, step (for the lineage) and diff (for the
    changelog); for each edition: its flags (for the flags page). Each edition of the run
    is parsed once, and nothing already cached is loaded.
    """
    from . import cache
    from .align import align_cached
    from .corpus import load_file
    from .diff import diff_cached
    from .flags.timeline import cached_flags_for

    loaded: dict[str, Edition] = {}

    def edition(info: EditionInfo) -> Edition:
        if info.sha256 not in loaded:
            loaded.clear()  # keep only the edition shared with the next pair
            loaded[info.sha256] = load_file(info.path)
        return loaded[info.sha256]

    for old_info, new_info in run:
        key = step_key(old_info.sha256, new_info.sha256)
        if not (cache.has("step", key) and cache.has("diff", key)):
            old, new = edition(old_info), edition(new_info)
            alignment = align_cached(old, new)
            step_of(old, new, alignment=alignment)
            diff_cached(old, new, alignment=alignment)
        for info in (old_info, new_info):
            if not cache.has("flags", info.sha256):
                cached_flags_for(edition(info))
    return len(run)


# --- the build ---------------------------------------------------------------------------------


def _read_manifest(out: Path) -> dict[str, str]:
    path = out / MANIFEST_NAME
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        log.warning("%s: unreadable manifest (%s); rebuilding every page", path, exc)
        return {}
    if not isinstance(data, dict) or data.get("format") != SITE_FORMAT:
        return {}
    pages = data.get("pages")
    return {str(k): str(v) for k, v in pages.items()} if isinstance(pages, dict) else {}


def _unique_dates(infos: Sequence[EditionInfo]) -> list[EditionInfo]:
    """One edition per effective date (the first file, by name, of a duplicated date)."""
    out: list[EditionInfo] = []
    for info in infos:
        if out and out[-1].date == info.date:
            log.warning("%s: a second edition dated %s; left out of the site", info.path, info.date)
            continue
        out.append(info)
    return out


def _pool(jobs: int, state: _State | None) -> Any:
    global _STATE
    _STATE = state
    context = multiprocessing.get_context("fork")
    return context.Pool(jobs)


def build_site(
    out: str | os.PathLike[str],
    corpus: Corpus | None = None,
    *,
    jobs: int = 2,
    progress: Progress | None = None,
    base_url: str = "",
    force: bool = False,
) -> SiteReport:
    """Build (or bring up to date) the site of ``corpus`` in the folder ``out``.

    ``jobs`` worker processes align the pairs and render the pages (1: no pool);
    ``progress`` is called as work completes; ``base_url`` makes the feed's links
    absolute; ``force`` renders every page even when its inputs did not change.
    """
    global _STATE
    out = Path(out)
    if out.exists() and not out.is_dir():
        raise OutputError("is not a folder, cannot build a site there", file=str(out))
    try:
        out.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise OutputError(
            f"cannot create the folder: {exc.strerror or exc}", file=str(out)
        ) from None
    corpus = corpus or Corpus.open()
    report = progress or (lambda phase, done, total: None)
    infos = _unique_dates(corpus.editions())
    parallel = jobs > 1 and hasattr(os, "fork")

    # 1. Align every consecutive pair (cached per pair: only new pairs cost anything).
    runs = pair_runs(infos, jobs if parallel else 1)
    total = max(0, len(infos) - 1)
    report("align", 0, total)
    done = 0
    if parallel and len(runs) > 1:
        # The longest runs first (newer editions are several times longer than the first
        # ones): the pool's last tasks are then short ones and no worker waits long idle.
        longest_first = sorted(runs, key=lambda run: -sum(new.size for _old, new in run))
        with _pool(jobs, None) as pool:
            for n in pool.imap_unordered(_prepare_run, longest_first):
                done += n
                report("align", done, total)
    else:
        for run in runs:
            done += _prepare_run(run)
            report("align", done, total)

    # 2. The lineage of every rule, from the cached steps.
    lineage = build_lineage(infos, corpus.load, progress=lambda d, t: report("lineage", d, t))
    editions = [corpus.load(info) for info in infos]
    ids = [[str(r.id) for r in ed.rules if not r.id.is_section] for ed in editions]
    keymaps, found = chains(lineage, ids)
    state = _State(
        infos=infos,
        editions=editions,
        lineage=lineage,
        keymaps=keymaps,
        chains=found,
        histories={},
        out=out,
        by_date={ref.date: k for k, ref in enumerate(lineage.editions)},
    )
    report("plan", 0, len(found))
    for n, (key, chain) in enumerate(sorted(found.items()), 1):
        k, number = chain.last
        state.histories[key] = rule_history(lineage, number, k)
        if n % 500 == 0:
            report("plan", n, len(found))
    report("plan", len(found), len(found))
    newest = len(editions) - 1
    state.stems = {
        key: chain.last[1] if chain.last[0] == newest else key for key, chain in found.items()
    }
    state.linkmaps = [
        {n: state.stems[key] if k == newest else key for n, key in keymap.items()}
        for k, keymap in enumerate(keymaps)
    ]
    state.parts = _rollups(keymaps, found) if editions else {}

    # 3. Plan every page with the hash of its inputs.
    fp = fingerprint()
    jobs_: list[_Job] = []
    n = len(editions)
    for k, info in enumerate(infos):
        date = state.date(k)
        neighbours = (state.date(k - 1) if k else None, state.date(k + 1) if k + 1 < n else None)
        key = _hash(
            fp, "edition", info.sha256, _set(info), neighbours, _keymap_hash(state.linkmaps[k])
        )
        jobs_.append(_Job(edition_page(date), key, "edition", k))
    from . import cache

    for k in range(1, n):
        around = (state.date(k - 2) if k >= 2 else None, state.date(k + 1) if k + 1 < n else None)
        key = _hash(
            fp,
            "changelog",
            cache.version("diff"),
            infos[k - 1].sha256,
            infos[k].sha256,
            _set(infos[k - 1]),
            _set(infos[k]),
            around,
            _keymap_hash(state.linkmaps[k - 1]),
            _keymap_hash(state.linkmaps[k]),
        )
        jobs_.append(_Job(changelog_page(state.date(k - 1), state.date(k)), key, "changelog", k))
    for key, chain in sorted(found.items()):
        stem = state.stems[key]
        inputs = [_history_inputs(state, chain)]
        for part in state.parts.get(key, ()):
            inputs.append((state.stems[part], _history_inputs(state, found[part])))
        page_key = _hash(fp, "history", key, stem, inputs, state.date(0))
        jobs_.append(_Job(history_page(stem), page_key, "history", key))
        if stem != key:
            jobs_.append(_Job(history_page(key), _hash(fp, "redirect", stem), "redirect", key))

    # Small pages made in this process: the index, the feed, the list of rules.
    summaries = _summaries(state)
    small: dict[str, tuple[str, Callable[[], str]]] = {
        "index.html": (
            _hash(fp, "index", summaries),
            lambda: render_index_html(build_index_view(summaries, Links(root=""))),
        ),
        "feed.xml": (
            _hash(fp, "feed", summaries, base_url),
            lambda: render_feed(build_feed_view(summaries, base_url)),
        ),
    }
    rules_rows = _rules_rows(state)
    small["rules/index.html"] = (
        _hash(fp, "rules", rules_rows),
        lambda: render_rules_index(build_rules_index_view(rules_rows, Links(root="../"))),
    )
    small.update(_extra_pages(state, fp))

    # 4. Render what is stale. The editions and the lineage stay alive to the end: frozen,
    # the collector stops walking their millions of objects, and forked workers do not
    # copy the memory that walking would touch. Full collections are made rarer too: the
    # big results memoised while rendering (diffs) made them a fifth of the rendering time.
    gc.collect()
    gc.freeze()
    thresholds = gc.get_threshold()
    gc.set_threshold(thresholds[0], thresholds[1], 100)
    try:
        old_manifest = {} if force else _read_manifest(out)
        manifest: dict[str, str] = {}
        stale: list[_Job] = []
        for job in jobs_:
            manifest[job.path] = job.key
            if old_manifest.get(job.path) != job.key or not (out / job.path).is_file():
                stale.append(job)
        written: list[str] = []
        for path, (key, make) in sorted(small.items()):
            manifest[path] = key
            if old_manifest.get(path) != key or not (out / path).is_file():
                _write(out / path, make().encode("utf-8"))
                written.append(path)
        written += [f"static/{p.name}" for p in copy_static(out / "static")]

        # Heavy pages first, so the pool's last tasks are short ones.
        weight = {"changelog": 0, "edition": 1, "history": 2, "redirect": 3}
        stale.sort(key=lambda j: (weight[j.kind], j.path))
        total = len(stale)
        report("pages", 0, total)
        if parallel and total >= 8:
            with _pool(jobs, state) as pool:
                for done, path in enumerate(pool.imap_unordered(_run_job, stale, chunksize=4), 1):
                    written.append(path)
                    report("pages", done, total)
        else:
            _STATE = state
            for done, job in enumerate(stale, 1):
                written.append(_run_job(job))
                report("pages", done, total)
    finally:
        # also when a page cannot be written: nothing of the build stays frozen
        _STATE = None
        gc.set_threshold(*thresholds)
        gc.unfreeze()

    # 5. Pages of an earlier build that are no longer part of the site.
    removed: list[str] = []
    for path in sorted(set(old_manifest) - set(manifest)):
        target = out / path
        if target.resolve().is_relative_to(out.resolve()) and target.is_file():
            target.unlink()
            removed.append(path)

    document = {
        "format": SITE_FORMAT,
        "generator": "rulediff",
        "pages": dict(sorted(manifest.items())),
    }
    _write(out / MANIFEST_NAME, (json.dumps(document, indent=1, sort_keys=True) + "\n").encode())
    return SiteReport(
        out=out,
        pages=len(manifest),
        written=tuple(sorted(written)),
        removed=tuple(removed),
        skipped=len(manifest) - len([w for w in written if w in manifest]),
    )


def _extra_pages(state: _State, fp: str) -> dict[str, tuple[str, Callable[[], str]]]:
    """The search page and its index, the newest edition's audit, the flags' timeline."""
    if not state.editions:
        return {}
    newest = len(state.editions) - 1
    edition = state.editions[newest]
    date = state.date(newest)
    shas = tuple(info.sha256 for info in state.infos)
    pages_of = state.linkmaps[newest]

    def index_js() -> str:
        return search_index_js(
            edition, lambda n: history_page(pages_of[n]) if n in pages_of else None
        )

    def audit_page() -> str:
        from .audit import audit

        return render_audit(build_audit_report(edition, audit(edition), Links(root="")))

    def flags_page() -> str:
        from .flags.timeline import cached_flags_for

        sets = [cached_flags_for(ed) for ed in state.editions]
        links = Links(root="")

        def rule_href(day: str, rule: str) -> str | None:
            if rule.startswith("glossary:"):
                k = state.by_date.get(day)
                term = rule.split(":", 1)[1]
                if k is None or state.editions[k].glossary_entry(term) is None:
                    return None
                return f"{links.edition(day)}#{glossary_anchor(term)}"
            return links.rule(day, rule) if state.text_of(day, rule) is not None else None

        return render_timeline(timeline_page(sets, links, rule_href))

    from . import cache

    # What the pages show is computed by these modules (and all they import): their code
    # digest (rulediff.cache, the one versioning scheme) is part of the pages' keys.
    audit_code = cache.code_digest("rulediff.audit")
    return {
        "search.html": (
            _hash(fp, "search", date),
            lambda: render_search(build_search_view(date, Links(root=""))),
        ),
        INDEX_PATH: (_hash(fp, "search-index", shas[-1], _keymap_hash(pages_of)), index_js),
        "audit.html": (_hash(fp, "audit", shas[-1], audit_code), audit_page),
        "flags.html": (_hash(fp, "flags", shas, cache.version("flags")), flags_page),
    }


def _summaries(state: _State) -> tuple[EditionSummary, ...]:
    """Index rows: counts by kind from the lineage steps (the same matches the diff uses)."""
    rows = []
    for k, info in enumerate(state.infos):
        counts = None
        if k > 0:
            step = state.lineage.steps[k - 1]
            tally: dict[str, int] = {}
            for change in step.changes:
                tally[change.kind] = tally.get(change.kind, 0) + 1
            counts = dict(sorted(tally.items()))
        rows.append(
            EditionSummary(
                date=state.date(k),
                sha256=info.sha256,
                set_name=info.set_name,
                set_code=info.set_code,
                rule_count=rule_count(state.editions[k]),
                previous=state.date(k - 1) if k else None,
                counts=counts,
            )
        )
    return tuple(rows)


def _rules_rows(state: _State) -> tuple[tuple[str, str, str, str, bool], ...]:
    """(number, page, status, preview, in force) for every lineage, in rule order."""
    newest = len(state.editions) - 1
    rows = []
    for key, chain in state.chains.items():
        k, number = chain.last
        text = state.text_of(state.date(k), number) or ""
        preview = text if len(text) <= 90 else text[:87].rstrip() + "…"
        alive = k == newest
        status = "" if alive else f"until {state.date(k)}"
        rows.append((number, history_page(state.stems[key]), status, preview, alive, k))
    rows.sort(key=lambda r: (not r[4], _rule_sort(r[0]), -r[5], r[1]))
    return tuple(r[:5] for r in rows)


def _rollups(keymaps: list[dict[str, str]], found: dict[str, Chain]) -> dict[str, tuple[str, ...]]:
    """Numbered rules in force (702.36) -> the lineages of their subrules (702.36a, …),
    those in force first, then those removed while under it (their parent as numbered in
    their last edition), each in rule order: one page tells what changed for a keyword."""
    newest = len(keymaps) - 1
    out: dict[str, list[tuple[bool, tuple, str]]] = {}
    for key, chain in found.items():
        k, number = chain.last
        rid = RuleId.try_parse(number)
        if rid is None or rid.letters is None or rid.number is None:
            continue
        parent = keymaps[k].get(str(RuleId(rid.rule, rid.number)))
        if parent is not None and found[parent].last[0] == newest:
            out.setdefault(parent, []).append((k != newest, rid.sort_key(), key))
    return {k: tuple(key for *_, key in sorted(v)) for k, v in sorted(out.items())}


def _rule_sort(number: str) -> tuple:
    rid = RuleId.try_parse(number)
    return rid.sort_key() if rid is not None else (10**6, 0, 0, 0)


__all__ = [
    "MANIFEST_NAME",
    "SITE_FORMAT",
    "STATIC_ASSETS",
    "Chain",
    "SiteReport",
    "build_site",
    "chains",
]
