"""Unnumbered rules text → paragraphs → rules, dates and ``not-cr`` verdicts; paragraph diffs.

A web page, forum post or FAQ quotes rules without their numbers and mixes them with card
rulings. :func:`locate_text` splits such a text into paragraphs and, for each, finds the
rule(s) of one edition it quotes and the editions whose text has exactly that wording.
:func:`diff_paragraphs` aligns two revisions of such a text with the CR aligner
(:func:`rulediff.align.align`) and annotates each paragraph with its verdict.

Dating a wording must be fast, so every rule text, sentence and heading of every corpus
edition is indexed once (:func:`corpus_index`, cached as plain data): a normalized text →
the runs of editions that contain it. Fuzzy scores are :func:`rapidfuzz.fuzz.ratio` over
texts with typography made uniform.

>>> result = locate_text(page_text, edition="latest")      # doctest: +SKIP
>>> [(p.status, [r.id for r in p.rules]) for p in result.paragraphs]  # doctest: +SKIP
[('exact', ['107.3d']), ('heading', ['702.37']), ...]
"""

from __future__ import annotations

import bisect
import hashlib
import logging
import math
import re
import unicodedata
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, replace
from functools import cache as memoize
from typing import Any, Literal

from rapidfuzz import fuzz, process

from . import cache
from .align import references, typography_key
from .model import Edition, Rule, RuleId
from .serialize import Out, to_data

log = logging.getLogger(__name__)


Status = Literal["exact", "reworded", "heading", "partial", "not-cr"]
STATUSES: tuple[Status, ...] = ("exact", "reworded", "heading", "partial", "not-cr")

# --- thresholds ----------------------------------------------------------------------
# Measured by tests/test_locate.py::test_threshold_separates_real_from_invented (the best
# fuzz.ratio of a normalized paragraph against every distinct rule text of all 126
# editions): 60 real paragraphs — random rules of 12 random editions, numbers stripped,
# quotes curled or straightened, spaces doubled, dropped or non-breaking — score 99.4–100
# (median 100). 20 invented sentences in CR style plus the 15 card rulings of seed 002
# score at most 66.9 (median 55.1); the highest are rulings paraphrasing one rule. 85 sits
# in the empty band between (a margin of ~15 on both sides).
REWORD_SCORE = 85.0
"""A whole paragraph at least this close to a rule's text is that rule (reworded)."""
SENTENCE_SCORE = 88.0
"""A sentence at least this close to one sentence of a rule is that sentence (partial)."""
MIN_SENTENCE_WORDS = 5
"""Shorter sentences ("This is a special action.") are too common to attribute alone."""
PARTIAL_COVERAGE = 0.6
"""Share of a paragraph's words that matched sentences must cover to call it partial."""
MAX_CONCERNS = 8
HEADING_MAX_WORDS = 6

# --- normalization -------------------------------------------------------------------
_DROP = dict.fromkeys(map(ord, "\u2122\u00ae\u00a9\u200b\u200c\u200d\ufeff\u00ad"), None)
_SPACE_BEFORE = re.compile(r"\s+([,.;:!?)\]])")
_SPACE_AFTER = re.compile(r"([(\[])\s+")
_SENTENCE = re.compile(r"(?<=[.!?])['\")\]]*\s*(?=['\"(\[]?[A-Z])")
_LEADING_NUMBER = re.compile(r"^\s*\d{3}(?:\.\d+[a-z]{0,2})?\.?\s+(?=\S)")
_WORDS = re.compile(r"\w+")


@memoize
def _clean(text: str) -> str:
    return unicodedata.normalize("NFKC", text.translate(_DROP))  # ™ before NFKC makes it TM


def fuzzy_form(text: str) -> str:
    """The text fuzzy scores compare: typography uniform, case folded, spaces single."""
    text = typography_key(_clean(text)).casefold()
    text = _SPACE_AFTER.sub(r"\1", _SPACE_BEFORE.sub(r"\1", text))
    return text


def text_key(text: str) -> str:
    """The exact-match key: :func:`fuzzy_form` without any whitespace ("same words up
    to typography", even when a page dropped or doubled a space)."""
    return "".join(fuzzy_form(text).split())


def split_sentences(text: str) -> list[str]:
    """Sentences of a rule or paragraph (a period, ``!`` or ``?`` then a capital)."""
    text = " ".join(_clean(text).split())
    parts = [p.strip() for p in _SENTENCE.split(text)]
    return [p for p in parts if p]


def _word_count(text: str) -> int:
    return len(_WORDS.findall(text))


# --- edition ranges (runs of edition indices) ---------------------------------------


