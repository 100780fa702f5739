"""The detectors: one function per flag, each reading the text of an edition.

Every detector looks for the sentences that state a behaviour at their place in the
document (the rules below a heading, the state-based actions items, an enumerated list,
an "If …, …" clause), classifies them with small vocabularies, and returns the value
with those sentences as evidence. The flags themselves are declared in
:mod:`rulediff.flags.flagset`, each with its detector. When the text states two
incompatible things, or nothing at all, it returns :class:`Undetermined` with the
reason. None of them looks at the edition's date, file name or rule numbers' history:
a new edition is read the same way as an old one.
"""

from __future__ import annotations

import functools
import re
from collections import Counter
from collections.abc import Iterable
from dataclasses import dataclass

from ..clauses import parse_clauses
from ..model import Clause
from .registry import Decision, Outcome, Undetermined
from .text import NUMBER, EditionText, Hit, Scope, normalize, number_value, split_sentences

# --- helpers -----------------------------------------------------------------------------
_NEGATION = re.compile(
    r"\b(?:not|no|never|no longer|neither|nor|without)\b|n't\b|"
    r"\b(?:remain|remains|stay|stays|coexist)\b",
    re.I,
)
"""Words that turn a consequence around ("are not removed", "no player loses life")."""
_HISTORY = re.compile(
    r"\b(?:previously|no longer|older versions|earlier versions|obsolete|used to)\b", re.I
)
_VARIANT = re.compile(
    r"two-headed giant|\bteams?\b|vanguard|\bEDH\b|commander|archenemy|planechase|brawl|"
    r"multiplayer|emperor|\bsubgame\b|oathbreaker|conspiracy draft",
    re.I,
)


def decide(value: object, hits: Iterable[Hit], extra: Iterable[Hit] = ()) -> Decision:
    """A decision citing ``hits`` (then ``extra``): unique rules, unique sentences."""
    rules: list[str] = []
    sentences: list[str] = []
    for hit in [*hits, *extra]:
        if hit.where not in rules:
            rules.append(hit.where)
        if hit.sentence not in sentences:
            sentences.append(hit.sentence)
    return Decision(value, tuple(rules), " ".join(sentences[:3]))  # type: ignore[arg-type]


_IF = re.compile(r"^(?:[^,]{0,80}?,\s*)?\b(?:if|when|whenever|should|once)\b\s+", re.I)


def if_clause(sentence: str) -> tuple[str, str] | None:
    """``(condition, consequence)`` of an "If [condition], [consequence]" sentence.

    The condition ends at the first comma after "if" (the rules put none inside a
    condition of the clauses we read); ``None`` when the sentence is not so built.
    """
    m = _IF.search(sentence)
    if m is None:
        return None
    rest = sentence[m.end() :]
    comma = rest.find(",")
    if comma < 0:
        return None
    return rest[:comma], rest[comma + 1 :]


def condition_of(sentence: str) -> tuple[str, str] | None:
    """``(condition, consequence)`` of a sentence built "If [condition], [consequence]".

    The clause grammar's ``condition`` (from "If" to the comma that ends it) when it
    opens the sentence; otherwise the other conjunctions ("Should …, …", "When …, …") by
    :func:`if_clause`.
    """
    if not sentence.lstrip().startswith("If"):  # the grammar's condition opens with "If"
        return if_clause(sentence)
    for clause in parse_clauses(sentence):
        if clause.kind == "condition" and not sentence[: clause.start].strip():
            rest = sentence[clause.end :].lstrip()
            if not rest.startswith(","):  # "If …." with no consequence after a comma
                return None
            return sentence[clause.start + 2 : clause.end].strip(), rest[1:]
        if clause.kind != "text" or sentence[clause.start : clause.end].strip():
            break
    return if_clause(sentence)


# Phrases with a negative word that state a limit, not the opposite of the rule.
_IDIOMS = re.compile(
    r"\bno more than\b|\bnot more than\b|\(?but not (?:a |at the end of a )?steps?\)?|"
    r"\bnot only\b",
    re.I,
)


def clause_negated(norm: str, start: int, end: int) -> bool:
    """Whether the clause holding ``norm[start:end]`` says the opposite ("does not", "no",
    "need not", "can't"…): the clause runs from the previous , ; : to the next , ; ."""
    left = max(norm.rfind(c, 0, start) for c in ",;:") + 1
    ends = [i for i in (norm.find(c, end) for c in ",;.") if i >= 0]
    clause = _IDIOMS.sub(" ", norm[left : min(ends) if ends else len(norm)])
    return _NEGATION.search(clause) is not None


def negated(hit: Hit, *terms: str) -> bool:
    """Whether the clause a hit matched in (or the clause of any of ``terms``) is negated."""
    if clause_negated(hit.norm, hit.match.start(), hit.match.end()):
        return True
    for term in terms:
        m = re.search(term, hit.norm, re.I)
        if m and clause_negated(hit.norm, m.start(), m.end()):
            return True
    return False


def affirmed(hits: Iterable[Hit]) -> list[Hit]:
    """Current hits whose clause is not negated."""
    return [h for h in current(hits) if not negated(h)]


def current(hits: Iterable[Hit]) -> list[Hit]:
    """Hits that state the rules in force (not "previously …" history notes)."""
    return [h for h in hits if not _HISTORY.search(h.norm)]


def core(t: EditionText, hits: Iterable[Hit]) -> list[Hit]:
    """Hits about the ordinary two-player game, not a variant's modification of it.

    A hit is a variant's when its sentence names one, when its rule opens with a sentence
    that names one, or when a heading above its rule (rule title, section title) does:
    "903. Commander", "8. Multiplayer Rules".
    """
    return [h for h in hits if not _VARIANT.search(h.norm) and not t.in_variant(h.where)
            and not _opens_with_variant(t, h.where)]


def _opens_with_variant(t: EditionText, where: str) -> bool:
    """Whether a rule's first sentence names a variant: then the whole rule is about
    that variant (its later sentences need not name it again)."""
    first = t.sentences_of(where)[:1]
    return bool(first) and _VARIANT.search(normalize(first[0])) is not None


def classify(name: str, hits: Iterable[Hit], kinds: list[tuple[object, Terms]]) -> Outcome | None:
    """Put each hit in the first kind whose vocabulary it has; one kind → Decision.

    ``None`` when no hit matched any kind; :class:`Undetermined` when hits disagree.
    """
    votes: dict[object, list[Hit]] = {}
    contrary: list[Hit] = []
    for hit in hits:
        for value, terms in kinds:
            found = _compiled(terms[0]).search(hit.norm)
            if found and has_all(hit.norm, terms[1:]):
                if clause_negated(hit.norm, found.start(), found.end()):
                    contrary.append(hit)
                else:
                    votes.setdefault(value, []).append(hit)
                break
    if contrary:
        return Undetermined(
            f"{name}: a rule says the opposite of a known value, in words we do not read "
            "as another value",
            tuple(dict.fromkeys(h.where for h in contrary)),
            contrary[0].sentence,
        )
    if not votes:
        return None
    if len(votes) > 1:
        detail = "; ".join(f"{v!r} by {', '.join(h.where for h in hs)}" for v, hs in votes.items())
        first = [hs[0] for hs in votes.values()]
        return Undetermined(
            f"{name}: the text states conflicting values ({detail})",
            tuple(h.where for h in first),
            " ".join(h.sentence for h in first),
        )
    value, chosen = next(iter(votes.items()))
    return decide(value, chosen)


Terms = tuple[str, ...]
"""A small vocabulary: a sentence has it when every term (a short regex) occurs, in any
order. Used instead of one ordered pattern with wildcards between the words, so that a
reworded sentence that keeps the words is still read."""


def has_all(text: str, terms: Terms) -> bool:
    return all(_compiled(term).search(text) for term in terms)


def having(t: EditionText, *alternatives: Terms, key: str | tuple[str, ...],
           scopes: tuple[Scope, ...] = ()) -> list[Hit]:
    """Sentences that have one of the vocabularies (first term = the hit's match)."""
    out: list[Hit] = []
    seen: set[tuple[str, str]] = set()
    for scope in scopes or ("rules",):
        found: list[Hit] = []
        for terms in alternatives:
            for hit in t.find(terms[0], scope, key=key):
                if (hit.where, hit.norm) not in seen and has_all(hit.norm, terms[1:]):
                    seen.add((hit.where, hit.norm))
                    found.append(hit)
        out.extend(sorted(found, key=lambda h: h.order))  # document order
    return out


