"""The lineage of every rule across all editions: when it was born, edited, renumbered, removed.

Lineage is computed by chaining *adjacent* editions: each consecutive pair is aligned
(:func:`rulediff.align.align_cached`, cached by the two sha256s) and reduced to a
:class:`Step` that keeps only what changed (an unchanged rule keeps its number, so
"absent from the step" means "same number, same text"). A :class:`Lineage` is the list
of steps over the corpus; following a rule back (or forward) is a walk over dictionaries,
so once the steps are cached the history of any rule — or of all of them, for the site —
costs milliseconds.

>>> lin = build_lineage(corpus_editions)                 # doctest: +SKIP
>>> [e.kind for e in rule_history(lin, "702.36f").events]  # doctest: +SKIP
['renumbered-edited', ..., 'added']
"""

from __future__ import annotations

import datetime as dt
import hashlib
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from rapidfuzz import fuzz

from . import cache
from .align import Alignment, EditionRef, Kind, align_cached
from .errors import RuleNotFound
from .matches import linked
from .model import Edition, RuleId
from .provenance import units

T = TypeVar("T")

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class StepChange:
    """One non-trivial rule match between two adjacent editions."""

    kind: Kind
    old_ids: tuple[str, ...]
    new_ids: tuple[str, ...]
    score: float
    moved: bool = False
    ambiguous: bool = False
    moved_text: tuple[tuple[str, str, str], ...] = ()
    """Sentences that left for, or came from, rules outside this change (old id, new id,
    text): a rule's lineage through splits and merges shows where its sentences went."""
    old_printings: tuple[int, ...] = ()
    """Which printing of its number each old id is, when one is a later printing (an
    edition that prints a number twice; :attr:`rulediff.matches.Match.old_printings`)."""
    new_printings: tuple[int, ...] = ()
    links: tuple[tuple[str, str], ...] = ()
    """Which old rule went into which new one, in a group of several of each
    (:attr:`rulediff.matches.Match.links`); empty when each went into each."""
    trunk_old: tuple[str, ...] = ()
    """For each new id (in order), the old rule a walk back follows when several went into
    it: the one that says the new rule's opening best (:func:`_closest_sources`). Empty
    when the step was made without the texts (or one old rule)."""

    def new_ids_of(self, old_id: str) -> tuple[str, ...]:
        """The new rules old ``old_id`` went into."""
        return linked(self.links, old_id, self.new_ids, forward=True)

    def old_ids_of(self, new_id: str) -> tuple[str, ...]:
        """The old rules whose text went into new ``new_id``."""
        return linked(self.links, new_id, self.old_ids, forward=False)


@dataclass(frozen=True, slots=True)
class Step:
    """What changed from one edition to the next (rules whose match is not ``unchanged``)."""

    old: EditionRef
    new: EditionRef
    changes: tuple[StepChange, ...]
    examples: tuple[StepChange, ...] = ()
    """Example matches other than ``unchanged`` (ids like ``702.36e#ex1``)."""
    _index: dict = field(default_factory=dict, repr=False, compare=False)

    def __getstate__(self) -> tuple:
        return (self.old, self.new, self.changes, self.examples)

    def __setstate__(self, state: tuple) -> None:
        for name, value in zip(("old", "new", "changes", "examples"), state, strict=True):
            object.__setattr__(self, name, value)
        object.__setattr__(self, "_index", {})

    def _lookup(self, side: str) -> dict[tuple[str, int], StepChange]:
        """(number, printing) -> its change: a number printed twice names two rules."""
        found = self._index.get(side)
        if found is None:
            found = {}
            for change in self.changes:
                for ident, printing in _printed(change, side):
                    found.setdefault((ident, printing), change)
            self._index[side] = found
        return found

    def for_new(self, rule_id: str, printing: int = 1) -> StepChange | None:
        """The change that produced ``rule_id`` of the newer edition (``None``: unchanged);
        ``printing``: which rule of a number printed twice (the first by default)."""
        return self._lookup("new").get((rule_id, printing))

    def for_old(self, rule_id: str, printing: int = 1) -> StepChange | None:
        """What happened to ``rule_id`` of the older edition (``None``: unchanged)."""
        return self._lookup("old").get((rule_id, printing))

    def examples_of(self, new_id: str | None, old_id: str | None) -> tuple[StepChange, ...]:
        """Example changes of the rule numbered ``new_id`` now (``old_id`` before).

        An example belongs to the rule that owns it in the newer edition, or, when it was
        removed, in the older one. Indexed by owner once per step: a lineage asks every
        step about every rule.
        """
        owners = self._index.get("examples")
        if owners is None:
            by_new: dict[str, list[tuple[int, StepChange]]] = {}
            by_old: dict[str, list[tuple[int, StepChange]]] = {}
            for k, change in enumerate(self.examples):
                if change.new_ids:
                    by_new.setdefault(change.new_ids[0].split("#")[0], []).append((k, change))
                elif change.old_ids:
                    by_old.setdefault(change.old_ids[0].split("#")[0], []).append((k, change))
            owners = self._index["examples"] = (by_new, by_old)
        found = [
            *(owners[0].get(new_id, ()) if new_id is not None else ()),
            *(owners[1].get(old_id, ()) if old_id is not None else ()),
        ]
        found.sort(key=lambda item: item[0])  # the steps' order
        return tuple(change for _k, change in found)


