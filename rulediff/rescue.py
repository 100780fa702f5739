"""The last matching pass: rules still without a counterpart after the confident passes.

A rule reworded past every similarity threshold, cut into pieces or folded into another
rule still shares its *rare* words with where it went ("phased-out", "fortification",
"kicker"), and usually went near where its neighbours went. So each free rule is scored
against the rules of the other edition by content words weighted by rarity (IDF over
both editions), with a bonus when the candidate sits where the rule's matched
neighbours (parent, siblings, children) or its whole family (top-level rule) went, and
is given a counterpart only with a clear margin over the runner-up.

The candidate may already have a counterpart: then the free rule joins it (an old rule
joins a merge, a new rule joins a split), but only if what the two share is mostly
content the candidate's present counterpart does not explain: a new rule copying the
template of a kept rule is new content, not a piece of it.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Mapping, Sequence
from typing import TYPE_CHECKING

from rapidfuzz import fuzz, process

from . import provenance
from .clauses import references
from .lastused import LastUsed
from .pairing import (
    _FUNCTION_WORDS,
    SLOT_HELD,
    SLOT_LEAD,
    _heading_over,
    _holds_run,
    _naming_roots,
    _Node,
    _opening,
    _Pairing,
    _runs,
    _says_title,
    _text_roots,
    _title_said,
    _title_words,
    _under_new_subject,
    _word_list,
    _WordLists,
    _words,
    _written_for_new_subject,
)
from .provenance import SENTENCE_KEPT
from .textkeys import letter_words
from .textkeys import references as written_references

if TYPE_CHECKING:
    from .matches import Method

#: A free rule takes its best candidate at this score (weighted cosine plus bonuses) ...
RESCUE_SCORE = 0.45
#: ... this far ahead of the runner-up (else the text does not decide).
RESCUE_MARGIN = 0.1
#: Close candidates this similar to one another (0–100) are parallel pieces of a split.
PARALLEL_SIMILARITY = 70.0
#: Joining a rule that already has a counterpart needs more.
RESCUE_JOIN_SCORE = 0.55
#: Bonus for a candidate next to where the rule's matched neighbours went ...
NEAR_BONUS = 0.15
#: ... or inside a top-level rule where its family went.
FAMILY_BONUS = 0.07
#: A candidate in neither place still competes (a rival makes the text undecided) but
#: must be this much better to be taken.
OUT_OF_PLACE = 0.1
#: A family went to a top-level rule that received at least this share of its matches.
FAMILY_SHARE = 0.1
#: Joining a taken rule: this share (IDF) of the shared words must be unexplained by it.
RESIDUAL_SHARE = 0.5
#: ... and make up this share (IDF) of the joining rule's own words: it is a piece of
#: what the taken rule does not already account for.
PIECE_RESIDUAL = 0.4
#: Siblings or children in a group larger than this say nothing about where a rule is.
CONTEXT_GROUP = 40
#: A free rule this similar to a taken one (before bonuses) is a parallel copy of it.
COPY_SIMILARITY = 0.7
#: A near copy joins only if this share (IDF) of its own words (those its sibling, the
#: taken rule's counterpart, lacks) is in the taken rule.
OWN_WORDS = 0.25
#: Bonus for a candidate between where the linked rules before and after it went ...
GAP_BONUS = 0.05
#: ... when those are at most this many rules apart.
GAP_WIDTH = 12
#: Close candidates named for a free rule the text does not decide about.
UNDECIDED_SHOWN = 3
#: An undecided old rule goes to the free close candidate that, with the rules it cites,
#: holds this share (IDF) of the old rule's words ...
CITED_HELD = 0.8
#: ... when the candidate's own text holds less than this share (the citation, not the
#: wording, carries the old rule's content) ...
CITED_OWN = 0.5
#: ... and every other close candidate, read the same way, holds this much less.
CITED_LEAD = 0.4
#: A cited rule with more rules than this under it (a whole chapter) says too much to
#: count: only its own text is read.
CITED_SUBTREE = 30
#: The cited rules must bring at least this many of the old rule's rare words (in at
#: most ``MAX_POSTINGS`` texts) that the candidate's own text lacks: the names of the
#: cases, not the stock words every rule says ("player", "stack", "damage").
CITED_RARE_WORDS = 4
#: An undecided rule goes to its best free candidate when that keeps one of its sentences
#: (the closest two sentences at ``SENTENCE_KEPT``) this far ahead of every other free
#: close candidate.
SENTENCE_LEAD = 10.0
#: A sentence kept in a candidate that is not the best fit counts only at this plain
#: similarity (IDF cosine and wording, without bonuses) of the two rules.
KEPT_SIMILARITY = 0.4
#: ... and only a sentence kept whole: the shorter of the two has this share of the
#: longer one's words.
WHOLE_SENTENCE = 2 / 3
#: An undecided rule goes to its best free candidate when that one alone holds this many
#: counterparts of the rule's siblings and subrules as its own subrules.
SUBRULES_HELD = 2
#: A free old rule none of whose neighbours was placed goes to the free rule closest to
#: it by text alone when each is the other's closest, this far ahead of the next
#: candidate (and one of the two ``RESCUE_MARGIN`` ahead).
HOMELESS_LEAD = 0.05
#: Candidates per free rule from the word index.
INDEX_CANDIDATES = 12
#: A free rule and the free rule standing in its slot share at least this many stems
#: that no other rule of either family says (:func:`pair_in_slot`).
SLOT_OWN_STEMS = 2
#: A word in more texts than this does not help to find candidates.
MAX_POSTINGS = 80

_STOP = frozenset(
    "a an and the of or to in on for from with by as at its it is are be this that general "
    "rules rule not can may any each which when while if then than who whose has have had "
    "was were been being does do did into onto only also other such these those there their "
    "they them his her he she your you see".split()
)


def _pointers(text: str) -> list[tuple[int, int, str]]:
    """The clauses that only name what another rule says, each closed by its reference
    in parentheses ("aside from the abilities that ... (see rule 401.3)"): (start, end,
    cited). The references are read by :mod:`rulediff.clauses`, the one reference parser."""
    found: list[tuple[int, int, str]] = []
    if "(" not in text or "see" not in text.lower():
        return found  # no parenthesis to open a pointer, or no "see" to start one
    for ref in references(text):
        opening = text.rfind("(", 0, ref.start)
        closing = text.find(")", ref.end)
        if opening < 0 or closing < 0 or text.rfind(")", 0, ref.start) > opening:
            continue  # not inside parentheses
        if not text[opening + 1 : ref.end].lower().lstrip().startswith("see"):
            continue
        start = max(text.rfind(c, 0, opening) for c in ".;:()") + 1
        found.append((start, closing + 1, ref.target))
    return found


@functools.lru_cache(maxsize=1 << 14)
def _own_stems(text: str) -> frozenset[str]:
    """The stems of a text without its clauses that point to another rule."""
    for start, end, _cited in reversed(_pointers(text)):
        text = text[:start] + " " + text[end:]
    return _stems(text.lower())


def _plain(old: _Side, new: _Side, idf: dict[str, float], p: _Pairing, i: int, j: int) -> float:
    """The rescue pass's similarity of old ``i`` and new ``j`` without bonuses."""
    shared = old.stems[i] & new.stems[j]
    if not shared:
        return 0.0
    cosine = math.fsum(idf[w] for w in shared) / math.sqrt(old.mass[i] * new.mass[j])
    return (cosine + fuzz.ratio(p.old[i].lower, p.new[j].lower) / 100) / 2


@functools.lru_cache(maxsize=1 << 14)
def _stems(lower: str) -> frozenset[str]:
    """Crude stems of the content words (first five letters: ability / abilities)."""
    return frozenset(w[:5] for w in letter_words(lower) if len(w) > 2 and w not in _STOP)


def _votes(
    words: Iterable[str], postings: Mapping[str, Sequence[int]], idf: Mapping[str, float]
) -> dict[int, float]:
    """Rules of the other side sharing ``words``, each with the IDF mass it shares (words
    in more than ``MAX_POSTINGS`` rules say nothing and are skipped). The words are read
    in sorted order: a set's order changes with the per-process hash seed, and so would
    the last digit of each sum, and with it a tie between two rules."""
    votes: dict[int, float] = {}
    vote = votes.get
    for w in sorted(words):
        posting = postings.get(w, ())
        if 0 < len(posting) <= MAX_POSTINGS:
            weight = idf[w]
            for b in posting:
                votes[b] = vote(b, 0.0) + weight
    return votes


def _free_close(
    scored: Sequence[tuple[float, int, float]], taken: Mapping[int, list[int]]
) -> list[int]:
    """The free candidates within ``RESCUE_MARGIN`` of a free rule's best one (best first),
    when the best reaches the rescue score; two or more: the text does not decide. A
    candidate taken by its own counterpart is a template the rule shares, not a place it
    may have gone."""
    if not scored or scored[0][0] < RESCUE_SCORE:
        return []
    top = scored[0][0]
    return [b for score, b, _s in scored if score > top - RESCUE_MARGIN and not taken.get(b)]


def _best_of_the_free(
    p: _Pairing,
    a: int,
    b: int,
    partner: Sequence[tuple[float, int, float]],
    targets_of: Mapping[int, list[int]],
) -> bool:
    """Free new ``b``, the clear choice of free old ``a``, chooses ``a`` too once the old
    rules it ranks higher are set aside: each of those already has its counterpart and
    none is ``RESCUE_MARGIN`` closer to ``b`` than ``a`` is (the text does not choose
    them: ``b``'s likeness to them is its family's shared wording), and ``a`` leads every
    other free old rule by ``RESCUE_MARGIN``. A taken rule clearly closer makes ``b`` a
    new rule on that rule's frame (a new step sharing the stock sentence of the steps
    beside it). Only for rules without subrules on both sides: the opening rule of a
    list ("proceeds in the following order", "some things don't use the stack") sums up
    its items, and its closest free text is one item's."""
    if p.old_children.get(p.old[a].place) or p.new_children.get(p.new[b].place):
        return False
    free = [t for t in partner if not targets_of.get(t[1])]
    if not free or free[0][1] != a or free[0][0] <= partner[0][0] - RESCUE_MARGIN:
        return False
    return len(free) == 1 or free[1][0] <= free[0][0] - RESCUE_MARGIN


#: Two texts sharing a run of this many words that no other rule of either edition says
#: are one rule (:func:`_decide_by_own_runs`) ...
OWN_RUN_WORDS = 4
#: ... when that run is this many words longer than any the other candidates share.
OWN_RUN_LEAD = 4


def _decide_by_own_runs(
    p: _Pairing,
    ranked_old: dict[int, list[tuple[float, int, float]]],
    sources_of: Mapping[int, list[int]],
) -> None:
    """A free old rule torn between free new rules shares a run of ``OWN_RUN_WORDS`` words
    with one of them that no other rule of either edition says, ``OWN_RUN_LEAD`` words
    longer than any run it shares with the others: that one is its counterpart, the
    others leave its ranking (its pick, never its rival). The old rule on the hybrid
    symbols (how a two-colour symbol is paid, spelled out) between the hybrid rule that
    keeps those words and the Phyrexian symbols' rule written on its frame, which
    scores as high on rare words and wording. A run one word longer than another
    candidate's ("all its damage is assigned …" beside "its damage is assigned …") tells
    the two apart by that word alone. Each of the others must keep best the sentence
    that holds the run: other places for that sentence, not other pieces of a rule cut
    up (each keeping another of its sentences)."""

    old_words, new_words = p.word_lists()
    for a, scored in ranked_old.items():
        close = _free_close(scored, sources_of)
        if len(close) < 2:
            continue
        longest = {b: _longest_run(old_words[a], new_words[b]) for b in close}
        (lead, b), (second, _c) = sorted(((n, b) for b, n in longest.items()), reverse=True)[:2]
        least = max(OWN_RUN_WORDS, second + OWN_RUN_LEAD)
        if lead < least:
            continue
        owning = [run for run in _runs(old_words[a], new_words[b], least) if p.said_alone(run)]
        if not owning:
            continue
        run = max(owning, key=len)
        sentences = _FULL_STOP.split(old_words.texts[a])
        held = next((k for k, x in enumerate(sentences) if _holds_run(_word_list(x, "|"), run)), -1)
        if all(_closest_unit(sentences, p.new[c].lower) == held for c in close if c != b):
            ranked_old[a] = [t for t in scored if t[1] == b or t[1] not in close]


def _longest_run(a: Sequence[str], b: Sequence[str]) -> int:
    """How many words the longest run ``a`` and ``b`` share has (grown one word at a time:
    most pairs share none of four)."""
    n = 0
    while True:
        k = n + 1
        if not {tuple(a[s : s + k]) for s in range(len(a) - k + 1)}.intersection(
            tuple(b[s : s + k]) for s in range(len(b) - k + 1)
        ):
            return n
        n = k


#: A full sentence end (clauses after a colon or a semicolon stay in their sentence).
_FULL_STOP = re.compile(r"(?<=[.!?])\s+")


def _closest_unit(sentences: Sequence[str], text: str) -> int:
    """The index of the sentence among ``sentences`` that ``text`` keeps best."""
    units = _FULL_STOP.split(text)
    return max(
        range(len(sentences)),
        key=lambda k: (max(fuzz.ratio(sentences[k], u) for u in units), -k),
    )


def _take(
    p: _Pairing,
    i: int,
    j: int,
    method: Method,
    targets_of: dict[int, list[int]],
    sources_of: dict[int, list[int]],
) -> None:
    """Pair free old ``i`` with free new ``j`` and record the link for the later steps."""
    p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), method)
    targets_of[i] = [j]
    sources_of[j] = [i]