@functools.cache
def _compiled(term: str) -> re.Pattern[str]:
    return re.compile(term, re.I)


def _looked_at(t: EditionText, pattern: str, key: str | tuple[str, ...]) -> tuple[str, ...]:
    """The rules (first few) a detector read before giving up: cited by ``Undetermined``."""
    return tuple(dict.fromkeys(h.where for h in t.find(pattern, key=key)))[:6]


def _planeswalkers_exist(t: EditionText) -> bool:
    return t.mentions(r"\bplaneswalkers?\b", key="planeswalker")


@dataclass(frozen=True, slots=True)
class Enumeration:
    """An enumerated list (the clause grammar's ``list``) and the sentence holding it."""

    where: str
    sentence: str
    items: tuple[str, ...]

    def decide(self, value: object) -> Decision:
        return Decision(value, (self.where,), self.sentence)  # type: ignore[arg-type]


def _enumeration(
    t: EditionText, lead: str, key: str, *, place: str = "", scope: Scope = "rules"
) -> Enumeration | None:
    """The first list whose lead-in names ``lead`` ("There are seven zones:", "The card
    types are"), in the rules below the ``place`` headings, or in any rule of the
    ordinary game when there is no place or the document has no such heading
    (``scope="glossary"``: in any glossary definition)."""
    if scope == "rules":
        placed = t.below(place) if place else ()
        if placed:
            sources = [(where, t.rule_texts[where]) for where in placed]
        else:
            sources = [(where, text) for where, text in t.rule_texts.items()
                       if key in text.lower() and not t.in_variant(where)]
    else:
        sources = t.texts(scope)
    named = _compiled(lead)
    for where, text in sources:
        if key not in text.lower():
            continue
        for sentence in split_sentences(text):
            norm = normalize(sentence)
            for clause in parse_clauses(norm):
                if clause.kind == "list" and clause.children and named.search(clause.value or ""):
                    items = _items_of(norm, clause)
                    if items:
                        return Enumeration(where, sentence, items)
    return None


CARD_TYPES_PLACE = r"card types?|type line"


def _card_types(t: EditionText) -> Enumeration | None:
    """The list of the card types (cited too when a card type is absent)."""
    return _enumeration(t, r"\bcard types\b", "card type", place=CARD_TYPES_PLACE)


def _items_of(norm: str, clause: Clause) -> tuple[str, ...]:
    """The cleaned items of a ``list`` clause of ``norm``."""
    items = [c.value or norm[c.start : c.end] for c in clause.children]
    # "a, b and c" / "a and b": the last item may still hold the final "and".
    if " and " in items[-1] and not any(" and " in i for i in items[:-1]):
        items[-1:] = items[-1].split(" and ")
    cleaned = [_clean_item(i) for i in items]
    return tuple(i for i in cleaned if i)


def _clean_item(item: str) -> str:
    item = re.sub(r"^(?:and|or)\s+", "", item.strip())
    return item.strip().rstrip(".;,").strip().strip('"').strip()


# --- mana ----------------------------------------------------------------------------------
_MANA_LOST: tuple[Terms, ...] = (
    (r"\b(?:unused|unspent) mana\b", r"\b(?:is lost|lost|empties|emptied)\b"),
    (r"\bmana pools?\b", r"\b(?:empties|empty|emptied|is cleared|are cleared)\b",
     r"\b(?:phase|step)"),
)
_EMPTIES_KINDS: list[tuple[object, Terms]] = [
    ("step", (r"\b(?:step or phase|step and phase|phase or step|phase and step)\b",)),
    ("phase", (r"\bphase ends \(but not a step\)|\bwhen a phase ends\b|"
               r"\bend of (?:each|a) phase\b|\bas a phase ends\b",)),
]


#: Where the mana pool's emptying is written: the mana headings and the turn-structure
#: headings (a phase, a step, a turn, its turn-based actions).
MANA_POOL_PLACE = (
    r"mana(?: abilities| pools?)?|.*\b(?:turns?|phases?|steps?)\b.*|turn-based actions"
)


def _emptying(t: EditionText) -> list[Hit]:
    """The sentences at the mana pool's place that say unused mana leaves the pool at a
    time (a phase or step ending), in document order."""
    place = set(t.below(MANA_POOL_PLACE))
    hits = [
        h for h in core(t, current(having(t, *_MANA_LOST, key=("mana",))))
        if (h.where in place or not place) and "drain power" not in h.norm.lower()
    ]
    return [h for h in hits if re.search(r"\b(?:phase|step)\b", _when(h.norm), re.I)]


def _when(norm: str) -> str:
    """The time a sentence states: its "When/As/If …," condition, else the sentence."""
    split = condition_of(norm) or if_clause(re.sub(r"^As\b", "When", norm))
    return norm if split is None else split[0]


#: A consequence that costs the player life for the mana ("loses 1 life for each …").
_LIFE_LOSS: Terms = (r"\blos(?:e|es|ing|t)\b", r"\blife\b")
_CALLED_BURN = r"\bcalled [\"']?mana burn\b|\bmana burn is\b"
_ABOUT_MANA = r"\bmana burn\b|\b(?:unused|unspent) mana\b|\bmana (?:lost|left)\b|\bthis way\b"


#: A clause that limits a sentence to some situations: an exception, not the general rule.
_LIMITED = r"\b(?:while|unless|during|as long as|except)\b"


def _burn_reading(
    t: EditionText, emptying: list[Hit]
) -> tuple[list[Hit], list[Hit], list[Hit], list[Hit]]:
    """The sentences about life next to the emptying: in the rules that empty the pool,
    and, at the same place, those that speak of unused mana or mana burn. Each is read
    as a burn (a loss of life, "called mana burn"), its denial, an exception (a denial
    limited by a condition: "… while another player controls the turn"), or unread."""
    rules = set(dict.fromkeys(h.where for h in emptying))
    place = set(t.below(MANA_POOL_PLACE))
    burn: list[Hit] = []
    denied: list[Hit] = []
    unread: list[Hit] = []
    exceptions: list[Hit] = []
    candidates = [
        h for h in core(t, current(t.find(r"\blife\b|\bmana burn\b", key=("life", "mana burn"))))
        if h.where in rules
        or ((h.where in place or not place) and _compiled(_ABOUT_MANA).search(h.norm))
    ]
    for hit in candidates:
        called = _compiled(_CALLED_BURN).search(hit.norm)
        loss = _compiled(_LIFE_LOSS[0]).search(hit.norm)
        if called is not None or (loss is not None and has_all(hit.norm, _LIFE_LOSS)):
            found = called or loss
            assert found is not None
            if not clause_negated(hit.norm, found.start(), found.end()):
                burn.append(hit)
            elif condition_of(hit.norm) or _compiled(_LIMITED).search(hit.norm):
                exceptions.append(hit)
            else:
                denied.append(hit)
        elif re.search(r"\blife\b", hit.norm, re.I):
            (denied if _NEGATION.search(hit.norm) else unread).append(hit)
    return burn, denied, unread, exceptions


def mana_burn(t: EditionText) -> Outcome:
    """Whether unused mana costs its player life when it leaves the pool.

    Place: the mana and turn-structure headings. The sentences that empty the pool
    (:func:`_emptying`) name the rules; their sentences about life, and those at the
    same place about unused mana, are read as a loss of life (burn), its denial, or
    words not read (undetermined). Emptying with no word of life: no burn.
    """
    emptying = _emptying(t)
    if not emptying:
        return Undetermined("no rule says what happens to unused mana")
    burn, denied, unread, exceptions = _burn_reading(t, emptying)
    if burn and denied:
        return Undetermined(
            "mana_burn: one sentence costs life for unused mana, another denies it",
            (burn[0].where, denied[0].where), f"{burn[0].sentence} {denied[0].sentence}",
        )
    if burn:
        # Cite the emptying sentence (of the same rule if it has one) first: it says when
        # the burn happens.
        same = [h for h in emptying if h.where in {b.where for b in burn}]
        return decide(True, [*(same[:1] or emptying[:1]), *burn])
    if unread:
        return Undetermined(
            "the rule that empties the mana pool mentions life, but in no words read as "
            "mana burn or its absence",
            tuple(dict.fromkeys(h.where for h in unread)),
            unread[0].sentence,
        )
    if exceptions:
        return Undetermined(
            "a rule spares a player the loss of life for unused mana in some situations, "
            "but no rule states the general case",
            tuple(dict.fromkeys(h.where for h in exceptions)), exceptions[0].sentence,
        )
    if denied:
        return Decision(False, (denied[0].where,), f"{emptying[0].sentence} {denied[0].sentence}")
    obsolete = t.find(r"mana burn", "glossary", key="mana burn")
    return decide(False, emptying[:1], [h for h in obsolete if _HISTORY.search(h.norm)][:1])