#: A rule as an edition prints it: its number and which printing of that number it is.
_Printed = tuple[str, int]


def _printed(change: StepChange, side: str) -> list[_Printed]:
    """The (number, printing) of each rule on one side of a change."""
    ids = change.old_ids if side == "old" else change.new_ids
    printings = change.old_printings if side == "old" else change.new_printings
    return list(zip(ids, printings or (1,) * len(ids), strict=True))


def step_from(alignment: Alignment, old: Edition | None = None, new: Edition | None = None) -> Step:
    """The :class:`Step` an alignment makes (only what changed is kept); with the two
    editions, each group's trunk too (:attr:`StepChange.trunk_old`)."""
    changes = [
        StepChange(
            m.kind,
            m.old_ids,
            m.new_ids,
            m.score,
            m.moved,
            m.ambiguous,
            m.moved_text,
            m.old_printings,
            m.new_printings,
            m.links,
        )
        for m in alignment.rules
        if m.kind != "unchanged"
    ]
    texts = (_printed_texts(old), _printed_texts(new)) if old and new else None
    changes = [
        replace(c, trunk_old=trunk) if (trunk := _closest_sources(c, texts)) else c for c in changes
    ]
    return Step(
        old=alignment.old,
        new=alignment.new,
        changes=tuple(changes),
        examples=tuple(
            StepChange(m.kind, m.old_ids, m.new_ids, m.score, m.moved, m.ambiguous)
            for m in alignment.examples
            if m.kind != "unchanged"
        ),
    )


def _printed_texts(edition: Edition) -> dict[_Printed, str]:
    """Each rule's text by (number, printing)."""
    seen: dict[str, int] = {}
    out: dict[_Printed, str] = {}
    for rule in edition.rules:
        ident = str(rule.id)
        seen[ident] = seen.get(ident, 0) + 1
        out[ident, seen[ident]] = rule.text
    return out


def _closest_sources(
    change: StepChange, texts: tuple[dict[_Printed, str], dict[_Printed, str]] | None
) -> tuple[str, ...]:
    """For each new rule of a group, the source that says its opening best.

    Document order is no guide to which of several sources a rule continues: a statement
    the old edition said twice (a summary under Permanents, the definition under
    Status) joins the merge in the new rule, whose history is the definition's, the text
    it opens with. The opening, not the whole text: a short definition followed by a
    longer rule folded into it stays the trunk (phasing, the flanking trigger); its
    words in any order (a definition turned round: "a card on the stack is a spell"). A
    heading or list intro joined with a rule numbered under it is never the trunk
    (:func:`_trunk`). Ties go to document order.
    """
    if texts is None or len(change.old_ids) < 2:
        return ()
    old_texts, new_texts = texts
    olds = _printed(change, "old")
    out = []
    for item in _printed(change, "new"):
        reached = change.old_ids_of(item[0])
        sources = [x for x in olds if x[0] in reached]
        sources = [x for x in sources if not any(_holds(x[0], o) for o, _ in sources)] or sources
        opening = next(iter(units(0, new_texts.get(item, ""))), None)
        if opening is None or not sources:
            out.append("")
            continue

        def says(x: _Printed, opening: str = opening.key) -> float:
            return max(
                (fuzz.token_sort_ratio(opening, u.key) for u in units(0, old_texts.get(x, ""))),
                default=0.0,
            )

        best = max(sources, key=lambda x: (says(x), -olds.index(x)))
        out.append(best[0])
    return tuple(out)