def _add_to_runs(runs: list[int], k: int) -> None:
    """Append edition ``k`` (indices arrive in increasing order) to flat runs [a, b, …]."""
    if runs and runs[-1] in (k, k - 1):
        runs[-1] = k
    else:
        runs.extend((k, k))


def runs_members(runs: Sequence[int]) -> set[int]:
    out: set[int] = set()
    for a, b in zip(runs[::2], runs[1::2], strict=True):
        out.update(range(a, b + 1))
    return out


def _runs_of(members: Iterable[int]) -> list[int]:
    runs: list[int] = []
    for k in sorted(set(members)):
        _add_to_runs(runs, k)
    return runs


@dataclass(frozen=True, slots=True)
class EditionRange:
    """The editions in which a wording appears: first, last, and every run in between."""

    first: str
    last: str
    runs: tuple[tuple[str, str], ...]
    """Consecutive stretches (first, last); more than one when the wording came back."""
    count: int

    as_dict = to_data


# --- the corpus index -------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class CorpusIndex:
    """Every wording of every corpus edition → the editions containing it."""

    dates: tuple[str, ...]
    texts: dict[str, list[int]]
    """:func:`text_key` of a rule's whole text → runs of edition indices."""
    sentences: dict[str, list[int]]
    """:func:`text_key` of one sentence of a rule → runs."""
    titles: dict[str, list[int]]
    """:func:`text_key` of a rule heading's title → runs."""
    fuzzy: list[str]
    """Every distinct :func:`fuzzy_form` of a rule text (for corpus-wide fuzzy search)."""
    fuzzy_runs: list[list[int]]

    def range(self, runs: Sequence[int] | None) -> EditionRange | None:
        if not runs:
            return None
        pairs = tuple(
            (self.dates[a], self.dates[b]) for a, b in zip(runs[::2], runs[1::2], strict=True)
        )
        count = sum(b - a + 1 for a, b in zip(runs[::2], runs[1::2], strict=True))
        return EditionRange(pairs[0][0], pairs[-1][1], pairs, count)

    def as_data(self) -> dict[str, Any]:
        return {
            "dates": list(self.dates),
            "texts": self.texts,
            "sentences": self.sentences,
            "titles": self.titles,
            "fuzzy": self.fuzzy,
            "fuzzy_runs": self.fuzzy_runs,
        }

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> CorpusIndex:
        return cls(
            tuple(data["dates"]),
            data["texts"],
            data["sentences"],
            data["titles"],
            data["fuzzy"],
            data["fuzzy_runs"],
        )


def units(edition: Edition) -> Iterator[tuple[str, Rule, str]]:
    """``(id, rule, text)`` of every rule and every example (``702.36e#ex1``, the
    aligner's example ids) of an edition: a page may quote either."""
    for rule in edition.rules:
        yield str(rule.id), rule, rule.text
        for n, example in enumerate(rule.examples, 1):
            yield f"{rule.id}#ex{n}", rule, example.text


def build_index(editions: Sequence[Edition]) -> CorpusIndex:
    """Index the rule texts, sentences and headings of ``editions`` (oldest first)."""
    texts: dict[str, list[int]] = {}
    sentences: dict[str, list[int]] = {}
    titles: dict[str, list[int]] = {}
    fuzzy_at: dict[str, int] = {}
    fuzzy: list[str] = []
    fuzzy_runs: list[list[int]] = []
    seen: dict[str, tuple[str, str, tuple[str, ...]]] = {}
    for k, edition in enumerate(editions):
        for ident, rule, raw in units(edition):
            found = seen.get(raw)
            if found is None:
                found = (
                    text_key(raw),
                    fuzzy_form(raw),
                    tuple(text_key(s) for s in split_sentences(raw)),
                )
                seen[raw] = found
            key, form, sentence_keys = found
            _add_to_runs(texts.setdefault(key, []), k)
            for s in sentence_keys:
                _add_to_runs(sentences.setdefault(s, []), k)
            if rule.title and "#" not in ident:
                _add_to_runs(titles.setdefault(text_key(rule.title), []), k)
            at = fuzzy_at.get(form)
            if at is None:
                fuzzy_at[form] = at = len(fuzzy)
                fuzzy.append(form)
                fuzzy_runs.append([])
            _add_to_runs(fuzzy_runs[at], k)
    dates = tuple(e.date_text for e in editions)
    return CorpusIndex(dates, texts, sentences, titles, fuzzy, fuzzy_runs)


def corpus_index(
    infos: Sequence[Any], load: Callable[[Any], Edition], *, use_cache: bool = True
) -> CorpusIndex:
    """The index of the corpus entries ``infos`` (with ``sha256``), built once and cached.

    Cached as plain data (dicts, lists, str, int) under the hash of every edition's
    sha256; the cache versions it by this module's code and the parser's.
    """
    key = hashlib.sha256("\n".join(i.sha256 for i in infos).encode()).hexdigest()

    def compute() -> dict[str, Any]:
        return build_index([load(info) for info in infos]).as_data()

    data = cache.get_or_compute("locate-index", key, compute, use_cache=use_cache)
    return CorpusIndex.from_data(data)