def mana_empties(t: EditionText) -> Outcome:
    """When unused mana leaves the pool: at the end of each step, or of each phase only.

    The emptying sentences (:func:`_emptying`) are classified by the time they state.
    """
    emptying = _emptying(t)
    kinds: dict[object, list[Hit]] = {}
    for hit in emptying:
        when = _when(hit.norm)
        for value, terms in _EMPTIES_KINDS:
            if has_all(when, terms):
                kinds.setdefault(value, []).append(hit)
                break
    if len(kinds) > 1:
        detail = "; ".join(f"{v!r} by {', '.join(h.where for h in hs)}" for v, hs in kinds.items())
        first = [hs[0] for hs in kinds.values()]
        return Undetermined(
            f"mana_empties: the text states conflicting values ({detail})",
            tuple(h.where for h in first), " ".join(h.sentence for h in first),
        )
    if kinds:
        value, hits = next(iter(kinds.items()))
        return decide(value, hits)
    return Undetermined("no rule says when unused mana leaves the mana pool")


# --- combat --------------------------------------------------------------------------------
#: Where the stack is written (the zone, timing and priority) besides combat damage.
STACK_PLACE = r"(?:the )?stack|timing,? priority,? and the stack"
#: The main clause's subject: combat damage (or its assignments).
_COMBAT_SUBJECT = re.compile(
    r"^(?:all |the )?(?:assignments of |assigned )?(?:the )?combat damage\b", re.I
)
_ON_STACK: Terms = (r"\b(?:go|goes|is put|are put|uses?|resolves?)\b",
                    r"\b(?:the|a) stack\b|\bpseudospell\b")
#: A leading phrase before the main clause ("Second,", "After assignment,").
_LEADING = re.compile(r"^(?:\w+\s+){0,3}\w+,\s*")


def _denies_stack(norm: str) -> bool:
    """Whether a sentence says, in a negated clause, that something uses the stack."""
    m = re.search(r"\buses? the stack\b", norm, re.I)
    return m is not None and clause_negated(norm, m.start(), m.end())


def _main_clause(norm: str) -> str:
    """The clause after an "If/Once …," condition or a short leading phrase."""
    split = condition_of(norm)
    if split is not None:
        return split[1].strip()
    return _LEADING.sub("", norm, count=1)


def combat_damage_uses_stack(t: EditionText) -> Outcome:
    """Whether combat damage goes on the stack (true) or is dealt without it (false).

    Place: the rules below the combat damage and stack headings (any rule of the ordinary
    game without them). There, a main clause whose subject is combat damage and whose
    verb puts it on (or resolves it from) the stack says true; a rule of the combat
    damage step that deals the damage and says, in a negated clause, that this does not
    use the stack says false. Both: undetermined.
    """
    place = set(t.below(COMBAT_DAMAGE_PLACE)) | set(t.below(STACK_PLACE))
    damage_place = set(t.below(COMBAT_DAMAGE_PLACE))
    sentences = [h for h in core(t, current(t.find(r"\bcombat damage\b", key="combat damage")))
                 if h.where in place or not place]
    on_stack: list[Hit] = []
    for hit in sentences:
        main = _main_clause(hit.norm)
        subject = _COMBAT_SUBJECT.match(main)
        if subject is None or not has_all(main[subject.end():], _ON_STACK):
            continue
        verb = _compiled(_ON_STACK[0]).search(main, subject.end())
        assert verb is not None
        if not clause_negated(main, verb.start(), verb.end()):
            on_stack.append(hit)
    dealt: list[Hit] = []
    evidence: list[str] = []
    for hit in sentences:
        if damage_place and hit.where not in damage_place:
            continue
        if not has_all(hit.norm, (r"\bis dealt\b", r"\b(?:simultaneously|at once)\b")):
            continue
        rule = t.sentences_of(hit.where)
        denial = [s for s in rule if _denies_stack(normalize(s))]
        if denial:
            between = [s for s in rule if s != hit.sentence and s not in denial
                       and has_all(normalize(s), (r"\bassigned\b", r"\bdealt\b"))]
            dealt.append(hit)
            evidence = [hit.sentence, *denial[:1], *between[:1]]
            break
    if on_stack and dealt:
        return Undetermined(
            "combat_damage_uses_stack: one rule puts combat damage on the stack, another "
            "deals it without the stack",
            (on_stack[0].where, dealt[0].where),
            f"{on_stack[0].sentence} {dealt[0].sentence}",
        )
    if on_stack:
        return decide(True, on_stack)
    if dealt:
        return Decision(False, (dealt[0].where,), " ".join(dict.fromkeys(evidence)))
    return Undetermined("no rule says how combat damage is dealt")


#: Where combat damage is written: the combat damage step's heading.
COMBAT_DAMAGE_PLACE = r"combat damage(?: step)?"
#: The rule's subject: a blocked creature, assigning its damage.
_BLOCKED_ASSIGNS = re.compile(
    r"^(?:each |a )?blocked creature (?:will |must |can )?assigns?\b", re.I
)
#: The two ways the damage goes to several blockers: down an order, or divided freely.
_IN_ORDER = r"\b(?<!any )order\b(?! to\b)"
_DIVIDED: Terms = (
    r"\bdivid(?:e|es|ed|ing)\b",
    r"\bas (?:its |the |his or her |their )?(?:controller |player )?(?:chooses|wishes|sees fit)\b|"
    r"\bas (?:he or she|they) chooses?\b",
)


def _blocked_assignment_rules(t: EditionText) -> list[str]:
    """The rules below the combat damage headings (any rule of the ordinary game without
    them) that open a sentence with a blocked creature assigning its damage."""
    place = set(t.below(COMBAT_DAMAGE_PLACE))
    return list(dict.fromkeys(
        h.where for h in core(t, t.find(r"\bblocked creature\b", key="blocked creature"))
        if (h.where in place or not place) and _BLOCKED_ASSIGNS.match(h.norm)
    ))


def damage_assignment_order(t: EditionText) -> Outcome:
    """Whether a creature blocked by several assigns its damage down an order (true) or
    divides it as its controller chooses (false).

    Place: :func:`_blocked_assignment_rules`. There, each sentence's consequence (the
    part after an "If …," condition, else the sentence) is read for an order or for a
    division as the controller chooses; the first rule read decides. An order named
    only in negated clauses, or both ways at once, is undetermined.
    """
    rules = _blocked_assignment_rules(t)
    if not rules:
        return Undetermined("no rule says how a blocked creature assigns its combat damage")
    for where in rules:
        order: list[str] = []
        denied: list[str] = []
        divided: list[str] = []
        for sentence in t.sentences_of(where):
            norm = normalize(sentence)
            split = condition_of(norm)
            consequence = norm if split is None else split[1]
            offset = len(norm) - len(consequence)
            named = list(_compiled(_IN_ORDER).finditer(consequence))
            if named:
                if all(clause_negated(norm, offset + m.start(), offset + m.end()) for m in named):
                    denied.append(sentence)
                else:
                    order.append(sentence)
            if has_all(consequence, _DIVIDED):
                found = _compiled(_DIVIDED[0]).search(consequence)
                assert found is not None
                if clause_negated(norm, offset + found.start(), offset + found.end()):
                    denied.append(sentence)
                else:
                    divided.append(sentence)
        if order and divided:
            return Undetermined(
                "the rule for blocked creatures names both an order and a free division",
                (where,), f"{order[0]} {divided[0]}",
            )
        if order:
            return Decision(True, (where,), order[0])
        if denied:
            return Undetermined(
                "the rule for blocked creatures names a damage assignment order only to deny it",
                (where,), denied[0],
            )
        if divided:
            return Decision(False, (where,), divided[0])
    opening = [s for s in t.sentences_of(rules[0]) if _BLOCKED_ASSIGNS.match(normalize(s))]
    return Undetermined(
        "the rule for blocked creatures names neither an order nor a free division",
        (rules[0],),
        opening[0] if opening else "",
    )


