"""Full-text search over every edition: an SQLite FTS5 index in the cache dir, and its ranking.

Why a real index: a phrase asked of all 126 editions (~80 MB of text) must answer in
milliseconds, for ``rulediff search``, ``rulediff serve`` and anyone else, with one ranking.

Public API (small on purpose; ``rulediff.site`` may import :func:`tokenize` and
:data:`WEIGHTS` so the static site's client-side search ranks the same way):

* :func:`tokenize` — text → lower-case word tokens, as the index tokenises (FTS5
  ``unicode61 remove_diacritics 2``); a rule number ``702.36e`` gives ``702``, ``36e``.
* :data:`WEIGHTS` — the bm25 weight of each indexed column (number, title, text).
* :func:`open_index` — the index of a corpus, built (or rebuilt) when the corpus or the
  code changed; safe to call from many threads and processes.
* :meth:`SearchIndex.search` — ranked :class:`Hit` s in one edition (or all editions,
  grouped by rule, each with the first and last edition it matched in).
* :meth:`SearchIndex.phrases` — for each phrase of a query, the first and last edition
  it appears in (:class:`PhraseSpan`).
* :func:`parse_query` — a query string → its phrases (``"mana burn" stack`` → two).

One *document* is one distinct (kind, number, title, text) across the corpus: an
unchanged rule is stored once and linked to every edition that has it, so the index is
small and "which editions" is a join, not a scan. Ranking: an exact rule number, rule
title or glossary term first (rules before glossary entries), then bm25 (lower is better)
with :data:`WEIGHTS`, then the rule's place in the edition: a total, deterministic order.
"""

from __future__ import annotations

import contextlib
import fcntl
import hashlib
import logging
import os
import re
import sqlite3
import tempfile
import threading
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING, Any

from . import cache
from .errors import RuleDiffError
from .model import RuleId

if TYPE_CHECKING:
    from .corpus import Corpus
    from .model import Edition

log = logging.getLogger(__name__)

#: Bumped when the index's tables or what goes into them change (the code digest is
#: part of the key too, so a forgotten bump only costs nothing).
SEARCH_VERSION = "1"

#: bm25 weight of the columns ``number``, ``title``, ``text``: a word in a rule's number
#: or title counts far more than one in its body.
WEIGHTS: tuple[float, float, float] = (10.0, 5.0, 1.0)

#: Longest query accepted (characters) and most tokens in it: an FTS5 query of hundreds
#: of terms is slow and never what a person typed.
MAX_QUERY = 500
MAX_TERMS = 32

_WORD = re.compile(r"\w+")
_PHRASE = re.compile(r'"([^"]*)"?')
_MARK_START, _MARK_END = "\x02", "\x03"


class SearchError(RuleDiffError):
    """A query that cannot be searched (empty, too long, no words)."""


def _fold(text: str) -> str:
    """Case-fold and strip diacritics (what ``remove_diacritics 2`` does)."""
    decomposed = unicodedata.normalize("NFKD", text.casefold())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def tokenize(text: str) -> list[str]:
    """The word tokens of ``text`` as the index sees them.

    >>> tokenize("Face-down 702.36e, Lim-Dûl!")
    ['face', 'down', '702', '36e', 'lim', 'dul']
    """
    return _WORD.findall(_fold(text).replace("_", " "))


def parse_query(query: str) -> list[list[str]]:
    """The phrases of a query: each ``"quoted run"`` is one, every other word its own.

    >>> parse_query('"mana burn" stack')
    [['mana', 'burn'], ['stack']]
    """
    if len(query) > MAX_QUERY:
        raise SearchError(f"the query is {len(query)} characters long; at most {MAX_QUERY}")
    phrases: list[list[str]] = []
    rest: list[str] = []
    pos = 0
    for m in _PHRASE.finditer(query):
        rest.append(query[pos : m.start()])
        pos = m.end()
        words = tokenize(m.group(1))
        if words:
            phrases.append(words)
    rest.append(query[pos:])
    phrases.extend([w] for w in tokenize(" ".join(rest)))
    if not phrases:
        raise SearchError(f"nothing to search for in {query!r}: give a word or a rule number")
    if sum(len(p) for p in phrases) > MAX_TERMS:
        raise SearchError(f"the query has more than {MAX_TERMS} words")
    return phrases


