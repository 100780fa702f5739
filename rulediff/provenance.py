"""Sentence-level provenance: where each sentence of one edition went in the other.

A rule can be renumbered, reworded, cut in two or folded into another rule; its
sentences are what survives. Each rule text is cut into *units* (sentences, and the
parts of a sentence around a colon or semicolon, so a list introduced by a colon is a
unit of its own), every unit gets a comparison key (typography and reference numbers
made uniform, lowercased, recurring wording sweeps applied to the old side), and units
are linked:

1. **exact**: the same key on both sides;
2. **near-exact**: for the rest, the closest unit among the candidates of a word-pair
   index, at :data:`NEAR_SIMILARITY` or more (a reworded sentence).

:func:`rulediff.align.align` derives rule matches, splits and merges from the links
(how much of a rule's text went where) and reports the links that cross matches as
``moved_text``.
"""

from __future__ import annotations

import functools
import heapq
import re
from collections import defaultdict
from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from rapidfuzz import fuzz

from .textkeys import comparison_key

#: A reworded unit is linked to its closest counterpart at this similarity (0–100).
NEAR_SIMILARITY = 85.0
#: A reworded unit below NEAR_SIMILARITY but at this similarity may be linked when the
#: caller knows the two rules stand in corresponding places.
REWORDED_SIMILARITY = 72.0
#: One sentence keeps another when their token-set similarity (0–100) is at least this:
#: what the rescue pass asks of a candidate and the topic tests of a pairing.
SENTENCE_KEPT = 85.0
#: Units shorter than this many words (list fragments, "See rule 702.") are not linked.
MIN_UNIT_WORDS = 4
#: A word pair found in more units than this does not help to find candidates.
MAX_POSTINGS = 40
CANDIDATES = 6

_TOKEN = re.compile(r"\w+")
_POINTER = re.compile(r"\(?(?:see|for more information)\b")
#: Where a unit ends: a sentence mark, up to two closing marks (the quote and the
#: parenthesis closing an old edition's pointer, as in `(See rule N, "Title.")`), space,
#: and a capital, digit, symbol or opening mark.
_UNIT_END = re.compile(r"(?<=[.!?:;])[\"'\u201d\u2019)]{0,2}\s+(?=[\"'\u201c\u2018(]?[A-Z{\[_0-9])")


@dataclass(frozen=True, slots=True)
class Unit:
    """One sentence (or colon/semicolon part) of one rule."""

    owner: int
    """Index of the rule node on its side."""
    text: str
    """As written."""
    key: str
    """Comparison key, lowercased."""

    @property
    def weight(self) -> int:
        return len(self.key)

    @property
    def points_elsewhere(self) -> bool:
        """Only sends the reader to another rule ("See rule 712, …"): a cross-reference,
        not content of the rule it stands in."""
        return points_elsewhere(self.key)


def points_elsewhere(key: str) -> bool:
    """A unit's comparison key only sends the reader to another rule (see
    :attr:`Unit.points_elsewhere`)."""
    return bool(_POINTER.match(key))


@functools.lru_cache(maxsize=1 << 14)
def units(owner: int, text: str) -> tuple[Unit, ...]:
    """The units of one rule text, in order.

    Memoized (the records are frozen, so one tuple is shared safely): a dozen passes
    ask for the units of the same rules (12,500 calls for 4,800 distinct rules on the
    10-year pair), and building the records again was most of what a call cost.

    >>> [u.text for u in units(0, "Tokens exist. Each is: {R} red; {U} blue.")]
    ['Tokens exist.', 'Each is:', '{R} red;', '{U} blue.']
    """
    return tuple(Unit(owner, piece, key) for piece, key in _cut(text))


@functools.lru_cache(maxsize=1 << 14)
def unit_keys(text: str) -> tuple[str, ...]:
    """The comparison keys of the units of ``text`` long enough to be linked, in order."""
    return tuple(key for _piece, key in _cut(text) if len(key.split()) >= MIN_UNIT_WORDS)


@functools.lru_cache(maxsize=1 << 14)
def _cut(text: str) -> tuple[tuple[str, str], ...]:
    """``(text, key)`` of each unit of ``text``; memoized: several passes cut one rule."""
    out: list[tuple[str, str]] = []
    start = 0
    for m in _UNIT_END.finditer(text):
        piece = text[start : m.start()].strip() + text[m.start() : m.end()].strip()
        out.append((piece, comparison_key(piece).lower()))
        start = m.end()
    tail = text[start:].strip()
    if tail:
        out.append((tail, comparison_key(tail).lower()))
    return tuple(out)


def longest_first(sweeps: Iterable[tuple[str, str]]) -> tuple[tuple[str, str], ...]:
    """Recurring wording changes in the order :func:`apply_sweeps` wants them: a longer
    phrase before a shorter one it contains ("his or her" before "her")."""
    return tuple(sorted(sweeps, key=lambda s: (-len(s[0]), s)))


def apply_sweeps(key: str, sweeps: Iterable[tuple[str, str]]) -> str:
    """``key`` with each recurring wording change (old phrase → new phrase) applied."""
    for old, new in sweeps:
        if old in key:
            key = _sweep_pattern(old).sub(new, key)
    return key


@functools.lru_cache(maxsize=1 << 10)
def _sweep_pattern(old: str) -> re.Pattern[str]:
    """``old`` as a whole phrase: compiled once per sweep, not looked up per text."""
    return re.compile(rf"(?<!\w){re.escape(old)}(?!\w)")