# --- uniqueness rules --------------------------------------------------------------------
_UNIQUE_KINDS: list[tuple[object, Terms]] = [
    ("controller-chooses", (r"\bchooses one of them\b",)),
    ("oldest-stays", (r"\ball except the one\b", r"\blongest\b")),
    ("all-die", (r"\ball (?:of (?:them|those \w+) )?(?:are put|go) into\b",)),
    ("all-die", (r"\beach\b", r"\bis put into its owner's graveyard")),
]


def legend_rule(t: EditionText) -> Outcome:
    hits = [
        h
        for h in current(
            having(t, (r"\bsame name\b", r"\blegend(?:s|ary)?\b", r"\bgraveyards?\b"),
                   key="same name")
        )
        if "planeswalker" not in h.norm.lower() and not h.norm.lower().startswith("in the event of")
    ]
    # Where the document has a list of state-based actions, the legend rule is one of its
    # items: sentences elsewhere (variants, glossary-like asides) do not decide it.
    items = set(t.sba_items())
    listed = [h for h in hits if h.where in items]
    if items and listed:
        hits = listed
    result = classify("legend_rule", hits, _UNIQUE_KINDS)
    return (
        result
        if result is not None
        else Undetermined("no rule says what happens to legendary permanents with the same name")
    )


def planeswalker_uniqueness(t: EditionText) -> Outcome:
    hits = current(
        t.find(
            r"\bplaneswalkers? (?:that|which) share a planeswalker type\b|"
            r"\bplaneswalkers with the same (?:planeswalker )?(?:sub)?type\b",
            key="planeswalker",
        )
    )
    hits = [h for h in hits if re.search(r"graveyard", h.norm, re.I)]
    items = set(t.sba_items())
    listed = [h for h in hits if h.where in items]
    if items and listed:  # the rule's place: an item of the state-based actions list
        hits = listed
    result = classify("planeswalker_uniqueness", hits, _UNIQUE_KINDS)
    if result is not None:
        return result
    removed = having(t, (r"planeswalker uniqueness rule", r"\bpreviously\b"), key="uniqueness")
    if removed:
        return decide("absent", removed)
    if not _planeswalkers_exist(t):
        types = _card_types(t)
        if types is not None:
            return types.decide("absent")
        return Decision("absent", (), "no rule mentions planeswalkers")
    return Undetermined(
        "planeswalkers exist but no rule could be read as limiting (or not limiting) "
        "planeswalkers that share a planeswalker type",
        _looked_at(t, r"\bplaneswalker (?:type|uniqueness)", "planeswalker"),
    )


def planeswalker_damage_redirection(t: EditionText) -> Outcome:
    # "If noncombat damage would be dealt to a player …, [someone] may have it dealt to a
    # planeswalker … instead": the condition names noncombat damage to a player, the
    # consequence a planeswalker and a redirection.
    votes: dict[bool, list[Hit]] = {}
    for hit in current(t.find(r"\bnoncombat damage\b", key="noncombat damage")):
        clause = condition_of(hit.norm)
        if clause is None:
            continue
        condition, consequence = clause
        if not (re.search(r"\bnoncombat damage\b", condition, re.I)
                and re.search(r"\b(?:player|opponent)\b", condition, re.I)
                and re.search(r"\bplaneswalkers?\b", consequence, re.I)
                and re.search(r"\binstead\b|\bredirect", hit.norm, re.I)):
            continue
        votes.setdefault(not _NEGATION.search(consequence), []).append(hit)
    if len(votes) == 1:
        value, hits = next(iter(votes.items()))
        return decide(value, hits)
    if votes:
        return Undetermined(
            "planeswalker_damage_redirection: the rules both allow and forbid the redirection",
            tuple(hs[0].where for hs in votes.values()),
            " ".join(hs[0].sentence for hs in votes.values()),
        )
    removed = having(t, (r"\bpreviously\b", r"planeswalkers", r"redirect"), key="previously")
    if removed:
        return decide(False, removed)
    if not _planeswalkers_exist(t):
        types = _card_types(t)
        if types is not None:
            return types.decide(False)
        return Decision(False, (), "no rule mentions planeswalkers")
    return Undetermined(
        "planeswalkers exist but no rule could be read as letting (or not letting) damage "
        "dealt to a player be dealt to a planeswalker instead",
        tuple(dict.fromkeys(
            h.where for h in having(t, (r"\bplaneswalkers?\b", r"\bdamage\b"), key="planeswalker")
        ))[:6],
    )


# --- mulligan ------------------------------------------------------------------------------
#: What a mulligan does after the new hand is drawn: put cards on the bottom of the
#: library, or look at the top card (scry).
_BOTTOM: Terms = (r"\bbottom\b", r"\blibrary\b")
_LOOK = r"\bscry\b|\btop card\b"
#: Cards put back that scale with the mulligans taken: the hand drawn was a full one.
_PER_MULLIGAN = r"\b(?:for each|per|each) mulligan\b|\bnumber of (?:times|mulligans)\b"


def _new_hand_size(hit: Hit, usual: Outcome) -> str | None:
    """``"smaller"`` or ``"full"``: the words after "new hand", up to the clause's end.

    "one fewer card" is smaller; "cards equal to [their] starting hand size" is full; a
    number is compared with ``usual``, the starting hand size the same document states
    (none stated: not read).
    """
    rest = re.split(r"[,;.]", hit.norm[hit.match.end():], maxsplit=1)[0]
    if re.search(r"\bfewer\b", rest, re.I):
        return "smaller"
    if has_all(rest, (r"\bequal to\b", r"\bstarting hand size\b")):
        return "full"
    drawn = _number_by(hit.norm, hit.match, False)
    if drawn is None or not isinstance(usual, Decision) or not isinstance(usual.value, int):
        return None
    if drawn == usual.value:
        return "full"
    return "smaller" if drawn < usual.value else None


def mulligan(t: EditionText) -> Outcome:
    """The ordinary two-player mulligan, read where the game's start is described.

    Place: the rules below "Starting the Game" (any rule when the document has no such
    heading) that speak of the mulligan, minus sentences about variants. There, the
    new hand is read as smaller or full, and what follows as putting cards on the
    bottom or looking at the top card: full (or of a size not read, when the cards put
    back scale with the mulligans taken) + bottom is London, smaller + a look at
    the top card (for a hand smaller than the starting one) is Vancouver, smaller and
    nothing else is Paris; anything else is undetermined.
    """
    place = set(t.below(r"starting the game"))
    how = [
        h for h in core(t, t.find(r"\bmulligan", key="mulligan"))
        if h.where in place or not place
    ]
    if not how:
        return Undetermined("no rule describes the mulligan")
    rules = list(dict.fromkeys(h.where for h in how))
    sentences = core(t, [h for h in t.find(r".", key=("hand", "library", "scry", "top card"))
                         if h.where in rules])
    usual = starting_hand_size(t)
    sizes = [(h, _new_hand_size(h, usual))
             for h in core(t, [h for h in t.find(r"\bnew hand\b", key="new hand")
                               if h.where in rules])]
    bottom = [h for h in sentences if has_all(h.norm, _BOTTOM)]
    look = [h for h in sentences if re.search(_LOOK, h.norm, re.I)]
    if any(negated(h, _BOTTOM[0]) for h in bottom):
        return Undetermined(
            "the mulligan rule speaks of the bottom of the library in a negated clause",
            tuple(dict.fromkeys(h.where for h in bottom)),
            bottom[0].sentence,
        )
    full = [h for h, size in sizes if size == "full"]
    smaller = [h for h, size in sizes if size == "smaller"]
    scaled = [h for h in bottom if re.search(_PER_MULLIGAN, h.norm, re.I)]
    drawn = full or [h for h, size in sizes if size is None]
    if bottom and not smaller and (full or (scaled and drawn)):
        return decide("london", drawn, [h for h in bottom if h not in drawn])
    if smaller and not full:
        scry = [h for h in look if re.search(r"\bfewer\b", h.norm, re.I)]
        if scry:
            return decide("vancouver", smaller[:1], scry[:1])
        if not bottom and not look:
            return decide("paris", smaller[:1])
        unread = tuple(dict.fromkeys(h.where for h in (*bottom, *look)))
        return Undetermined(
            "the mulligan rule draws a smaller hand, then does something with the library that "
            "reads neither as Paris nor as Vancouver",
            unread,
            smaller[0].sentence,
        )
    return Undetermined(
        "the mulligan rule states neither a smaller hand nor a full one with cards put on "
        "the bottom",
        tuple(rules),
        (sizes[0][0] if sizes else how[0]).sentence,
    )