# --- one edition's table ---------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EditionTable:
    """What locating against one edition needs, as plain lists and dicts."""

    date: str
    ids: list[str]
    titles: list[str]
    """For each rule: the title of the nearest headed rule at or above it."""
    texts: list[str]
    """Each rule's text as written."""
    fuzzy: list[str]
    keys: dict[str, list[int]]
    sentence_keys: dict[str, list[int]]
    sentence_forms: list[str]
    sentence_owner: list[int]
    heading_keys: dict[str, list[int]]
    keywords: dict[str, list[str]]
    """Keyword (casefolded, spaces for dashes) → rule ids it points at (rule titles in
    701/702, and glossary terms through their "See rule …" pointers)."""
    cited: dict[str, int]
    """Keyword → in how many rule texts it occurs (rarer keywords rank first)."""
    heading_words: list[list[Any]]
    """[rule id, [content words of its title]] for every headed rule with two or more."""
    word_counts: dict[str, int]
    """Stemmed word → in how many rule texts it occurs."""

    def as_data(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}  # type: ignore[attr-defined]

    @classmethod
    def from_data(cls, data: dict[str, Any]) -> EditionTable:
        return cls(**data)


def _headed_title(edition: Edition, rule: Rule) -> str:
    for ident in (rule.id, *rule.id.ancestors()):
        if ident.is_section:
            section = edition.section(ident.rule)
            return section.title if section else ""
        found = edition.rule(ident)
        if found is not None and found.title:
            return found.title
    return ""


def _keyword_form(text: str) -> str:
    return " ".join(re.sub(r"[^\w\s]|_", " ", fuzzy_form(text)).split())


def build_table(edition: Edition) -> EditionTable:
    ids: list[str] = []
    titles: list[str] = []
    texts: list[str] = []
    fuzzy: list[str] = []
    keys: dict[str, list[int]] = {}
    sentence_keys: dict[str, list[int]] = {}
    sentence_forms: list[str] = []
    sentence_owner: list[int] = []
    heading_keys: dict[str, list[int]] = {}
    keywords: dict[str, list[str]] = {}
    for i, (ident, rule, text) in enumerate(units(edition)):
        ids.append(ident)
        titles.append(_headed_title(edition, rule))
        texts.append(text)
        fuzzy.append(fuzzy_form(text))
        keys.setdefault(text_key(text), []).append(i)
        if rule.title and "#" not in ident:
            heading_keys.setdefault(text_key(rule.title), []).append(i)
            if rule.id.rule in (701, 702) and rule.id.number is not None:
                keywords.setdefault(_keyword_form(rule.title), []).append(str(rule.id))
        for s in split_sentences(text):
            if _word_count(s) < MIN_SENTENCE_WORDS:
                continue
            sentence_keys.setdefault(text_key(s), []).append(i)
            sentence_forms.append(fuzzy_form(s))
            sentence_owner.append(i)
    for entry in edition.glossary:
        targets = [t for t in references(entry.text) if len(t) >= 3]
        if targets:
            bucket = keywords.setdefault(_keyword_form(entry.term), [])
            bucket.extend(t for t in targets if t not in bucket)
    cited: dict[str, int] = dict.fromkeys(keywords, 0)
    word_counts: dict[str, int] = {}
    firsts = keyword_firsts(keywords)
    for raw in texts:
        for word in keywords_in(raw, keywords, firsts):
            cited[word] += 1
        for word in set(stems(raw)):
            word_counts[word] = word_counts.get(word, 0) + 1
    heading_words = []
    for rule in edition.rules:
        if rule.title and rule.id.letters is None:
            words = sorted(set(stems(rule.title)) - _STOP)
            if len(words) >= 2:
                heading_words.append([str(rule.id), words])
    return EditionTable(
        edition.date_text,
        ids,
        titles,
        texts,
        fuzzy,
        keys,
        sentence_keys,
        sentence_forms,
        sentence_owner,
        heading_keys,
        keywords,
        cited,
        heading_words,
        word_counts,
    )


_SUFFIXES = ("s", "es", "ed", "d", "ing")
_STOP = frozenset("a an and as at by for from in into of on or the to with".split())


def stems(text: str) -> list[str]:
    """Words of ``text``, case folded, a plural -s dropped (crudely: titles and texts
    are stemmed the same way, which is all the comparison needs)."""
    out = []
    for word in _keyword_form(text).split():
        if len(word) > 3 and word.endswith("s") and not word.endswith("ss"):
            word = word[:-1]
        out.append(word)
    return out