@dataclass(frozen=True, slots=True)
class Link:
    """One old unit found again in the new edition."""

    old: int
    """Index of the old unit."""
    new: int
    """Index of the new unit."""
    score: float


@functools.lru_cache(maxsize=1 << 14)
def word_pairs(key: str) -> tuple[str, ...]:
    """The pairs of neighbouring words of a key (how candidates are found), each once, in
    the order the key says them.

    Memoized, and read only: the unit links and the restatement step's sentence index
    cut the same sentence keys (8,600 calls for 5,400 distinct keys on the 10-year
    pair). A tuple in text order, not a set: callers sum IDF votes in this order, and a
    set's order changes with the per-process string hash seed, which would let a tie
    between two candidates fall either way from one run to the next.
    """
    words = _TOKEN.findall(key)
    return tuple(dict.fromkeys(f"{a} {b}" for a, b in zip(words, words[1:], strict=False)))


def link_units(
    old: Sequence[Unit],
    new: Sequence[Unit],
    old_keys: Sequence[str],
    *,
    floor: float = NEAR_SIMILARITY,
    other_keys: Sequence[str] | None = None,
) -> list[Link]:
    """Links from old units (compared by ``old_keys``, e.g. with sweeps applied) to new ones.

    An old unit whose key occurs several times in the new edition is linked to each
    occurrence (a sentence repeated under several keywords is matched elsewhere, by
    the rule it belongs to); a unit is linked near-exactly only when none is exact.
    ``other_keys``: a second reading of each old unit (fewer sweeps applied), tried after
    ``old_keys`` for an exact link; for a near one a candidate scores the better of the
    two. Where the second reading differs, a tie for the best score between two new
    units links neither: the text does not decide (a sentence lifted past ``floor`` by
    that reading and written alike for two layers, "within layer 1" and "within layer
    7", went to the lower number), and a best unit that the second reading alone lifts
    and that shares only a frame with it, said by another new rule too, links nothing
    (:func:`_frame_only`).
    """
    by_key: dict[str, list[int]] = defaultdict(list)
    for k, u in enumerate(new):
        by_key[u.key].append(k)
    others = old_keys if other_keys is None else other_keys
    links: list[Link] = []
    pending: list[int] = []
    for k, key in enumerate(old_keys):
        if len(key.split()) < MIN_UNIT_WORDS:
            continue
        other = others[k]
        found = by_key.get(key) or (other != key and by_key.get(other)) or by_key.get(old[k].key)
        if found:
            links.extend(Link(k, n, 100.0) for n in found)
        else:
            pending.append(k)
    if not pending:
        return links
    postings: dict[str, list[int]] = defaultdict(list)
    for k, u in enumerate(new):
        if len(u.key.split()) >= MIN_UNIT_WORDS:
            for f in word_pairs(u.key):
                postings[f].append(k)
    frames: dict[str, bool] = {}  # a shared run of words -> said by another new rule
    for k in pending:
        votes: dict[int, float] = {}
        vote = votes.get
        for f in word_pairs(old_keys[k]):
            posting = postings.get(f)
            if posting and len(posting) <= MAX_POSTINGS:
                weight = 1.0 / len(posting)
                for n in posting:
                    votes[n] = vote(n, 0.0) + weight
        key, other = old_keys[k], others[k]
        best: tuple[float, int] | None = None
        tied = second = False
        for n in sorted(heapq.nlargest(CANDIDATES, votes, key=votes.__getitem__)):
            score = first = fuzz.ratio(key, new[n].key)
            if other != key:
                score = max(score, fuzz.ratio(other, new[n].key))
            if score >= floor and (best is None or score > best[0]):
                best, tied, second = (score, n), False, score > first
            elif best is not None and score == best[0] and other != key:
                tied = True
        if best is None or tied:
            continue
        if second and _frame_only(other, best[1], new, frames):
            continue
        links.append(Link(k, best[1], round(best[0], 1)))
    return links


def _frame_only(reading: str, n: int, new: Sequence[Unit], frames: dict[str, bool]) -> bool:
    """Old sentence ``reading`` shares with new unit ``n`` only a frame: the longest run
    of words the two share is said by a unit of another new rule as well, and the
    words of each outside that run have none in common ("the credit has no effect on
    game play" and "this icon has no effect on game play": what each is about differs)."""
    a, b = _TOKEN.findall(reading), _TOKEN.findall(new[n].key)
    size, start = 0, 0
    for i in range(len(a)):  # the longest common run (sentences are short)
        for j in range(len(b)):
            m = 0
            while i + m < len(a) and j + m < len(b) and a[i + m] == b[j + m]:
                m += 1
            if m > size:
                size, start = m, i
    if size < MIN_UNIT_WORDS:
        return False
    run = a[start : start + size]
    mine, theirs = set(a[:start] + a[start + size :]), set(b) - set(run)
    if not mine.isdisjoint(theirs) or not (_says_something(mine) and _says_something(theirs)):
        return False  # a word in common, or on one side only a label ("(6a)", "is")
    phrase = " ".join(run)
    said = frames.get(phrase)
    if said is None:
        owner = new[n].owner
        first, last = run[0], run[-1]  # a substring test first: most units lack them
        said = frames[phrase] = any(
            u.owner != owner
            and first in u.key
            and last in u.key
            and f" {phrase} " in f" {' '.join(_TOKEN.findall(u.key))} "
            for u in new
        )
    return said


def _says_something(words: set[str]) -> bool:
    """One of ``words`` is a word of four letters or more: more than a label or a link."""
    return any(len(w) > 3 and w.isalpha() for w in words)
