"""The first matching passes: texts anchored, fuzzy candidates from a word-pair index
solved best-first, headings matched bottom-up by where their texts went, siblings paired
by their words, rules returned to their slots.

Why a module of its own: these passes pair rules by what each text says as a whole, and
the passes of :mod:`rulediff.sentences` build on what they paired by following where
each sentence went; :func:`rulediff.align.align` runs both, in order.
"""

from __future__ import annotations

import functools
import heapq
import itertools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable, Sequence

from rapidfuzz import fuzz

from . import provenance, rescue
from .classify import changes_meaning
from .lastused import LastUsed
from .matches import Method
from .pairing import (
    _UNIT_END,
    MIN_SIMILARITY,
    MIN_TOTAL,
    SLOT_HELD,
    SLOT_LEAD,
    _ancestor_places,
    _content_words,
    _heading_over,
    _in_own_section,
    _is_section,
    _Node,
    _opening,
    _Pairing,
    _says_title,
    _title_words,
    _written_for_new_subject,
)
from .textkeys import letter_words

#: A runner-up within this many points of the chosen pair makes the match ambiguous.
AMBIGUITY_MARGIN = 2.0
#: An unmatched rule whose number, parent and both neighbours all agree with an unmatched
#: new rule is its rewrite at this much similarity (e.g. a scope rule rewritten).
SAME_PLACE_SIMILARITY = 40.0
#: First fuzzy round: only confident pairs, so the second round sees their parents.
CONFIDENT_TOTAL = 80.0
#: A rule freed from a variant's copy of it takes a free new text this close to its own
#: (:func:`rulediff.sentences._pair_with_own_copy`).
WITHDRAWN_COPY = 80.0
#: Candidates per old text taken from the bigram index.
INDEX_CANDIDATES = 8
#: A bigram shared by more texts than this says nothing about identity.
MAX_POSTINGS = 60

#: A fuzzy pair below this similarity sharing no sentence gives way to where its
#: sentences went.
WEAK_FUZZY = 70.0

#: A sentence that this many changed new rules repeat word for word ("players may …" at
#: the end of every step) says nothing about where a rule came from.
COMMON_UNIT_RULES = 3


# --- matching -------------------------------------------------------------------------


def _anchor(
    p: _Pairing, old_idx: Iterable[int] | None = None, new_idx: Iterable[int] | None = None
) -> None:
    """Pair texts whose comparison key is unique on both sides (among ``old_idx`` and
    ``new_idx``; every text of a side without them)."""
    old_keys = _keyed_of(p.old) if old_idx is None else _keyed(p.old, old_idx)
    new_keys = _keyed_of(p.new) if new_idx is None else _keyed(p.new, new_idx)
    for key, olds in old_keys.items():
        news = new_keys.get(key)
        if news and len(olds) == 1 and len(news) == 1:
            p.pair(olds[0], news[0], 100.0, "anchor")


def _keyed(nodes: Sequence[_Node], members: Iterable[int]) -> dict[tuple[bool, str], list[int]]:
    """The nodes ``members`` by heading flag and comparison key, in order."""
    keyed: dict[tuple[bool, str], list[int]] = defaultdict(list)
    for k in members:
        keyed[(nodes[k].heading, nodes[k].key)].append(k)
    return keyed


def _all_keyed(nodes: Sequence[_Node]) -> dict[tuple[bool, str], list[int]]:
    return dict(_keyed(nodes, range(len(nodes))))


# Every node of an edition by key (read only): the anchors of its two pairings of a run.
_keyed_of = LastUsed(_all_keyed, size=6)


