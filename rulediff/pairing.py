"""The state of one pairing of two editions, and the readings of words, titles and topics
that every matching pass makes.

Why a module of its own: the passes of :mod:`rulediff.matching`, :mod:`rulediff.sentences`
and :mod:`rulediff.rescue` read the same things of a rule (its words, title words and
roots, opening, runs of words, the heading it sits under, whether it was written for a
new subject) and all read and write one :class:`_Pairing`. Here they sit below all of
them, so no pass module imports another to reach them (imports go one way: pairing →
matching → sentences → align, and rescue → align).
"""

from __future__ import annotations

import functools
import re
from collections import Counter, defaultdict
from collections.abc import Iterable, Iterator, Sequence

from rapidfuzz import fuzz, process

from . import provenance
from .lastused import LastUsed
from .matches import Method
from .textkeys import (
    PLACEHOLDER,
    comparison_key,
    letter_words,
)

#: Structural bonuses added to the text similarity (0–100) when ranking candidates.
PARENT_BONUS = 5.0
NEIGHBOUR_BONUS = 2.0
SAME_ID_BONUS = 1.0


#: A fuzzy pair needs this similarity alone, and this much with its bonuses.
MIN_SIMILARITY = 50.0
MIN_TOTAL = 62.0


class _Node:
    """One comparable text of an edition (internal; the result keeps only ids)."""

    __slots__ = (
        "id",
        "place",
        "printing",
        "text",
        "key",
        "lower",
        "parent",
        "heading",
        "order",
        "feats",
        "featset",
        "negated",
    )

    def __init__(
        self,
        id: str,
        text: str,
        parent: str | None,
        heading: bool,
        order: int,
        place: str | None = None,
        printing: int = 1,
    ) -> None:
        self.id = id
        self.place = place or id
        """The node's own name in its edition: its number, unless the number is printed
        again (:func:`rulediff.align._places`). ``parent`` is the parent's place, not its number."""
        self.printing = printing
        """Which printing of its number the node is (1, or 2 for the second …)."""
        self.text = text
        self.key = comparison_key(text)
        self.lower = self.key.lower()
        self.parent = parent
        self.heading = heading
        self.order = order
        self.feats: tuple[str, ...] | None = None
        self.featset: frozenset[str] | None = None
        self.negated: frozenset[tuple[str, ...]] | None = None

    def features(self) -> tuple[str, ...]:
        """Word bigrams (and, for short texts, words): the blocking keys.

        A sorted tuple, not a set: votes are summed in this order, and a set's order
        would change with the per-process string hash seed (non-deterministic output).
        """
        if self.feats is None:
            words = _TOKEN.findall(self.lower)
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

    def negated_conditions(self) -> frozenset[tuple[str, ...]]:
        """The conditions the text negates ("… not using …", see :func:`_conditions`),
        found once: ``same_topic`` asks about every candidate pair, and a text without
        the word "not" (nearly all) negates none."""
        if self.negated is None:
            self.negated = _conditions(self.lower)[0] if _NOT.search(self.lower) else frozenset()
        return self.negated


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
        self.undecided_old: dict[int, tuple[int, ...]] = {}
        self.undecided_new: dict[int, tuple[int, ...]] = {}
        """Free rules whose close candidates the text does not decide between (the rescue
        pass found them and declined): shown with the rule if it stays removed or added."""
        # read only: shared with the next pairing of a run (:data:`_tree_tables_of`)
        _, self.old_children, self.old_sibling_pos = _tree_tables_of(old)
        self.new_by_id, self.new_children, self.new_sibling_pos = _tree_tables_of(new)
        self.top_cache: dict[int, list[int]] = {}
        self.ratio_cache: dict[tuple[int, int], float] = {}
        # read only: shared with the next pairing of a run (:data:`_structure_of`)
        self.old_by_place, self.old_heads, self.old_topic = _structure_of(old)
        self.new_by_place, self.new_heads, self.new_topic = _structure_of(new)
        self.descendant_counts: tuple[Counter, Counter] | None = None
        self.word_weights: tuple | None = None
        """The rescue passes' stem sets, word index and IDF (:mod:`rulediff.rescue`): the
        texts do not change between the passes, so they are computed once."""
        self.old_vocabulary: frozenset[str] | None = None
        """The stems of every word of the old edition's rules (once they are asked for)."""
        self.names_new_subject: dict[int, bool] = {}
        """New heading -> its title has a content word the old edition lacks (asked often)."""
        self.new_subject_heads: dict[int, tuple[int, ...]] = {}
        """New node -> the headings over it that name a subject the old edition lacks
        (:func:`_under_new_subject`, asked for every pair ``same_topic`` weighs)."""
        self.new_titles: dict[int, frozenset[str]] = {}
        """New heading -> its title's words when the old edition has none of them
        (:func:`_new_title`, asked often)."""
        self.headings_matched = False
        """True once headings are matched bottom-up: from then on an old rule is no
        counterpart of its text restated for a subject the old edition lacks
        (:func:`_restated_for_new_subject`)."""
        self.other_variants: set[tuple[int, int]] = set()
        """(old, new) pairs turned away because a sibling of the new rule says the old
        rule's variant words (:func:`rulediff.matching._variant_words_lead`): the new rule is
        another variant of the run on the old rule's template, neither its piece nor the
        place its sentences went."""
        self.withdrawn: set[int] = set()
        """Old rules whose match to such a restatement was undone: their successor, if
        any, stands in their own section."""
        self.defined: tuple | None = None
        """Per side: node → the term its text opens by defining, and the set of such terms."""
        self.new_frames: frozenset[int] | None = None
        """New rules written on a frame that is new to the edition (see
        :func:`_new_frames`), once asked for."""
        self.lines_drawn: tuple[dict[int, tuple[str, ...]], ...] | None = None
        """Per side: node → the named kinds whose line its text draws (see
        :func:`_lines_drawn`), once asked for."""
        self.definition_nodes: tuple[frozenset[int], frozenset[int]] | None = None
        """Per side: the nodes that open by defining a term or draw a kind's line: a pair
        with neither is never told apart by :meth:`denies_definition` (asked of 25,000
        pairs on the 10-year pair, nearly all neither)."""
        self.sweeps: tuple[tuple[str, str], ...] = ()
        """The pair's recurring wording changes, longest first (once they are known)."""
        self.swept_keys: tuple[tuple[tuple[str, str], ...], dict[str, str]] = ((), {})
        """Texts with those changes applied (:meth:`swept`), for the sweeps they were
        applied with: a dozen passes apply them to the same sentences again."""
        self.shared_word_lists: tuple[
            tuple[tuple[str, str], ...], tuple[_WordLists, _WordLists] | None
        ] = ((), None)
        """Both sides' word lists (:meth:`word_lists`), for the sweeps they were cut with."""
        self.shared_old_units: tuple[
            tuple[tuple[str, str], ...], tuple[list[int], list[str]] | None
        ] = ((), None)
        """Every old unit and its rule (:meth:`old_units`), for the same sweeps."""
        self.opening_tables: tuple | None = None
        """:func:`rulediff.sentences._openings_of`'s tables, with the sweeps they were read with."""
        self.swept_in: frozenset[str] | None = None
        """The words those changes bring in (see :func:`_swept_in`)."""
        self.heading_stems: dict[int, frozenset[str]] | None = None
        """New heading → its title's content stems (see :func:`_new_heading_words`)."""
        self.one_word_headings: defaultdict[str, list[int]] | None = None
        """The root of a one-word heading title → the new headings it titles."""
        self.opening_names: dict[int, frozenset[str]] = {}
        """New rule → the one-word heading titles its opening clause says."""
        self.own_names: dict[tuple[int, int], bool] = {}
        """(new heading, its old counterpart) → the old edition says its one-word title
        only in that counterpart's rules (:meth:`opens_with_other_keyword`)."""
        self.swept_titles: dict[int, frozenset[str]] = {}
        """Old heading → the naming words of its title with those changes applied (none
        when they change nothing)."""
        self.topic_texts: dict[int, list[int]] | None = None
        """Old topic heading → the old texts under it (see :meth:`topic_followed`)."""
        self.texts_placed = False
        """True once every pass that places texts by their words and their neighbours
        has run: from then on where a topic's texts went names its new topic
        (:meth:`topic_followed`)."""

    def word_lists(self) -> tuple[_WordLists, _WordLists]:
        """The word lists of the old texts (the pair's sweeps applied) and of the new ones,
        cut when first asked for and shared by every pass that reads runs of words."""
        sweeps, lists = self.shared_word_lists
        if sweeps is not self.sweeps or lists is None:
            lists = (
                _WordLists(_SweptTexts(self), "|old"),
                _WordLists([n.lower for n in self.new], "|new"),
            )
            self.shared_word_lists = (self.sweeps, lists)
        return lists

    def said_alone(self, run: Sequence[str]) -> bool:
        """One old text and one new text say the run (the pair's sweeps applied): the two
        rules that share it alone of both editions, no stock phrase."""
        old_words, new_words = self.word_lists()
        return old_words.holders(run, 2) == 1 and new_words.holders(run, 2) == 1

    def old_units(self) -> tuple[list[int], list[str]]:
        """Every unit of the old rules (the pair's sweeps applied) and the rule it is
        from, in order: where the closest old sentence to a new one is looked for."""
        sweeps, table = self.shared_old_units
        if sweeps is not self.sweeps or table is None:
            texts = self.word_lists()[0].texts
            owners: list[int] = []
            units: list[str] = []
            for k, node in enumerate(self.old):
                for unit in () if node.heading else _UNIT_END.split(texts[k]):
                    owners.append(k)
                    units.append(unit)
            table = (owners, units)
            self.shared_old_units = (self.sweeps, table)
        return table

    def swept(self, key: str) -> str:
        """``provenance.apply_sweeps(key, self.sweeps)``, memoized per pairing (13,000
        calls for 5,600 distinct texts on the 10-year pair)."""
        sweeps, done = self.swept_keys
        if sweeps is not self.sweeps:
            sweeps, done = self.swept_keys = (self.sweeps, {})
        out = done.get(key)
        if out is None:
            out = done[key] = provenance.apply_sweeps(key, sweeps)
        return out

    def same_topic(self, i: int, j: int, *, lines: bool = True) -> bool:
        """False when the two texts name different keywords, steps or zones.

        A text under the heading "Flanking" that says "flanking" where the other text,
        under "Bushido", says "bushido" instead is a template sentence of another
        keyword, however similar the rest of the words; unless the two headings are
        themselves matched (a renamed keyword: found by where its other texts went).
        ``lines``: also refuse a text drawing the line of a named kind against one only
        speaking of that kind (:meth:`denies_definition`).
        """
        old, new = self.old[i], self.new[j]
        if (
            self.denies_definition(i, j, lines=lines)
            or (
                # opposite cases negate different conditions (the cheap test first)
                old.negated_conditions() != new.negated_conditions()
                and _opposite_conditions(old.lower, new.lower)
            )
            or _opposite_zones(old.lower, new.lower)
        ):
            return False
        if self.withdrawn_from(i, j):
            return False
        ho, hn = self.old_topic[i], self.new_topic[j]
        if self.one_topic(ho, hn):
            return True
        if self.under_sibling_topic(ho, hn) and self.drops_own_title(ho, old.lower, new.lower):
            return False  # another keyword's rule, its name left unsaid
        return not self.names_other_topic(ho, hn, old.lower, new.lower)

    def opens_with_other_keyword(self, i: int, j: int) -> bool:
        """New ``j`` opens (up to its first comma or sentence end) by naming a keyword
        ``i`` never names: the one-word title of a heading matched in both editions, not
        one of ``j``'s own headings, whose name the old edition says only in that
        heading's own rules. Such a rule is written for that keyword's case (an exception
        for one keyword in a list of general exceptions), no rewrite of a general rule."""
        if self.one_word_headings is None:
            self.one_word_headings = defaultdict(list)
            for h, node in enumerate(self.new):
                names = _naming_words(node.lower) if node.heading else ()
                if len(names) == 1:
                    self.one_word_headings[_root(names[0])].append(h)
        named = self.opening_names.get(j)
        if named is None:
            opening = _opening(self.new[j].lower)
            said = _text_roots(opening)
            named = self.opening_names[j] = frozenset(said & self.one_word_headings.keys())
        if not named:
            return False
        old_roots = _text_roots(self.old[i].lower)
        return any(
            self.n2o[h] >= 0
            and h not in self.new_heads[j]
            and self._said_only_in_own_rules(h, name)
            for name in named - old_roots
            for h in self.one_word_headings[name]
        )

    def _said_only_in_own_rules(self, h: int, name: str) -> bool:
        """The old edition says ``name`` (a root) only in rules under the old counterpart
        of new heading ``h``, and says it there: the keyword's own name."""
        ho = self.n2o[h]
        found = self.own_names.get((h, ho))
        if found is None:
            inside = False
            found = True
            for k, node in enumerate(self.old):
                if node.heading or name not in _text_roots(node.lower):
                    continue
                if ho in self.old_heads[k]:
                    inside = True
                else:
                    found = False
                    break
            found = self.own_names[(h, ho)] = found and inside
        return found

    def another_keywords_rule(self, i: int, j: int) -> bool:
        """The test of :meth:`same_topic` that refuses old ``i`` new ``j`` as another
        keyword's rule, its name left unsaid. Such a pair shares its wording, not only a
        template, so the rescue pass still weighs it as a rival (never as a pick)."""
        ho, hn = self.old_topic[i], self.new_topic[j]
        if self.one_topic(ho, hn):
            return False
        return self.under_sibling_topic(ho, hn) and self.drops_own_title(
            ho, self.old[i].lower, self.new[j].lower
        )

    def one_topic(self, ho: int, hn: int) -> bool:
        """Old topic ``ho`` and new topic ``hn`` (``-1``: none) are one: no topic on a side,
        the headings matched, renamed by the pair's wording sweeps, or followed by where
        their texts went (:meth:`topic_followed`)."""
        return (
            ho < 0
            or hn < 0
            or self.o2n[ho] == hn
            or self.renamed_by_sweep(ho, hn)
            or self.topic_followed(ho, hn)
        )

    def topic_followed(self, ho: int, hn: int) -> bool:
        """Old topic ``ho`` and new topic ``hn``, neither heading matched, are one topic
        under two names when every text of ``ho`` matched one to one went under ``hn``
        (at least one): a section folded into another whose title shares no word with
        its own (the loop rules, now under the shortcut rules) is found by where its
        texts went, as a renamed keyword is by its matched heading. Asked only once the
        passes that place texts have run (``texts_placed``): before, one placed text
        may be all there is to read, and the test would open candidates to the rescue
        pass that its margins cannot tell apart (a zone's opening rule and its
        renaming note)."""
        if not self.texts_placed or self.o2n[ho] >= 0 or self.n2o[hn] >= 0:
            return False
        if self.topic_texts is None:
            self.topic_texts = defaultdict(list)
            for k, topic in enumerate(self.old_topic):
                if topic >= 0 and topic != k:
                    self.topic_texts[topic].append(k)
        placed = [self.o2n[k] for k in self.topic_texts.get(ho, ()) if self.o2n[k] >= 0]
        return bool(placed) and all(self.new_topic[j] == hn for j in placed)

    def under_sibling_topic(self, ho: int, hn: int) -> bool:
        """Old topic ``ho`` lives on as new heading ``h``, and new topic ``hn`` is
        another named entry of the list that holds ``h`` (two keywords of one chapter;
        not the chapter's "General" rules, where a keyword's note may be generalised)."""
        h = self.o2n[ho]
        return (
            h >= 0
            and h != hn
            and self.new[h].heading
            and self.new[h].parent is not None
            and self.new[h].parent == self.new[hn].parent
            and bool(_title_words(self.new[hn].lower))
        )

    def drops_own_title(self, ho: int, old_text: str, new_text: str) -> bool:
        """The old text names its topic ``ho``'s title words and the new text loses one
        of them (a stem is a substring; the texts' word sets are asked only then)."""
        old_title = _title_words(self.old[ho].lower)
        if not any(w in old_text for w in old_title):
            return False
        told, tnew = _words(old_text), _words(new_text)
        return any(w in told and w not in tnew for w in old_title)

    def withdrawn_from(self, i: int, j: int) -> bool:
        """Old ``i`` may not go to new ``j``: ``j`` restates ``i`` for a subject the old
        edition lacks, or ``i`` was withdrawn from such a restatement and ``j`` stands
        outside its own section or opens by naming such a subject
        (:func:`_opens_with_new_subject`). Every pass that pairs a freed rule asks
        this, the sentence pass too (it had re-taken the restatement right away)."""
        if self.restated_for_new_subject(i, j):
            return True
        if i not in self.withdrawn:
            return False
        return not _in_own_section(self, i, j) or _opens_with_new_subject(self, j)

    def old_words(self) -> frozenset[str]:
        """The stems of every word of the old edition's rules."""
        if self.old_vocabulary is None:
            self.old_vocabulary = _vocabulary_of(self.old)
        return self.old_vocabulary

    def said_by_sibling(
        self, i: int, new_key: str, score: float, besides: Iterable[int] = ()
    ) -> bool:
        """:func:`_said_by_sibling`: the new sentence is a frame old ``i``'s siblings share."""
        return _said_by_sibling(self, i, new_key, score, besides)

    def piece_for_new_subject(self, i: int, j: int) -> bool:
        """:func:`_piece_for_new_subject`: new ``j`` opens by naming a subject the old
        edition lacks, and does not merely widen old ``i`` to it."""
        return _piece_for_new_subject(self, i, j)

    def written_for_new_subject(self, i: int, j: int) -> bool:
        """:func:`_written_for_new_subject`: new ``j`` opens with a subject the old
        edition lacks as its case, not beside an old one, while ``i``'s topic lives on."""
        return _written_for_new_subject(self, i, j)

    def restated_for_new_subject(self, i: int, j: int) -> bool:
        """:func:`_restated_for_new_subject`, once headings are matched."""
        return self.headings_matched and _restated_for_new_subject(self, i, j)

    def on_new_frame(self, i: int, j: int) -> bool:
        """New ``j`` is written on a frame new to the edition and keeps no sentence of old ``i``."""
        if self.new_frames is None:
            self.new_frames = _new_frames(self)
        return j in self.new_frames and not _keeps_a_sentence(self.old[i], self.new[j])

    def renamed_by_sweep(self, ho: int, hn: int) -> bool:
        """The old heading's title, with the pair's recurring wording changes applied,
        names what the new one does ("In Play" → "Battlefield" where every "in play"
        became "on the battlefield"): one heading renamed."""
        if not self.sweeps:
            return False
        title = self.swept_titles.get(ho)
        if title is None:
            old = self.old[ho].lower
            swept = self.swept(old)
            title = self.swept_titles[ho] = _title_words(swept) if swept != old else frozenset()
        return bool(title) and title == _title_words(self.new[hn].lower)

    def denies_definition(self, i: int, j: int, *, lines: bool = True) -> bool:
        """True when one text opens by defining a term ("a mana ability is …") and the
        other, which does not, says that something is not that term ("… is not a mana
        ability"): the definition and the rule on what falls outside it."""
        if self.definition_nodes is None:
            self.definition_nodes = _definition_nodes(self)
        old_marked, new_marked = self.definition_nodes
        if i not in old_marked and j not in new_marked:
            return False  # neither defines a term nor draws a kind's line (most pairs)
        (old_terms, old_defined), (new_terms, new_defined) = self.defined  # type: ignore[misc]
        a, b = old_terms.get(i), new_terms.get(j)
        if a != b and (
            (a and _denies(a, self.new[j].lower)) or (b and _denies(b, self.old[i].lower))
        ):
            return True
        # One text draws the line of a named kind (what is, or is not, a mana ability),
        # the other only speaks of things of that kind: not one rule reworded.
        if not lines:
            return False
        drawn_old, drawn_new = self.lines_drawn  # type: ignore[misc]  # set with the marks
        if j in drawn_new:
            old = self.old[i].lower
            if any(_names(t, old) and not _draws_line(t, old) for t in drawn_new[j]):
                return True
        if i in drawn_old:
            new = self.new[j].lower
            if any(_names(t, new) and not _draws_line(t, new) for t in drawn_old[i]):
                return True
        return False

    def names_other_topic(self, ho: int, hn: int, old_text: str, new_text: str) -> bool:
        """The old text names its heading ``ho``'s words where the new one names heading
        ``hn``'s instead (a title has at most three words: test those, not the texts'
        whole word sets)."""
        if not self.drops_own_title(ho, old_text, new_text):
            return False  # the old text does not name its heading, or keeps its name
        told, tnew = _words(old_text), _words(new_text)
        new_title = self.new[hn].lower
        if any(w in tnew and w not in told for w in _title_words(new_title)):
            return True
        # The new title's word in another form ("Play" in "playing"): its five-letter
        # stem is not a stem of that form, its root is (and "player" keeps its own).
        rold, rnew = _text_roots(old_text), _text_roots(new_text)
        return any(r in rnew and r not in rold for r in _title_roots(new_title))

    def defines_other(self, i: int, j: int) -> bool:
        """True when the two texts open by defining different terms ("A spell is …" and
        "An object is …") and each term is defined by a rule of both editions: two
        definitions, not one rule reworded."""
        if self.defined is None:
            self.defined = (_defined_terms_of(self.old), _defined_terms_of(self.new))
        (old_terms, old_defined), (new_terms, new_defined) = self.defined
        a, b = old_terms.get(i), new_terms.get(j)
        return bool(a and b and a != b and b in old_defined and a in new_defined)

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

    def withdraw(self, i: int) -> None:
        """Undo old ``i``'s match and keep it from the rules later passes refuse a
        withdrawn rule (:meth:`withdrawn_from`)."""
        j = self.o2n[i]
        self.withdrawn.add(i)
        self.o2n[i] = -1
        if j >= 0:
            self.n2o[j] = -1
        self.score.pop(i, None)
        self.method.pop(i, None)
        self.alternatives.pop(i, None)

    def mapped_parent(self, i: int) -> str | None:
        """The new place of old node ``i``'s parent, when that parent is matched."""
        parent = self.old[i].parent
        if parent is None:
            return None
        k = self.old_by_place.get(parent)
        if k is None or self.o2n[k] < 0:
            return None
        return self.new[self.o2n[k]].place

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


