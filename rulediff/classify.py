"""Classification of matched groups: the kind of each match, moves, sweeps, moved text.

Takes the pairing built by :mod:`rulediff.align` (1:1 pairs, splits, merges, the free
rest) and says, for each group, what kind of change it is (:data:`KINDS`), whether it
really moved, which recurring wording changes (sweeps) it carries and which of its
sentences went elsewhere.
"""

from __future__ import annotations

import bisect
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Collection, Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from rapidfuzz import fuzz

from . import provenance
from .lastused import LastUsed
from .matches import KINDS, Domain, Kind, Match, Method  # noqa: F401
from .textkeys import (
    PLACEHOLDER,
    letter_words,
    placeholder_references,
    references,
    soft_typography,
    typography_key,
)
from .worddiff import _NONSPACE_TOKEN, _chunks, is_word, word_opcodes

if TYPE_CHECKING:
    from .pairing import _Node, _Pairing
    from .sentences import _Provenance

#: A recurring wording change ("his or her" → "their") is a sweep when it occurs in at
#: least this many matched texts (one more for a single word replaced by another, which
#: recurs by chance more easily) under at least SWEEP_MIN_PARENTS different parents.
SWEEP_MIN_TEXTS = 3
SWEEP_MIN_PARENTS = 2
SWEEP_MAX_WORDS = 4
#: A sweep applied to every old sentence (to link sentences) must also have been made in
#: this share of the matched texts whose old wording says its old phrase: "the" → "a",
#: made in 4 of the 716 texts saying "the", would garble the others. Told apart from the
#: edits of one text it needs no share: there it is read only where that text made it.
SWEEP_MIN_SHARE = 0.05

#: A reworded sentence linked across matches moved only when it is this much closer
#: (edit ratio, 0–100) to the other rule than to what its own match says.
MOVE_MARGIN = 5.0

_WORD_CHAR = re.compile(r"\w")
_LETTERS = re.compile(r"[a-z]+")


def _term_key(term: str) -> str:
    return typography_key(term).casefold()


@dataclass(frozen=True, slots=True)
class _Pair:
    """A matched group before classification."""

    old: tuple[int, ...]
    new: tuple[int, ...]
    score: float
    method: Method
    alternatives: tuple[str, ...] = ()
    links: tuple[tuple[int, int], ...] = ()
    """In a group of several old and several new rules: which old went into which new."""


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
    if found and all(c in sweeps and not changes_meaning(*c) for c in found):
        return "editorial", tuple(flags), hits
    return "edited", tuple(flags), hits


#: Words whose change alters what a rule says even inside a recurring sweep: quantifiers
#: and numbers ("both players" → "all players") ...
_QUANTIFIERS = frozenset(
    "all each every both any no none some either neither only multiple another other "
    "zero one two three four five six seven eight nine ten first second third last".split()
)
#: ... and which player a rule speaks of ("an opponent" → "a player"); a pronoun becoming
#: a noun ("he or she" → "that player") names the same player.
_PLAYERS = frozenset(
    "player players opponent opponents you your controller controllers owner owners "
    "team teams teammate teammates defending attacking active nonactive".split()
)


def changes_meaning(old: str, new: str) -> bool:
    """Whether a phrase change alters a quantifier, a number or a player reference.

    >>> changes_meaning("both players", "all players"), changes_meaning("his or her", "their")
    (True, False)
    >>> changes_meaning("he or she", "that player"), changes_meaning("an opponent", "a player")
    (False, True)
    """
    a, b = re.findall(r"\w+", old.lower()), re.findall(r"\w+", new.lower())

    def marks(words: list[str]) -> Counter:
        return Counter(w for w in words if w in _QUANTIFIERS or w.isdigit())

    if marks(a) != marks(b):
        return True
    pa, pb = Counter(w for w in a if w in _PLAYERS), Counter(w for w in b if w in _PLAYERS)
    return bool(pa) and bool(pb) and pa != pb


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


