"""Rules opening on one subject phrase: pieces of a split, and free rules in place."""

from __future__ import annotations

import pytest

from rulediff.align import align

from .conftest import corpus_edition
from .test_align import BASE, by_old, edition, matched_pairing

HEAD = "\n3. Spinning\n\n300. Spinning Widgets\n\n300.1. Some widgets spin faster than others.\n"
LAST = "A widget that stops spinning goes back to its owner's shelf at the end of the turn."
# The old rule opens on its case (a golden widget), checks the pile, then doubles it.
GOLDEN_OLD = (
    "If the spinning widget is a golden widget, its spin has two parts. First, the player "
    "checks whether the pile beside it is still full. If so, the golden widget doubles the "
    "tokens in that pile, and otherwise it stops."
)
# The new edition checks the pile for every widget, and gives the golden case its own rule.
CHECK_NEW = (
    "If the spinning widget has a pile beside it, the player checks whether that pile is "
    "still full. If it isn't, the widget stops."
)
GOLDEN_NEW = (
    "If the spinning widget is a golden widget, that widget doubles every token in the "
    "pile beside it."
)
OLD = BASE + f"{HEAD}\n300.2. {GOLDEN_OLD}\n\n300.3. {LAST}\n"


def _new(golden: str, *more: str) -> str:
    rules = [CHECK_NEW, golden, *more, LAST]
    return BASE + HEAD + "".join(f"\n300.{k}. {text}\n" for k, text in enumerate(rules, 2))


def _pieces(old: str, new: str) -> dict[str, list[str]]:
    """The splits :func:`rulediff.sentences._add_pieces_opening_on_its_subject` makes by itself
    once rules and headings are matched, the old golden rule matched to the new check."""
    from rulediff.sentences import _add_pieces_opening_on_its_subject

    p = matched_pairing(old, new)
    i, j = p.old_by_place["300.2"], p.new_by_place["300.2"]
    for k in (i, p.n2o[j]):
        if k >= 0:
            p.withdraw(k)
    p.pair(i, j, 60.0, "structure")
    splits: dict[int, list[int]] = {}
    _add_pieces_opening_on_its_subject(p, splits, {})
    return {p.old[k].id: [p.new[x].id for x in pieces] for k, pieces in splits.items()}


def test_free_rule_opening_on_the_old_rules_subject_is_a_piece_of_it() -> None:
    assert _pieces(OLD, _new(GOLDEN_NEW)) == {"300.2": ["300.2", "300.3"]}
    # end to end, the golden case is a piece too
    a = align(edition(OLD), edition(_new(GOLDEN_NEW)))
    assert set(by_old(a, "300.2").new_ids) == {"300.2", "300.3"}


def test_opening_said_by_another_rule_too_is_no_subject() -> None:
    # a second new rule opens on the golden case as well: the phrase is no one rule's
    # subject, and the text does not decide which of them took the case
    paint = "If the spinning widget is a golden widget, nobody may paint it."
    assert _pieces(OLD, _new(GOLDEN_NEW, paint)) == {}
    # nor when it says one word more of the old opening ("its"): the words past what the
    # other rule shares name no subject
    polish = "If the spinning widget is a golden widget, its owner may polish it first."
    assert _pieces(OLD, _new(GOLDEN_NEW, polish)) == {}


@pytest.mark.parametrize(
    ("old", "new", "rule", "pieces", "opening"),
    [
        # the mutating creature spell's resolution: the target check for every spell, and
        # the merge of the mutating spell in a rule of its own
        ("2020-07-03", "2026-01-16", "608.3b", {"608.3b", "608.3d"}, 11),
        # an object's timestamp: its exceptions now one subrule each
        ("2008-10-01", "2009-10-01", "418.5e", {"613.6c", "613.6d", "613.6g"}, 14),
        # an object that changes zones is a new object: the statement opens the rule of
        # its exceptions now, one of which stands in a subrule
        ("2004-10-01", "2026-06-19", "217.1c", {"400.7", "400.7e"}, 9),
        # effects that change targets: the statement, and the rule for changing them
        ("2009-10-01", "2010-02-01", "113.6", {"113.6", "113.6a"}, 9),
    ],
)
def test_corpus_pieces_opening_on_the_old_rules_subject(
    old: str, new: str, rule: str, pieces: set[str], opening: int
) -> None:
    from rulediff.textkeys import letter_words

    a = align(corpus_edition(old), corpus_edition(new))
    assert set(by_old(a, rule).new_ids) == pieces
    # the premise: the piece opens on the old rule's first words, which the rule's other
    # counterparts do not
    said = letter_words(corpus_edition(old).rule(rule).text.lower())[:opening]
    openers = [
        k
        for k in sorted(pieces)
        if letter_words(corpus_edition(new).rule(k).text.lower())[:opening] == said
    ]
    assert len(openers) == 1, openers


@pytest.mark.parametrize(
    ("old", "new"), [("2013-09-27", "2019-05-03"), ("2010-06-18", "2016-07-22")]
)
def test_free_rules_opening_on_one_phrase_under_matched_parents_need_no_rare_word(
    old: str, new: str
) -> None:
    """The rule on beginning to cast a spell was rewritten from a prohibition to a
    permission and renumbered within its rule. Its opening phrase stands in no other rule,
    but every content word of it stands in many: the free-to-free pass asks a rare word
    of rules placed nowhere, not of two rules under matched parents."""
    from rulediff.pairing import _content_words
    from rulediff.sentences import SHARED_OPENING_RARE
    from rulediff.textkeys import letter_words

    old_rule, new_rule = corpus_edition(old).rule("601.5"), corpus_edition(new).rule("601.3")
    said = letter_words(old_rule.text.lower())[:9]
    assert letter_words(new_rule.text.lower())[:9] == said
    assert str(old_rule.id.parent) == str(new_rule.id.parent) == "601"

    def rules_saying(edition: str, word: str) -> int:
        return sum(
            word in letter_words(r.text.lower())
            for r in corpus_edition(edition).body
            if getattr(r, "text", None)
        )

    content = sorted(_content_words(" ".join(said)))
    assert content and all(
        max(rules_saying(old, w), rules_saying(new, w)) > SHARED_OPENING_RARE for w in content
    )
    a = align(corpus_edition(old), corpus_edition(new))
    assert by_old(a, "601.5").new_ids == ("601.3",)