_FUNCTION_WORDS = frozenset(
    "a an and the of or to in on for from with by as at its it is are be this that "
    "general rules rule".split()
)


#: A heading names one thing (a keyword, a step, a zone) when it has at most this many words.
TOPIC_TITLE_WORDS = 3


@functools.lru_cache(maxsize=1 << 14)
def _words(lower: str) -> frozenset[str]:
    """Crude stems of a text's words (the first five letters: ability / abilities), cut
    from the text's memoized :func:`rulediff.textkeys.letter_words` (its roots and stems
    read them too)."""
    return frozenset(w[:5] for w in letter_words(lower))


def _naming_words(lower: str) -> list[str]:
    """The naming words of a short heading ("Tap and Untap" → tap, untap); none for a
    long descriptive title, whose words say nothing about identity."""
    words = [w for w in letter_words(lower) if w not in _FUNCTION_WORDS and len(w) > 2]
    return [] if len(words) > TOPIC_TITLE_WORDS else words


@functools.lru_cache(maxsize=1 << 12)
def _title_words(lower: str) -> frozenset[str]:
    """The stems of a short heading's naming words: "Tap and Untap" → {tap, untap}."""
    return frozenset(w[:5] for w in _naming_words(lower))


@functools.lru_cache(maxsize=1 << 12)
def _title_roots(lower: str) -> frozenset[str]:
    """The naming words of a short heading that are a word's bare form (their own root,
    :func:`_root`): "Play", said by a text that says "playing". A plural title ("Lands")
    names a kind of thing, which texts say in the singular about other topics too."""
    return frozenset(w for w in _naming_words(lower) if _root(w) == w)