def _split(
    p: _Pairing,
    i: int,
    group: Iterable[int],
    splits: dict[int, list[int]],
    targets_of: dict[int, list[int]],
    sources_of: dict[int, list[int]],
) -> None:
    """Split free old ``i`` into the free new rules ``group`` (in document order) and
    record the links for the later steps."""
    pieces = sorted(group, key=lambda k: p.new[k].order)
    splits[i] = pieces
    targets_of[i] = list(pieces)
    for j in pieces:
        sources_of[j] = [i]


def _join_merge(
    p: _Pairing,
    i: int,
    j: int,
    owners: Iterable[int],
    merges: dict[int, list[int]],
    targets_of: dict[int, list[int]],
    sources_of: dict[int, list[int]],
) -> None:
    """Free old ``i`` joins ``owners``, the present sources of new ``j``, in its merge."""
    group = sorted({*owners, i}, key=lambda k: p.old[k].order)
    merges[j] = group
    sources_of[j] = group
    targets_of[i] = [j]


#: A free old rule whose words are at least this share (IDF) of another old rule's words,
#: in another top-level rule, says that rule's statement again (:func:`_said_twice`) ...
SAID_TWICE_SHARE = 2 / 3
#: ... when no third rule holds within this share of as many of its words.
SAID_TWICE_LEAD = 0.15


def _said_twice(
    p: _Pairing, old: _Side, idf: Mapping[str, float], a: int, sources: Iterable[int]
) -> bool:
    """Free old ``a``, whose clear best candidate is taken, says again what one of that
    candidate's sources says (``SAID_TWICE_SHARE`` of its words, IDF), that source stands
    under another top-level rule, and no third rule of the old edition says it nearly as
    well (``SAID_TWICE_LEAD``). The old edition said one statement twice, once where it
    is defined and once where it is used (what happens to a spell put on the stack,
    under the stack zone and again under timing; the Two-Headed Giant's combat rules,
    copied from the shared team turns option); the new edition keeps it once, and that
    rule is where both went: ``a`` joins its merge. ``joinable`` refuses the join, since
    the source explains every word the two share, which is the very sign of the
    restatement. Rules of one top-level rule sharing their words are a template (the
    layer lines, the landwalk variants), each with its own fate; so is wording that
    several rules say alike, whatever their places (the steps' priority and trigger
    rules, each step its own top-level rule)."""
    family = _family(p.old[a].id)
    if not family:
        return False
    shared: dict[int, float] = defaultdict(float)
    for w in sorted(old.stems[a]):  # one order of summing: the same floats every run
        for k in old.postings.get(w, ()):
            shared[k] += idf[w]
    mass = old.mass[a]
    said = sorted(
        ((share / mass, k) for k, share in shared.items() if k != a and not old.heading[k]),
        key=lambda t: (-t[0], t[1]),
    )
    if not said or said[0][0] < SAID_TWICE_SHARE:
        return False
    best, k = said[0]
    if len(said) > 1 and said[1][0] > best - SAID_TWICE_LEAD:
        return False
    return k in sources and _family(p.old[k].id) not in ("", family)


def _family(node_id: str) -> str:
    """The top-level rule a rule belongs to ("401" for 401.3a); sections have none."""
    head = node_id.split(".", 1)[0]
    return head if len(head) == 3 else ""


def _families(nodes: Sequence[_Node]) -> list[str]:
    """Each node's family (:func:`_family`) by the top-level rule it is printed under (a
    number naming the wrong parent aside): asked for every link of every pairing."""
    by_place = {node.place: k for k, node in enumerate(nodes)}
    out = []
    for node in nodes:
        top = node
        while "." in top.id and top.parent in by_place:
            top = nodes[by_place[top.parent]]
        out.append(_family(top.id))
    return out


# One edition's alone (the aligner keeps its nodes for the next pairing of a run).
_families_of = LastUsed(_families)


class _Side:
    """One edition's texts as stem sets, with their tree context (computed on demand)."""

    def __init__(self, nodes: Sequence[_Node], by_place: dict[str, int], kids: dict) -> None:
        self.nodes = nodes
        self.by_place = by_place
        self.kids = kids
        self.stems, self.postings = _stems_and_postings(nodes)
        self.heading = [node.heading for node in nodes]
        """Node → whether it is a heading (read for every text a free rule's words vote for)."""
        self.mass: _Masses | list[float] = []
        """The IDF mass of each text's stems (set by :func:`_weights`)."""
        self._context: dict[int, frozenset[int]] = {}

    def context(self, k: int) -> frozenset[int]:
        """Parent, grandparent, children and siblings of node ``k`` (siblings and children
        only from groups small enough to say where a rule belongs)."""
        found = self._context.get(k)
        if found is not None:
            return found
        node = self.nodes[k]
        near: set[int] = set()
        children = self.kids.get(node.place, ())
        if len(children) <= CONTEXT_GROUP:
            near.update(children)
        parent = self.by_place.get(node.parent) if node.parent is not None else None
        if parent is not None:
            near.add(parent)
            siblings = self.kids.get(node.parent, ())
            if len(siblings) <= CONTEXT_GROUP:
                near.update(siblings)
            grand = self.nodes[parent].parent
            if grand is not None and grand in self.by_place:
                near.add(self.by_place[grand])
        near.discard(k)
        found = self._context[k] = frozenset(near)
        return found


