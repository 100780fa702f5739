"""The passes that follow sentences: rules paired, split and merged by where their
sentences went (:mod:`rulediff.provenance` links the sentences), and the splits, merges
and copies found by one text holding another.

Why a module of its own: every pass here reads the sentence links of one pairing
(:class:`_Provenance`) on top of what :mod:`rulediff.matching` paired;
:func:`rulediff.align.align` runs them in order.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Iterator, Mapping, Sequence

from rapidfuzz import fuzz, process

from . import provenance, rescue
from .classify import (
    _word_for_word,
    changes_meaning,
)
from .clauses import list_lead, lists
from .lastused import LastUsed
from .matching import (
    _ASIDE,
    COMMON_UNIT_RULES,
    CONFIDENT_TOTAL,
    WEAK_FUZZY,
    WITHDRAWN_COPY,
    _BigramIndex,
    _free,
    _other_variant,
    _plain_sentences,
    _rests_on_sibling_frame,
)
from .pairing import (
    _ALNUM_WORD,
    _FUNCTION_WORDS,
    _UNIT_END,
    COPY_SIMILARITY,
    FRAME_MARGIN,
    GRAFT_WORDS,
    MIN_TOTAL,
    _ancestor_places,
    _content_stems,
    _content_stems_of,
    _content_words,
    _holds_run,
    _in_own_section,
    _is_section,
    _names_new_subject,
    _Node,
    _opens_with_new_subject,
    _Pairing,
    _piece_for_new_subject,
    _restated_for_new_subject,
    _root,
    _runs,
    _said_by_sibling,
    _title_words,
    _under_new_subject,
    _word_list,
    _words,
    _written_for_new_subject,
)
from .textkeys import (
    comparison_key,
    letter_words,
    placeholder_references,
    references,
)
from .worddiff import word_opcodes

# --- sentences --------------------------------------------------------------------------


#: A rule went where at least this share of its text (by characters) went.
SENTENCE_SHARE = 0.45
#: ... and its sentences must make up at least this share of the receiving rule.
SENTENCE_RECEIVED = 0.15
#: Two places holding a rule's sentences this equally (shares summed) are a tie.
SENTENCE_MARGIN = 0.2
#: A piece of a split (or a source of a merge) is a rule made mostly of the other's text.
PIECE_SHARE = 0.5


def _grouped(
    splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> tuple[set[int], set[int]]:
    """The new rules that are pieces of a split, and the old rules that are sources of a
    merge (fresh sets: the passes add to them as they group more)."""
    return (
        {j for group in splits.values() for j in group},
        {i for group in merges.values() for i in group},
    )


def _in_place(p: _Pairing, i: int, j: int) -> bool:
    """New ``j`` lies under the counterpart of old ``i``'s nearest matched ancestor."""
    top = _place_of(p, i)
    return top >= 0 and _new_under(p, j, p.new[top].place)


def _new_under(p: _Pairing, j: int, target: str) -> bool:
    """New node ``j`` is a descendant of the new rule whose place is ``target``."""
    return target in _ancestor_places(p.new, p.new_by_place, j)


def _kept(p: _Pairing, i: int) -> bool:
    """Old node ``i`` is paired with a new node of the very same comparison key."""
    j = p.o2n[i]
    return j >= 0 and p.old[i].key == p.new[j].key


def _stock_keys(units: Iterable[provenance.Unit]) -> set[str]:
    owners: dict[str, set[int]] = defaultdict(set)
    for u in units:
        owners[u.key].add(u.owner)
    return {key for key, found in owners.items() if len(found) >= COMMON_UNIT_RULES}


#: A sentence that another rule's sentence fits within this many points (0–100) is a
#: template written for several subjects.
TEMPLATE_MARGIN = 5.0


def _within_topics(
    p: _Pairing,
    links: list[provenance.Link],
    old_units: Sequence[provenance.Unit],
    old_keys: Sequence[str],
    new_units: Sequence[provenance.Unit],
) -> list[provenance.Link]:
    """The links without the template sentences that cross from one keyword, step or
    zone to another: a sentence not kept word for word, naming its own heading's words
    where the other names its heading's, that fits a sentence of yet another rule about
    as well ("multiple instances of … are redundant", written for every keyword) is the
    other keyword's sentence, not this one's. A sentence of a renamed heading ("removed
    from the game" → "exile") fits its own new sentence alone, and stays linked. The
    rivals are read among every rule of the new edition, kept ones too: whether a
    sentence is a stock frame is a fact of the edition, not of which rules the pair
    changed (another keyword's redundancy sentence kept word for word still says so)."""
    new_owners: list[int] | None = None
    new_keys: list[str] = []
    out = []
    for link in links:
        i, j = old_units[link.old].owner, new_units[link.new].owner
        if link.score < 100.0 and not p.same_topic(i, j):
            if new_owners is None:
                new_owners = []
                for k, node in enumerate(p.new):
                    if not node.heading:
                        for key in provenance.unit_keys(node.text):
                            new_owners.append(k)
                            new_keys.append(key)
            rivals = process.extract_iter(
                old_keys[link.old],
                new_keys,
                scorer=fuzz.ratio,
                score_cutoff=link.score - TEMPLATE_MARGIN,
            )
            if any(new_owners[k] != j for _key, _score, k in rivals):
                continue
        out.append(link)
    return out


class _Provenance:
    """Unit links between the rule texts of a pairing, summed per pair of rules."""

    def __init__(self, p: _Pairing, sweeps: Iterable[tuple[str, str]]) -> None:
        ordered = provenance.longest_first(sweeps)
        # A rule paired with its exact text kept all its sentences and took none: only
        # the others are cut into units (a neighbouring pair then costs almost nothing).
        self.old_units = [
            u
            for i, n in enumerate(p.old)
            if not n.heading and not _kept(p, i)
            for u in provenance.units(i, n.text)
        ]
        self.new_units = [
            u
            for j, n in enumerate(p.new)
            if not n.heading and not (p.n2o[j] >= 0 and _kept(p, p.n2o[j]))
            for u in provenance.units(j, n.text)
        ]
        if ordered == p.sweeps:  # the pairing's sweeps (as align sets them): its memo
            keys = [p.swept(u.key) for u in self.old_units]
        else:
            keys = [provenance.apply_sweeps(u.key, ordered) for u in self.old_units]
        # A word swapped for another in many rules ("permanent" → "object") is not swapped
        # in every rule: each sentence is also read with the phrase changes alone.
        phrases = tuple(s for s in ordered if not _word_for_word(s))
        other_keys = None  # no word swapped: one reading
        if len(phrases) < len(ordered):
            other_keys = [
                provenance.apply_sweeps(u.key, phrases) if key != u.key else key
                for u, key in zip(self.old_units, keys, strict=True)
            ]
        links = provenance.link_units(
            self.old_units,
            self.new_units,
            keys,
            floor=provenance.REWORDED_SIMILARITY,
            other_keys=other_keys,
        )
        # A reworded sentence (below near-exact) counts only between rules that stand in
        # corresponding places: under the counterpart of the old rule's matched ancestor.
        links = [
            link
            for link in links
            if link.score >= provenance.NEAR_SIMILARITY
            or _in_place(p, self.old_units[link.old].owner, self.new_units[link.new].owner)
        ]
        self.links = _within_topics(p, links, self.old_units, keys, self.new_units)
        self.old_size: Counter = Counter()
        self.new_size: Counter = Counter()
        for u in self.old_units:
            self.old_size[u.owner] += u.weight
        for u in self.new_units:
            self.new_size[u.owner] += u.weight
        #: (old rule, new rule) → characters of the old rule found in the new one, and
        #: characters of the new rule that came from the old one.
        self.sent: Counter = Counter()
        self.received: Counter = Counter()
        #: Sentences that several changed new rules repeat word for word (the closing
        #: sentence of every step): no evidence against where a piece came from.
        self.common = _stock_keys(self.new_units)
        #: Unit key → the rules of each side that say it.
        self.old_holders: dict[str, set[int]] = defaultdict(set)
        self.new_holders: dict[str, set[int]] = defaultdict(set)
        for u in self.old_units:
            self.old_holders[u.key].add(u.owner)
        for u in self.new_units:
            self.new_holders[u.key].add(u.owner)
        #: New rule → its first unit of ``MIN_UNIT_WORDS`` words or more (its statement).
        self.statement_of_new: dict[int, int] = {}
        for k, u in enumerate(self.new_units):
            if len(u.key.split()) >= provenance.MIN_UNIT_WORDS:
                self.statement_of_new.setdefault(u.owner, k)
        self.by_old: dict[int, set[int]] = defaultdict(set)
        self.by_new: dict[int, set[int]] = defaultdict(set)
        self.links_of_old: dict[int, list[int]] = defaultdict(list)
        self.links_of_new: dict[int, list[int]] = defaultdict(list)
        seen_old: set[tuple[int, int]] = set()
        seen_new: set[tuple[int, int]] = set()
        for k, link in enumerate(self.links):
            self.links_of_old[self.old_units[link.old].owner].append(k)
            self.links_of_new[self.new_units[link.new].owner].append(k)
            uo, un = self.old_units[link.old], self.new_units[link.new]
            pair = (uo.owner, un.owner)
            if (link.old, un.owner) not in seen_old:
                seen_old.add((link.old, un.owner))
                self.sent[pair] += uo.weight
            if (link.new, uo.owner) not in seen_new:
                seen_new.add((link.new, uo.owner))
                self.received[pair] += un.weight
            self.by_old[uo.owner].add(un.owner)
            self.by_new[un.owner].add(uo.owner)

    def share_sent(self, i: int, j: int) -> float:
        return self.sent[(i, j)] / self.old_size[i] if self.old_size[i] else 0.0

    def share_received(self, i: int, j: int) -> float:
        return self.received[(i, j)] / self.new_size[j] if self.new_size[j] else 0.0


def _match_by_sentences(p: _Pairing, prov: _Provenance) -> None:
    """Pair unmatched rules by where their sentences went.

    An old rule most of whose text went to one unmatched new rule, making up a fair
    part of it, is that rule reworded or renumbered; when its sentences sit equally in
    two places and neither is under its mapped parent, it stays unmatched.
    """
    pairs: list[tuple[float, int, int]] = []
    for i, targets in prov.by_old.items():
        j0 = p.o2n[i]
        elsewhere = False
        if j0 >= 0:
            if not (
                p.method.get(i) == "fuzzy"
                and prov.sent[(i, j0)] == 0
                and prov.received[(i, j0)] == 0
            ):
                continue
            # A fuzzy pair sharing no sentence while most of the old text went, sentence
            # by sentence, to another rule matched a frame, not a content.
            elsewhere = any(
                prov.share_sent(i, j) >= SENTENCE_SHARE for j in targets if j != j0
            ) and (_closer_elsewhere(p, prov, i, j0) or _kept_near_exact_elsewhere(p, prov, i, j0))
            if not elsewhere and p.score.get(i, 100.0) >= WEAK_FUZZY:
                continue  # a weak fuzzy pair sharing no sentence may still give way
        options: list[tuple[float, int]] = []
        for j in targets:
            if p.new[j].heading:
                continue
            sent, received = prov.share_sent(i, j), prov.share_received(i, j)
            mapped = p.mapped_parent(i) == p.new[j].parent and p.old[i].parent is not None
            # A rule whose sentences all went to one rule in its own place is that rule,
            # however much new text the rule grew around them.
            grown = len(targets) == 1 and _in_place(p, i, j)
            if sent >= SENTENCE_SHARE and (received >= SENTENCE_RECEIVED or grown):
                options.append((sent + (1.0 if mapped else 0.0), j))
        options.sort(key=lambda t: (-t[0], t[1]))
        if len(options) > 1 and options[0][0] - options[1][0] < SENTENCE_MARGIN:
            continue  # the same sentences in two places: the text does not decide
        if options and p.n2o[options[0][1]] >= 0:
            continue  # they went to a rule already matched: a merge, seen later
        if options:
            pairs.append((options[0][0], i, options[0][1]))
    pairs.sort(key=lambda t: (-t[0], t[1], t[2]))
    for _share, i, j in pairs:
        if p.n2o[j] >= 0:
            continue
        if p.o2n[i] >= 0:
            p.n2o[p.o2n[i]] = -1
            p.alternatives.pop(i, None)
        p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "sentence")


def _closer_elsewhere(p: _Pairing, prov: _Provenance, i: int, j0: int) -> bool:
    """Every linked sentence of old ``i`` is clearly closer to its link than to any
    sentence of ``j0``: parallel texts (one sentence in several steps) do not decide."""
    # Its sentences, and its whole text (a sentence cut in two there is still there).
    mine = [u.key for u in prov.new_units if u.owner == j0]
    mine.append(" ".join(mine))
    evidence = False
    places: dict[int, set[int]] = defaultdict(set)
    for k in prov.links_of_old[i]:
        places[prov.links[k].old].add(prov.new_units[prov.links[k].new].owner)
    own = [
        k
        for k, u in enumerate(prov.old_units)
        if u.owner == i and len(u.key.split()) >= provenance.MIN_UNIT_WORDS
    ]
    if any(k not in places for k in own):
        return False  # a sentence found nowhere may be what the text match kept
    for k in prov.links_of_old[i]:
        link = prov.links[k]
        old_key, new_key = prov.old_units[link.old].key, prov.new_units[link.new].key
        if (
            len(places[link.old]) > 1
            or len(prov.old_holders[old_key]) > 1
            or len(prov.new_holders[new_key]) > 1
        ):
            continue  # a sentence several rules say: no evidence where this one went
        key = p.swept(old_key)
        near = max((fuzz.ratio(key, m) for m in mine), default=0.0)
        if link.score - near < FRAME_MARGIN:
            return False
        evidence = True
    return evidence


def _kept_near_exact_elsewhere(p: _Pairing, prov: _Provenance, i: int, j0: int) -> bool:
    """Every sentence of old ``i`` went near word for word (``NEAR_SIMILARITY``) to one
    other rule standing in its place, each sentence said by no other rule of either
    edition (a closing remark several old rules share aside), while its text match ``j0``
    is not near-exact: the sentence kept is the rule, the text match a sibling built on
    the same frame (a rule on one kind of card matched to the next rule on another kind,
    its own sentence now inside a neighbour). A near-exact text match counts too when it
    is word for word another old rule's sentence (:func:`_says_another_rule`), and the
    sentence kept in place is closer still.
    Why: :func:`_closer_elsewhere` asks a fixed margin over the frame, which a short
    sentence reworded by a word or two misses by a hair though its place says enough."""
    if p.score.get(i, 100.0) >= provenance.NEAR_SIMILARITY and not _says_another_rule(
        p, prov, i, j0
    ):
        return False
    # A sentence several old rules say (a closing remark) is no evidence either way.
    own = [
        k
        for k, u in enumerate(prov.old_units)
        if u.owner == i
        and len(u.key.split()) >= provenance.MIN_UNIT_WORDS
        and len(prov.old_holders[u.key]) == 1
    ]
    if not own:
        return False
    near: dict[int, set[int]] = defaultdict(set)
    for k in prov.links_of_old[i]:
        link = prov.links[k]
        old_key, new_key = prov.old_units[link.old].key, prov.new_units[link.new].key
        if link.score < provenance.NEAR_SIMILARITY or link.score <= p.score.get(i, 0.0):
            continue
        if len(prov.old_holders[old_key]) > 1 or len(prov.new_holders[new_key]) > 1:
            continue
        near[link.old].add(prov.new_units[link.new].owner)
    places = {j for k in own for j in near.get(k, ())}
    if any(k not in near for k in own) or len(places) != 1:
        return False
    (j,) = places
    return j != j0 and not p.new[j].heading and _in_place(p, i, j) and p.same_topic(i, j)


def _says_another_rule(p: _Pairing, prov: _Provenance, i: int, j0: int) -> bool:
    """New ``j0``, the text match of old ``i``, says word for word only what one other
    old rule said: each of its sentences is a sentence of that rule (a long rule cut
    into pieces, one piece a near copy of ``i``, the rule of another section that
    restated it: the beginning-of-step triggers, said by the turn-structure rules and
    by the triggered-ability rules). The exact source is that piece's; ``i`` goes where
    its own sentence went nearer still, when that rule stands in its place."""
    holders: set[int] = set()
    for u in provenance.units(j0, p.new[j0].text):
        if len(u.key.split()) >= provenance.MIN_UNIT_WORDS:
            said = prov.old_holders.get(u.key)
            if not said:
                return False  # a sentence no old rule says word for word
            holders |= said
    return len(holders) == 1 and i not in holders


def _sentence_splits(
    p: _Pairing, prov: _Provenance, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """Complete splits and merges from sentences.

    An unmatched new rule made mostly of one old rule's sentences is a piece of that
    rule (a split); an unmatched old rule most of whose text went into one new rule is
    a source of it (a merge). Every piece and every source is listed.
    """
    in_splits, in_merges = _grouped(splits, merges)
    # A free old rule cut into free new rules, each made mostly of its sentences.
    for i in range(len(p.old)):
        if not _free_old_text(p, i, splits, in_merges):
            continue
        pieces = sorted(
            (
                j
                for j in prov.by_old.get(i, ())
                if p.n2o[j] < 0
                and not p.new[j].heading
                and j not in in_splits
                and j not in merges
                and prov.share_received(i, j) >= PIECE_SHARE
                and len(prov.by_new[j]) == 1
                and not p.withdrawn_from(i, j)
            ),
            key=lambda k: p.new[k].order,
        )
        if not pieces or sum(prov.share_sent(i, j) for j in pieces) < SENTENCE_RECEIVED:
            continue
        if len(pieces) == 1:
            j = pieces[0]
            sent = prov.share_sent(i, j)
            rivals = [
                k
                for k in prov.by_old.get(i, ())
                if k != j and prov.share_sent(i, k) >= sent - SENTENCE_MARGIN
            ]
            if sent >= SENTENCE_SHARE and not rivals:
                p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "sentence")
        else:
            splits[i] = pieces
            in_splits.update(pieces)
    for j in range(len(p.new)):
        if p.n2o[j] >= 0 or p.new[j].heading or j in in_splits or j in merges:
            continue
        sources = [i for i in prov.by_new.get(j, ()) if prov.share_received(i, j) >= PIECE_SHARE]
        if len(sources) != 1:
            continue
        i = sources[0]
        if i in merges or i in in_merges or p.old[i].heading:
            continue
        group = splits.get(i) or ([p.o2n[i]] if p.o2n[i] >= 0 else [])
        if any(k in merges for k in group):
            continue
        if any(_reused_for_new_subject(p, i, k, j, in_splits, merges) for k in group):
            continue
        if _under_new_subject(p, j) or _piece_for_new_subject(p, i, j):
            continue  # the text written again for a subject the old edition lacks
        if group and _opens_with_new_statement(prov, j) and _sibling_frame(p, prov, i, j):
            continue  # a new rule written on the frame the old rule's siblings share
        group = sorted({*group, j}, key=lambda k: p.new[k].order)
        if len(group) < 2:
            # The old rule is free too: its only place is here (handled as a 1:1 pair).
            continue
        splits[i] = group
        in_splits.update(group)
    for i in range(len(p.old)):
        if not _free_old_text(p, i, splits, in_merges):
            continue
        targets = [
            j
            for j in prov.by_old.get(i, ())
            if prov.share_sent(i, j) >= SENTENCE_SHARE
            and prov.share_received(i, j) >= PIECE_SHARE / 2
            and not p.new[j].heading
        ]
        if len(targets) != 1:
            continue
        j = targets[0]
        if j in in_splits or p.n2o[j] < 0 and j not in merges:
            continue
        if not _keeps_its_name(p.old[i], p.new[j]):
            continue  # a shared template sentence; the rule's own name is gone
        topic = p.old_topic[i]
        if topic >= 0 and p.o2n[topic] >= 0 and not _new_under(p, j, p.new[p.o2n[topic]].place):
            continue  # its keyword or step went elsewhere: a shared sentence, not a merge
        _join_merge(p, i, j, splits, merges, in_merges)


def _sibling_frame(p: _Pairing, prov: _Provenance, i: int, j: int) -> bool:
    """Each sentence linking old ``i`` to new ``j`` is one a sibling of ``i`` says about
    as well (:func:`_said_by_sibling`): the link is a frame the siblings share (the
    timing sentence of several special actions), not ``i``'s own text."""
    found = False
    for k in prov.links_of_old[i]:
        link = prov.links[k]
        if prov.new_units[link.new].owner != j:
            continue
        if not _said_by_sibling(p, i, prov.new_units[link.new].key, link.score):
            return False
        found = True
    return found


def _opens_with_new_statement(prov: _Provenance, j: int) -> bool:
    """New ``j``'s first sentence (its statement) comes from no old rule: ``j`` is a new
    rule, and an old sentence it repeats further on is wording reused for its own
    subject (another special action on the timing of playing a land), not a piece cut
    from the old rule."""
    statement = prov.statement_of_new.get(j)
    if statement is None:
        return False
    return all(prov.links[k].new != statement for k in prov.links_of_new.get(j, ()))


def _join_merge(
    p: _Pairing,
    i: int,
    j: int,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    in_merges: set[int],
) -> None:
    """Old rule ``i`` becomes one more source of new rule ``j`` (unless a source of ``j``
    is itself split: a rule is never both)."""
    main = merges.get(j) or [p.n2o[j]]
    if any(k in splits for k in main):
        return
    merges[j] = sorted({*main, i}, key=lambda k: p.old[k].order)
    in_merges.update(merges[j])


def _join_lone_receivers(
    p: _Pairing,
    found: dict[int, set[int]],
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    in_merges: set[int],
) -> None:
    """Each free old rule whose sentence reached one taken new rule, and no other, joins it
    as a source, if it keeps its topic and its own name there."""
    for i in sorted(found):
        if len(found[i]) != 1:
            continue
        (j,) = found[i]
        if p.same_topic(i, j) and _keeps_its_name(p.old[i], p.new[j]):
            _join_merge(p, i, j, splits, merges, in_merges)


#: A free old rule whose sentences went (at least this share of its text) ...
MOVED_SHARE = 0.2
#: ... to one rule in its place, this far ahead of every other receiver, went there.
MOVED_MARGIN = 0.1


