"""Match every rule, example and glossary entry of one edition to its counterpart in another.

Why not "same number first": one inserted subrule (702.36b in 2015) shifts every later
letter, one inserted rule (706 in 2021) shifts every later rule, and the July 2009
edition renumbered the whole document. Matching by number pairs the wrong rules; we
match by *text* and use numbers only as small structural hints:

1. **Normalize** each text: typography (straight/curly quotes, dashes, the ``?`` the
   2008-05-01 edition prints for every quote and dash, whitespace) and rule numbers
   inside references (replaced by a placeholder), so neither hides a counterpart.
2. **Anchor** texts whose normalized form is unique on both sides.
3. **Fuzzy-match** the rest with rapidfuzz. Candidates come from an inverted index of
   word bigrams over the whole edition (blocking that survives renumbering, unlike
   blocking by chapter), plus the same number and the children of the mapped parent.
   Each candidate gets its similarity plus small bonuses (same mapped parent,
   matched neighbours, same number) and the assignment is solved best-first over the
   global candidate list, in rounds so later rounds see earlier parents. A match whose
   runner-up scores within :data:`AMBIGUITY_MARGIN` is flagged ``ambiguous``.
4. **Splits and merges**: an added rule whose words are contained in an old rule (or a
   removed rule contained in a new one) joins that match when the concatenation is
   closer than the 1:1 pair.
5. **Classify** each match (:data:`KINDS`). Inside one parent, the longest increasing
   subsequence of the children's old positions tells a shift (renumbered because
   something was inserted above) from a real move (``moved``).

The result, :class:`Alignment`, holds only ids, kinds and scores — no rule text — so it
is small, picklable and cached per pair of editions (see :func:`align_cached`).

>>> from rulediff.parse import parse_text  # doctest: +SKIP
>>> a = align(old_edition, new_edition)    # doctest: +SKIP
>>> a.match_for_old("702.36b").new_ids     # doctest: +SKIP
('702.36c',)
"""

from __future__ import annotations

import bisect
import functools
import heapq
import logging
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Literal, get_args

from rapidfuzz import fuzz
from rapidfuzz.distance import Indel

from .model import Edition

log = logging.getLogger(__name__)

Kind = Literal[
    "unchanged",
    "edited",
    "renumbered",
    "renumbered-edited",
    "split",
    "merged",
    "added",
    "removed",
    "references-only",
    "editorial",
    "renamed",
]
#: Every match kind. ``renamed`` is the glossary's ``renumbered``: the term changed.
KINDS: tuple[Kind, ...] = get_args(Kind)
Domain = Literal["rule", "example", "glossary"]
Method = Literal["anchor", "fuzzy", "structure", "term", "split", "merge", "none"]

#: A runner-up within this many points of the chosen pair makes the match ambiguous.
AMBIGUITY_MARGIN = 2.0
#: Structural bonuses added to the text similarity (0–100) when ranking candidates.
PARENT_BONUS = 5.0
NEIGHBOUR_BONUS = 2.0
SAME_ID_BONUS = 1.0
#: A fuzzy pair needs this similarity alone, and this much with its bonuses.
MIN_SIMILARITY = 50.0
MIN_TOTAL = 62.0
#: An unmatched rule whose number, parent and both neighbours all agree with an unmatched
#: new rule is its rewrite at this much similarity (e.g. a scope rule rewritten).
SAME_PLACE_SIMILARITY = 40.0
#: First fuzzy round: only confident pairs, so the second round sees their parents.
CONFIDENT_TOTAL = 80.0
#: Candidates per old text taken from the bigram index.
INDEX_CANDIDATES = 8
#: A bigram shared by more texts than this says nothing about identity.
MAX_POSTINGS = 60
#: A recurring wording change ("his or her" → "their") is a sweep when it occurs in at
#: least this many matched texts (one more for a single word replaced by another, which
#: recurs by chance more easily) under at least SWEEP_MIN_PARENTS different parents.
SWEEP_MIN_TEXTS = 3
SWEEP_MIN_PARENTS = 2
SWEEP_MAX_WORDS = 4


# --- normalization -----------------------------------------------------------------------

# Quotes (straight, curly, guillemets), "?" (the 2008-05-01 edition prints it for every
# quote, apostrophe and dash), and every dash and hyphen: one class for comparison.
_TYPO_CHARS = (
    "\"'`\u00b4\u2018\u2019\u201a\u201b\u201c\u201d\u201e\u201f\u2039\u203a\u00ab\u00bb?"
    "\u2010\u2011\u2012\u2013\u2014\u2015\u2212-"
)
_TYPO_CLASS = re.compile("[" + re.escape(_TYPO_CHARS) + "]+")
_TYPO_RUN = re.compile(r"\s*'(?:\s*')*\s*")
_SPACE = re.compile(r"\s+")

_NUM = r"\d{3}(?:\.\d+[a-z]{0,2})?"
_REF_LIST = re.compile(
    rf"\b(?:[Rr]ules?|[Ss]ections?)\s+((?:{_NUM}|\d)\b"
    rf"(?:(?:\s*,\s*(?:and\s+|or\s+)?|\s+(?:and|or|through)\s+|\s*[-\u2013\u2014]\s*){_NUM}\b)*)"
)
_REF_DOTTED = re.compile(r"(?<![\w.])\d{3}\.\d+[a-z]{0,2}\b")
_REF_ONE = re.compile(rf"{_NUM}|\d")
_REF_HINT = re.compile(r"\d\d\d|[Ss]ection")
PLACEHOLDER = "\u00a7"
_RANGE_TAIL = re.compile(PLACEHOLDER + r"\s*[-\u2013\u2014]\s*[a-z]{1,2}\b")


@functools.lru_cache(maxsize=1 << 16)
def typography_key(text: str) -> str:
    """Text with quotes, dashes, ``?``-for-quote, ellipses and whitespace made uniform.

    Only for comparing: two texts that differ only in typography get the same key.
    """
    text = _TYPO_CLASS.sub("'", text.replace("\u2026", "..."))
    if "'" in text:
        text = _TYPO_RUN.sub("'", text)
    return " ".join(text.split())