def _match_expr(phrases: Sequence[Sequence[str]]) -> str:
    """An FTS5 MATCH expression: every phrase must occur (tokens are \\w+, so no quoting issue)."""
    return " AND ".join('"' + " ".join(p) + '"' for p in phrases)


_RULE_NUMBER = re.compile(r"^\s*(\d{1,3}(?:\.\d+[a-z]{0,2})?)\.?\s*$")


def _as_rule_number(query: str) -> str | None:
    m = _RULE_NUMBER.match(query.casefold())
    if m is None:
        return None
    rule = RuleId.try_parse(m.group(1))
    return str(rule) if rule is not None else None


# --- results ---------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Hit:
    """One matching rule or glossary entry."""

    kind: str
    """``rule`` or ``glossary``."""
    number: str
    """The rule number (``702.36e``); ``""`` for a glossary entry."""
    title: str
    """A heading's title, or the glossary term; ``""`` for other rules."""
    snippet: str
    """A short excerpt around the match; matched words between « and »."""
    score: float
    """bm25 with :data:`WEIGHTS` (lower is better); ``-inf`` for an exact number/term."""
    first: str
    """Effective date of the first edition it matched in (the searched one without
    ``all_editions``)."""
    last: str
    """Effective date of the last edition it matched in."""
    editions: int
    """In how many editions it matched."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "kind": self.kind,
            "number": self.number,
            "title": self.title,
            "snippet": self.snippet,
            "score": None if self.score == float("-inf") else round(self.score, 6),
            "first": self.first,
            "last": self.last,
            "editions": self.editions,
        }


@dataclass(frozen=True, slots=True)
class PhraseSpan:
    """Where one phrase of a query appears across the corpus."""

    phrase: str
    first: str | None
    """First edition (effective date) whose text has the phrase; ``None``: none has it."""
    last: str | None
    editions: int
    """How many editions have it."""

    def as_dict(self) -> dict[str, Any]:
        return {
            "phrase": self.phrase,
            "first": self.first,
            "last": self.last,
            "editions": self.editions,
        }


# --- the index -------------------------------------------------------------------------------
_SCHEMA = """
CREATE TABLE meta(key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE editions(ed INTEGER PRIMARY KEY, date TEXT NOT NULL, sha256 TEXT NOT NULL);
CREATE TABLE docs(doc INTEGER PRIMARY KEY, kind TEXT NOT NULL, number TEXT NOT NULL,
                  title TEXT NOT NULL, body TEXT NOT NULL, place INTEGER NOT NULL,
                  titlekey TEXT NOT NULL);
CREATE TABLE occ(doc INTEGER NOT NULL, ed INTEGER NOT NULL, PRIMARY KEY (doc, ed))
    WITHOUT ROWID;
CREATE INDEX occ_ed ON occ(ed, doc);
CREATE INDEX docs_number ON docs(kind, number);
CREATE INDEX docs_title ON docs(titlekey);
CREATE VIRTUAL TABLE fts USING fts5(number, title, body, content='docs', content_rowid='doc',
                                    tokenize='unicode61 remove_diacritics 2');
"""


def index_key(shas: Sequence[str]) -> str:
    """The cache key of the index of editions with these sha256s, keyed like every cached
    artefact (:func:`rulediff.cache.version`): this module's code and what it imports, and
    the version of the parsed editions it reads."""
    digest = hashlib.sha256()
    for part in (SEARCH_VERSION, cache.code_digest(__name__), cache.version("edition"), *shas):
        digest.update(part.encode())
        digest.update(b"\0")
    return digest.hexdigest()[:32]


def _documents(edition: Edition) -> Iterator[tuple[str, str, str, str, int]]:
    """(kind, number, title, body, place) of every rule and glossary entry."""
    place = 0
    for rule in edition.rules:
        examples = " ".join(e.text for e in rule.examples)
        body = rule.text if not examples else f"{rule.text} {examples}"
        yield "rule", str(rule.id), rule.title or "", body, place
        place += 1
    for entry in edition.glossary:
        yield "glossary", "", entry.term, entry.text, place
        place += 1


def build_index(
    path: Path, editions: Iterable[Edition], progress: Callable[[int], None] | None = None
) -> None:
    """Write the index of ``editions`` (oldest first) to ``path`` (atomically).

    ``progress(k)`` is called as edition ``k`` is indexed."""
    fd, tmp = tempfile.mkstemp(prefix=".search.", suffix=".tmp", dir=path.parent)
    os.close(fd)
    try:
        con = sqlite3.connect(tmp)
        con.executescript("PRAGMA journal_mode=OFF; PRAGMA synchronous=OFF;" + _SCHEMA)
        ids: dict[tuple[str, str, str, str], int] = {}
        for ed_no, edition in enumerate(editions):
            if progress is not None:
                progress(ed_no)
            con.execute(
                "INSERT INTO editions VALUES (?, ?, ?)", (ed_no, edition.date_text, edition.sha256)
            )
            occ = []
            for kind, number, title, body, place in _documents(edition):
                key = (kind, number, title, body)
                doc = ids.get(key)
                if doc is None:
                    doc = ids[key] = len(ids) + 1
                    con.execute(
                        "INSERT INTO docs VALUES (?, ?, ?, ?, ?, ?, ?)",
                        (doc, kind, number, title, body, place, _title_key(title)),
                    )
                occ.append((doc, ed_no))
            con.executemany("INSERT OR IGNORE INTO occ VALUES (?, ?)", occ)
        con.execute("INSERT INTO fts(fts) VALUES ('rebuild')")
        con.execute("INSERT INTO fts(fts) VALUES ('optimize')")
        con.execute("INSERT INTO meta VALUES ('version', ?)", (SEARCH_VERSION,))
        con.commit()
        con.close()
        os.chmod(tmp, 0o644)
        os.replace(tmp, path)
    except BaseException:
        with contextlib.suppress(OSError):
            os.unlink(tmp)
        raise


class SearchIndex:
    """A read-only handle on a built index (one SQLite connection per thread)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self._local = threading.local()
        con = self._con()
        rows = con.execute("SELECT ed, date FROM editions ORDER BY ed").fetchall()
        self.dates: tuple[str, ...] = tuple(date for _ed, date in rows)

    def _con(self) -> sqlite3.Connection:
        con = getattr(self._local, "con", None)
        if con is None:
            uri = f"{self.path.resolve().as_uri()}?mode=ro&immutable=1"
            con = sqlite3.connect(uri, uri=True, check_same_thread=False)
            self._local.con = con
        return con

    def _edition_number(self, date: str) -> int:
        try:
            return self.dates.index(date)
        except ValueError:
            raise SearchError(f"edition {date} is not in the search index") from None

    def search(
        self,
        query: str,
        *,
        edition: str | None = None,
        all_editions: bool = False,
        limit: int = 20,
    ) -> list[Hit]:
        """Ranked hits for ``query`` in the edition dated ``edition`` (default: the newest).

        With ``all_editions``, every edition is searched and hits are grouped by rule
        number (a glossary entry by its term): ``first``/``last`` say between which
        editions it matched.
        """
        phrases = parse_query(query)
        match = _match_expr(phrases)
        number = _as_rule_number(query)
        limit = max(1, min(limit, 200))
        con = self._con()
        if all_editions:
            return self._search_all(con, match, number, query, limit)
        ed = self._edition_number(edition) if edition else len(self.dates) - 1
        date = self.dates[ed]
        hits: list[Hit] = []
        seen: set[int] = set()
        exact = con.execute(
            "SELECT d.doc, d.kind, d.number, d.title, d.body FROM docs d JOIN occ o "
            "ON o.doc = d.doc AND o.ed = ? WHERE (d.kind = 'rule' AND d.number = ?) "
            "OR (d.titlekey != '' AND d.titlekey = ?) ORDER BY d.place",
            (ed, number or "", _title_key(query)),
        ).fetchall()
        for doc, kind, num, title, body in exact:
            seen.add(doc)
            hits.append(Hit(kind, num, title, _short(body), float("-inf"), date, date, 1))
        rows = con.execute(
            "SELECT d.doc, d.kind, d.number, d.title, "
            f"snippet(fts, 2, '{_MARK_START}', '{_MARK_END}', '…', 16), "
            "bm25(fts, ?, ?, ?) AS score FROM fts JOIN docs d ON d.doc = fts.rowid "
            "JOIN occ o ON o.doc = d.doc AND o.ed = ? WHERE fts MATCH ? "
            "ORDER BY score, d.place LIMIT ?",
            (*WEIGHTS, ed, match, limit + len(seen)),
        ).fetchall()
        for doc, kind, num, title, snip, score in rows:
            if doc not in seen:
                hits.append(Hit(kind, num, title, _marks(snip), score, date, date, 1))
        return hits[:limit]

    def _search_all(
        self, con: sqlite3.Connection, match: str, number: str | None, query: str, limit: int
    ) -> list[Hit]:
        rows = con.execute(
            "SELECT d.doc, d.kind, d.number, d.title, d.place, "
            f"snippet(fts, 2, '{_MARK_START}', '{_MARK_END}', '…', 16), "
            "bm25(fts, ?, ?, ?), (SELECT min(ed) FROM occ WHERE occ.doc = d.doc), "
            "(SELECT max(ed) FROM occ WHERE occ.doc = d.doc), "
            "(SELECT count(*) FROM occ WHERE occ.doc = d.doc) "
            "FROM fts JOIN docs d ON d.doc = fts.rowid WHERE fts MATCH ?",
            (*WEIGHTS, match),
        ).fetchall()
        if number is not None:
            rows += con.execute(
                "SELECT d.doc, d.kind, d.number, d.title, d.place, substr(d.body, 1, 200), "
                "-1e300, min(o.ed), max(o.ed), count(*) FROM docs d JOIN occ o ON o.doc = d.doc "
                "WHERE d.kind = 'rule' AND d.number = ? GROUP BY d.doc",
                (number,),
            ).fetchall()
        wanted_title = _title_key(query)
        groups: dict[tuple[str, str], dict[str, Any]] = {}
        for _doc, kind, num, title, place, snip, score, lo, hi, count in rows:
            key = (kind, num if kind == "rule" else _title_key(title))
            exact = (number is not None and kind == "rule" and num == number) or (
                bool(wanted_title) and _title_key(title) == wanted_title
            )
            g = groups.get(key)
            if g is None:
                g = groups[key] = {
                    "kind": kind,
                    "number": num,
                    "title": title,
                    "snip": snip,
                    "best": score,
                    "place": place,
                    "lo": lo,
                    "hi": hi,
                    "eds": set(),
                    "exact": exact,
                    "newest": hi,
                }
            g["exact"] = g["exact"] or exact
            if score < g["best"]:
                g["best"] = score
            if hi >= g["newest"]:  # the newest text of the rule speaks for it
                g.update(newest=hi, title=title, snip=snip, place=place)
            g["lo"], g["hi"] = min(g["lo"], lo), max(g["hi"], hi)
            g["count"] = g.get("count", 0) + count
        ranked = sorted(
            groups.values(),
            key=lambda g: (not g["exact"], g["best"], -g["hi"], g["place"], g["number"]),
        )
        return [
            Hit(
                g["kind"],
                g["number"],
                g["title"],
                _marks(g["snip"]) if g["best"] > -1e299 else _short(g["snip"]),
                float("-inf") if g["exact"] else g["best"],
                self.dates[g["lo"]],
                self.dates[g["hi"]],
                g["count"],
            )
            for g in ranked[:limit]
        ]

    def phrases(self, query: str) -> list[PhraseSpan]:
        """For each phrase of ``query``: the first and last edition that has it.

        Quoted runs are the phrases; a query without quotes is one phrase as a whole
        (``mana burn`` asks about "mana burn", not about "mana" and "burn").
        """
        con = self._con()
        out = []
        phrases = parse_query(query)
        if '"' not in query:
            phrases = [[word for phrase in phrases for word in phrase]]
        for phrase in phrases:
            lo, hi, n = con.execute(
                "SELECT min(ed), max(ed), count(DISTINCT ed) FROM occ WHERE doc IN "
                "(SELECT rowid FROM fts WHERE fts MATCH ?)",
                (_match_expr([phrase]),),
            ).fetchone()
            out.append(
                PhraseSpan(
                    " ".join(phrase),
                    self.dates[lo] if lo is not None else None,
                    self.dates[hi] if hi is not None else None,
                    n,
                )
            )
        return out


def search_document(
    index: SearchIndex,
    query: str,
    *,
    edition: str | None = None,
    all_editions: bool = False,
    limit: int = 20,
) -> dict[str, Any]:
    """The JSON document of ``rulediff search --format json`` (and of ``serve``'s search).

    ``edition`` is an effective date in the index (default: the newest); with
    ``all_editions`` the document also says where each phrase first and last appears.
    """
    hits = index.search(query, edition=edition, all_editions=all_editions, limit=limit)
    doc: dict[str, Any] = {
        "format": "rulediff-search",
        "version": 1,
        "query": query,
        "edition": None if all_editions else (edition or index.dates[-1]),
        "all_editions": all_editions,
    }
    if all_editions:
        doc["phrases"] = [p.as_dict() for p in index.phrases(query)]
    doc["hits"] = [h.as_dict() for h in hits]
    return doc


def search_text(doc: dict[str, Any]) -> str:
    """The text form of a :func:`search_document`: one hit per line, ranked."""
    lines = []
    if doc["all_editions"]:
        for p in doc["phrases"]:
            where = (
                f"first {p['first']}, last {p['last']} ({p['editions']} editions)"
                if p["first"]
                else "in no edition"
            )
            lines.append(f'"{p["phrase"]}": {where}')
        lines.append("")
    else:
        lines.append(f"edition {doc['edition']}: {len(doc['hits'])} hits for {doc['query']!r}")
    for k, h in enumerate(doc["hits"], 1):
        name = " ".join(x for x in (h["number"], h["title"]) if x) or "(untitled)"
        if h["kind"] == "glossary":
            name = f"glossary: {name}"
        span = f"  [{h['first']} .. {h['last']}, {h['editions']} editions]"
        lines.append(f"{k:>3}. {name}" + (span if doc["all_editions"] else ""))
        lines.append(f"     {h['snippet']}")
    return "\n".join(lines) + "\n"


def _title_key(text: str) -> str:
    """What a title and a query are compared by for an exact match: its tokens."""
    return " ".join(tokenize(text))


def _marks(snippet: str) -> str:
    return snippet.replace(_MARK_START, "«").replace(_MARK_END, "»")


def _short(text: str, words: int = 32) -> str:
    parts = text.split()
    return " ".join(parts[:words]) + (" …" if len(parts) > words else "")


# --- building on demand -------------------------------------------------------------------------
_open_lock = threading.Lock()
_opened: dict[str, SearchIndex] = {}


def open_index(
    corpus: Corpus,
    *,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
) -> SearchIndex:
    """The search index of ``corpus``, built in the cache dir if missing or stale.

    The file is named by :func:`index_key` (the editions' sha256s, the parser's and this
    module's code), so a changed corpus or code gets a new index and never a stale one.
    Concurrent builders (threads, server workers) wait on one file lock: the index is
    built once. ``use_cache=False`` builds into a temporary folder, removed at exit.
    ``progress(k, n)`` is called while a build indexes edition ``k`` of ``n``.
    """
    infos = corpus.editions()
    key = index_key([info.sha256 for info in infos])
    with _open_lock:
        found = _opened.get(key)
        if found is not None:
            return found
        folder = cache.cache_dir() / "search" if use_cache else Path(_scratch_dir())
        folder.mkdir(parents=True, exist_ok=True)
        path = folder / f"{key}.sqlite"
        if not path.exists():
            with open(folder / f"{key}.lock", "w") as lock:
                fcntl.flock(lock, fcntl.LOCK_EX)
                if not path.exists():
                    log.info("building the search index of %d editions", len(infos))
                    report = (lambda k: progress(k, len(infos))) if progress else None
                    build_index(path, (corpus.load(info) for info in infos), report)
        index = _opened[key] = SearchIndex(path)
        return index


def _scratch_dir() -> str:
    import atexit
    import shutil

    folder = tempfile.mkdtemp(prefix="rulediff-search-")
    atexit.register(shutil.rmtree, folder, True)
    return folder


__all__ = [
    "MAX_QUERY",
    "WEIGHTS",
    "Hit",
    "PhraseSpan",
    "SearchError",
    "SearchIndex",
    "open_index",
    "parse_query",
    "search_document",
    "search_text",
    "tokenize",
]