KEYWORD_MAX_WORDS = 4


def keyword_firsts(keywords: dict[str, Any]) -> frozenset[str]:
    """The first words of ``keywords``: n-grams starting elsewhere are not looked up."""
    return frozenset(k.split()[0] for k in keywords if k)


_PIECES = re.compile(r"[.,;:!?()\[\]\"]")
_NON_WORD = re.compile(r"[^\w\s]|_")


@memoize
def _stem_candidates(word: str) -> tuple[str, ...]:
    return (word, *(word[: -len(x)] for x in _SUFFIXES if word.endswith(x)))


def keywords_in(
    text: str, keywords: dict[str, Any], firsts: frozenset[str] | None = None
) -> dict[str, int]:
    """Which ``keywords`` (keyword forms, up to four words) ``text`` uses, and how often;
    a final -s, -es, -ed, -d or -ing is allowed ("cloaked" uses "cloak"). N-grams do not
    cross punctuation."""
    firsts = keyword_firsts(keywords) if firsts is None else firsts
    found: dict[str, int] = {}
    for piece in _PIECES.split(fuzzy_form(text)):
        words = _NON_WORD.sub(" ", piece).split()
        for i, word in enumerate(words):
            if not any(c in firsts for c in _stem_candidates(word)):
                continue
            for n in range(1, KEYWORD_MAX_WORDS + 1):
                if i + n > len(words):
                    break
                gram = " ".join(words[i : i + n])
                hit = next((c for c in _stem_candidates(gram) if c in keywords), None)
                if hit is not None:
                    found[hit] = found.get(hit, 0) + 1
    return found


def edition_table(edition: Edition, *, use_cache: bool = True) -> EditionTable:
    """:func:`build_table` through the cache (keyed by the edition's sha256)."""
    if not edition.sha256:
        return build_table(edition)
    data = cache.get_or_compute(
        "locate-table",
        edition.sha256,
        lambda: build_table(edition).as_data(),
        use_cache=use_cache,
    )
    return EditionTable.from_data(data)


# --- paragraphs --------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Paragraph:
    """One paragraph of the input: its 1-based first line and its text (lines joined)."""

    line: int
    text: str


_TERMINAL = re.compile(r"[.!?:;)\]'\"\u2019\u201d]$")


def _is_short_line(line: str) -> bool:
    """A heading or page-furniture line: a few words, no sentence punctuation at its end."""
    words = line.split()
    return 0 < len(words) <= HEADING_MAX_WORDS and not _TERMINAL.search(line.strip())


def split_paragraphs(text: str) -> list[Paragraph]:
    """Paragraphs of a page: blank lines separate; inside a block, a line starts a new
    paragraph when the previous one ended a sentence or was a short heading-like line,
    and it starts with a capital, a quote, a digit or a bracket (else it is a hard wrap)."""
    text = text.replace("\r\n", "\n").replace("\r", "\n").replace("\u2028", "\n")
    text = text.replace("\u2029", "\n\n").lstrip("\ufeff")
    out: list[Paragraph] = []
    current: list[str] = []
    start = 0

    def flush() -> None:
        if current:
            joined = " ".join(" ".join(current).split())
            if joined:
                out.append(Paragraph(start, joined))
            current.clear()

    for number, raw in enumerate(text.split("\n"), 1):
        line = raw.strip()
        if not line:
            flush()
            continue
        if current:
            prev = current[-1]
            ends = _TERMINAL.search(prev) is not None or _is_short_line(prev)
            begins = re.match(r"['\"\u2018\u201c(\[{\d]|[A-Z]", line) is not None
            if ends and begins:
                flush()
        if not current:
            start = number
        current.append(line)
    flush()
    return out


# --- results -----------------------------------------------------------------------------


def _word_ops(words: tuple[Any, ...]) -> list[dict[str, Any]]:
    """A word diff as ``{op, text}`` items (only those two, whatever else a WordOp holds)."""
    return [{"op": w.op, "text": w.text} for w in words]


@dataclass(frozen=True, slots=True)
class RuleHit:
    """A rule a paragraph (or some of its sentences) quotes."""

    id: str
    title: str
    """Title of the numbered rule (or rule, or section) it belongs to."""
    score: float
    sentences: tuple[int, ...] = ()
    """For ``partial``: which sentences of the paragraph (0-based) come from this rule."""

    as_dict = to_data


@dataclass(frozen=True, slots=True)
class Concern:
    """A rule a non-CR paragraph is about: cited by number or named by a keyword."""

    id: str
    title: str
    via: str
    """``reference`` (the paragraph cites it) or ``keyword:<word>``."""

    as_dict = to_data