@functools.lru_cache(maxsize=1 << 12)
def _naming_roots(lower: str) -> frozenset[str]:
    """The naming words of a short heading without their inflection ("Phased Out" →
    phas, out; "Phasing" → phas)."""
    return frozenset(map(_root, _naming_words(lower)))


def _is_section(node: _Node) -> bool:
    return node.id.isdigit() and len(node.id) == 1


def _ancestor_places(nodes: Sequence[_Node], by_place: dict[str, int], i: int) -> Iterator[str]:
    """The places of node ``i``'s ancestors, nearest first (a place naming no node of the
    edition is the last one)."""
    parent = nodes[i].parent
    while parent is not None:
        yield parent
        k = by_place.get(parent)
        parent = nodes[k].parent if k is not None else None


def _heading_ancestors(nodes: Sequence[_Node], by_place: dict[str, int]) -> list[tuple[int, ...]]:
    """For each node, the headings above it, nearest first."""
    out: list[tuple[int, ...]] = []
    for node in nodes:
        heads: list[int] = []
        parent = node.parent
        while parent is not None:
            k = by_place.get(parent)
            if k is None:
                break
            if nodes[k].heading:
                heads.append(k)
            parent = nodes[k].parent
        out.append(tuple(heads))
    return out


#: A text that opens by defining a term: "a spell is …", "an object is …".
_DEFINES = re.compile(r"(?:an?|the) ([a-z]+(?: [a-z]+)?) (?:is|are) ")