def soft_typography(text: str) -> str:
    """Like :func:`typography_key` but keeping word boundaries (for word diffs)."""
    return " ".join(_TYPO_CLASS.sub("'", text.replace("\u2026", "...")).split())


def reference_spans(text: str) -> list[tuple[int, int]]:
    """``(start, end)`` of every rule number written inside a reference, in order.

    Covers ``rule 702.36d``, ``rules 613 and 614``, ``section 7``, ``rules 601.2a–h``
    (the first number) and bare dotted numbers such as ``(see 702.36d)``.

    >>> t = "See rules 613 and 614.2a, and 702.36d."
    >>> [t[a:b] for a, b in reference_spans(t)]
    ['613', '614.2a', '702.36d']
    """
    if _REF_HINT.search(text) is None:
        return []
    spans: set[tuple[int, int]] = set()
    for m in _REF_LIST.finditer(text):
        start = m.start(1)
        for one in _REF_ONE.finditer(m.group(1)):
            spans.add((start + one.start(), start + one.end()))
    for m in _REF_DOTTED.finditer(text):
        spans.add((m.start(), m.end()))
    out: list[tuple[int, int]] = []
    for span in sorted(spans):
        if out and span[0] < out[-1][1]:
            continue
        out.append(span)
    return out


@functools.lru_cache(maxsize=1 << 16)
def references(text: str) -> tuple[str, ...]:
    """The rule numbers referenced in ``text``, in order."""
    return tuple(text[a:b] for a, b in reference_spans(text))


def replace_references(text: str, replace: Callable[[str], str]) -> str:
    """``text`` with each referenced rule number passed through ``replace``."""
    spans = reference_spans(text)
    if not spans:
        return text
    parts: list[str] = []
    last = 0
    for a, b in spans:
        parts.append(text[last:a])
        parts.append(replace(text[a:b]))
        last = b
    parts.append(text[last:])
    return "".join(parts)


@functools.lru_cache(maxsize=1 << 16)
def placeholder_references(text: str) -> str:
    """Rule numbers inside references replaced by ``§``: "rule 702.36d" → "rule §".

    The letter that ends a range goes too: "rules 601.2a–h" → "rules §".
    """
    out = replace_references(text, lambda _n: PLACEHOLDER)
    return _RANGE_TAIL.sub(PLACEHOLDER, out) if PLACEHOLDER in out else out


def comparison_key(text: str) -> str:
    """The key texts are matched on: typography made uniform, references as placeholders."""
    return typography_key(placeholder_references(text))


# --- word tokens and diffs (shared with rulediff.diff) -----------------------------------

_TOKEN = re.compile(r"\w+(?:['\u2019]\w+)*|\s+|[^\w\s]")
_WORD = re.compile(r"\w")


def tokenize(text: str) -> list[str]:
    """Words (with inner apostrophes), runs of whitespace, and single punctuation marks."""
    return _TOKEN.findall(text)


def is_word(token: str) -> bool:
    return _WORD.match(token) is not None


Opcode = tuple[str, int, int, int, int]


def word_opcodes(a: Sequence[str], b: Sequence[str], *, island: int = 2) -> list[Opcode]:
    """Opcodes (``equal``/``replace``/``delete``/``insert``) between two token lists.

    The LCS alone leaves readable diffs full of confetti ("the", "of" kept between two
    rewrites); an equal run of at most ``island`` words between two changes is folded
    into one replacement, so every change reads as a phrase.
    """
    segments: list[list] = []
    for op in Indel.opcodes(list(a), list(b)):
        tag = "equal" if op.tag == "equal" else "change"
        seg = [tag, op.src_start, op.src_end, op.dest_start, op.dest_end]
        if segments and segments[-1][0] == tag == "change":
            segments[-1][2], segments[-1][4] = seg[2], seg[4]
        else:
            segments.append(seg)
    if island > 0 and len(segments) >= 3:
        merged: list[list] = []
        for k, seg in enumerate(segments):
            if (
                seg[0] == "equal"
                and 0 < k < len(segments) - 1
                and seg[2] - seg[1] <= 6 * island  # longer runs hold more words anyway
                and sum(1 for t in a[seg[1] : seg[2]] if is_word(t)) <= island
            ):
                seg = ["change", *seg[1:]]
            if merged and merged[-1][0] == seg[0] == "change":
                merged[-1][2], merged[-1][4] = seg[2], seg[4]
            else:
                merged.append(seg)
        segments = merged
    out: list[Opcode] = []
    for tag, i1, i2, j1, j2 in segments:
        if tag == "change":
            tag = "replace" if i1 < i2 and j1 < j2 else ("delete" if i1 < i2 else "insert")
        if i1 == i2 and j1 == j2:
            continue
        out.append((tag, i1, i2, j1, j2))
    return out


_chunk_memo: dict[tuple[str, str], list[tuple[str, str]]] = {}


def _chunks(old: str, new: str) -> list[tuple[str, str]]:
    """The changed phrases between two comparison texts, lowercased, without spaces."""
    found = _chunk_memo.get((old, new))
    if found is None:
        if len(_chunk_memo) > 20000:
            _chunk_memo.clear()
        found = _chunk_memo[(old, new)] = _compute_chunks(old, new)
    return found


def _compute_chunks(old: str, new: str) -> list[tuple[str, str]]:
    a = [t.lower() for t in tokenize(old) if not t.isspace()]
    b = [t.lower() for t in tokenize(new) if not t.isspace()]
    return [
        (" ".join(a[i1:i2]), " ".join(b[j1:j2]))
        for tag, i1, i2, j1, j2 in word_opcodes(a, b)
        if tag != "equal"
    ]


# --- result types -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EditionRef:
    """Which edition an alignment or diff is about (no path: output must not depend on it)."""

    date: str
    """Effective date ``YYYY-MM-DD`` (``unknown`` if the text has none)."""
    sha256: str
    title: str = ""

    @classmethod
    def of(cls, edition: Edition) -> EditionRef:
        return cls(edition.date_text, edition.sha256, edition.title)