def rescue(p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]) -> None:
    """Give free rules the counterpart their rare words and their neighbours point to."""
    grouped_old = set(splits) | {i for group in merges.values() for i in group}
    grouped_new = set(merges) | {j for group in splits.values() for j in group}
    free = {
        "old": [
            i
            for i, n in enumerate(p.old)
            if not n.heading and p.o2n[i] < 0 and i not in grouped_old
        ],
        "new": [
            j
            for j, n in enumerate(p.new)
            if not n.heading and p.n2o[j] < 0 and j not in grouped_new
        ],
    }
    if not free["old"] and not free["new"]:
        return
    old, new, index, idf = _weights(p)

    def mass(words: frozenset[str] | set[str]) -> float:
        return math.fsum(map(idf.__getitem__, words))  # the same sum, no generator frame a word

    targets_of, sources_of = _links(p, splits, merges)

    def family_map(src: Sequence[str], dst: Sequence[str], links: dict) -> dict[str, set]:
        votes: dict[str, Counter] = defaultdict(Counter)
        for a, bs in links.items():
            fa = src[a]
            if not fa:
                continue
            for b in bs:
                fb = dst[b]
                if fb:
                    votes[fa][fb] += 1
        out: dict[str, set] = {}
        for fa, counter in votes.items():
            n = sum(counter.values())
            out[fa] = {fb for fb, c in counter.items() if c >= 2 and c >= FAMILY_SHARE * n}
        return out

    old_families, new_families = _families_of(p.old), _families_of(p.new)
    old_fam = family_map(old_families, new_families, targets_of)
    new_fam = family_map(new_families, old_families, sources_of)
    for fa, fb in _same_titles(p.old, p.new):
        old_fam.setdefault(fa, set()).add(fb)
        new_fam.setdefault(fb, set()).add(fa)

    ranked: dict[str, dict[int, list[tuple[float, int, float]]]] = {"old": {}, "new": {}}
    # A new rule on a frame new to the edition is no place for an old rule it keeps no
    # sentence of (``_Pairing.on_new_frame``); the old rule chooses among the rest. The
    # frame rule itself keeps its refused candidates as rivals: they are as close as
    # they are, and the one old rule whose sentence it keeps is not thereby its clear
    # choice, but a choice the kept sentence makes (the step's priority sentence).
    frame_rivals: dict[int, list[tuple[float, int]]] = {}
    # Candidates refused as another keyword's rule (``_Pairing.another_keywords_rule``):
    # never picked, but their scores are kept for :func:`_lead_made_by_refusal`.
    keyword_rivals: dict[tuple[str, int], list[float]] = {}
    homeless: set[int] = set()  # free old rules none of whose neighbours was placed
    for side in ("old", "new"):
        mine, theirs = (old, new) if side == "old" else (new, old)
        links = targets_of if side == "old" else sources_of
        fam = old_fam if side == "old" else new_fam
        my_families, their_families = (
            (old_families, new_families) if side == "old" else (new_families, old_families)
        )
        their_heading = theirs.heading
        if not free[side]:
            continue
        postings = index["new" if side == "old" else "old"]
        for a in free[side]:
            node = mine.nodes[a]
            words = mine.stems[a]
            if len(words) < 3:
                continue
            votes = _votes(words, postings, idf)
            near = {b for k in mine.context(a) for b in links.get(k, ())}
            near = {b for b in near if not _is_section_id(theirs.nodes[b].id)}
            if not near and side == "old":
                homeless.add(a)
            texts = [(-v, b) for b, v in votes.items() if not their_heading[b]]
            cands = {b for _v, b in heapq.nsmallest(INDEX_CANDIDATES, texts)}
            cands.update(b for k in near for b in (k, *theirs.context(k)) if not their_heading[b])
            families = fam.get(my_families[a], set())
            gap = _gap(a, links, len(mine.nodes))
            scored: list[tuple[float, int, float]] = []
            for b in cands:
                i, j = (a, b) if side == "old" else (b, a)
                off_topic = not p.same_topic(i, j) or p.defines_other(i, j)
                if off_topic and not p.another_keywords_rule(i, j):
                    continue  # a template sentence of another keyword, step, zone or term
                refused = not off_topic and p.on_new_frame(i, j)
                if refused and side == "old":
                    continue
                # a rule written for a keyword the old rule never names: a rival, no pick
                off_topic = off_topic or p.opens_with_other_keyword(i, j)
                other = theirs.stems[b]
                shared = words & other
                if not shared:
                    continue
                cosine = mass(shared) / math.sqrt(mine.mass[a] * theirs.mass[b])
                # Rare words say what a rule is about; the wording says which rule of
                # several on one topic it is (a template sentence shares the words).
                similarity = (cosine + fuzz.ratio(node.lower, theirs.nodes[b].lower) / 100) / 2
                bonus = -OUT_OF_PLACE  # nowhere near where its neighbours or family went
                if b in near or not near.isdisjoint(theirs.context(b)):
                    bonus = NEAR_BONUS
                elif their_families[b] in families:
                    bonus = FAMILY_BONUS
                if gap[0] < b < gap[1]:
                    bonus += GAP_BONUS  # between where the rules before and after it went
                if off_topic:  # another keyword's rule: a rival, never a pick
                    keyword_rivals.setdefault((side, a), []).append(similarity + bonus)
                    continue
                if refused:  # the frame rule's rival, never its pick
                    frame_rivals.setdefault(a, []).append((similarity + bonus, b))
                    continue
                scored.append((similarity + bonus, b, similarity))
            scored.sort(key=lambda t: (-t[0], t[1]))
            ranked[side][a] = scored
    _decide_by_own_runs(p, ranked["old"], sources_of)

    def refused_close(side: str, a: int, top: float) -> list[int]:
        """The refused old candidates of new frame rule ``a`` within ``RESCUE_MARGIN`` of
        ``top`` (either way)."""
        rivals = frame_rivals.get(a, ()) if side == "new" else ()
        return [b for score, b in rivals if abs(score - top) < RESCUE_MARGIN]

    _old_words, new_words = p.word_lists()  # cut when asked, shared with other passes

    def joinable(side: str, a: int, b: int, similarity: float) -> bool:
        """Free ``a`` may join taken ``b``: what they share is mostly not explained by
        ``b``'s present counterpart(s), or ``a`` is a near copy of ``b`` and that
        counterpart was rewritten too (parallel rules folded into one). A heading is
        no parallel of a text: a rule joining one's counterpart (a title rewritten as
        a rule) must bring words the title does not explain."""
        mine, theirs = (old, new) if side == "old" else (new, old)
        back = sources_of if side == "old" else targets_of
        words, shared = mine.stems[a], mine.stems[a] & theirs.stems[b]
        if side == "new":  # a clause that points to another rule is that rule's content
            shared = words & _own_stems(theirs.nodes[b].text)
        explained = set().union(*(mine.stems[k] for k in back[b]))
        if side == "new":
            explained |= _from_parent(p, new, old, a, b, sources_of)
        if (
            side == "old"
            and similarity >= COPY_SIMILARITY
            and not any(p.old[k].heading for k in back[b])
            and not any(_kept(p, *((k, b) if side == "old" else (b, k))) for k in back[b])
            # what tells the copy from its sibling (its own topic words) must survive
            # in ``b``: sharing only a template sentence (keep one, bin the others)
            # is not a merge.
            and mass((words - explained) & theirs.stems[b]) >= OWN_WORDS * mass(words - explained)
        ):
            return True
        unexplained = mass(shared - explained)
        if unexplained < RESIDUAL_SHARE * mass(shared) or unexplained < (
            PIECE_RESIDUAL * mine.mass[a]
        ):
            return False
        # a template clause many rules repeat is no piece of ``b``
        return side == "old" or not _tied_by_stock_runs(p, b, a, shared - explained, new_words)

    def parallel_pieces(a: int, scored: list[tuple[float, int, float]]) -> list[int] | None:
        """The close candidates of old ``a`` as the pieces of a split: near copies of one
        another (one text written out once per case: "activated ..." / "triggered ...")
        whose distinguishing words are all in ``a`` (the old rule spoke of every case),
        each free and where ``a``'s neighbours went."""
        score = scored[0][0]
        close = [t for t in scored if t[0] > score - RESCUE_MARGIN]
        if any(t[0] - t[2] < NEAR_BONUS - 1e-9 or sources_of.get(t[1]) for t in close):
            return None
        group = [t[1] for t in close]
        texts = [new.nodes[k].lower for k in group]
        if any(fuzz.ratio(texts[0], other) < PARALLEL_SIMILARITY for other in texts[1:]):
            return None
        common = frozenset.intersection(*(new.stems[k] for k in group))
        if any(not ((new.stems[k] - common) & old.stems[a]) for k in group):
            return None
        return group

    pieces: list[tuple[float, int, list[int]]] = []
    proposals: list[tuple[float, str, int, int]] = []
    for side in ("old", "new"):
        for a, scored in ranked[side].items():
            if not scored or scored[0][0] < RESCUE_SCORE:
                continue
            score, b, _similarity = scored[0]
            if (len(scored) > 1 and scored[1][0] > score - RESCUE_MARGIN) or refused_close(
                side, a, score
            ):
                group = parallel_pieces(a, scored) if side == "old" else None
                if group:
                    pieces.append((score, a, group))
                continue  # the text does not decide between the two
            proposals.append((score, side, a, b))
    proposals.sort(key=lambda t: (-t[0], t[1], t[2], t[3]))
    turned_down: set[tuple[str, int]] = set()  # rules a stronger proposal was refused for
    for score, side, a, b in proposals:
        i, j = (a, b) if side == "old" else (b, a)
        if targets_of.get(i) if side == "old" else sources_of.get(j):
            continue  # taken meanwhile
        taken = bool(sources_of.get(j) if side == "old" else targets_of.get(i))
        if not taken:
            mutual = ranked["new" if side == "old" else "old"].get(b)
            if not mutual or (
                mutual[0][1] != a
                and not (side == "old" and _best_of_the_free(p, a, b, mutual, targets_of))
            ):
                turned_down.add((side, b))
                continue  # two free rules pair only when each is the other's best
            if _lead_made_by_refusal(
                mutual, score, (side, b) in turned_down, keyword_rivals.get((side, a), ())
            ):
                continue
            _take(p, i, j, "content", targets_of, sources_of)
            continue
        similarity = next(s for _t, c, s in ranked[side][a] if c == b)
        if score < RESCUE_JOIN_SCORE:
            continue
        if not joinable(side, a, b, similarity) and not (
            side == "old" and _said_twice(p, old, idf, a, sources_of[b])
        ):
            continue
        if side == "old":  # a free old rule joins the rule that took its content
            if any(j in g for g in splits.values()):
                continue
            _join_merge(p, i, j, sources_of[j], merges, targets_of, sources_of)
        else:  # a free new rule is a piece of the old rule it came from
            if any(i in g for g in merges.values()):
                continue
            group = sorted({*targets_of[i], j}, key=lambda k: p.new[k].order)
            splits[i] = group
            targets_of[i] = group
            sources_of[j] = [i]
    # After the 1:1 pairs: a piece another free rule takes as its own best counterpart
    # is that rule's; this one keeps the remaining pieces.
    for _score, i, group in sorted(pieces, key=lambda t: (-t[0], t[1])):
        rest = [j for j in group if not sources_of.get(j)]
        if targets_of.get(i) or not rest:
            continue
        if len(rest) == 1:
            _take(p, i, rest[0], "content", targets_of, sources_of)
        else:
            _split(p, i, rest, splits, targets_of, sources_of)
    _split_into_listed_steps(p, ranked, splits, targets_of, sources_of)
    # An undecided rule whose best free candidate keeps one of its sentences (reworded
    # at most a little) that no other free close candidate keeps: the sentence decides
    # ("the active player gets priority" kept as the step's closing rule, the rest of
    # the old rule rewritten elsewhere). Else, for an old rule, the rules each candidate
    # cites may decide (:func:`_held_through_citations`: a list of cases now a class
    # citing the rule that lists them).
    for side, found, taken in (("old", targets_of, sources_of), ("new", sources_of, targets_of)):
        mine, theirs = (p.old, p.new) if side == "old" else (p.new, p.old)
        for a, scored in sorted(ranked[side].items()):
            if found.get(a):
                continue
            close = _free_close(scored, taken)
            if close:  # a refused candidate as close still keeps the text undecided
                close += refused_close(side, a, scored[0][0])
            if len(close) < 2:
                continue  # not undecided: decided, or a close call against a taken rule
            kept = [_kept_sentence(mine[a], theirs[b]) for b in close]
            choice = close[0]
            if kept[0] < SENTENCE_KEPT or max(kept[1:]) > kept[0] - SENTENCE_LEAD:
                if side != "old":
                    continue
                choice = _held_through_citations(p, a, close, found, taken)
                if choice < 0:
                    continue
            i, j = (a, choice) if side == "old" else (choice, a)
            _take(p, i, j, "content", targets_of, sources_of)
    _decide_by_subrules(p, old, new, ranked["old"], targets_of, sources_of)

    # A free old rule whose best candidate is taken, but keeps one of its sentences that
    # the candidate's present source does not have (and no other close candidate keeps
    # it): a sentence folded into a rule that kept its own text too, a merge.
    def merge_owners(b: int) -> list[int]:
        """The present sources of taken new ``b``, when a free old rule may join them (not
        when ``b`` is a piece of a split: a rule is never both)."""
        owners = sources_of.get(b) or []
        return [] if any(b in group for group in splits.values()) else owners

    def join_by_sentence(a: int, b: int, owners: list[int], sentence: str) -> None:
        """Free old ``a``, whose ``sentence`` new ``b`` kept, joins ``b``'s merge, unless
        that sentence is also one of ``b``'s present sources' (a shared template)."""
        if any(
            fuzz.token_set_ratio(x, sentence) >= SENTENCE_KEPT
            for k in owners
            for x in _sentences(p.old[k])
        ):
            return
        _join_merge(p, a, b, owners, merges, targets_of, sources_of)

    for a, scored in sorted(ranked["old"].items()):
        if targets_of.get(a) or not scored or scored[0][0] < RESCUE_SCORE:
            continue
        b = scored[0][1]
        owners = merge_owners(b)
        if not owners:
            continue
        kept, sentence = _kept_unit(p.old[a], p.new[b], content=True)
        if kept < SENTENCE_KEPT or any(
            _kept_sentence(p.old[a], p.new[c]) > kept - SENTENCE_LEAD
            for score, c, _s in scored[1:]
            if score > scored[0][0] - RESCUE_MARGIN
        ):
            continue
        join_by_sentence(a, b, owners, sentence)
    # The same, when the candidate keeping the sentence is not the best fit by the score
    # (the rule's neighbours went elsewhere: a topic dissolved into other sections) but
    # the only candidate that keeps one of its sentences at all.
    for a, scored in sorted(ranked["old"].items()):
        if targets_of.get(a):
            continue
        fits = [c for _t, c, s in scored if s >= KEPT_SIMILARITY]
        if not fits:
            continue
        kept_in = {c: _kept_whole(p.old[a], p.new[c]) for c in fits}
        b = max(fits, key=lambda c: (kept_in[c][0], -c))
        kept, sentence = kept_in[b]
        if kept < SENTENCE_KEPT:
            continue
        # A rival keeping the sentence nearly as well counts unless it has that
        # likeness from its own source (see _said_by).
        rivals = ((kept_in.get(c) or _kept_whole(p.old[a], p.new[c]), c) for _t, c, _s in scored)
        if any(
            score > kept - SENTENCE_LEAD
            and not _said_by(unit, [p.old[k] for k in sources_of.get(c, ())])
            for (score, unit), c in rivals
            if c != b
        ):
            continue
        owners = merge_owners(b)
        if owners:
            join_by_sentence(a, b, owners, sentence)
    _pair_by_own_sentence(p, ranked["old"], targets_of, sources_of)
    _pair_homeless(p, ranked["old"], homeless, ranked["new"], targets_of, sources_of)
    # A free new rule whose best candidate is taken and holds its words only in a clause
    # that names another rule as their source ("the abilities that ... (see rule X)"):
    # the words came from X, the rule that clause points to.
    for a, scored in sorted(ranked["new"].items()):
        if sources_of.get(a) or not scored or scored[0][0] < RESCUE_SCORE:
            continue
        b = scored[0][1]
        if not targets_of.get(b):
            continue
        words = new.stems[a]
        shared = mass(words & old.stems[b])
        text = p.old[b].text
        for start, end, cited in _pointers(text):
            x = p.old_by_place.get(cited)
            if x is None or x == b or targets_of.get(x) or p.old[x].heading:
                continue
            if x in grouped_old or not p.same_topic(x, a):
                continue
            if mass(words & _stems(text[start:end].lower())) < RESIDUAL_SHARE * shared:
                continue
            if _plain(old, new, idf, p, x, a) < KEPT_SIMILARITY:
                continue
            _take(p, x, a, "content", targets_of, sources_of)
            break
    _place_by_cited_rule(p, old, new, idf, free["old"], targets_of, sources_of)
    # What stays free after a close call is not simply removed or added: the text does
    # not decide between its close (free) candidates, and the reader is told which.
    for side, found, taken, undecided in (
        ("old", targets_of, sources_of, p.undecided_old),
        ("new", sources_of, targets_of, p.undecided_new),
    ):
        for a, scored in ranked[side].items():
            if found.get(a):
                continue
            close = _free_close(scored, taken)
            if len(close) > 1:
                undecided[a] = tuple(close[:UNDECIDED_SHOWN])


#: A run of this many words or more that ...
STOCK_RUN_WORDS = 3
#: ... this many rules of one edition say is a stock clause (a template), not a tie.
STOCK_RUN_RULES = 3


def _tied_by_stock_runs(
    p: _Pairing, i: int, j: int, ties: frozenset[str] | set[str], new_words: _WordLists
) -> bool:
    """Every word tying new ``j`` to old ``i`` (``ties``: those ``i``'s present
    counterparts do not explain) lies in a run of words the two share that at least
    :data:`STOCK_RUN_RULES` rules of the new edition say, and ``j``'s opening clause
    names, besides those runs, nothing ``i`` says: a clause the new edition repeats for
    one subject after another ("... unless it is the source of a trigger not yet
    resolved") under a subject of ``j``'s own, so ``j`` is a rule built on that
    template, not a piece cut from ``i``. A piece opening on ``i``'s own subject (the
    case of a variant ``i`` points to) stays a piece. ``new_words``: the new edition's
    word lists (:class:`rulediff.pairing._WordLists`, kept for the pass)."""

    if not ties:
        return False
    old_words, _new_words = p.word_lists()
    stock = [
        run
        for run in _runs(old_words[i], new_words[j], STOCK_RUN_WORDS)
        if new_words.holders(run, STOCK_RUN_RULES) >= STOCK_RUN_RULES
    ]
    in_stock = _stems(" ".join(w for run in stock for w in run))
    if not ties <= in_stock:
        return False
    opening = _opening(p.new[j].lower)
    return not (_stems(opening) - in_stock) & _stems(p.old[i].lower)


def _lead_made_by_refusal(
    partner: Sequence[tuple[float, int, float]],
    score: float,
    outbid: bool,
    refused: Iterable[float],
) -> bool:
    """A mutual take that no text decides: the partner's own ranking is undecided (its
    runner-up within ``RESCUE_MARGIN``), a stronger proposal for the partner was turned
    down (``outbid``), and the proposer's own lead is clear only because candidates
    refused as another keyword's rule were left out (one of ``refused`` within
    ``RESCUE_MARGIN`` of ``score``). A refused candidate is still a rival here: the
    refusal says where a rule may not go, not that the proposer's choice is clear."""
    undecided = len(partner) > 1 and partner[1][0] > partner[0][0] - RESCUE_MARGIN
    return outbid and undecided and any(r > score - RESCUE_MARGIN for r in refused)


def _closest(scored: Sequence[tuple[float, int, float]]) -> tuple[int, float] | None:
    """The candidate closest by plain similarity and its lead over the next one."""
    if not scored:
        return None
    plain = sorted(((s, -c) for _t, c, s in scored), reverse=True)
    lead = plain[0][0] - plain[1][0] if len(plain) > 1 else plain[0][0]
    return -plain[0][1], lead


def _pair_homeless(
    p: _Pairing,
    ranked: dict[int, list[tuple[float, int, float]]],
    homeless: set[int],
    ranked_new: dict[int, list[tuple[float, int, float]]],
    targets_of: dict[int, list[int]],
    sources_of: dict[int, list[int]],
) -> None:
    """A free old rule none of whose neighbours (parent, grandparent, siblings, children)
    was placed has no place to be kept in: its family dissolved, every candidate is out
    of place alike and the penalty says nothing. It goes to the free rule closest to it
    by text alone (plain similarity at least ``RESCUE_SCORE``) when it is that rule's
    closest too, each ``HOMELESS_LEAD`` ahead of the next candidate (taken ones included)
    and one of them the full ``RESCUE_MARGIN`` ahead, as the rescue pass asks. Not for a
    new rule: one with no neighbour placed stands in a new section, and its closest old
    rule is a text it copies (a keyword action restating an old rule), not its source."""
    for a in sorted(homeless):
        if targets_of.get(a):
            continue
        best = _closest(ranked.get(a, ()))
        if best is None or sources_of.get(best[0]):
            continue
        b, lead = best
        if max(s for _t, c, s in ranked[a] if c == b) < RESCUE_SCORE:
            continue
        back = _closest(ranked_new.get(b, ()))
        if back is None or back[0] != a:
            continue
        if min(lead, back[1]) < HOMELESS_LEAD or max(lead, back[1]) < RESCUE_MARGIN:
            continue
        _take(p, a, b, "content", targets_of, sources_of)