class Through:
    """Where each rule of a lineage's first edition went in its last, and back: the
    numbers it reaches by way of every edition between (:func:`rulediff.align.align`'s
    ``through``). Splits on the way give several numbers; a removal ends the chain."""

    def __init__(self, lineage: Lineage) -> None:
        # Keyed by (number, printing), as history walks (see _cross): where an edition
        # prints a number twice, each printing is its own rule, and an unchanged one
        # must not follow the change of its namesake (2006-05-01 prints the status rule
        # 510.2 as a second 501.2 beside the evasion rule 501.2).
        self._forward: list[dict[_Printed, tuple[_Printed, ...]]] = []
        self._backward: list[dict[_Printed, tuple[_Printed, ...]]] = []
        for step in lineage.steps:
            forward: dict[_Printed, set[_Printed]] = {}
            backward: dict[_Printed, set[_Printed]] = {}
            for change in step.changes:
                old, new = _printed(change, "old"), _printed(change, "new")
                for item in old:
                    reached = change.new_ids_of(item[0])
                    forward.setdefault(item, set()).update(x for x in new if x[0] in reached)
                for item in new:
                    reached = change.old_ids_of(item[0])
                    backward.setdefault(item, set()).update(x for x in old if x[0] in reached)
            self._forward.append({k: tuple(sorted(v)) for k, v in forward.items()})
            self._backward.append({k: tuple(sorted(v)) for k, v in backward.items()})
        self._backward.reverse()

    def __call__(self, rule_id: str, forward: bool, printing: int = 1) -> frozenset[str]:
        """The numbers rule ``rule_id`` (its ``printing``, the first by default) has at
        the far end (an unchanged rule keeps its own)."""
        current: set[_Printed] = {(rule_id, printing)}
        for step in self._forward if forward else self._backward:
            current = {n for k in current for n in step.get(k, (k,))}
            if not current:
                break
        return frozenset(ident for ident, _printing in current)


def step_key(old_sha: str, new_sha: str) -> str:
    """The cache key of the step (and of the alignment and diff) between two editions."""
    return f"{old_sha[:32]}-{new_sha[:32]}"


def step_of(
    old: Edition, new: Edition, *, use_cache: bool = True, alignment: Alignment | None = None
) -> Step:
    """The :class:`Step` between two editions (through the alignment cache).

    ``alignment``: the pair's alignment when the caller already has it in memory.
    """

    def compute() -> Step:
        return step_from(alignment or align_cached(old, new, use_cache=use_cache), old, new)

    if not (old.sha256 and new.sha256):
        return compute()
    return cache.get_or_compute(
        "step", step_key(old.sha256, new.sha256), compute, use_cache=use_cache
    )