def _detect_sweeps(
    pairs: Iterable[tuple[str, str, str | None]], *, min_share: float = 0.0
) -> dict[tuple[str, str], int]:
    """Recurring wording changes over all matched texts: (old phrase, new phrase) → count.
    ``min_share``: of the texts saying the old phrase, the share that must have made the
    change (``SWEEP_MIN_SHARE`` for sweeps applied to every old sentence)."""
    texts: dict[tuple[str, str], int] = Counter()
    parents: dict[tuple[str, str], set[str | None]] = defaultdict(set)
    said: list[str] = []  # every matched old text as compared, kept or changed
    for old, new, parent in pairs:
        a = soft_typography(placeholder_references(old))
        if min_share:
            said.append(a)
        if old == new:
            continue
        b = soft_typography(placeholder_references(new))
        if a == b:
            continue
        for chunk in set(_chunks(a, b)):
            d, i = chunk
            if not d or not i or not _WORD_CHAR.search(d) or not _WORD_CHAR.search(i):
                continue
            if (
                len(d.split()) > SWEEP_MAX_WORDS
                or len(i.split()) > SWEEP_MAX_WORDS
                or PLACEHOLDER in d + i
            ):
                continue
            texts[chunk] += 1
            parents[chunk].add(parent)
    recurring = {
        c: n
        for c, n in texts.items()
        if n >= SWEEP_MIN_TEXTS + (1 if _word_for_word(c) else 0)
        and len(parents[c]) >= SWEEP_MIN_PARENTS
    }
    if not min_share:
        return recurring
    phrases = {old for old, _new in recurring}
    saying = {phrase: _saying(phrase, said, phrases) for phrase in phrases}  # once a phrase
    return {c: n for c, n in recurring.items() if n >= min_share * saying[c[0]]}


def _word_for_word(sweep: tuple[str, str]) -> bool:
    """A sweep that swaps one word for another (no space or apostrophe on either side):
    it recurs by chance more easily than a phrase change, and is made in some rules
    saying the word, not in all ("effect" → "action" in "state-based effects")."""
    return not re.search(r"[ ']", sweep[0] + sweep[1])


def _saying(phrase: str, texts: Iterable[str], phrases: Iterable[str]) -> int:
    """How many of ``texts`` say ``phrase`` as whole words, where no longer one of
    ``phrases`` holding it says it ("play" in "in play" is that phrase's to change)."""
    holders = [provenance._sweep_pattern(h) for h in phrases if h != phrase and phrase in h]
    pattern = provenance._sweep_pattern(phrase)
    count = 0
    for text in texts:
        if phrase not in text:
            continue
        for holder in holders:
            text = holder.sub(" ", text)
        count += bool(pattern.search(text))
    return count


def _order_key(p: _Pairing, pair: _Pair) -> tuple[float, int]:
    """Position in the new edition; a removed node sits right after its old predecessor."""
    if len(pair.new) == 1 and len(pair.old) == 1:  # nearly all: no minimum to find
        return (p.new[pair.new[0]].order, p.old[pair.old[0]].order)
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


#: A sentence that this many rules of one edition say word for word is stock text.
_STOCK_RULES = 3
#: A reworded link whose words in common are mostly (``_STOCK_FRAME_SHARE``) one run of at
#: least this many words that is stock text in both editions rests on that frame alone.
_STOCK_FRAME_WORDS = 6
_STOCK_FRAME_SHARE = 0.8


def _texts(nodes: Sequence[_Node]) -> str:
    """Every rule text of an edition (headings aside), lowercased, one per line."""
    return "\n".join(n.lower for n in nodes if not n.heading)


# One edition's alone: kept for the next pairing of a run (as the aligner keeps its nodes).
_texts_of = LastUsed(_texts)