#: A sentence that sends the reader elsewhere (a rule number, written ``§`` in comparison
#: keys, or a "see …" / "for more information" note).
_POINTS_ELSEWHERE = re.compile(r"§|^\(?see\b|for more information")


def _pair_by_own_sentence(
    p: _Pairing,
    ranked: dict[int, list[tuple[float, int, float]]],
    targets_of: dict[int, list[int]],
    sources_of: dict[int, list[int]],
) -> None:
    """A free old rule goes to the free rule closest to it (plain similarity, within
    ``RESCUE_MARGIN`` of its closest rule of all) when that rule keeps one of its
    sentences whole and every other candidate keeping that sentence has it from its own
    source: a sentence written in several places (a keyword's rule and the general rule
    on the same event) is the rule's own only where nothing else brought it. A sentence
    that only sends the reader elsewhere ("for more information, see ...", or one naming
    a rule by number) says nothing of the rule's content; and a rule whose statement
    another rule keeps whole is not placed by a later sentence."""
    new_units: tuple[list[int], list[str]] = ([], [])
    for a, scored in sorted(ranked.items()):
        if targets_of.get(a) or not scored:
            continue
        free = [(s, -c) for _t, c, s in scored if not sources_of.get(c)]
        if not free:
            continue
        similarity, j = max(free)
        j = -j
        closest = max(s for _t, _c, s in scored)
        if similarity < KEPT_SIMILARITY or similarity < closest - RESCUE_MARGIN:
            continue
        units = _content_sentences(p.old[a])
        kept, unit = max(((_keeps(x, p.new[j]), x) for x in units), default=(0.0, ""))
        if kept < SENTENCE_KEPT:
            continue
        if _statement_kept_elsewhere(p, units, j, sources_of, new_units):
            continue  # j keeps a later sentence; the statement went into another rule
        if any(
            _keeps(unit, p.new[c]) >= SENTENCE_KEPT
            and not any(
                fuzz.token_set_ratio(unit, x) >= SENTENCE_KEPT
                for k in sources_of.get(c, ())
                for x in _sentences(p.old[k])
            )
            for _t, c, _s in scored
            if c != j
        ):
            continue
        _take(p, a, j, "content", targets_of, sources_of)


def _place_by_cited_rule(
    p: _Pairing,
    old: _Side,
    new: _Side,
    idf: dict[str, float],
    free_old: Sequence[int],
    targets_of: dict[int, list[int]],
    sources_of: dict[int, list[int]],
) -> None:
    """A free old rule that points to another rule ("... (see rule 413)") summarises it,
    so it went where that rule went: to the free text under the cited rule's counterpart
    that keeps one of its sentences (``SENTENCE_KEPT``, ``SENTENCE_LEAD`` ahead of every
    other free text there) or, failing that, is clearly the closest by its words (plain
    similarity at least ``KEPT_SIMILARITY``, ``RESCUE_MARGIN`` ahead)."""
    for a in free_old:
        if targets_of.get(a):
            continue
        node = p.old[a]
        places: set[int] = set()
        for start, end, cited in _pointers(node.text):
            x = p.old_by_place.get(cited)
            if x is not None and x != a and not _is_section_id(cited):
                if _names_term(node.text[start:end], p.old[x]):
                    continue  # it uses the cited rule's term, it does not restate it
                places.update(targets_of.get(x, ()))  # a whole section is no place
        if not places:
            continue
        region = sorted(
            j
            for j in _with_subrules(p.new_children, p.new, places)
            if not p.new[j].heading and not sources_of.get(j) and p.same_topic(a, j)
        )
        if not region:
            continue
        mine = _content_sentences(node)
        kept = sorted(
            (
                (max((fuzz.token_set_ratio(x, y) for x in mine for y in ys), default=0.0), j)
                for j in region
                for ys in [_content_sentences(p.new[j])]
            ),
            key=lambda t: (-t[0], t[1]),
        )
        plain = sorted(
            ((_plain(old, new, idf, p, a, j), j) for j in region), key=lambda t: (-t[0], t[1])
        )
        if kept[0][0] >= SENTENCE_KEPT and all(
            s <= kept[0][0] - SENTENCE_LEAD for s, _j in kept[1:]
        ):
            j = kept[0][1]
        elif plain[0][0] >= KEPT_SIMILARITY and all(
            s <= plain[0][0] - RESCUE_MARGIN for s, _j in plain[1:]
        ):
            j = plain[0][1]
        else:
            continue
        _take(p, a, j, "content", targets_of, sources_of)


def _names_term(clause: str, cited: _Node) -> bool:
    """Whether a clause closed by a reference to titled rule ``cited`` ends, just before
    the parenthesis, with that title ("... not using the X option (see rule N)", N being
    "X Option"): the clause names the term the cited rule defines, as any rule may."""
    if not cited.heading:
        return False
    before = clause[: clause.rfind("(")].lower().rstrip(" ,")
    title = cited.text.lower().strip(" .")
    return bool(title) and before.endswith(title)


def _keeps(unit: str, b: _Node) -> float:
    """How well ``b`` keeps the sentence ``unit`` whole (see :func:`_kept_whole`)."""
    return max(
        (fuzz.token_set_ratio(unit, y) for y in _sentences(b) if _comparable(unit, y)),
        default=0.0,
    )


def _comparable(x: str, y: str) -> bool:
    """Two sentences of comparable length: the shorter has at least ``WHOLE_SENTENCE`` of
    the longer one's words (a sentence kept whole, not a clause of a longer one)."""
    m, n = len(x.split()), len(y.split())
    return min(m, n) >= WHOLE_SENTENCE * max(m, n)


def _with_subrules(children: Mapping, nodes: Sequence[_Node], tops: Iterable[int]) -> set[int]:
    """The rules ``tops`` and all their subrules."""
    found: set[int] = set()
    stack = list(tops)
    while stack:
        k = stack.pop()
        if k not in found:
            found.add(k)
            stack.extend(children.get(nodes[k].place, ()))
    return found


def _decide_by_subrules(
    p: _Pairing,
    old: _Side,
    new: _Side,
    ranked: dict[int, list[tuple[float, int, float]]],
    targets_of: dict[int, list[int]],
    sources_of: dict[int, list[int]],
) -> None:
    """An undecided old rule goes to its best free candidate when that one alone holds,
    as its own subrules, the counterparts of at least ``SUBRULES_HELD`` of the rule's
    siblings and subrules, and sits directly under the counterpart of the rule's parent:
    the topic was regrouped under a new general rule (the split card rules under one
    rule on the characteristics of a split card), and the old rule that spoke of the
    topic in general is that rule. A rival within the margin that is taken (by a sibling
    of the rule, say) leaves the rule as undecided as a free one does: one free
    candidate left may still be decided so."""
    for a, scored in sorted(ranked.items()):
        if targets_of.get(a):
            continue
        close = _free_close(scored, sources_of)
        if not close or len(scored) < 2 or scored[1][0] <= scored[0][0] - RESCUE_MARGIN:
            continue  # not undecided (no rival within the margin, free or taken)
        node = p.old[a]
        parent = p.old_by_place.get(node.parent) if node.parent is not None else None
        if parent is None or not targets_of.get(parent):
            continue  # where the rule's topic went is not known
        relatives = set(old.kids.get(node.place, ())) | set(old.kids.get(node.parent, ()))
        relatives.discard(a)
        went = {j for k in relatives for j in targets_of.get(k, ())}
        held = [len(went.intersection(new.kids.get(new.nodes[b].place, ()))) for b in close]
        best = new.nodes[close[0]]
        if (
            held[0] < SUBRULES_HELD
            or any(held[1:])
            or best.parent is None
            or new.by_place.get(best.parent) not in targets_of[parent]
        ):
            continue
        if _relatives_held(relatives, new.kids.get(best.place, ()), targets_of) < SUBRULES_HELD:
            # one sibling's pieces say where that sibling went, not where this rule went:
            # the rule must keep a sentence of its own there
            if not _kept_unit(node, best, content=True)[0]:
                continue
        _take(p, a, close[0], "structure", targets_of, sources_of)


#: A rule announcing the list of its subrules: its text ends with a colon, or its last
#: sentence with "the following …" ("… follows the following procedure.").
_ANNOUNCES_LIST = re.compile(r"(?:\bthe following\b[^.;:]*[.:]|:)\s*$")


def _split_into_listed_steps(
    p: _Pairing,
    ranked: Mapping[str, Mapping[int, list[tuple[float, int, float]]]],
    splits: dict[int, list[int]],
    targets_of: dict[int, list[int]],
    sources_of: dict[int, list[int]],
) -> None:
    """A free old rule rewritten as a procedure: a new rule announces a list ("…
    follows the following procedure."), and every item of it, all free, finds its
    closest text (at the rescue score) in that one old rule, whose own closest text is
    one of them. Each item alone may be a close call between old rules (the loop rules
    rewritten as the shortcut steps); all of them choosing the same old rule is the
    split. An item list the text does not announce (the subrules of a definition) is
    not taken as one: there the items are cases of a topic, each free for its own
    reason."""
    chosen_by: dict[int, list[int]] = defaultdict(list)  # old rule → free items choosing it
    for b, scored in ranked["new"].items():
        if scored and scored[0][0] >= RESCUE_SCORE and not sources_of.get(b):
            chosen_by[scored[0][1]].append(b)
    for a, items in sorted(chosen_by.items()):
        if targets_of.get(a) or len(items) < 2:
            continue
        parent = p.new_by_place.get(p.new[items[0]].parent or "")
        if parent is None or any(p.new[b].parent != p.new[parent].place for b in items):
            continue
        if set(p.new_children[p.new[parent].place]) != set(items):
            continue  # some item of the list chose another rule, or is taken
        if not _ANNOUNCES_LIST.search(p.new[parent].lower):
            continue
        own = ranked["old"].get(a)
        if not own or own[0][1] not in items:
            continue
        _split(p, a, items, splits, targets_of, sources_of)


def _relatives_held(
    relatives: Iterable[int], kids: Iterable[int], targets_of: Mapping[int, list[int]]
) -> int:
    """How many of the old ``relatives`` have a counterpart among the new ``kids``."""
    kids = set(kids)
    return sum(1 for k in relatives if kids.intersection(targets_of.get(k, ())))


def _statement_kept_elsewhere(
    p: _Pairing,
    units: Sequence[str],
    j: int,
    sources_of: Mapping[int, list[int]],
    new_units: tuple[list[int], list[str]],
) -> bool:
    """Whether the old rule's statement (its first sentence, ``units[0]``) is kept whole
    by a taken new rule, and not by ``j``: then ``j`` keeps a later sentence, a piece of
    the rule, and the rule went where its statement did, with another rule. A rule whose
    statement went into a merged rule and whose last sentence opens a free subrule is
    that merge's source, and the subrule its piece
    (:func:`rulediff.sentences._add_pieces_to_merge_sources`). A free rule keeping the
    statement is left to the passes that place the rule's pieces. ``new_units``: the
    owners and the keys of every unit of the new edition, filled on first use."""
    if not units or _keeps(units[0], p.new[j]) >= SENTENCE_KEPT:
        return False
    owners, keys = new_units
    if not keys:
        for k, node in enumerate(p.new):
            for y in _sentences(node):
                owners.append(k)
                keys.append(y)
    statement = units[0]
    return any(
        owners[m] != j and sources_of.get(owners[m]) and _comparable(statement, y)
        for y, _score, m in process.extract_iter(
            statement, keys, scorer=fuzz.token_set_ratio, score_cutoff=SENTENCE_KEPT
        )
    )


def _sentences(node: _Node) -> tuple[str, ...]:
    """The comparison keys of a rule's units long enough to compare (see provenance)."""
    return provenance.unit_keys(node.text)


def _content_sentences(node: _Node) -> list[str]:
    """:func:`_sentences` without those that only send the reader elsewhere."""
    return [x for x in _sentences(node) if not _POINTS_ELSEWHERE.search(x)]


def _held_through_citations(
    p: _Pairing,
    a: int,
    close: list[int],
    targets_of: Mapping[int, list[int]],
    sources_of: Mapping[int, list[int]],
) -> int:
    """The close candidate of undecided old ``a`` whose own text says little of it but
    which, with the rules it cites, holds nearly all its words, far more than any other
    close candidate read the same way; ``-1`` when none. A rule listing cases by name
    ("phasing, untapping, drawing … don't use the stack") may live on as a rule naming
    their class and citing the rule that lists them ("turn-based actions don't use the
    stack … see rule 703"): the class name shares none of the case names."""
    old, new, postings, idf = _weights(p)
    # where the rules ``a`` cites went: a rule citing them (or their subrules) shares
    # its references, and what they say is theirs, not ``a``'s
    references_went = _with_subrules(
        p.new_children,
        p.new,
        [t for c in cited_rules(p.old, p.old_by_place, a) for t in targets_of.get(c, ())],
    )
    words = old.stems[a]
    total = math.fsum(map(idf.__getitem__, words))
    if not total:
        return -1

    def share(held: set[str]) -> float:
        return math.fsum(map(idf.__getitem__, held)) / total

    def cited_texts(b: int) -> list[int]:
        found: list[int] = []
        for c in sorted(cited_rules(p.new, p.new_by_place, b)):
            subtree = _with_subrules(p.new_children, p.new, [c])
            found += sorted(subtree) if len(subtree) <= CITED_SUBTREE else [c]
        return [k for k in found if k not in references_went]

    cited = [cited_texts(b) for b in close]
    held = [
        words & set().union(new.stems[b], *(new.stems[k] for k in ks))
        for b, ks in zip(close, cited, strict=True)
    ]
    shares = [share(x) for x in held]
    best = max(range(len(close)), key=lambda t: (shares[t], -t))
    rest = [x for t, x in enumerate(shares) if t != best]
    if shares[best] < CITED_HELD or max(rest) > shares[best] - CITED_LEAD:
        return -1
    b = close[best]
    own = words & new.stems[b]
    if share(own) >= CITED_OWN:
        return -1  # the wording says it already: no case for the citation to decide
    if any(share(words & new.stems[k]) >= CITED_OWN for k in cited[best] if not sources_of.get(k)):
        return -1  # a free cited rule says it by itself: the old rule's own place, maybe
    rare = [
        w
        for w in held[best] - own
        if len(postings["old"].get(w, ())) + len(postings["new"].get(w, ())) <= MAX_POSTINGS
    ]
    return b if len(rare) >= CITED_RARE_WORDS else -1