# --- layers --------------------------------------------------------------------------------
#: Where the layers are written.
LAYERS_PLACE = r"interaction of continuous effects|continuous effects|layers?(?: system)?"
#: A sublayer's label: "(6e)", "Layer 7d:".
_SUBLAYER = re.compile(r"(?:\(|\blayer\s+)(\d[a-z])\)?:?", re.I)
_SWITCHES: Terms = (r"\bswitch(?:es|ing)?\b", r"\bpower\b", r"\btoughness\b")
_KNOWN_SUBLAYERS = ("6e", "7e", "7d")
#: Words that put the effects on characteristics in order ("starting with …, then …").
_ORDER_WORDS = r"\b(?:then|next|last|finally|after that)\b"


def _sublayer_items(norm: str) -> list[tuple[str, str]]:
    """``(label, text)`` of each labelled item of a sentence: from a sublayer's label to
    the next label (or the sentence's end)."""
    labels = list(_SUBLAYER.finditer(norm))
    return [
        (m.group(1).lower(), norm[m.end() : labels[i + 1].start() if i + 1 < len(labels) else None])
        for i, m in enumerate(labels)
    ]


def pt_switch_sublayer(t: EditionText) -> Outcome:
    """The sublayer of effects that switch power and toughness, or timestamp order.

    Place: the rules below the layers' headings ("Interaction of Continuous Effects";
    any rule without them). There, the labelled item ("(6e) …", "Layer 7d: …") whose
    text is about switching power and toughness gives the sublayer. Without one, a rule
    that has switching effects apply "normally" (in timestamp order), or, when no rule
    speaks of switching at all, the rule that orders the effects on characteristics,
    says timestamp.
    """
    place = set(t.below(LAYERS_PLACE))
    sentences = [h for h in current(t.find(r"\bswitch", key="switch"))
                 if h.where in place or not place]
    named: list[tuple[str, Hit]] = []
    contrary: list[Hit] = []
    for hit in sentences:
        for label, item in _sublayer_items(hit.norm):
            if has_all(item, _SWITCHES):
                if _NEGATION.search(item):
                    contrary.append(hit)
                else:
                    named.append((label, hit))
    if contrary:
        return Undetermined(
            "a sublayer's item about switching power and toughness is negated",
            (contrary[0].where,), contrary[0].sentence,
        )
    values = {label for label, _ in named}
    hits = [hit for _, hit in named]
    if len(values) > 1:
        return Undetermined(
            f"pt_switch_sublayer: the text names several sublayers ({sorted(values)})",
            tuple(h.where for h in hits),
            " ".join(h.sentence for h in hits[:2]),
        )
    if values:
        value = values.pop()
        if value not in _KNOWN_SUBLAYERS:
            return Undetermined(
                f"switch effects are in sublayer {value}, which is not a known value",
                (hits[0].where,),
                hits[0].sentence,
            )
        return decide(value, hits[:1])
    normally = [h for h in sentences
                if has_all(h.norm, (r"\bswitching effects?\b", r"\bnormally\b")) and not negated(h)]
    if normally:
        return decide("timestamp", normally)
    if not any(has_all(h.norm, _SWITCHES) for h in t.find(r"\bswitch", key="switch")):
        order = [h for h in having(t, (r"\bstarting with\b", _ORDER_WORDS, r"\bcharacteristics?\b"),
                                   key="starting with")
                 if h.where in place or not place]
        if order:
            return decide("timestamp", order[:1])
    return Undetermined("no rule says where effects that switch power and toughness apply")


# --- keywords ------------------------------------------------------------------------------
_ABILITY_KINDS: list[tuple[object, Terms]] = [
    ("static", (r"\bstatic abilit(?:y|ies)\b",)),
    ("triggered", (r"\btriggered abilit(?:y|ies)\b",)),
]


def _keyword_kind(t: EditionText, keyword: str) -> Outcome:
    """Whether a keyword ability is static or triggered.

    Place: the rules below the keyword's own heading ("702.2. Deathtouch"), or, in a
    document without it, any rule. There, the sentences whose subject is the keyword
    (they open with it) are classified by the kind of ability they name; a definition
    clause ("Deathtouch" means "…") of the same rule is cited with them.
    """
    place = set(t.below(keyword))
    subject = re.compile(rf"^[\"']?{keyword}\b", re.I)
    hits = [
        h
        for h in current(t.find(rf"\b{keyword}\b", key=keyword))
        if (h.where in place or not place) and subject.match(h.norm)
    ]
    result = classify(keyword, hits, _ABILITY_KINDS)
    if isinstance(result, Decision):
        where = result.rules[0]
        defined = [
            s for s in t.sentences_of(where)
            if any(c.kind == "definition" and (c.value or "").lower() == keyword
                   for c in parse_clauses(normalize(s)))
        ]
        if defined and defined[0] not in result.evidence:
            return Decision(result.value, result.rules, f"{result.evidence} {defined[0]}")
        return result
    if result is not None:
        return result
    if not t.mentions(rf"\b{keyword}\b", key=keyword):
        return Decision("absent", (), f"no rule mentions {keyword}")
    return Undetermined(
        f"{keyword} is mentioned but no rule says what kind of ability it is",
        tuple(sorted(place))[:6],
    )


def deathtouch(t: EditionText) -> Outcome:
    return _keyword_kind(t, "deathtouch")


def lifelink(t: EditionText) -> Outcome:
    return _keyword_kind(t, "lifelink")


# --- costs, turn structure ---------------------------------------------------------------
_WHILE = re.compile(r"^(?:while|as long as)\s+(?P<condition>[^,]+),(?P<consequence>.+)$", re.I)


def x_in_alternative_and_additional_costs(t: EditionText) -> Outcome:
    """What X stands for while a spell is on the stack.

    Place: the rules below "Numbers and Symbols" (any rule without that heading). The
    rule is a "While [condition], [consequence]" sentence whose condition is a spell on
    the stack and whose consequence speaks of an X in the mana cost; the consequence
    then names alternative or additional costs too (true), or not (false).
    """
    place = set(t.below(r"numbers and symbols"))
    hits = []
    for hit in t.find(r"\bon the stack\b", key="on the stack"):
        split = _WHILE.match(hit.norm)
        if (split is not None and (hit.where in place or not place)
                and has_all(split["condition"], (r"\bspell\b", r"\bon the stack\b"))
                and has_all(split["consequence"], (r"\{?\bX\b\}?", r"\bmana cost\b"))):
            hits.append(hit)
    if not hits:
        return Undetermined("no rule says what X equals while a spell is on the stack")
    alt: list[Hit] = []
    for hit in hits:
        for m in re.finditer(r"alternative costs?|additional costs?", hit.norm, re.I):
            if clause_negated(hit.norm, m.start(), m.end()):
                return Undetermined(
                    "a rule names alternative or additional costs in a negated clause",
                    (hit.where,),
                    hit.sentence,
                )
            alt.append(hit)
    if alt:
        return decide(True, alt)
    return decide(False, hits)


#: Where ending the turn is written: its own heading ("Ending the Turn", "Ending Turns
#: and Phases"); the cleanup step's heading is read too once the topic is there.
END_TURN_PLACE = r"ending (?:the )?turns?(?: and phases)?"
CLEANUP_PLACE = r"cleanup(?: step)?"
_ENDS_TURN = r"\bend(?:s|ed|ing)? the turn\b"
_CLEANUP = r"\bcleanup step\b"
#: A consequence that brings the cleanup step round again.
_AGAIN = r"\b(?:new|another|further|second|additional|again|repeats?|repeated)\b"
#: A sentence that sends the game on to the cleanup step (the procedure's step).
_SKIP_TO: Terms = (r"\b(?:skips?|jumps?|proceeds?|goes|moves?)\b(?: \w+)? to the cleanup step\b",)