@functools.lru_cache(maxsize=1 << 10)
def _denial(term: str) -> re.Pattern[str]:
    """ "… is not a TERM", "… aren't TERMs", "… can never be a TERM" (the last word of the
    term by its first five letters, so a plural counts)."""
    *head, last = term.split()
    words = "".join(f"{re.escape(w)} " for w in head) + re.escape(last[:5])
    return re.compile(rf"(?:(?:is|are|be) not|isn't|aren't|never be) (?:an? )?{words}")


_ARTICLES = frozenset(("a", "an", "the"))


#: The word "not": a text without it negates no condition.
#: ``(?<![a-z])not(?![a-z])`` written to begin with the literal "not" (the look-behind
#: after it asks the same of the letter before), so the regex engine scans for the word
#: instead of trying every position.
_NOT = re.compile(r"not(?<![a-z]not)(?![a-z])")


@functools.lru_cache(maxsize=1 << 14)
def _conditions(lower: str) -> tuple[frozenset[tuple[str, ...]], frozenset[tuple[str, ...]]]:
    """The conditions a text states with a participle and the two words after it
    ("using the limited range …" → (using, limited, range)): those it negates ("not
    using …"), and all of them."""
    words = [w for w in letter_words(lower) if w not in _ARTICLES]
    negated, stated = set(), set()
    for k in range(len(words) - 2):
        if words[k].endswith("ing"):
            phrase = tuple(words[k : k + 3])
            stated.add(phrase)
            if k and words[k - 1] == "not":
                negated.add(phrase)
    return frozenset(negated), frozenset(stated)


def _opposite_conditions(old: str, new: str) -> bool:
    """One text applies when a condition does not hold ("… not using the limited range
    …" option), the other when it does ("… using the limited range …"): a rule and its
    opposite case, not one rule reworded."""
    if "not " not in old and "not " not in new:
        return False
    (neg_old, stated_old), (neg_new, stated_new) = _conditions(old), _conditions(new)
    return bool((neg_old - neg_new) & stated_new or (neg_new - neg_old) & stated_old)


#: The zones a rule's scope names: "in any zone other than the stack", "on the stack".
_ZONE = r"(stack|battlefield|graveyard|library|hand|exile|command zone|play)"
#: A zone a text leaves out of its scope ("in any zone other than the stack", "in every
#: zone except the battlefield"); a "not in play" said in passing draws no scope ...
_ZONE_LEFT_OUT = re.compile(
    r"\b(?:other than|except(?: for)?) (?:the |a |its owner's |their |your )?" + _ZONE + r"\b"
)
#: ... and one it names as its scope ("on the stack", "in a graveyard").
_ZONE_NAMED = re.compile(r"\b(?:on|in|onto|into) (?:the |a )?" + _ZONE + r"\b")


@functools.lru_cache(maxsize=1 << 14)
def _zone_scope(lower: str) -> tuple[frozenset[str], frozenset[str]]:
    """The zones ``lower`` leaves out of its scope, and those it names otherwise."""
    left_out = frozenset(m.group(1) for m in _ZONE_LEFT_OUT.finditer(lower))
    rest = _ZONE_LEFT_OUT.sub(" ", lower) if left_out else lower
    return left_out, frozenset(m.group(1) for m in _ZONE_NAMED.finditer(rest))


def _opposite_zones(old: str, new: str) -> bool:
    """One text applies everywhere but a zone, the other in that zone alone ("in a zone
    other than the stack" against "a fused split spell on the stack"): a rule and its
    opposite case. A text naming the zone both ways (a rule for both cases) is neither."""
    if "other than" not in old and "except" not in old:
        if "other than" not in new and "except" not in new:
            return False  # the cheap test first: most texts leave no zone out
    (out_old, in_old), (out_new, in_new) = _zone_scope(old), _zone_scope(new)
    return bool((out_old - in_old) & (in_new - out_new) or (out_new - in_new) & (in_old - out_old))


@functools.lru_cache(maxsize=1 << 12)
def _term_words(term: str) -> str:
    """A regex for ``term`` as whole words, its last one singular or plural."""
    *head, last = term.split()
    plural = last[:-1] + "(?:y|ies)" if last.endswith("y") else re.escape(last) + "(?:e?s)?"
    return "".join(f"{re.escape(w)} " for w in head) + plural + r"\b"