@dataclass(frozen=True, slots=True)
class _Stays:
    """What each rule's own match holds, to tell a sentence that moved from one that stayed.

    A sentence written in two rules of both editions (the same clause under two keywords,
    a variant rule repeating a step's wording) is linked across: from the old rule of
    one to the new rule of the other. It did not move when the old rule's own
    counterpart still holds it (nearly as closely as a reworded link, within
    ``MOVE_MARGIN``, or whole inside a longer sentence), when the new rule's own
    predecessor already held it (within the same margin), when another
    old sentence is a closer source of it, when two matched siblings are linked
    crosswise, when a lone reworded sentence lands in another chapter than the rule's
    own counterpart, when the new sentence names the variant heading it stands under and
    the old one does not, when the new rule stands under a heading naming a subject the
    old edition lacks while the old rule's own section lives on elsewhere, when a sibling
    of the old rule (other than the new rule's predecessor) says the new sentence about as
    well (a frame the siblings share), or when the two sentences name different keywords
    (steps, zones) whose headings are not matched.
    """

    old_group: dict[int, tuple[int, ...]]
    """Old rule → the new rules of its match."""
    new_group: dict[int, tuple[int, ...]]
    """New rule → the old rules of its match."""
    best_into: dict[int, float]
    """New unit → the best score of a link into it."""
    sweeps: tuple[tuple[str, str], ...]
    """The pair's recurring wording changes, longest first, applied to old sentences."""
    old_text: str
    """Every rule text of the old edition as a lowercased comparison key, one per line."""
    new_text: str
    """The same for the new edition."""
    link_count: Counter
    """(old rule, new rule) → how many sentence links join them."""

    @classmethod
    def of(
        cls,
        p: _Pairing,
        prov: _Provenance,
        pairs: Iterable[_Pair],
        sweeps: Iterable[tuple[str, str]],
    ) -> _Stays:
        old_group: dict[int, tuple[int, ...]] = {}
        new_group: dict[int, tuple[int, ...]] = {}
        for pair in pairs:
            for i in pair.old:
                old_group[i] = pair.new
            for j in pair.new:
                new_group[j] = pair.old
        best_into: dict[int, float] = {}
        for link in prov.links:
            best_into[link.new] = max(best_into.get(link.new, 0.0), link.score)
        ordered = provenance.longest_first(sweeps)
        old_text, new_text = _texts_of(p.old), _texts_of(p.new)
        link_count = Counter(
            (prov.old_units[link.old].owner, prov.new_units[link.new].owner) for link in prov.links
        )
        return cls(old_group, new_group, best_into, ordered, old_text, new_text, link_count)

    def stock(self, key: str, *, old: bool) -> bool:
        """The edition says the sentence of comparison ``key`` at least ``_STOCK_RULES``
        times, parentheses aside ("(This is a state-based action.)" in most rules, bare
        in one): stock text, which says nothing about where a rule went."""
        probe = key.strip("(). ")
        text = self.old_text if old else self.new_text
        return text.count(probe) >= _STOCK_RULES

    def shares_only_stock(self, old_key: str, new_key: str) -> bool:
        """The two sentences have in common one run of words that both editions say in
        at least ``_STOCK_RULES`` rules ("… follows the rules for paying additional costs
        in rules …" of every cost keyword), and little else: a frame sentence written for
        another case, not the old sentence moved (its closest old rule is any of them)."""
        spans = [m.span() for m in _NONSPACE_TOKEN.finditer(old_key)]
        a = [old_key[x:y] for x, y in spans]
        b = _NONSPACE_TOKEN.findall(new_key)
        runs = [(i1, i2) for tag, i1, i2, *_ in word_opcodes(a, b, island=0) if tag == "equal"]
        words = [sum(map(is_word, a[i1:i2])) for i1, i2 in runs]
        longest = max(words, default=0)
        if longest < _STOCK_FRAME_WORDS or longest < _STOCK_FRAME_SHARE * sum(words):
            return False
        i1, i2 = runs[words.index(longest)]
        frame = old_key[spans[i1][0] : spans[i2 - 1][1]]
        return self.stock(frame, old=True) and self.stock(frame, old=False)

    def not_moved(
        self, p: _Pairing, link: provenance.Link, uo: provenance.Unit, un: provenance.Unit
    ) -> bool:
        """Whether a link that crosses matches is no move of text."""
        if link.score < self.best_into.get(link.new, 0.0):
            return True  # another old sentence is a closer source of this one
        if p.restated_for_new_subject(uo.owner, un.owner):
            return True  # written again for a subject the old edition lacks
        if (uo.owner, un.owner) in p.other_variants:
            return True  # another variant of the run, on the old rule's template
        said = (uo.key, provenance.apply_sweeps(uo.key, self.sweeps))
        # At least as closely as the link itself (a variant rule restating a base rule's
        # sentence is no closer to it than the base rule's own counterpart), or the older
        # sentence word for word inside a longer one; or the counterpart says the new
        # sentence itself word for word (the new edition writes it in two rules).
        floor = min(provenance.NEAR_SIMILARITY, link.score)
        if link.score < 100.0:
            # A reworded link within MOVE_MARGIN of what either rule's own match says:
            # the wording does not decide where the sentence went (a new rule written on
            # the frame of one that keeps it; a frame two old rules shared).
            floor = min(floor, link.score - MOVE_MARGIN)
        counterpart = [p.new[j] for j in self.old_group.get(uo.owner, ())]
        if self.holds(counterpart, said, old=False, floor=floor) or self.holds(
            counterpart, (un.key,), old=False, floor=100.0
        ):
            return True  # still in the old rule's own counterpart
        predecessor = self.new_group.get(un.owner, ())
        if self.holds([p.old[i] for i in predecessor], (un.key,), old=True, floor=floor):
            return True  # already in the new rule's own predecessor
        if self.crosses(uo.owner, un.owner) and self.holds(
            counterpart, said, old=False, floor=provenance.REWORDED_SIMILARITY
        ):
            return True  # two matched siblings each kept their own, reworded across
        if (
            link.score < 100.0
            and self.other_chapter(p, uo.owner, un.owner)
            and not self.went_along(p, uo.owner, un.owner)
        ):
            return True  # reworded, alone, into another chapter than the rule's own
        if self.restated_for_heading(p, uo, un):
            return True  # a base rule's sentence restated for a variant, option or keyword
        if p.said_by_sibling(uo.owner, un.key, link.score, besides=predecessor):
            return True  # a frame another sibling says as well: not the old rule's own
        if p.piece_for_new_subject(uo.owner, un.owner):
            return True  # the old sentence written again in a rule for a new subject
        return all(self.other_subject(p, uo.owner, un.owner, key, un.key) for key in said)

    def restated_for_heading(self, p: _Pairing, uo: provenance.Unit, un: provenance.Unit) -> bool:
        """The new sentence names the heading it stands under ("… the limited range of
        influence option can cause …", "if all teams pass …" under the shared team turns
        option) where the old one names none of that heading's words, and the old rule
        lives on outside that heading: the old rule's sentence restated for a variant,
        not moved there."""
        heads = p.new_heads[un.owner]
        counterpart = self.old_group.get(uo.owner, ())
        if not heads or not counterpart:
            return False
        h = heads[0]
        if any(h in p.new_heads[j] for j in counterpart):
            return False
        title = _stems(p.new[h].lower) - _TITLE_FUNCTION_STEMS
        return bool(title & _stems(un.key)) and not title & _stems(uo.key)

    def other_chapter(self, p: _Pairing, i: int, j: int) -> bool:
        """Whether old rule ``i`` lives on, and only in chapters (the first digit of a
        rule number) other than new rule ``j``'s: a rule's sentences stay with its
        subject, so a lone reworded sentence of a rule that lives on elsewhere, in a
        chapter of another subject, is a sentence of another case on the same frame
        ("there are N exceptions to this rule" of the zone-change rule and of the
        controller rule)."""
        counterpart = self.old_group.get(i, ())
        return bool(counterpart) and all(p.new[k].id[:1] != p.new[j].id[:1] for k in counterpart)

    def went_along(self, p: _Pairing, i: int, j: int) -> bool:
        """Whether another sentence of old rule ``i`` went to new rule ``j``, its parent
        or one of its children."""
        node = p.new[j]
        family = [j, *p.new_children.get(node.place, ())]
        if node.parent is not None and node.parent in p.new_by_place:
            family.append(p.new_by_place[node.parent])
        return self.link_count[(i, j)] > 1 or any(self.link_count[(i, k)] for k in family[1:])

    def crosses(self, i: int, j: int) -> bool:
        """Whether a link from old rule ``i`` to new rule ``j`` has a mirror: a link from
        ``j``'s own predecessor to ``i``'s own counterpart (two neighbouring rules whose
        clauses were reshuffled, each linked to the other's successor)."""
        return any(
            (b, a) in self.link_count
            for b in self.new_group.get(j, ())
            for a in self.old_group.get(i, ())
        )

    def holds(
        self,
        nodes: Iterable[_Node],
        keys: tuple[str, ...],
        *,
        old: bool,
        floor: float = provenance.NEAR_SIMILARITY,
    ) -> bool:
        """Whether one of these rules has a sentence the same as one of ``keys``, nearly
        so (``floor``), or one that says it whole at more length (a qualifier added:
        ``keys`` inside the rule's sentence; for ``old`` rules, whose sentences are the
        older, the rule's sentence inside ``keys``). ``old``: the rules are of the old
        edition; their sentences are tried as written and with the sweeps, which a
        one-word sweep can also spoil."""
        for n in nodes:
            if n.heading:
                continue
            for u in provenance.units(0, n.text):
                theirs = (u.key, provenance.apply_sweeps(u.key, self.sweeps)) if old else (u.key,)
                for a in keys:
                    for b in theirs:
                        if fuzz.ratio(a, b, score_cutoff=floor) >= floor or _inside(
                            *((b, a) if old else (a, b))
                        ):
                            return True
        return False

    def other_subject(self, p: _Pairing, i: int, j: int, old_key: str, new_key: str) -> bool:
        """The old sentence names its keyword, step or zone where the new one names
        another ("hideaway represents …", "decayed represents …"): a template sentence
        of another subject, unless the two headings are matched (a renamed keyword)."""
        ho, hn = p.old_topic[i], p.new_topic[j]
        if ho < 0 or hn < 0 or hn in self.old_group.get(ho, ()):
            return False
        if p.under_sibling_topic(ho, hn) and p.drops_own_title(ho, old_key, new_key):
            return True  # another keyword's sentence, its name left unsaid
        return p.names_other_topic(ho, hn, old_key, new_key)