@dataclass(frozen=True, slots=True)
class Located:
    """The verdict on one paragraph."""

    index: int
    line: int
    text: str
    status: Status
    score: float
    """Best fuzzy score against the edition (100 for exact and heading)."""
    rules: tuple[RuleHit, ...]
    editions: EditionRange | None
    """Where this exact wording appears (``reworded``: the wording it matches best)."""
    corpus_score: float
    """Best score against the wordings of all editions (``not-cr``: the edition's best;
    no wording of any edition reached :data:`REWORD_SCORE`)."""
    words: tuple[Any, ...] = ()
    """``reworded``: word diff from the paragraph to the edition's text (WordOps)."""
    concerns: tuple[Concern, ...] = ()
    """``not-cr``: rules the paragraph is about."""
    note: str = ""

    __json_fields__ = (
        "index",
        "line",
        "text",
        "status",
        "score",
        "corpus_score",
        "rules",
        "editions",
        Out("words", lambda p: _word_ops(p.words)),
        "concerns",
        "note",
    )
    as_dict = to_data


@dataclass(frozen=True, slots=True)
class Skipped:
    line: int
    text: str
    reason: str

    as_dict = to_data


@dataclass(frozen=True, slots=True)
class DocumentRange:
    """The editions consistent with the most dated paragraphs."""

    first: str
    last: str
    paragraphs: int
    """How many paragraphs are consistent with every edition of the range."""
    dated: int
    """How many paragraphs have an edition range at all."""

    as_dict = to_data


@dataclass(frozen=True, slots=True)
class LocateResult:
    edition: str
    source: str
    paragraphs: tuple[Located, ...]
    skipped: tuple[Skipped, ...]
    document: DocumentRange | None

    def counts(self) -> dict[str, int]:
        return {s: sum(1 for p in self.paragraphs if p.status == s) for s in STATUSES}

    __json_fields__ = (
        Out("format", lambda _: "rulediff-locate"),
        Out("version", lambda _: 1),
        "edition",
        "source",
        Out("counts", lambda r: r.counts()),
        "document",
        "skipped",
        "paragraphs",
    )
    as_dict = to_data


# --- the locator -------------------------------------------------------------------------