def _names(term: str, lower: str) -> bool:
    """``lower`` names ``term`` (alone or as the end of a longer name: "triggered mana
    ability" names "mana ability")."""
    return re.search(r"\b" + _term_words(term), lower) is not None


def _definition_nodes(p: _Pairing) -> tuple[frozenset[int], frozenset[int]]:
    """Per side, the nodes :meth:`_Pairing.denies_definition` reads: those opening by
    defining a term and those drawing the line of a named kind (both computed here if
    not yet: they depend on the texts alone)."""
    if p.defined is None:
        p.defined = (_defined_terms_of(p.old), _defined_terms_of(p.new))
    if p.lines_drawn is None:
        p.lines_drawn = _lines_drawn(p.old, p.new, p.defined)
    (old_terms, _), (new_terms, _) = p.defined
    drawn_old, drawn_new = p.lines_drawn
    return frozenset(old_terms.keys() | drawn_old.keys()), frozenset(
        new_terms.keys() | drawn_new.keys()
    )


def _lines_drawn(
    old: Sequence[_Node], new: Sequence[_Node], defined: tuple
) -> tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]]]:
    """Per side, the nodes that draw the line of a named kind (see :func:`_draws_line`),
    each with those kinds: the terms of two words that a rule of either edition opens
    by defining. A one-word term (spell, player, ability) is named by most rules, and a
    remark that something is not one draws no line of a kind."""
    (_, old_defined), (_, new_defined) = defined
    kinds: dict[str, list[str]] = defaultdict(list)
    for term in sorted(old_defined | new_defined):
        if " " in term:
            kinds[term.split(" ", 1)[0]].append(term)
    out: tuple[dict[int, tuple[str, ...]], dict[int, tuple[str, ...]]] = ({}, {})
    for found, nodes in zip(out, (old, new), strict=True):
        for k, phrases in _phrased_nodes_of(nodes):
            drawn = tuple(
                term
                for first, rest in phrases
                for term in kinds.get(first, ())
                if re.fullmatch(_term_words(term), f"{first} {rest}")
            )
            if drawn:
                found[k] = drawn
    return out


def _phrased_nodes(nodes: Sequence[_Node]) -> tuple[tuple[int, tuple[tuple[str, str], ...]], ...]:
    """The nodes whose text draws a line with a two-word phrase (:func:`_line_phrases`),
    with those phrases: a few dozen of an edition's thousands of texts, found once per
    edition instead of once per pairing."""
    return tuple(
        (k, phrases) for k, node in enumerate(nodes) if (phrases := _line_phrases(node.lower))
    )


#: What every match of ``_LINE_PHRASE`` holds: "not" ("is not", "are not"), "n't"
#: ("isn't", "aren't", "can't be"), "never be", or " if" after a phrase.
_LINE_PARTS = ("not", "n't", "never be", " if")
_LINE_PHRASE = re.compile(
    # the look-ahead for the first letters lets the engine skip every other position
    r"\b(?=[iacn])(?:(?:is not|isn't|are not|aren't|never be|can't be) (?:an? )?([a-z]+) ([a-z]+)"
    r"|(?:is|are) (?:an? )?([a-z]+) ([a-z]+) if\b)"
)


@functools.lru_cache(maxsize=1 << 14)
def _line_phrases(lower: str) -> tuple[tuple[str, str], ...]:
    """The two-word phrases ``lower`` draws a line with (see :func:`_draws_line`)."""
    if not any(part in lower for part in _LINE_PARTS):
        return ()  # (most texts: the regex, tried at every word, is not run)
    return tuple(
        (m.group(1) or m.group(3), m.group(2) or m.group(4)) for m in _LINE_PHRASE.finditer(lower)
    )


def _draws_line(term: str, lower: str) -> bool:
    """``lower`` says what is not a ``term`` ("… is not a mana ability", "… aren't mana
    abilities", "… can never be a mana ability") or when something is one ("… is a mana
    ability if …")."""
    words = _term_words(term)
    return (
        re.search(r"\b(?:is not|isn't|are not|aren't|never be|can't be) (?:an? )?" + words, lower)
        or re.search(r"\b(?:is|are) (?:an? )?" + words + " if ", lower)
    ) is not None


#: The negations :func:`_denial` begins with: a text holding none of them denies no term.
_DENIAL_OPENINGS = ("is not", "are not", "be not", "isn't", "aren't", "never be")


def _denies(term: str, lower: str) -> bool:
    """``lower`` says that something is not ``term``. The negation is looked for first
    (most texts have none): the term's regex is compiled only for a text that may deny
    it (68 compiles in a cold 10-year alignment otherwise)."""
    if not any(opening in lower for opening in _DENIAL_OPENINGS):
        return False
    return _denial(term).search(lower) is not None


def _defined_terms(nodes: Sequence[_Node]) -> tuple[dict[int, str], set[str]]:
    """Node → the term its text opens by defining; and every term so defined."""
    terms = {}
    for k, node in enumerate(nodes):
        m = None if node.heading else _DEFINES.match(node.lower)
        if m:
            terms[k] = m.group(1)
    return terms, set(terms.values())


def _frames(nodes: Sequence[_Node], topics: Sequence[int]) -> dict[int, str]:
    """Rule → its text with the title of its topic (a keyword, a step) put as ``§``, for
    the rules that name their topic: the sentence frame the rule is written on."""
    out = {}
    for k, node in enumerate(nodes):
        t = topics[k]
        if node.heading or t < 0:
            continue
        title = nodes[t].lower.strip(" .")
        if title and title in node.lower:
            out[k] = _title_put_as_placeholder(node.lower, title)
    return out


def _is_word_char(text: str, at: int) -> bool:
    """``text[at]`` is a character of ``\\w`` (a letter, digit or underscore); out of
    range, it is not."""
    return 0 <= at < len(text) and (text[at].isalnum() or text[at] == "_")


def _title_put_as_placeholder(lower: str, title: str) -> str:
    """``lower`` with each occurrence of ``title`` as a whole phrase put as ``§``: what
    ``re.sub(rf"\\b{re.escape(title)}\\b", "§", lower)`` gives, by ``str.find``. A
    regex compiled per title cost more than all the searches (an edition has
    hundreds of titles, each searched in a few rules)."""
    parts: list[str] = []
    last = at = 0
    end = len(title)
    while (at := lower.find(title, at)) >= 0:
        if _is_word_char(lower, at - 1) != _is_word_char(lower, at) and _is_word_char(
            lower, at + end - 1
        ) != _is_word_char(lower, at + end):
            parts.append(lower[last:at])
            parts.append(PLACEHOLDER)
            last = at = at + end
        else:
            at += 1
    parts.append(lower[last:])
    return "".join(parts)


def _tree_tables(
    nodes: list[_Node],
) -> tuple[dict[str, list[int]], dict[str | None, list[int]], dict[int, int]]:
    """An edition's nodes by id, each parent's children in order (by the parent's place),
    and each node's position among its siblings. Plain dicts, read only: every parent
    asked for is some node's."""
    by_id: dict[str, list[int]] = defaultdict(list)
    children: dict[str | None, list[int]] = defaultdict(list)
    for k, node in enumerate(nodes):
        by_id[node.id].append(k)
        children[node.parent].append(k)
    sibling_pos = {k: n for kids in children.values() for n, k in enumerate(kids)}
    return dict(by_id), dict(children), sibling_pos