class _BigramIndex:
    """Inverted index from blocking features to new nodes (IDF-weighted votes)."""

    def __init__(self, nodes: Sequence[_Node], members: Iterable[int]) -> None:
        postings: dict[str, list[int]] = defaultdict(list)
        for j in members:
            for f in nodes[j].features():
                postings[f].append(j)
        #: Every feature of the indexed texts (also those too common to vote) and its
        #: texts. A feature held by at most ``MAX_POSTINGS`` texts gives each a vote of
        #: 1 / how many there are, worked out when a look-up asks for it: the look-ups
        #: read a few of the tens of thousands of features an index holds.
        self.postings = postings  # read with .get only: nothing is added

    def may_hold(self, feats: frozenset[str], share: float) -> bool:
        """False when fewer than ``share`` of ``feats`` are features of any indexed text:
        then no indexed text holds that share of them, and a look-up can be skipped."""
        return bool(feats) and len(self.postings.keys() & feats) / len(feats) >= share

    def top(self, feats: Iterable[str], k: int) -> list[int]:
        # A plain dict, not defaultdict(float): no factory call for each new text voted for.
        votes: dict[int, float] = {}
        vote = votes.get
        postings = self.postings
        for f in feats:
            posting = postings.get(f)
            if posting is not None and len(posting) <= MAX_POSTINGS:
                w = 1.0 / len(posting)
                for j in posting:
                    votes[j] = vote(j, 0.0) + w
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
            if base >= MIN_SIMILARITY and p.same_topic(i, j):
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
    p: _Pairing,
    pairs: dict[tuple[int, int], float],
    *,
    min_total: float,
    method: Method = "fuzzy",
    by_condition: bool = False,
) -> int:
    """Best-first global assignment over scored candidates; returns how many were paired.
    ``by_condition``: rules, where a weak link yields to a sibling keeping the old
    rule's opening condition (:func:`_opening_kept_by_sibling`)."""
    scored = [(base + p.bonus(i, j), base, i, j) for (i, j), base in pairs.items()]
    scored.sort(key=lambda t: (-t[0], -t[1], t[2], t[3]))
    by_old: dict[int, list[tuple[float, float, int]]] = defaultdict(list)
    by_new: dict[int, list[tuple[float, float, int]]] = defaultdict(list)
    for total, base, i, j in scored:
        by_old[i].append((total, base, j))
        by_new[j].append((total, base, i))
    made = 0
    # Old rules a free rule in their place keeps (:func:`_opening_kept_in_place`): no
    # weaker link out of place takes them in this round either.
    held_in_place: set[int] = set()
    for total, base, i, j in scored:
        if total < min_total:
            break
        if p.o2n[i] >= 0 or p.n2o[j] >= 0:
            continue
        rivals = [("new", k) for k in _rivals(by_old[i], p.n2o, j, total)]
        rivals += [("old", k) for k in _rivals(by_new[j], p.o2n, i, total)]
        if _rival_in_place(p, i, j, rivals):
            continue  # its rival, as close, stands where this one's parent went
        if by_condition and base < WEAK_FUZZY and _opening_kept_by_sibling(p, i, j):
            continue  # a free sibling keeps the old rule's condition: the grown rewrite
        if by_condition and base < CONFIDENT_TOTAL and _own_words_in_sibling(p, i, j, by_old[i]):
            continue  # a free parallel sibling says what sets the old rule apart
        if by_condition and base < WEAK_FUZZY and _sibling_says_all_and_more(p, i, j):
            continue  # a free sibling, however reworded, holds all the link's evidence
        home = p.mapped_parent(i) if by_condition and base < CONFIDENT_TOTAL else None
        if home is not None and home != p.new[j].parent:
            if i in held_in_place or _opening_kept_in_place(p, i, j, home):
                held_in_place.add(i)
                continue  # the rule grew where it stood; ``j`` says its statement elsewhere
        p.pair(i, j, round(base, 1), method, tuple(dict.fromkeys(rivals)))
        made += 1
    return made


#: An opening clause (up to the first comma or sentence end) of at least this many words
#: states a rule's condition; two such clauses this similar (edit ratio) are the same one,
#: and one below OPENING_OTHER is another condition.
OPENING_WORDS = 6
OPENING_KEPT = 85.0
OPENING_OTHER = 60.0


def _opening_kept_by_sibling(p: _Pairing, i: int, j: int) -> bool:
    """A weak link to new ``j`` while a free new rule under the counterpart of old
    ``i``'s parent opens on ``i``'s own condition, and ``j`` either stands there too but
    opens on another condition, or stands elsewhere and keeps less of it (then the free
    rule must be longer than ``i``: a shorter one may be a piece of a split whose other
    piece is ``j``). A rule is
    about its condition ("if an effect sets one player's total ..."); a rewrite that kept
    it in place but grew a paragraph scores lower on the whole text than an equal-length
    rule about something else, so the whole-text score is not to pick between them."""
    opening = _opening(p.old[i].lower)
    if not opening.startswith("if ") or len(opening.split()) < OPENING_WORDS:
        return False  # no condition stated ("at the start of a game" is a time)
    home = p.mapped_parent(i)
    if home is None:
        return False
    own = fuzz.ratio(opening, _opening(p.new[j].lower))
    in_place = p.new[j].parent == home
    if in_place and own >= OPENING_OTHER:
        return False
    for k in p.new_children.get(home, ()):
        if k != j and p.n2o[k] < 0 and not p.new[k].heading:
            if not in_place and len(p.new[k].lower) <= len(p.old[i].lower):
                # A piece keeping the opening (a split), not a grown rewrite: the link
                # elsewhere may be its other piece. Beside a sibling that opens on
                # another condition, though, the piece is the rule cut short.
                continue
            kept = fuzz.ratio(opening, _opening(p.new[k].lower))
            if kept >= OPENING_KEPT and kept > own:
                return True
    return False


#: Two sibling rules are a run written to one frame when the stems they share hold at
#: least this share (IDF) of the smaller one's stems.
PARALLEL_SHARED = 0.5
#: A free parallel sibling takes the old rule when the old rule's stems among that
#: sibling's own words (the ones the linked rule lacks) weigh at least this much (IDF)
#: more than its stems among the linked rule's own words. A sibling off the frame
#: takes it only when the linked rule's own words say none of the old rule's stems.
OWN_WORDS_LEAD = 3.0