class Locator:
    """Locates paragraphs against one edition, dating them with the corpus index."""

    def __init__(self, table: EditionTable, index: CorpusIndex) -> None:
        self.table = table
        self.index = index
        self._firsts = keyword_firsts(table.keywords)
        self._by_id = {ident: i for i, ident in reversed(list(enumerate(table.ids)))}

    # -- helpers --------------------------------------------------------------------
    def hit(self, i: int, score: float, sentences: tuple[int, ...] = ()) -> RuleHit:
        return RuleHit(self.table.ids[i], self.table.titles[i], round(score, 1), sentences)

    def title_of(self, ident: str) -> str:
        i = self._by_id.get(ident)
        if i is not None:
            return self.table.titles[i]
        return ""

    def _best(self, form: str, choices: Sequence[str], cutoff: float = 0) -> tuple[int, float]:
        found = process.extractOne(form, choices, scorer=fuzz.ratio, score_cutoff=cutoff)
        if found is None:
            return -1, 0.0
        return int(found[2]), float(found[1])

    def _corpus_best(self, form: str, cutoff: float) -> tuple[int, float]:
        return self._best(form, self.index.fuzzy, cutoff)

    # -- one paragraph ---------------------------------------------------------------
    def locate(self, index: int, par: Paragraph) -> Located | Skipped:
        text = _LEADING_NUMBER.sub("", par.text)
        key = text_key(text)
        form = fuzzy_form(text)
        table, corpus = self.table, self.index

        if _is_short_line(text):
            # A heading only if the paragraphs under it quote its rules: checked by
            # locate_paragraphs, which turns a lone heading-shaped line into furniture.
            heads = table.heading_keys.get(key)
            if heads:
                hits = tuple(self.hit(i, 100.0) for i in heads)
                rng = corpus.range(corpus.titles.get(key))
                return Located(index, par.line, par.text, "heading", 100.0, hits, rng, 100.0)
            return Skipped(par.line, par.text, "furniture")

        found = table.keys.get(key)
        if found:
            hits = tuple(self.hit(i, 100.0) for i in found)
            rng = corpus.range(corpus.texts.get(key))
            return Located(index, par.line, par.text, "exact", 100.0, hits, rng, 100.0)

        best, score = self._best(form, table.fuzzy)
        in_corpus = corpus.texts.get(key)
        if score >= REWORD_SCORE or (in_corpus and score >= PARTIAL_COVERAGE * 100):
            return self._reworded(index, par, text, form, best, score, in_corpus)

        partial = self._partial(index, par, text)
        if partial is not None:
            return partial

        c_best, c_score = self._corpus_best(form, REWORD_SCORE)
        if in_corpus or c_best >= 0:
            return self._reworded(index, par, text, form, best, score, in_corpus, c_best, c_score)

        return Located(
            index,
            par.line,
            par.text,
            "not-cr",
            round(score, 1),
            (),
            None,
            round(score, 1),
            concerns=self.concerns(text, best),
        )

    def _reworded(
        self,
        index: int,
        par: Paragraph,
        text: str,
        form: str,
        best: int,
        score: float,
        in_corpus: list[int] | None,
        c_best: int = -1,
        c_score: float = 0.0,
    ) -> Located:
        from .diff import word_diff

        corpus = self.index
        if in_corpus:
            rng, c_score = corpus.range(in_corpus), 100.0
        else:
            if c_best < 0:
                c_best, c_score = self._corpus_best(form, score)
            rng = corpus.range(corpus.fuzzy_runs[c_best]) if c_best >= 0 else None
            c_score = max(c_score, score)
        hits: tuple[RuleHit, ...] = ()
        words: tuple[Any, ...] = ()
        note = ""
        if best >= 0 and score >= PARTIAL_COVERAGE * 100:
            hits = (self.hit(best, score),)
            words = word_diff(" ".join(text.split()), self.table.texts[best])
        else:
            note = f"no rule of the edition of {self.table.date} is close to this wording"
        return Located(
            index,
            par.line,
            par.text,
            "reworded",
            round(score, 1),
            hits,
            rng,
            round(c_score, 1),
            words=words,
            note=note,
        )

    def _partial(self, index: int, par: Paragraph, text: str) -> Located | None:
        table, corpus = self.table, self.index
        sentences = split_sentences(text)
        total = sum(_word_count(s) for s in sentences) or 1
        covered = 0
        owners: dict[int, list[tuple[int, float]]] = {}
        member_sets: list[set[int]] = []
        for n, sentence in enumerate(sentences):
            if _word_count(sentence) < MIN_SENTENCE_WORDS:
                continue
            key = text_key(sentence)
            exact = table.sentence_keys.get(key)
            if exact:
                found, score = list(dict.fromkeys(exact)), 100.0  # every rule saying it
            else:
                j, score = self._best(fuzzy_form(sentence), table.sentence_forms, SENTENCE_SCORE)
                if j < 0:
                    continue
                found = [table.sentence_owner[j]]
            covered += _word_count(sentence)
            for i in found:
                owners.setdefault(i, []).append((n, score))
            runs = corpus.sentences.get(key)
            if runs:
                member_sets.append(runs_members(runs))
        if not owners or covered / total < PARTIAL_COVERAGE:
            return None
        hits = tuple(
            self.hit(i, min(s for _, s in found), tuple(n for n, _ in found))
            for i, found in sorted(owners.items(), key=lambda kv: kv[1][0][0])
        )
        rng = None
        if member_sets:
            common = set.intersection(*member_sets)
            rng = corpus.range(_runs_of(common)) if common else None
        score = min(h.score for h in hits)
        return Located(index, par.line, par.text, "partial", score, hits, rng, score)

    def concerns(self, text: str, similar: int = -1) -> tuple[Concern, ...]:
        """Rules a non-CR paragraph is about: the rules it cites, the rule whose wording
        is closest, then rules ranked by how much of the paragraph's vocabulary points at
        them: keywords (keyword titles, glossary terms through their "See rule …") weigh
        idf × (1 + log tf); a rule heading whose every content word the paragraph uses
        ("Face-Down Spells and Permanents") weighs the idf of those words."""
        table = self.table
        out: list[Concern] = []
        seen: set[str] = set()

        def add(target: str, via: str) -> None:
            if target not in seen:
                seen.add(target)
                out.append(Concern(target, self.title_of(target), via))

        for target in references(text):
            add(target, "reference")
        if similar >= 0:
            add(table.ids[similar], "similar")
        total = len(table.ids) or 1

        def idf(count: int) -> float:
            return math.log(total / (1 + count))

        weights: dict[str, float] = {}
        via: dict[str, str] = {}
        used = keywords_in(text, table.keywords, self._firsts)
        for word, tf in used.items():
            w = idf(table.cited.get(word, 0)) * (1 + math.log(tf))
            for target in table.keywords[word]:
                weights[target] = weights.get(target, 0.0) + w
                via.setdefault(target, f"keyword:{word}")
        words = set(stems(text))
        for ident, title_words in table.heading_words:
            if all(w in words for w in title_words):
                w = sum(idf(table.word_counts.get(t, 0)) for t in title_words)
                weights[ident] = weights.get(ident, 0.0) + w
                via.setdefault(ident, "heading")
        for target in sorted(weights, key=lambda t: (-weights[t], t)):
            add(target, via[target])
        return tuple(out[:MAX_CONCERNS])