def _structure(
    nodes: list[_Node],
) -> tuple[dict[str, int], list[tuple[int, ...]], list[int]]:
    """An edition's nodes by place, each node's heading ancestors and its topic: what
    a pairing derives from one side alone."""
    by_place = {node.place: k for k, node in enumerate(nodes)}
    heads = _heading_ancestors(nodes, by_place)
    return by_place, heads, [_topic(nodes, h) for h in heads]


def _edition_frames(nodes: list[_Node]) -> tuple[dict[int, str], frozenset[str], frozenset[str]]:
    """An edition's frames (:func:`_frames`), those it writes for several topics, and all
    its frames as a set: what :func:`_new_frames` asks of each side, found once per
    edition."""
    topics = _structure_of(nodes)[2]
    frames = _frames(nodes, topics)
    topics_of: dict[str, set[int]] = defaultdict(set)
    for k, frame in frames.items():
        topics_of[frame].add(topics[k])
    repeated = frozenset(frame for frame, held in topics_of.items() if len(held) > 1)
    return frames, repeated, frozenset(frames.values())


def _vocabulary(nodes: list[_Node]) -> frozenset[str]:
    return frozenset().union(*(_words(node.lower) for node in nodes))


def _word_forms(nodes: list[_Node]) -> frozenset[str]:
    """Every whole word of an edition's texts, without its inflection (:func:`_root`)."""
    return frozenset().union(*(_text_roots(node.lower) for node in nodes))


#: Precompiled for the texts every pairing tokenizes (no ``re`` cache look-up a call).
_TOKEN = re.compile(r"\w+")
_ALNUM_WORD = re.compile(r"[a-z0-9]+")
_CLAUSE_MARK = re.compile(r"[,.;:]")


@functools.lru_cache(maxsize=1 << 14)
def _text_roots(lower: str) -> frozenset[str]:
    """The roots of a text's words, memoized per text as :func:`_words` is: neighbouring
    editions share most of their texts."""
    return frozenset(map(_root, letter_words(lower)))


@functools.lru_cache(maxsize=1 << 14)
def _root(word: str) -> str:
    """A word without its inflection (plural, past, -ing) or a silent final "e": the
    same word whatever form a text uses ("activating", "activated", "activate";
    "zones", "zone"), while "commander" stays apart from "command"."""
    if len(word) > 4 and word.endswith("ies"):
        word = word[:-3] + "y"
    elif len(word) > 5 and word.endswith("ing"):
        word = word[:-3]
    elif len(word) > 4 and word.endswith(("ed", "es")):
        word = word[:-2]
    elif len(word) > 3 and word.endswith("s") and not word.endswith(("ss", "us", "is")):
        word = word[:-1]
    if len(word) > 3 and word.endswith("e"):
        word = word[:-1]
    if len(word) > 3 and word[-1] == word[-2] and word[-1] not in "aeiouls":
        word = word[:-1]  # "tapping" → "tap"
    return word


#: Kept for the next pairing of a run, by identity (rules, examples and glossary of
#: both sides: six node lists).
_structure_of = LastUsed(_structure, size=6)
_tree_tables_of = LastUsed(_tree_tables, size=6)
_frames_of = LastUsed(_edition_frames)
_vocabulary_of = LastUsed(_vocabulary)
_word_forms_of = LastUsed(_word_forms)
_defined_terms_of = LastUsed(_defined_terms, size=6)
_phrased_nodes_of = LastUsed(_phrased_nodes, size=6)


def _keeps_a_sentence(old: _Node, new: _Node) -> bool:
    """``new`` keeps one of ``old``'s sentences (``provenance.SENTENCE_KEPT``, token-set
    similarity)."""
    mine = provenance.unit_keys(new.text)
    return any(
        fuzz.token_set_ratio(x, y) >= provenance.SENTENCE_KEPT
        for x in provenance.unit_keys(old.text)
        for y in mine
    )


def _new_frames(p: _Pairing) -> frozenset[int]:
    """New rules written on a frame the new edition writes for several topics (the same
    text with the keyword's name swapped: "the X rules function no matter what zone
    ...") and the old edition writes for none, not even reworded a little: text new to
    the edition, for each topic alike, no old rule's rewrite."""
    # the old side first: in a run of pairs it is the previous pairing's new side, kept
    old_frames, _, old_frame_set = _frames_of(p.old)
    frames, repeated, _ = _frames_of(p.new)
    if not repeated:
        return frozenset()
    choices = list(old_frames.values())
    new = {
        frame
        for frame in repeated
        if frame not in old_frame_set  # an exact copy is within any cutoff
        and process.extractOne(frame, choices, scorer=fuzz.ratio, score_cutoff=COPY_SIMILARITY)
        is None
    }
    return frozenset(k for k, frame in frames.items() if frame in new)


def _topic(nodes: Sequence[_Node], heads: tuple[int, ...]) -> int:
    """The nearest heading above a node that is not a whole section (its keyword, step…)."""
    for k in heads:
        if not _is_section(nodes[k]):
            return k
    return -1


def _opening(lower: str) -> str:
    """A text's opening clause: up to its first comma, colon, semicolon or full stop."""
    return _CLAUSE_MARK.split(lower, maxsplit=1)[0]


def _says_title(p: _Pairing, h: int, j: int) -> bool:
    """New rule ``j``, which has a body, says old heading ``h``'s title: it says some of
    the title's words, and no fewer than the heading it stands under says. A title is
    not a rule's content: where the children of "Timing, Priority, and the Stack" went
    to a rule on actions taken without priority, the heading over that rule ("Timing and
    Priority") says the title, the rule does not; a rule that lists the heading's items
    ("some things don't use the stack") does."""
    if not _singular_stems(p.old[h].lower):
        return True
    said = _title_said(p, h, j)
    if not said:
        return False
    heads = p.new_heads[j]
    if not heads or _is_section(p.new[heads[0]]):
        return True
    return _title_said(p, h, heads[0]) <= said


def _title_said(p: _Pairing, h: int, j: int) -> int:
    """How many of old heading ``h``'s title words new rule ``j`` says."""
    return len(_singular_stems(p.old[h].lower) & _singular_stems(p.new[j].lower))


@functools.lru_cache(maxsize=1 << 14)
def _singular_stems(lower: str) -> frozenset[str]:
    """Crude stems of a text's content words, a plural's "s" cut first ("Types" says
    "Card Type"; the five-letter stems alone keep "type" and "types" apart)."""
    words = [w for w in letter_words(lower) if len(w) > 2 and w not in _FUNCTION_WORDS]
    return frozenset((w[:-1] if w.endswith("s") else w)[:5] for w in words)


def _heading_over(p: _Pairing, h: int, j: int) -> int:
    """The heading new rule ``j`` (which has a body) stands under, when its title is like
    old heading ``h``'s (and closer to it than ``j``'s text is); else -1. A title is a
    title: "Activated Abilities", whose restriction subrules went under the new rule on
    prohibited activations, is the heading "Activating Activated Abilities" over it."""
    heads = p.new_heads[j]
    if not heads or _is_section(p.new[heads[0]]) != _is_section(p.old[h]):
        return -1
    g = heads[0]
    title = fuzz.ratio(p.old[h].lower, p.new[g].lower)
    if title >= MIN_SIMILARITY and title > fuzz.ratio(p.old[h].lower, p.new[j].lower):
        return g
    return -1


def _content_words(lower: str) -> frozenset[str]:
    return frozenset(w for w in letter_words(lower) if len(w) > 3 and w not in _FUNCTION_WORDS)