@dataclass(frozen=True, slots=True)
class Match:
    """One correspondence between the old and the new edition.

    ``old_ids`` is empty for ``added``, ``new_ids`` for ``removed``; ``split`` has one old
    id and several new ones, ``merged`` the reverse. Ids are rule numbers (``702.36e``),
    example ids (``702.36e#ex1``: first example of 702.36e) or glossary terms.
    """

    domain: Domain
    kind: Kind
    old_ids: tuple[str, ...]
    new_ids: tuple[str, ...]
    score: float
    """Similarity of the normalized texts, 0–100 (100 for anchors; 0 for added/removed)."""
    method: Method = "none"
    """How it was found: ``anchor`` (unique exact text), ``fuzzy``, ``structure`` (a
    heading by where its children went), ``term`` (glossary term), ``split``/``merge``."""
    ambiguous: bool = False
    """Another candidate scored within :data:`AMBIGUITY_MARGIN`: check it by hand."""
    alternatives: tuple[str, ...] = ()
    """The runner-up ids when ``ambiguous``."""
    moved: bool = False
    """Really moved (a new parent, or out of order among its siblings), not just shifted."""
    flags: tuple[str, ...] = ()
    """What kind of difference the text has: ``typography``, ``references``, ``sweep``."""
    sweeps: tuple[tuple[str, str], ...] = ()
    """Recurring wording changes found in this text, e.g. ``("his or her", "their")``."""

    @property
    def old_id(self) -> str | None:
        return self.old_ids[0] if self.old_ids else None

    @property
    def new_id(self) -> str | None:
        return self.new_ids[0] if self.new_ids else None