def _end_turn_rules(t: EditionText) -> list[str]:
    """The rules about an effect ending the turn: below their heading; without one, the
    rules whose sentences speak of ending the turn, and their subrules."""
    place = [w for w in t.below(END_TURN_PLACE) if not t.in_variant(w)]
    if place:
        return place
    said = core(t, current(t.find(_ENDS_TURN, key="the turn")))
    topic = list(dict.fromkeys(h.where for h in said))
    return [w for w in t.rule_texts if w in topic or t.parent_of(w) in topic]


def cleanup_repeats_after_end_turn(t: EditionText) -> Outcome:
    """Whether a turn ended during the cleanup step gets another cleanup step.

    Place: the rules on ending the turn (:func:`_end_turn_rules`). There, an "If/Should
    [an effect ends the turn during the cleanup step], [another cleanup step]" sentence
    says true (negated: undetermined); without one, the procedure that sends the game
    straight to the cleanup step says false. A sentence that speaks of the cleanup step
    coming again in another shape is not read: undetermined.
    """
    rules = _end_turn_rules(t)
    if not rules:
        return Undetermined("no rule describes an effect ending the turn")
    inside = set(rules) | set(t.below(CLEANUP_PLACE))
    sentences = [h for h in current(t.find(_CLEANUP, key="cleanup step")) if h.where in inside]
    again: list[Hit] = []
    contrary: list[Hit] = []
    unread: list[Hit] = []
    for hit in sentences:
        split = condition_of(hit.norm)
        if split is not None and has_all(split[0], (_ENDS_TURN, _CLEANUP)) and has_all(
            split[1], (_CLEANUP, _AGAIN)
        ):
            cleanup = _compiled(_CLEANUP).search(split[1])
            assert cleanup is not None
            if clause_negated(split[1], cleanup.start(), cleanup.end()):
                contrary.append(hit)
            else:
                again.append(hit)
        elif has_all(hit.norm, (_AGAIN,)) and len(_compiled(_CLEANUP).findall(hit.norm)) > 1:
            unread.append(hit)
    if contrary:
        return Undetermined(
            "the rule on ending the turn during cleanup is negated",
            tuple(h.where for h in contrary),
            contrary[0].sentence,
        )
    if again:
        return decide(True, again)
    if unread:
        return Undetermined(
            "a rule on ending the turn speaks of the cleanup step again, in words not read "
            "as a condition and its consequence",
            tuple(h.where for h in unread), unread[0].sentence,
        )
    skip = [h for h in sentences if has_all(h.norm, _SKIP_TO) and not negated(h)]
    if skip:
        return decide(False, skip[:1])
    return Undetermined(
        "the rules on ending the turn neither repeat the cleanup step nor send the game "
        "straight to it", tuple(rules)[:6],
    )


# --- terms ---------------------------------------------------------------------------------
#: The two names of a card's total mana.
_MANA_VALUE_TERMS = r"(mana value|converted mana cost)"
#: Where the term is defined: the heading of the mana cost.
MANA_COST_PLACE = r"mana costs?(?: and colou?rs?)?"


def mana_value_term(t: EditionText) -> Outcome:
    """The name of the total mana in a cost: the term the rules define, else the one in use.

    Place: the rules below the "Mana Cost" headings (any rule without them). There, a
    definition is a sentence whose subject is the term "of" an object ("The T of an
    object is …"); two definitions naming different terms decide nothing. Without a
    definition, the term the rules use (by far the more often) is the value.
    """
    place = set(t.below(MANA_COST_PLACE))
    subject = re.compile(rf"^the {_MANA_VALUE_TERMS} of (?:an? |the |each )?[\w/-]+ is\b", re.I)
    defined = [
        h for h in current(t.find(rf"\b{_MANA_VALUE_TERMS}\b", key=("mana value", "converted")))
        if (h.where in place or not place) and subject.match(h.norm)
    ]
    names = {subject.match(h.norm).group(1).lower() for h in defined}  # type: ignore[union-attr]
    if len(names) == 1:
        return decide(names.pop(), defined[:1])
    if names:
        return Undetermined(
            "mana_value_term: the rules define both terms",
            tuple(dict.fromkeys(h.where for h in defined)), defined[0].sentence,
        )
    counts: Counter[str] = Counter()
    first: dict[str, Hit] = {}
    for hit in current(
        t.find(r"\b(mana value|converted mana cost)s?\b", key=("mana value", "converted mana cost"))
    ):
        name = hit.group(1).lower()
        counts[name] += 1
        first.setdefault(name, hit)
    if not counts:
        return Undetermined("no rule names the mana value of an object")
    (top, n), *rest = counts.most_common()
    if rest and rest[0][1] * 4 > n:
        return Undetermined(f"both terms are in use ({dict(counts)})")
    return decide(top, [first[top]])


def commander_zone_change(t: EditionText) -> Outcome:
    # "If a commander is in exile (or a graveyard) …, its owner may put it into the command
    # zone" (a state: checked as a state-based action) versus "If a commander would be put
    # into a graveyard / exiled …, … command zone instead" (a replacement effect).
    state: list[Hit] = []
    replacement: list[Hit] = []
    for hit in current(t.find(r"\bcommand zone\b", key="command zone")):
        clause = condition_of(hit.norm)
        if clause is None:
            continue
        condition, consequence = clause
        if not re.search(r"\b(?:commander|general)\b", condition, re.I):
            continue
        if not re.search(r"\bgraveyard|\bexile", condition, re.I):
            continue  # a commander going to a hand or a library: not this flag's question
        if _NEGATION.search(_IDIOMS.sub(" ", consequence)):
            continue  # "may not …": neither way back, which this flag cannot say
        if re.search(r"\bwould\b", condition, re.I) and re.search(
            r"\binstead\b", consequence, re.I
        ):
            replacement.append(hit)
        elif re.search(r"\b(?:is|are) in (?:a |the |its owner's )?(?:graveyard|exile)", condition,
                       re.I):
            state.append(hit)
    if state:
        return decide("state-based-action", state)
    if replacement:
        return decide("replacement", replacement)
    if not having(
        t,
        (r"\b(?:EDH|commander)\b", r"\bvariant\b"),
        (r"\bcommander game\b",),
        (r"\bcommand zone\b", r"\b(?:commander|general)\b"),
        key=("edh", "commander", "general"),
    ) and not any(re.fullmatch(r"commander|edh", normalize(x).strip(), re.I)
                  for x in t.titles.values()):
        return Decision("absent", (), "no rule describes the Commander (or EDH) variant")
    return Undetermined(
        "the Commander variant exists but no rule says how a commander returns to the "
        "command zone",
        _looked_at(t, r"\bcommand zone\b", "command zone"),
    )


def _zone_list(t: EditionText) -> Enumeration | None:
    """The list of the zones: below the "Zones" heading, the list whose lead-in names them."""
    found = _enumeration(t, r"\bzones\b", "zone", place=r"zones")
    if found is None:
        return None
    return Enumeration(found.where, found.sentence, tuple(i.lower() for i in found.items))


def exile_zone_name(t: EditionText) -> Outcome:
    zones = _zone_list(t)
    if zones is None:
        return Undetermined("no rule lists the zones")
    if "exile" in zones.items:
        return zones.decide("exile")
    if any(re.fullmatch(r"removed[- ]from[- ](?:the[- ])?game", i) for i in zones.items):
        return zones.decide("removed-from-game")
    return Undetermined(
        "the list of zones names neither exile nor removed from the game",
        (zones.where,),
        zones.sentence,
    )


def battlefield_term(t: EditionText) -> Outcome:
    zones = _zone_list(t)
    if zones is None:
        return Undetermined("no rule lists the zones")
    if "battlefield" in zones.items:
        return zones.decide("battlefield")
    if "in play" in zones.items:
        return zones.decide("in play")
    return Undetermined(
        "the list of zones names neither the battlefield nor in play", (zones.where,),
        zones.sentence,
    )


#: Where deck construction is written: its own heading, else the game's opening section.
SIDEBOARD_PLACE = r"deck construction|constructed(?: play| decks?)?|sideboards?|decks?|" \
    r"game concepts|the game"