def _own_words_in_sibling(
    p: _Pairing, i: int, j: int, options: list[tuple[float, float, int]]
) -> bool:
    """A link of old ``i`` to new ``j`` while a free sibling of ``j`` among ``i``'s
    candidates (``options``, at a total some round accepts), written to the same frame,
    says more of what sets it apart from ``j`` than ``j`` says of what sets ``j`` apart.
    In a run of parallel rules ("if an effect would add mana of this kind ...", "an
    ability that ... functions on the stack") the shared frame makes the whole-text
    score of every member close, and the members' own words (hybrid, modifies what it
    costs) tell which one the old rule is. A sibling that grew a clause may share under
    half its words with ``j``; it still takes the old rule when ``j`` says nothing of
    the old rule that the sibling does not (the sibling covers the link's evidence and
    says more). The pair is left for the sibling, later in the best-first order."""
    parent = p.new[j].parent
    free = [
        k
        for total, _base, k in options
        if k != j and p.n2o[k] < 0 and p.new[k].parent == parent and total >= MIN_TOTAL
    ]
    if not free:
        return False
    old, new, _index, idf = rescue._weights(p)  # computed once per pairing, kept
    said, linked = old.stems[i], new.stems[j]
    for k in free:
        sibling = new.stems[k]
        says_linked = math.fsum(idf[w] for w in said & (linked - sibling))
        says_sibling = math.fsum(idf[w] for w in said & (sibling - linked))
        if says_sibling < says_linked + OWN_WORDS_LEAD:
            continue
        frame = math.fsum(idf[w] for w in linked & sibling)
        if frame >= PARALLEL_SHARED * min(new.mass[j], new.mass[k]) or not says_linked:
            return True  # one frame, or the sibling says all the link shares and more
    if any(_variant_words_lead(p, i, j, k) for k in free):
        p.other_variants.add((i, j))
        return True
    return False


def _opening_kept_in_place(p: _Pairing, i: int, j: int, home: str) -> bool:
    """New ``j``, outside ``home`` (the counterpart of old ``i``'s parent), keeps ``i``'s
    first sentence (:data:`provenance.SENTENCE_KEPT`, sentences of comparable length), and so
    does a free rule under ``home``, at least as well. The rule grew where it stood
    (more cases, more sentences: its whole-text score fell under the candidate floor),
    and ``j`` says its statement again for another place: the multiplayer rule on "a
    defending player" kept, grown, under Attack Multiple Players, and said once more,
    opening "In a multiplayer game", among the declare-attackers rules. The same
    statement in two places stays with its place (as :func:`_rival_in_place` keeps an
    old text with its step); the pair is left for the passes that read place. A piece
    of a split keeps another sentence, not the first: never refused here."""
    units = rescue._sentences(p.old[i])
    if not units:
        return False
    first = units[0]

    def kept(k: int) -> float:
        return max(
            (
                fuzz.token_set_ratio(first, unit)
                for unit in rescue._sentences(p.new[k])
                if rescue._comparable(first, unit)
            ),
            default=0.0,
        )

    elsewhere = kept(j)
    if elsewhere < provenance.SENTENCE_KEPT:
        return False
    return any(
        k != j and p.n2o[k] < 0 and not p.new[k].heading and kept(k) >= elsewhere
        for k in p.new_children.get(home, ())
    )


def _sibling_says_all_and_more(p: _Pairing, i: int, j: int) -> bool:
    """A weak link of old ``i`` to new ``j`` while a free sibling of ``j`` says every
    stem of ``i`` that ``j`` says and more of ``i`` besides (by :data:`OWN_WORDS_LEAD`,
    IDF). The whole-text score of a reworded rule can fall below the candidate floor
    while a sibling about the converse case, or a shorter neighbour, keeps more of the
    old letters; what the link rests on then tells nothing the sibling does not, and the
    old rule's other words point to the sibling. :func:`_own_words_in_sibling` reads only
    siblings among the candidates; this reads them all, and only the case where ``j``
    says nothing of ``i`` the sibling lacks, and the sibling is the closer of the two by
    words over both texts (a long rule holding a short one's words is not closer). The
    pair is left (a later pass may place ``i`` by its words)."""
    old, new, _index, idf = rescue._weights(p)  # computed once per pairing, kept
    said, linked = old.stems[i], new.stems[j]

    def words_closeness(x: int) -> float:
        """Shared stems (IDF) over the two rules' stems together (a weighted Dice)."""
        shared = math.fsum(idf[w] for w in said & new.stems[x])
        return 2 * shared / ((old.mass[i] + new.mass[x]) or 1.0)

    for k in p.new_children.get(p.new[j].parent, ()):
        if k == j or p.n2o[k] >= 0 or p.new[k].heading:
            continue
        sibling = new.stems[k]
        if said & linked - sibling:
            continue  # ``j`` says something of ``i`` the sibling does not
        if math.fsum(idf[w] for w in said & (sibling - linked)) < OWN_WORDS_LEAD:
            continue
        if words_closeness(k) > words_closeness(j):
            return True  # not merely a long rule that happens to hold the words
    return False