def _stems(key: str) -> frozenset[str]:
    """Crude stems of the words of a comparison key: a final -s aside, the first five
    letters (team / teams, ability / abilities, activated / activating)."""
    return frozenset(w.removesuffix("s")[:5] for w in _LETTERS.findall(key))


#: Stems of the words of a heading's title that name nothing by themselves.
_TITLE_FUNCTION_STEMS = _stems(
    "a an and the of or to in on for from with by as at its it is are be this that general rules"
)


def _inside(short: str, long: str) -> bool:
    """Whether the sentence key ``short`` (its closing stop aside) stands whole, at word
    boundaries, inside the longer sentence key ``long``."""
    words = short.rstrip(".;:").strip()
    if len(words.split()) < provenance.MIN_UNIT_WORDS or len(words) >= len(long):
        return False
    return _stands_whole(words, long)


def _is_word_char(text: str, at: int) -> bool:
    """``text[at]`` exists and is what a regex's ``\\w`` matches."""
    return 0 <= at < len(text) and (text[at].isalnum() or text[at] == "_")


def _stands_whole(words: str, text: str) -> bool:
    """``re.search(rf"(?<!\\w){re.escape(words)}(?!\\w)", text)`` found something, by
    ``str.find``: a regex compiled per sentence cost more than its one search (44 of
    them in a cold 10-year alignment)."""
    end = len(words)
    at = text.find(words)
    while at >= 0:
        if not _is_word_char(text, at - 1) and not _is_word_char(text, at + end):
            return True
        at = text.find(words, at + 1)
    return False