#: The words before a number that say it is a limit ("no more than fifteen") or a size
#: ("exactly fifteen"); read backwards from the number, at most three words.
_AT_MOST = ("no more than", "not more than", "up to", "at most", "a maximum of", "maximum of")
_EXACTLY = ("exactly", "precisely")
_NUMBER_WORD = re.compile(rf"\b{NUMBER}\b", re.I)


def _sideboard_sizes(t: EditionText) -> tuple[list[Hit], list[Hit], list[Hit], list[Hit]]:
    """The sentences at the sideboard's place that give it fifteen cards: read as a limit,
    as an exact size, negated, or with a quantifier that is neither."""
    place = set(t.below(SIDEBOARD_PLACE))
    up_to: list[Hit] = []
    exactly: list[Hit] = []
    contrary: list[Hit] = []
    other: list[Hit] = []
    for hit in core(t, current(t.find(r"\bsideboards?\b", key="sideboard"))):
        if place and hit.where not in place:
            continue
        for number in _NUMBER_WORD.finditer(hit.norm):
            if number_value(number.group()) != 15:
                continue
            if not re.match(r"\s+cards?\b", hit.norm[number.end():], re.I):
                continue
            before = " ".join(_WORD.findall(hit.norm[: number.start()])[-3:]).lower()
            if clause_negated(hit.norm, number.start(), number.end()):
                contrary.append(hit)
            elif before.endswith(_AT_MOST):
                up_to.append(hit)
            elif before.endswith(_EXACTLY):
                exactly.append(hit)
            else:
                other.append(hit)
    return up_to, exactly, contrary, other


def sideboard_up_to_15(t: EditionText) -> Outcome:
    """Whether a sideboard holds up to fifteen cards (true) or exactly fifteen (false).

    Place: the rules below the deck-construction headings (the game's opening section in
    documents without them), minus variants. There, the number fifteen written before
    "cards" in a sentence about the sideboard is read by the words in front of it.
    """
    up_to, exactly, contrary, other = _sideboard_sizes(t)
    if contrary:
        return Undetermined(
            "a rule about the sideboard's size is negated", (contrary[0].where,),
            contrary[0].sentence,
        )
    if other:
        return Undetermined(
            "a rule gives the sideboard fifteen cards in words read neither as 'up to' nor "
            "as 'exactly'", (other[0].where,), other[0].sentence,
        )
    if up_to and exactly:
        return Undetermined(
            "the text states both 'up to' and 'exactly' fifteen sideboard cards",
            (up_to[0].where, exactly[0].where),
            f"{up_to[0].sentence} {exactly[0].sentence}",
        )
    if up_to:
        return decide(True, up_to)
    if exactly:
        return decide(False, exactly)
    return Undetermined("no rule states the size of a sideboard")


# --- lists ---------------------------------------------------------------------------------
def _listed(t: EditionText, noun: str, concept: str) -> Outcome:
    """A list of names: the rule's list whose lead-in is "The {noun} are", else the
    glossary's list whose lead-in names the {noun} ("… is as follows:")."""
    scopes: tuple[Scope, ...] = ("rules", "glossary")
    for scope in scopes:
        found = _enumeration(t, rf"\b{noun}\b", noun, scope=scope)
        if found is not None:
            return found.decide(tuple(sorted(set(found.items))))
    # Two names need no serial comma ("The cog types are Big and Small."), which the
    # grammar's list does not take: the words after "are", split at the one "and".
    pairs = t.find(
        rf"\bthe {noun} are\s+(?P<first>[^,;.]+?)\s+and\s+(?P<second>[^,;.]+)\.$", key=noun
    )
    if pairs:
        names = {_clean_item(pairs[0].group("first")), _clean_item(pairs[0].group("second"))}
        return decide(tuple(sorted(names)), pairs[:1])
    return Undetermined(f"the text mentions {concept} but lists no {noun}")


def planeswalker_types(t: EditionText) -> Outcome:
    result = _listed(t, "planeswalker types", "planeswalkers")
    if isinstance(result, Undetermined) and not _planeswalkers_exist(t):
        types = _card_types(t)
        if types is not None:
            return types.decide(())
        return Decision((), (), "no rule mentions planeswalkers")
    return result


def ability_words(t: EditionText) -> Outcome:
    result = _listed(t, "ability words", "ability words")
    if isinstance(result, Undetermined) and not t.mentions(
        r"\bability words?\b", "rules", "glossary", key="ability word"
    ):
        return Decision((), (), "no rule or glossary entry mentions ability words")
    return result


# --- numbers -------------------------------------------------------------------------------
@dataclass(frozen=True, slots=True)
class Quantity:
    """A number the rules state about one term, and the place where they state it."""

    name: str
    what: str
    place: str
    """Heading titles (a regex, whole title) the rule sits below; in a document without
    any such heading, every rule of the ordinary game is read instead."""
    terms: Terms
    """The quantity's names (short regexes); a sentence states it with any one."""
    key: tuple[str, ...]
    number_first: bool = False
    """The number stands before the term ("ten or more poison counters")."""
    outcome: str = ""
    """A consequence the sentence must state about the quantity ("loses the game")."""
    sba: bool = False
    """The items of the state-based actions list are a place of the rule too."""


#: Words that may stand between a term and its number: "life total *of* 20", "hand size,
#: *which is normally* seven", "(normally 8)"; any other word means the number is not the
#: term's ("reduced *by* one").
_LINK_AFTER = frozenset({"is", "of", "to", "normally", "which", "usually", "equal", "equals",
                         "be", "always", "set", "starts", "at"})
_LINK_BEFORE = frozenset({"or", "more"})
_WORD = re.compile(r"[A-Za-z0-9]+(?:-[A-Za-z0-9]+)*|[;.:]")
_IS_NUMBER = re.compile(rf"{NUMBER}", re.I)


def _number_by(norm: str, term: re.Match[str], number_first: bool) -> int | None:
    """The number written next to ``term`` in ``norm``, joined to it only by link words."""
    if number_first:
        words = list(reversed(_WORD.findall(norm[: term.start()])))
        links = _LINK_BEFORE
    else:
        words = _WORD.findall(norm[term.end() :])
        links = _LINK_AFTER
    for word in words[:5]:
        if _IS_NUMBER.fullmatch(word):
            return number_value(word)
        if word.lower() not in links:
            return None
    return None


def _quantity(t: EditionText, q: Quantity) -> Outcome:
    """Read a :class:`Quantity`: the sentences at its place that give the term a number.

    With an ``outcome``, the sentence must state it: after the condition that holds the
    term when the sentence is built "If/Should [condition], [consequence]", else after the
    term. A negated term or outcome is the opposite of the rule: undetermined.
    """
    place = set(t.below(q.place)) | (set(t.sba_items()) if q.sba else set())
    stated: list[tuple[int, Hit]] = []
    contrary: list[Hit] = []
    for term in q.terms:
        for hit in core(t, current(t.find(term, key=q.key))):
            if place and hit.where not in place:
                continue
            value = _number_by(hit.norm, hit.match, q.number_first)
            if value is None:
                continue
            negative = clause_negated(hit.norm, hit.match.start(), hit.match.end())
            if q.outcome:
                split = condition_of(hit.norm)
                after = hit.norm[hit.match.end():] if split is None else split[1]
                if split is not None and not re.search(term, split[0], re.I):
                    continue  # the term is in the consequence: not this rule's shape
                said = _compiled(q.outcome).search(after)
                if said is None:
                    continue
                negative = negative or clause_negated(after, said.start(), said.end())
            if negative:
                contrary.append(hit)
            else:
                stated.append((value, hit))
    if contrary:
        return Undetermined(
            f"{q.name}: a rule stating {q.what} is negated", (contrary[0].where,),
            contrary[0].sentence,
        )
    values: dict[int, list[Hit]] = {}
    for value, hit in sorted(stated, key=lambda vh: vh[1].order):
        if hit not in values.get(value, []):
            values.setdefault(value, []).append(hit)
    if not values:
        where = f" below the headings ({q.place})" if place else ""
        return Undetermined(f"no rule{where} states {q.what}", tuple(sorted(place))[:6])
    if len(values) > 1:
        detail = ", ".join(f"{v} ({hs[0].where})" for v, hs in sorted(values.items()))
        return Undetermined(
            f"{q.name}: the text states several values: {detail}",
            tuple(hs[0].where for hs in values.values()),
            " ".join(hs[0].sentence for hs in values.values()),
        )
    value, chosen = next(iter(values.items()))
    return decide(value, chosen[:2])