def _variant_words_lead(p: _Pairing, i: int, j: int, k: int) -> bool:
    """Old ``i`` is one variant of a run in its own edition ("[keyword] [quality]" beside
    "[keyword]" and its other rules), and new ``k``, a sibling of new ``j``, is that
    variant rather than ``j``. Most of what ``i`` says (at least
    :data:`PARALLEL_SHARED` of its IDF) its old siblings say too: the run's template,
    which tells no variant from another. What sets ``i`` apart is its variant words, the
    stems none of its old siblings say; in the new run a variant word said by one member
    only names that member. ``k`` is the variant when the variant words only it says
    outweigh (by :data:`OWN_WORDS_LEAD`) those only ``j`` says. An old rule with no
    siblings has no template to set apart: never so."""
    siblings = [
        s for s in p.old_children.get(p.old[i].parent, ()) if s != i and not p.old[s].heading
    ]
    if not siblings:
        return False
    old, new, _index, idf = rescue._weights(p)  # computed once per pairing, kept
    variant = old.stems[i] - set().union(*(old.stems[s] for s in siblings))
    if old.mass[i] - math.fsum(idf[w] for w in variant) < PARALLEL_SHARED * old.mass[i]:
        return False  # mostly its own words: not a variant on a run's template
    run = [m for m in p.new_children.get(p.new[j].parent, ()) if not p.new[m].heading]

    def only_in(m: int) -> float:
        others = set().union(*(new.stems[x] for x in run if x != m))
        return math.fsum(idf[w] for w in variant & new.stems[m] - others)

    return only_in(k) >= only_in(j) + OWN_WORDS_LEAD


def _other_variant(p: _Pairing, i: int, x: int) -> bool:
    """New ``x`` is another variant of old ``i``'s run, turned away from ``i`` by ``i``'s
    variant words (:func:`_own_words_in_sibling`): written on the template ``i`` shares
    with it ("equip planeswalker" beside "equip [quality]"), it is no piece of ``i``."""
    return (i, x) in p.other_variants


#: A link resting on a sibling frame is left when the old rule's words missing from the
#: new rule weigh (IDF) at least this share of the words they share.
FRAME_LEFT_OUT = 0.5


def _rests_on_sibling_frame(p: _Pairing, i: int, j: int) -> bool:
    """A link of old ``i`` to new ``j`` away from ``i``'s place (its parent is matched,
    ``j`` stands under another parent) whose every shared word a sibling of ``j`` says
    too, while ``i`` leaves much of itself out of ``j``. A run of
    parallel rules repeats one clause ("... that much of this kind of mana is added to
    that player's pool") for case after case; an old rule of another section that ends
    on the same clause meets the whole run alike, and none of the words that set it
    apart (it leaves out at least :data:`FRAME_LEFT_OUT` of what it shares). The
    clause says nothing of where the old rule went: the link is left."""
    home = p.mapped_parent(i)
    parent = p.new[j].parent
    if home is None or parent is None or home == parent:
        return False
    old, new, _index, idf = rescue._weights(p)  # computed once per pairing, kept
    shared = old.stems[i] & new.stems[j]
    kept = math.fsum(idf[w] for w in shared)
    if old.mass[i] - kept < FRAME_LEFT_OUT * kept:
        return False  # ``j`` says nearly all ``i`` says: a member of the run, reworded
    return any(
        k != j and not p.new[k].heading and shared <= new.stems[k]
        for k in p.new_children.get(parent, ())
    )


def _rival_in_place(p: _Pairing, i: int, j: int, rivals: list[tuple[str, int]]) -> bool:
    """New ``j`` would take old ``i`` from a parent matched elsewhere while another old
    text about as close stands in place (its parent's counterpart is ``j``'s parent).
    The same sentence in two steps ("Second, the active player gets priority") stays
    with its step: the pair ``(i, j)`` is left for the rival's, later in the best-first
    order."""
    mapped = p.mapped_parent(i)
    here = p.new[j].parent
    if mapped is None or mapped == here:
        return False
    return any(side == "old" and p.mapped_parent(k) == here for side, k in rivals)


def _match_by_children(p: _Pairing) -> None:
    """Pair unmatched parents whose matched children went to one unmatched new parent.

    A heading renamed outright, or a rule rewritten while its subrules kept their text
    ("Third, the active player gets priority…" → "Fourth, …" with 505.5a → 505.6a), is
    found by where its children went; a rule (not a heading) must still resemble it.
    """
    free_new = {p.new[j].place: j for j, n in enumerate(p.new) if p.n2o[j] < 0}
    pairs: list[tuple[float, int, int]] = []
    for i, node in enumerate(p.old):
        if p.o2n[i] >= 0:
            continue
        kids = p.old_children.get(node.place, [])
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


#: GumTree's container threshold: a heading goes where at least this share (Dice) of its
#: texts went.
CONTAINER_DICE = 0.5
#: ... and at least this share when its title is unlike the other heading's.
RENAMED_HEADING_DICE = 0.67
#: A heading none of whose texts was matched may still be paired on a title this close.
TITLE_ONLY_SIMILARITY = 90.0


def _descendant_texts(p: _Pairing) -> tuple[Counter, Counter]:
    """How many non-heading texts sit under each old and each new heading."""
    if p.descendant_counts is not None:
        return p.descendant_counts
    old_n: Counter = Counter()
    new_n: Counter = Counter()
    for i, heads in enumerate(p.old_heads):
        if not p.old[i].heading:
            old_n.update(heads)
    for j, heads in enumerate(p.new_heads):
        if not p.new[j].heading:
            new_n.update(heads)
    p.descendant_counts = (old_n, new_n)
    return old_n, new_n