def _moved_text(
    p: _Pairing, prov: _Provenance, pair: _Pair, stays: _Stays
) -> tuple[tuple[str, str, str], ...]:
    """Sentences that left this match for another rule, or came into it from one."""
    found = [k for i in pair.old for k in prov.links_of_old.get(i, ())]
    found += [k for j in pair.new for k in prov.links_of_new.get(j, ())]
    if not found:
        return ()
    olds, news = set(pair.old), set(pair.new)
    links = [prov.links[k] for k in sorted(set(found))]
    inside = [
        link
        for link in links
        if prov.old_units[link.old].owner in olds and prov.new_units[link.new].owner in news
    ]
    kept_old, kept_new = {link.old for link in inside}, {link.new for link in inside}
    out: dict[tuple[str, str, str], None] = {}
    for link in links:
        uo, un = prov.old_units[link.old], prov.new_units[link.new]
        if (uo.owner in olds) == (un.owner in news):
            continue  # inside the match, or outside it altogether
        if link.old in kept_old or link.new in kept_new:
            continue  # the match kept this sentence; the other rule holds a copy of it
        if un.points_elsewhere or stays.not_moved(p, link, uo, un):
            continue  # a bare cross-reference, a closer source, a sentence that stayed,
            # another subject's template
        if stays.stock(un.key, old=False) or stays.stock(uo.key, old=True):
            continue  # stock text many rules say
        if link.score < 100.0 and stays.shares_only_stock(uo.key, un.key):
            continue  # reworded around a frame many rules say
        out[(p.old[uo.owner].id, p.new[un.owner].id, un.text)] = None
    return tuple(out)