@dataclass(frozen=True, slots=True)
class Alignment:
    """All matches between two editions, each list in the new edition's document order."""

    old: EditionRef
    new: EditionRef
    rules: tuple[Match, ...]
    """Sections, rule headings, rules and subrules."""
    examples: tuple[Match, ...]
    glossary: tuple[Match, ...]
    sweeps: tuple[tuple[str, str, int], ...] = ()
    """Recurring wording changes detected over the whole pair: (old, new, count)."""
    _index: dict = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self) -> tuple:
        return tuple(getattr(self, name) for name in _ALIGNMENT_STATE)

    def __setstate__(self, state: tuple) -> None:
        for name, value in zip(_ALIGNMENT_STATE, state, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_index", {})

    def all(self) -> tuple[Match, ...]:
        return self.rules + self.examples + self.glossary

    def _lookup(self, name: str, domain: Domain) -> dict[str, Match]:
        key = f"{name}:{domain}"
        found = self._index.get(key)
        if found is None:
            found = {}
            matches = {"rule": self.rules, "example": self.examples, "glossary": self.glossary}[
                domain
            ]
            for m in matches:
                for i in m.old_ids if name == "old" else m.new_ids:
                    found.setdefault(i, m)
            self._index[key] = found
        return found

    def match_for_old(self, old_id: str, domain: Domain = "rule") -> Match | None:
        """The match that the old edition's ``old_id`` takes part in."""
        return self._lookup("old", domain).get(old_id)

    def match_for_new(self, new_id: str, domain: Domain = "rule") -> Match | None:
        return self._lookup("new", domain).get(new_id)

    def rule_map(self) -> dict[str, str]:
        """Old rule number → new rule number (a split maps to its first part)."""
        found = self._index.get("rule_map")
        if found is None:
            found = {}
            for m in self.rules:
                if m.old_ids and m.new_ids:
                    for old_id in m.old_ids:
                        found.setdefault(old_id, m.new_ids[0])
            self._index["rule_map"] = found
        return found

    def counts(self) -> dict[str, int]:
        """How many rule matches of each kind (every kind present, zeros included)."""
        counter = Counter(m.kind for m in self.rules)
        return {kind: counter.get(kind, 0) for kind in KINDS}


_ALIGNMENT_STATE = ("old", "new", "rules", "examples", "glossary", "sweeps")


# --- nodes -----------------------------------------------------------------------------


class _Node:
    """One comparable text of an edition (internal; the result keeps only ids)."""

    __slots__ = ("id", "text", "key", "lower", "parent", "heading", "order", "feats", "featset")

    def __init__(self, id: str, text: str, parent: str | None, heading: bool, order: int) -> None:
        self.id = id
        self.text = text
        self.key = comparison_key(text)
        self.lower = self.key.lower()
        self.parent = parent
        self.heading = heading
        self.order = order
        self.feats: tuple[str, ...] | None = None
        self.featset: frozenset[str] | None = None

    def features(self) -> tuple[str, ...]:
        """Word bigrams (and, for short texts, words): the blocking keys.

        A sorted tuple, not a set: votes are summed in this order, and a set's order
        would change with the per-process string hash seed (non-deterministic output).
        """
        if self.feats is None:
            words = re.findall(r"\w+", self.lower)
            feats = {f"{a} {b}" for a, b in zip(words, words[1:], strict=False)}
            if len(words) < 6:
                feats.update(words)
            self.feats = tuple(sorted(feats))
            self.featset = frozenset(feats)
        return self.feats

    def feature_set(self) -> frozenset[str]:
        if self.featset is None:
            self.features()
        return self.featset  # type: ignore[return-value]


def _rule_nodes(edition: Edition) -> list[_Node]:
    nodes: list[_Node] = []
    for item in edition.body:
        rid = item.id
        parent = rid.parent
        heading = getattr(item, "title", None) is not None or rid.is_section
        text = item.title if rid.is_section else item.text  # type: ignore[union-attr]
        nodes.append(_Node(str(rid), text, str(parent) if parent else None, heading, len(nodes)))
    return nodes


def _example_nodes(edition: Edition) -> list[_Node]:
    nodes: list[_Node] = []
    for rule in edition.rules:
        for k, example in enumerate(rule.examples, 1):
            nodes.append(_Node(f"{rule.id}#ex{k}", example.text, str(rule.id), False, len(nodes)))
    return nodes


def _glossary_nodes(edition: Edition) -> list[_Node]:
    return [_Node(e.term, e.text, None, False, k) for k, e in enumerate(edition.glossary)]


def _term_key(term: str) -> str:
    return typography_key(term).casefold()


def _bare_term(term: str) -> str:
    """A term without parenthetical notes: "Local Enchantment (obsolete)" → "local enchantment"."""
    return _term_key(re.sub(r"\([^()]*\)", " ", term))


# --- matching -------------------------------------------------------------------------


class _Pairing:
    """The growing 1:1 assignment between two node lists."""

    def __init__(self, old: list[_Node], new: list[_Node]) -> None:
        self.old = old
        self.new = new
        self.o2n = [-1] * len(old)
        self.n2o = [-1] * len(new)
        self.score: dict[int, float] = {}
        self.method: dict[int, Method] = {}
        self.alternatives: dict[int, tuple[tuple[str, int], ...]] = {}
        """Runner-ups of a fuzzy pair: ("new", j) rivals of its new side, ("old", i) of its old."""
        self.new_by_id: dict[str, list[int]] = defaultdict(list)
        for j, node in enumerate(new):
            self.new_by_id[node.id].append(j)
        self.old_children: dict[str | None, list[int]] = defaultdict(list)
        self.new_children: dict[str | None, list[int]] = defaultdict(list)
        for i, node in enumerate(old):
            self.old_children[node.parent].append(i)
        for j, node in enumerate(new):
            self.new_children[node.parent].append(j)
        self.old_sibling_pos = {
            i: k for kids in self.old_children.values() for k, i in enumerate(kids)
        }
        self.new_sibling_pos = {
            j: k for kids in self.new_children.values() for k, j in enumerate(kids)
        }
        self.top_cache: dict[int, list[int]] = {}
        self.ratio_cache: dict[tuple[int, int], float] = {}
        self.old_by_id: dict[str, int] = {}
        for i, node in enumerate(old):
            self.old_by_id.setdefault(node.id, i)

    def pair(
        self,
        i: int,
        j: int,
        score: float,
        method: Method,
        alternatives: tuple[tuple[str, int], ...] = (),
    ) -> None:
        self.o2n[i] = j
        self.n2o[j] = i
        self.score[i] = score
        self.method[i] = method
        if alternatives:
            self.alternatives[i] = alternatives

    def mapped_parent(self, i: int) -> str | None:
        """The new id of old node ``i``'s parent, when that parent is matched."""
        parent = self.old[i].parent
        if parent is None:
            return None
        k = self.old_by_id.get(parent)
        if k is None or self.o2n[k] < 0:
            return None
        return self.new[self.o2n[k]].id

    def bonus(self, i: int, j: int) -> float:
        old, new = self.old[i], self.new[j]
        total = 0.0
        if old.parent is not None and self.mapped_parent(i) == new.parent:
            total += PARENT_BONUS
        kids_o = self.old_children[old.parent]
        kids_n = self.new_children[new.parent]
        po, pn = self.old_sibling_pos[i], self.new_sibling_pos[j]
        if po > 0 and pn > 0 and self.o2n[kids_o[po - 1]] == kids_n[pn - 1]:
            total += NEIGHBOUR_BONUS
        if (
            po + 1 < len(kids_o)
            and pn + 1 < len(kids_n)
            and self.o2n[kids_o[po + 1]] == kids_n[pn + 1]
        ):
            total += NEIGHBOUR_BONUS
        if old.id == new.id:
            total += SAME_ID_BONUS
        return total


def _anchor(p: _Pairing, old_idx: Iterable[int], new_idx: Iterable[int]) -> None:
    """Pair texts whose comparison key is unique on both sides."""
    old_keys: dict[tuple[bool, str], list[int]] = defaultdict(list)
    new_keys: dict[tuple[bool, str], list[int]] = defaultdict(list)
    for i in old_idx:
        old_keys[(p.old[i].heading, p.old[i].key)].append(i)
    for j in new_idx:
        new_keys[(p.new[j].heading, p.new[j].key)].append(j)
    for key, olds in old_keys.items():
        news = new_keys.get(key)
        if news and len(olds) == 1 and len(news) == 1:
            p.pair(olds[0], news[0], 100.0, "anchor")


class _BigramIndex:
    """Inverted index from blocking features to new nodes (IDF-weighted votes)."""

    def __init__(self, nodes: Sequence[_Node], members: Iterable[int]) -> None:
        self.postings: dict[str, list[int]] = defaultdict(list)
        for j in members:
            for f in nodes[j].features():
                self.postings[f].append(j)

    def top(self, feats: Iterable[str], k: int) -> list[int]:
        votes: dict[int, float] = defaultdict(float)
        for f in feats:
            posting = self.postings.get(f)
            if posting and len(posting) <= MAX_POSTINGS:
                w = 1.0 / len(posting)
                for j in posting:
                    votes[j] += w
        if len(votes) <= k:
            return sorted(votes)
        return sorted(heapq.nlargest(k, votes, key=votes.__getitem__))


def _candidates(
    p: _Pairing,
    olds: list[int],
    news: list[int],
    index: _BigramIndex,
    *,
    extra: Callable[[int], Iterable[int]] | None = None,
) -> dict[tuple[int, int], float]:
    """Similarity of every plausible (old, new) pair among the unmatched nodes.

    ``index`` covers (at least) ``news``; its answers and the similarities are cached
    on the pairing, so a second round costs only the new structural candidates.
    """
    free_new = set(news)
    pairs: dict[tuple[int, int], float] = {}
    for i in olds:
        node = p.old[i]
        top = p.top_cache.get(i)
        if top is None:
            top = p.top_cache[i] = index.top(node.features(), INDEX_CANDIDATES)
        cands = {j for j in top if j in free_new}
        cands.update(j for j in p.new_by_id.get(node.id, ()) if j in free_new)
        mp = p.mapped_parent(i)
        if mp is not None:
            siblings = [j for j in p.new_children.get(mp, ()) if j in free_new]
            if len(siblings) <= 40:
                cands.update(siblings)
        if extra is not None:
            cands.update(j for j in extra(i) if j in free_new)
        for j in cands:
            if p.new[j].heading != node.heading:
                continue
            base = p.ratio_cache.get((i, j))
            if base is None:
                base = p.ratio_cache[(i, j)] = fuzz.ratio(node.lower, p.new[j].lower)
            if base >= MIN_SIMILARITY:
                pairs[(i, j)] = base
    return pairs


def _rivals(
    candidates: list[tuple[float, float, int]], matched: list[int], chosen: int, total: float
) -> list[int]:
    """The other still-unmatched candidates that scored within the ambiguity margin."""
    return [
        k
        for t2, b2, k in candidates
        if k != chosen
        and matched[k] < 0
        and t2 >= total - AMBIGUITY_MARGIN
        and b2 >= MIN_SIMILARITY
    ]


def _solve(
    p: _Pairing, pairs: dict[tuple[int, int], float], *, min_total: float, method: Method = "fuzzy"
) -> int:
    """Best-first global assignment over scored candidates; returns how many were paired."""
    scored = [(base + p.bonus(i, j), base, i, j) for (i, j), base in pairs.items()]
    scored.sort(key=lambda t: (-t[0], -t[1], t[2], t[3]))
    by_old: dict[int, list[tuple[float, float, int]]] = defaultdict(list)
    by_new: dict[int, list[tuple[float, float, int]]] = defaultdict(list)
    for total, base, i, j in scored:
        by_old[i].append((total, base, j))
        by_new[j].append((total, base, i))
    made = 0
    for total, base, i, j in scored:
        if total < min_total:
            break
        if p.o2n[i] >= 0 or p.n2o[j] >= 0:
            continue
        rivals = [("new", k) for k in _rivals(by_old[i], p.n2o, j, total)]
        rivals += [("old", k) for k in _rivals(by_new[j], p.o2n, i, total)]
        p.pair(i, j, round(base, 1), method, tuple(dict.fromkeys(rivals)))
        made += 1
    return made


def _match_by_children(p: _Pairing) -> None:
    """Pair unmatched parents whose matched children went to one unmatched new parent.

    A heading renamed outright, or a rule rewritten while its subrules kept their text
    ("Third, the active player gets priority…" → "Fourth, …" with 505.5a → 505.6a), is
    found by where its children went; a rule (not a heading) must still resemble it.
    """
    free_new = {p.new[j].id: j for j, n in enumerate(p.new) if p.n2o[j] < 0}
    pairs: list[tuple[float, int, int]] = []
    for i, node in enumerate(p.old):
        if p.o2n[i] >= 0:
            continue
        kids = p.old_children.get(node.id, [])
        votes = Counter(p.new[p.o2n[k]].parent for k in kids if p.o2n[k] >= 0)
        if not votes:
            continue
        (target, count), total = votes.most_common(1)[0], sum(votes.values())
        j = free_new.get(target) if target is not None else None
        if j is None or p.new[j].heading != node.heading or count < 2 or count < 0.75 * total:
            continue
        similarity = fuzz.ratio(node.lower, p.new[j].lower)
        if node.heading or similarity >= SAME_PLACE_SIMILARITY:
            pairs.append((similarity, i, j))
    pairs.sort(key=lambda t: (-t[0], t[1], t[2]))
    for score, i, j in pairs:
        if p.o2n[i] < 0 and p.n2o[j] < 0:
            p.pair(i, j, round(score, 1), "structure")


def _free(p: _Pairing) -> tuple[list[int], list[int]]:
    return [i for i, j in enumerate(p.o2n) if j < 0], [j for j, i in enumerate(p.n2o) if i < 0]


def _match_rules(p: _Pairing) -> None:
    """Anchors, then rounds of texts and headings so each round sees the last one's parents."""
    _anchor(p, range(len(p.old)), range(len(p.new)))
    _olds, news = _free(p)
    index = _BigramIndex(p.new, news)

    def texts(min_total: float) -> None:
        olds, news = _free(p)
        old_texts = [i for i in olds if not p.old[i].heading]
        new_texts = [j for j in news if not p.new[j].heading]
        _solve(p, _candidates(p, old_texts, new_texts, index), min_total=min_total)

    def headings() -> None:
        _match_by_children(p)
        olds, news = _free(p)
        old_heads = [i for i in olds if p.old[i].heading]
        new_heads = [j for j in news if p.new[j].heading]
        _solve(p, _candidates(p, old_heads, new_heads, index), min_total=MIN_TOTAL + 5)

    texts(CONFIDENT_TOTAL)
    headings()
    texts(MIN_TOTAL)
    headings()
    texts(MIN_TOTAL)
    _match_by_children(p)
    _match_same_place(p)


def _match_same_place(p: _Pairing) -> None:
    """Pair a rewritten rule left where it was: same number, same mapped parent, and both
    neighbours matched to its new neighbours (or none there), at a low similarity."""
    for i in range(len(p.old)):
        node = p.old[i]
        if p.o2n[i] >= 0 or node.heading:
            continue
        same = [j for j in p.new_by_id.get(node.id, ()) if p.n2o[j] < 0 and not p.new[j].heading]
        if len(same) != 1:
            continue
        j = same[0]
        if node.parent is not None and p.mapped_parent(i) != p.new[j].parent:
            continue
        kids_o, kids_n = p.old_children[node.parent], p.new_children[p.new[j].parent]
        po, pn = p.old_sibling_pos[i], p.new_sibling_pos[j]
        prev_ok = (po == 0 and pn == 0) or (
            po > 0 and pn > 0 and p.o2n[kids_o[po - 1]] == kids_n[pn - 1]
        )
        last_o, last_n = po + 1 == len(kids_o), pn + 1 == len(kids_n)
        next_ok = (last_o and last_n) or (
            not last_o and not last_n and p.o2n[kids_o[po + 1]] == kids_n[pn + 1]
        )
        if not (prev_ok and next_ok):
            continue
        base = fuzz.ratio(node.lower, p.new[j].lower)
        if base >= SAME_PLACE_SIMILARITY:
            p.pair(i, j, round(base, 1), "structure")


# --- splits and merges -------------------------------------------------------------------


def _coverage(part: _Node, whole: _Node) -> float:
    feats = part.feature_set()
    if len(feats) < 3:
        return 0.0
    return len(feats & whole.feature_set()) / len(feats)


_PIECE_COVERAGE = 0.7
_GAIN = 5.0


def _pieces(
    wholes: Sequence[_Node],
    candidates: list[int],
    parts: Sequence[_Node],
    free_parts: list[int],
    match: list[int],
) -> dict[int, list[int]]:
    """Whole node → the nodes of the other side it was cut into (or joined from).

    Each free part goes to the candidate whole that covers it best; a whole keeps its
    group (its own match, if any, and its parts, in document order) when the joined
    group is much closer to it than its match alone. Splits and merges are this, seen
    from the old side and from the new side (``fuzz.ratio`` is symmetric).
    """
    index = _BigramIndex(wholes, candidates)
    pieces: dict[int, list[int]] = defaultdict(list)
    for k in free_parts:
        best = None
        for w in index.top(parts[k].features(), 3):
            cov = _coverage(parts[k], wholes[w])
            if cov >= _PIECE_COVERAGE and (best is None or cov > best[0]):
                best = (cov, w)
        if best is not None:
            pieces[best[1]].append(k)
    groups: dict[int, list[int]] = {}
    for w in sorted(pieces):
        found = pieces[w]
        main = match[w]
        if main >= 0:
            group = sorted([main, *found], key=lambda k: parts[k].order)
            before = fuzz.ratio(wholes[w].lower, parts[main].lower)
        else:
            if len(found) < 2:
                continue
            group = sorted(found, key=lambda k: parts[k].order)
            before = MIN_TOTAL - _GAIN
        after = fuzz.ratio(wholes[w].lower, " ".join(parts[k].lower for k in group))
        if after >= before + _GAIN and after >= MIN_TOTAL:
            groups[w] = group
    return groups


def _find_splits(p: _Pairing) -> dict[int, list[int]]:
    """Old node → the new nodes it became, when one old text became several new ones."""
    _olds, news = _free(p)
    candidates = [i for i, n in enumerate(p.old) if not n.heading and p.score.get(i, 0.0) < 100.0]
    added = [j for j in news if not p.new[j].heading]
    return _pieces(p.old, candidates, p.new, added, p.o2n)


#: A runner-up left unmatched that is this close to the old text is a copy of it.
COPY_SIMILARITY = 80.0


def _find_copies(p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]) -> None:
    """Ambiguous pairs whose rivals stayed unmatched: the text was duplicated, not moved.

    When a rule "for spells and abilities" becomes one rule for spells and one for
    abilities, both new rules are near-copies of the old one: a split (or, the other way
    round, a merge). The ambiguity that flagged it is resolved by saying so.
    """
    in_splits = {j for group in splits.values() for j in group}
    in_merges = {i for group in merges.values() for i in group}
    for i, rivals in sorted(p.alternatives.items()):
        j = p.o2n[i]
        if j < 0 or p.old[i].heading or i in splits or j in merges:
            continue
        if j in in_splits or i in in_merges:
            continue
        copies_new = [
            k
            for side, k in rivals
            if side == "new"
            and p.n2o[k] < 0
            and k not in in_splits
            and k not in merges
            and fuzz.ratio(p.old[i].lower, p.new[k].lower) >= COPY_SIMILARITY
        ]
        copies_old = [
            k
            for side, k in rivals
            if side == "old"
            and p.o2n[k] < 0
            and k not in in_merges
            and k not in splits
            and fuzz.ratio(p.old[k].lower, p.new[j].lower) >= COPY_SIMILARITY
        ]
        if copies_new and len(copies_new) == len(rivals):
            splits[i] = sorted([j, *copies_new], key=lambda k: p.new[k].order)
            in_splits.update(splits[i])
            del p.alternatives[i]
        elif copies_old and len(copies_old) == len(rivals):
            merges[j] = sorted([i, *copies_old], key=lambda k: p.old[k].order)
            in_merges.update(merges[j])
            del p.alternatives[i]