def _match_headings(p: _Pairing) -> None:
    """Headings matched bottom-up by where their texts went (GumTree container matching).

    Every heading pairing made so far is dropped and redone: a heading goes to the new
    heading holding the largest share (Dice) of its matched texts, the title breaking
    ties. A section goes only to a section. A heading whose texts went nowhere may keep a
    title match, if the other heading's texts did not come from elsewhere either and
    their parents correspond or the title is unique on both sides; so a "General" of
    one chapter is not paired with the "General" of another.
    """
    for i, node in enumerate(p.old):
        if node.heading and p.o2n[i] >= 0:
            p.n2o[p.o2n[i]] = -1
            p.o2n[i] = -1
            p.score.pop(i, None)
            p.method.pop(i, None)
            p.alternatives.pop(i, None)
    to_texts = _match_headings_to_texts(p)
    old_n, new_n = _descendant_texts(p)
    # Matched texts counted by their two chains of headings first: siblings share one,
    # so the heading pairs are counted once per chain pair, not once per text.
    chains: Counter = Counter()
    for i, j in enumerate(p.o2n):
        if j >= 0 and not p.old[i].heading:
            chains[(p.old_heads[i], p.new_heads[j])] += 1
    shared: Counter = Counter()
    old_matched: Counter = Counter()
    new_matched: Counter = Counter()
    for (old_heads, new_heads), c in chains.items():
        for h in old_heads:
            old_matched[h] += c
            for g in new_heads:
                shared[(h, g)] += c
        for g in new_heads:
            new_matched[g] += c
    scored: list[tuple[float, float, int, int]] = []
    for (h, g), c in shared.items():
        if _is_section(p.old[h]) != _is_section(p.new[g]):
            continue
        # Dice over the *matched* texts: what was added or removed says nothing.
        dice = 2 * c / (old_matched[h] + new_matched[g])
        share = c / old_matched[h]
        if dice < CONTAINER_DICE and not (share >= 0.75 and c / new_matched[g] >= 0.25):
            continue
        title = fuzz.ratio(p.old[h].lower, p.new[g].lower)
        if title < MIN_SIMILARITY and (c < 3 or dice < RENAMED_HEADING_DICE):
            continue  # a heading renamed outright needs more evidence
        scored.append((round(dice, 2), title, h, g))
    scored.sort(key=lambda t: (-t[0], -t[1], t[2], t[3]))
    for _dice, title, h, g in scored:
        if p.o2n[h] < 0 and p.n2o[g] < 0:
            p.pair(h, g, round(title, 1), "structure")
    _match_renamed_topics(p, old_n)
    # Title-only: neither heading's texts were matched anywhere.
    olds = [i for i, n in enumerate(p.old) if n.heading and p.o2n[i] < 0 and not old_matched[i]]
    news = [j for j, n in enumerate(p.new) if n.heading and p.n2o[j] < 0 and not new_matched[j]]
    old_titles, new_titles = _heading_titles_of(p.old), _heading_titles_of(p.new)
    pairs: list[tuple[float, int, int]] = []
    for i in olds:
        for j in news:
            if _is_section(p.old[i]) != _is_section(p.new[j]):
                continue
            title = fuzz.ratio(p.old[i].lower, p.new[j].lower)
            if title < TITLE_ONLY_SIMILARITY:
                continue
            unique = old_titles[p.old[i].lower] == 1 and new_titles[p.new[j].lower] == 1
            if unique or p.mapped_parent(i) == p.new[j].parent:
                pairs.append((title, i, j))
    pairs.sort(key=lambda t: (-t[0], t[1], t[2]))
    for title, i, j in pairs:
        if p.o2n[i] < 0 and p.n2o[j] < 0:
            p.pair(i, j, round(title, 1), "fuzzy" if title < 100 else "anchor")
    _into_heading(p, to_texts)


def _heading_titles(nodes: Sequence[_Node]) -> Counter:
    """How many headings of an edition have each title."""
    return Counter(node.lower for node in nodes if node.heading)


# Read only, kept for the next pairing of a run (three times a pairing, both sides).
_heading_titles_of = LastUsed(_heading_titles, size=6)


def _match_headings_to_texts(p: _Pairing) -> list[int]:
    """A titled subrule whose subrules now sit under one rule with text (the old "Actions
    That Don't Use the Stack" heading, whose items are now listed under a rule saying
    that some things don't use the stack) is that rule: at least two of its children
    and three quarters of its matched ones went there. Returns the headings paired."""
    paired: list[int] = []
    for h, node in enumerate(p.old):
        if not node.heading or p.o2n[h] >= 0 or _is_section(node):
            continue
        votes = Counter(
            p.new[p.o2n[k]].parent for k in p.old_children.get(node.place, ()) if p.o2n[k] >= 0
        )
        if not votes:
            continue
        (target, count), total = votes.most_common(1)[0], sum(votes.values())
        j = p.new_by_place.get(target) if target is not None else None
        if j is None or p.new[j].heading or p.n2o[j] >= 0:
            continue
        if count >= 2 and count >= 0.75 * total and _says_title(p, h, j):
            p.pair(h, j, round(fuzz.ratio(node.lower, p.new[j].lower), 1), "structure")
            paired.append(h)
    return paired