def _groups(
    p: _Pairing,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    joins: Mapping[int, int] | None = None,
) -> list[_Pair]:
    """Matches (1:1, splits, merges), then the unmatched nodes, in new document order.

    ``joins``: old rules that went into a piece of a split (old rule → the piece); each
    joins that split's group, whose links then say which old rule went where.
    """
    pairs: list[_Pair] = []
    in_group_old: set[int] = set()
    in_group_new: set[int] = set()
    joins = joins or {}
    for i, group in splits.items():
        extra = [k for k, j in joins.items() if j in group]
        olds = sorted((i, *extra), key=lambda k: p.old[k].order)
        links: tuple[tuple[int, int], ...] = ()
        if extra:
            links = tuple(
                sorted(
                    [(i, j) for j in group] + [(k, joins[k]) for k in extra],
                    key=lambda link: (p.old[link[0]].order, p.new[link[1]].order),
                )
            )
        score = fuzz.ratio(
            " ".join(p.old[k].lower for k in olds), " ".join(p.new[j].lower for j in group)
        )
        pairs.append(_Pair(tuple(olds), tuple(group), round(score, 1), "split", links=links))
        in_group_old.update(olds)
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
            # candidates a later pass gave a counterpart are no longer open
            undecided = tuple(
                p.new[k].id
                for k in p.undecided_old.get(i, ())
                if p.n2o[k] < 0 and k not in in_group_new
            )
            pairs.append(_Pair((i,), (), 0.0, "none", undecided))
    for j, i in enumerate(p.n2o):
        if j in in_group_new:
            continue
        if i < 0 or i in in_group_old:
            undecided = tuple(
                p.old[k].id
                for k in p.undecided_new.get(j, ())
                if p.o2n[k] < 0 and k not in in_group_old
            )
            pairs.append(_Pair((), (j,), 0.0, "none", undecided))
    pairs.sort(key=lambda pair: _order_key(p, pair))
    return pairs


def _printings(nodes: list[_Node]) -> tuple[int, ...]:
    """Which printing of its number each node is, when one is a later printing (else none:
    a number printed once needs no printing to name its rule)."""
    if all(node.printing == 1 for node in nodes):
        return ()
    return tuple(node.printing for node in nodes)


def _classify(
    p: _Pairing,
    pairs: list[_Pair],
    domain: Domain,
    mapping: dict[str, str],
    sweeps: set[tuple[str, str]],
    same_place: Callable[[_Pair], bool],
    moved: set[int],
    prov: _Provenance | None = None,
) -> tuple[Match, ...]:
    out: list[Match] = []
    stays = _Stays.of(p, prov, pairs, sweeps) if prov is not None else None
    copies = _restatements(p, stays, pairs) if stays is not None else {}
    for pair in pairs:
        old_ids = tuple([p.old[i].id for i in pair.old])
        new_ids = tuple([p.new[j].id for j in pair.new])
        moved_text = _moved_text(p, prov, pair, stays) if stays is not None else ()
        common = {
            "ambiguous": bool(pair.alternatives),
            "alternatives": pair.alternatives,
            "moved_text": moved_text,
            "old_printings": _printings([p.old[i] for i in pair.old]),
            "new_printings": _printings([p.new[j] for j in pair.new]),
            "links": tuple((p.old[i].id, p.new[j].id) for i, j in pair.links),
        }
        if not pair.new:
            out.append(Match(domain, "removed", old_ids, (), 0.0, "none", **common))  # type: ignore[arg-type]
            continue
        if not pair.old:
            copied = copies.get(pair.new[0], ()) if len(pair.new) == 1 else ()
            if copied:  # a copy says where its text came from; its kind stays "added"
                entries = tuple((p.old[i].id, new_ids[0], text) for i, text in copied)
                common["moved_text"] = tuple(dict.fromkeys(moved_text + entries))
                common["restates"] = tuple(sorted({p.old[i].id for i, _ in copied}))
            out.append(Match(domain, "added", (), new_ids, 0.0, "none", **common))  # type: ignore[arg-type]
            continue
        if len(pair.old) == 1 and len(pair.new) == 1:  # nearly all: no join to make
            old_text, new_text = p.old[pair.old[0]].text, p.new[pair.new[0]].text
        else:
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