def cited_rules(nodes: Sequence[_Node], by_place: Mapping[str, int], k: int) -> set[int]:
    """The rules ``nodes[k]`` cites (other than itself)."""
    return {by_place[r] for r in written_references(nodes[k].text) if r in by_place} - {k}


def _kept_sentence(a: _Node, b: _Node) -> float:
    """How well ``b`` keeps the best-kept sentence of ``a`` (token-set similarity of the
    closest two units of at least ``provenance.MIN_UNIT_WORDS`` words each)."""
    return _kept_unit(a, b)[0]


def _kept_unit(a: _Node, b: _Node, content: bool = False) -> tuple[float, str]:
    """:func:`_kept_sentence` and the unit of ``b`` that keeps the sentence; with
    ``content``, only a unit sharing ``KEPT_WORDS`` words with the sentence (function
    words aside) keeps it: token-set similarity finds a short sentence made mostly of
    function words inside any long one that has them."""
    return max(
        (
            (fuzz.token_set_ratio(x, y), y)
            for x in _sentences(a)
            for y in _sentences(b)
            if not content or len(_stems(x) & _stems(y)) >= KEPT_WORDS
        ),
        default=(0.0, ""),
    )


def _said_by(unit: str, sources: Sequence[_Node]) -> bool:
    """Whether ``unit`` (of a taken new rule) is a sentence of one of that rule's
    ``sources``: a rival that resembles a free rule's sentence by what its own source
    said (a list of the same names, a shared frame) has it from there, and claims
    nothing of the free rule."""
    return any(
        fuzz.token_set_ratio(unit, x) >= SENTENCE_KEPT for k in sources for x in _sentences(k)
    )


def _kept_whole(a: _Node, b: _Node) -> tuple[float, str]:
    """:func:`_kept_unit`, counting only sentences of comparable length (the shorter has
    at least ``WHOLE_SENTENCE`` of the longer one's words): a sentence kept whole, not a
    clause of a longer one ("no player gets priority …" inside a parenthesis)."""
    return max(
        (
            (fuzz.token_set_ratio(x, y), y)
            for x in _sentences(a)
            for y in _sentences(b)
            if _comparable(x, y)
        ),
        default=(0.0, ""),
    )


def _same_titles(old: Sequence[_Node], new: Sequence[_Node]) -> list[tuple[str, str]]:
    """Top-level rules of the two editions whose titles are the same and name one rule
    on each side ("Permanents"): one family, wherever it was renumbered to. A title
    several rules share ("General") says nothing."""

    def titles(nodes: Sequence[_Node]) -> dict[str, str]:
        found: dict[str, list[str]] = defaultdict(list)
        for n in nodes:
            if n.heading and _family(n.id) == n.id:
                found[n.lower.strip(" .")].append(n.id)
        return {t: ids[0] for t, ids in found.items() if len(ids) == 1}

    theirs = titles(new)
    return sorted((fa, theirs[t]) for t, fa in titles(old).items() if t in theirs)


def _weights(
    p: _Pairing,
) -> tuple[_Side, _Side, dict[str, dict[str, list[int]]], dict[str, float]]:
    """Both editions as stem sets, the word → texts index per side and the IDF of each
    word over both editions (computed in one pass, once per pairing)."""
    if p.word_weights is None:
        p.word_weights = _compute_weights(p)
    return p.word_weights


def _compute_weights(
    p: _Pairing,
) -> tuple[_Side, _Side, dict[str, dict[str, list[int]]], dict[str, float]]:
    old = _Side(p.old, p.old_by_place, p.old_children)
    new = _Side(p.new, p.new_by_place, p.new_children)
    index: dict[str, dict[str, list[int]]] = {"old": old.postings, "new": new.postings}
    total = len(old.stems) + len(new.stems)
    idf = {
        w: math.log(total / (len(index["old"].get(w, ())) + len(index["new"].get(w, ()))))
        for w in index["old"].keys() | index["new"].keys()
    }
    for side_ in (old, new):
        side_.mass = _Masses(side_.stems, idf)
    return old, new, index, idf


class _Masses:
    """The IDF mass of each text's stems, summed when first asked for: a pairing asks
    for those of its few free texts and their candidates, not of every text."""

    __slots__ = ("_found", "_idf", "_stems")

    def __init__(self, stems: Sequence[frozenset[str]], idf: dict[str, float]) -> None:
        self._stems = stems
        self._idf = idf
        self._found: dict[int, float] = {}

    def __getitem__(self, k: int) -> float:
        found = self._found.get(k)
        if found is None:
            found = self._found[k] = math.fsum(map(self._idf.__getitem__, self._stems[k]))
        return found


#: A web address ("www.example.com/rules", "Site.Example.com"), lower-cased.
_WEB_ADDRESS = re.compile(r"\b[a-z0-9-]+\.(?:com|org|net)\b")
#: What every match of ``_WEB_ADDRESS`` holds.
_ADDRESS_ENDS = (".com", ".org", ".net")
_SENTENCE_BREAK = re.compile(r"(?<=[.!?])\s+")
_PARENTHESIS = re.compile(r"\([^()]*\)")


def _without_addresses(lower: str) -> str:
    """``lower`` without the sentences and parentheses that give a web address: they
    tell the reader where another document is (the tournament rules, the card
    database), and two rules pointing there share those words whatever they are about."""
    if not any(tld in lower for tld in _ADDRESS_ENDS) or not _WEB_ADDRESS.search(lower):
        return lower  # (the substring test first: nearly no text holds an address)
    lower = _PARENTHESIS.sub(lambda m: "" if _WEB_ADDRESS.search(m.group()) else m.group(), lower)
    return " ".join(s for s in _SENTENCE_BREAK.split(lower) if not _WEB_ADDRESS.search(s))


def _compute_stems_and_postings(
    nodes: Sequence[_Node],
) -> tuple[list[frozenset[str]], dict[str, list[int]]]:
    """One edition's stem sets and its word → texts index (read, never changed). The
    words of a pointer to a web address are left out (:func:`_without_addresses`)."""
    stems = [_stems(_without_addresses(n.lower)) for n in nodes]
    postings: dict[str, list[int]] = defaultdict(list)
    for k, words in enumerate(stems):
        for w in words:
            postings[w].append(k)
    return stems, dict(postings)


# They depend on one edition's nodes alone (the aligner keeps those for the next pairing).
_stems_and_postings = LastUsed(_compute_stems_and_postings)


def stems_of(nodes: Sequence[_Node]) -> list[frozenset[str]]:
    """One edition's stem sets, as the rescue pass reads them (kept for the pairing)."""
    return _stems_and_postings(nodes)[0]