def _find_merges(p: _Pairing, taken_new: set[int]) -> dict[int, list[int]]:
    """New node → the old nodes that became it, when several old texts were joined."""
    olds, _news = _free(p)
    candidates = [
        j
        for j, n in enumerate(p.new)
        if not n.heading
        and j not in taken_new
        and (p.n2o[j] < 0 or p.score.get(p.n2o[j], 0.0) < 100.0)
    ]
    removed = [i for i in olds if not p.old[i].heading]
    return _pieces(p.new, candidates, p.old, removed, p.n2o)


# --- classification ------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class _Pair:
    """A matched group before classification."""

    old: tuple[int, ...]
    new: tuple[int, ...]
    score: float
    method: Method
    alternatives: tuple[str, ...] = ()


def _text_difference(
    old: str, new: str, mapping: dict[str, str], sweeps: set[tuple[str, str]]
) -> tuple[str, tuple[str, ...], tuple[tuple[str, str], ...]]:
    """How two matched texts differ: ``same``, ``editorial``, ``references`` or ``edited``.

    Returns (verdict, flags, sweeps found in the text).
    """
    if old == new:
        return "same", (), ()
    if typography_key(old) == typography_key(new):
        return "editorial", ("typography",), ()
    flags: list[str] = []
    if tuple(mapping.get(n, n) for n in references(old)) != references(new):
        flags.append("references")
    a, b = placeholder_references(old), placeholder_references(new)
    if typography_key(a) == typography_key(b):
        return "references", ("references",), ()
    found = _chunks(soft_typography(a), soft_typography(b))
    hits = tuple(dict.fromkeys(c for c in found if c in sweeps))
    if hits:
        flags.append("sweep")
    if found and all(c in sweeps for c in found):
        return "editorial", tuple(flags), hits
    return "edited", tuple(flags), hits


