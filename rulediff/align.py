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

6. **Headings** are matched bottom-up by where their texts went (GumTree's container
   matching: Dice over matched descendants, the title as tie-breaker); a text under a
   short heading (a keyword, step or zone) does not go to a text that names another
   keyword instead of its own unless the two headings are matched (a keyword renamed
   across the pair is found again once its renaming recurs as a sweep, and its texts
   taken early by copies elsewhere return to it).
7. **Sentences** (:mod:`rulediff.provenance`): the rules not kept verbatim are cut into
   sentences, linked exactly or near-exactly (the pair's sweeps applied), and free rules
   are paired, split and merged by where their sentences went; every match lists the
   sentences that crossed to another rule (``moved_text``). Rules rewritten in place
   (same matched ancestor) are found by the content words and sentence parts they keep.

Modules: :mod:`rulediff.textkeys` (comparison keys), :mod:`rulediff.worddiff` (word
diffs), :mod:`rulediff.pairing` (the pairing state and the readings every pass makes),
:mod:`rulediff.matching` (steps 2–3 and 6: anchors, fuzzy pairs, headings),
:mod:`rulediff.provenance` (sentence links), :mod:`rulediff.sentences` (steps 4 and 7:
the passes that follow sentences, splits and merges), :mod:`rulediff.rescue` (the last
passes, on rules still free), :mod:`rulediff.classify` (kinds, moves, sweeps),
:mod:`rulediff.matches` (result types) and this module (the nodes of an edition, the
order the passes run in, and the public entry points).

The result, :class:`Alignment`, holds only ids, kinds and scores — no rule text — so it
is small, picklable and cached per pair of editions (see :func:`align_cached`).

>>> from rulediff.parse import parse_text  # doctest: +SKIP
>>> a = align(old_edition, new_edition)    # doctest: +SKIP
>>> a.match_for_old("702.36b").new_ids     # doctest: +SKIP
('702.36c',)
"""

from __future__ import annotations

import logging
import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable

from rapidfuzz import fuzz

from . import provenance, rescue
from .classify import (  # noqa: F401
    SWEEP_MIN_SHARE,
    _classify,
    _detect_sweeps,
    _groups,
    _moved,
    _moved_text,
    _Pair,
    _term_key,
    _word_for_word,
    changes_meaning,
)
from .clauses import use_edition_targets
from .collector import collector_paused
from .lastused import LastUsed
from .matches import KINDS, Alignment, Domain, EditionRef, Kind, Match, Method  # noqa: F401
from .matching import (
    _anchor,
    _BigramIndex,
    _candidates,
    _free,
    _match_by_children,
    _match_gaps,
    _match_headings,
    _match_rules,
    _match_siblings_by_words,
    _return_to_slot,
    _solve,
    _uncross_weak_pairs,
)
from .model import Edition
from .pairing import (
    MIN_TOTAL,
    _content_words,
    _naming_roots,
    _Node,
    _Pairing,
    _runs,
    _title_words,
)
from .sentences import (
    _add_pieces_holding_dropped_words,
    _add_pieces_naming_dropped_cases,
    _add_pieces_opening_on_its_subject,
    _add_pieces_to_merge_sources,
    _add_reworded_surplus_pieces,
    _add_statements_kept_by_merges,
    _add_surplus_pieces,
    _add_twin_pieces,
    _drop_foreign_sources,
    _find_copies,
    _find_merges,
    _find_splits,
    _follow_closed_slots,
    _follow_grafted_clauses,
    _follow_kept_clauses_into_taken_rules,
    _follow_listed_rules,
    _follow_moved_text,
    _follow_reworded_sentences_into_free_rules,
    _follow_reworded_sentences_into_taken_rules,
    _follow_runs_into_free_rules,
    _follow_runs_into_taken_rules,
    _follow_sentences_into_free_rules,
    _follow_sentences_into_taken_rules,
    _follow_statements,
    _free_new,
    _free_old_text,
    _grouped,
    _join_emptied_containers,
    _join_emptied_containers_to_splits,
    _join_merge,
    _join_parallel_twins,
    _join_pieces,
    _join_restated_siblings,
    _join_rules_said_twice,
    _join_sibling_opening_on_one_run,
    _join_statements_beside_siblings,
    _join_statements_to_split_pieces,
    _match_by_sentences,
    _named_by_each_other,
    _pair_by_held_opening,
    _pair_by_kept_sentences,
    _pair_by_opening_run,
    _pair_by_shared_opening,
    _pair_subrules_kept_in_order,
    _pieces_in_place,
    _place_free_twins,
    _place_withheld_by_own_words,
    _place_withheld_in_twins,
    _Provenance,
    _sentence_splits,
    _withdraw_crossed_pointers,
    _withdraw_frame_matches,
    _withdraw_links_under_new_rules,
    _withdraw_new_subject_matches,
)
from .textkeys import (  # noqa: F401  (re-exported: the public text keys)
    PLACEHOLDER,
    comparison_key,
    letter_words,
    placeholder_references,
    reference_spans,
    references,
    replace_references,
    soft_typography,
    typography_key,
)
from .worddiff import Opcode, _chunks, is_word, tokenize, word_opcodes  # noqa: F401

log = logging.getLogger(__name__)


# --- nodes -----------------------------------------------------------------------------


def _places(edition: Edition) -> list[tuple[str, str | None, int]]:
    """Each body item's place, its parent's place and its printing, in document order.

    A place is the item's number, and for a number printed again (two keyword headings
    given one number, a subrule letter used twice) the number with its printing
    (``702.175@2``): unlike the number, it names one item. The parent is the item printed
    last above it one level up, which is the one its number names when the numbers are
    right; so the second heading's subrules hang under the second heading, and a rule
    whose number names the wrong parent (``501.2`` printed again under 510) under the one
    it is printed under. An item with nothing above it at that level keeps its number's
    parent.
    """
    printed: Counter[str] = Counter()
    above: dict[int, str] = {}  # depth -> place of the item printed last at that depth
    out: list[tuple[str, str | None, int]] = []
    for item in edition.body:
        rid = item.id
        number = str(rid)
        printed[number] += 1
        place = number if printed[number] == 1 else f"{number}@{printed[number]}"
        parent = rid.parent
        depth = rid.depth
        up = above.get(depth - 1, str(parent)) if parent is not None else None
        out.append((place, up, printed[number]))
        above[depth] = place
        for deeper in [d for d in above if d > depth]:
            del above[deeper]
    return out


# The places of an edition's rules depend on it alone: read by its rule nodes and its
# example nodes.
_places_of = LastUsed(_places)


def _rule_nodes(edition: Edition) -> list[_Node]:
    nodes: list[_Node] = []
    for item, (place, parent, printing) in zip(edition.body, _places_of(edition), strict=True):
        rid = item.id
        heading = getattr(item, "title", None) is not None or rid.is_section
        text = item.title if rid.is_section else item.text  # type: ignore[union-attr]
        nodes.append(_Node(str(rid), text, parent, heading, len(nodes), place, printing))
    return nodes


def _example_nodes(edition: Edition) -> list[_Node]:
    """Examples, each under the place (and of the printing) of the rule it belongs to."""
    nodes: list[_Node] = []
    for item, (place, _, printing) in zip(edition.body, _places_of(edition), strict=True):
        for k, example in enumerate(getattr(item, "examples", ()), 1):
            ident, own = f"{item.id}#ex{k}", f"{place}#ex{k}"
            nodes.append(_Node(ident, example.text, place, False, len(nodes), own, printing))
    return nodes


def _glossary_nodes(edition: Edition) -> list[_Node]:
    return [_Node(e.term, e.text, None, False, k) for k, e in enumerate(edition.glossary)]


# An edition's nodes depend on it alone (a node's only later changes are its lazily
# computed features and negated conditions, the same for every pairing): kept for the
# next pairing of a run of pairs.
_rule_nodes_of = LastUsed(_rule_nodes)
_example_nodes_of = LastUsed(_example_nodes)
_glossary_nodes_of = LastUsed(_glossary_nodes)


def _bare_term(term: str) -> str:
    """A term without parenthetical notes: "Local Enchantment (obsolete)" → "local enchantment"."""
    return _term_key(re.sub(r"\([^()]*\)", " ", term))


# --- the public entry points -------------------------------------------------------------------


@collector_paused()
def align(
    old: Edition, new: Edition, *, use_cache: bool = True, through: Through | None = None
) -> Alignment:
    """Match every rule, example and glossary entry of ``old`` to its counterpart in ``new``.

    ``use_cache``: read each edition's written targets from the cache (computed and
    stored when missing; see :func:`rulediff.clauses.use_edition_targets`). The
    alignment is the same either way; it is cached on its own by :func:`align_cached`.
    ``through``: where each rule went by way of the editions between the two
    (:class:`rulediff.history.Through`); a rule the texts leave unpaired is paired with
    the counterpart its lineage reaches, when that one is unpaired too
    (:func:`_follow_lineage`). Without it the two texts alone decide.
    """
    for edition in (old, new):
        use_edition_targets(edition, use_cache=use_cache)
    rules = _Pairing(_rule_nodes_of(old), _rule_nodes_of(new))
    _match_rules(rules)
    _uncross_weak_pairs(rules)
    early_sweeps = _detect_sweeps(
        (
            (rules.old[i].text, rules.new[j].text, rules.old[i].parent)
            for i, j in enumerate(rules.o2n)
            if j >= 0
        ),
        min_share=SWEEP_MIN_SHARE,
    )
    rules.sweeps = provenance.longest_first(early_sweeps)
    prov = _Provenance(rules, early_sweeps)
    _match_by_sentences(rules, prov)
    _match_headings(rules)
    _withdraw_new_subject_matches(rules, {})
    _withdraw_frame_matches(rules)
    rules.headings_matched = True
    _match_by_children(rules)
    _match_gaps(rules)
    _match_siblings_by_words(rules, early_sweeps)
    _return_to_slot(rules)
    splits = _find_splits(rules)
    merges = _find_merges(rules, {j for group in splits.values() for j in group})
    _find_copies(rules, splits, merges)
    _sentence_splits(rules, prov, splits, merges)
    later = _pieces_in_place(rules, prov, early_sweeps, splits, merges)
    rescue.rescue(rules, splits, merges)
    rescue.recover(rules, splits, merges, prov.by_new)
    _follow_moved_text(rules, prov, splits, merges)
    _join_pieces(rules, later, splits, merges)
    rescue.rescue_headings(rules, splits, merges)
    rescue.pair_by_quoted_term(rules, splits, merges)
    # A heading matched only now (a renamed zone) says its texts correspond too.
    rescue.recover(rules, splits, merges, prov.by_new)
    _follow_listed_rules(rules, splits, merges)
    _follow_statements(rules, early_sweeps, splits, merges)
    _follow_grafted_clauses(rules, splits, merges)
    _follow_sentences_into_taken_rules(rules, prov, splits, merges)
    _follow_sentences_into_free_rules(rules, prov, splits, merges)
    # From here on, a topic whose texts all went under one new topic is that topic.
    rules.texts_placed = True
    rescue.pair_placed_both_ways(rules, splits, merges)
    rescue.pair_into_namesake(rules, splits, merges)
    rescue.pair_clearly_closest(rules, splits, merges)
    rescue.pair_in_slot(rules, splits, merges)
    # Last of the joins: a rule it takes is no longer a free rival for the rescue passes.
    _follow_reworded_sentences_into_taken_rules(rules, splits, merges)
    _follow_kept_clauses_into_taken_rules(rules, splits, merges)
    _follow_reworded_sentences_into_free_rules(rules, splits, merges)
    _follow_closed_slots(rules, splits, merges)
    rescue.pair_slot_rule_it_holds(rules, splits, merges)
    _follow_runs_into_taken_rules(rules, splits, merges)
    _follow_runs_into_free_rules(rules, splits, merges)
    _add_surplus_pieces(rules, prov, splits, merges)
    _add_reworded_surplus_pieces(rules, prov, splits, merges)
    _add_twin_pieces(rules, splits, merges)
    _pair_subrules_kept_in_order(rules, splits, merges)
    _join_restated_siblings(rules, splits, merges)
    _add_pieces_holding_dropped_words(rules, prov, splits, merges)
    _add_pieces_naming_dropped_cases(rules, splits, merges)
    withheld = _drop_foreign_sources(rules, merges)
    _place_withheld_in_twins(rules, withheld, splits, merges)
    _place_withheld_by_own_words(rules, withheld, splits, merges)
    _join_parallel_twins(rules, splits, merges)
    held_before_containers = _join_emptied_containers(rules, splits, merges)
    _pair_by_shared_opening(rules, splits, merges)
    _pair_by_kept_sentences(rules, prov, splits, merges)
    _pair_by_opening_run(rules, splits, merges)
    _pair_by_held_opening(rules, splits, merges)
    _add_pieces_opening_on_its_subject(rules, splits, merges)
    _place_free_twins(rules, splits, merges)
    _withdraw_new_subject_matches(rules, splits)
    _withdraw_crossed_pointers(rules, splits, merges)
    _withdraw_links_under_new_rules(rules, splits, merges)
    if through is not None:
        _follow_lineage(rules, splits, merges, through)
    _join_rules_said_twice(rules, splits, merges)
    _join_sibling_opening_on_one_run(rules, splits, merges)
    joins = _join_emptied_containers_to_splits(rules, splits, merges)
    joins.update(_add_statements_kept_by_merges(rules, prov, splits, merges))
    joins.update(_add_pieces_to_merge_sources(rules, prov, splits, merges))
    joins.update(_join_statements_to_split_pieces(rules, prov, splits, merges, joins))
    joins.update(_join_statements_beside_siblings(rules, prov, splits, merges, joins))
    glossary = _Pairing(_glossary_nodes_of(old), _glossary_nodes_of(new))
    _match_glossary(glossary)
    _return_to_renamed_topics(rules, glossary, splits, merges)
    _follow_retargeted_references(rules, glossary, splits, merges, joins)
    rule_pairs = _groups(rules, splits, merges, joins)
    mapping, owners = _rule_maps(rules, rule_pairs)
    examples = _Pairing(_example_nodes_of(old), _example_nodes_of(new))
    _match_examples(examples, owners)
    if _follow_examples(rules, examples, splits, merges, joins):
        # a rule placed by its examples may be the twin a free rule follows
        _place_free_twins(rules, splits, merges, joins)
        # the examples are matched again with those rules' owners known
        rule_pairs = _groups(rules, splits, merges, joins)
        mapping, owners = _rule_maps(rules, rule_pairs)
        examples = _Pairing(_example_nodes_of(old), _example_nodes_of(new))
        _match_examples(examples, owners)

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
                elif pairing is rules and len(pair.new) == 1:
                    # a heading or intro joined as a source: its holder's pair still counts
                    holder = held_before_containers.get(pair.new[0], -1)
                    if holder in pair.old:
                        o, n = rules.old[holder], rules.new[pair.new[0]]
                        yield o.text, n.text, o.parent

    sweep_counts = _detect_sweeps(text_pairs())
    sweeps = set(sweep_counts)
    moved = _moved(rules)

    def rule_same_place(pair: _Pair) -> bool:
        return [rules.old[i].id for i in pair.old] == [rules.new[j].id for j in pair.new]

    def example_same_place(pair: _Pair) -> bool:
        return all(
            owners.get(examples.old[i].parent or "") == examples.new[pair.new[0]].parent
            for i in pair.old
        )

    def glossary_same_place(pair: _Pair) -> bool:
        return all(
            _term_key(glossary.old[i].id) == _term_key(glossary.new[pair.new[0]].id)
            for i in pair.old
        )

    result_rules = _classify(
        rules, rule_pairs, "rule", mapping, sweeps, rule_same_place, moved, prov
    )
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


def _return_to_renamed_topics(
    p: _Pairing,
    glossary: _Pairing,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
) -> None:
    """A text of a renamed keyword taken by a copy of it elsewhere goes back under the
    keyword's new name, and the keyword's heading follows its texts.

    The first fuzzy round runs before any wording sweep is known, so a keyword renamed
    across the pair (one card type renamed for another) makes each of its texts name
    "another keyword" beside its own new rule; the text then goes to a restatement of
    it under a general heading, and the renamed heading, one text short, stays
    unmatched both sides. Here the recurring wording changes are found again from every
    pair made so far (the glossary's too): a free old heading whose title, those changes
    applied, is the title of one free new heading and of no other is that heading
    renamed. Each text of the old heading matched one to one outside it goes to the free
    text under the new heading that is closer to it (changes applied to both) than its
    counterpart is; then the heading goes where its matched texts all went.
    """
    in_splits, in_merges = _grouped(splits, merges)
    # Old texts matched one to one, by topic; free new texts, by topic (cheap: the
    # sweeps are looked for only when some free old heading may have been renamed).
    matched: dict[int, list[int]] = defaultdict(list)
    for i, j in enumerate(p.o2n):
        topic = p.old_topic[i]
        if (
            j >= 0
            and 0 <= topic != i
            and i not in splits
            and i not in in_merges
            and j not in in_splits
            and j not in merges
        ):
            matched[topic].append(i)
    free_texts: dict[int, list[int]] = defaultdict(list)
    for j, topic in enumerate(p.new_topic):
        if 0 <= topic != j and not p.new[j].heading and _free_new(p, j, in_splits, merges):
            free_texts[topic].append(j)
    old_topics = [
        h
        for h in sorted(matched)
        if p.o2n[h] < 0 and h not in splits and h not in in_merges and _title_words(p.old[h].lower)
    ]
    titled: dict[frozenset[str], list[int]] = defaultdict(list)
    for h in sorted(free_texts):
        words = _title_words(p.new[h].lower)
        if words and _free_new(p, h, in_splits, merges):
            titled[words].append(h)
    if not old_topics or not titled:
        return
    pairs: list[tuple[str, str, str | None]] = [
        (p.old[i].text, p.new[j].text, p.old[i].parent)
        for i, j in enumerate(p.o2n)
        if j >= 0 and i not in splits and j not in merges
    ]
    pairs.extend(
        (glossary.old[i].text, glossary.new[j].text, glossary.old[i].id)
        for i, j in enumerate(glossary.o2n)
        if j >= 0
    )
    sweeps = provenance.longest_first(_detect_sweeps(pairs))

    def swept(text: str) -> str:
        return provenance.apply_sweeps(text, sweeps)

    for ho in old_topics if sweeps else ():
        title = swept(p.old[ho].lower)
        homes = titled.get(_title_words(title), [])
        if title == p.old[ho].lower or len(homes) != 1:
            continue
        (hn,) = homes
        for i in matched[ho]:
            j = p.o2n[i]
            if p.new_topic[j] == hn:
                continue
            key = swept(p.old[i].lower)
            kept = fuzz.ratio(key, swept(p.new[j].lower))
            closer = [
                (fuzz.ratio(key, swept(p.new[k].lower)), -k) for k in free_texts[hn] if p.n2o[k] < 0
            ]
            score, k = max(closer, default=(0.0, 0))
            if score > kept:
                p.n2o[j] = -1
                p.pair(i, -k, round(score, 1), "fuzzy")
        went = {p.new_topic[p.o2n[i]] for i in matched[ho]}
        if went == {hn}:
            p.pair(ho, hn, round(fuzz.ratio(title, p.new[hn].lower), 1), "structure")


#: Where a rule went by way of the editions between two (``forward``: from the old one
#: to the new one; else back): the numbers it has at the far end, none if it was removed.
Through = Callable[[str, bool], frozenset[str]]


def _follow_lineage(
    p: _Pairing, splits: dict[int, list[int]], merges: dict[int, list[int]], through: Through
) -> None:
    """A rule the two texts leave unpaired goes where its lineage went, edition by edition.

    Across many years a rule can be rewritten step by step until little of its first
    wording is left: each step between neighbouring editions is a small, sure match, while
    the two ends share too few words for any text pass to decide. An unpaired old rule
    followed forward through every edition between reaches some unpaired new rules (a
    heading only headings); each of those, followed back, must reach it and no other
    unpaired old rule: then one is its rewrite, several its split. When the one unpaired
    new rule it reaches leads back to other unpaired old rules too, and each of those
    reaches it as well, they were merged into it. An unpaired old rule whose chain
    reaches only a rule the texts paired joins that pair as a merge, when the chain back
    from there reaches the paired old rule and no other unpaired one. Chains that cross
    in any other way decide nothing, and rules already paired are never moved: the
    lineage only adds to what the texts say.
    """
    in_splits, in_merges = _grouped(splits, merges)
    old_at: dict[str, list[int]] = defaultdict(list)
    new_at: dict[str, list[int]] = defaultdict(list)
    for i, node in enumerate(p.old):
        old_at[node.id].append(i)
    for j, node in enumerate(p.new):
        new_at[node.id].append(j)

    def free_old(i: int) -> bool:
        return (
            p.o2n[i] < 0
            and i not in splits
            and i not in in_merges
            and len(old_at[p.old[i].id]) == 1
        )

    def free_new(j: int) -> bool:
        # (a number printed twice: the lineage cannot say which printing it means)
        return _free_new(p, j, in_splits, merges) and len(new_at[p.new[j].id]) == 1

    def reached(rule_id: str, forward: bool, *, free: bool = True) -> list[int]:
        """The rules the chain reaches on the other side (``free``: unpaired ones only)."""
        at, is_free = (new_at, free_new) if forward else (old_at, free_old)
        return sorted(
            {
                k
                for n in through(rule_id, forward)
                for k in at.get(n, ())
                if (is_free(k) if free else len(at[n]) == 1)
            }
        )

    for i, node in enumerate(p.old):
        if not free_old(i):
            continue
        targets = reached(node.id, True)
        if not targets:
            # its chain ends only in a rule the texts paired: it joins that pair
            ahead = reached(node.id, True, free=False)
            if len(ahead) != 1 or node.heading:
                continue
            (j,) = ahead
            k = p.n2o[j]
            if k < 0 or p.new[j].heading or j in in_splits or j in merges:
                continue
            if k in splits or k in in_merges:
                continue
            back_id = p.new[j].id
            if k in reached(back_id, False, free=False) and reached(back_id, False) == [i]:
                _join_merge(p, i, j, splits, merges, in_merges)
            continue
        if any(p.new[j].heading != node.heading for j in targets):
            continue
        back = {j: reached(p.new[j].id, False) for j in targets}
        if all(sources == [i] for sources in back.values()):
            if len(targets) == 1:
                j = targets[0]
                p.pair(i, j, round(fuzz.ratio(node.lower, p.new[j].lower), 1), "lineage")
            else:
                splits[i] = targets
                in_splits.update(targets)
            continue
        if len(targets) > 1 or node.heading:
            continue
        (j,) = targets
        group = back[j]
        if i in group and all(
            not p.old[k].heading and j in reached(p.old[k].id, True) for k in group
        ):
            merges[j] = group
            in_merges.update(group)


def _follow_retargeted_references(
    rules: _Pairing,
    glossary: _Pairing,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    joins: dict[int, int],
) -> None:
    """A free old rule cited where a matched rule or glossary entry now cites a free new
    rule went to that rule: the editors who wrote "See rule 405.2" into the old text and
    "See rule 604.3" into the new one, at the same place, retargeted the reference to
    where the cited rule went (the characteristic-setting abilities, now the
    characteristic-defining ones, cited so by the rule on abilities an effect grants).

    References are read in order from the two texts of each one-to-one pair (glossary
    entries too: "Permanent … See rule 214" → "See rule 110"), only when both texts cite
    as many rules. Every such reading must name the same new rule for the old one, and no
    other old rule for the new one. The two rules are both texts, on one topic and
    sharing content words, or both headings whose titles share a naming word: a
    reference sent from a zone's heading to the new-object rule, or a glossary entry
    sent from the replacement effects to its new keyword action, is a changed
    reference, not a renumbering."""
    in_splits, in_merges = _grouped(splits, merges)
    votes: dict[int, set[int]] = defaultdict(set)
    voters: dict[int, set[int]] = defaultdict(set)
    for pairing in (rules, glossary):
        for a, b in enumerate(pairing.o2n):
            if b < 0:
                continue
            cited_old = references(pairing.old[a].text)
            cited_new = references(pairing.new[b].text)
            if not cited_old or len(cited_old) != len(cited_new):
                continue
            for r, t in zip(cited_old, cited_new, strict=True):
                i, j = rules.old_by_place.get(r, -1), rules.new_by_place.get(t, -1)
                if i < 0 or j < 0 or i in joins:
                    continue
                if _free_old_text(rules, i, splits, in_merges) or (
                    rules.old[i].heading and rules.o2n[i] < 0
                ):
                    if _free_new(rules, j, in_splits, merges):
                        votes[i].add(j)
                        voters[j].add(i)
    for i, j in _named_by_each_other(votes, voters):
        if rules.o2n[i] >= 0 or rules.n2o[j] >= 0:
            continue
        old, new = rules.old[i], rules.new[j]
        if old.heading != new.heading:
            continue
        if old.heading:
            if not _naming_roots(old.lower) & _naming_roots(new.lower):
                continue
        elif (
            not rules.same_topic(i, j)
            or len(_content_words(old.lower) & _content_words(new.lower)) < RETARGET_SHARED_WORDS
        ):
            continue
        rules.pair(i, j, round(fuzz.ratio(old.lower, new.lower), 1), "structure")


#: A text a reference was retargeted to shares at least this many content words with
#: the old text it was retargeted from.
RETARGET_SHARED_WORDS = 2


def _rule_maps(rules: _Pairing, rule_pairs: list[_Pair]) -> tuple[dict[str, str], dict[str, str]]:
    """Old number -> new number, to read references by; old place -> new place, to tell
    where an example's rule went (a number printed twice names two rules)."""
    mapping: dict[str, str] = {}
    owners: dict[str, str] = {}
    for pair in rule_pairs:
        if pair.old and pair.new:
            for i in pair.old:
                # an old rule of a group goes to the first new rule it is linked to
                j = next((b for a, b in pair.links if a == i), pair.new[0])
                mapping.setdefault(rules.old[i].id, rules.new[j].id)
                owners.setdefault(rules.old[i].place, rules.new[j].place)
    return mapping, owners


#: A free old rule goes where its examples went when its text and that rule's share a
#: run of at least this many words (inside one sentence) that no other old rule says.
EXAMPLE_RUN_WORDS = 4


def _follow_examples(
    rules: _Pairing,
    examples: _Pairing,
    splits: dict[int, list[int]],
    merges: dict[int, list[int]],
    joins: dict[int, int],
) -> bool:
    """A free old rule whose matched examples all went under one new rule went there
    too, when the two texts share a run of words: the rule was rewritten where its
    examples now stand (the old copy rule's "choice never made" note, now the linked
    abilities rule, with its example). An example names cards and plays out a case: its
    match is evidence the rule texts alone, reworded, no longer give. The run keeps an
    example that stayed while its rule's sentence was dropped (the trample note whose
    example went to the trample rule) from pulling the rule along; it is one no other
    old rule says (a stock phrase, or the concept a note restates from the rule it
    refines, is no evidence; nor is what the new rule's sources say). Into a free new rule
    the closest such rule is paired and any other joins it as a merge source; into a
    taken one each joins its sources. A piece of a split is left alone. A free rule whose
    examples went to several free sibling rules, each sharing such a run with it, is
    split into them (the attack-and-block requirement check cut into its two halves,
    an example to each). A matched rule whose example went to one more free rule is
    split into it when the run is said by those two rules alone of both editions (a
    sentence that left the rule for a subrule of its own, its example with it).
    Returns whether a rule was placed."""
    in_splits, in_merges = _grouped(splits, merges)
    went: dict[int, set[int]] = defaultdict(set)
    for e, f in enumerate(examples.o2n):
        if f >= 0:
            i = rules.old_by_place.get(examples.old[e].parent or "", -1)
            j = rules.new_by_place.get(examples.new[f].parent or "", -1)
            if i >= 0 and j >= 0:
                went[i].add(j)
    old_words, new_words = rules.word_lists()

    def says_own_run(i: int, j: int, *, new_alone: bool = False) -> bool:
        """A run of the two texts no other old rule says (nor, ``new_alone``, any other
        new rule: then not ``i``'s present counterpart either)."""
        return any(
            rules.said_alone(run) if new_alone else old_words.holders(run, 2) == 1
            for run in _runs(old_words[i], new_words[j], EXAMPLE_RUN_WORDS)
        )

    found: dict[int, list[tuple[float, int]]] = defaultdict(list)
    split = False
    for i in sorted(went):
        if i in joins or i in in_merges or rules.old[i].heading:
            continue
        if rules.o2n[i] >= 0 or i in splits:
            # matched: an example gone to one more free rule that says its words, and
            # alone of both editions, is one more piece of it
            now = splits.get(i) or [rules.o2n[i]]
            extra = sorted(went[i] - set(now))
            if any(j in merges for j in now) or len(extra) != 1:
                continue
            (j,) = extra
            if rules.new[j].heading or not _free_new(rules, j, in_splits, merges):
                continue
            if says_own_run(i, j, new_alone=True):
                splits[i] = sorted({*now, j}, key=lambda q: rules.new[q].order)
                in_splits.update(splits[i])
                split = True
            continue
        if not _free_old_text(rules, i, splits, in_merges):
            continue
        targets = sorted(went[i])
        if any(rules.new[j].heading or j in in_splits for j in targets):
            continue
        if len(targets) == 1:
            (j,) = targets
            if says_own_run(i, j):
                found[j].append((fuzz.ratio(rules.old[i].lower, rules.new[j].lower), i))
        elif (
            len({rules.new[j].parent for j in targets}) == 1
            and all(_free_new(rules, j, in_splits, merges) for j in targets)
            and all(says_own_run(i, j) for j in targets)
        ):
            # its examples went to sibling rules, each saying its words: cut into them
            splits[i] = targets
            in_splits.update(targets)
            split = True
    for j, sources in sorted(found.items()):
        for score, i in sorted(sources, key=lambda t: (-t[0], t[1])):
            if rules.n2o[j] < 0 and j not in merges:
                rules.pair(i, j, round(score, 1), "structure")
            else:
                _join_merge(rules, i, j, splits, merges, in_merges)
    return split or bool(found)


def _match_examples(p: _Pairing, owners: dict[str, str]) -> None:
    """Examples: unique texts first, then fuzzy with a strong bonus for the mapped owner
    (``owners``: old rule's place -> its counterpart's place)."""
    _anchor(p)
    owners_new: dict[str | None, list[int]] = p.new_children

    def same_owner(i: int) -> Iterable[int]:
        owner = p.old[i].parent
        return owners_new.get(owners.get(owner or "", ""), ())

    # The owner rule of an example is its "parent", but examples are not rules: map the
    # owner through the rule alignment instead of through the example pairing.
    p.mapped_parent = lambda i: owners.get(p.old[i].parent or "")  # type: ignore[method-assign]
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
        return align(old, new, use_cache=use_cache)
    from . import cache

    return cache.get_or_compute(
        "alignment",
        f"{old.sha256[:32]}-{new.sha256[:32]}",
        lambda: align(old, new, use_cache=use_cache),
        use_cache=use_cache,
    )