def _links(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> tuple[dict[int, list[int]], dict[int, list[int]]]:
    """Old node → its new counterparts and new node → its old ones (pairs, splits, merges)."""
    targets_of: dict[int, list[int]] = defaultdict(list)
    sources_of: dict[int, list[int]] = defaultdict(list)
    for i, j in enumerate(p.o2n):
        if j >= 0:
            targets_of[i].append(j)
            sources_of[j].append(i)
    for i, group in splits.items():
        targets_of[i] = list(group)
        for j in group:
            sources_of[j] = [i]
    for j, group in merges.items():
        sources_of[j] = list(group)
        for i in group:
            targets_of[i] = [j]
    return targets_of, sources_of


#: A free heading goes to the deepest new rule holding at least this share of its matched
#: texts (and at least two of them) ...
HEADING_SHARE = 0.35
#: ... the title deciding between equally deep ones only by this many points (0–100).
HEADING_TITLE_MARGIN = 10.0
#: A heading saying the title competes with this share of ``HEADING_SHARE`` when no
#: eligible place says it (:func:`_titled_runners_up`).
HEADING_RUNNER_UP = 0.8


def rescue_headings(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """Headings still free go where their texts went (container matching, once more).

    After the rescue of texts, a heading whose texts now sit under one new rule (a heading,
    or a rule with text that lists them) is that rule; if another old heading already took
    it, the two headings were merged ("Bands with Other" folded into "Banding"). The
    counterparts of the heading's own ancestors are not candidates (its chapter's
    counterpart holds its texts trivially).
    """

    targets_of, sources_of = _links(p, splits, merges)
    depth = [n.id.count(".") + (0 if _is_section_id(n.id) else 1) for n in p.new]
    for h, node in enumerate(p.old):
        if not node.heading or _is_section_id(node.id) or targets_of.get(h):
            continue
        excluded = _ancestors_targets(p, node, targets_of)
        votes: Counter = Counter()
        total = 0
        for i, heads in enumerate(p.old_heads):
            if h not in heads or p.old[i].heading or not targets_of.get(i):
                continue
            total += 1
            containers: set[int] = set()
            for j in targets_of[i]:
                containers.add(j)
                parent = p.new[j].parent
                while parent is not None:
                    k = p.new_by_place.get(parent)
                    if k is None:
                        break
                    containers.add(k)
                    parent = p.new[k].parent
            votes.update(
                c for c in containers if c not in excluded and not _is_section_id(p.new[c].id)
            )
        eligible = [g for g, c in votes.items() if c >= 2 and c >= HEADING_SHARE * total]
        eligible += _titled_runners_up(p, h, votes, eligible, total)
        if not all(p.new[g].heading or _says_title(p, h, g) for g in eligible):
            # Its texts went into a rule on another subject (one that does not say the
            # title): where they went no longer names the heading, only the title can.
            eligible = [
                g
                for g in eligible
                if (_title_said(p, h, g) > 0 if p.new[g].heading else _says_title(p, h, g))
            ]
        if not eligible:
            # Too few texts to vote ("Changing Targets", one of whose three subrules
            # went to the new rule on changing targets): a free rule that received one
            # of them and says every naming word of the title is the heading rewritten.
            g = _named_by(p, node, votes, sources_of, HEADING_SHARE * total)
            if g >= 0 and not sources_of.get(g):
                _take(p, h, g, "structure", targets_of, sources_of)
            elif g >= 0 and not any(g in group for group in splits.values()):
                _join_merge(p, h, g, sources_of[g], merges, targets_of, sources_of)
            continue
        deepest = max(depth[g] for g in eligible)
        ranked = sorted(
            (
                (fuzz.token_set_ratio(node.lower, p.new[g].lower), g)
                for g in eligible
                if depth[g] == deepest
            ),
            key=lambda t: (-t[0], t[1]),
        )
        if len(ranked) > 1 and ranked[1][0] > ranked[0][0] - HEADING_TITLE_MARGIN:
            continue  # two equally specific places: the title does not decide
        title, g = ranked[0]
        if not p.new[g].heading:
            over = _heading_over(p, h, g)
            if over >= 0 and not sources_of.get(over):
                g = over
        owners = sources_of.get(g, [])
        if not owners:
            _take(p, h, g, "structure", targets_of, sources_of)
        elif all(p.old[k].heading for k in owners) and not any(
            g in group for group in splits.values()
        ):
            _join_merge(p, h, g, owners, merges, targets_of, sources_of)
    _follow_titled_rules(p, splits, merges, targets_of, sources_of)


def _titled_runners_up(
    p: _Pairing, h: int, votes: Counter, eligible: list[int], total: int
) -> list[int]:
    """New headings that say old heading ``h``'s title and received nearly the share of
    its ``total`` texts that makes a place eligible, when no eligible place says the
    title: the heading's texts split among a few places ("Timing of Spells and
    Abilities" among "Stack", "Special Actions" and "Timing and Priority"), and one text
    more or less found must not put the title out of the running."""
    if any(_title_said(p, h, g) for g in eligible):
        return []
    return sorted(
        g
        for g, c in votes.items()
        if g not in eligible
        and c >= 2
        and c >= HEADING_RUNNER_UP * HEADING_SHARE * total
        and p.new[g].heading
        and _title_said(p, h, g)
    )


def _follow_titled_rules(
    p: _Pairing,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    targets_of: dict[int, list[int]],
    sources_of: dict[int, list[int]],
) -> None:
    """A heading that titles one rule goes with it, to the heading the rule now stands
    under, when every text there that has a source came from such a heading: one title
    renamed, or several merged ("Legal Text", "Collector Number", … folded into
    "Information Below the Text Box"). One text is too few for the share vote, and a
    new heading that also holds other rules' texts ("Objects" for "Characteristics") is
    no evidence."""
    texts: dict[int, list[int]] = defaultdict(list)
    below: set[int] = set()  # old headings with a heading under them
    for i, heads in enumerate(p.old_heads):
        for h in heads:
            if p.old[i].heading:
                below.add(h)
            else:
                texts[h].append(i)
    titled = {h: ks[0] for h, ks in texts.items() if len(ks) == 1 and h not in below}
    rule_of = {i: h for h, i in titled.items()}
    under: dict[int, list[int]] = defaultdict(list)  # new heading → its sourced texts
    for j, heads in enumerate(p.new_heads):
        if heads and not p.new[j].heading and sources_of.get(j):
            under[heads[0]].append(j)
    places: dict[int, list[int]] = defaultdict(list)
    for h, i in sorted(titled.items()):
        node = p.old[h]
        if _is_section_id(node.id) or targets_of.get(h) or not targets_of.get(i):
            continue
        homes = {p.new_heads[j][0] if p.new_heads[j] else -1 for j in targets_of[i]}
        g = homes.pop() if len(homes) == 1 else -1
        if g < 0 or _is_section_id(p.new[g].id):
            continue
        excluded = _ancestors_targets(p, node, targets_of)
        sources = {k for j in under[g] for k in sources_of[j]}
        if g not in excluded and all(
            p.old_heads[k] and rule_of.get(k) == p.old_heads[k][0] for k in sources
        ):
            places[g].append(h)
    for g, heads in sorted(places.items()):
        owners = sources_of.get(g, [])
        if any(g in group for group in splits.values()) or not all(
            p.old[k].heading for k in owners
        ):
            continue
        for h in heads:
            if not sources_of.get(g):
                _take(p, h, g, "structure", targets_of, sources_of)
            else:
                _join_merge(p, h, g, sources_of[g], merges, targets_of, sources_of)


def _ancestors_targets(p: _Pairing, node: _Node, targets_of: dict[int, list[int]]) -> set[int]:
    """The counterparts of an old heading's ancestors: its chapter's counterpart holds its
    texts trivially, so it is never where the heading went."""
    out: set[int] = set()
    parent = node.parent
    while parent is not None and (k := p.old_by_place.get(parent)) is not None:
        out.update(targets_of.get(k, ()))
        parent = p.old[k].parent
    return out


def _named_by(p: _Pairing, heading: _Node, votes: Counter, sources_of: dict, share: float) -> int:
    """The one new rule among ``votes`` that the heading's title names: a free rule whose
    words hold every naming word of the title (a short title naming one thing), or a
    heading taken only by headings whose own naming words are all in the title
    ("Countering …" and the keyword action "Counter") and that holds ``share`` of the
    heading's matched texts (a word of a title names less than the whole title); -1 when
    none or several. Only when no rule holds the title's five-letter stems, a free
    heading whose title holds its roots is asked for: "Card Type" said by "Card Types" (a
    four-letter word's plural has another stem, not another root). Not a rule with text:
    roots fold more ("timing" and "time"), and a text says many words besides a title."""

    title = _title_words(heading.lower)
    if not title:
        return -1
    found = []
    free = []
    for g in sorted(votes):
        owners = sources_of.get(g)
        if not owners:
            free.append(g)
            if title <= _words(p.new[g].lower):
                found.append(g)
        elif votes[g] >= share and p.new[g].heading and all(p.old[k].heading for k in owners):
            words = _title_words(p.new[g].lower)
            if words and words <= title:
                found.append(g)
    if not found:
        roots = _naming_roots(heading.lower)
        found = [g for g in free if p.new[g].heading and roots <= _text_roots(p.new[g].lower)]
    return found[0] if len(found) == 1 else -1


def _gap(a: int, links: dict[int, list[int]], size: int) -> tuple[int, int]:
    """The other side's positions of the nearest linked rules before and after ``a`` (in
    document order); an empty range when they are far apart or out of order."""
    lo = next((min(links[k]) for k in range(a - 1, -1, -1) if links.get(k)), -1)
    hi = next((max(links[k]) for k in range(a + 1, size) if links.get(k)), -1)
    if lo < 0 or hi < 0 or not 0 < hi - lo <= GAP_WIDTH:
        return (0, 0)
    return (lo, hi)


def _kept(p: _Pairing, i: int, j: int) -> bool:
    """Old ``i`` and new ``j`` are one text kept word for word (up to typography)."""
    return p.o2n[i] == j and p.old[i].key == p.new[j].key


def _from_parent(
    p: _Pairing, new: _Side, old: _Side, a: int, b: int, sources_of: Mapping[int, list[int]]
) -> set[str]:
    """The words new ``a`` may have from its parent's old counterpart (an item of a list
    in that rule, given a subrule of its own); none from a counterpart that is old ``b``
    or holds ``b`` among its subrules (then the shared words are the topic's, and ``b`` a
    place the text may have come from)."""
    node = new.nodes[a]
    parent = new.by_place.get(node.parent) if node.parent is not None else None
    if parent is None:
        return set()
    above_b: set[str] = set()
    up = p.old[b].parent
    while up is not None and up not in above_b:
        above_b.add(up)
        k = old.by_place.get(up)
        up = p.old[k].parent if k is not None else None
    words: set[str] = set()
    for k in sources_of.get(parent, ()):
        if k != b and p.old[k].place not in above_b:
            words |= old.stems[k]
    return words


def _is_section_id(node_id: str) -> bool:
    return node_id.isdigit() and len(node_id) == 1


#: A sentence is kept in a unit that shares at least this many of its words (function
#: words aside) when it joins a merge by that sentence alone.
KEPT_WORDS = 3

#: Recovery: texts under two matched containers pair at this lower similarity (the
#: container match is the evidence) ...
RECOVERY_SCORE = 0.42
#: ... with the rare words (IDF cosine) alone at least this high (shared wording of a
#: step or template is not enough) ...
RECOVERY_WORDS = 0.41
#: ... clearly ahead of every other free text of the container on either side ...
RECOVERY_MARGIN = 0.04
#: ... and not this much behind a free text outside it (where it may have gone instead).
RECOVERY_ELSEWHERE = 0.1
#: ... when the container holds at most this many free texts on each side (a chapter
#: holding dozens says little about which of them is which).
RECOVERY_GROUP = 20
#: Free texts under two matched containers that pair in document order: at most this many.
PARALLEL_BLOCK = 4
#: ... each holding the other's words (IDF share and token-set similarity, 0–1) this much.
PARALLEL_HELD = 0.8


def recover(
    p: _Pairing,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    sentences_from: dict[int, set[int]],
) -> None:
    """GumTree's recovery phase: the free texts under two matched rules pair best-first.

    Two matched containers (a renamed keyword heading, a renumbered rule with subrules)
    say that their children correspond; a child reworded below every earlier threshold
    is still the best-matching free child under the counterpart of its container, when
    no free text elsewhere matches it much better and the new text holds no sentence of
    another old rule (then it is a piece of that rule). Containers are taken innermost first; the
    whole subtree counts (a subrule may have moved a level up or down). A container with
    the same few free texts on each side that correspond in document order, each holding
    the other's words, pairs them all even when every text grew (parallel rules written
    once per case).
    """
    grouped_old = set(splits) | {i for group in merges.values() for i in group}
    grouped_new = set(merges) | {j for group in splits.values() for j in group}
    if not any(
        p.o2n[i] < 0 and not n.heading and i not in grouped_old for i, n in enumerate(p.old)
    ) or not any(
        p.n2o[j] < 0 and not n.heading and j not in grouped_new for j, n in enumerate(p.new)
    ):
        return  # nothing left to recover on one side (neighbouring editions)
    old, new, index, idf = _weights(p)

    def mass(words: frozenset[str]) -> float:
        return math.fsum(map(idf.__getitem__, words))

    def cosine(i: int, j: int) -> float:
        a, b = old.stems[i], new.stems[j]
        shared = a & b
        return mass(shared) / math.sqrt(old.mass[i] * new.mass[j]) if shared else 0.0

    def similarity(i: int, j: int) -> float:
        return (cosine(i, j) + fuzz.ratio(p.old[i].lower, p.new[j].lower) / 100) / 2

    def contained(i: int, j: int) -> float:
        """The rare words of the shorter text found in the longer one."""
        a, b = old.stems[i], new.stems[j]
        shared = a & b
        return mass(shared) / min(mass(a), mass(b)) if shared else 0.0

    def free_old(i: int) -> bool:
        return p.o2n[i] < 0 and not p.old[i].heading and i not in grouped_old

    def free_new(j: int) -> bool:
        return p.n2o[j] < 0 and not p.new[j].heading and j not in grouped_new

    def best_elsewhere(side: str, a: int, inside: set[int]) -> float:
        """The best similarity of free ``a`` to a free text of the other side outside the
        container (candidates from the word index)."""
        words = (old if side == "old" else new).stems[a]
        postings = index["new" if side == "old" else "old"]
        votes = _votes(words, postings, idf)
        free = free_new if side == "old" else free_old
        cands = heapq.nsmallest(
            INDEX_CANDIDATES,
            (b for b in votes if b not in inside and free(b)),
            key=lambda b: (-votes[b], b),
        )
        scores = [similarity(a, b) if side == "old" else similarity(b, a) for b in cands]
        return max(scores, default=0.0)

    def in_order(olds: list[int], news: list[int], table: dict) -> bool:
        """The container's few free texts, as many on each side, correspond in document
        order and no other assignment comes close ("front face …", "back face …" each
        grown a paragraph): the container match and the order decide, not the wording."""
        if not 2 <= len(olds) == len(news) <= PARALLEL_BLOCK:
            return False
        held = {
            (i, j): (contained(i, j) + fuzz.token_set_ratio(p.old[i].lower, p.new[j].lower) / 100)
            / 2
            for (i, j) in table
        }
        if any(held.get((i, j), 0.0) < PARALLEL_HELD for i, j in zip(olds, news, strict=True)):
            return False
        total = sum(held[(i, j)] for i, j in zip(olds, news, strict=True))
        for order in itertools.permutations(news):
            if list(order) != news:
                other = sum(held.get((i, j), 0.0) for i, j in zip(olds, order, strict=True))
                if other > total - RECOVERY_MARGIN * len(olds):
                    return False
        return True

    containers = [
        (i, j)
        for i, j in enumerate(p.o2n)
        if j >= 0 and not _is_section_id(p.old[i].id) and p.old_children.get(p.old[i].place)
    ]
    containers.sort(key=lambda t: (-p.old[t[0]].id.count("."), -len(p.old[t[0]].id), t))
    merged_into = {i: t for t, group in merges.items() for i in group}

    def placed(k: int) -> list[int]:
        """Where old ``k`` went (matched, a piece of a split, a merge source), read as
        recovery pairs: ``_links`` would be a snapshot taken before the first pair."""
        return [p.o2n[k], merged_into.get(k, -1), *splits.get(k, ())]

    for h, g in containers:
        inside = _with_subrules(p.new_children, p.new, [g])
        olds = sorted(
            i
            for i in _with_subrules(p.old_children, p.old, [h])
            if i != h and free_old(i) and not _family_left(p, i, h, inside, placed)
        )
        news = sorted(j for j in inside if j != g and free_new(j))
        if not olds or not news or len(olds) > RECOVERY_GROUP or len(news) > RECOVERY_GROUP:
            continue
        table = {(i, j): similarity(i, j) for i in olds for j in news if p.same_topic(i, j)}
        if in_order(olds, news, table):
            for i, j in zip(olds, news, strict=True):
                p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "structure")
            continue
        scored = sorted(
            ((s, i, j) for (i, j), s in table.items() if s >= RECOVERY_SCORE),
            key=lambda t: (-t[0], t[1], t[2]),
        )
        for score, i, j in scored:
            if p.o2n[i] >= 0 or p.n2o[j] >= 0 or cosine(i, j) < RECOVERY_WORDS:
                continue
            if sentences_from.get(j, set()) - {i}:
                continue  # the new text holds sentences of another old rule: its piece
            if p.written_for_new_subject(i, j) or p.opens_with_other_keyword(i, j):
                continue  # written for a new subject or another keyword (still a rival)
            if _drops_parent_term(p, i, j, [b for b in news if b != j and free_new(b)]):
                continue  # another free text keeps what the old text says of its parent
            taken = [k for k in _with_subrules(p.new_children, p.new, [g]) if p.n2o[k] >= 0]
            if _restated_in_taken_rule(p, i, j, score, taken, old, idf):
                continue  # the old text lives on as a new sentence of a matched rule
            rivals = [
                s
                for (a, b), s in table.items()
                if (a == i) != (b == j) and p.o2n[a] < 0 and p.n2o[b] < 0
            ]
            if rivals and max(rivals) > score - RECOVERY_MARGIN:
                continue  # another free text of the container is about as close
            if best_elsewhere("old", i, set(news)) > score + RECOVERY_ELSEWHERE:
                continue  # the old text matches a free text elsewhere better
            if best_elsewhere("new", j, set(olds)) > score + RECOVERY_ELSEWHERE:
                continue
            p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "structure")


def _family_left(
    p: _Pairing, i: int, top: int, inside: set[int], placed: Callable[[int], Iterable[int]]
) -> bool:
    """Old ``i``'s parent rule (not ``top``, the placed rule above it; not a heading)
    found no place among the new rules ``inside`` (``top``'s counterpart and its
    subrules), and its subrules that found one (``placed``) all went elsewhere: the
    rule's family left, and ``i`` is no text of ``top`` to place there (a note on
    subtypes beside the list of card types)."""
    k = p.old_by_place.get(p.old[i].parent or "", top)
    if k == top or p.old[k].heading or any(j in inside for j in placed(k)):
        return False
    went = [
        j for c in p.old_children.get(p.old[k].place, ()) if c != i for j in placed(c) if j >= 0
    ]
    return bool(went) and not any(j in inside for j in went)