def _kind(verdict: str, same_place: bool) -> Kind:
    if same_place:
        return {"same": "unchanged", "editorial": "editorial", "references": "references-only"}.get(
            verdict, "edited"
        )  # type: ignore[return-value]
    return "renumbered" if verdict in ("same", "editorial", "references") else "renumbered-edited"


def _lis_members(seq: list[int]) -> set[int]:
    """Positions of one longest strictly increasing subsequence of ``seq``."""
    if not seq:
        return set()
    tails: list[int] = []
    tails_pos: list[int] = []
    prev = [-1] * len(seq)
    for k, value in enumerate(seq):
        at = bisect.bisect_left(tails, value)
        if at == len(tails):
            tails.append(value)
            tails_pos.append(k)
        else:
            tails[at] = value
            tails_pos[at] = k
        prev[k] = tails_pos[at - 1] if at > 0 else -1
    out: set[int] = set()
    k = tails_pos[-1]
    while k >= 0:
        out.add(k)
        k = prev[k]
    return out


def _moved(p: _Pairing) -> set[int]:
    """Old nodes that really moved: to another parent, or out of order among siblings."""
    moved: set[int] = set()
    for parent, kids in p.new_children.items():
        stay: list[int] = []
        for j in kids:
            i = p.n2o[j]
            if i < 0:
                continue
            if p.old[i].parent is None and parent is None:
                stay.append(i)
            elif p.old[i].parent is not None and p.mapped_parent(i) == parent:
                stay.append(i)
            elif p.old[i].parent is not None or parent is not None:
                moved.add(i)
        keep = _lis_members([p.old[i].order for i in stay])
        moved.update(i for k, i in enumerate(stay) if k not in keep)
    return moved