def document_range(index: CorpusIndex, located: Sequence[Located]) -> DocumentRange | None:
    """The stretch of editions consistent with the most paragraphs (ties: the newest)."""
    sets = []
    for p in located:
        if p.editions is None:
            continue
        members: set[int] = set()
        for first, last in p.editions.runs:
            a = bisect.bisect_left(index.dates, first)
            b = bisect.bisect_left(index.dates, last)
            members.update(range(a, b + 1))
        sets.append(members)
    if not sets:
        return None
    counts = [sum(1 for s in sets if k in s) for k in range(len(index.dates))]
    top = max(counts)
    best: tuple[int, int] | None = None
    k = 0
    while k < len(counts):
        if counts[k] == top:
            j = k
            while j + 1 < len(counts) and counts[j + 1] == top:
                j += 1
            if best is None or (j - k) >= (best[1] - best[0]):
                best = (k, j)
            k = j + 1
        else:
            k += 1
    assert best is not None
    return DocumentRange(index.dates[best[0]], index.dates[best[1]], top, len(sets))


HEADING_REACH = 3
"""A heading must be followed, within this many paragraphs, by one quoting its rules."""


def _under(ident: str, heading: str) -> bool:
    rule_id = RuleId.try_parse(ident.split("#")[0])
    return rule_id is not None and any(str(a) == heading for a in rule_id.ancestors())


def _confirm_headings(located: list[Located]) -> tuple[list[Located], list[Skipped]]:
    """Keep a heading-shaped line as a ``heading`` only when one of the next paragraphs
    quotes a rule under it ("Morph" above the morph rules); a lone "Search" at the top
    of a page is page furniture even though a rule has that title."""
    kept: list[Located] = []
    furniture: list[Skipped] = []
    for k, p in enumerate(located):
        if p.status == "heading":
            after = [q for q in located[k + 1 : k + 1 + HEADING_REACH] if q.status != "heading"]
            heads = {r.id for r in p.rules}
            if not any(_under(r.id, h) for q in after for r in q.rules for h in heads):
                furniture.append(Skipped(p.line, p.text, "furniture"))
                continue
        kept.append(replace(p, index=len(kept)))
    return kept, furniture


def locate_paragraphs(
    paragraphs: Sequence[Paragraph], table: EditionTable, index: CorpusIndex, source: str = "-"
) -> LocateResult:
    locator = Locator(table, index)
    located: list[Located] = []
    skipped: list[Skipped] = []
    for par in paragraphs:
        result = locator.locate(len(located), par)
        if isinstance(result, Skipped):
            skipped.append(result)
        else:
            located.append(result)
    located, furniture = _confirm_headings(located)
    skipped = sorted([*skipped, *furniture], key=lambda s: s.line)
    return LocateResult(
        table.date, source, tuple(located), tuple(skipped), document_range(index, located)
    )


@dataclass(frozen=True, slots=True)
class Context:
    """The edition table and the corpus index a locate run needs (load once, reuse)."""

    table: EditionTable
    index: CorpusIndex


def load_context(
    edition: str = "latest", *, corpus_dir: Any = None, use_cache: bool = True
) -> Context:
    """The table of ``edition`` (any reference the CLI accepts) and the corpus index."""
    from .corpus import Corpus, EditionInfo, load_file, resolve_edition

    corpus = Corpus.open(corpus_dir, use_cache=use_cache)
    infos = corpus.editions()
    index = corpus_index(infos, lambda info: corpus.load(info), use_cache=use_cache)
    target = resolve_edition(edition, corpus_dir=corpus_dir, use_cache=use_cache)
    if isinstance(target, EditionInfo):
        # A corpus edition: its table is found by the file's sha256, without parsing it.
        info = target
        data = cache.get_or_compute(
            "locate-table",
            info.sha256,
            lambda: build_table(corpus.load(info)).as_data(),
            use_cache=use_cache,
        )
        return Context(EditionTable.from_data(data), index)
    return Context(
        edition_table(load_file(target, use_cache=use_cache), use_cache=use_cache), index
    )


def locate_text(
    text: str,
    edition: str = "latest",
    *,
    source: str = "-",
    corpus_dir: Any = None,
    use_cache: bool = True,
    context: Context | None = None,
) -> LocateResult:
    """Split ``text`` into paragraphs and locate each against ``edition``."""
    ctx = context or load_context(edition, corpus_dir=corpus_dir, use_cache=use_cache)
    return locate_paragraphs(split_paragraphs(text), ctx.table, ctx.index, source)