#: A free rule in the slot is made of the old rule's words when this share (IDF) of its
#: own words is in the old rule ...
SLOT_HELD = 0.75


#: ... this much more than of the weakly linked rule's words.
SLOT_LEAD = 0.2


#: Where a text's units end: sentences, and the clauses a colon or semicolon closes
#: (one pattern for every unit split of the module; a second pattern splitting at
#: sentence ends alone was once defined here and silently shadowed by this one).
_UNIT_END = re.compile(r"(?<=[.;:!?])\s+")


#: A sentence linked elsewhere is clearly not its text match's when the link is this much
#: closer (``fuzz.ratio``) than any sentence of the matched rule.
FRAME_MARGIN = 10.0


def _said_by_sibling(
    p: _Pairing, i: int, new_key: str, score: float, besides: Iterable[int] = ()
) -> bool:
    """A sentence of a sibling of old ``i`` (its sweeps applied; ``besides`` left out)
    is within :data:`FRAME_MARGIN` of ``score`` as close to the new sentence
    ``new_key``: the sentence linked to ``i`` at ``score`` is a frame the siblings share."""
    parent = p.old[i].parent
    if parent is None:
        return False
    skip = {i, *besides}
    for k in p.old_children.get(parent, ()):
        if k in skip or p.old[k].heading:
            continue
        for u in provenance.units(k, p.old[k].text):
            theirs = p.swept(u.key)
            if score - fuzz.ratio(new_key, theirs) < FRAME_MARGIN:
                return True
    return False


#: A clause grafted onto a kept rule is this many words or more in a row ...
GRAFT_WORDS = 6


def _word_list(lower: str, end: str) -> tuple[str, ...]:
    """The words of a text, each sentence end marked by ``end`` (a run never crosses it)."""
    words: list[str] = []
    for unit in _UNIT_END.split(lower):
        words += _ALNUM_WORD.findall(unit)
        words.append(end)
    return tuple(words)


def _runs(a: Sequence[str], b: Sequence[str], least: int) -> list[tuple[str, ...]]:
    """The maximal runs of ``least`` or more words that ``a`` and ``b`` share, in the order
    of where they end in ``a`` (then in ``b``). Each run is read from where it starts,
    a word the two share after two that differ: no table of every pair of words."""
    at: dict[str, list[int]] = defaultdict(list)
    for y, word in enumerate(b):
        at[word].append(y)
    found: list[tuple[int, int, tuple[str, ...]]] = []
    for x, word in enumerate(a):
        for y in at.get(word, ()):
            if x and y and a[x - 1] == b[y - 1]:
                continue  # inside a run read from its start
            n = 1
            while x + n < len(a) and y + n < len(b) and a[x + n] == b[y + n]:
                n += 1
            if n >= least:
                found.append((x + n - 1, y + n - 1, tuple(b[y : y + n])))
    found.sort(key=lambda t: (t[0], t[1]))
    return [run for _x, _y, run in found]


def _holds_run(words: Sequence[str], run: Sequence[str]) -> bool:
    return f" {' '.join(run)} " in f" {' '.join(words)} "


class _SweptTexts(Sequence[str]):
    """The old side's texts with the pair's recurring wording changes applied, when asked."""

    def __init__(self, p: _Pairing) -> None:
        self.p = p
        self.cache: dict[int, str] = {}

    def __len__(self) -> int:
        return len(self.p.old)

    def __getitem__(self, k):  # type: ignore[override]
        if k not in self.cache:
            self.cache[k] = self.p.swept(self.p.old[k].lower)
        return self.cache[k]


class _WordLists:
    """The word lists of one side's texts, cut when first asked for (the pass needs few)."""

    def __init__(self, texts: Sequence[str], end: str) -> None:
        self.texts = texts
        self.end = end
        self.lists: dict[int, tuple[str, ...]] = {}
        self.gram_sets: dict[int, frozenset[tuple[str, ...]]] = {}

    def __getitem__(self, k: int) -> tuple[str, ...]:
        if k not in self.lists:
            self.lists[k] = _word_list(self.texts[k], self.end)
        return self.lists[k]

    def grams(self, k: int) -> frozenset[tuple[str, ...]]:
        """The runs of GRAFT_WORDS words of text ``k`` (a quick test before the full one)."""
        if k not in self.gram_sets:
            w = self[k]
            # the runs start at each word; the shorter slices end them (not strict)
            runs = zip(*(w[s:] for s in range(GRAFT_WORDS)), strict=False)
            self.gram_sets[k] = frozenset(runs)
        return self.gram_sets[k]

    def holders(self, run: Sequence[str], up_to: int) -> int:
        """How many texts of the side say the run, counted up to ``up_to`` (the callers ask
        "one or more?", "three or more?": the count stops there; texts without the run's
        longest word, or without its words in a row, are skipped)."""
        longest = max(run, key=len)
        # the run's words in order with nothing but non-words between them: what a
        # text saying the run must have (its word list, cut only for those, decides)
        between = re.compile(
            r"(?<![a-z0-9])" + "[^a-z0-9]+".join(map(re.escape, run)) + r"(?![a-z0-9])"
        )
        count = 0
        for k, text in enumerate(self.texts):
            if longest in text and between.search(text) and _holds_run(self[k], run):
                count += 1
                if count == up_to:
                    break
        return count


def _content_stems(node: _Node) -> frozenset[str]:
    """The stems of ``node``'s content words (as :func:`_words` cuts them)."""
    return _content_stems_of(node.lower)


def _content_stems_of(lower: str) -> frozenset[str]:
    """The stems of a lowercased text's content words (as :func:`_words` cuts them)."""
    return frozenset(w[:5] for w in _content_words(lower))


#: A runner-up left unmatched that is this close to the old text is a copy of it.
COPY_SIMILARITY = 80.0


def _under_new_subject(p: _Pairing, j: int) -> bool:
    """New ``j`` stands under a heading, with no old counterpart, that names a subject
    the old edition has no word for (a game variant it did not have): an old rule's
    text found there is that text written again for the new subject, not a piece cut
    from the old rule."""
    heads = p.new_subject_heads.get(j)
    if heads is None:  # the titles never change, only which headings are matched
        heads = p.new_subject_heads[j] = tuple(
            h for h in p.new_heads[j] if _names_new_subject(p, h)
        )
    return any(p.n2o[h] < 0 for h in heads)


def _names_new_subject(p: _Pairing, h: int) -> bool:
    """New heading ``h``'s title names a subject the old edition has no word for
    (:func:`_names_unheard_word`), remembered per pairing."""
    names_new = p.names_new_subject.get(h)
    if names_new is None:  # the heading's words and the old vocabulary never change
        names_new = p.names_new_subject[h] = _names_unheard_word(p, h)
    return names_new


def _names_unheard_word(p: _Pairing, h: int) -> bool:
    """The heading's title has a content word whose very stem the old edition lacks, or
    every content word of it is one the old edition never uses (:func:`_new_title`)."""
    return bool(_content_stems(p.new[h]) - p.old_words()) or bool(_new_title(p, h))


def _new_title(p: _Pairing, h: int) -> frozenset[str]:
    """The title's content words (without their inflection, :func:`_root`) when the old
    edition uses none of them, in any form; else none. Five-letter stems cannot tell:
    "commander" cut short is "comma", which an edition with a command zone has, yet it
    has no commander; "companion" is "compa", as "compared" is. A title with one old
    word ("Casting Spells" where the old edition played its spells) renames an old
    subject rather than naming a new one."""
    title = p.new_titles.get(h)
    if title is None:
        words = frozenset(map(_root, _content_words(p.new[h].lower)))
        new = words and words.isdisjoint(_word_forms_of(p.old))
        title = p.new_titles[h] = words if new else frozenset()
    return title