def pair_runs(items: Sequence[T], parts: int) -> list[list[tuple[T, T]]]:
    """The consecutive pairs of ``items`` cut into contiguous runs, about four per part.

    A worker given a run parses each edition once (the new edition of one pair is the old
    one of the next), where single pairs handed to two workers would parse most twice.
    """
    pairs = list(zip(items, items[1:], strict=False))
    size = max(1, -(-len(pairs) // max(1, parts * 4)))
    return [pairs[i : i + size] for i in range(0, len(pairs), size)]


@dataclass(frozen=True, slots=True)
class Lineage:
    """The steps between consecutive editions, oldest first."""

    editions: tuple[EditionRef, ...]
    steps: tuple[Step, ...]
    """``steps[k]`` goes from ``editions[k]`` to ``editions[k + 1]``."""

    def index_of(self, date: str) -> int:
        for k, ref in enumerate(self.editions):
            if ref.date == date:
                return k
        raise RuleNotFound(f"no edition dated {date} in the lineage")

    def in_force(self, day: dt.date) -> int:
        """Index of the edition in force on ``day`` (newest with date ≤ day)."""
        found = -1
        for k, ref in enumerate(self.editions):
            if ref.date != "unknown" and dt.date.fromisoformat(ref.date) <= day:
                found = k
        if found < 0:
            raise RuleNotFound(
                f"no edition in force on {day}: the oldest is {self.editions[0].date}"
            )
        return found


EditionLoader = Callable[[Any], Edition]


def build_lineage(
    editions: Sequence[Any],
    load: EditionLoader,
    *,
    use_cache: bool = True,
    progress: Callable[[int, int], None] | None = None,
    workers: int = 1,
) -> Lineage:
    """Chain every consecutive pair of ``editions`` (oldest first).

    ``progress(k, n)`` is called before each step that must be computed (not cached).
    With ``workers`` > 1 and editions that have a ``path`` (corpus entries), missing
    steps are computed in that many processes first (each writes the cache).

    ``editions`` are whatever ``load`` accepts (corpus :class:`EditionInfo` objects,
    paths…) and should carry a ``sha256`` attribute: then the whole lineage is cached
    under the hash of all of them, and each step under its pair.
    """
    shas = [getattr(e, "sha256", None) for e in editions]
    whole_key = None
    if all(shas):
        whole_key = hashlib.sha256("\n".join(shas).encode()).hexdigest()  # type: ignore[arg-type]
        if use_cache:
            found = cache.read("lineage", whole_key)
            if found is not cache.MISSING:
                return found  # type: ignore[no-any-return]
    if workers > 1 and use_cache and all(shas) and all(hasattr(e, "path") for e in editions):
        _precompute_steps(editions, shas, workers, progress)  # type: ignore[arg-type]
    loaded: dict[int, Edition] = {}

    def get(k: int) -> Edition:
        if k not in loaded:
            for old in [i for i in loaded if i < k - 1]:
                del loaded[old]  # keep at most the two editions of the current pair
            loaded[k] = load(editions[k])
        return loaded[k]

    steps: list[Step] = []
    for k in range(1, len(editions)):
        step = None
        if use_cache and shas[k - 1] and shas[k]:
            # A cached step needs neither edition parsed.
            found = cache.read("step", f"{shas[k - 1][:32]}-{shas[k][:32]}")  # type: ignore[index]
            if found is not cache.MISSING:
                step = found
        if step is None:
            if progress:
                progress(k, len(editions) - 1)
            step = step_of(get(k - 1), get(k), use_cache=use_cache)
        steps.append(step)
    if steps:
        refs = [steps[0].old, *(s.new for s in steps)]
    elif editions:
        refs = [EditionRef.of(get(0))]
    else:
        refs = []
    lineage = Lineage(tuple(refs), tuple(steps))
    if whole_key is not None and use_cache:
        cache.write("lineage", whole_key, lineage)
    return lineage


def _missing_steps(shas: Sequence[str]) -> list[int]:
    return [
        k
        for k in range(1, len(shas))
        if cache.read("step", f"{shas[k - 1][:32]}-{shas[k][:32]}") is cache.MISSING
    ]


def _steps_for_run(run: list[tuple[str, str]]) -> int:
    """Worker: compute (and cache) the steps of a run of consecutive edition files."""
    from .corpus import load_file

    loaded: dict[str, Edition] = {}
    for old_path, new_path in run:
        old = loaded.pop(old_path, None) or load_file(old_path)
        new = loaded[new_path] = load_file(new_path)
        step_of(old, new)
    return len(run)


def _precompute_steps(
    editions: Sequence[Any],
    shas: Sequence[str],
    workers: int,
    progress: Callable[[int, int], None] | None,
) -> None:
    """Compute the missing steps in a pool of processes (they land in the cache)."""
    import multiprocessing

    missing = set(_missing_steps(shas))
    if len(missing) < 2:
        return
    runs = [
        [(str(editions[a].path), str(editions[b].path)) for a, b in run if b in missing]
        for run in pair_runs(range(len(editions)), workers)
    ]
    context = multiprocessing.get_context(
        "fork" if "fork" in multiprocessing.get_all_start_methods() else None
    )
    done = 0
    with context.Pool(min(workers, len(runs))) as pool:
        for n in pool.imap(_steps_for_run, [run for run in runs if run]):
            done += n
            if progress:
                progress(done, len(editions) - 1)


# --- one rule's history -----------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class HistoryEvent:
    """Something that happened to the rule in one edition (compared with the one before)."""

    date: str
    """The edition where it happened."""
    previous: str | None
    """The edition before (``None``: the rule is in the oldest edition of the corpus)."""
    kind: Kind
    """``added`` (born), ``edited``, ``renumbered``…, ``removed``; ``unchanged`` when only
    its examples changed."""
    old_ids: tuple[str, ...]
    new_ids: tuple[str, ...]
    score: float = 0.0
    moved: bool = False
    examples: tuple[StepChange, ...] = ()
    moved_text: tuple[tuple[str, str, str], ...] = ()
    """Sentences of the rule that went to other rules, or came from them (old id, new id,
    text as in the newer edition)."""
    links: tuple[tuple[str, str], ...] = ()
    """In a group of several old and several new rules, which old rule went into which
    new one (:attr:`StepChange.links`); empty when each went into each."""
    followed: tuple[str, ...] = ()
    """The rule's own numbers in this event, newer first (the number the history walk
    followed on each side); the other rules of a split or merge are not this rule's."""

    @property
    def in_oldest(self) -> bool:
        return self.previous is None


@dataclass(frozen=True, slots=True)
class RuleHistory:
    """The events of one rule, newest first, following renumberings back to its origin."""

    rule: str
    """The number asked about, in edition ``edition``."""
    edition: str
    events: tuple[HistoryEvent, ...]

    @property
    def origin(self) -> HistoryEvent | None:
        """The event where the rule first appears (born, or present in the oldest edition)."""
        return self.events[-1] if self.events else None

    def numbers(self) -> tuple[str, ...]:
        """Every number the rule has had, newest first."""
        out: list[str] = []
        for event in self.events:
            for ident in event.followed or (*event.new_ids, *event.old_ids):
                if ident not in out:
                    out.append(ident)
        return tuple(out) or (self.rule,)


def rule_history(
    lineage: Lineage, rule_id: str, edition: int | None = None, printing: int = 1
) -> RuleHistory:
    """Events of ``rule_id`` (numbered as in edition index ``edition``, default the newest;
    ``printing``: which rule of a number that edition prints twice, the first by default).

    Walks back to where the rule was born (or the oldest edition) and forward to the
    newest edition (or its removal). The caller checks that the rule exists there.
    """
    k = len(lineage.editions) - 1 if edition is None else edition
    # Forward: what happened to it after edition k (newest events last).
    steps = range(k, len(lineage.steps))
    forward, _last = _walk(lineage, rule_id, printing, steps, forward=True)
    # Backward: how it came to be in edition k.
    backward, first = _walk(lineage, rule_id, printing, range(k - 1, -1, -1), forward=False)
    events = [*reversed(forward), *backward]
    if first is not None:  # there since the oldest edition
        events.append(HistoryEvent(lineage.editions[0].date, None, "added", (), (first,), 0.0))
    return RuleHistory(rule_id, lineage.editions[k].date, tuple(events))


def _cross(
    step: Step, rule_id: str, printing: int, forward: bool
) -> tuple[StepChange | None, str | None, int]:
    """Cross one step from ``rule_id`` (its ``printing``): the change that touched it
    (``None``: unchanged), its number on the other side (``None``: removed going forward,
    born going back) and which printing of that number it is there."""
    if forward:
        change = step.for_old(rule_id, printing)
        side = "new"
    else:
        change = step.for_new(rule_id, printing)
        side = "old"
    if change is None:
        return None, rule_id, printing
    printed = _printed(change, side)
    if change.links:  # a group of several old and new rules: only the rules it went to
        reached = change.new_ids_of(rule_id) if forward else change.old_ids_of(rule_id)
        printed = [item for item in printed if item[0] in reached]
    if not forward and change.trunk_old and printed:
        k = next((n for n, x in enumerate(_printed(change, "new")) if x == (rule_id, printing)), -1)
        chosen = [item for item in printed if k >= 0 and item[0] == change.trunk_old[k]]
        if chosen:
            return change, *chosen[0]
    return (change, *_trunk(printed)) if printed else (change, None, 1)


def _holds(parent: str, child: str) -> bool:
    """``child`` is numbered under ``parent`` (510 → 510.1, 310.2 → 310.2a)."""
    number = RuleId.try_parse(child)
    return number is not None and any(str(a) == parent for a in number.ancestors())


def _trunk(printed: list[tuple[str, int]]) -> tuple[str, int]:
    """The rule a walk follows through a group: the first in document order, except a
    heading or list intro joined with a rule numbered under it (a container folded into
    the rule that now heads its subrules), whose text and history that rule carries."""
    for ident, printing in printed:
        if not any(_holds(ident, other) for other, _ in printed):
            return ident, printing
    return printed[0]


def _walk(
    lineage: Lineage, rule_id: str, printing: int, steps: range, *, forward: bool
) -> tuple[list[HistoryEvent], str | None]:
    """The events of ``rule_id`` (its ``printing``) across ``steps`` (in walking order),
    and the number it has after the last one (``None`` when the walk ended at its
    removal or birth)."""
    events: list[HistoryEvent] = []
    current = rule_id
    for j in steps:
        step = lineage.steps[j]
        change, other, other_printing = _cross(step, current, printing, forward)
        old_id, new_id = (current, other) if forward else (other, current)
        examples = step.examples_of(new_id, old_id)
        if change is None and not examples:
            continue
        events.append(_event(step, change, old_id, new_id, examples))
        if other is None:
            return events, None
        current, printing = other, other_printing
    return events, current


def _event(
    step: Step,
    change: StepChange | None,
    old_id: str | None,
    new_id: str | None,
    examples: tuple[StepChange, ...],
) -> HistoryEvent:
    followed = tuple(ident for ident in (new_id, old_id) if ident)
    if change is None:
        return HistoryEvent(
            step.new.date,
            step.old.date,
            "unchanged",
            (old_id,) if old_id else (),
            (new_id,) if new_id else (),
            100.0,
            False,
            examples,
            followed=followed,
        )
    return HistoryEvent(
        step.new.date,
        step.old.date,
        change.kind,
        change.old_ids,
        change.new_ids,
        change.score,
        change.moved,
        examples,
        change.moved_text,
        change.links,
        followed,
    )


def trace_to(lineage: Lineage, rule_id: str, start: int, target: int) -> str | None:
    """The number that rule ``rule_id`` of edition ``start`` had (or has) in edition ``target``.

    ``None`` if it did not exist there (born later, or removed).
    """
    current: str | None = rule_id
    printing = 1
    forward = target >= start
    for j in range(start, target) if forward else range(start - 1, target - 1, -1):
        _change, current, printing = _cross(lineage.steps[j], current, printing, forward)  # type: ignore[arg-type]
        if current is None:
            return None
    return current


# --- texts for display -------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class EventDetail:
    """A history event with the rule's texts before and after it, and their word diff."""

    event: HistoryEvent
    old_text: str
    new_text: str
    words: tuple  # tuple[rulediff.diff.WordOp, ...]


def _rule_text(edition: Edition, ids: tuple[str, ...]) -> str:
    parts = []
    for ident in ids:
        rule = edition.rule(ident)
        if rule is not None:
            parts.append(rule.text)
        else:
            section = edition.section(ident) if ident.isdigit() and len(ident) == 1 else None
            if section is not None:
                parts.append(section.title)
    return "\n".join(parts)


def history_details(
    history: RuleHistory, load_date: Callable[[str], Edition]
) -> tuple[EventDetail, ...]:
    """Each event with its texts (``load_date`` loads an edition by its date)."""
    from .diff import word_diff

    out = []
    for event in history.events:
        new_text = _rule_text(load_date(event.date), event.new_ids) if event.new_ids else ""
        old_text = (
            _rule_text(load_date(event.previous), event.old_ids)
            if event.previous and event.old_ids
            else ""
        )
        out.append(EventDetail(event, old_text, new_text, word_diff(old_text, new_text)))
    return tuple(out)


def history_as_dict(history: RuleHistory, details: Sequence[EventDetail] = ()) -> dict[str, Any]:
    """The JSON document of ``rulediff history --format json``."""
    by_event = {id(d.event): d for d in details}
    events = []
    for event in history.events:
        item: dict[str, Any] = {
            "date": event.date,
            "previous": event.previous,
            "kind": event.kind,
            "old_ids": list(event.old_ids),
            "new_ids": list(event.new_ids),
            "score": event.score,
            "moved": event.moved,
            "examples": [
                {"kind": x.kind, "old_ids": list(x.old_ids), "new_ids": list(x.new_ids)}
                for x in event.examples
            ],
            "moved_text": [{"old_id": a, "new_id": b, "text": t} for a, b, t in event.moved_text],
            "links": [{"old_id": a, "new_id": b} for a, b in event.links],
        }
        detail = by_event.get(id(event))
        if detail is not None:
            item["text"] = detail.new_text or detail.old_text
            item["words"] = [{"op": w.op, "text": w.text} for w in detail.words]
        events.append(item)
    return {
        "format": "rulediff-history",
        "version": 1,
        "rule": history.rule,
        "edition": history.edition,
        "numbers": list(history.numbers()),
        "events": events,
    }