#: A free new rule's sentence restates another rule's sentence when the two are this
#: alike (with or without an opening clause of the new one's own).
_RESTATES = provenance.NEAR_SIMILARITY
#: Candidate sentences tried per sentence of a free new rule (by the word pairs shared).
_RESTATE_CANDIDATES = 8


def _without_ordinal(key: str) -> str:
    """``key`` without a one-word opening clause ("first, the active player …"): the word
    that orders a step says nothing of what the step does."""
    head, sep, rest = key.partition(", ")
    return rest if sep and " " not in head else key


def _restates(new_key: str, other_key: str) -> bool:
    """Whether the new sentence says the other one: nearly word for word; or the other's
    words whole inside it, making at least half of it (a qualifier added: "… loses the
    game as a state-based action"); or with an opening clause of its own in front of
    the other's words, the other's ordinal opening aside ("at the start of the draw
    step, the active player draws a card" says "first, the active player draws a
    card")."""
    if fuzz.ratio(new_key, other_key, score_cutoff=_RESTATES) >= _RESTATES:
        return True
    whole = other_key.rstrip(".;:").strip()
    if 2 * len(other_key) >= len(new_key) and whole in new_key and _inside(other_key, new_key):
        return True
    _opening, sep, rest = new_key.partition(", ")
    return (
        bool(sep)
        and len(rest.split()) >= provenance.MIN_UNIT_WORDS
        and fuzz.ratio(rest, _without_ordinal(other_key), score_cutoff=_RESTATES) >= _RESTATES
    )


def _says_all(said: str, new_key: str) -> bool:
    """Whether the new sentence keeps every word of four letters or more of the sentence
    it restates (crude stems) and as many denials: a sentence on the same frame that
    swaps a word ("… wins the game" / "… loses the game") says something else."""
    said = _without_ordinal(said)
    long_words = " ".join(w for w in letter_words(said) if len(w) > 3)
    if _stems(long_words) - _stems(new_key):
        return False
    return said.count("not") + said.count("n't") == new_key.count("not") + new_key.count("n't")


def _cites(cited: Collection[str], rule_id: str) -> bool:
    """Whether one of the cited rule numbers is ``rule_id`` or a rule containing it
    ("see rule 704" points to 704.5a): a start of the id ending before a letter, a
    stop or the end."""
    return any(
        rule_id[:k] in cited
        for k in range(1, len(rule_id) + 1)
        if k == len(rule_id) or not rule_id[k].isdigit()
    )


def _sentence_units(
    node: _Node, owner: int, sweeps: Sequence[tuple[str, str]] = ()
) -> list[provenance.Unit]:
    """A rule's sentences long enough to be linked, bare pointers aside (keys swept)."""
    out = []
    for u in provenance.units(owner, node.text):
        if len(u.key.split()) >= provenance.MIN_UNIT_WORDS and not u.points_elsewhere:
            out.append(provenance.Unit(owner, u.text, provenance.apply_sweeps(u.key, sweeps)))
    return out


class _SentenceIndex:
    """The sentences of some rules of one edition, found by the word pairs they share."""

    def __init__(self, units: list[provenance.Unit]) -> None:
        self.units = units
        self.postings: dict[str, list[int]] = defaultdict(list)
        for k, u in enumerate(units):
            for pair in provenance.word_pairs(u.key):
                self.postings[pair].append(k)

    def near(self, pairs: Iterable[str]) -> list[provenance.Unit]:
        """The sentences sharing the rarest of these word pairs (a key's
        :func:`provenance.word_pairs`), in index order."""
        votes: dict[int, float] = {}
        vote = votes.get
        for pair in pairs:
            posting = self.postings.get(pair)
            if posting and len(posting) <= provenance.MAX_POSTINGS:
                weight = 1.0 / len(posting)
                for k in posting:
                    votes[k] = vote(k, 0) + weight
        # The most voted, ties to the lower index: a stable sort by descending vote of
        # the indexes in order (two sorts in C, no key function called per sentence).
        best = sorted(sorted(votes), key=votes.__getitem__, reverse=True)[:_RESTATE_CANDIDATES]
        return [self.units[k] for k in sorted(best)]