def _detect_sweeps(pairs: Iterable[tuple[str, str, str | None]]) -> dict[tuple[str, str], int]:
    """Recurring wording changes over all matched texts: (old phrase, new phrase) → count."""
    texts: dict[tuple[str, str], int] = Counter()
    parents: dict[tuple[str, str], set[str | None]] = defaultdict(set)
    for old, new, parent in pairs:
        if old == new:
            continue
        a = soft_typography(placeholder_references(old))
        b = soft_typography(placeholder_references(new))
        if a == b:
            continue
        for chunk in set(_chunks(a, b)):
            d, i = chunk
            if not d or not i or not re.search(r"\w", d) or not re.search(r"\w", i):
                continue
            if (
                len(d.split()) > SWEEP_MAX_WORDS
                or len(i.split()) > SWEEP_MAX_WORDS
                or PLACEHOLDER in d + i
            ):
                continue
            texts[chunk] += 1
            parents[chunk].add(parent)
    return {
        c: n
        for c, n in texts.items()
        if n >= SWEEP_MIN_TEXTS + (0 if re.search(r"[ ']", c[0] + c[1]) else 1)
        and len(parents[c]) >= SWEEP_MIN_PARENTS
    }


def _order_key(p: _Pairing, pair: _Pair) -> tuple[float, int]:
    """Position in the new edition; a removed node sits right after its old predecessor."""
    if pair.new:
        return (
            min(p.new[j].order for j in pair.new),
            min((p.old[i].order for i in pair.old), default=-1),
        )
    i = min(pair.old)
    k = i - 1
    while k >= 0 and p.o2n[k] < 0:
        k -= 1
    anchor = p.new[p.o2n[k]].order if k >= 0 else -1
    return (anchor + 0.5, i)


# --- the public entry points -------------------------------------------------------------------


def align(old: Edition, new: Edition) -> Alignment:
    """Match every rule, example and glossary entry of ``old`` to its counterpart in ``new``."""
    rules = _Pairing(_rule_nodes(old), _rule_nodes(new))
    _match_rules(rules)
    splits = _find_splits(rules)
    merges = _find_merges(rules, {j for group in splits.values() for j in group})
    _find_copies(rules, splits, merges)
    rule_pairs = _groups(rules, splits, merges)
    mapping: dict[str, str] = {}
    for pair in rule_pairs:
        if pair.old and pair.new:
            for i in pair.old:
                mapping.setdefault(rules.old[i].id, rules.new[pair.new[0]].id)

    examples = _Pairing(_example_nodes(old), _example_nodes(new))
    _match_examples(examples, mapping)
    glossary = _Pairing(_glossary_nodes(old), _glossary_nodes(new))
    _match_glossary(glossary)

    example_pairs = _groups(examples, {}, {})
    glossary_pairs = _groups(glossary, {}, {})

    def text_pairs() -> Iterable[tuple[str, str, str | None]]:
        for pairing, pairs in (
            (rules, rule_pairs),
            (examples, example_pairs),
            (glossary, glossary_pairs),
        ):
            for pair in pairs:
                if len(pair.old) == 1 and len(pair.new) == 1:
                    o, n = pairing.old[pair.old[0]], pairing.new[pair.new[0]]
                    yield o.text, n.text, o.parent if pairing is not glossary else o.id

    sweep_counts = _detect_sweeps(text_pairs())
    sweeps = set(sweep_counts)
    moved = _moved(rules)

    def rule_same_place(pair: _Pair) -> bool:
        return [rules.old[i].id for i in pair.old] == [rules.new[j].id for j in pair.new]

    def example_same_place(pair: _Pair) -> bool:
        return all(
            mapping.get(examples.old[i].parent or "") == examples.new[pair.new[0]].parent
            for i in pair.old
        )

    def glossary_same_place(pair: _Pair) -> bool:
        return all(
            _term_key(glossary.old[i].id) == _term_key(glossary.new[pair.new[0]].id)
            for i in pair.old
        )

    result_rules = _classify(rules, rule_pairs, "rule", mapping, sweeps, rule_same_place, moved)
    result_examples = _classify(
        examples, example_pairs, "example", mapping, sweeps, example_same_place, set()
    )
    result_glossary = _classify(
        glossary, glossary_pairs, "glossary", mapping, sweeps, glossary_same_place, set()
    )
    return Alignment(
        old=EditionRef.of(old),
        new=EditionRef.of(new),
        rules=result_rules,
        examples=result_examples,
        glossary=result_glossary,
        sweeps=tuple(
            sorted(
                ((a, b, n) for (a, b), n in sweep_counts.items()), key=lambda t: (-t[2], t[0], t[1])
            )
        ),
    )