# --- text output ------------------------------------------------------------------------


def _as_edition(paragraphs: Sequence[Located], name: str) -> Edition:
    """The paragraphs as a one-section edition (rule 100, paragraph k = 100.k), so that
    the CR aligner and differ can compare two revisions of a page."""
    from .model import Section

    body: list[Any] = [
        Section(RuleId.parse("1"), name, 1, f"1. {name}"),
        Rule(RuleId.parse("100"), "100.", " ", name, 1, title=name),
    ]
    for p in paragraphs:
        body.append(
            Rule(RuleId.parse(f"100.{p.index + 1}"), f"100.{p.index + 1}.", " ", p.text, p.line)
        )
    return Edition(None, name, "", "", (), tuple(body), None, ())


@dataclass(frozen=True, slots=True)
class ParagraphChange:
    """One paragraph-level change between two revisions of a page."""

    kind: str
    """``unchanged``, ``moved``, ``edited``, ``moved-edited``, ``split``, ``merged``,
    ``added``, ``removed``."""
    old: tuple[Located, ...]
    new: tuple[Located, ...]
    score: float
    words: tuple[Any, ...]

    #: ``old``/``new``: 1-based paragraph numbers; ``*_located``: the paragraphs themselves.
    __json_fields__ = (
        "kind",
        Out("old", lambda c: [p.index + 1 for p in c.old]),
        Out("new", lambda c: [p.index + 1 for p in c.new]),
        "score",
        Out("words", lambda c: _word_ops(c.words)),
        Out("old_located", "old"),
        Out("new_located", "new"),
    )
    as_dict = to_data


@dataclass(frozen=True, slots=True)
class ParagraphDiff:
    old: LocateResult
    new: LocateResult
    changes: tuple[ParagraphChange, ...]

    def counts(self) -> dict[str, int]:
        kinds = (
            "unchanged",
            "moved",
            "edited",
            "moved-edited",
            "split",
            "merged",
            "added",
            "removed",
        )
        return {k: sum(1 for c in self.changes if c.kind == k) for k in kinds}

    __json_fields__ = (
        Out("format", lambda _: "rulediff-paragraph-diff"),
        Out("version", lambda _: 1),
        Out("edition", "new.edition"),
        Out("old", "old.source"),
        Out("new", "new.source"),
        Out("counts", lambda d: d.counts()),
        "changes",
    )
    as_dict = to_data


def _paragraph_kind(kind: str, moved: bool) -> str:
    if kind in ("unchanged", "renumbered", "references-only", "editorial") and not (
        kind != "unchanged" and moved
    ):
        return "unchanged" if kind != "editorial" else "edited"
    if kind in ("renumbered", "references-only"):
        return "moved"
    if kind in ("edited", "editorial"):
        return "moved-edited" if moved else "edited"
    if kind == "renumbered-edited":
        return "moved-edited" if moved else "edited"
    return kind


def diff_located(old: LocateResult, new: LocateResult) -> ParagraphDiff:
    """Align two located revisions paragraph by paragraph (the CR aligner and word diff)."""
    from .align import align
    from .diff import diff as edition_diff

    before, after = _as_edition(old.paragraphs, "old"), _as_edition(new.paragraphs, "new")
    result = edition_diff(before, after, align(before, after))

    def pick(result_side: Sequence[Located], ids: Sequence[str]) -> tuple[Located, ...]:
        out = []
        for ident in ids:
            rid = RuleId.try_parse(ident)
            if rid is not None and rid.rule == 100 and rid.number is not None:
                out.append(result_side[rid.number - 1])
        return tuple(out)

    changes: list[ParagraphChange] = []
    for change in result.changes:
        if change.domain != "rule":
            continue
        olds, news = pick(old.paragraphs, change.old_ids), pick(new.paragraphs, change.new_ids)
        if not olds and not news:
            continue
        kind = _paragraph_kind(change.kind, change.moved)
        words = change.words if kind not in ("unchanged", "moved", "added", "removed") else ()
        changes.append(ParagraphChange(kind, olds, news, round(change.score, 1), words))
    return ParagraphDiff(old, new, tuple(changes))


def diff_paragraphs(
    old_text: str,
    new_text: str,
    edition: str = "latest",
    *,
    old_source: str = "old",
    new_source: str = "new",
    corpus_dir: Any = None,
    use_cache: bool = True,
    context: Context | None = None,
) -> ParagraphDiff:
    """Two revisions of an unnumbered text, located against ``edition`` and aligned."""
    ctx = context or load_context(edition, corpus_dir=corpus_dir, use_cache=use_cache)
    old = locate_text(old_text, source=old_source, context=ctx)
    new = locate_text(new_text, source=new_source, context=ctx)
    return diff_located(old, new)