def _into_heading(p: _Pairing, headings: Iterable[int]) -> None:
    """An old heading paired with a rule that has a body (by
    :func:`_match_headings_to_texts`, the only step pairing a heading so) goes instead to
    the free heading that rule stands under, when that heading is titled like it
    (:func:`_heading_over`)."""
    for h in headings:
        j = p.o2n[h]
        if j < 0 or p.new[j].heading:
            continue
        g = _heading_over(p, h, j)
        if g >= 0 and p.n2o[g] < 0:
            p.n2o[j] = -1
            p.pair(h, g, round(fuzz.ratio(p.old[h].lower, p.new[g].lower), 1), "structure")


#: Renamed topic: at least this many texts under it resemble texts under the new one.
RENAME_MIN_TEXTS = 2
RENAME_SIMILARITY = 70.0


def _match_renamed_topics(p: _Pairing, old_n: Counter) -> None:
    """Pair two free short headings when several of their texts were held apart only
    because one names the first heading's words where the other names the second's:
    a keyword, zone or step renamed ("in play" → "battlefield")."""
    votes: dict[tuple[int, int], set[int]] = defaultdict(set)
    for (i, j), base in p.ratio_cache.items():
        if base < RENAME_SIMILARITY or p.o2n[i] >= 0 or p.n2o[j] >= 0:
            continue
        h, g = p.old_topic[i], p.new_topic[j]
        if h < 0 or g < 0 or p.o2n[h] >= 0 or p.n2o[g] >= 0:
            continue
        if _title_words(p.old[h].lower) and _title_words(p.new[g].lower):
            votes[(h, g)].add(i)
    ranked = sorted(
        ((len(v), h, g) for (h, g), v in votes.items()),
        key=lambda t: (-t[0], t[1], t[2]),
    )
    for n, h, g in ranked:
        if n >= RENAME_MIN_TEXTS and 2 * n >= old_n[h] and p.o2n[h] < 0 and p.n2o[g] < 0:
            p.pair(h, g, round(fuzz.ratio(p.old[h].lower, p.new[g].lower), 1), "structure")


def _free(p: _Pairing) -> tuple[list[int], list[int]]:
    return [i for i, j in enumerate(p.o2n) if j < 0], [j for j, i in enumerate(p.n2o) if i < 0]


def _match_rules(p: _Pairing) -> None:
    """Anchors, then rounds of texts and headings so each round sees the last one's parents."""
    _anchor(p)
    _olds, news = _free(p)
    index = _BigramIndex(p.new, news)

    def texts(min_total: float) -> None:
        olds, news = _free(p)
        old_texts = [i for i in olds if not p.old[i].heading]
        new_texts = [j for j in news if not p.new[j].heading]
        _solve(
            p, _candidates(p, old_texts, new_texts, index), min_total=min_total, by_condition=True
        )

    def headings() -> None:
        _match_by_children(p)
        _match_headings(p)

    texts(CONFIDENT_TOTAL)
    headings()
    texts(MIN_TOTAL)
    headings()
    texts(MIN_TOTAL)
    _match_by_children(p)
    _match_same_place(p)


def _uncross_weak_pairs(p: _Pairing) -> None:
    """Two weak text matches (below :data:`WEAK_FUZZY`) between siblings, crossed: each
    old rule's words (token-set similarity, which ignores their order) are closer to the
    other one's new rule. Their letters were tied to a frame the rules share (the same
    opening words), and best-first matching let the rule most like the frame take it;
    each old rule goes to the new rule its words say.

    For two sibling symbols of the old editions: the rule that numerals are generic mana
    costs, and the rule that numerals and variables can also stand for colorless mana.
    The later editions open their generic-costs rule with the second rule's subject
    words, and the first rule's letters then fell nearer the colorless symbol's rule."""
    weak: dict[tuple[str | None, str | None], list[int]] = defaultdict(list)
    for i, j in enumerate(p.o2n):
        if j >= 0 and p.method.get(i) == "fuzzy" and p.score.get(i, 100.0) < WEAK_FUZZY:
            weak[(p.old[i].parent, p.new[j].parent)].append(i)
    words = fuzz.token_set_ratio
    uncrossed: set[int] = set()
    for group in weak.values():
        for i, k in itertools.combinations(group, 2):
            if i in uncrossed or k in uncrossed:
                continue
            j, m = p.o2n[i], p.o2n[k]
            oi, ok, nj, nm = p.old[i].lower, p.old[k].lower, p.new[j].lower, p.new[m].lower
            if words(oi, nm) <= words(oi, nj) or words(ok, nj) <= words(ok, nm):
                continue
            if not (p.same_topic(i, m) and p.same_topic(k, j)):
                continue
            p.pair(i, m, round(fuzz.ratio(oi, nm), 1), "fuzzy")
            p.pair(k, j, round(fuzz.ratio(ok, nj), 1), "fuzzy")
            p.alternatives.pop(i, None)
            p.alternatives.pop(k, None)
            uncrossed.update((i, k))