def _restated_in_taken_rule(
    p: _Pairing,
    i: int,
    j: int,
    score: float,
    taken: Sequence[int],
    old: _Side,
    idf: Mapping[str, float],
) -> bool:
    """A sentence of a matched new text under the container (``taken``) is closer to old
    ``i`` than free candidate ``j`` is (its whole text, ``score``, or its closest
    sentence, by the same measure), and that sentence is new to its rule: nothing of its
    own old counterpart says it as closely. The old rule was folded into its matched
    sibling as one more sentence (a step's closing "then the player gets priority" moved
    into the step's first rule): the free candidate, further off, is no rewrite of it."""
    own = old.stems[i]
    own_mass = old.mass[i]
    text = p.old[i].lower

    def close(sentence: str) -> float:
        stems = _stems(sentence)
        shared = stems & own
        if not shared:
            return fuzz.ratio(text, sentence) / 200
        mass = math.fsum(idf.get(w, 0.0) for w in stems)
        cos = math.fsum(idf.get(w, 0.0) for w in shared) / math.sqrt(own_mass * mass)
        return (cos + fuzz.ratio(text, sentence) / 100) / 2

    score = max([score, *map(close, _SENTENCE_BREAK.split(p.new[j].lower))])

    for k in taken:
        source = p.old[p.n2o[k]]
        sentences = _SENTENCE_BREAK.split(p.new[k].lower)
        if len(sentences) < 2:
            continue  # the whole text is its counterpart's rewrite, no added sentence
        for sentence in sentences:
            if close(sentence) <= score:
                continue
            said_before = max(
                fuzz.ratio(sentence, earlier) for earlier in _SENTENCE_BREAK.split(source.lower)
            )
            if said_before < fuzz.ratio(sentence, text):
                return True
    return False


def _drops_parent_term(p: _Pairing, i: int, j: int, rivals: Sequence[int]) -> bool:
    """New ``j`` keeps none of the words old ``i`` says with its parent that ``j``'s
    parent still says (the section's name aside), while another free text under the
    container (``rivals``) keeps one. A subrule repeats what its parent is about (a
    prohibition): a new subrule saying none of it is about another part of the parent,
    however many other words it shares, and a sibling still says it."""

    old_parent = p.old_by_place.get(p.old[i].parent or "")
    new_parent = p.new_by_place.get(p.new[j].parent or "")
    if old_parent is None or new_parent is None:
        return False

    def roots(node: _Node) -> frozenset[str]:
        return frozenset(
            w for w in _text_roots(node.lower) if len(w) > 3 and w not in _FUNCTION_WORDS
        )

    terms = roots(p.old[i]) & roots(p.old[old_parent]) & roots(p.new[new_parent])
    for topic, nodes in ((p.old_topic[i], p.old), (p.new_topic[j], p.new)):
        if topic >= 0:  # the section's name, said by all its rules
            terms -= roots(nodes[topic])
    if not terms or terms & roots(p.new[j]):
        return False
    return any(terms & roots(p.new[b]) for b in rivals)


#: A phrase in quotation marks ("card", "you", "target [something]"): what a rule names as
#: a term; ``[...]`` placeholders are left out.
_QUOTED = re.compile(r"[\"“]([^\"”]{1,80})[\"”]")
#: The quoted title that follows a reference ("see rule 217, “Zones”") names a rule.
_TITLE_AFTER = re.compile(r"\s*,?\s*$")
_WORD = re.compile(r"[a-z]+")
#: A ``[...]`` placeholder inside a quoted phrase ("target [something]").
_PLACEHOLDER_BRACKETS = re.compile(r"\[[^\]]*\]")


@functools.lru_cache(maxsize=1 << 14)
def _quoted_terms(text: str) -> frozenset[str]:
    """The phrases ``text`` puts in quotation marks, as lower-case words, without the
    titles of the rules it cites."""
    quoted = list(_QUOTED.finditer(text))
    if not quoted:
        return frozenset()  # nothing quoted: the references need not be read
    ends = [r.end for r in references(text)]
    found = set()
    for m in quoted:
        if any(e <= m.start() and _TITLE_AFTER.match(text[e : m.start()]) for e in ends):
            continue  # the title of a cited rule
        words = _WORD.findall(_PLACEHOLDER_BRACKETS.sub(" ", m.group(1).lower()))
        if words:
            found.add(" ".join(words))
    return frozenset(found)


def pair_by_quoted_term(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """Two free rules, each the other's closest text in the whole other edition (plain
    similarity, taken rules included), that put the same term in quotation marks are one
    rule moved: the term says what both are about ("card", "you", "bands with other")."""
    targets_of, sources_of = _links(p, splits, merges)
    quoting: dict[str, list[int]] = defaultdict(list)
    for j, node in enumerate(p.new):
        if not node.heading and not sources_of.get(j):
            for term in _quoted_terms(node.text):
                quoting[term].append(j)
    if not quoting:
        return
    old, new, index, idf = _weights(p)
    for a, node in enumerate(p.old):
        if node.heading or targets_of.get(a) or len(old.stems[a]) < 3:
            continue
        found = {j for term in _quoted_terms(node.text) for j in quoting.get(term, ())}
        found = {j for j in found if not sources_of.get(j) and len(new.stems[j]) >= 3}
        if not found:
            continue
        s, b = max((_plain(old, new, idf, p, a, j), -j) for j in found)
        b = -b
        if s < KEPT_SIMILARITY or not p.same_topic(a, b) or p.defines_other(a, b):
            continue
        if _closer(p, old, new, index, idf, "old", a, b, s) or _closer(
            p, old, new, index, idf, "new", b, a, s
        ):
            continue
        _take(p, a, b, "content", targets_of, sources_of)


def _closer(
    p: _Pairing,
    old: _Side,
    new: _Side,
    index: dict[str, dict[str, list[int]]],
    idf: dict[str, float],
    side: str,
    a: int,
    b: int,
    similarity: float,
) -> bool:
    """Some text of the other edition but ``b``, free or taken, is at least as close to
    ``a`` (plain similarity) as ``similarity``. The wording ratio is bounded by the two
    lengths, so most texts are ruled out by their shared words alone."""
    mine, theirs = (old, new) if side == "old" else (new, old)
    words, size = mine.stems[a], len(mine.nodes[a].lower)
    shared: dict[int, float] = defaultdict(float)
    for w in sorted(words):  # one order of summing: the same floats every run
        for c in index["new" if side == "old" else "old"].get(w, ()):
            shared[c] += idf[w]
    for c, mass in shared.items():
        if c == b or theirs.nodes[c].heading:
            continue
        cosine = mass / math.sqrt(mine.mass[a] * theirs.mass[c])
        other = len(theirs.nodes[c].lower)
        if (cosine + 2 * min(size, other) / (size + other)) / 2 < similarity:
            continue  # even the same wording could not bring it this close
        i, j = (a, c) if side == "old" else (c, a)
        if _plain(old, new, idf, p, i, j) >= similarity:
            return True
    return False


def pair_placed_both_ways(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free rule whose place both editions give goes to its mutual closest free text.

    The free new rule stands under the counterpart of the old rule's nearest placed
    ancestor, and the old rule under the counterpart of the new rule's: each edition
    says the two are in one section. Place alone decides nothing (a section's leftover
    rules are often removed on one side and new on the other), nor does a lead in the
    words alone (a turn of phrase shared across the book); together they do: the two
    are each other's closest free text in the whole other edition (plain similarity, at
    least ``KEPT_SIMILARITY``), with the leads :func:`_pair_homeless` asks of a rule
    that has no placed neighbour (``HOMELESS_LEAD`` each, one of them
    ``RESCUE_MARGIN``). Free rivals only: a taken rule's likeness is a template the rule
    shares with a kept one, not a place it went. When neither lead reaches
    ``RESCUE_MARGIN``, the words must single the two out against taken texts too: each
    is the other's closest text in the whole other edition (a rule restating a kept
    sibling for a narrower case, or a shared frame, has a taken text as close).
    """
    targets_of, sources_of = _links(p, splits, merges)
    free_old = [i for i, n in enumerate(p.old) if not n.heading and not targets_of.get(i)]
    free_new = [j for j, n in enumerate(p.new) if not n.heading and not sources_of.get(j)]
    if not free_old or not free_new:
        return
    old, new, index, idf = _weights(p)
    free_new_set, free_old_set = set(free_new), set(free_old)
    new_place = {j: _placed_ancestor(p.new, p.new_by_place, j, sources_of) for j in free_new}
    sections: dict[int, list[int]] = {}
    insides: dict[int, set[int]] = {}
    pairs = []
    for i in free_old:
        a = _placed_ancestor(p.old, p.old_by_place, i, targets_of)
        if a is None:
            continue
        if a not in sections:
            insides[a] = _with_subrules(p.new_children, p.new, targets_of[a])
            found = insides[a] & free_new_set
            sections[a] = sorted(j for j in found if new_place[j] is not None)
        if _family_left(p, i, a, insides[a], lambda k: targets_of.get(k, ())):
            continue  # its parent rule's family went elsewhere: no text of that section
        lineage = lineage_of(p.old, p.old_by_place, i)
        placed = [j for j in sections[a] if lineage.intersection(sources_of[new_place[j]])]
        scores = [(_plain(old, new, idf, p, i, j), j) for j in placed]
        if not scores or max(scores)[0] < KEPT_SIMILARITY:
            continue
        near = _free_nearest(old.stems[i], index["new"], idf, free_new_set) - set(placed)
        best = _closest_plain(scores + [(_plain(old, new, idf, p, i, b), b) for b in near])
        if best is None or best[0] not in placed or best[1] < KEPT_SIMILARITY:
            continue
        j, similarity, lead = best
        near = _free_nearest(new.stems[j], index["old"], idf, free_old_set) | {i}
        back = _closest_plain((_plain(old, new, idf, p, b, j), b) for b in near)
        if back is None or back[0] != i:
            continue
        if min(lead, back[2]) < HOMELESS_LEAD:
            continue
        if not p.same_topic(i, j) or p.defines_other(i, j) or p.on_new_frame(i, j):
            continue  # the rescue pass's own checks on a candidate
        if _drops_parent_term(p, i, j, [b for b in placed if b != j]):
            continue  # another free rule of the section keeps what i says of its parent
        if max(lead, back[2]) < RESCUE_MARGIN and (
            _closer(p, old, new, index, idf, "old", i, j, similarity)
            or _closer(p, old, new, index, idf, "new", j, i, similarity)
        ):
            continue  # small leads, and a taken text is as close: a shared template
        pairs.append((i, j))
    for i, j in pairs:
        _take(p, i, j, "content", targets_of, sources_of)


def pair_into_namesake(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A rule of a dissolved section goes to the section named after it.

    An old section none of whose rules has a counterpart (a zone or a subject the new
    edition no longer has: the phased-out zone) often went into the section that its
    own title names (its words, without their inflection, that its parent's title does
    not say: "phased" is the keyword Phasing's word). There a rule is sought as
    :func:`_pair_homeless` seeks one for a rule with no placed neighbour, but among the
    texts of that place only: the free new rules under the namesake heading and the
    free old rules of the dissolved section and of the namesake's counterpart (a taken
    rule's likeness is a template it shares with a kept one, as in
    :func:`pair_placed_both_ways`). The two must be each other's closest text there
    (plain similarity at least ``RESCUE_SCORE``), each ``HOMELESS_LEAD`` ahead of the
    next and one of them ``RESCUE_MARGIN`` ahead, and pass the rescue pass's own checks
    on a candidate.
    """

    targets_of, sources_of = _links(p, splits, merges)
    titled = {}
    for g, node in enumerate(p.new):
        if node.heading and (roots := _naming_roots(node.lower)):
            titled[g] = roots
    if not titled:
        return
    old, new, _index, idf = _weights(p)
    pairs = []
    for h, node in enumerate(p.old):
        if not node.heading or targets_of.get(h):
            continue
        family = _with_subrules(p.old_children, p.old, [h]) - {h}
        if not family or any(targets_of.get(k) for k in family):
            continue  # not dissolved: a placed rule says where the section went
        parent = p.old_by_place.get(node.parent) if node.parent is not None else None
        own = _naming_roots(node.lower)
        if parent is not None:
            own -= _naming_roots(p.old[parent].lower)
        homes = [g for g, roots in titled.items() if own and roots <= own]
        if not homes:
            continue
        place_new = sorted(
            j
            for j in _with_subrules(p.new_children, p.new, homes)
            if not p.new[j].heading and not sources_of.get(j)
        )
        kept = [a for g in homes for a in sources_of.get(g, ())]
        place_old = sorted(
            a
            for a in family | _with_subrules(p.old_children, p.old, kept)
            if not p.old[a].heading and not targets_of.get(a)
        )
        for i in sorted(family):
            if p.old[i].heading or targets_of.get(i) or len(old.stems[i]) < 3:
                continue
            best = _closest_plain((_plain(old, new, idf, p, i, j), j) for j in place_new)
            if best is None or best[1] < RESCUE_SCORE:
                continue
            j, _similarity, lead = best
            back = _closest_plain((_plain(old, new, idf, p, a, j), a) for a in place_old)
            if back is None or back[0] != i:
                continue
            if min(lead, back[2]) < HOMELESS_LEAD or max(lead, back[2]) < RESCUE_MARGIN:
                continue
            pairs.append((i, j))
    _take_checked(p, pairs, targets_of, sources_of)