def _follow_moved_text(
    p: _Pairing, prov: _Provenance, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A rule is removed only when none of its content survives: a free old rule whose
    sentences went mainly to one rule standing in its place (under the counterpart of
    its matched ancestor, same keyword or step) has that rule as counterpart; a
    reworded pair when the receiver is free, a source of a merge when it is taken.
    """
    in_splits, in_merges = _grouped(splits, merges)
    for i in range(len(p.old)):
        if not _free_old_text(p, i, splits, in_merges):
            continue
        targets = sorted(
            ((prov.share_sent(i, j), j) for j in prov.by_old.get(i, ()) if not p.new[j].heading),
            key=lambda t: (-t[0], t[1]),
        )
        if not targets or targets[0][0] < MOVED_SHARE:
            continue
        # Its sentences may have gone to two places alike (a definition copied into a
        # keyword action): the one standing in its place decides, if only one does.
        close = [t for t in targets if t[0] > targets[0][0] - MOVED_MARGIN]
        placed = [
            j
            for sent, j in close
            if sent >= MOVED_SHARE and (_in_place(p, i, j) or _beside(p, i, j))
        ]
        if len(placed) != 1:
            continue
        j = placed[0]
        if not p.same_topic(i, j) or j in in_splits:
            continue
        if not _keeps_its_name(p.old[i], p.new[j]):
            continue  # a template sentence shared with another rule: its name is gone
        if p.n2o[j] < 0 and j not in merges:
            p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "sentence")
            continue
        _join_merge(p, i, j, splits, merges, in_merges)


#: ... bringing at least this many content words its old sources lack.
GRAFT_NEW_WORDS = 2


def _sentence_with(lower: str, run: Sequence[str]) -> str:
    """The sentence of ``lower`` that holds the word run (empty if none does)."""
    for unit in _UNIT_END.split(lower):
        if _holds_run(_ALNUM_WORD.findall(unit), run):
            return unit
    return ""


def _closest_sentence(sentence: str, lower: str) -> float:
    return max((fuzz.ratio(sentence, unit) for unit in _UNIT_END.split(lower)), default=0.0)


def _stems(words: Iterable[str]) -> frozenset[str]:
    """Crude stems (as :func:`_words` cuts them) of the content words among ``words``."""
    return frozenset(
        w[:5] for w in words if len(w) > 2 and w.isalpha() and w not in _FUNCTION_WORDS
    )


def _follow_grafted_clauses(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A clause grafted onto a kept rule came from the free old rule that says it.

    A new rule can be its old counterpart's text with a clause of a free old sibling
    appended (two rules folded into one sentence). Sentence links miss it: the new
    sentence is the kept one, lengthened. When a run of words the new rule has and its
    old sources lack is said by exactly one old rule, a free one standing beside them,
    and by no other new rule, and no other old rule beside them has a sentence closer to
    the new sentence holding the run, that old rule is one more source of the new rule.
    """
    in_splits, in_merges = _grouped(splits, merges)
    old_words, new_words = p.word_lists()
    # old parent -> its free children, in order: most kept rules have none beside them
    free_children: dict[str | None, list[int]] = defaultdict(list)
    for i, node in enumerate(p.old):
        if _free_old_text(p, i, splits, in_merges):
            free_children[node.parent].append(i)
    found: dict[int, set[int]] = defaultdict(set)
    for j in range(len(p.new)):
        if p.new[j].heading or p.n2o[j] < 0 or j in in_splits:
            continue
        sources = merges.get(j) or [p.n2o[j]]
        if not any(p.old[k].parent in free_children for k in sources):
            continue
        parents = dict.fromkeys(p.old[k].parent for k in sources)  # in order: deterministic
        family = [i for par in parents for i in p.old_children[par]]
        free = [i for par in parents for i in free_children.get(par, ())]
        for i in free:
            if not old_words.grams(i) & new_words.grams(j):
                continue
            explained = frozenset().union(*(_stems(old_words[k]) for k in sources))
            for run in _runs(old_words[i], new_words[j], GRAFT_WORDS):
                if any(_holds_run(old_words[k], run) for k in sources):
                    continue
                if len(_stems(run) - explained) < GRAFT_NEW_WORDS:
                    continue  # the kept text reworded, not a clause brought in
                if not p.said_alone(run):
                    continue  # a stock phrase of several rules says nothing
                if not _closest_in_family(p, i, j, run, family, sources):
                    continue
                found[i].add(j)
                break
    for i in sorted(found):
        if len(found[i]) != 1:
            continue
        (j,) = found[i]
        if not p.same_topic(i, j):
            continue
        _join_merge(p, i, j, splits, merges, in_merges)


#: At least this share of the content words that the new sentence holding the run has and
#: the new rule's sources lack must be the free old rule's (the surplus is its text).
SURPLUS_EXPLAINED = 0.5


def _follow_runs_into_taken_rules(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A run of words that a taken new rule has and its sources lack came from the one free
    old rule that says it, wherever that rule stood, when the new sentence holding the run
    is closer to that rule's sentence than to any other old sentence.

    A rule folded into a rule matched to another old rule leaves a run of its words
    (six or more, inside one sentence) in the new rule's surplus over its sources.
    :func:`_follow_grafted_clauses` reads only free siblings of a source; a rule from
    another section (a definition restated in the new definition rule) is found by the
    same run when the new sentence holding it is closest, of every sentence of the old
    edition (the sources' too), to one of its sentences: a run that is only an example
    or a stock phrase inside a sentence that restates the source is the source's. The
    run brings ``GRAFT_NEW_WORDS`` content words the sources lack, and at least
    ``SURPLUS_EXPLAINED`` of the content words that sentence adds to the sources are the
    free rule's (a stock phrase inside another subject's sentence is not); one old rule
    and one new rule say the run; the free rule reaches one new rule only, on its topic, keeping its
    name. A piece of a split is left alone (the group would be m:n).
    """
    in_splits, in_merges = _grouped(splits, merges)
    old_words, new_words = p.word_lists()
    free = [i for i in range(len(p.old)) if _free_old_text(p, i, splits, in_merges)]
    owners_of_gram: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i in free:
        for gram in old_words.grams(i):
            owners_of_gram[gram].append(i)
    if not owners_of_gram:
        return
    found: dict[int, set[int]] = defaultdict(set)
    for j, node in enumerate(p.new):
        if node.heading or j in in_splits or (p.n2o[j] < 0 and j not in merges):
            continue
        if j not in merges and _kept(p, p.n2o[j]):
            continue  # its source's very text: nothing more to explain
        grams = [g for g in new_words.grams(j) if g in owners_of_gram]
        if not grams:
            continue
        sources = merges.get(j) or [p.n2o[j]]
        # a shared run of words every piece of which a source says is the source's
        said = frozenset().union(*(old_words.grams(k) for k in sources))
        candidates = sorted({i for g in grams if g not in said for i in owners_of_gram[g]})
        if not candidates:
            continue
        explained = frozenset().union(*(_stems(old_words[k]) for k in sources))
        for i in candidates:
            for run in _runs(old_words[i], new_words[j], GRAFT_WORDS):
                if any(_holds_run(old_words[k], run) for k in sources):
                    continue
                if len(_stems(run) - explained) < GRAFT_NEW_WORDS:
                    continue
                if not p.said_alone(run):
                    continue  # a stock phrase of several rules says nothing
                sentence = _sentence_with(node.lower, run)
                surplus = _stems(_ALNUM_WORD.findall(sentence)) - explained
                if len(surplus & _stems(old_words[i])) < SURPLUS_EXPLAINED * len(surplus):
                    continue  # the sentence says more than the free rule brought
                own = _closest_sentence(sentence, old_words.texts[i])
                # every old sentence, kept rules too: the closest one is where it came from
                old_owners, old_sentences = p.old_units()
                if any(
                    old_owners[m] != i
                    for _s, _score, m in process.extract_iter(
                        sentence, old_sentences, scorer=fuzz.ratio, score_cutoff=own
                    )
                ):
                    continue  # another old sentence is as close: the run is no evidence
                found[i].add(j)
                break
    _join_lone_receivers(p, found, splits, merges, in_merges)


#: An old sentence its rule's counterpart says this closely (token-set similarity) is
#: kept there: no free rule is its piece.
PIECE_KEPT = 80.0


def _follow_runs_into_free_rules(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A run of words that a free new rule has came from the one matched old rule that
    says it, when that rule's counterparts lack the run: a sentence of the old rule left
    it for a rule of its own (the priority rule's sentence on all players passing in
    succession, now a numbered rule beside the priority rule), reworded past the sentence
    links. The free rule becomes one more piece of the old rule's split.

    The mirror of :func:`_follow_runs_into_taken_rules`, with its tests: a run of
    ``GRAFT_WORDS`` words inside one sentence that one old rule and one new rule say,
    bringing ``GRAFT_NEW_WORDS`` content words the counterparts lack; the free rule
    reached from one old rule only, on its topic and not written for a new subject. And
    four more, each from a wrong piece on the far pairs: the free rule stands beside one
    of the counterparts in the new tree (:func:`_tree_neighbours`: not a stock phrase on
    the Wizards website, an effect list in another chapter); the run is not in an aside
    of the old rule (a pointer or note in parentheses is not what it states); the old
    sentence holding the run is not kept by a counterpart (token-set similarity
    ``PIECE_KEPT``: else the new rule is that sentence's frame written for another case,
    a double-faced card cast transformed); the new sentence is closer to that very old
    sentence than to any other, the old rule's own included (a frame copied from one
    sentence for another player, its run from another sentence). A merge source is left
    alone (the group would be m:n)."""
    in_splits, in_merges = _grouped(splits, merges)
    targets_of: dict[int, list[int]] = {}
    owner: dict[int, int] = {}  # new rule -> the old rule whose counterpart it is
    for i, node in enumerate(p.old):
        if node.heading or i in in_merges or (p.o2n[i] < 0 and i not in splits):
            continue
        targets_of[i] = splits.get(i) or [p.o2n[i]]
        for k in targets_of[i]:
            owner[k] = i
    old_words, new_words = p.word_lists()
    found: dict[int, set[int]] = defaultdict(set)
    for j, node in enumerate(p.new):
        if node.heading or not _free_new(p, j, in_splits, merges):
            continue
        near = sorted({owner[k] for k in _tree_neighbours(p, j) if k in owner})
        if not near:
            continue
        grams = new_words.grams(j)
        for i in near:
            targets = targets_of[i]
            shared = grams & old_words.grams(i)
            if not shared or all(any(g in new_words.grams(k) for k in targets) for g in shared):
                continue  # no run of the old rule that its counterparts do not say
            explained = frozenset().union(*(_stems(new_words[k]) for k in targets))
            for run in _runs(old_words[i], new_words[j], GRAFT_WORDS):
                if any(_holds_run(new_words[k], run) for k in targets):
                    continue
                if len(_stems(run) - explained) < GRAFT_NEW_WORDS:
                    continue
                if any(
                    _holds_run(_word_list(aside, "|"), run)
                    for aside in _ASIDE.findall(old_words.texts[i])
                ):
                    continue  # an aside (a pointer, a note) is not what the rule states
                source = _sentence_with(old_words.texts[i], run)
                if any(
                    fuzz.token_set_ratio(source, unit) >= PIECE_KEPT
                    for k in targets
                    for unit in _UNIT_END.split(p.new[k].lower)
                ):
                    continue  # the counterpart keeps that sentence: the run is a copy of it
                if not p.said_alone(run):
                    continue  # a stock phrase of several rules says nothing
                sentence = _sentence_with(node.lower, run)
                own = fuzz.ratio(sentence, source)
                old_owners, old_sentences = p.old_units()
                if any(
                    old_owners[m] != i or text != source
                    for text, _score, m in process.extract_iter(
                        sentence, old_sentences, scorer=fuzz.ratio, score_cutoff=own
                    )
                ):
                    continue  # another old sentence (its rule's own too) is as close
                found[j].add(i)
                break
    for j, sources in sorted(found.items()):
        if len(sources) != 1:
            continue
        (i,) = sources
        if not p.same_topic(i, j) or _under_new_subject(p, j) or _piece_for_new_subject(p, i, j):
            continue
        now = splits.get(i) or [p.o2n[i]]  # pieces found for it earlier in this loop too
        splits[i] = sorted({*now, j}, key=lambda k: p.new[k].order)


def _tree_neighbours(p: _Pairing, j: int) -> list[int]:
    """The new rules beside ``j`` in the tree: its siblings, its parent and children, its
    parent's siblings and its siblings' children."""
    node = p.new[j]
    parent = p.new_by_place.get(node.parent or "", -1)
    above = p.new[parent].parent if parent >= 0 else None
    siblings = p.new_children.get(node.parent, [])
    found = [*siblings, *p.new_children.get(node.place, [])]
    if parent >= 0:
        found += [parent, *p.new_children.get(above, [])]
    for k in siblings:
        found += p.new_children.get(p.new[k].place, [])
    return found


def _follow_sentences_into_taken_rules(
    p: _Pairing, prov: _Provenance, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old rule whose sentence a taken new rule holds, and its match does not, is
    one more source of that rule.

    Two rules folded into one (a short rule into its neighbour, a list rule's opening
    into the next rule) leave the second old rule free: the new rule is already matched
    to the first, so no pass pairs it. When a sentence of the free rule is linked to a
    sentence of the taken rule that none of its present sources says about as well, no
    other old rule says about as well, and no free new rule holds about as well, and the
    free rule stands beside those sources (a sibling of one, or in the place of the new
    rule), the free rule is a source of the new rule (``merged``). A new rule that is a
    piece of a split is left alone: the group would be several old and several new.
    """
    in_splits, in_merges = _grouped(splits, merges)
    old_units: list[tuple[int, str]] | None = None
    old_keys: list[str] = []
    free_new_keys: list[str] | None = None
    found: dict[int, set[int]] = defaultdict(set)
    for i in sorted(prov.links_of_old):
        if not _free_old_text(p, i, splits, in_merges):
            continue
        for k in prov.links_of_old[i]:
            link = prov.links[k]
            unit, new_unit = prov.old_units[link.old], prov.new_units[link.new]
            j = new_unit.owner
            taken = p.n2o[j] >= 0 or j in merges
            if not taken or j in in_splits or p.new[j].heading or unit.points_elsewhere:
                continue
            if len(prov.old_holders[unit.key]) > 1 or len(prov.new_holders[new_unit.key]) > 1:
                continue  # a stock sentence says nothing about where a rule went
            sources = merges.get(j) or [p.n2o[j]]
            if not (any(p.old[s].parent == p.old[i].parent for s in sources) or _in_place(p, i, j)):
                continue
            near = link.score - FRAME_MARGIN
            said = [p.swept(u.key) for s in sources for u in provenance.units(s, p.old[s].text)]
            said.append(" ".join(said))
            if any(fuzz.ratio(new_unit.key, key) > near for key in said):
                continue  # its present sources say it too
            if old_units is None:
                # every old rule, kept ones too: a sentence kept elsewhere is stock wording
                old_units = [
                    (owner, p.swept(key))
                    for owner, node in enumerate(p.old)
                    if not node.heading
                    for key in provenance.unit_keys(node.text)
                ]
                old_keys = [key for _owner, key in old_units]
            if any(
                old_units[m][0] != i
                for _key, _score, m in process.extract_iter(
                    new_unit.key, old_keys, scorer=fuzz.ratio, score_cutoff=near
                )
            ):
                continue  # another old rule says it about as well
            if free_new_keys is None:
                free_new_keys = [
                    u.key if _free_new(p, u.owner, in_splits, merges) else ""
                    for u in prov.new_units
                ]
            if any(
                True
                for _ in process.extract_iter(
                    p.swept(unit.key),
                    free_new_keys,
                    scorer=fuzz.ratio,
                    score_cutoff=near,
                )
            ):
                continue  # a free new rule holds it about as well: its home may be there
            found[i].add(j)
    _join_lone_receivers(p, found, splits, merges, in_merges)


#: A reworded sentence of a free old rule is in a taken new rule's sentence when that
#: sentence holds at least this share of its content stems ...
REWORDED_COVER = 0.5
#: ... no other sentence of either edition comes this close (share points) ...
COVER_MARGIN = 0.1
#: ... the old sentence has this many content stems or more ...
COVER_OLD_STEMS = 5
#: ... and the shared stems bring this many the new rule's sources lack.
COVER_NEW_STEMS = 2


#: A run of three letters or more standing alone (no digit glued to it): a word
#: :func:`_stems` keeps, found by the regex engine alone.
_ALPHA_WORD = re.compile(r"(?<![a-z0-9])[a-z]{3,}(?![a-z0-9])")


@functools.lru_cache(maxsize=1 << 14)
def _sentence_stems(key: str) -> frozenset[str]:
    """:func:`_stems` of a sentence's words (the words ``[a-z0-9]+`` cuts it into)."""
    return frozenset(w[:5] for w in _ALPHA_WORD.findall(key) if w not in _FUNCTION_WORDS)


def _follow_reworded_sentences_into_taken_rules(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old rule whose sentence a taken new rule restates in other words, beside
    what its sources say, is one more source of that rule.

    The sentence step above needs a link (72 or more); a sentence rewritten around its
    words (a clause turned round, a timing restated as its consequence) falls below it.
    Its words still tell where it went when nothing else holds them: a sentence of the
    new rule that its sources do not say, holding most content stems of a sentence of a
    free old sibling of a source, two or more of them stems the sources lack, with no
    other new sentence holding as many of the old sentence's stems and no other old
    sentence as many of the new one's (within ``COVER_MARGIN``). The free rule must reach
    one new rule only, on the same keyword, step or zone, keeping its name.
    """
    in_splits, in_merges = _grouped(splits, merges)
    free_by_parent: dict[str | None, list[int]] = defaultdict(list)
    for i, node in enumerate(p.old):
        if _free_old_text(p, i, splits, in_merges):
            free_by_parent[node.parent].append(i)
    if not free_by_parent:
        return
    old_units: dict[int, list[tuple[provenance.Unit, frozenset[str]]]] = {}

    def units_of_old(k: int) -> list[tuple[provenance.Unit, frozenset[str]]]:
        if k not in old_units:
            old_units[k] = [
                (u, _sentence_stems(p.swept(u.key))) for u in provenance.units(k, p.old[k].text)
            ]
        return old_units[k]

    every_old: list[tuple[int, frozenset[str]]] | None = None
    every_new: list[tuple[int, frozenset[str]]] = []
    old_holders: dict[str, set[int]] = defaultdict(set)
    new_holders: dict[str, set[int]] = defaultdict(set)
    found: dict[int, set[int]] = defaultdict(set)
    for j, node in enumerate(p.new):
        if node.heading or j in in_splits or (p.n2o[j] < 0 and j not in merges):
            continue
        sources = merges.get(j) or [p.n2o[j]]
        free = [
            i
            for par in dict.fromkeys(p.old[s].parent for s in sources)
            for i in free_by_parent.get(par, ())
        ]
        if not free:
            continue
        said = [p.swept(u.key) for s in sources for u, _w in units_of_old(s)]
        said.append(" ".join(said))
        source_stems = frozenset().union(*(w for s in sources for _u, w in units_of_old(s)))
        for new_unit in provenance.units(j, node.text):
            new_stems = _sentence_stems(new_unit.key)
            if new_unit.points_elsewhere or len(new_stems) < provenance.MIN_UNIT_WORDS:
                continue
            reworded = provenance.REWORDED_SIMILARITY
            if any(
                fuzz.ratio(new_unit.key, key, score_cutoff=reworded) >= reworded for key in said
            ):
                continue  # its sources say it
            for i in free:
                for unit, stems in units_of_old(i):
                    if unit.points_elsewhere or len(stems) < COVER_OLD_STEMS:
                        continue
                    shared = stems & new_stems
                    cover = len(shared) / len(stems)
                    if cover < REWORDED_COVER or len(shared - source_stems) < COVER_NEW_STEMS:
                        continue
                    if every_old is None:
                        # every sentence of both editions, kept rules too
                        every_old = []
                        for k, n in enumerate(p.old):
                            for u, w in () if n.heading else units_of_old(k):
                                old_holders[u.key].add(k)
                                every_old.append((k, w))
                        for q, n in enumerate(p.new):
                            for u in () if n.heading else provenance.units(q, n.text):
                                new_holders[u.key].add(q)
                                every_new.append((q, _sentence_stems(u.key)))
                    if len(old_holders[unit.key]) > 1 or len(new_holders[new_unit.key]) > 1:
                        continue  # a stock sentence says nothing about where a rule went
                    back = len(shared) / len(new_stems)
                    if any(
                        q != j and len(stems & w) / len(stems) > cover - COVER_MARGIN
                        for q, w in every_new
                    ):
                        continue  # another new sentence holds its words about as well
                    if any(
                        k != i and len(new_stems & w) / len(new_stems) > back - COVER_MARGIN
                        for k, w in every_old
                    ):
                        continue  # another old sentence says the new one about as well
                    found[i].add(j)
    _join_lone_receivers(p, found, splits, merges, in_merges)


#: A taken new rule's short sentence (at least this many words, at most
#: ``KEPT_CLAUSE_MAX``) said word for word inside a free old rule ...
KEPT_CLAUSE_MIN = 5
#: ... (a longer sentence said whole is a sentence link's business).
KEPT_CLAUSE_MAX = 12


def _follow_kept_clauses_into_taken_rules(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A taken new rule's short sentence that a free old rule says word for word, inside
    one of its sentences, came from that rule: one more source of the new rule.

    A clause cut out of a longer sentence and written as a sentence of its own is too
    short a part of the old sentence for the sentence links, and too short a sentence
    for the reworded-sentence passes (214.4 of the editions before 2009: every
    permanent has a controller and is tapped or untapped; the new control rule, taken by
    the ownership rule, ends on the first clause alone). Only when no other rule of
    either edition says the clause (stock wording says nothing), the new rule's present
    sources do not, and the free rule stands beside a source or in the new rule's place.
    """
    in_splits, in_merges = _grouped(splits, merges)
    free = [i for i in range(len(p.old)) if _free_old_text(p, i, splits, in_merges)]
    if not free:
        return
    swept = {i: p.swept(p.old[i].lower) for i in free}
    free_text = "\n".join(swept.values())  # one scan a clause: most are in no free rule
    every_old = every_new = ""
    found: dict[int, set[int]] = defaultdict(set)
    for j, node in enumerate(p.new):
        if node.heading or j in in_splits or (p.n2o[j] < 0 and j not in merges):
            continue
        sources = merges.get(j) or [p.n2o[j]]
        for unit in provenance.units(j, node.text):
            clause = unit.key.rstrip(". ")
            if unit.points_elsewhere or not (
                KEPT_CLAUSE_MIN <= len(clause.split()) <= KEPT_CLAUSE_MAX
            ):
                continue
            if clause not in free_text:
                continue
            holders = [i for i in free if clause in swept[i]]
            if len(holders) != 1:
                continue  # two free rules say it: neither is its source
            (i,) = holders
            if not every_old:
                every_old = "\n".join(n.lower for n in p.old)
                every_new = "\n".join(n.lower for n in p.new)
            others = every_old.count(clause) - (clause in p.old[i].lower)
            if others or every_new.count(clause) != 1:
                continue  # another rule of either edition says it: stock wording
            if not re.search(rf"(?<![\w']){re.escape(clause)}(?![\w'])", swept[i]):
                continue  # inside a longer word
            if any(clause in p.swept(p.old[k].lower) for k in sources):
                continue  # its present sources say it (with the recurring changes made)
            if any(p.old[k].parent == p.old[i].parent for k in sources) or _in_place(p, i, j):
                found[i].add(j)
    _join_lone_receivers(p, found, splits, merges, in_merges)


#: A free old sentence restated inside a free new rule: the new sentence holds at least
#: this share of its content stems ...
FREE_REWORDED_COVER = 0.6
#: ... and the old sentence at least this share of the new one's.
FREE_REWORDED_BACK = 0.5
#: ... and the new rule holds at least this share of the whole old rule's stems (half: a
#: rule whose other sentence went away is still found by the one restated).
FREE_REWORDED_WHOLE = 0.5


def _follow_reworded_sentences_into_free_rules(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old rule whose sentence a free new rule restates in other words, beside
    new text, is that rule's counterpart.

    A rule rewritten around a sentence it took over (a verb renamed, the case turned into
    "the same is true for ...", after a new opening) shares too little of its whole text
    for the fuzzy passes, and its sentence too little wording for the sentence links.
    Its content stems still tell: a sentence of a free new rule holding
    ``FREE_REWORDED_COVER`` of a free old sentence's stems (``COVER_OLD_STEMS`` or more),
    the old sentence holding ``FREE_REWORDED_BACK`` of the new one's, with no other
    sentence of either edition (kept rules too) within ``COVER_MARGIN`` of either share
    and neither sentence said twice in its edition. Each side must reach the other only,
    the new rule must hold ``FREE_REWORDED_WHOLE`` of the whole old rule's stems (not one
    sentence of a longer rule whose rest went elsewhere), the pair keeps its topic and
    its name, and the new rule is not written for a subject the old edition lacks.
    """
    in_splits, in_merges = _grouped(splits, merges)
    free_old = [i for i in range(len(p.old)) if _free_old_text(p, i, splits, in_merges)]
    free_new = [
        j for j, node in enumerate(p.new) if not node.heading and _free_new(p, j, in_splits, merges)
    ]
    if not free_old or not free_new:
        return

    def stems_of(nodes: list[_Node], k: int) -> list[tuple[str, frozenset[str]]]:
        return [
            (u.key, _sentence_stems(p.swept(u.key) if nodes is p.old else u.key))
            for u in provenance.units(k, nodes[k].text)
            if not u.points_elsewhere
        ]

    olds = {i: [u for u in stems_of(p.old, i) if len(u[1]) >= COVER_OLD_STEMS] for i in free_old}
    news = {j: stems_of(p.new, j) for j in free_new}
    found: dict[int, set[int]] = defaultdict(set)
    reached: dict[int, set[int]] = defaultdict(set)
    every: tuple[list[tuple[int, frozenset[str]]], list[tuple[int, frozenset[str]]]] | None = None
    holders: tuple[Counter, Counter] = (Counter(), Counter())
    new_units = [(j, key, stems) for j, units in news.items() for key, stems in units if stems]
    posting: dict[str, list[int]] = defaultdict(list)
    for u, (_j, _key, stems) in enumerate(new_units):
        for stem in stems:
            posting[stem].append(u)
    for i, units in olds.items():
        for key, stems in units:
            hits = Counter(u for stem in stems for u in posting.get(stem, ()))
            for u, count in hits.items():
                j, new_key, new_stems = new_units[u]
                cover = count / len(stems)
                back = count / len(new_stems)
                if cover < FREE_REWORDED_COVER or back < FREE_REWORDED_BACK:
                    continue
                if every is None:
                    every = ([], [])
                    for side, nodes in enumerate((p.old, p.new)):
                        for k, n in enumerate(nodes):
                            for u_key, w in () if n.heading else stems_of(nodes, k):
                                holders[side][u_key] += 1
                                every[side].append((k, w))
                if holders[0][key] > 1 or holders[1][new_key] > 1:
                    continue  # a stock sentence says nothing about where a rule went
                if any(
                    q != j and len(stems & w) / len(stems) > cover - COVER_MARGIN
                    for q, w in every[1]
                ):
                    continue  # another new sentence holds its words about as well
                if any(
                    k != i and len(new_stems & w) / len(new_stems) > back - COVER_MARGIN
                    for k, w in every[0]
                ):
                    continue  # another old sentence says the new one about as well
                found[i].add(j)
                reached[j].add(i)
    for i, j in _named_by_each_other(found, reached):
        if p.o2n[i] >= 0 or p.n2o[j] >= 0:
            continue
        mine = frozenset().union(*(w for _k, w in stems_of(p.old, i)))
        theirs = frozenset().union(*(w for _k, w in news[j]))
        if len(mine & theirs) < FREE_REWORDED_WHOLE * len(mine):
            continue  # one sentence of a longer rule: most of it went elsewhere
        if _for_subject_old_lacks(p, i, j):
            continue
        # A sentence restated, each side's only match: the line drawn around a named kind
        # ("… is not a mana ability") may be the restatement itself, so it refuses nothing.
        if p.same_topic(i, j, lines=False) and _keeps_its_name(p.old[i], p.new[j]):
            p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "sentence")


#: A stem found in more than this share of an edition's rules is common wording: it
#: says nothing about where one rule went.
SLOT_COMMON_SHARE = 0.05
#: The rule a free old rule went into holds at least this many of its rare stems that
#: the rule's own sources lack ...
SLOT_BROUGHT_STEMS = 3
#: ... this many more than any other rule beside its slot.
SLOT_BROUGHT_MARGIN = 2


def _slot_counterparts(
    p: _Pairing, i: int, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> list[int]:
    """The new counterparts of old ``i``'s nearest relatives (the sibling before it, the
    sibling after it, its first subrule), in new order: where its text would stand."""
    node = p.old[i]
    siblings = p.old_children.get(node.parent, [])
    place = siblings.index(i)
    relatives = siblings[max(0, place - 1) : place] + siblings[place + 1 : place + 2]
    relatives += p.old_children.get(node.place, [])[:1]
    source_of = {k: j for j, group in merges.items() for k in group}
    found: set[int] = set()
    for k in relatives:
        j = p.o2n[k] if p.o2n[k] >= 0 else source_of.get(k, -1)
        if j >= 0 and k not in splits and not p.new[j].heading:
            found.add(j)
    return sorted(found)


def _rule_stems(nodes: list[_Node]) -> tuple[list[frozenset[str]], frozenset[str]]:
    """Each node's content stems (none for a heading), and the stems found in more than
    ``SLOT_COMMON_SHARE`` of the edition's rules (common wording)."""
    side_stems = rescue.stems_of(nodes)
    stems = [frozenset() if node.heading else side_stems[k] for k, node in enumerate(nodes)]
    counts = Counter(s for found in stems for s in found)
    rules = sum(1 for node in nodes if not node.heading)
    return stems, frozenset(s for s, c in counts.items() if c > SLOT_COMMON_SHARE * rules)


# One edition's alone: kept for the next pairing of a run.
_rule_stems_of = LastUsed(_rule_stems)


def _follow_closed_slots(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old rule whose place is gone went into the rule beside that place that
    holds its words.

    When the counterparts of an old rule's nearest relatives (the sibling before it, the
    sibling after it, its first subrule) follow each other in the new edition (a rule
    and its next sibling), the rule's place lies between them, and nothing stands there
    but subrules of the first: the rule was folded into one of those rules. The one it
    went into holds clearly the most of its rare content stems (stems in at most
    ``SLOT_COMMON_SHARE`` of either edition's rules) that its own sources lack, ahead
    of every other rule there (a free subrule counts the stems it adds to its parent's);
    a free new rule elsewhere holding more of them is its home instead. Rules written
    for a subject the old edition lacks are no place for it. It must keep its topic and
    its name there. Run last: nothing after it pairs free rules.
    """
    in_splits, in_merges = _grouped(splits, merges)
    free_olds = [i for i in range(len(p.old)) if _free_old_text(p, i, splits, in_merges)]
    if not free_olds:
        return
    old_stems, old_common = _rule_stems_of(p.old)
    new_stems, new_common = _rule_stems_of(p.new)
    common = old_common | new_common

    for i in free_olds:
        slot = _slot_counterparts(p, i, splits, merges)
        taken: set[int] = set()
        free: set[tuple[int, int]] = set()
        for a, b in zip(slot, slot[1:], strict=False):
            if p.new[b].parent != p.new[a].parent:
                continue
            between = range(a + 1, b)
            if any(not _new_under(p, x, p.new[a].place) for x in between):
                continue  # not next siblings: other rules stand between
            taken.update(k for k in (a, b) if k not in in_splits)
            free.update(
                (x, a)
                for x in between
                if not p.new[x].heading
                and _free_new(p, x, in_splits, merges)
                and not _for_subject_old_lacks(p, i, x)
            )
        if not taken:
            continue
        stems = old_stems[i] - common
        scores: list[tuple[int, bool, int]] = []
        for j in sorted(taken):
            sources = merges.get(j) or [p.n2o[j]]
            theirs = frozenset().union(*(old_stems[s] for s in sources))
            scores.append((len((stems & new_stems[j]) - theirs), True, j))
        # a subrule restates its parent's frame: only the words it adds tell
        scores += [(len(stems & new_stems[x] - new_stems[a]), False, x) for x, a in sorted(free)]
        scores.sort(key=lambda t: (-t[0], t[2]))
        most, is_taken, j = scores[0]
        if not is_taken or most < SLOT_BROUGHT_STEMS:
            continue
        if len(scores) > 1 and scores[1][0] > most - SLOT_BROUGHT_MARGIN:
            continue
        held = len(stems & new_stems[j])
        if any(
            len(stems & new_stems[x]) > held and not _for_subject_old_lacks(p, i, x)
            for x in range(len(p.new))
            if not p.new[x].heading and _free_new(p, x, in_splits, merges)
        ):
            continue  # a free new rule holds more of its words: its home may be there
        if p.same_topic(i, j) and _keeps_its_name(p.old[i], p.new[j]):
            _join_merge(p, i, j, splits, merges, in_merges)


def _follow_sentences_into_free_rules(
    p: _Pairing, prov: _Provenance, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free new rule that opens with a sentence of a taken old rule, a sentence none of
    that rule's present pieces holds, is one more piece of it.

    An old rule cut in several places keeps its counterpart (its first sentences went
    there) while a sentence further on became a rule of its own, often among other new
    text; the share test of the sentence pass asks too much of such a piece. When the
    free new rule's statement (its first sentence) is linked to a sentence of the old
    rule that none of the rule's pieces says about as well, no other new rule says about
    as well and no free old rule about as well, the free rule stands beside a piece or
    in the old rule's place, and it is not that sentence written again for a subject the
    old edition lacks, it joins the split. A rule that is a source of a merge is left
    to :func:`_add_pieces_to_merge_sources`, last of all: the group becomes several old
    and several new.
    """
    in_splits, in_merges = _grouped(splits, merges)

    def pieces_of(i: int) -> list[int] | None:
        if (p.o2n[i] < 0 and i not in splits) or i in in_merges:
            return None
        return splits.get(i) or [p.o2n[i]]

    found = _statements_from_taken_rules(p, prov, splits, merges, pieces_of)
    for j in sorted(found):
        if len(found[j]) != 1:
            continue
        (i,) = found[j]
        pieces = splits.get(i) or [p.o2n[i]]
        if any(q in merges for q in pieces) or not _piece_of(p, i, j, pieces, in_splits, merges):
            continue
        splits[i] = sorted({*pieces, j}, key=lambda q: p.new[q].order)
        in_splits.add(j)


def _add_statements_kept_by_merges(
    p: _Pairing, prov: _Provenance, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> dict[int, int]:
    """Last of all: an old rule matched one to one whose statement a merged new rule says
    word for word is a source of that rule too; it becomes a split into its counterpart
    and the merged rule, and the merge's sources join the merged rule.

    An old edition may say one sentence in two rules: 2003-10-01 to 2009-05-01 define a
    permanent in the general rules on objects (200.6, "… that's in play") and again as
    the statement of the permanents rule (214.1). The new permanents rule 110.1 opens
    with that definition and goes on with a sentence of the old 214.3, so it is merged
    from 200.6 and 214.3, while 214.1, whose other sentences went into 110.4, kept
    110.4 alone. The statement (:func:`_statement_key`: a pointer is passed over, as
    every statement pass does) is linked exactly to the merged rule and to no other new rule,
    and no other old rule says it word for word (a stock sentence says nothing of
    where a rule went); the counterpart does not say it; the merged rule keeps the old
    rule's topic. Returns ``{old rule: merged rule}`` for the merge's sources, as
    :func:`_add_pieces_to_merge_sources` does.
    """
    if not merges:
        return {}
    in_splits, in_merges = _grouped(splits, merges)
    found: dict[int, list[int]] = defaultdict(list)  # merged rule -> old rules
    for i in sorted(prov.links_of_old):  # a rule whose sentences link somewhere
        j0 = p.o2n[i]
        if j0 < 0 or i in splits or i in in_merges or j0 in in_splits or j0 in merges:
            continue
        statement = _statement_key(p.old[i])
        if statement is None:
            continue
        targets = {
            prov.new_units[link.new].owner
            for k in prov.links_of_old.get(i, ())
            if (link := prov.links[k]).score == 100.0 and prov.old_units[link.old].key == statement
        }
        if len(targets) != 1 or len(prov.old_holders[statement]) > 1:
            continue
        (j,) = targets
        if j in merges and j != j0 and p.same_topic(i, j):
            found[j].append(i)
    joins: dict[int, int] = {}
    for j, olds in sorted(found.items()):
        if len(olds) != 1:
            continue  # two rules' statements: which went where is not one split
        (i,) = olds
        sources = merges.pop(j)
        splits[i] = sorted({p.o2n[i], j}, key=lambda q: p.new[q].order)
        joins.update((k, j) for k in sources)
    return joins


def _add_pieces_to_merge_sources(
    p: _Pairing, prov: _Provenance, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> dict[int, int]:
    """Last of all: a free new rule whose statement is a sentence of a merge's source, a
    sentence the merged rule does not hold, is a piece of that source; the merge becomes
    a group of several old and several new rules.

    Two old rules joined into one new rule can each leave text elsewhere too: 401.1 of
    2004-10-01 (a spell on the stack) went into 112.1 with 213.1, while its last
    sentence, on a copy of a spell, is the whole statement of the new 112.1a. The tests
    of :func:`_follow_sentences_into_free_rules` decide the piece. The source becomes a
    split into the merged rule and its pieces, and the merge's other sources join the
    merged rule: returns ``{old rule: merged rule}`` for them, as
    :func:`_join_emptied_containers_to_splits` does (:func:`rulediff.classify._groups`
    makes the group, whose links say which old rule went where). A merge two of whose
    sources have pieces is left as it is. Run after every pass that may still take the
    free rule.
    """
    target_of = {i: j for j, sources in merges.items() for i in sources}
    if not target_of:
        return {}
    in_splits, _in_merges = _grouped(splits, merges)

    def pieces_of(i: int) -> list[int] | None:
        j = target_of.get(i)
        return None if j is None else [j]

    found = _statements_from_taken_rules(p, prov, splits, merges, pieces_of)
    pieces: dict[int, list[int]] = defaultdict(list)
    for j in sorted(found):
        if len(found[j]) != 1:
            continue
        (i,) = found[j]
        if _piece_of(p, i, j, [target_of[i]], in_splits, merges):
            pieces[i].append(j)
    joins: dict[int, int] = {}
    by_target: dict[int, list[int]] = defaultdict(list)
    for i in pieces:
        by_target[target_of[i]].append(i)
    for j, (i, *others) in sorted(by_target.items()):
        if others:
            continue  # two sources with pieces: which old rule went where is not one split
        sources = merges.pop(j)
        splits[i] = sorted({j, *pieces[i]}, key=lambda q: p.new[q].order)
        joins.update((k, j) for k in sources if k != i)
    return joins


def _free_statements(
    p: _Pairing,
    prov: _Provenance,
    splits: dict[int, list[int]],
    in_merges: set[int],
    joined: Mapping[int, int],
) -> Iterator[tuple[int, str]]:
    """``(old rule, statement key)`` of the free old rules not yet ``joined`` whose
    statement no other old rule says (see :func:`_statement_key`)."""
    for i in range(len(p.old)):
        if i in joined or not _free_old_text(p, i, splits, in_merges):
            continue
        statement = _statement_key(p.old[i])
        if statement is not None and not prov.old_holders.get(statement, set()) - {i}:
            yield i, statement


def _join_statements_to_split_pieces(
    p: _Pairing,
    prov: _Provenance,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    joined: Mapping[int, int],
) -> dict[int, int]:
    """Last of all: a free old rule whose statement a piece of a split says near word for
    word joins the split, as the source of that piece.

    A rule is removed only when none of its content survives, yet a rule whose sentence
    went into a piece of another rule's split was left removed, its sentence listed as
    moved text: a rule is never both a split's piece and a merge. The banding rule that
    one player may declare several bands went whole into the rule the band declaration
    split into (2009-07-11); the opening that a mana ability can be activated or
    triggered into the rule that took the next subrule's text (2003-07-01). The
    statement (the rule's first sentence of ``MIN_UNIT_WORDS`` words or more, not a
    pointer) is said near word for word (``NEAR_SIMILARITY``) by that piece and by no
    other new rule, and by no other old rule (the split's own source above all: a
    sentence both editions give it is its own), nor is it a stock sentence; the piece
    keeps the old rule's topic and is not written for a subject the old edition lacks.
    Returns ``{old rule: piece}`` for :func:`rulediff.classify._groups`, as
    :func:`_join_emptied_containers_to_splits` does. ``joined``: the old rules already
    joined so.
    """
    in_splits, in_merges = _grouped(splits, merges)
    joins: dict[int, int] = {}
    for i, statement in _free_statements(p, prov, splits, in_merges, joined):
        links = [
            prov.links[k]
            for k in prov.links_of_old.get(i, ())
            if prov.old_units[prov.links[k].old].key == statement
        ]
        if not links or any(link.score < provenance.NEAR_SIMILARITY for link in links):
            continue
        targets = {prov.new_units[link.new].owner for link in links}
        if len(targets) != 1:
            continue  # said again by two new rules: the text does not say which
        (j,) = targets
        if j not in in_splits or any(prov.new_units[link.new].key in prov.common for link in links):
            continue
        said_by_others = any(
            prov.links[k].new == link.new and prov.old_units[prov.links[k].old].owner != i
            for link in links
            for k in prov.links_of_new.get(j, ())
        )
        if said_by_others or not p.same_topic(i, j) or _under_new_subject(p, j):
            continue
        joins[i] = j
    return joins


def _join_statements_beside_siblings(
    p: _Pairing,
    prov: _Provenance,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    joined: Mapping[int, int],
) -> dict[int, int]:
    """Last of all: a free old rule whose statement, reworded, is a sentence of the rule a
    sibling of it went into joins that rule as one more source.

    A reworded sentence (``REWORDED_SIMILARITY``) is linked only between rules in
    corresponding places, known by their matched ancestors when the links are made; a
    section whose rules were placed late, one by one, has none. The old rule that a
    spell stops being a spell once it resolves, is countered or leaves the stack
    (401.2 of 2003-2008) was left removed beside its sibling 401.1, the definition of a
    spell, which went into the new spell rule 112.1 that also says, in other words, how
    long a spell stays one. The statement is said by no other old rule; the new sentence
    is closer to it than to any sentence of the new rule's present sources; of the rules
    the free rule's siblings went into, one only holds it; the rule keeps its topic.
    Returns ``{old rule: piece}`` for a piece of a split (as
    :func:`_join_statements_to_split_pieces` does); into a rule matched one to one or
    merged, the rule joins the merge. ``joined``: the old rules already joined so.
    """
    in_splits, in_merges = _grouped(splits, merges)
    went, sources_of = rescue._links(p, splits, merges)
    for i, j in joined.items():
        went[i].append(j)
        sources_of[j].append(i)
    joins: dict[int, int] = {}
    floor = provenance.REWORDED_SIMILARITY
    for i, statement in _free_statements(p, prov, splits, in_merges, joined):
        node = p.old[i]
        if node.parent is None:
            continue
        key = p.swept(statement)
        places = {
            j
            for s in p.old_children.get(node.parent, ())
            if s != i and not p.old[s].heading
            for j in went.get(s, ())
        }
        found: list[int] = []
        for j in sorted(places):
            scored = [
                (fuzz.ratio(key, unit), unit)
                for unit in provenance.unit_keys(p.new[j].text)
                if unit not in prov.common
            ]
            if not scored:
                continue
            best, unit = max(scored)
            if best < floor:
                continue
            own = [p.swept(u) for k in sources_of[j] for u in provenance.unit_keys(p.old[k].text)]
            if any(fuzz.ratio(u, unit) >= best for u in own):
                continue  # the rule's own sources say that sentence as closely
            found.append(j)
        if len(found) != 1 or not p.same_topic(i, found[0]):
            continue
        (j,) = found
        if j in in_splits:
            joins[i] = j
        else:
            _join_merge(p, i, j, splits, merges, in_merges)
    return joins


def _join_rules_said_twice(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old rule whose every sentence another old rule says word for word, and
    whose sentences the new counterpart of that other rule keeps, joins it as a source.

    A rule is removed only when none of its content survives: a rule that repeated
    another's sentence and was dropped while the other lived on was left removed, though
    its text stands whole in the new edition. The cost rule that unpayable costs can't
    be paid, said again at the end of the payment step of playing a spell (2009-07-11);
    the vanguard subtype rule repeated in the list of subtypes (2010-06-18). Each
    sentence (the rule's units of ``MIN_UNIT_WORDS`` words or more, pointers aside)
    has the same comparison key in one new rule and in no other, and every other old
    rule that says it is a source of that new rule; all the sentences lead to the same
    rule, which is no piece of a split.
    """
    in_splits, in_merges = _grouped(splits, merges)
    said = {
        i: set(_said_keys(p.old[i].text))
        for i in range(len(p.old))
        if _free_old_text(p, i, splits, in_merges)
    }
    said = {i: keys for i, keys in said.items() if keys}
    if not said:
        return
    # Only the candidates' sentences are looked for (a tenth of the texts' cost).
    wanted = set().union(*said.values())
    swept = {key: p.swept(key) for key in wanted}
    wanted_new = set(swept.values())
    old_holders: dict[str, set[int]] = defaultdict(set)
    new_holders: dict[str, set[int]] = defaultdict(set)
    for i, node in enumerate(p.old):
        if not node.heading:
            for key in wanted.intersection(_said_keys(node.text)):
                old_holders[key].add(i)
    for j, node in enumerate(p.new):
        if not node.heading:
            for key in wanted_new.intersection(_said_keys(node.text)):
                new_holders[key].add(j)
    for i, keys in sorted(said.items()):
        homes = {j for key in keys for j in new_holders.get(swept[key], ())}
        if len(homes) != 1:
            continue
        (j,) = homes
        sources = set(merges.get(j) or ([p.n2o[j]] if p.n2o[j] >= 0 else ()))
        if j in in_splits or not sources:
            continue
        said_again = [old_holders[key] - {i} for key in keys]
        if all(new_holders[swept[key]] == {j} for key in keys) and all(
            others and others <= sources for others in said_again
        ):
            _join_merge(p, i, j, splits, merges, in_merges)


@functools.lru_cache(maxsize=1 << 14)
def _said_keys(text: str) -> tuple[str, ...]:
    """The comparison keys of a text's sentences that say something: ``MIN_UNIT_WORDS``
    words or more, no pointer to another rule. Memoized: the pass reads every text."""
    return tuple(key for key in provenance.unit_keys(text) if not provenance.points_elsewhere(key))


def _piece_of(
    p: _Pairing,
    i: int,
    j: int,
    pieces: Sequence[int],
    in_splits: set[int],
    merges: dict[int, list[int]],
) -> bool:
    """Free new ``j``, found by its statement, may be one more piece of old ``i`` (whose
    present pieces are ``pieces``): on its topic, and not that text written again for a
    new subject."""
    if not p.same_topic(i, j) or _under_new_subject(p, j) or _piece_for_new_subject(p, i, j):
        return False
    return not any(_reused_for_new_subject(p, i, q, j, in_splits, merges) for q in pieces)


def _statements_from_taken_rules(
    p: _Pairing,
    prov: _Provenance,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    pieces_of: Callable[[int], list[int] | None],
) -> dict[int, set[int]]:
    """``{free new rule: old rules}``: the taken old rules (``pieces_of`` gives the new
    rules each went into, None for a rule not to follow) one of whose sentences is the
    free rule's statement, said by none of its pieces (see
    :func:`_follow_sentences_into_free_rules`)."""
    in_splits, in_merges = _grouped(splits, merges)
    new_units: list[tuple[int, str]] | None = None
    new_keys: list[str] = []
    free_old_keys: list[str] = []
    old_text = ""
    found: dict[int, set[int]] = defaultdict(set)
    for j in sorted(prov.links_of_new):
        if not _free_new(p, j, in_splits, merges) or p.new[j].heading:
            continue
        statement = prov.statement_of_new.get(j)
        for k in prov.links_of_new[j]:
            link = prov.links[k]
            if link.new != statement:
                continue
            unit, new_unit = prov.old_units[link.old], prov.new_units[link.new]
            i = unit.owner
            pieces = pieces_of(i)
            if pieces is None or p.old[i].heading:
                continue
            if unit.points_elsewhere or new_unit.points_elsewhere:
                continue
            if len(prov.old_holders[unit.key]) > 1 or len(prov.new_holders[new_unit.key]) > 1:
                continue  # a stock sentence says nothing about where a rule went
            parent = p.new[j].parent
            beside = any(parent in (p.new[q].parent, p.new[q].place) for q in pieces)
            if not (beside or _in_place(p, i, j)):
                continue  # neither a sibling nor a subrule of a piece, nor in i's place
            near = link.score - FRAME_MARGIN
            key = p.swept(unit.key)
            held = [h for q in pieces for h in provenance.unit_keys(p.new[q].text)]
            held.append(" ".join(held))
            if any(fuzz.ratio(key, h) > near for h in held):
                continue  # a present piece holds it
            if new_units is None:
                # every new rule, kept ones too: a sentence kept elsewhere is stock wording
                new_units = [
                    (q, h)
                    for q, node in enumerate(p.new)
                    if not node.heading
                    for h in provenance.unit_keys(node.text)
                ]
                new_keys = [h for _q, h in new_units]
                free_old_keys = [
                    p.swept(u.key)
                    if p.o2n[u.owner] < 0 and u.owner not in splits and u.owner not in in_merges
                    else ""
                    for u in prov.old_units
                ]
                old_text = "\n".join(n.lower for n in p.old)
            if any(
                new_units[m][0] != j
                for _key, _score, m in process.extract_iter(
                    key, new_keys, scorer=fuzz.ratio, score_cutoff=near
                )
            ):
                continue  # another new rule says it about as well
            if any(
                True
                for _ in process.extract_iter(
                    new_unit.key, free_old_keys, scorer=fuzz.ratio, score_cutoff=near
                )
            ):
                continue  # a free old rule says it about as well: its source may be that
            kept = frozenset().union(*(_content_words(p.new[q].lower) for q in pieces))
            if _new_subject(key, new_unit.key, old_text, kept):
                continue  # the sentence written again for a subject the old edition lacks
            found[j].add(i)
    return found


def _family_of(p: _Pairing, group: Sequence[int]) -> set[int]:
    """The new rules next to a counterpart group: the siblings, the parent and the
    subrules of each member."""
    found: set[int] = set()
    for g in group:
        node = p.new[g]
        if node.parent is not None:
            found.update(p.new_children.get(node.parent, []))
            k = p.new_by_place.get(node.parent)
            if k is not None:
                found.add(k)
        found.update(p.new_children.get(node.place, []))
    return found - set(group)


#: A sentence of an old rule said this closely (``fuzz.ratio`` of the comparison keys) by
#: a free new rule next to its counterpart went there ...
SURPLUS_SAID = 80.0
#: ... when the counterpart says it this much less closely (it dropped that sentence).
SURPLUS_LEAD = 15.0
#: A sentence with at most this many content words is said only with all of them.
SHORT_SENTENCE_WORDS = 3


def _unit_keys(nodes: Sequence[_Node], k: int, swept: Callable[[str], str] | None) -> list[str]:
    """The comparison keys of node ``k``'s sentences long enough to compare (not a bare
    cross-reference), swept when ``swept`` is given (the old side)."""
    keys = [
        key for key in provenance.unit_keys(nodes[k].text) if not provenance.points_elsewhere(key)
    ]
    return [swept(key) for key in keys] if swept else keys


def _closest(key: str, keys: Iterable[str]) -> float:
    """The highest ``fuzz.ratio`` of ``key`` to any of ``keys`` (0 for none); one
    ``extractOne`` call prepares ``key`` once instead of once per comparison."""
    best = process.extractOne(key, keys, scorer=fuzz.ratio)
    return 0.0 if best is None else best[1]


def _loses_a_word_of_short_sentence(key: str, other: str) -> bool:
    """In a sentence of few content words (:data:`SHORT_SENTENCE_WORDS`) one changed
    word is a fifth of its letters and the whole of what it says ("a keyword is a
    triggered ability" → "... a static ability"): close in letters, another statement."""
    words = _content_words(key)
    if len(words) > SHORT_SENTENCE_WORDS:
        return False
    return bool({w[:5] for w in words} - _words(other))


def _says_nothing_more(p: _Pairing, i: int, x: int, group: Sequence[int]) -> bool:
    """New ``x`` says none of old ``i``'s words that ``i``'s counterparts lack: beside the
    shared sentence it adds only its own subject (the counterpart written again for a
    team variant, a new mana symbol), so it is a copy, not a piece of ``i``."""
    own = _own_words(p.new[x], (p.new[g] for g in group)) & _content_stems(p.new[x])
    return not own & _words(p.old[i].lower)


def _add_surplus_pieces(
    p: _Pairing, prov: _Provenance, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A sentence of an old rule that its counterpart dropped, said by a free new rule
    beside that counterpart: the rule was split, and the free rule is one more piece.

    Seen from the split side: the old rule's surplus over its counterpart (a sentence
    the counterpart says at least :data:`SURPLUS_LEAD` less closely) is said nearly whole
    (:data:`SURPLUS_SAID`) by one free new rule among the counterpart's siblings, parent
    and subrules, more closely than by any other free rule there (two saying it: a stock
    ending, the text does not decide) and than by any rule there already paired (the
    stock ending of a run whose other members are paired: each special action "may be
    taken any time the player has priority", which the old rule on special actions said
    once for them all). Not a piece: a free rule that adds none of the old
    rule's words its counterpart lacks (the counterpart written again for another
    subject), one a free old rule beside it says as closely (that rule's counterpart),
    one written for a subject the old edition lacks. Sentences several rules of either
    edition repeat word for word tell nothing and are not compared.
    """
    in_splits, in_merges = _grouped(splits, merges)
    free_olds = [
        k
        for k, n in enumerate(p.old)
        if p.o2n[k] < 0 and not n.heading and k not in splits and k not in in_merges
    ]
    stock = prov.common | {key for key, owners in prov.old_holders.items() if len(owners) > 1}
    added: dict[int, set[int]] = {}
    claimed: Counter = Counter()
    for i, group in _with_counterparts(p, splits, merges, in_merges):
        node = p.old[i]
        if len(group) == 1 and node.lower == p.new[group[0]].lower == p.swept(node.lower):
            continue  # kept word for word (no sweep in it): it dropped nothing
        kept = [key for g in group for key in _unit_keys(p.new, g, None)]
        surplus = [
            (key, said_kept)
            for key in _unit_keys(p.old, i, p.swept)
            if key not in stock and (said_kept := _closest(key, kept)) < 100.0 - SURPLUS_LEAD
        ]
        if not surplus:
            continue
        family = sorted(_family_of(p, group))
        free = [
            (x, [key for key in _unit_keys(p.new, x, None) if key not in stock])
            for x in family
            if not p.new[x].heading and _free_new(p, x, in_splits, merges)
        ]
        # every rule beside the counterpart, free or taken, with all its sentences: one
        # saying the sentence as closely as the free rule does leaves it undecided
        beside = [(x, _unit_keys(p.new, x, None)) for x in family if not p.new[x].heading]
        for key, said_kept in surplus:
            scored = sorted(
                ((fuzz.ratio(key, theirs), x, theirs) for x, keys in free for theirs in keys),
                key=lambda t: (-t[0], t[1]),
            )
            if not scored:
                continue
            score, x, theirs = scored[0]
            if score < SURPLUS_SAID or score < said_kept + SURPLUS_LEAD:
                continue
            if _loses_a_word_of_short_sentence(key, theirs):
                continue  # "X is a triggered ability" is not said by "X is a static ability"
            if any(y != x and _closest(key, keys) >= score for y, keys in beside):
                continue  # said as closely by another rule there, free or taken: stock wording
            if _says_nothing_more(p, i, x, group):
                continue  # a copy of the counterpart
            if _other_variant(p, i, x):
                continue  # another variant of the run, on the template both say
            if any(
                _closest(theirs, _unit_keys(p.old, k, p.swept)) >= score
                for k in free_olds
                if p.old[k].parent == node.parent or _in_place(p, k, x)
            ):
                continue  # a free old rule says it as closely: maybe its counterpart
            if _for_subject_old_lacks(p, i, x):
                continue  # the sentence written again for a subject the old edition lacks
            added.setdefault(i, set()).add(x)
    for found in added.values():
        claimed.update(found)
    _add_unshared_pieces(p, added, claimed, splits, in_splits)


#: A surplus sentence's rare words (IDF mass) a free new rule beside the counterpart
#: holds at least this share of went there reworded ...
REWORDED_SURPLUS_HELD = 0.9
#: ... when the counterpart holds at most this share (it does not say them) and no
#: other free rule there does either ...
REWORDED_SURPLUS_ELSEWHERE = 0.6
#: ... and the sentence has at least this many content stems (fewer: stock words).
REWORDED_SURPLUS_STEMS = 4
#: A sentence found this closely (``fuzz.partial_ratio``) inside another new rule's
#: sentence was kept there, not reworded into the free rule.
REWORDED_SURPLUS_KEPT = 90.0
_NEGATION = re.compile(r"\b(?:no|not|never|none|cannot)\b|n't\b")


def _add_reworded_surplus_pieces(
    p: _Pairing, prov: _Provenance, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A sentence of an old rule, reworded past :func:`_add_surplus_pieces`'s letter test,
    whose words went to a free new rule beside the counterpart: one more piece of a split.

    Seen by words, not letters: nearly all the sentence's rare-word mass
    (:data:`REWORDED_SURPLUS_HELD`) is in one free rule among the counterpart's siblings,
    parent and subrules, while the counterpart and every other free rule there hold
    little of it (:data:`REWORDED_SURPLUS_ELSEWHERE`): what the new rule says of that
    sentence no other rule beside it says. Not a piece: a sentence the counterpart still
    says reworded (:data:`WEAK_FUZZY`), a short one of stock words, a denial ("no", "not")
    the free rule does not repeat (a rule that some costs have symbols does not say some
    have none), a sentence kept nearly word for word inside another new rule
    (:data:`REWORDED_SURPLUS_KEPT`: it went there, the free rule only says it again in
    other words), a rule as well held by a free old rule beside it, and the refusals of
    :func:`_add_surplus_pieces` (a copy for another subject, a new subject's rule, a
    rule two old rules would claim).
    """

    def pick(key, stems, total, said_kept, free, kept_stems, mass) -> int | None:
        if mass(stems & kept_stems) > REWORDED_SURPLUS_ELSEWHERE * total:
            return None
        held = sorted(
            ((mass(stems & rescue._stems(p.new[x].lower)) / total, x) for x in free),
            key=lambda t: (-t[0], t[1]),
        )
        share, x = held[0]
        if share < REWORDED_SURPLUS_HELD:
            return None
        if len(held) > 1 and held[1][0] > REWORDED_SURPLUS_ELSEWHERE:
            return None  # another free rule beside says much of it too
        return x

    _add_sentence_pieces(p, prov, splits, merges, pick)


def _with_counterparts(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]], in_merges: set[int]
) -> Iterator[tuple[int, list[int]]]:
    """Each old rule with text, no merge source, and its counterparts (its pieces, or its
    match), none of them a merge: the rules whose dropped sentences the piece passes
    look for. Read as the caller goes (a pass may add pieces on the way)."""
    for i, node in enumerate(p.old):
        if node.heading or i in in_merges:
            continue
        group = splits.get(i) or ([p.o2n[i]] if p.o2n[i] >= 0 else [])
        if group and not any(g in merges for g in group):
            yield i, group


def _beside_counterparts(
    p: _Pairing,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    in_splits: set[int],
    in_merges: set[int],
) -> Iterator[tuple[int, list[int], list[int], list[str], frozenset[str]]]:
    """Each old rule with text (no merge source) and its counterparts (its pieces, or its
    match; none of them a merge), the free rules beside those (:func:`_family_of`), the
    counterparts' sentence keys and their stems: where the piece passes look for an old
    sentence that went on beside its counterpart. Read as the caller goes: a piece one
    rule gains is no longer free for the next."""
    for i, group in _with_counterparts(p, splits, merges, in_merges):
        free = [
            x
            for x in sorted(_family_of(p, group))
            if not p.new[x].heading and _free_new(p, x, in_splits, merges)
        ]
        if not free:
            continue
        kept = [key for g in group for key in _unit_keys(p.new, g, None)]
        kept_stems = frozenset().union(*(rescue._stems(p.new[g].lower) for g in group))
        yield i, group, free, kept, kept_stems


def _add_sentence_pieces(
    p: _Pairing,
    prov: _Provenance,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    pick: Callable[..., int | None],
) -> None:
    """The walk both reworded-piece steps share: each sentence of a matched or split old
    rule that its counterpart does not say in letters (:data:`WEAK_FUZZY`) and that is no
    stock sentence, with enough content stems, is offered to ``pick`` (``key, stems,
    total, said_kept, free, kept_stems, mass``) with the free rules beside the
    counterpart. The free rule picked becomes one more piece unless a common refusal
    holds: a denial the free rule does not repeat, a rule saying nothing more, a free old
    rule beside that holds it as well, a new subject's rule, or the sentence kept nearly
    word for word inside another new rule.
    """
    _old_side, _new_side, _index, idf = rescue._weights(p)
    unknown = max(idf.values(), default=1.0)

    def mass(stems: frozenset[str]) -> float:
        return math.fsum(idf.get(w, unknown) for w in stems)

    in_splits, in_merges = _grouped(splits, merges)
    free_olds = [
        k
        for k, n in enumerate(p.old)
        if p.o2n[k] < 0 and not n.heading and k not in splits and k not in in_merges
    ]
    stock = prov.common | {key for key, owners in prov.old_holders.items() if len(owners) > 1}
    new_units: list[provenance.Unit] | None = None
    added: dict[int, set[int]] = {}
    for i, group, free, kept, kept_stems in _beside_counterparts(
        p, splits, merges, in_splits, in_merges
    ):
        node = p.old[i]
        for key in _unit_keys(p.old, i, p.swept):
            if key in stock:
                continue
            said_kept = _closest(key, kept)
            if said_kept >= WEAK_FUZZY:
                continue
            stems = rescue._stems(key)
            total = mass(stems)
            if len(stems) < REWORDED_SURPLUS_STEMS or not total:
                continue
            x = pick(key, stems, total, said_kept, free, kept_stems, mass)
            if x is None:
                continue
            if _NEGATION.search(key) and not _NEGATION.search(p.new[x].lower):
                continue  # the sentence denies; the free rule does not
            if _says_nothing_more(p, i, x, group):
                continue
            found = stems & rescue._stems(p.new[x].lower)
            if any(
                mass(found & rescue._stems(p.old[k].lower)) >= REWORDED_SURPLUS_HELD * total
                for k in free_olds
                if p.old[k].parent == node.parent or _in_place(p, k, x)
            ):
                continue  # a free old rule beside says it too: maybe its counterpart
            if _for_subject_old_lacks(p, i, x):
                continue
            if new_units is None:
                new_units = [u for j, n in enumerate(p.new) for u in provenance.units(j, n.text)]
            if any(
                u.owner != x
                and len(u.key) >= len(key)
                and fuzz.partial_ratio(key, u.key) >= REWORDED_SURPLUS_KEPT
                for u in new_units
            ):
                continue  # kept nearly word for word inside another new rule: it went there
            added.setdefault(i, set()).add(x)
    claimed = Counter(x for found in added.values() for x in found)
    _add_unshared_pieces(p, added, claimed, splits, in_splits)


def _add_twin_pieces(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """An old rule weakly linked to one of two new twins (one frame written for two
    subjects) whose other twin is free: the old rule, general for both, was split.

    The twins are the counterpart and its one sibling written to the same frame
    (``PARALLEL_FRAME_SIMILARITY``, letters and words); the old rule is as close to the
    free twin as to its counterpart and names both twins' own subject words or neither
    (naming only the counterpart's, the free twin is a new subject's rule).
    """
    in_splits, in_merges = _grouped(splits, merges)
    subject_words: frozenset[str] | None = None
    added: dict[int, int] = {}
    for i, node in enumerate(p.old):
        j = p.o2n[i]
        if node.heading or j < 0 or i in splits or i in in_merges or j in merges:
            continue
        if p.score.get(i, 0.0) >= WEAK_FUZZY or p.new[j].parent is None:
            continue
        siblings = [
            k
            for k in p.new_children.get(p.new[j].parent, [])
            if k != j
            and not p.new[k].heading
            and fuzz.ratio(p.new[j].lower, p.new[k].lower) >= PARALLEL_FRAME_SIMILARITY
            and fuzz.token_set_ratio(p.new[j].lower, p.new[k].lower) >= PARALLEL_FRAME_SIMILARITY
        ]
        if len(siblings) != 1:
            continue  # none, or a run of parallel rules: each has its own
        (x,) = siblings
        if not _free_new(p, x, in_splits, merges):
            continue
        if fuzz.token_set_ratio(node.lower, p.new[x].lower) < fuzz.token_set_ratio(
            node.lower, p.new[j].lower
        ):
            continue
        if subject_words is None:
            subject_words = _rare_words(p.new)
        said = _words(node.lower)
        own_j = _own_words(p.new[j], (p.new[x],)) & subject_words
        own_x = _own_words(p.new[x], (p.new[j],)) & subject_words
        if bool(own_j & said) != bool(own_x & said):
            continue
        added[i] = x
    pieces = {i: {x} for i, x in added.items()}
    _add_unshared_pieces(p, pieces, Counter(added.values()), splits, in_splits)


#: A free old subrule is rewritten as a free new subrule of its parent's counterpart
#: when the new one says, in the same order, at least this share of its words ...
KEPT_IN_ORDER_SHARE = 0.65
#: ... this much more of them than any other free subrule there says.
KEPT_IN_ORDER_LEAD = 0.2


def _words_kept_in_order(old_words: Sequence[str], new_words: Sequence[str]) -> float:
    """The share of ``old_words`` that ``new_words`` says in the same order."""
    if not old_words:
        return 0.0
    opcodes = word_opcodes(list(old_words), list(new_words))
    kept = sum(i2 - i1 for tag, i1, i2, _j1, _j2 in opcodes if tag == "equal")
    return kept / len(old_words)


def _pair_subrules_kept_in_order(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old subrule whose words (the pair's recurring wording changes applied) a
    free new subrule of its parent's counterpart says mostly in the same order, clearly
    more of them than any other free subrule there, is that rule rewritten: a rule
    widened by a list of new cases or a trailing exception keeps its sentence's order,
    where a rule of the same words in another order says something else ("no X" against
    "X are ..."). Each must be the other's clear best, keep its topic, and the new rule
    be no rule written for a subject the old edition lacks."""
    in_splits, in_merges = _grouped(splits, merges)
    counterparts_of: dict[int, list[int]] = {}
    for j, group in merges.items():
        for i in group:
            counterparts_of.setdefault(i, []).append(j)
    options_of_old: dict[int, list[tuple[float, int]]] = {}
    options_of_new: dict[int, list[tuple[float, int]]] = defaultdict(list)
    for i, node in enumerate(p.old):
        if p.o2n[i] >= 0 or node.heading or node.parent is None:
            continue
        if i in splits or i in in_merges:
            continue
        k = p.old_by_place.get(node.parent)
        if k is None:
            continue
        homes = splits.get(k) or ([p.o2n[k]] if p.o2n[k] >= 0 else counterparts_of.get(k, []))
        free = [
            x
            for h in homes
            for x in p.new_children.get(p.new[h].place, ())
            if not p.new[x].heading and _free_new(p, x, in_splits, merges)
        ]
        if not free:
            continue
        old_words = _ALNUM_WORD.findall(p.swept(node.lower))
        scored = [
            (_words_kept_in_order(old_words, _ALNUM_WORD.findall(p.new[x].lower)), x)
            for x in sorted(set(free))
        ]
        options_of_old[i] = scored
        for share, x in scored:
            options_of_new[x].append((share, i))

    def clear_best(options: list[tuple[float, int]]) -> int | None:
        return rescue.clear_best(options, KEPT_IN_ORDER_SHARE, KEPT_IN_ORDER_LEAD)

    for i, options in sorted(options_of_old.items()):
        j = clear_best(options)
        if j is None or clear_best(options_of_new[j]) != i:
            continue
        if not p.same_topic(i, j) or _for_subject_old_lacks(p, i, j):
            continue
        if p.o2n[i] < 0 and p.n2o[j] < 0:
            p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "structure")


#: A free old rule and a free new rule that open on the same run of at least this many
#: words ...
SHARED_OPENING_WORDS = 5
#: ... at least this many of them content words ...
SHARED_OPENING_CONTENT = 3
#: ... one of which stands in at most this many rules of each edition (a subject of its own).
SHARED_OPENING_RARE = 5


def _pair_by_shared_opening(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old rule and a free new rule that open on the same long subject phrase,
    said by no other rule of either edition, are one rule rewritten.

    A rule's opening names what it is about ("the illustration credit for a card"); a
    rewrite that moved the rule to a new section and replaced the rest of its sentence
    keeps that subject, while the whole-text scores fall below every threshold. The
    shared leading words (the pair's recurring wording changes applied to the old text)
    must be ``SHARED_OPENING_WORDS`` long with ``SHARED_OPENING_CONTENT`` content words,
    and the phrase must stand in that one old rule and that one new rule only (a stock
    opening, "if a player would ...", stands in many). A unique phrase of common words
    is still no subject ("in a multiplayer game not using the ..." opens a rule of
    winning and one of attacking): one of its content words past the openings other
    rules share with either rule must stand in at most ``SHARED_OPENING_RARE`` rules of
    each edition (:func:`_shared_openings`). A second round asks no rare word of the
    two rules under matched parents: placed alike, a unique opening of common words
    ("a player can't begin to cast a spell …") is the rule rewritten. Both are free,
    neither is a heading, the pair keeps its topic (``same_topic``) and the new rule is
    not written for a subject the old edition lacks.
    """
    in_splits, in_merges = _grouped(splits, merges)

    def placed(i: int, j: int) -> bool:
        return p.old[i].parent is not None and p.mapped_parent(i) == p.new[j].parent

    for rare, near in ((SHARED_OPENING_RARE, None), (None, placed)):
        for i, j, _phrase in _shared_openings(
            p,
            lambda i: _free_old_text(p, i, splits, in_merges),
            lambda j: _free_new(p, j, in_splits, merges),
            rare,
            near,
        ):
            if p.o2n[i] >= 0 or p.n2o[j] >= 0:
                continue
            if not p.same_topic(i, j) or _for_subject_old_lacks(p, i, j):
                continue
            p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "structure")


#: A free new rule's opening sentence is held whole when one old rule says at least this
#: share of its content stems (all of them) ...
HELD_OPENING = 1.0
#: ... of at least this many stems ...
HELD_OPENING_STEMS = 6
#: ... and every other old rule says less than this share.
HELD_OPENING_OTHERS = 0.9
_NUMBER = re.compile(r"\b\d+\b")


def _pair_by_held_opening(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free new rule whose opening sentence one free old rule says whole, and no other
    old rule nearly so, is that old rule rewritten: the new rule states the subject the
    old rule spoke of in passing ("spell abilities are abilities followed as
    instructions while an instant or sorcery spell resolves", from "instants and sorceries
    have abilities … followed when the spells resolve"), its words spread over two of
    the old rule's sentences, so no sentence pair is close.

    The old rule says no other free new rule's opening whole (the same sentence copied
    into two variants' rules: neither); the numbers of the opening are the old rule's
    (a life total of 40 is not one of 20); the new rule does not close by sending the
    reader to another rule (a keyword's restatement of a general rule, "attacks alone …
    See rule 506.5"); the pair keeps its topic and the new rule is not written for a
    subject the old edition lacks.
    """
    in_splits, in_merges = _grouped(splits, merges)
    olds = {i for i in range(len(p.old)) if _free_old_text(p, i, splits, in_merges)}
    if not olds:
        return
    old_side = rescue._weights(p)[0]
    found: dict[int, list[int]] = defaultdict(list)
    for j, node in enumerate(p.new):
        if node.heading or not _free_new(p, j, in_splits, merges):
            continue
        cut = provenance.units(j, node.text)
        if cut and cut[-1].points_elsewhere:
            continue  # it closes by sending the reader to another rule: a restatement
        units = provenance.unit_keys(node.text)
        if not units:
            continue
        stems = rescue._stems(units[0])
        if len(stems) < HELD_OPENING_STEMS:
            continue
        # an old rule saying HELD_OPENING_OTHERS of the stems misses at most ``missed``
        # of them, so it says one of the ``missed + 1`` rarest: only those are read
        missed = len(stems) - math.ceil(HELD_OPENING_OTHERS * len(stems) - 1e-9)
        rarest = sorted(stems, key=lambda w: (len(old_side.postings.get(w, ())), w))
        readers = {k for w in rarest[: missed + 1] for k in old_side.postings.get(w, ())}
        held = sorted(
            ((len(stems & old_side.stems[k]) / len(stems), k) for k in readers),
            key=lambda t: (-t[0], t[1]),
        )
        if not held or held[0][0] < HELD_OPENING or held[0][1] not in olds:
            continue
        i = held[0][1]
        if len(held) > 1 and held[1][0] >= HELD_OPENING_OTHERS:
            continue
        if not set(_NUMBER.findall(units[0])) <= set(_NUMBER.findall(p.old[i].lower)):
            continue
        found[i].append(j)
    for i, news in sorted(found.items()):
        if len(news) != 1:
            continue  # one opening said in two new rules: neither is the old rule's
        j = news[0]
        if p.o2n[i] >= 0 or p.n2o[j] >= 0:
            continue
        if not p.same_topic(i, j) or _for_subject_old_lacks(p, i, j):
            continue
        p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "content")


def _shared_openings(
    p: _Pairing,
    old_ok: Callable[[int], bool],
    new_ok: Callable[[int], bool],
    rare: int | None = SHARED_OPENING_RARE,
    near: Callable[[int, int], bool] | None = None,
) -> list[tuple[int, int, str]]:
    """``(old, new, phrase)`` of the old rules (``old_ok``) and new rules (``new_ok``,
    headings aside; ``near``: the pairs asked about) that open on the same subject
    phrase: ``SHARED_OPENING_WORDS`` or more leading words (the pair's sweeps applied to
    the old text) with ``SHARED_OPENING_CONTENT`` content words, standing in no other
    rule of either edition. What tells the phrase from the openings other rules share
    with either rule (the words past the longest of those) holds a content word that
    stands in at most ``rare`` rules of each edition (any content word for ``None``): "if
    the resolving object is a" opens many rules, "… a [keyword] spell" one. In the order
    of the new rules, then of the old."""
    lead = SHARED_OPENING_WORDS
    old_words, new_words, old_leads, new_leads, old_texts, new_texts = _openings_of(p)
    candidates: list[tuple[int, int, int]] = []
    for j, node in enumerate(p.new):
        if node.heading or not new_ok(j):
            continue
        nw = new_words[j]
        for i in old_leads.get(nw[:lead], ()):
            if not old_ok(i) or (near is not None and not near(i, j)):
                continue
            n = _common_lead(old_words[i], nw)
            if len(_content_words(" ".join(nw[:n]))) >= SHARED_OPENING_CONTENT:
                candidates.append((i, j, n))
    if not candidates:
        return []
    said_by: dict[str, tuple[int, int]] = {}  # word -> rules saying it, old and new

    def rare_word(w: str) -> bool:
        if rare is None:
            return True
        if w not in said_by:
            said_by[w] = (
                sum(f" {w} " in t for t in old_texts),
                sum(f" {w} " in t for t in new_texts),
            )
        return max(said_by[w]) <= rare

    out: list[tuple[int, int, str]] = []
    for i, j, n in candidates:
        said = new_words[j][:n]
        # the opening words others share with either rule name no subject of theirs
        new_others, old_others = new_leads.get(said[:lead], ()), old_leads.get(said[:lead], ())
        shared = max(
            [_common_lead(old_words[i], new_words[k]) for k in new_others if k != j]
            + [_common_lead(new_words[j], old_words[k]) for k in old_others if k != i]
            + [0]
        )
        if shared >= n:
            continue  # another rule opens on the whole phrase: no subject of these two
        if not any(map(rare_word, _content_words(" ".join(said[shared:])))):
            continue  # a phrase of common words: a condition or a frame, not a subject
        phrase = " " + " ".join(said) + " "
        if len(_texts_saying(old_texts, phrase)) != 1 or len(_texts_saying(new_texts, phrase)) != 1:
            continue  # a stock opening, or the subject of other rules too
        out.append((i, j, phrase))
    return out


def _openings_of(p: _Pairing) -> tuple:
    """Each rule's words (the old ones swept), the rules by their first
    ``SHARED_OPENING_WORDS`` words (headings aside) and each text's words joined between
    spaces, for :func:`_shared_openings`: kept on the pairing while its sweeps stay (the
    three rounds that ask read the same tables)."""
    if p.opening_tables is not None and p.opening_tables[0] is p.sweeps:
        return p.opening_tables[1]
    lead = SHARED_OPENING_WORDS
    old_words = [letter_words(p.swept(n.lower)) for n in p.old]
    new_words = [letter_words(n.lower) for n in p.new]
    old_leads: dict[tuple[str, ...], list[int]] = defaultdict(list)
    new_leads: dict[tuple[str, ...], list[int]] = defaultdict(list)
    for i, node in enumerate(p.old):
        if not node.heading and len(old_words[i]) >= lead:
            old_leads[old_words[i][:lead]].append(i)
    for j, node in enumerate(p.new):
        if not node.heading and len(new_words[j]) >= lead:
            new_leads[new_words[j][:lead]].append(j)
    old_texts = [" " + " ".join(w) + " " for w in old_words]
    new_texts = [" " + " ".join(w) + " " for w in new_words]
    tables = (old_words, new_words, old_leads, new_leads, old_texts, new_texts)
    p.opening_tables = (p.sweeps, tables)
    return tables


def _texts_saying(texts: Sequence[str], phrase: str) -> list[int]:
    """The texts (words joined between spaces, :func:`_openings_of`) holding ``phrase``
    (words between spaces too): whole words only."""
    return [k for k, t in enumerate(texts) if phrase in t]


def _common_lead(a: Sequence[str], b: Sequence[str]) -> int:
    """How many leading words ``a`` and ``b`` share."""
    n = 0
    while n < min(len(a), len(b)) and a[n] == b[n]:
        n += 1
    return n


def _add_pieces_opening_on_its_subject(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free new rule beside a matched old rule's counterpart that opens on the old
    rule's own subject phrase (:func:`_shared_openings`: no other rule of either edition
    says it), which that counterpart no longer says: one more piece of the old rule.

    The free-to-free case is :func:`_pair_by_shared_opening`. Here the old rule kept a
    counterpart for part of its text and the new edition gave the case it opened on, or
    the statement it opened with, a rule of its own ("if the resolving object is a [kind
    of] spell, …", "an object's timestamp is …" cut from a rule whose other sentences
    stayed), each sentence reworded past the sentence links. The words past the openings
    other rules share need only hold a content word, no rare one: the piece stands
    beside the old rule's own counterpart, which the free-to-free pass cannot ask. Not a
    piece: one that adds none of the old rule's words its counterpart lacks (a copy of
    the counterpart), one off the old rule's topic, one written for a subject the old
    edition lacks.
    """
    in_splits, in_merges = _grouped(splits, merges)

    def taken(i: int) -> bool:
        node = p.old[i]
        return not node.heading and i not in in_merges and (i in splits or p.o2n[i] >= 0)

    def free(j: int) -> bool:
        return _free_new(p, j, in_splits, merges)

    def beside(i: int, j: int) -> bool:
        group = splits.get(i) or [p.o2n[i]]
        return not any(g in merges for g in group) and j in _family_of(p, group)

    added: dict[int, set[int]] = {}
    claimed: Counter = Counter()
    for i, j, _phrase in _shared_openings(p, taken, free, None, beside):
        group = splits.get(i) or [p.o2n[i]]
        if _says_nothing_more(p, i, j, group):
            continue  # the counterpart written again for another case
        if not p.same_topic(i, j) or _for_subject_old_lacks(p, i, j):
            continue
        added.setdefault(i, set()).add(j)
        claimed[j] += 1
    _add_unshared_pieces(p, added, claimed, splits, in_splits)


#: A run of at least this many words said by one old rule and opening new rules only
#: (:func:`_pair_by_opening_run`): a statement, not a frame.
OPENING_RUN_WORDS = 9
#: ... opening at most this many new rules, all under one parent.
OPENING_RUN_PIECES = 2


def _pair_by_opening_run(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old rule that says after its own opening, word for word, the opening run of
    free new rules (``OPENING_RUN_WORDS`` or more leading words, the pair's sweeps
    applied to the old text), a run no other old rule says and no new rule says except
    as its opening, went into those rules: one is its rewrite, two under one parent its
    split. (Two rules opening on one run are :func:`_shared_openings`' case, which asks
    what tells the run from the openings other rules share: one run of that length opens
    the Commander rule for the graveyard and the one for a hand or library.)

    A rule stated once for a whole process, behind a lead-in naming the step ("as part of
    declaring …, the active player checks each creature …"), is cut by a later edition
    into one rule per case, each opening on the rule's statement (the check, for
    restrictions, then for requirements) under the step it belongs to: the whole-text
    scores fall below every threshold, the openings of the two old and new rules differ
    (the old rule's lead-in), and the run, unique to the old rule, is what says where
    it went. A new rule opening on the run that is already taken must be taken by one of
    the old rule's own subrules (a case the old rule listed below itself, placed
    first); the pieces keep the old rule's topic (``same_topic``) and are not written
    for a subject the old edition lacks.
    """
    in_splits, in_merges = _grouped(splits, merges)
    size = OPENING_RUN_WORDS
    old_words, new_words, _ol, _nl, old_texts, new_texts = _openings_of(p)
    opening_of: dict[str, list[int]] = defaultdict(list)  # run → free new rules opening on it
    for j, node in enumerate(p.new):
        if not node.heading and len(new_words[j]) >= size and _free_new(p, j, in_splits, merges):
            opening_of[" ".join(new_words[j][:size])].append(j)
    if not opening_of:
        return
    found: dict[int, set[str]] = defaultdict(set)
    for i in range(len(p.old)):
        if not _free_old_text(p, i, splits, in_merges):
            continue
        words = old_words[i]
        # from its second word: a rule opening on the run is :func:`_shared_openings`' case
        for k in range(1, len(words) - size + 1):
            run = " ".join(words[k : k + size])
            if run in opening_of:
                found[i].add(run)
    claimed: Counter = Counter()
    plans: dict[int, list[int]] = {}
    for i in sorted(found):
        if len(found[i]) != 1:
            continue  # runs opening other rules each: no one place
        (run,) = found[i]
        said = f" {run} "
        if len(_texts_saying(old_texts, said)) != 1:
            continue  # another old rule says it too: a frame, not this rule's statement
        holders = _texts_saying(new_texts, said)
        if len(holders) > OPENING_RUN_PIECES or len({p.new[j].parent for j in holders}) != 1:
            continue
        if any(not new_texts[j].startswith(said) for j in holders):
            continue  # said inside another rule as well
        pieces = [j for j in holders if j in opening_of[run]]
        taken = [j for j in holders if j not in pieces]
        if any(not _taken_by_own_subrule(p, i, j) for j in taken):
            continue
        if any(not p.same_topic(i, j) or _for_subject_old_lacks(p, i, j) for j in pieces):
            continue
        plans[i] = pieces
        claimed.update(pieces)
    for i, pieces in plans.items():
        if any(claimed[j] > 1 for j in pieces):
            continue  # two old rules reach one new rule: undecided
        if len(pieces) == 1:
            (j,) = pieces
            p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "structure")
        else:
            splits[i] = pieces
            in_splits.update(pieces)


def _join_sibling_opening_on_one_run(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old rule opening on the same run as a sibling (``OPENING_RUN_WORDS`` or more
    leading words, the pair's sweeps applied), when the one new rule saying that run
    opens on it and is that sibling's counterpart, was merged into it with the sibling.

    Two subrules that open alike ("a delayed triggered ability that refers to a
    particular …": what still affects the object, and when the ability fails) are one
    rule's cases; a later edition that says the run once, in the sibling's counterpart,
    folded the second case into it, in other words, below the first. The run must stand
    in those two old rules and that new rule only; the new rule must say something of
    the free rule that its sibling does not say (a content word of the free rule beyond
    the sibling's), keep the free rule's topic (``same_topic``) and not be written for a
    subject the old edition lacks; the sibling is matched to it alone (not split, no
    merge yet).
    """
    in_splits, in_merges = _grouped(splits, merges)
    size = OPENING_RUN_WORDS
    old_words, new_words, old_leads, _nl, old_texts, new_texts = _openings_of(p)
    joins: dict[int, int] = {}
    for i in range(len(p.old)):
        if not _free_old_text(p, i, splits, in_merges) or len(old_words[i]) < size:
            continue
        run = old_words[i][:size]
        # a sibling opening on the run first (the cheap test: most rules have none)
        if not any(
            k != i and old_words[k][:size] == run and p.old[k].parent == p.old[i].parent
            for k in old_leads.get(run[:SHARED_OPENING_WORDS], ())
        ):
            continue
        said = " " + " ".join(run) + " "
        olds, news = _texts_saying(old_texts, said), _texts_saying(new_texts, said)
        if len(olds) != 2 or len(news) != 1:
            continue
        (k,) = (x for x in olds if x != i)
        (j,) = news
        if not old_texts[k].startswith(said) or not new_texts[j].startswith(said):
            continue
        if p.old[k].parent != p.old[i].parent or p.o2n[k] != j or p.new[j].heading:
            continue
        if k in splits or j in merges or j in in_splits:
            continue
        own = _content_words(p.swept(p.old[i].lower)) - _content_words(p.swept(p.old[k].lower))
        if not own & _content_words(p.new[j].lower):
            continue  # the new rule says nothing of it beyond its sibling
        if not p.same_topic(i, j) or _for_subject_old_lacks(p, i, j):
            continue
        joins[i] = j
    for i, j in joins.items():
        _join_merge(p, i, j, splits, merges, in_merges)


def _taken_by_own_subrule(p: _Pairing, i: int, j: int) -> bool:
    """New ``j`` is matched to a rule under old ``i`` (the place of ``i`` among its
    ancestors)."""
    k = p.n2o[j]
    place = p.old[i].place
    while k >= 0 and p.old[k].parent is not None:
        if p.old[k].parent == place:
            return True
        k = p.old_by_place.get(p.old[k].parent, -1)
    return False


#: A free old rule and a free new rule holding this many of the same sentences are one
#: rule rewritten (:func:`_pair_by_kept_sentences`).
KEPT_SENTENCES_TO_PAIR = 2
#: ... each said by at most this many rules of each edition, the others matched already.
SAID_AT_MOST = 2


def _pair_by_kept_sentences(
    p: _Pairing, prov: _Provenance, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old rule and a free new rule that hold ``KEPT_SENTENCES_TO_PAIR`` or more of
    the same sentences, each nearly word for word (``NEAR_SIMILARITY``) and said by no
    other free rule of either edition (by ``SAID_AT_MOST`` rules of each at most), are
    one rule rewritten, wherever each stands and however the rest of their words compare.
    One such sentence is enough when it is the statement of both (:func:`_statement_key`):
    the definition of a permanent opens both its rule of 2002-02-20 and the one of
    2026-01-16, whose other sentences were all rewritten, under a renamed zone.

    A variant's rule moved under an option several variants share (the Two-Headed
    Giant's mulligan, into the shared team turns option of 2010-06-18) keeps some
    sentences whole and rewrites the rest after the general rule, whose words it then
    shares more: the rescue pass ranks that taken general rule first, and the kept
    sentences were left as moved text of a rule called removed, which is what issue 9
    rules out (a rule is removed only when none of its content survives). Every such
    sentence of either rule must go between the two alone (none of the old rule's to
    another new rule, none of the new rule's from another old rule); neither is a
    heading, the pair keeps its topic (``same_topic``) and the new rule is not written
    for a subject the old edition lacks.
    """
    in_splits, in_merges = _grouped(splits, merges)
    kept: dict[int, dict[int, set[str]]] = defaultdict(lambda: defaultdict(set))
    sources: dict[int, set[int]] = defaultdict(set)
    for link in prov.links:
        if link.score < provenance.NEAR_SIMILARITY:
            continue
        unit, new_unit = prov.old_units[link.old], prov.new_units[link.new]
        if unit.points_elsewhere or new_unit.points_elsewhere:
            continue
        # Said by one rule of each edition, or once more by a rule already matched (a
        # variant's process said again in the general rule, which keeps its own
        # counterpart), the sentence tells where the rule went; stock wording does not.
        olds, news = prov.old_holders[unit.key], prov.new_holders[new_unit.key]
        if len(olds) > SAID_AT_MOST or len(news) > SAID_AT_MOST:
            continue
        if [h for h in olds if _free_old_text(p, h, splits, in_merges)] != [unit.owner] or [
            h for h in news if _free_new(p, h, in_splits, merges)
        ] != [new_unit.owner]:
            continue
        kept[unit.owner][new_unit.owner].add((unit.key, new_unit.key))
        sources[new_unit.owner].add(unit.owner)
    # Both are free (found so above); each new rule has one old rule here, so a pair
    # made in this loop frees or takes no other.
    for i, j in _named_by_each_other(kept, sources):
        said = kept[i][j]
        if p.new[j].heading:
            continue
        if (
            len(said) < KEPT_SENTENCES_TO_PAIR
            and (
                _statement_key(p.old[i]),
                _statement_key(p.new[j]),
            )
            not in said
        ):
            continue  # one sentence kept, not the statement of both
        if not p.same_topic(i, j) or _for_subject_old_lacks(p, i, j):
            continue
        p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "content")


def _statement_key(node: _Node) -> str | None:
    """The comparison key of a rule's statement: its first sentence of
    ``MIN_UNIT_WORDS`` words or more that does not only point elsewhere."""
    return next(
        (
            u.key
            for u in provenance.units(node.order, node.text)
            if len(u.key.split()) >= provenance.MIN_UNIT_WORDS and not u.points_elsewhere
        ),
        None,
    )


#: A free new rule restates its heading's free old subrules when at least this many of
#: them each bring it words of their own ...
RESTATED_SOURCES = 3
#: ... at least this many content stems apiece that no other free subrule of the heading has.
RESTATED_OWN_WORDS = 2


def _stems_outside_asides(node: _Node) -> frozenset[str]:
    """The stems of ``node``'s content words outside its asides in parentheses (a
    cross-reference and the title of the rule it names)."""
    return frozenset(w[:5] for w in _content_words(_ASIDE.sub(" ", node.lower)))


def _join_restated_siblings(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A heading matched across a rewrite whose free old subrules were restated together
    in one free new subrule: a merge of them all (a rule is removed only when none of
    its content survives).

    One reworded sibling alone is too far from the new rule to be linked; what shows the
    merge is that several of them each bring the new rule words that no other free
    sibling has (``RESTATED_OWN_WORDS``), at least ``RESTATED_SOURCES`` of them: a rule
    written fresh for the heading shares a word or two with one sibling by chance, not
    words of its own with three. The heading's title words say nothing, nor do asides in
    parentheses (a cross-reference's title is no content). A sibling claimed for two new
    rules decides neither.
    """
    in_splits, in_merges = _grouped(splits, merges)
    for x, y in enumerate(p.o2n):
        if y < 0 or x in splits or x in in_merges:
            continue
        olds = [
            i
            for i in p.old_children.get(p.old[x].place, ())
            if p.o2n[i] < 0 and i not in in_merges and i not in splits and not p.old[i].heading
        ]
        if len(olds) < RESTATED_SOURCES:
            continue
        news = [
            j
            for j in p.new_children.get(p.new[y].place, ())
            if not p.new[j].heading and _free_new(p, j, in_splits, merges)
        ]
        title = _content_stems(p.old[x]) | _content_stems(p.new[y])
        found: dict[int, list[int]] = {}
        for j in news:
            said = _stems_outside_asides(p.new[j]) - title
            brought = {i: said & _stems_outside_asides(p.old[i]) for i in olds}
            sources = [
                i
                for i in olds
                if len(brought[i].difference(*(brought[k] for k in olds if k != i)))
                >= RESTATED_OWN_WORDS
            ]
            if len(sources) >= RESTATED_SOURCES:
                found[j] = sources
        claimed = Counter(i for sources in found.values() for i in sources)
        for j, sources in sorted(found.items()):
            if any(claimed[i] > 1 for i in sources):
                continue
            merges[j] = sorted(sources, key=lambda k: p.old[k].order)
            in_merges.update(sources)


#: The free rule holding the words a counterpart dropped says the sentence at least this
#: closely in letters (``fuzz.ratio``): below, it only reuses some of its words.
DROPPED_WORDS_SAID = 60.0


def _add_pieces_holding_dropped_words(
    p: _Pairing, prov: _Provenance, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A sentence of an old rule its counterpart says all but a few words of, said whole
    by one free rule beside the counterpart: the words the counterpart dropped name the
    case that free rule is written for (the rule split into one rule per case).

    :func:`_add_reworded_surplus_pieces` refuses such a sentence, since the counterpart
    holds most of its words; what decides here is the rest. The free rule holds nearly
    all the sentence's rare-word mass (:data:`REWORDED_SURPLUS_HELD`) and every word the
    counterpart lacks, no other free rule beside holds any of those words, and the free
    rule says the sentence more closely in letters than the counterpart and any other
    free rule there. The refusals of :func:`_add_reworded_surplus_pieces` hold too.
    """

    def pick(key, stems, total, said_kept, free, kept_stems, mass) -> int | None:
        dropped = stems - kept_stems
        if not dropped:
            return None
        holders = [x for x in free if dropped & rescue._stems(p.new[x].lower)]
        if len(holders) != 1:
            return None  # none, or the dropped words are said by several: no one case
        (x,) = holders
        found = stems & rescue._stems(p.new[x].lower)
        if not dropped <= found or mass(found) < REWORDED_SURPLUS_HELD * total:
            return None
        said = _closest(key, _unit_keys(p.new, x, None))
        if said < DROPPED_WORDS_SAID or said <= said_kept:
            return None  # it reuses the words; the counterpart says it as closely
        if any(_closest(key, _unit_keys(p.new, y, None)) >= said for y in free if y != x):
            return None  # another free rule says it as closely in letters
        return x

    _add_sentence_pieces(p, prov, splits, merges, pick)


#: A sentence its counterpart keeps but for some cases it names: at least this many
#: content words of the sentence are in no counterpart.
DROPPED_CASE_WORDS = 2


def _add_pieces_naming_dropped_cases(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A sentence its counterpart keeps nearly whole but for some of the cases it names
    goes on in the one free rule beside that names every dropped case: the rule was split
    into one rule per case, and that rule is the other piece.

    The reworded-piece passes read only the sentences a counterpart does not say in
    letters (:data:`WEAK_FUZZY`); a list of cases cut in two ("exiled, or put into a
    hand, a graveyard or a library" → "put into a hand or a library", the other cases
    made a rule of their own beside it) leaves a sentence the counterpart says closely,
    and the other piece `added`. Here: the sentence's content words in no counterpart
    (at least :data:`DROPPED_CASE_WORDS`) are all said by one free rule beside the
    counterpart (:func:`_family_of`) and by no other there; that rule shares a run of
    :data:`GRAFT_WORDS` words with the sentence that no other old rule says (a phrase of
    several old rules is a frame: the Archenemy rule's, written again for Planechase).
    The refusals of the other piece passes hold (another topic, a new subject's rule).
    """
    in_splits, in_merges = _grouped(splits, merges)
    old_words, new_words = p.word_lists()
    for i, group, free, kept, kept_stems in _beside_counterparts(
        p, splits, merges, in_splits, in_merges
    ):
        for key in _unit_keys(p.old, i, p.swept):
            dropped = rescue._stems(key) - kept_stems
            if len(dropped) < DROPPED_CASE_WORDS or _closest(key, kept) < WEAK_FUZZY:
                continue
            holders = [x for x in free if dropped & rescue._stems(p.new[x].lower)]
            if len(holders) != 1 or not dropped <= rescue._stems(p.new[holders[0]].lower):
                continue
            (x,) = holders
            runs = _runs(_word_list(key, "|"), new_words[x], GRAFT_WORDS)
            if not runs:
                continue
            if not any(old_words.holders(run, 2) == 1 for run in runs):
                continue  # a phrase other old rules say too is no trace of this one
            if (
                not p.same_topic(i, x)
                or _under_new_subject(p, x)
                or _piece_for_new_subject(p, i, x)
                or _for_subject_old_lacks(p, i, x)
            ):
                continue
            splits[i] = sorted({*group, x}, key=lambda k: p.new[k].order)
            in_splits.add(x)
            break


def _named_by_each_other(
    named: Mapping[int, Collection[int]], namers: Mapping[int, Collection[int]]
) -> Iterator[tuple[int, int]]:
    """(old, new) where the evidence of a pass names one new rule for the old one and that
    old rule alone for the new one (``named``: old → new rules; ``namers``: the reverse),
    old rules in order."""
    for i in sorted(named):
        if len(named[i]) == 1:
            (j,) = named[i]
            if set(namers[j]) == {i}:
                yield i, j


def _free_old_text(p: _Pairing, i: int, splits: dict[int, list[int]], in_merges: set[int]) -> bool:
    """Old ``i`` is a rule with text matched to nothing, neither split nor a merge source:
    what the late passes may still place."""
    return p.o2n[i] < 0 and not p.old[i].heading and i not in splits and i not in in_merges


def _free_new(p: _Pairing, j: int, in_splits: set[int], merges: dict[int, list[int]]) -> bool:
    """New ``j`` is matched to nothing, and is no piece of a split nor a merge."""
    return p.n2o[j] < 0 and j not in in_splits and j not in merges


def _closest_in_family(
    p: _Pairing, i: int, j: int, run: Sequence[str], family: list[int], sources: list[int]
) -> bool:
    """No other old rule of the family (besides ``j``'s sources) has a sentence as close
    to the sentence of ``j`` holding the run as ``i`` has: that sentence came from ``i``."""
    sentence = _sentence_with(p.new[j].lower, run)
    old_lower = [p.swept(p.old[k].lower) for k in (i, *family)]
    own = _closest_sentence(sentence, old_lower[0])
    return all(
        _closest_sentence(sentence, lower) < own
        for k, lower in zip(family, old_lower[1:], strict=True)
        if k != i and k not in sources and not p.old[k].heading
    )


#: A rule naming at least this many rules by reference is a list of them ...
LIST_REFERENCES = 3


def _follow_listed_rules(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """A free old rule that lists other rules by reference ("the special actions are …
    (see rule …), … (see rule …)") went where the listed rules went, when they all went
    under one free new rule with text: the list became that rule and its subrules."""
    in_splits, in_merges = _grouped(splits, merges)
    targets, _sources = rescue._links(p, splits, merges)
    for i, node in enumerate(p.old):
        if not _free_old_text(p, i, splits, in_merges):
            continue
        if "rule" not in node.lower:
            continue  # a cheap test first: a list by reference says "see rule …"
        listed = {p.old_by_place.get(r) for r in references(node.text)} - {None, i}
        if len(listed) < LIST_REFERENCES:
            continue
        parents = {p.new[j].parent for k in listed for j in targets.get(k, [-1]) if j >= 0}
        if any(not targets.get(k) for k in listed) or len(parents) != 1:
            continue
        parent = parents.pop()
        g = p.new_by_place.get(parent) if parent is not None else None
        if g is None or p.new[g].heading or p.n2o[g] >= 0 or g in merges or g in in_splits:
            continue
        p.pair(i, g, round(fuzz.ratio(node.lower, p.new[g].lower), 1), "structure")


#: A rule's statement (its first sentence) is found reworded in the new rule holding the
#: closest sentence to it, at this similarity (0–100) at least ...
STATEMENT_SIMILARITY = 60.0
#: ... and this many points ahead of every other new rule.
STATEMENT_LEAD = 10.0


def _follow_statements(
    p: _Pairing,
    sweeps: Iterable[tuple[str, str]],
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
) -> None:
    """A rule matched by its minor sentences (a closing note, its last sentences) while its
    statement, reworded, stands in a free new rule in its own place: that rule is a piece
    of it too (a split into the statement and the minor sentences).

    The statement is the rule's first sentence; it went where its closest new sentence
    is, when that one leads every other rule's (the rule's present counterparts
    included) by ``STATEMENT_LEAD``, stands under the counterpart of the rule's matched
    ancestor on the same keyword or step, and does not say the statement of a new
    subject (:func:`_new_subject`). When the present counterpart stands out of place and
    names a subject of its own headings the old rule does not (:func:`_names_other_subject`),
    the rule goes to its statement alone."""
    in_splits, in_merges = _grouped(splits, merges)
    ordered = provenance.longest_first(sweeps)
    found: list[tuple[float, int, int]] = []
    index: tuple[list[int], list[str]] | None = None
    old_text: str | None = None
    free_under: dict[int, list[int]] = {}
    for i, node in enumerate(p.old):
        if node.heading or i in in_merges or _kept(p, i):
            continue
        now = splits.get(i) or ([p.o2n[i]] if p.o2n[i] >= 0 else [])
        if not now or any(j in merges for j in now):
            continue
        mine = [
            u
            for u in provenance.units(i, node.text)
            if len(u.key.split()) >= provenance.MIN_UNIT_WORDS and not u.points_elsewhere
        ]
        if len(mine) < 2:
            continue  # one sentence: nothing minor to be matched by
        statement = provenance.apply_sweeps(mine[0].key, ordered)
        top = _place_of(p, i)
        if top < 0:
            continue
        # The closest free rule in its place first (few), then every rule as a rival.
        if top not in free_under:
            free_under[top] = _free_under(p, top)
        place = [
            j
            for j in free_under[top]
            if j not in in_splits and j not in merges and p.same_topic(i, j)
        ]
        scores = _statement_scores(p, statement, place)
        if not scores:
            continue
        j, score = min(scores.items(), key=lambda t: (-t[1], t[0]))
        held = max(_statement_scores(p, statement, now).values(), default=0.0)
        if score < max(STATEMENT_SIMILARITY, held + STATEMENT_LEAD):
            continue
        if index is None:
            # A rule kept word for word is no rival: its sentence is its own old rule's.
            owners, keys = [], []
            for k, new_node in enumerate(p.new):
                if not new_node.heading and not (p.n2o[k] >= 0 and _kept(p, p.n2o[k])):
                    for key in provenance.unit_keys(new_node.text):
                        owners.append(k)
                        keys.append(key)
            index = (owners, keys)
        owners, keys = index
        # read lazily: the first rival owned by another rule settles it
        rivals = process.extract_iter(
            statement, keys, scorer=fuzz.ratio, score_cutoff=score - STATEMENT_LEAD
        )
        if any(owners[k] != j for _key, _score, k in rivals):
            continue
        if old_text is None:
            old_text = "\n".join(n.lower for n in p.old)
        sentence = max(
            provenance.unit_keys(p.new[j].text), key=lambda key: fuzz.ratio(statement, key)
        )
        kept = frozenset().union(*(_content_words(p.new[k].lower) for k in now))
        if _new_subject(statement, sentence, old_text, kept):
            continue
        if _other_variant(p, i, j):
            continue  # another variant's statement on the run's template
        found.append((score, i, j))
    found.sort(key=lambda t: (-t[0], t[1], t[2]))
    for _score, i, j in found:
        if j in in_splits:
            continue  # another rule's statement took it first
        now = splits.get(i) or [p.o2n[i]]
        if i not in splits and _names_other_subject(p, i, now[0]):
            # Matched out of place by its minor sentences only (another section's note
            # written on its frame): the rule goes where its statement went.
            k = now[0]
            p.n2o[k] = -1
            p.alternatives.pop(i, None)
            p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "sentence")
            continue
        splits[i] = sorted({*now, j}, key=lambda k: p.new[k].order)
        in_splits.update(splits[i])


def _names_other_subject(p: _Pairing, i: int, k: int) -> bool:
    """New ``k`` stands out of old ``i``'s place and names a word of one of its own
    headings' titles that ``i`` does not say (a tournament note under the multiplayer
    chapter, the old general rule naming no such subject)."""
    if _in_place(p, i, k):
        return False
    mine = _words(p.old[i].lower)
    theirs = _words(p.new[k].lower)
    return any(
        w in theirs and w not in mine for h in p.new_heads[k] for w in _title_words(p.new[h].lower)
    )


def _statement_scores(p: _Pairing, statement: str, rules: Iterable[int]) -> dict[int, float]:
    """New rule → the similarity of its sentence closest to ``statement``."""
    out: dict[int, float] = {}
    for j in rules:
        keys = provenance.unit_keys(p.new[j].text)
        if keys:
            out[j] = max(fuzz.ratio(statement, key) for key in keys)
    return out


def _place_of(p: _Pairing, i: int) -> int:
    """The counterpart of old ``i``'s nearest matched ancestor (-1: none, or a section,
    too wide to say where a rule went)."""
    parent = p.old[i].parent
    while parent is not None:
        k = p.old_by_place.get(parent)
        if k is None:
            return -1
        if p.o2n[k] >= 0:
            top = p.o2n[k]
            return -1 if _is_section(p.new[top]) else top
        parent = p.old[k].parent
    return -1


def _free_under(p: _Pairing, top: int) -> list[int]:
    """The free new rules with text under new rule ``top``."""
    out: list[int] = []
    todo = [top]
    while todo:
        for j in p.new_children.get(p.new[todo.pop()].place, ()):
            todo.append(j)
            if p.n2o[j] < 0 and not p.new[j].heading:
                out.append(j)
    return sorted(out)


def _new_subject(statement: str, sentence: str, old_text: str, kept: frozenset[str]) -> bool:
    """``sentence`` says ``statement`` of a new subject: in place of a word naming what the
    statement speaks of, which the sentence drops and the rule's counterparts still say
    (``kept``), it names something no old text (``old_text``: all of them) does, final
    -s, -d or -e aside: "Phyrexian mana symbols are colored …" written on the frame of
    "hybrid mana symbols are also colored …", hybrid still said by the old rule's
    counterpart ("Phyrexia" is not "Phyrexian")."""
    a, b = re.findall(r"\w+", statement), re.findall(r"\w+", sentence)
    said = set(b)
    return any(
        tag == "replace"
        and any(w not in said for w in _content_words(" ".join(a[a0:a1])) & kept)
        and any(_unheard(w, old_text) for w in b[b0:b1])
        for tag, a0, a1, b0, b1 in word_opcodes(a, b, island=0)
    )


def _unheard(word: str, text: str) -> bool:
    """No word of ``text`` is ``word`` but for a final -s, -d or -e ("announce" is heard in
    "announces", "announced")."""
    stem = word.rstrip("sd").rstrip("e")
    return re.search(rf"(?<![a-z]){re.escape(stem)}e*[sd]*(?![a-z])", text) is None


def _beside(p: _Pairing, i: int, j: int) -> bool:
    """New ``j`` stands where old ``i``'s siblings went: a sibling was matched to ``j`` or
    to a rule under ``j``'s parent (a heading renamed and matched elsewhere still has its
    rules side by side)."""
    parent = p.old[i].parent
    if parent is None:
        return False
    for k in p.old_children[parent]:
        t = p.o2n[k]
        if k != i and t >= 0 and (t == j or p.new[t].parent == p.new[j].parent):
            return True
    return False


#: A free new rule is a piece of an old rule in the corresponding place when this share
#: of its text is found (a sentence inside a longer one counts) in that old rule ...
PLACE_PIECE_SHARE = 0.6
#: ... each of its sentences at this partial similarity (0–100).
PLACE_PIECE_SIMILARITY = 88.0
#: Too many old rules under the ancestor to say where a piece came from.
PLACE_PIECE_MAX = 40

#: A word opening a sentence only to number a step ("Third, …" where the old rule said
#: "Then …") is not content.
_SEQUENCE_WORD = re.compile(r"^(?:first|second|third|fourth|fifth|sixth|then|next|finally),?\s+")


def _holds(keys: Sequence[str], key: str, partial: dict[tuple[str, str], float]) -> bool:
    """One of ``keys`` contains ``key`` (or nearly: a sentence inside a longer one).

    ``partial``: the partial similarities found so far, by (key, k): the same sentences
    of an old rule are asked about again for each new rule under its ancestor."""
    words = _words(key)
    for k in keys:
        if len(k) < len(key) * 0.8 or len(words & _words(k)) < 0.6 * len(words):
            continue  # the cheap tests first
        score = partial.get((key, k))
        if score is None:
            score = partial[(key, k)] = fuzz.partial_ratio(key, k)
        if score >= PLACE_PIECE_SIMILARITY:
            return True
    return False


def _pieces_in_place(
    p: _Pairing,
    prov: _Provenance,
    sweeps: Iterable[tuple[str, str]],
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
) -> dict[int, list[int]]:
    """A sentence cut out of a rule into a new rule next to it ("Then the active player
    gets priority" → "Third, the active player gets priority."): under the counterpart of
    the new rule's nearest matched ancestor, the one old rule that holds most of its
    sentences (also as parts of longer ones) is split, its pieces listed. An old rule
    already split gains the piece too. A sentence that many new rules repeat is no
    evidence against an origin, and words that only number a step are not compared."""
    common = prov.common
    ordered = provenance.longest_first(
        (a.lower(), b.lower()) for a, b in sweeps if not changes_meaning(a, b)
    )
    in_splits, in_merges = _grouped(splits, merges)
    old_under: dict[str, list[int]] = defaultdict(list)
    for i, node in enumerate(p.old):
        if node.heading:
            continue
        for place in _ancestor_places(p.old, p.old_by_place, i):
            old_under[place].append(i)
    old_keys: dict[int, list[str]] = {}
    kept_keys: dict[int, list[str]] = {}
    partial: dict[tuple[str, str], float] = {}
    pieces: dict[int, list[tuple[int, bool]]] = defaultdict(list)
    for j, node in enumerate(p.new):
        if p.n2o[j] >= 0 or node.heading or j in in_splits or j in merges:
            continue
        parent, source = node.parent, None
        while parent is not None:
            k = p.new_by_place.get(parent)
            if k is None:
                break
            if p.n2o[k] >= 0:
                source = p.old[p.n2o[k]]
                break
            parent = p.new[k].parent
        if source is None or _is_section(source):
            continue
        olds = old_under.get(source.place, [])
        if not olds or len(olds) > PLACE_PIECE_MAX:
            continue
        mine = [
            (_SEQUENCE_WORD.sub("", u.key), u.key in common) for u in provenance.units(j, node.text)
        ]
        mine = [(key, repeated) for key, repeated in mine if len(key.split()) >= 3]
        if not mine:
            continue
        shares: list[tuple[float, int, bool]] = []
        for i in olds:
            keys = old_keys.get(i)
            if keys is None:
                keys = old_keys[i] = [
                    provenance.apply_sweeps(u.key, ordered)
                    for u in provenance.units(i, p.old[i].text)
                ]
            # A piece was cut *out*: what the old rule's own counterpart still says is a
            # copy ("some enchantments have the subtype …" once per subtype), not a piece.
            kept = kept_keys.get(i)
            if kept is None:
                now = splits.get(i) or ([p.o2n[i]] if p.o2n[i] >= 0 else [])
                kept = kept_keys[i] = [
                    u.key for k in now for u in provenance.units(k, p.new[k].text)
                ]
            # A sentence many new rules repeat counts for an old rule that holds it,
            # never against one that does not ("strict": counted against).
            held = [
                (len(key), repeated, _holds(keys, key, partial) and not _holds(kept, key, partial))
                for key, repeated in mine
            ]
            found = sum(n for n, _repeated, ok in held if ok)
            if found:
                total = sum(n for n, repeated, ok in held if ok or not repeated)
                strict = found / sum(n for n, _repeated, _ok in held)
                shares.append((found / total, i, strict >= PLACE_PIECE_SHARE))
        shares.sort(key=lambda t: (-t[0], t[1]))
        if not shares or shares[0][0] < PLACE_PIECE_SHARE:
            continue
        if len(shares) > 1 and shares[1][0] > shares[0][0] - SENTENCE_MARGIN:
            continue  # two old rules hold it: the text does not decide
        pieces[shares[0][1]].append((j, shares[0][2]))
    later: dict[int, list[int]] = {}
    for i, found_both in sorted(pieces.items()):
        if i in in_merges or p.old[i].heading:
            continue
        main = p.o2n[i]
        if main >= 0 and (main in merges or main in in_splits):
            continue
        now = splits.get(i) or ([main] if main >= 0 else [])
        found = [j for j, _strict in found_both]
        if not now and not any(strict for _j, strict in found_both):
            # Found only with the repeated sentences left out: a piece, not enough to
            # call it the free rule's successor; it joins once the rule has one.
            later[i] = found
            continue
        group = sorted({*found, *now}, key=lambda k: p.new[k].order)
        if len(group) == 1:
            j = group[0]
            p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "sentence")
        else:
            splits[i] = group
            in_splits.update(group)
    return later


def _join_pieces(
    p: _Pairing,
    later: dict[int, list[int]],
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
) -> None:
    """The pieces :func:`_pieces_in_place` held back join their old rule's split, once the
    later passes gave that rule a counterpart (a piece still free, the rule in no merge)."""
    in_splits, in_merges = _grouped(splits, merges)
    for i, found in sorted(later.items()):
        main = p.o2n[i]
        if i in in_merges or (main >= 0 and (main in merges or main in in_splits)):
            continue
        now = splits.get(i) or ([main] if main >= 0 else [])
        rest = [j for j in found if p.n2o[j] < 0 and j not in in_splits and j not in merges]
        if not now or not rest:
            continue
        splits[i] = sorted({*now, *rest}, key=lambda k: p.new[k].order)
        in_splits.update(splits[i])


def _own_words(node: _Node, others: Iterable[_Node]) -> frozenset[str]:
    """The stems of ``node``'s content words that none of ``others`` has."""
    theirs: set[str] = set()
    for other in others:
        theirs |= _words(other.lower)
    return _content_stems(node) - theirs


#: Two old texts this close (``fuzz.token_set_ratio``) are one sentence frame written
#: for two subjects (two game variants, two zones): parallel rules.
PARALLEL_FRAME_SIMILARITY = 80.0


def _says_again_what_is_kept(
    p: _Pairing, i: int, others: Sequence[int], j: int, merges: dict[int, list[int]]
) -> bool:
    """A sentence of old ``i`` (``MIN_UNIT_WORDS`` content words or more) has no content
    word that another source lacks, new ``j`` holds all its words, and no other rule of
    the new edition has a sentence holding them: the old edition said that statement
    twice, the new edition once, and ``i``'s own words lie elsewhere in it (a second
    sentence that went to another rule), not in a subject of its own (the meld card's
    faces, said in the double-faced cards' list and again under meld cards). Both
    sources are kept. Said twice in the new edition too (a state-based action and the
    copy rules' reminder of it), the statement is no reason: each old rule has its own
    new twin. Nor is it when a sentence of ``i``'s own (one the other sources do not
    say) stands whole in a free new rule: ``i`` restated the general rule around its own
    case, and that case went there (the Two-Headed Giant's mulligan, which repeated the
    multiplayer mulligan's steps; :func:`_pair_by_kept_sentences` pairs it)."""

    def said_by(stems: frozenset[str], k: int, node: _Node) -> bool:
        return any(stems <= _words(u.key) for u in provenance.units(k, node.text))

    restated = False
    own: list[frozenset[str]] = []
    for unit in provenance.units(i, p.old[i].text):
        said = _content_stems_of(unit.key)
        if len(said) < provenance.MIN_UNIT_WORDS:
            continue
        if not any(said <= _words(p.old[k].lower) for k in others):
            own.append(said)
            continue
        if said <= _words(p.new[j].lower) and not any(
            k != j and said_by(said, k, node) for k, node in enumerate(p.new) if not node.heading
        ):
            restated = True
    if not restated:
        return False
    return not any(
        said_by(said, k, node)
        for said in own
        for k, node in enumerate(p.new)
        if k != j and not node.heading and p.n2o[k] < 0 and k not in merges
    )


#: A word said by at most this share of the new edition's texts names a subject (double
#: faced); a more common one ("card", "each") names none.
KIND_NAME_SHARE = 0.05


class _Kinds:
    """The lists of the new edition that may name kinds of a subject ("there are three
    kinds of double-faced cards: …, meld cards"), read only in the rules that say the
    words asked about, each rule once per pairing."""

    def __init__(self, p: _Pairing) -> None:
        self.p = p
        self.read: dict[int, list[tuple[frozenset[str], tuple[frozenset[str], ...]]]] = {}

    def rare(self, words: frozenset[str]) -> frozenset[str]:
        """Those of ``words`` that some, and at most ``KIND_NAME_SHARE``, of the new
        texts say (the rescue pass's word index, built once per pairing)."""
        _old, new, _index, _idf = rescue._weights(self.p)
        most = KIND_NAME_SHARE * len(new.stems)
        return frozenset(w for w in words if 0 < len(new.postings.get(w, ())) <= most)

    def saying(
        self, rare: frozenset[str], own: frozenset[str]
    ) -> Iterator[tuple[frozenset[str], tuple[frozenset[str], ...]]]:
        """Each list of a new rule that says one of the ``rare`` words (found by the word
        index) and one of ``own``: the words of its lead-in and each item's words."""
        _old, new, _index, _idf = rescue._weights(self.p)
        for k in sorted({k for w in rare for k in new.postings.get(w, ())}):
            node = self.p.new[k]
            if node.heading or not own & _words(node.lower):
                continue
            if k not in self.read:
                self.read[k] = [
                    (
                        _content_stems_of(comparison_key(list_lead(node.text, clause)).lower()),
                        tuple(
                            _content_stems_of(comparison_key(item.value or "").lower())
                            for item in clause.children
                        ),
                    )
                    for clause in lists(node.text)
                ]
            yield from self.read[k]


def _a_kind_of_what_it_names(
    p: _Pairing, i: int, own: frozenset[str], j: int, kinds: _Kinds
) -> bool:
    """New ``j`` names a subject (a rare word of a list's lead-in that old ``i`` does not
    say) of which the new edition lists ``i``'s own subject as a kind: the meld card's
    face-down rule joined the double-faced cards' one when the new edition made meld
    cards one of three kinds of double-faced card. ``j`` then speaks of ``i``'s subject
    too, by the general name."""
    named = kinds.rare(_words(p.new[j].lower) - _words(p.old[i].lower))
    return bool(named) and any(
        lead & named and any(own & item for item in items)
        for lead, items in kinds.saying(named, own)
    )


def _drop_foreign_sources(p: _Pairing, merges: dict[int, list[int]]) -> list[tuple[int, int]]:
    """Parallel rules join one new rule only if each leaves its own subject there.

    Two parallel rules ("… of a Vanguard game …", "… of an Archenemy game …") joined
    into a rule that names only one of their subjects are not a merge: the other rule's
    own words (its game, its zone: those no other source has) are nowhere in the new
    rule. Such a source is withheld (it stays removed, unless
    :func:`_place_withheld_in_twins` finds it a place); a duplicate, with no words of its
    own, is kept, and so is a source one of whose statements another source says again
    and the new rule keeps (:func:`_says_again_what_is_kept`), and so is a source whose
    subject the new edition lists as a kind of what the new rule names
    (:func:`_a_kind_of_what_it_names`). Headings are matched by their subrules, not
    their titles. Returns the withheld sources, each with the rule it was withheld from.
    """
    withheld: list[tuple[int, int]] = []
    kinds = _Kinds(p)
    for j in sorted(merges):
        group = merges[j]
        if len(group) < 2 or p.new[j].heading:
            continue
        target = _words(p.new[j].lower)
        foreign = [
            i
            for i in group
            if not p.old[i].heading
            and any(
                fuzz.token_set_ratio(p.old[i].lower, p.old[k].lower) >= PARALLEL_FRAME_SIMILARITY
                for k in group
                if k != i
            )
            and (own := _own_words(p.old[i], (p.old[k] for k in group if k != i)))
            and not own & target
            and not _says_again_what_is_kept(p, i, [k for k in group if k != i], j, merges)
            and not _a_kind_of_what_it_names(p, i, own, j, kinds)
        ]
        if not foreign:
            continue
        kept = [i for i in group if i not in foreign]
        for i in foreign:
            if p.o2n[i] == j:
                p.o2n[i] = -1
                p.n2o[j] = -1
            withheld.append((i, j))
        if len(kept) >= 2:
            merges[j] = kept
            continue
        del merges[j]
        if kept and p.n2o[j] < 0:
            i = kept[0]
            p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "merge")
    return withheld


def _place_withheld_in_twins(
    p: _Pairing,
    withheld: Sequence[tuple[int, int]],
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
) -> None:
    """A source withheld from a merge goes to the free twin of the rule it was withheld from.

    Old text written twice (a state-based action, and the copy rules' reminder of it
    that points to the state-based actions) may be written twice in the new edition
    too. The two old twins are drawn to the same new text, the merge is undone
    (:func:`_drop_foreign_sources`: the reminder's own words are not in the
    state-based action), and the reminder's own new twin is left free. When exactly one
    free new rule is a twin of the rule the source was withheld from
    (``PARALLEL_FRAME_SIMILARITY``) and stands on the source's topic, it is the source's
    counterpart: the new edition kept both texts, each where it was.
    """
    if not withheld:
        return
    in_splits, in_merges = _grouped(splits, merges)
    for i, j in withheld:
        if not _free_old_text(p, i, splits, in_merges):
            continue
        twins = [
            k
            for k, node in enumerate(p.new)
            if k != j
            and not node.heading
            and _free_new(p, k, in_splits, merges)
            and fuzz.token_set_ratio(p.new[j].lower, node.lower) >= PARALLEL_FRAME_SIMILARITY
        ]
        if len(twins) != 1 or not p.same_topic(i, twins[0]):
            continue
        (k,) = twins
        # rivals it had when first drawn to the twin it left: the one it takes is no rival
        rivals = tuple(r for r in p.alternatives.pop(i, ()) if r != ("new", k))
        p.pair(i, k, round(fuzz.ratio(p.old[i].lower, p.new[k].lower), 1), "content", rivals)


def _place_withheld_by_own_words(
    p: _Pairing,
    withheld: Sequence[tuple[int, int]],
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
) -> None:
    """A source withheld from a merge for its own words goes to the one free rule beside
    the rule it was withheld from that says them.

    Parallel rules written on one frame for several subjects (a commander put into the
    graveyard, or into exile, "… may put it into the command zone instead") may become
    two new rules: one still on the frame, for another subject (hand or library), and one
    reworded for the old subjects (a state-based action naming the graveyard and exile).
    The frame draws the old rules to its new rule, :func:`_drop_foreign_sources` undoes
    that (their own words are not there), and the rule that names them is left free. A
    withheld source whose own words (those no other source of the undone group has, and
    the rule it left lacks) one free sibling of that rule says, on the source's topic,
    goes there; several sources that go to one rule are its merge. Two free siblings
    saying them: the text does not decide, the source stays free.
    """
    if not withheld:
        return
    in_splits, in_merges = _grouped(splits, merges)
    left: dict[int, list[int]] = {}
    for i, j in withheld:
        left.setdefault(j, []).append(i)
    homes: dict[int, list[int]] = {}
    for j, sources in sorted(left.items()):
        # the undone group: the withheld sources and those the rule kept
        group = {*sources, *merges.get(j, ()), p.n2o[j]} - {-1}
        target = _words(p.new[j].lower)
        for i in sources:
            if not _free_old_text(p, i, splits, in_merges):
                continue
            own = _own_words(p.old[i], (p.old[k] for k in sorted(group) if k != i)) - target
            sayers = [
                k
                for k, node in enumerate(p.new)
                if k != j
                and node.parent == p.new[j].parent
                and not node.heading
                and _free_new(p, k, in_splits, merges)
                and own & _words(node.lower)
                and p.same_topic(i, k)
            ]
            if len(sayers) == 1:
                homes.setdefault(sayers[0], []).append(i)
    for k, sources in sorted(homes.items()):
        scores = {i: round(fuzz.ratio(p.old[i].lower, p.new[k].lower), 1) for i in sources}
        first = max(sources, key=lambda i: (scores[i], -i))
        rivals = tuple(r for r in p.alternatives.pop(first, ()) if r != ("new", k))
        p.pair(first, k, scores[first], "content", rivals)
        if len(sources) > 1:
            merges[k] = sorted(sources)


def _place_free_twins(
    p: _Pairing,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    joins: Collection[int] = (),
) -> None:
    """A free old rule written to one frame with a sibling goes to the free new twins of
    where that sibling went: both editions wrote the pair of cases apart.

    Two sibling rules written on one frame for two subjects (attacking and blocking),
    one matched and one left free (the attack rule went to two rules of the declare
    attackers step, the block rule nowhere): when a new rule the matched one went to has
    exactly one twin among the free new rules that name the free rule's own subject
    words (those its sibling lacks) and none of the sibling's own (a twin: word sets
    alike, ``PARALLEL_FRAME_SIMILARITY``), that twin is a counterpart of the free rule
    (several: a split). The old twin is the free rule's one sibling written on its
    frame. Run again once rules are placed by their examples (``joins``: the old rules
    joined to groups, placed too).
    """
    in_splits, in_merges = _grouped(splits, merges)
    free_new = [
        k for k, node in enumerate(p.new) if not node.heading and _free_new(p, k, in_splits, merges)
    ]
    for i, node in enumerate(p.old):
        if i in joins or not _free_old_text(p, i, splits, in_merges):
            continue
        others = [s for s in p.old_children.get(node.parent, ()) if s != i and not p.old[s].heading]
        siblings = process.extract(
            node.lower,
            [p.old[s].lower for s in others],
            scorer=fuzz.token_set_ratio,
            score_cutoff=PARALLEL_FRAME_SIMILARITY,
            limit=2,
        )
        if len(siblings) != 1:
            continue
        a = others[siblings[0][2]]
        group = splits.get(a) or ([p.o2n[a]] if p.o2n[a] >= 0 else [])
        if not group or a in in_merges or any(g in merges for g in group):
            continue
        own = _words(node.lower) - _words(p.old[a].lower)
        theirs = _words(p.old[a].lower) - _words(node.lower)
        if not own or not theirs:
            continue
        found: list[int] = []
        for g in group:
            # (the subject words first: a set test, before the letters are compared)
            candidates = [
                k
                for k in free_new
                if k not in found and own & (words := _words(p.new[k].lower)) and not theirs & words
            ]
            twins = process.extract(
                p.new[g].lower,
                [p.new[k].lower for k in candidates],
                scorer=fuzz.token_set_ratio,
                score_cutoff=PARALLEL_FRAME_SIMILARITY,
                limit=2,
            )
            if len(twins) == 1 and p.same_topic(i, candidates[twins[0][2]]):
                found.append(candidates[twins[0][2]])
        if not found:
            continue
        if len(found) == 1:
            (k,) = found
            p.pair(i, k, round(fuzz.ratio(node.lower, p.new[k].lower), 1), "content")
        else:
            splits[i] = sorted(found, key=lambda k: p.new[k].order)
            in_splits.update(found)
        free_new = [k for k in free_new if k not in found]


#: A word in at most this share of an edition's rules names a subject (a deck, a zone, a
#: kind of card), not the frame around it ("each", "player", "card").
SUBJECT_WORD_SHARE = 0.05


def _rare_words(nodes: Sequence[_Node]) -> frozenset[str]:
    """The stems found in at most ``SUBJECT_WORD_SHARE`` of the rules of ``nodes`` (or in
    one rule, in a small edition)."""
    counts: Counter[str] = Counter()
    rules = [n for n in nodes if not n.heading]
    for n in rules:
        counts.update(_words(n.lower))
    most = max(1.0, SUBJECT_WORD_SHARE * len(rules))
    return frozenset(w for w, c in counts.items() if c <= most)


#: A free old parent went where its subrules went when more than this share of its
#: matched subrules went under (or into) one new rule, and no rule apart from that one's
#: line (its ancestors, its descendants) holds this share of them ...
CONTAINER_SHARE = 0.5
#: ... and at least this share of its subrules were matched at all ...
CONTAINER_MATCHED = 0.5
#: ... and the new rule says at least this share of the parent's content words.
CONTAINER_WORDS = 0.5


def _join_emptied_containers(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> dict[int, int]:
    """A heading or list intro whose subrules went under one new rule that another old
    rule holds is one more source of that rule (GumTree's container matching, for a
    container whose counterpart is taken).

    :func:`_match_by_children` pairs a parent only with a free new parent. When the old
    heading (or the rule introducing a list) and its first rule were folded into one new
    rule that heads the moved subrules, that rule is held by the first rule and the
    parent is left removed. A free old parent with ``CONTAINER_MATCHED`` of its
    subrules matched (two at least), more than ``CONTAINER_SHARE`` of which went under
    or into one new rule (and not half of them under or into a rule apart from that
    one's line: then they divide, as the subrules of a heading split in two do),
    joins that rule's sources when the rule is held 1:1 or as a merge
    (a piece of a split: see below), says ``CONTAINER_WORDS`` of the
    parent's content words (its title, its intro), and is a heading only if the parent
    is: a heading whose subrules went under a broader section is not that section.
    The deepest such rule is taken (a rule under a section, not the section).

    Returns each joined new rule held 1:1 until then, with its holder: the parent adds
    only a title or an intro, so that pair still shows how the edition reworded texts.
    A rule that is a piece of a split is left to :func:`_join_emptied_containers_to_splits`.
    """
    in_splits, in_merges = _grouped(splits, merges)
    held_before: dict[int, int] = {}
    for i, j in _emptied_containers(p, splits, merges):
        if j in in_splits:
            continue
        if j not in merges:
            held_before[j] = p.n2o[j]
        _join_merge(p, i, j, splits, merges, in_merges)
    return held_before


def _join_emptied_containers_to_splits(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> dict[int, int]:
    """Last of all: a heading or list intro whose subrules went under a piece of a split
    (:func:`_emptied_containers`) joins that split, as the source of that piece.

    The old rule 310.2 led the restrictions on dividing combat damage; in 2009-07-11 the
    new 510.1 leads them, and 510.1 is also a piece of old 310.1 (split into 510.1 and
    510.3). Returns ``{old rule: piece}``: :func:`rulediff.classify._groups` makes one
    group of several old and several new rules, whose links say which went where. Run
    after every pass that may still pair the old rule, so it is free for good.
    """
    in_splits, _in_merges = _grouped(splits, merges)
    return {i: j for i, j in _emptied_containers(p, splits, merges) if j in in_splits}


def _emptied_containers(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> list[tuple[int, int]]:
    """``(free old parent, new rule)``: where each container of
    :func:`_join_emptied_containers` went, the new rule taken by another old rule."""
    in_splits, in_merges = _grouped(splits, merges)
    went: dict[int, set[int]] = defaultdict(set)
    for i, j in enumerate(p.o2n):
        if j >= 0:
            went[i].add(j)
    for i, pieces in splits.items():
        went[i].update(pieces)
    for j, sources in merges.items():
        for i in sources:
            went[i].add(j)
    joins: list[tuple[int, int]] = []
    for i, node in enumerate(p.old):
        if p.o2n[i] >= 0 or i in splits or i in in_merges:
            continue
        kids = p.old_children.get(node.place, ())
        matched = [k for k in kids if went.get(k)]
        if len(matched) < 2 or len(matched) < CONTAINER_MATCHED * len(kids):
            continue
        votes: Counter[int] = Counter()
        for k in matched:
            under: set[int] = set()
            for j in went[k]:
                under.add(j)
                parent = p.new_by_place.get(p.new[j].parent or "")
                if parent is not None:
                    under.add(parent)
            votes.update(under)
        half = CONTAINER_SHARE * len(matched)
        enough = [j for j, c in votes.items() if c >= 2 and c > half]
        if not enough:
            continue
        j = max(enough, key=lambda m: (_depth(p, m), -p.new[m].order))
        # the other places two or more subrules went, neither inside the other nor ``j``
        apart = [
            m
            for m, c in votes.items()
            if m != j
            and c >= 2
            and not _new_under(p, j, p.new[m].place)
            and not _new_under(p, m, p.new[j].place)
        ]
        if any(votes[m] >= half for m in apart):
            continue  # its subrules divide between two places: the parent was split
        if node.heading and _title_names_another_place(p, node, j, apart):
            continue  # it names the other place its subrules went: split by name too
        if j not in in_splits and p.n2o[j] < 0 and j not in merges:
            continue  # free: for the passes pairing free rules
        if p.new[j].heading and not node.heading:
            continue  # an intro is not a heading
        if not _says_container(node, p.new[j]):
            continue
        joins.append((i, j))
    return joins


def _title_names_another_place(p: _Pairing, heading: _Node, j: int, apart: Iterable[int]) -> bool:
    """Old ``heading`` names, by a content word new heading ``j`` lacks, one of the new
    headings ``apart`` from ``j`` that its subrules also went under: "Replacement and
    Prevention Effects", whose subrules went under "Prevention Effects" and, fewer,
    under "Replacement Effects", was split in two, not folded into the first."""
    said = {_root(w) for w in letter_words(p.new[j].lower)}
    own = {_root(w) for w in _content_words(heading.lower)} - said
    return bool(own) and any(
        p.new[m].heading and own & {_root(w) for w in _content_words(p.new[m].lower)} for m in apart
    )


def _says_container(parent: _Node, rule: _Node) -> bool:
    """New ``rule`` says what old ``parent`` said of its subrules: ``CONTAINER_WORDS`` of
    its content words (inflection aside: "Bands with Other" in "Banding"), or, both
    introducing a list (ending on a colon), the intro's role."""
    words = {_root(w) for w in _content_words(parent.lower)}
    said = words & {_root(w) for w in letter_words(rule.lower)}
    if words and len(said) >= CONTAINER_WORDS * len(words):
        return True
    lists = parent.lower.rstrip().endswith(":") and rule.lower.rstrip().endswith(":")
    return lists and not rule.heading


def _depth(p: _Pairing, j: int) -> int:
    """How many rules stand above new rule ``j``."""
    depth = 0
    parent = p.new[j].parent
    while parent is not None and (k := p.new_by_place.get(parent)) is not None:
        depth += 1
        parent = p.new[k].parent
    return depth


def _join_parallel_twins(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """An old rule written to the same frame as a twin (another deck, zone, face) went
    where its twin went, when the new rule names its subject or names neither twin's.

    Two parallel old rules (``PARALLEL_FRAME_SIMILARITY``) that the new edition writes as
    one rule leave one twin free, or linked weakly elsewhere by the shared frame. When the
    new rule the other twin holds says the free twin's own words (those its twin lacks),
    or says neither twin's own words (one general word for both subjects, while the free
    twin's subject is still in the new edition), the free twin is one more source
    (``merged``). A new rule naming only the held twin's subject is the held twin's
    alone (as :func:`_drop_foreign_sources`). A weak link (below ``WEAK_FUZZY``) is given
    up for the merge only when the twin's rule names more of the free twin's subject than
    the linked rule does and is closer to the free twin's text.
    """
    in_splits, in_merges = _grouped(splits, merges)
    texts = [n.lower for n in p.old]
    new_words: frozenset[str] | None = None
    subject_words: frozenset[str] | None = None
    joins: list[tuple[int, int]] = []
    loose = [
        i
        for i, node in enumerate(p.old)
        if not node.heading
        and i not in splits
        and i not in in_merges
        and (p.o2n[i] < 0 or (p.score.get(i, 0.0) < WEAK_FUZZY and p.o2n[i] not in merges))
    ]
    if not loose:
        return
    # texts this close differ in length by at most a third: read only those
    by_length = sorted((len(node.lower), k) for k, node in enumerate(p.old) if not node.heading)
    lengths = [length for length, _k in by_length]
    # texts in the same order, so a window is one slice, not a list built per rule
    texts_by_length = [texts[k] for _length, k in by_length]
    shortest = PARALLEL_FRAME_SIMILARITY / (200.0 - PARALLEL_FRAME_SIMILARITY)
    for i in loose:
        node, held = p.old[i], p.o2n[i]
        size = len(node.lower)
        low = bisect.bisect_left(lengths, size * shortest)
        high = bisect.bisect_right(lengths, size / shortest)
        # only "one twin or not" matters: the search stops at the second twin found
        twins = list(
            itertools.islice(
                (
                    k
                    for _text, _score, m in process.extract_iter(
                        node.lower,
                        texts_by_length[low:high],
                        scorer=fuzz.ratio,
                        score_cutoff=PARALLEL_FRAME_SIMILARITY,
                    )
                    if (k := by_length[low + m][1]) != i
                    and fuzz.token_set_ratio(node.lower, p.old[k].lower)
                    >= PARALLEL_FRAME_SIMILARITY
                ),
                2,
            )
        )
        if len(twins) != 1:
            continue  # a run of many parallel rules (steps, keywords): each has its own
        (k,) = twins
        j = p.o2n[k]
        if j < 0:
            j = next((m for m, group in merges.items() if k in group), -1)
        if j < 0 or j == held or k in splits or j in in_splits or p.new[j].heading:
            continue
        if subject_words is None:
            subject_words = _rare_words(p.old)
        own = _own_words(node, (p.old[k],)) & subject_words
        twin_own = _own_words(p.old[k], (node,)) & subject_words
        if not own or not twin_own:
            continue  # a duplicate or a rule inside the other: not two subjects
        target = _words(p.new[j].lower)
        if not own & target:
            # the new rule does not name the free twin's subject: it must name neither
            if twin_own & target:
                continue  # the new rule names only the twin's subject
            if held >= 0:
                continue  # a rule general for both is no reason to leave its own link
            if new_words is None:
                new_words = frozenset().union(*(_words(n.lower) for n in p.new))
            if not own & new_words:
                continue  # its subject left the game: removed, not merged
            if not p.same_topic(i, j):
                continue  # under another keyword or zone: a template sentence of it
        if held >= 0 and len(own & _words(p.new[held].lower)) >= len(own & target):
            continue  # its own link names its subject as well: no reason to leave it
        if held >= 0 and fuzz.ratio(node.lower, p.new[j].lower) <= fuzz.ratio(
            node.lower, p.new[held].lower
        ):
            continue  # its own link is as close: the frame alone does not move it
        joins.append((i, j))
    for i, j in joins:
        held = p.o2n[i]
        if held >= 0:
            p.o2n[i] = -1
            p.n2o[held] = -1
            p.score.pop(i, None)
            p.method.pop(i, None)
            p.alternatives.pop(i, None)
        _join_merge(p, i, j, splits, merges, in_merges)


# --- splits and merges -------------------------------------------------------------------


def _coverage(part: _Node, whole: _Node) -> float:
    feats = part.feature_set()
    if len(feats) < 3:
        return 0.0
    return len(feats & whole.feature_set()) / len(feats)


_PIECE_COVERAGE = 0.7
_GAIN = 5.0

#: The name a rule gives itself: 'This is called the "legend rule."'
_CALLED = re.compile(r"\bcalled\s*(?:the\s*|an?\s*)?[\"“']\s*([^\"”']{2,60}?)[.,]?[\"”']")


def _keeps_its_name(part: _Node, whole: _Node) -> bool:
    """A rule that names itself survives in another only if that name does: two rules
    that share a template sentence (one kept, the others go to the graveyard) but not
    their names are not one rule cut or joined."""
    if "called" not in part.lower:
        return True  # names nothing (the regex scan skipped: most texts)
    names = _CALLED.findall(part.lower)
    return not names or any(name in whole.lower for name in names)


def _pieces(
    wholes: Sequence[_Node],
    candidates: list[int],
    parts: Sequence[_Node],
    free_parts: list[int],
    match: list[int],
    same_topic: Callable[[int, int], bool],
) -> dict[int, list[int]]:
    """Whole node → the nodes of the other side it was cut into (or joined from).

    Each free part goes to the candidate whole that covers it best, on the same keyword,
    step or zone (``same_topic(whole, part)``); a whole keeps its
    group (its own match, if any, and its parts, in document order) when the joined
    group is much closer to it than its match alone. Splits and merges are this, seen
    from the old side and from the new side (``fuzz.ratio`` is symmetric).
    """
    index = _BigramIndex(wholes, candidates)
    pieces: dict[int, list[int]] = defaultdict(list)
    for k in free_parts:
        # A part most of whose features no candidate has (most rules added over a long
        # interval) is covered by none (see _coverage): no look-up.
        feats = parts[k].feature_set()
        if len(feats) < 3 or not index.may_hold(feats, _PIECE_COVERAGE):
            continue
        best = None
        for w in index.top(parts[k].features(), 3):
            if not _keeps_its_name(parts[k], wholes[w]) or not same_topic(w, k):
                continue
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
    splits = _pieces(p.old, candidates, p.new, added, p.o2n, p.same_topic)
    # A piece that is the match's text written again for a new subject adds nothing of
    # the old rule: the joined group only looked closer for being longer.
    for i, group in list(splits.items()):
        j = p.o2n[i]
        if j < 0:
            continue
        kept = [
            k
            for k in group
            if k == j
            or not (_reused_for_new_subject(p, i, j, k, set(), {}) or _restates_match(p, i, j, k))
        ]
        if len(kept) < 2:
            del splits[i]
        else:
            splits[i] = kept
    return splits


def _restates_match(p: _Pairing, i: int, j: int, k: int) -> bool:
    """Piece ``k`` says nothing of old ``i`` that ``i``'s match ``j`` does not: no word of
    ``i`` that ``j`` lacks, and each sentence of ``k`` echoes an old sentence that ``j``
    keeps at least as closely. Such a piece is ``j``'s sentence written again with a word
    changed (the converse: "a player may lose" beside "a player may win"), new content
    that only looks like a piece for sharing the frame."""
    if _own_words(p.new[k], (p.new[j],)) & _words(p.old[i].lower):
        return False
    old_sentences = _plain_sentences(p.old[i].lower)
    kept = _plain_sentences(p.new[j].lower)
    if not old_sentences or not kept:
        return False
    for sentence in _plain_sentences(p.new[k].lower):
        echoed = max(old_sentences, key=lambda o: fuzz.ratio(sentence, o))
        if max(fuzz.ratio(echoed, t) for t in kept) < fuzz.ratio(sentence, echoed):
            return False
    return True


def _find_copies(p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]) -> None:
    """Ambiguous pairs whose rivals stayed unmatched: the text was duplicated, not moved.

    When a rule "for spells and abilities" becomes one rule for spells and one for
    abilities, both new rules are near-copies of the old one: a split (or, the other way
    round, a merge). The ambiguity that flagged it is resolved by saying so.
    """
    in_splits, in_merges = _grouped(splits, merges)
    for i, rivals in sorted(p.alternatives.items()):
        j = p.o2n[i]
        if j < 0 or p.old[i].heading or i in splits or j in merges:
            continue
        if j in in_splits or i in in_merges:
            continue
        reused = {
            k
            for side, k in rivals
            if side == "new" and _reused_for_new_subject(p, i, j, k, in_splits, merges)
        }
        if reused and len(reused) == len(rivals):
            del p.alternatives[i]  # the rivals are its text written for new subjects
            continue
        if reused:
            rivals = tuple(r for r in rivals if r[0] == "old" or r[1] not in reused)
            p.alternatives[i] = rivals
        copies_new = [
            k
            for side, k in rivals
            if side == "new"
            and p.n2o[k] < 0
            and k not in in_splits
            and k not in merges
            and fuzz.ratio(p.old[i].lower, p.new[k].lower) >= COPY_SIMILARITY
            and _keeps_its_name(p.old[i], p.new[k])
        ]
        copies_old = [
            k
            for side, k in rivals
            if side == "old"
            and p.o2n[k] < 0
            and k not in in_merges
            and k not in splits
            and fuzz.ratio(p.old[k].lower, p.new[j].lower) >= COPY_SIMILARITY
            and _keeps_its_name(p.old[k], p.new[j])
        ]
        # A copy pushed out of its place by this match to a text it is no copy of.
        displaced = [
            k
            for side, k in rivals
            if side == "old"
            and p.o2n[k] >= 0
            and p.o2n[k] != j
            and p.method.get(k) == "fuzzy"
            and k not in in_merges
            and k not in splits
            and not _in_place(p, k, p.o2n[k])
            and fuzz.ratio(p.old[k].lower, p.new[p.o2n[k]].lower) < COPY_SIMILARITY
            and fuzz.ratio(p.old[k].lower, p.new[j].lower) >= COPY_SIMILARITY
            and _keeps_its_name(p.old[k], p.new[j])
        ]
        if displaced and len(copies_old) + len(displaced) == len(rivals):
            if _displaced_copies_in_place(p, i, j, copies_old, displaced, merges, in_splits):
                del p.alternatives[i]
                continue
        if copies_new and len(copies_new) == len(rivals):
            splits[i] = sorted([j, *copies_new], key=lambda k: p.new[k].order)
            in_splits.update(splits[i])
            del p.alternatives[i]
        elif copies_old and len(copies_old) == len(rivals):
            if _copies_in_place(p, [i, *copies_old], j, merges, in_splits):
                del p.alternatives[i]
                continue
            merges[j] = sorted([i, *copies_old], key=lambda k: p.old[k].order)
            in_merges.update(merges[j])
            del p.alternatives[i]


#: A new rule holding this many near copies of another rule's subrules is written on its frame.
FRAME_COPIES = 2


def _reused_for_new_subject(
    p: _Pairing, i: int, j: int, k: int, in_splits: set[int], merges: dict[int, list[int]]
) -> bool:
    """New ``k``, a copy of old ``i``'s text beside ``i``'s counterpart ``j``, is that text
    written again for a new subject (a new procedure beside ending the turn, a new keyword
    on the frame of morph, a new draft variant), not a piece of ``i``.

    So when ``k``'s parent has no old counterpart and holds near copies of at least
    :data:`FRAME_COPIES` subrules of ``j``'s parent (a new rule on an old rule's frame),
    ``k`` says nothing of ``i`` that ``j`` does not, and ``k`` with its parent names
    something that neither ``j`` with its parent nor ``i`` with its parent does (the new
    subject). A rule for spells and abilities cut into one for spells and one for
    abilities is no such copy: the abilities piece names what the old rule did.
    """
    pk, pj = p.new[k].parent, p.new[j].parent
    if pk is None or pj is None or pk == pj:
        return False
    a, b = p.new_by_place.get(pk), p.new_by_place.get(pj)
    if a is None or b is None or p.n2o[a] >= 0 or a in in_splits or a in merges:
        return False
    frame = [p.new[y].lower for y in p.new_children.get(pj, ())]
    copies = sum(
        1
        for x in p.new_children.get(pk, ())
        if any(fuzz.ratio(p.new[x].lower, text) >= COPY_SIMILARITY for text in frame)
    )
    if copies < FRAME_COPIES:
        return False
    if _own_words(p.new[k], (p.new[j],)) & _words(p.old[i].lower):
        return False
    old_words = _words(p.old[i].lower)
    c = p.old_by_place.get(p.old[i].parent or "")
    if c is not None:
        old_words |= _words(p.old[c].lower)
    subject = _own_words(p.new[k], (p.new[j], p.new[b])) | _own_words(
        p.new[a], (p.new[j], p.new[b])
    )
    return bool(subject - old_words) or _titles_new_subject(p, i, a, b)


def _titles_new_subject(p: _Pairing, i: int, a: int, b: int) -> bool:
    """New heading ``a``'s title names something that neither new heading ``b``'s title
    nor the title of any heading over old ``i`` names: a section for another subject
    ("Team vs. Team" beside "Two-Headed Giant"), even when its words are old ones that
    the rules' texts use ("team"). A section for abilities cut from one on "spells and
    activated abilities" names nothing new."""
    named = _naming_stems(p.new[b]).union(*(_naming_stems(p.old[h]) for h in p.old_heads[i]))
    return bool(_naming_stems(p.new[a]) - named)


def _naming_stems(node: _Node) -> frozenset[str]:
    """The stems of a title's words, short function words and "general" left out."""
    return _stems(letter_words(node.lower))


def _decided_on_sibling_frame(p: _Pairing, i: int, j: int) -> bool:
    """A fuzzy link from :data:`WEAK_FUZZY` up to :data:`CONFIDENT_TOTAL`, out of the old
    rule's own section, that rests on a sibling frame (:func:`_rests_on_sibling_frame`)
    while no sibling of the new rule is a tied rival. A short rule that is mostly the
    run's clause ("these cards have no subtypes") scores high on the clause alone and
    looks decided; the reader is told nothing. When a member of the run ties with the
    link, the match is already flagged ``ambiguous`` with that member beside it, and the
    reader decides: it stays."""
    score = p.score.get(i, 100.0)
    if not WEAK_FUZZY <= score < CONFIDENT_TOTAL or _in_own_section(p, i, j):
        return False
    parent = p.new[j].parent
    if any(side == "new" and p.new[k].parent == parent for side, k in p.alternatives.get(i, ())):
        return False  # a tied member of the run: flagged ambiguous, left to the reader
    return _rests_on_sibling_frame(p, i, j)


def _withdraw_frame_matches(p: _Pairing) -> None:
    """Undo a weak text match (below :data:`WEAK_FUZZY`) out of the old rule's own
    section when the text cannot tell the new rule from a runner-up written on the same
    frame (a near copy, :data:`COPY_SIMILARITY`) and the old rule says none of the words
    that tell the two apart (snow mana and generic mana; wither and lifelink): only the
    frame matched. The old rule is then paired only within its own section (``withdrawn``),
    or stays removed. The same when every word the old rule shares with the new one a
    sibling of the new one says too (:func:`_rests_on_sibling_frame`), copy or not; above
    :data:`WEAK_FUZZY` too when the link looks decided (:func:`_decided_on_sibling_frame`)."""
    for i, j in enumerate(p.o2n):
        if j < 0 or p.old[i].heading or p.method.get(i) != "fuzzy":
            continue
        if p.score.get(i, 100.0) >= WEAK_FUZZY or _in_own_section(p, i, j):
            if _decided_on_sibling_frame(p, i, j):
                p.withdraw(i)
            continue
        if _rests_on_sibling_frame(p, i, j):
            p.withdraw(i)
            continue
        rivals = p.alternatives.get(i, ())
        said = _words(p.old[i].lower)
        for side, k in rivals:
            if side != "new" or fuzz.ratio(p.new[j].lower, p.new[k].lower) < COPY_SIMILARITY:
                continue
            mine, theirs = _own_words(p.new[j], (p.new[k],)), _own_words(p.new[k], (p.new[j],))
            if mine and theirs and not (mine | theirs) & said:
                p.withdraw(i)
                break


#: A rule saying at most this many words besides its references is a pointer: a short
#: statement sending the reader to the rule it cites ("… can't be paid (see rule …)").
POINTER_WORDS = 12
#: Two pointers sharing more content stems than this say one thing, whatever they cite.
POINTER_SHARED = 1


def _withdraw_crossed_pointers(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """Undo a weak link (below :data:`WEAK_FUZZY`) between two pointer rules that point to
    rules that do not correspond and share no more than one content word.

    A pointer says little of its own; what it is about is the rule it cites. When the
    old pointer's cited rules went elsewhere than the new pointer's cited rule (not that
    rule, nor a rule of its family), and the two short statements share at most one
    word ("costs"), the text match is two pointers of one section on two subjects. The
    old rule stays removed, with the new rule among its alternatives."""
    targets_of, _sources_of = rescue._links(p, splits, merges)
    in_merges = {i for group in merges.values() for i in group}
    for i, j in enumerate(p.o2n):
        if j < 0 or i in splits or i in in_merges or j in merges or p.old[i].heading:
            continue
        if p.score.get(i, 100.0) >= WEAK_FUZZY or "rule" not in p.old[i].lower:
            continue
        if not (_is_pointer(p.old[i]) and _is_pointer(p.new[j])):
            continue
        cited_old = rescue.cited_rules(p.old, p.old_by_place, i)
        cited_new = rescue.cited_rules(p.new, p.new_by_place, j)
        went = {k for c in cited_old for k in targets_of.get(c, ())}
        if not went or not cited_new:
            continue  # nothing to read the pointers by
        if any(_same_family(p.new, p.new_by_place, k, c) for k in went for c in cited_new):
            continue
        if len(_content_stems(p.old[i]) & _content_stems(p.new[j])) > POINTER_SHARED:
            continue
        p.withdraw(i)
        p.undecided_old[i] = (j, *p.undecided_old.get(i, ()))


def _withdraw_links_under_new_rules(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]]
) -> None:
    """Undo a weak fuzzy link (below :data:`WEAK_FUZZY`) that carries an old subrule
    from under its parent's counterpart, where a sibling's counterpart stands and free
    rules are left, to a subrule of a new rule that has no old counterpart (a rule
    written for a subject the old edition lacks)."""
    targets_of, sources_of = rescue._links(p, splits, merges)
    in_merges = {i for group in merges.values() for i in group}
    for i, j in enumerate(p.o2n):
        if j < 0 or i in splits or i in in_merges or j in merges or p.old[i].heading:
            continue
        if p.method.get(i) != "fuzzy" or p.score.get(i, 100.0) >= WEAK_FUZZY:
            continue
        a = p.old_by_place.get(p.old[i].parent) if p.old[i].parent is not None else None
        b = p.new_by_place.get(p.new[j].parent) if p.new[j].parent is not None else None
        if a is None or b is None or p.old[a].heading or p.new[b].heading:
            continue
        homes = targets_of.get(a, [])
        if not homes or b in homes or sources_of.get(b):
            continue
        under = {k for t in homes for k in p.new_children.get(p.new[t].place, ())}
        siblings = [s for s in p.old_children.get(p.old[a].place, ()) if s != i]
        if not any(under.intersection(targets_of.get(s, ())) for s in siblings):
            continue
        beside = set(p.new_children.get(p.new[b].place, ()))
        if any(beside.intersection(targets_of.get(s, ())) for s in siblings):
            continue  # its siblings went there too: the family moved
        if not any(not sources_of.get(k) and not p.new[k].heading for k in under):
            continue
        p.withdraw(i)
        p.undecided_old[i] = (j, *p.undecided_old.get(i, ()))


def _is_pointer(node: _Node) -> bool:
    """``node`` cites a rule and says at most :data:`POINTER_WORDS` words besides."""
    if not references(node.text):
        return False
    words = letter_words(placeholder_references(node.lower))
    return len([w for w in words if w not in ("see", "rule", "rules")]) <= POINTER_WORDS


def _same_family(nodes: list[_Node], by_place: dict[str, int], a: int, b: int) -> bool:
    """``a`` and ``b`` are one rule, or one is a subrule (at any depth) of the other."""
    return a in rescue.lineage_of(nodes, by_place, b) or b in rescue.lineage_of(nodes, by_place, a)


def _add_unshared_pieces(
    p: _Pairing,
    added: dict[int, set[int]],
    claimed: Counter,
    splits: dict[int, list[int]],
    in_splits: set[int],
) -> None:
    """Each old rule's split gains the free rules it found that no other old rule found
    (a sentence two old rules say is neither's piece)."""
    for i, found in sorted(added.items()):
        pieces = [x for x in found if claimed[x] == 1]
        if not pieces:
            continue
        group = splits.get(i) or [p.o2n[i]]
        splits[i] = sorted({*group, *pieces}, key=lambda k: p.new[k].order)
        in_splits.update(pieces)


def _for_subject_old_lacks(p: _Pairing, i: int, x: int) -> bool:
    """Free new ``x`` is written for a subject the old edition lacks (under it, opening
    with it, or naming it as its case while old ``i``'s topic lives on): a sentence of
    ``i`` said again there is no piece of ``i``."""
    return (
        _under_new_subject(p, x)
        or _written_for_new_subject(p, i, x)
        or _opens_with_new_subject(p, x)
    )


def _withdraw_new_subject_matches(p: _Pairing, splits: dict[int, list[int]]) -> None:
    """Undo each link from an old rule to a new rule restated for a subject the old
    edition lacks (:func:`_restated_for_new_subject`), whole match or piece of a split:
    the old rule keeps its other pieces, or is free (for its own section only), or stays
    removed; the new rule is added. Run once headings are matched bottom-up (later
    passes then refuse such pairs in ``same_topic``) and again at the end, for links
    made by steps that do not ask ``same_topic``."""
    if not any(
        node.heading and p.n2o[h] < 0 and _names_new_subject(p, h) for h, node in enumerate(p.new)
    ):
        return  # no heading without a counterpart names a new subject: no rule is under one
    for i, j in enumerate(p.o2n):
        if j < 0 or i in splits or p.old[i].heading:
            continue
        if _restated_for_new_subject(p, i, j):
            p.withdraw(i)
            _pair_with_own_copy(p, i)
    for i, pieces in list(splits.items()):
        kept = [j for j in pieces if not _restated_for_new_subject(p, i, j)]
        if len(kept) == len(pieces):
            continue
        for j in pieces:
            if j not in kept and p.n2o[j] == i:
                p.n2o[j] = -1
        if len(kept) >= 2:
            splits[i] = kept
            continue
        del splits[i]
        if p.o2n[i] >= 0 and p.o2n[i] not in kept:
            p.o2n[i] = -1
        if kept and p.o2n[i] < 0 and p.n2o[kept[0]] < 0:
            j = kept[0]
            p.pair(i, j, round(fuzz.ratio(p.old[i].lower, p.new[j].lower), 1), "sentence")


def _pair_with_own_copy(p: _Pairing, i: int) -> None:
    """Old ``i``, freed from a variant's copy of its text, goes to the free new rule that
    says it nearly word for word (:data:`WITHDRAWN_COPY`) outside any new subject: the
    general rule moved to another section (a multiplayer rule into the game-start rules)
    while a new variant wrote it again. Later passes limit a freed rule to its own
    section, so this is its one way out of it."""
    free = {
        j: node.lower
        for j, node in enumerate(p.new)
        if p.n2o[j] < 0 and not node.heading and not _restated_for_new_subject(p, i, j)
    }
    best = process.extractOne(p.old[i].lower, free, scorer=fuzz.ratio, score_cutoff=WITHDRAWN_COPY)
    if best is not None:
        p.pair(i, best[2], round(best[1], 1), "fuzzy")


#: A free new rule holding this share of an old copy's words holds that copy.
COPY_COVERAGE = 0.9


def _displaced_copies_in_place(
    p: _Pairing,
    i: int,
    j: int,
    copies: list[int],
    displaced: list[int],
    merges: dict[int, list[int]],
    in_splits: set[int],
) -> bool:
    """:func:`_copies_in_place` for a text written twice in both editions whose copies
    crossed in text matching: one copy took the other's place, and the other took the
    closest free text, of which it is no copy. Their matches are undone when every copy
    finds its own place, kept otherwise."""
    saved = [(k, p.o2n[k], p.score.pop(k), p.method.pop(k)) for k in displaced]
    for k, m, _score, _method in saved:
        p.o2n[k] = -1
        p.n2o[m] = -1
    if _copies_in_place(p, [i, *copies, *displaced], j, merges, in_splits):
        return True
    for k, m, score, method in saved:
        p.pair(k, m, score, method)
    return False


def _copies_in_place(
    p: _Pairing, copies: list[int], j: int, merges: dict[int, list[int]], in_splits: set[int]
) -> bool:
    """A text written twice in the old edition and still twice in the new goes copy by
    copy: each old copy to the new one standing in its place (under the counterpart of
    its parent), not both to one. True when every copy found its own place, one of
    them ``j``'s (then they are paired so); False leaves them to be merged.
    """
    stay = [c for c in copies if _in_place(p, c, j)]
    if len(stay) != 1:
        return False
    places: dict[int, int] = {}
    for c in copies:
        if c == stay[0]:
            continue
        found = [
            f
            for f, node in enumerate(p.new)
            if p.n2o[f] < 0
            and not node.heading
            and f not in merges
            and f not in in_splits
            and _in_place(p, c, f)
            and _coverage(p.old[c], node) >= COPY_COVERAGE
        ]
        if len(found) != 1 or found[0] in places.values():
            return False
        places[c] = found[0]
    for c in copies:
        if p.o2n[c] == j:
            p.o2n[c] = -1
    places[stay[0]] = j
    for c, f in places.items():
        p.pair(c, f, round(fuzz.ratio(p.old[c].lower, p.new[f].lower), 1), "structure")
    return True


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
    return _pieces(p.new, candidates, p.old, removed, p.n2o, lambda j, i: p.same_topic(i, j))