#: A free rule in the gap between two matched siblings is the other free rule there at
#: this similarity (the best of several at GAP_SIMILARITY_MANY).
GAP_SIMILARITY_ONE = 55.0
GAP_SIMILARITY_MANY = 60.0


def _match_gaps(p: _Pairing) -> None:
    """Pair rewritten rules by place: under corresponding parents, between siblings
    matched to each other (or at the same end), the free old rule goes to the free new
    rule of the gap (the closest one, if there are several), as a line diff does."""
    for parent, kids in p.old_children.items():
        if parent is None:
            continue
        k = p.old_by_place.get(parent)
        if k is None or p.o2n[k] < 0:
            continue
        new_kids = p.new_children.get(p.new[p.o2n[k]].place, [])
        pos = {j: n for n, j in enumerate(new_kids)}
        for n, i in enumerate(kids):
            if p.o2n[i] >= 0 or p.old[i].heading:
                continue
            lo = -1
            if n > 0:
                prev = p.o2n[kids[n - 1]]
                if prev not in pos:
                    continue
                lo = pos[prev]
            hi = len(new_kids)
            if n + 1 < len(kids):
                nxt = p.o2n[kids[n + 1]]
                if nxt not in pos:
                    continue
                hi = pos[nxt]
            gap = [j for j in new_kids[lo + 1 : hi] if p.n2o[j] < 0 and not p.new[j].heading]
            if not gap:
                continue
            scored = sorted(
                ((fuzz.ratio(p.old[i].lower, p.new[j].lower), j) for j in gap),
                key=lambda t: (-t[0], t[1]),
            )
            best, j = scored[0]
            floor = GAP_SIMILARITY_ONE if len(gap) == 1 else GAP_SIMILARITY_MANY
            if best >= floor and p.same_topic(i, j):
                p.pair(i, j, round(best, 1), "structure")


#: Under corresponding parents, a free rule is the free sibling holding this share of its
#: content words (the pair's wording sweeps applied) ...
SIBLING_WORDS = 0.7
#: Two rules that are each other's best fit need only be this far ahead of the rest.
MUTUAL_MARGIN = 0.05
#: An ancestor with more free rules under it than this is too broad to say "in place".
SIBLING_MAX = 40
#: ... ahead of the next free sibling by this much (else the text does not decide).
SIBLING_MARGIN = 0.15


def _match_siblings_by_words(p: _Pairing, sweeps: Iterable[tuple[str, str]]) -> None:
    """A rule rewritten in place keeps its vocabulary: under the new counterpart of its
    parent, the free rule that holds most of its content words, clearly ahead of the
    other free rules there, is its rewrite."""
    ordered = provenance.longest_first(
        (a.lower(), b.lower()) for a, b in sweeps if not changes_meaning(a, b)
    )
    under: dict[str, list[int]] = defaultdict(list)
    for j, new_node in enumerate(p.new):
        if p.n2o[j] >= 0 or new_node.heading:
            continue
        for place in _ancestor_places(p.new, p.new_by_place, j):
            under[place].append(j)
    found: list[tuple[float, int, int]] = []
    options_of_old: dict[int, list[tuple[float, int]]] = defaultdict(list)
    options_of_new: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for i, node in enumerate(p.old):
        if p.o2n[i] >= 0 or node.heading or node.parent is None:
            continue
        parent, target = node.parent, None
        while parent is not None:  # the nearest matched ancestor's counterpart
            k = p.old_by_place.get(parent)
            if k is None:
                break
            if p.o2n[k] >= 0:
                target = p.new[p.o2n[k]].place
                break
            parent = p.old[k].parent
        if target is None or len(under.get(target, ())) > SIBLING_MAX:
            continue
        mine = _content_words(provenance.apply_sweeps(node.lower, ordered))
        if len(mine) < 4:
            continue
        for j in under.get(target, ()):
            if p.n2o[j] < 0 and p.same_topic(i, j):
                share = len(mine & _content_words(p.new[j].lower)) / len(mine)
                if share >= SIBLING_WORDS - SIBLING_MARGIN:
                    options_of_old[i].append((share, j))
                    options_of_new[j].append((share, i))

    def clear_best(options: list[tuple[float, int]], margin: float) -> int | None:
        return rescue.clear_best(options, SIBLING_WORDS, margin)

    for i, options in sorted(options_of_old.items()):
        # Clearly ahead of the other free rules there, or at least each other's best
        # (front face ↔ front face, back face ↔ back face).
        j = clear_best(options, SIBLING_MARGIN)
        if j is None:
            j = clear_best(options, MUTUAL_MARGIN)
            if j is None or clear_best(options_of_new[j], MUTUAL_MARGIN) != i:
                continue
        elif clear_best(options_of_new[j], 0.0) != i:
            continue  # another old rule wants it as much: leave both
        if _written_for_new_subject(p, i, j):
            continue  # shared words, but a rule for a subject the old edition lacks
        found.append((max(s for s, k in options if k == j), i, j))
    found.sort(key=lambda t: (-t[0], t[1], t[2]))
    for _share, i, j in found:
        if p.o2n[i] < 0 and p.n2o[j] < 0:
            p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "structure")