def _groups(p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]) -> list[_Pair]:
    """Matches (1:1, splits, merges), then the unmatched nodes, in new document order."""
    pairs: list[_Pair] = []
    in_group_old: set[int] = set()
    in_group_new: set[int] = set()
    for i, group in splits.items():
        score = fuzz.ratio(p.old[i].lower, " ".join(p.new[j].lower for j in group))
        pairs.append(_Pair((i,), tuple(group), round(score, 1), "split"))
        in_group_old.add(i)
        in_group_new.update(group)
    for j, group in merges.items():
        score = fuzz.ratio(" ".join(p.old[i].lower for i in group), p.new[j].lower)
        pairs.append(_Pair(tuple(group), (j,), round(score, 1), "merge"))
        in_group_new.add(j)
        in_group_old.update(group)
    for i, j in enumerate(p.o2n):
        if i in in_group_old:
            continue
        if j >= 0 and j not in in_group_new:
            rivals = tuple(
                (p.new[k] if side == "new" else p.old[k]).id
                for side, k in p.alternatives.get(i, ())
            )
            pairs.append(_Pair((i,), (j,), p.score[i], p.method[i], tuple(dict.fromkeys(rivals))))
        else:
            pairs.append(_Pair((i,), (), 0.0, "none"))
    for j, i in enumerate(p.n2o):
        if j in in_group_new:
            continue
        if i < 0 or i in in_group_old:
            pairs.append(_Pair((), (j,), 0.0, "none"))
    pairs.sort(key=lambda pair: _order_key(p, pair))
    return pairs


def _classify(
    p: _Pairing,
    pairs: list[_Pair],
    domain: Domain,
    mapping: dict[str, str],
    sweeps: set[tuple[str, str]],
    same_place: Callable[[_Pair], bool],
    moved: set[int],
) -> tuple[Match, ...]:
    out: list[Match] = []
    for pair in pairs:
        old_ids = tuple(p.old[i].id for i in pair.old)
        new_ids = tuple(p.new[j].id for j in pair.new)
        common = {"ambiguous": bool(pair.alternatives), "alternatives": pair.alternatives}
        if not pair.new:
            out.append(Match(domain, "removed", old_ids, (), 0.0, "none"))
            continue
        if not pair.old:
            out.append(Match(domain, "added", (), new_ids, 0.0, "none"))
            continue
        old_text = "\n".join(p.old[i].text for i in pair.old)
        new_text = "\n".join(p.new[j].text for j in pair.new)
        verdict, flags, found = _text_difference(old_text, new_text, mapping, sweeps)
        if len(pair.old) > 1 or len(pair.new) > 1:
            kind: Kind = "split" if len(pair.new) > 1 else "merged"
        elif domain == "glossary" and not same_place(pair):
            kind = "renamed"
        else:
            kind = _kind(verdict, same_place(pair))
        is_moved = any(i in moved for i in pair.old)
        out.append(
            Match(
                domain,
                kind,
                old_ids,
                new_ids,
                pair.score,
                pair.method,
                moved=is_moved,
                flags=flags,
                sweeps=found,
                **common,
            )  # type: ignore[arg-type]
        )
    return tuple(out)


def _match_examples(p: _Pairing, mapping: dict[str, str]) -> None:
    """Examples: unique texts first, then fuzzy with a strong bonus for the mapped owner."""
    _anchor(p, range(len(p.old)), range(len(p.new)))
    owners_new: dict[str | None, list[int]] = p.new_children

    def same_owner(i: int) -> Iterable[int]:
        owner = p.old[i].parent
        return owners_new.get(mapping.get(owner or "", ""), ())

    # The owner rule of an example is its "parent", but examples are not rules: map the
    # owner through the rule alignment instead of through the example pairing.
    p.mapped_parent = lambda i: mapping.get(p.old[i].parent or "")  # type: ignore[method-assign]
    olds, news = _free(p)
    _solve(
        p,
        _candidates(p, olds, news, _BigramIndex(p.new, news), extra=same_owner),
        min_total=MIN_TOTAL,
    )


def _match_glossary(p: _Pairing) -> None:
    """Glossary entries: same term, then the same definition, a close one, a close term."""
    by_term: dict[str, list[int]] = defaultdict(list)
    for j, node in enumerate(p.new):
        by_term[_term_key(node.id)].append(j)
    for i, node in enumerate(p.old):
        for j in by_term.get(_term_key(node.id), ()):
            if p.n2o[j] < 0:
                score = (
                    100.0
                    if node.key == p.new[j].key
                    else round(fuzz.ratio(node.lower, p.new[j].lower), 1)
                )
                p.pair(i, j, score, "term")
                break
    olds, news = _free(p)
    _anchor(p, olds, news)
    olds, news = _free(p)
    _solve(p, _candidates(p, olds, news, _BigramIndex(p.new, news)), min_total=80.0)
    # The same term with a note added or dropped: "Local Enchantment (obsolete)".
    olds, news = _free(p)
    bare: dict[str, list[int]] = defaultdict(list)
    for j in news:
        bare[_bare_term(p.new[j].id)].append(j)
    for i in olds:
        for j in bare.get(_bare_term(p.old[i].id), ()):
            if p.n2o[j] < 0:
                p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "term")
                break
    # A renamed term whose definition is empty or barely changed ("Mirage(tm) [symbol]").
    olds, news = _free(p)
    pairs = []
    for i in olds:
        for j in news:
            term = fuzz.ratio(_term_key(p.old[i].id), _term_key(p.new[j].id))
            text = (
                100.0
                if p.old[i].lower == p.new[j].lower
                else fuzz.ratio(p.old[i].lower, p.new[j].lower)
            )
            if term >= 85.0 and text >= 60.0:
                pairs.append((term, text, i, j))
    pairs.sort(key=lambda t: (-t[0], -t[1], t[2], t[3]))
    for _term, text, i, j in pairs:
        if p.o2n[i] < 0 and p.n2o[j] < 0:
            p.pair(i, j, round(text, 1), "term")


def align_cached(old: Edition, new: Edition, *, use_cache: bool = True) -> Alignment:
    """:func:`align` through the on-disk cache, keyed by the two editions' sha256.

    Editions without a sha256 (built from text in memory) are aligned directly.
    """
    if not (old.sha256 and new.sha256):
        return align(old, new)
    from . import cache

    return cache.get_or_compute(
        "alignment",
        f"{old.sha256[:32]}-{new.sha256[:32]}",
        lambda: align(old, new),
        use_cache=use_cache,
    )