def _restated_for_new_subject(p: _Pairing, i: int, j: int) -> bool:
    """New ``j`` stands under a heading naming a subject the old edition lacks
    (:func:`_under_new_subject`) while old ``i``'s own heading lives on as a heading
    elsewhere in the new edition: ``j`` is ``i``'s text written again for the new
    subject (a variant's game-start or concession rule), and ``i``'s own successor, if
    any, is in its own section. A nearest heading matched to a rule with text (a step's
    heading taken by its opening rule) says nothing; the next one up that lives on as a
    heading does."""
    if not p.old_heads[i] or not _under_new_subject(p, j):
        return False
    home = p.o2n[p.old_heads[i][0]]
    if home >= 0 and not p.new[home].heading:
        home = next(
            (p.o2n[h] for h in p.old_heads[i][1:] if p.o2n[h] >= 0 and p.new[p.o2n[h]].heading),
            -1,
        )
    return home >= 0 and p.new[home].heading and home not in p.new_heads[j]


def _in_own_section(p: _Pairing, i: int, j: int) -> bool:
    """New ``j``'s nearest heading is the counterpart of old ``i``'s nearest heading, or
    that counterpart is a rule with text and ``j`` one of its subrules (an old heading
    whose section became one numbered rule with subrules)."""
    if not p.old_heads[i]:
        return False
    home = p.o2n[p.old_heads[i][0]]
    if home < 0:
        return False
    if p.new_heads[j] and home == p.new_heads[j][0]:
        return True
    return not p.new[home].heading and p.new[j].parent == p.new[home].place


def _opens_with_new_subject(p: _Pairing, j: int) -> bool:
    """New ``j``'s opening clause (up to its first comma or sentence end) names a word
    that the old edition has no word for and that titles a new heading with no old
    counterpart ("in a [variant] game, ..."): the rule is written for that subject, as
    a rule under that heading would be. A word the pair's recurring wording changes
    bring in is an old subject's new name ("on the battlefield" for "in play", "cast"
    for "played"), not a new subject, even where its five-letter stem is a new
    heading's ("Battle Cry"); so is a word of the rule's own heading when that heading
    has an old counterpart (exiled cards under "Exile", once "Removed from the Game",
    though a new keyword action is titled "Exile" too)."""
    opening = _opening(p.new[j].lower)
    unheard = _words(opening) - p.old_words()
    if unheard:  # an old subject's new name ("on the battlefield") is no new subject
        renamed = _swept_in(p)
        unheard &= {w[:5] for w in letter_words(opening) if _root(w) not in renamed}
        topic = p.new_topic[j]
        if unheard and topic >= 0 and topic != j and p.n2o[topic] >= 0:
            # its own heading, matched, names the word: an old subject's new name ("Exile"
            # for "Removed from the Game"), though a new heading elsewhere has it too
            unheard -= {w[:5] for w in letter_words(p.new[topic].lower)}
    if not unheard:
        return False
    return any(
        node.heading and p.n2o[h] < 0 and _content_stems(node) & unheard
        for h, node in enumerate(p.new)
    )


def _written_for_new_subject(p: _Pairing, i: int, j: int) -> bool:
    """New ``j`` opens by naming, as the case it is about, a subject the old edition
    lacks ("a subgame of a [variant] game", "a creature with [new keyword] attacking a
    [new card type]"), while old ``i``'s own topic lives on: ``j`` is a rule written for
    that subject, no rewrite of ``i``, however many words they share. Named as one case
    beside an old one ("a creature with trample or [new keyword]") it is ``i`` widened."""
    ho = p.old_topic[i]
    if ho < 0 or p.o2n[ho] < 0:
        return False  # the old topic not (yet) placed: a renamed zone reads as new
    opening = _opening(p.new[j].lower)
    if re.search(r"\bor\b", opening):
        return False  # the new subject added to an old one: the old rule widened
    home = {_root(w) for w in _content_words(p.new[p.o2n[ho]].lower)}
    return _names_new_title(p, opening, home)


def _names_new_title(p: _Pairing, opening: str, home: set[str]) -> bool:
    """``opening`` says every content word (inflections folded, :func:`_root`) of the
    title of a new heading with no old counterpart that names a subject the old edition
    lacks (:func:`_names_new_subject`): "Aura Swap" is not named by "aura" alone. Not a
    title the old topic's own new heading (``home``, its title's words) bears, nor one
    whose words the pair's recurring wording changes bring in: an old subject renamed."""
    said = {_root(w) for w in _content_words(opening)}
    if not said:
        return False
    renamed = _swept_in(p)
    for h, node in enumerate(p.new):
        if not node.heading or p.n2o[h] >= 0:
            continue
        title = {_root(w) for w in _content_words(node.lower)}
        if not title or not title <= said or title <= home or title <= renamed:
            continue
        if _names_new_subject(p, h):
            return True
    return False


def _piece_for_new_subject(p: _Pairing, i: int, j: int) -> bool:
    """Free new ``j`` opens by naming a subject the old edition lacks, so it is no piece
    of old ``i``: a word of its opening clause is one of a new heading's title whose
    words the old edition never uses (:func:`_new_title`: "companion", which five-letter
    stems took for "compared"), or whose stem is new (:func:`_opens_with_new_subject`).
    A word the pair's recurring wording changes bring in ("play" → "cast") names an old
    subject anew, and an opening that ``i`` mostly says besides the new word is ``i``
    widened to the new subject ("… split cards … or fused split spells"), not written
    for it."""
    opening = _opening(p.new[j].lower)
    renamed = _swept_in(p)
    said = {_root(w): w for w in _content_words(opening) if _root(w) not in renamed}
    title_stems, new_titles = _new_heading_words(p)
    old_stems = p.old_words()
    named = {
        root
        for root, word in said.items()
        if root in new_titles or (word[:5] in title_stems and word[:5] not in old_stems)
    }
    if not named:
        return False
    rest = set(said) - named
    old = frozenset(map(_root, _content_words(p.old[i].lower)))
    return not rest or len(rest & old) < WIDENED_SHARE * len(rest)


#: An opening naming a new subject whose other words the old rule says at least this
#: share of is the old rule widened to the new subject.
WIDENED_SHARE = 0.5


def _new_heading_words(p: _Pairing) -> tuple[frozenset[str], frozenset[str]]:
    """Of the new headings with no old counterpart (now): their titles' content stems,
    and the words of those titles that are all new words (:func:`_new_title`)."""
    if p.heading_stems is None:
        p.heading_stems = {h: _content_stems(node) for h, node in enumerate(p.new) if node.heading}
    heads = [h for h in p.heading_stems if p.n2o[h] < 0]
    return (
        frozenset().union(*(p.heading_stems[h] for h in heads)),
        frozenset().union(*(_new_title(p, h) for h in heads)),
    )


def _swept_in(p: _Pairing) -> frozenset[str]:
    """The words (:func:`_root`) the pair's recurring wording changes bring in ("play"
    → "cast", "playing" → "casting"): new words for an old subject."""
    if p.swept_in is None:
        p.swept_in = frozenset(_root(w) for _old, new in p.sweeps for w in letter_words(new))
    return p.swept_in