def _slot(p: _Pairing, i: int) -> list[int]:
    """The free new rules where old ``i``'s matched neighbours say it belongs: under its
    parent's counterpart, between the counterparts of its nearest matched siblings
    before and after it (or that parent's first or last child)."""
    node = p.old[i]
    if node.parent is None:
        return []
    target = p.mapped_parent(i)
    if target is None:
        return []
    kids_o, kids_n = p.old_children[node.parent], p.new_children.get(target, [])
    pos = {j: n for n, j in enumerate(kids_n)}
    po = p.old_sibling_pos[i]
    lo = next((pos[p.o2n[k]] for k in reversed(kids_o[:po]) if p.o2n[k] in pos), -1)
    hi = next((pos[p.o2n[k]] for k in kids_o[po + 1 :] if p.o2n[k] in pos), len(kids_n))
    return [j for j in kids_n[lo + 1 : hi] if p.n2o[j] < 0 and not p.new[j].heading]


def _return_to_slot(p: _Pairing) -> None:
    """Undo a weak text match (below :data:`WEAK_FUZZY`) that carries a rule out of its
    own section when the slot its matched neighbours point to holds a free rule made of
    the old rule's words (:data:`SLOT_HELD` of its rare words, :data:`SLOT_LEAD` more
    than the linked rule's): the old rule goes there. The far rule shared a stock list
    of nouns or a sibling's frame; the free rule in place says what the old one did,
    shorter or reworded (an object's timestamp, subtypes in general, a renamed variant's
    starting life)."""
    weak = [
        i
        for i, j in enumerate(p.o2n)
        if j >= 0
        and not p.old[i].heading
        and p.method.get(i) == "fuzzy"
        and p.score.get(i, 100.0) < WEAK_FUZZY
        and not _in_own_section(p, i, j)
    ]
    if not weak:
        return
    old, new, _index, idf = rescue._weights(p)  # computed once per pairing, kept

    def held(i: int, k: int) -> float:
        """The share (IDF) of new ``k``'s words that old ``i`` says."""
        total = new.mass[k]
        return math.fsum(idf[w] for w in new.stems[k] & old.stems[i]) / total if total else 0.0

    for i in weak:
        j = p.o2n[i]
        slot = [k for k in _slot(p, i) if len(new.stems[k]) >= 3 and p.same_topic(i, k)]
        if not slot:
            continue
        k = min(slot, key=lambda k: (-held(i, k), k))  # the slot rule most made of ``i``
        share = held(i, k)
        if share < SLOT_HELD or share < held(i, j) + SLOT_LEAD:
            continue
        p.n2o[j] = -1  # the far rule is free again
        p.alternatives.pop(i, None)
        p.pair(i, k, round(fuzz.ratio(p.old[i].lower, p.new[k].lower), 1), "structure")


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
        if base >= SAME_PLACE_SIMILARITY and _shares_own_content(p, i, j):
            p.pair(i, j, round(base, 1), "structure")


def _shares_own_content(p: _Pairing, i: int, j: int) -> bool:
    """The two texts share a content word besides their headings' titles, their opening
    words ("Second, ...": the slot) and the stock sentences of their editions (a
    sentence several rules say word for word, as every turn-based step says it does not
    use the stack): a new step written in a dropped step's slot shares only those."""
    titles = [p.old[h].lower for h in p.old_heads[i]] + [p.new[h].lower for h in p.new_heads[j]]
    frame = frozenset().union(*map(_content_words, titles))
    mine = _own_sentence_words(p.old[i].lower, _all_texts_of(p.old))
    theirs = _own_sentence_words(p.new[j].lower, _all_texts_of(p.new))
    return bool((mine & theirs) - frame)


def _own_sentence_words(lower: str, edition_text: str) -> frozenset[str]:
    """The content words of a text's sentences that are not stock ones (said word for
    word at least :data:`COMMON_UNIT_RULES` times in the edition), its first word left
    out."""
    kept = " ".join(s for s in _plain_sentences(lower) if edition_text.count(s) < COMMON_UNIT_RULES)
    return _content_words(kept) - set(letter_words(lower)[:1])


_ASIDE = re.compile(r"\([^()]*\)")


@functools.lru_cache(maxsize=1 << 12)
def _plain_sentences(lower: str) -> tuple[str, ...]:
    """A text's units (:data:`_UNIT_END`) without its asides in parentheses ("(see rule …)")."""
    return tuple(s.strip() for s in _UNIT_END.split(_ASIDE.sub(" ", lower)) if s.strip())


def _all_texts(nodes: list[_Node]) -> str:
    """Every rule text of an edition in one string, to count a sentence's copies (a
    search in one string costs less than cutting every rule into sentences)."""
    return "\n".join(node.lower for node in nodes if not node.heading)


# One edition's alone: kept for the next pairing of a run.
_all_texts_of = LastUsed(_all_texts)