def _take_checked(
    p: _Pairing,
    candidates: list[tuple[int, int]],
    targets_of: dict[int, list[int]],
    sources_of: dict[int, list[int]],
) -> None:
    """Take the candidate pairs that pass the rescue pass's own checks (all checked before
    any is taken, so one take does not change another's check), each while both rules
    are still free."""
    checked = [
        (i, j)
        for i, j in candidates
        if p.same_topic(i, j) and not p.defines_other(i, j) and not p.on_new_frame(i, j)
    ]
    for i, j in checked:
        if not targets_of.get(i) and not sources_of.get(j):
            _take(p, i, j, "content", targets_of, sources_of)


def pair_clearly_closest(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """Two free rules, each the other's closest text in the whole other edition by the
    rescue pass's full margin over every other text, free or taken, are one rule
    wherever the two editions put it (a rule moved to another chapter: the library's rule
    on a card drawn while a spell is cast, now a rule of drawing).

    Neither place nor a quoted term is asked for, so the words must single the two out
    against all the texts of both editions: plain similarity at least ``RESCUE_SCORE``
    and ``RESCUE_MARGIN`` ahead of any other text on both sides (a template shared with
    a kept rule, or a turn of phrase said across the book, leaves a rival closer), and
    the rescue pass's own checks on a candidate. Not for a rule with subrules, on
    either side: its words sum up its items, so its closest text is often one that says
    what one of them says (the old subtypes rule, whose items are each type's subtypes,
    and the new rule on an artifact creature's subtypes)."""
    targets_of, sources_of = _links(p, splits, merges)
    free_new = {
        j
        for j, n in enumerate(p.new)
        if not n.heading and not sources_of.get(j) and not p.new_children.get(n.place)
    }
    if not free_new:
        return
    old, new, index, idf = _weights(p)
    pairs = []
    for i, node in enumerate(p.old):
        if node.heading or targets_of.get(i) or len(old.stems[i]) < 3:
            continue
        if p.old_children.get(node.place):
            continue  # a list's opening rule: see above
        near = _free_nearest(old.stems[i], index["new"], idf, free_new)
        best = _closest_plain((_plain(old, new, idf, p, i, j), j) for j in near)
        if best is None or best[1] < RESCUE_SCORE or len(new.stems[best[0]]) < 3:
            continue
        j, similarity, _lead = best
        rival = similarity - RESCUE_MARGIN
        if _closer(p, old, new, index, idf, "old", i, j, rival) or _closer(
            p, old, new, index, idf, "new", j, i, rival
        ):
            continue
        pairs.append((i, j))
    _take_checked(p, pairs, targets_of, sources_of)


def pair_in_slot(p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]) -> None:
    """A free rule rewritten in its own slot goes to the free rule standing there that
    shares words of its own with it.

    Under two parents that correspond, the slot of a free old rule is where its matched
    neighbours put it: between the counterparts of its nearest siblings before and after
    it that have one (:func:`_between`). Place alone pairs a rule with whatever replaced
    it at its number, so the words must say the two are about one thing: they share at
    least ``SLOT_OWN_STEMS`` stems that no other rule of either family says (the
    family's title, its vocabulary and its stock phrases are said by the siblings too; a
    sibling written on the same frame shares those, not a subject of its own). Exactly
    one free new rule of the slot does, and the old rule is the only free old rule of
    that new rule's own slot that does. The pair passes the rescue pass's own checks on
    a candidate and is no rule written for a subject the old edition lacks.

    An old rule held one to one by a text match alone to a rule outside its family (a
    parallel rule of another zone or section, taken before the family was placed) is
    offered its slot too, and moves there when the slot rule is at least as close by
    text once the pair's recurring wording changes are applied (a renamed zone read by
    its new name)."""

    targets_of, sources_of = _links(p, splits, merges)
    old, new, _index, _idf = _weights(p)
    said: dict[tuple[str, int], Counter] = {}

    def family(side: str, top: int) -> Counter:
        """How many rules of ``top``'s family say each stem (kept)."""
        if (side, top) not in said:
            if side == "old":
                said[side, top] = _family_stems(p.old, p.old_children, old.stems, top)
            else:
                said[side, top] = _family_stems(p.new, p.new_children, new.stems, top)
        return said[side, top]

    def own(parent: int, i: int, q: int, j: int) -> int:
        """The stems old ``i`` and new ``j`` share that no other rule of their families
        (under ``parent`` and ``q``) says."""
        shared = old.stems[i] & new.stems[j]
        if len(shared) < SLOT_OWN_STEMS:
            return 0
        said_old, said_new = family("old", parent), family("new", q)
        mine_old, mine_new = family("old", i), family("new", j)
        return sum(1 for w in shared if said_old[w] == mine_old[w] and said_new[w] == mine_new[w])

    def far(i: int, homes: set[str]) -> bool:
        """Old ``i`` is held by a text match alone, one to one, outside its family."""
        k = targets_of.get(i, [])
        return (
            p.method.get(i) == "fuzzy"
            and len(k) == 1
            and sources_of.get(k[0]) == [i]
            and p.new[k[0]].parent not in homes
        )

    pairs = []
    for parent_id, kids_o in p.old_children.items():
        parent = p.old_by_place.get(parent_id) if parent_id is not None else None
        if parent is None:
            continue
        homes = {p.new[q].place for q in targets_of.get(parent, ())}
        for po, i in enumerate(kids_o):
            if p.old[i].heading or (targets_of.get(i) and not far(i, homes)):
                continue
            for q in targets_of.get(parent, ()):
                kids_n = p.new_children.get(p.new[q].place, [])
                slot = [
                    j
                    for j in _between(kids_o, kids_n, po, targets_of)
                    if not p.new[j].heading and not sources_of.get(j)
                ]
                found = [j for j in slot if own(parent, i, q, j) >= SLOT_OWN_STEMS]
                if len(found) != 1:
                    continue
                j = found[0]
                back = [
                    a
                    for a in _between(kids_n, kids_o, kids_n.index(j), sources_of, True)
                    if not p.old[a].heading and (a == i or not targets_of.get(a))
                ]
                if [a for a in back if own(parent, a, q, j) >= SLOT_OWN_STEMS] != [i]:
                    continue
                if _under_new_subject(p, j) or _written_for_new_subject(p, i, j):
                    continue
                pairs.append((i, j))
    checked = [
        (i, j)
        for i, j in pairs
        if p.same_topic(i, j) and not p.defines_other(i, j) and not p.on_new_frame(i, j)
    ]
    for i, j in checked:
        if sources_of.get(j):
            continue
        if targets_of.get(i):
            (k,) = targets_of[i]
            if _closer_once_swept(p, i, k) > _closer_once_swept(p, i, j):
                continue  # the far rule still says the old rule's words more closely
            p.n2o[k] = -1  # the far rule is free again
            p.o2n[i] = -1
            p.alternatives.pop(i, None)
            targets_of[i], sources_of[k] = [], []
        _take(p, i, j, "structure", targets_of, sources_of)


def pair_slot_rule_it_holds(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old rule goes to the free rule of its slot that it says nearly whole.

    A rule whose core statement was kept at its place while its exceptions moved into
    new sibling rules shares with the kept statement only the family's vocabulary (so
    :func:`pair_in_slot` finds no stem of their own) and is much longer than it (so no
    similarity of the whole texts is high). What tells them apart from a rule replaced
    at its place is that the old rule says nearly all the words of the new one: at
    least ``SLOT_HELD`` of the new rule's rare-word mass (IDF), as
    :func:`rulediff.matching._return_to_slot` asks of a weakly linked rule. The slot is
    where the old rule's matched neighbours put it (:func:`_between`); the new rule must
    lead the other free rules of the slot by ``SLOT_LEAD``, and the old rule must be the
    free old rule of the new rule's own slot that says it most, by the same lead (a
    sibling written on the same frame says as much of it and leaves both free). The
    pair passes the rescue pass's checks on a candidate."""

    targets_of, sources_of = _links(p, splits, merges)
    old, new, _index, idf = _weights(p)

    def held(i: int, j: int) -> float:
        """The share (IDF) of new ``j``'s stems that old ``i`` says."""
        total = new.mass[j]
        return math.fsum(idf[w] for w in new.stems[j] & old.stems[i]) / total if total else 0.0

    pairs = []
    for parent_id, kids_o in p.old_children.items():
        parent = p.old_by_place.get(parent_id) if parent_id is not None else None
        if parent is None:
            continue
        for po, i in enumerate(kids_o):
            if p.old[i].heading or targets_of.get(i):
                continue
            for q in targets_of.get(parent, ()):
                kids_n = p.new_children.get(p.new[q].place, [])
                slot = [
                    j
                    for j in _between(kids_o, kids_n, po, targets_of)
                    if not p.new[j].heading and not sources_of.get(j) and len(new.stems[j]) >= 3
                ]
                j = clear_best([(held(i, j), j) for j in slot], SLOT_HELD, SLOT_LEAD)
                if j is None:
                    continue
                back = [
                    a
                    for a in _between(kids_n, kids_o, kids_n.index(j), sources_of)
                    if not p.old[a].heading and not targets_of.get(a)
                ]
                if clear_best([(held(a, j), a) for a in back], SLOT_HELD, SLOT_LEAD) != i:
                    continue
                pairs.append((i, j))
    for i, j in pairs:
        if targets_of.get(i) or sources_of.get(j):
            continue
        if not p.same_topic(i, j) or p.defines_other(i, j) or p.on_new_frame(i, j):
            continue
        if _under_new_subject(p, j) or _written_for_new_subject(p, i, j):
            continue
        _take(p, i, j, "structure", targets_of, sources_of)


def _closer_once_swept(p: _Pairing, i: int, j: int) -> float:
    """How close new ``j`` is to old ``i`` with the pair's recurring wording changes
    applied to ``i`` (a renamed zone read by its new name)."""
    return fuzz.ratio(provenance.apply_sweeps(p.old[i].lower, p.sweeps), p.new[j].lower)


def clear_best(options: Sequence[tuple[float, int]], floor: float, margin: float) -> int | None:
    """The option scored at least ``floor`` and ahead of every other by more than
    ``margin`` (ties go to the lower index), else None: a pass links only where one
    candidate clearly wins, never on a near tie."""
    ranked = sorted(options, key=lambda t: (-t[0], t[1]))
    if not ranked or ranked[0][0] < floor:
        return None
    if len(ranked) > 1 and ranked[1][0] > ranked[0][0] - margin:
        return None
    return ranked[0][1]


def _between(
    mine: Sequence[int],
    theirs: Sequence[int],
    k: int,
    links: Mapping[int, list[int]],
    crossed_is_family: bool = False,
) -> list[int]:
    """The rules of ``theirs`` standing where ``mine[k]`` stood: after the counterpart
    of its nearest sibling before it that has one there (or from the first) and before
    that of its nearest sibling after it (or to the last). None when no sibling has a
    counterpart there (the family is all the place says) unless each is its family's
    only rule."""
    pos = {x: n for n, x in enumerate(theirs)}
    lo, hi = -1, len(theirs)
    for a in reversed(mine[:k]):
        found = [pos[x] for x in links.get(a, ()) if x in pos]
        if found:
            lo = max(found)
            break
    for a in mine[k + 1 :]:
        found = [pos[x] for x in links.get(a, ()) if x in pos]
        if found:
            hi = min(found)
            break
    if lo < 0 and hi == len(theirs) and (len(mine), len(theirs)) != (1, 1):
        return []
    if lo > hi and crossed_is_family:
        # The neighbours crossed (one of them moved past the other): their order says
        # nothing finer than the family, so the whole family stands there.
        return list(theirs)
    return list(theirs[lo + 1 : hi])


def _family_stems(
    nodes: Sequence[_Node], children: Mapping, stems: Sequence[frozenset[str]], top: int
) -> Counter:
    """How many rules of ``top``'s family (``top`` and all its subrules) say each stem."""
    return Counter(w for k in _with_subrules(children, nodes, [top]) for w in stems[k])


def _free_nearest(
    words: frozenset[str],
    postings: Mapping[str, Sequence[int]],
    idf: Mapping[str, float],
    free: set[int],
) -> set[int]:
    """The free texts of the other side sharing the most rare words (the word index's
    ``INDEX_CANDIDATES``): where a text's closest one is found."""
    votes = _votes(words, postings, idf)
    found = (b for b in votes if b in free)
    return set(heapq.nsmallest(INDEX_CANDIDATES, found, key=lambda b: (-votes[b], b)))


def _closest_plain(scores: Iterable[tuple[float, int]]) -> tuple[int, float, float] | None:
    """The closest of the ``(similarity, text)`` pairs: the text, its similarity and its
    lead on the next one (ties go to the earlier text)."""
    scored = sorted(((s, -b) for s, b in scores), reverse=True)
    if not scored or scored[0][0] <= 0.0:
        return None
    lead = scored[0][0] - (scored[1][0] if len(scored) > 1 else 0.0)
    return -scored[0][1], scored[0][0], lead


def _placed_ancestor(
    nodes: Sequence[_Node], by_place: Mapping[str, int], k: int, links: Mapping[int, list[int]]
) -> int | None:
    """The nearest ancestor of ``k`` that has a counterpart."""
    parent = nodes[k].parent
    while parent is not None and (a := by_place.get(parent)) is not None:
        if links.get(a):
            return a
        parent = nodes[a].parent
    return None


def lineage_of(nodes: Sequence[_Node], by_place: Mapping[str, int], k: int) -> set[int]:
    """``k`` and its ancestors (by place: a second printing's own parent)."""
    found = {k}
    parent = nodes[k].parent
    while parent is not None and (a := by_place.get(parent)) is not None:
        found.add(a)
        parent = nodes[a].parent
    return found