STARTING_LIFE = Quantity(
    "starting_life", "the starting life total", r"starting the game|life",
    (r"\blife totals?\b",), ("life total",),
)
MAX_HAND_SIZE = Quantity(
    "max_hand_size", "the maximum hand size", r"hand|cleanup step",
    (r"\bmaximum hand size\b",), ("maximum hand size",),
)
POISON_THRESHOLD = Quantity(
    "poison_threshold", "how many poison counters lose the game",
    r"winning and losing|ending the game|counters",
    (r"\bpoison counters\b",), ("poison counters",),
    number_first=True, outcome=r"\bloses? the game\b", sba=True,
)
STARTING_HAND_SIZE = Quantity(
    "starting_hand_size", "the starting hand size", r"starting the game|hand",
    (r"\bstarting hand size\b", r"\bdraws? a hand\b"), ("starting hand size", "a hand"),
)


def starting_life(t: EditionText) -> Outcome:
    return _quantity(t, STARTING_LIFE)


def max_hand_size(t: EditionText) -> Outcome:
    return _quantity(t, MAX_HAND_SIZE)


def poison_threshold(t: EditionText) -> Outcome:
    return _quantity(t, POISON_THRESHOLD)


def starting_hand_size(t: EditionText) -> Outcome:
    return _quantity(t, STARTING_HAND_SIZE)


# --- more terms (added where the text supports them) --------------------------------------
def _term(
    t: EditionText, name: str, heading: str, kinds: list[tuple[str, str]], key: tuple[str, ...]
) -> Outcome:
    """A term the rules use: the heading that names it, else the only one in use."""
    titled = [
        (rid, title)
        for rid, title in t.titles.items()
        if re.fullmatch(heading, normalize(title).strip(), re.I)
    ]
    for value, pattern in kinds:
        for rid, title in titled:
            if re.search(pattern, normalize(title), re.I):
                return Decision(value, (rid,), title)
    counts: dict[str, list[Hit]] = {}
    for value, pattern in kinds:
        hits = current(t.find(pattern, key=key))
        if hits:
            counts[value] = hits
    if len(counts) == 1:
        value, hits = next(iter(counts.items()))
        return decide(value, hits[:1])
    if not counts:
        return Undetermined(f"{name}: no rule uses any of the terms")
    return Undetermined(
        f"{name}: the text uses several terms "
        f"({', '.join(f'{v}: {len(h)}' for v, h in counts.items())})"
    )


def state_based_term(t: EditionText) -> Outcome:
    return _term(
        t,
        "state_based_term",
        r"state-based (?:effects|actions)",
        [
            ("state-based actions", r"\bstate-based actions?\b"),
            ("state-based effects", r"\bstate-based effects?\b"),
        ],
        ("state-based",),
    )


def spell_verb(t: EditionText) -> Outcome:
    return _term(
        t,
        "spell_verb",
        r"(?:playing|casting) spells(?: and activated abilities)?",
        [
            ("cast", r"\bcast(?:s|ing)? (?:a |the |that )?spells?\b|\bcasting spells\b"),
            ("play", r"\bplay(?:s|ing|ed)? (?:a |the |that )?spells?\b|\bplaying spells\b"),
        ],
        ("spell",),
    )


_CARD_TYPE_HEADING = re.compile(
    r"(?:artifact|creature|enchantment|instant|land|sorcer(?:y|ie)|planeswalker|"
    r"tribal|kindred)s?",
    re.I,
)
_BASIC_CARD_TYPES = {"artifact", "creature", "enchantment", "instant", "land", "sorcery"}


def _card_type_headings(t: EditionText) -> tuple[str, list[tuple[str, str]]] | None:
    """The headings that name the card types one each ("212.1. Artifacts" … "212.7. Sorceries").

    Older layouts enumerate the card types as the headings under one parent instead of
    a list sentence. Found by structure: the parent whose heading children include every
    basic card type. Returns the parent and its card-type headings.
    """
    by_parent: dict[str, list[tuple[str, str]]] = {}
    for rid, title in t.titles.items():
        name = normalize(title).strip()
        if _CARD_TYPE_HEADING.fullmatch(name):
            by_parent.setdefault(t.parent_of(rid), []).append((rid, name))
    for parent, headings in by_parent.items():
        kinds = {re.sub(r"ies$", "y", re.sub(r"(?<!ie)s$", "", h.lower())) for _, h in headings}
        if _BASIC_CARD_TYPES <= kinds:
            return parent, headings
    return None


def kindred_type_name(t: EditionText) -> Outcome:
    types = _card_types(t)
    if types is not None:
        items = {i.lower() for i in types.items}
        for name in ("kindred", "tribal"):
            if name in items:
                return types.decide(name)
        return types.decide("absent")
    # Older layouts give each card type a heading ("212.8. Tribals") instead of a list.
    headings = _card_type_headings(t)
    if headings is not None:
        parent, named = headings
        for rid, title in named:
            m = re.fullmatch(r"(tribal|kindred)s?", title, re.I)
            if m:
                return Decision(m.group(1).lower(), (rid,), title)
        return Decision(
            "absent",
            (parent,),
            "the card type headings ("
            + ", ".join(f"{rid} {title}" for rid, title in named)
            + ") name neither tribal nor kindred cards",
        )
    for rid, title in t.titles.items():
        m = re.fullmatch(r"(tribal|kindred)s?", normalize(title).strip(), re.I)
        if m:
            return Decision(m.group(1).lower(), (rid,), title)
    return Undetermined(
        "no list or headings of the card types to look for tribal or kindred in",
        _looked_at(
            t, r"\bcard types?\b|\btribal\b|\bkindred\b", ("card type", "tribal", "kindred")
        ),
    )


# --- counters (added for the engine) -------------------------------------------------------
_REMOVAL = re.compile(
    r"\b(?:removed?|removes|cancel(?:s|led|ed)?|annihilat\w*|taken off)\b", re.I
)


def counter_annihilation(t: EditionText) -> Outcome:
    """Whether +1/+1 and -1/-1 counters on one permanent cancel as a state-based action.

    Place: the items of the state-based actions list and the rules below the "Counters"
    heading (any rule in a document with neither). There, a sentence about one permanent
    with both kinds of counters is read as removing them or keeping them.
    """
    sba = t.sba_items()
    place = set(sba) | set(t.below(r"counters"))
    # The topic: a sentence about one permanent with both kinds of counters.
    both = [
        h
        for h in current(t.find(r"\+1/\+1 counters?", key=("-1/-1",)))
        if re.search(r"-1/-1 counters?", h.norm) and (h.where in place or not place)
    ]
    votes: dict[bool, list[Hit]] = {}
    for hit in both:
        if _REMOVAL.search(hit.norm):
            votes.setdefault(not _NEGATION.search(hit.norm), []).append(hit)
    if len(votes) == 1:
        value, hits = next(iter(votes.items()))
        return decide(value, hits[:1])
    if votes:
        return Undetermined(
            "counter_annihilation: one rule removes the pairs of counters, another keeps them",
            tuple(hs[0].where for hs in votes.values()),
            " ".join(hs[0].sentence for hs in votes.values()),
        )
    if both:
        return Undetermined(
            "a rule speaks of +1/+1 and -1/-1 counters on one permanent but says nothing "
            "that reads as removing them or keeping them",
            tuple(dict.fromkeys(h.where for h in both))[:6],
            both[0].sentence,
        )
    anywhere = [h for h in t.find(r"\+1/\+1 counters?", key=("-1/-1",))
                if re.search(r"-1/-1 counters?", h.norm)]
    if sba and not anywhere:  # the topic is absent: no rule puts both counters on one permanent
        listing = t.parent_of(sba[0])
        return Decision(
            False,
            (listing,),
            "no rule speaks of +1/+1 and -1/-1 counters on the same permanent, and the list "
            f"of state-based actions ({listing}) has no such item",
        )
    if anywhere:
        return Undetermined(
            "+1/+1 and -1/-1 counters on one permanent are spoken of, but neither in the "
            "state-based actions nor below the Counters heading",
            tuple(dict.fromkeys(h.where for h in anywhere))[:6],
        )
    return Undetermined("no list of state-based actions to look for the counter rule in")