def _restatements(
    p: _Pairing, stays: _Stays, pairs: Sequence[_Pair]
) -> dict[int, tuple[tuple[int, str], ...]]:
    """Free new rule → (old rule, the sentence as the new rule writes it) for each of its
    sentences that restates a sentence of an old rule living on elsewhere, when the new
    rule points to that old rule's own counterpart (or a rule holding it): a summary
    ("at the start of the draw step, the active player draws a card; see rule N") that
    repeats what rule N keeps. The text was copied, not moved: the old rule's match and
    its own ``moved_text`` stay as they are.

    The restated sentence is the old one, or its rewrite in the counterpart the new rule
    points to; the new sentence keeps all its words (:func:`_says_all`). Left out like
    any moved text: stock sentences, another keyword's template, a restatement for a
    subject or variant the old edition lacks."""
    free: dict[int, frozenset[str]] = {}  # free new rule → the rule numbers it cites
    for pair in pairs:
        if not pair.old and len(pair.new) == 1 and not p.new[pair.new[0]].heading:
            cited = frozenset(references(p.new[pair.new[0]].text))
            if cited:
                free[pair.new[0]] = cited
    if not free:
        return {}
    # Only rules some free rule points to, and their predecessors, can be sources.
    every_cited = {c for cited in free.values() for c in cited}
    pointed = [
        j
        for j, group in sorted(stays.new_group.items())
        if group and not p.new[j].heading and _cites(every_cited, p.new[j].id)
    ]
    sources_of = sorted({i for j in pointed for i in stays.new_group[j] if not p.old[i].heading})
    old_units = [u for i in sources_of for u in _sentence_units(p.old[i], i, stays.sweeps)]
    new_units = [u for j in pointed for u in _sentence_units(p.new[j], j)]
    old_index, new_index = _SentenceIndex(old_units), _SentenceIndex(new_units)
    units_of: dict[int, list[provenance.Unit]] = {}  # old rule → its sentences (swept)
    out: dict[int, tuple[tuple[int, str], ...]] = {}
    for n, cited in sorted(free.items()):
        found: dict[tuple[int, str], None] = {}
        for u in _sentence_units(p.new[n], n):
            u_pairs = provenance.word_pairs(u.key)
            # old rule → (its sentence, the sentences the new one restates: the old one
            # or its rewrite in a counterpart the new rule points to)
            sources: dict[int, tuple[provenance.Unit, list[str]]] = {}
            for t in old_index.near(u_pairs):
                here = stays.old_group[t.owner]
                if _restates(u.key, t.key) and any(_cites(cited, p.new[y].id) for y in here):
                    sources.setdefault(t.owner, (t, []))[1].append(t.key)
            for v in new_index.near(u_pairs):
                if not _cites(cited, p.new[v.owner].id) or not _restates(u.key, v.key):
                    continue
                for x in stays.new_group[v.owner]:
                    if x not in units_of:
                        units_of[x] = _sentence_units(p.old[x], x, stays.sweeps)
                    for t in units_of[x]:
                        if fuzz.ratio(t.key, v.key) >= provenance.REWORDED_SIMILARITY:
                            sources.setdefault(x, (t, []))[1].append(v.key)
                            break
            if not sources or stays.stock(u.key, old=False):
                continue
            kept = [
                x
                for x, (t, said) in sources.items()
                if any(_says_all(k, u.key) for k in said)
                and not stays.stock(t.key, old=True)
                and not p.restated_for_new_subject(x, n)
                and not p.piece_for_new_subject(x, n)
                and not stays.restated_for_heading(p, t, u)
                and not stays.other_subject(p, x, n, t.key, u.key)
            ]
            if len({stays.old_group[x] for x in kept}) != 1:
                continue  # none, or rules living on in different places: a shared frame
            for x in sorted(kept):
                found[(x, u.text)] = None
        if found:
            out[n] = tuple(found)
    return out
