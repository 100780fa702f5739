"""A sentence whose counterpart says all but its case words, said whole by a free rule."""

from __future__ import annotations

from rulediff.align import align
from rulediff.sentences import _add_pieces_holding_dropped_words

from .conftest import corpus_edition
from .test_align import BASE, by_old
from .test_align_surplus import pieces_added_by

RULE = "100.3. The player with the tallest widget chooses who takes the first turn."
#: The old rule names two cases of who keeps a lent widget.
OLD = BASE.replace(
    RULE,
    f"{RULE} The keeper of a widget lent by a referee is that referee. The keeper of a "
    "widget lent by another player is that player, even after the loan ends.",
)
#: The counterpart keeps the general case and drops the referee; a free subrule keeps it.
GENERAL = (
    "100.3. The player with the tallest widget chooses who takes the first turn. Whenever "
    "another player has lent a widget, the keeper of that widget is the lending player, "
    "even after the loan ends."
)
REFEREE = "100.3a If a referee lent a widget, the keeper of the widget is that referee."
TABLE = "100.3b If a widget was lent by the table, the keeper of that widget is the host."


def _pieces_added(new_body: str) -> dict[str, list[str]]:
    return pieces_added_by(_add_pieces_holding_dropped_words, OLD, new_body)


def test_the_free_rule_holding_the_dropped_case_words_is_a_piece() -> None:
    new = BASE.replace(RULE, f"{GENERAL}\n\n{REFEREE}\n\n{TABLE}")
    assert _pieces_added(new) == {"100.3": ["100.3", "100.3a"]}


def test_no_piece_when_the_dropped_words_are_said_twice_or_only_reused() -> None:
    # Two free rules name the referee: the text does not decide which case it is.
    twice = REFEREE.replace("100.3a", "100.3b").replace("lent a", "has seen a")
    new = BASE.replace(RULE, f"{GENERAL}\n\n{REFEREE}\n\n{twice}")
    assert _pieces_added(new) == {}
    # The free rule holds the words but in another statement: far apart in letters.
    reused = (
        "100.3a A referee keeps a record of every widget that is lent, and of who the "
        "keeper is, and a referee that has lent one says so."
    )
    assert _pieces_added(BASE.replace(RULE, f"{GENERAL}\n\n{reused}")) == {}


def test_a_spell_case_sentence_goes_to_its_own_rule_in_the_corpus() -> None:
    # 2008-07-15 -> 2024-06-07: the old delayed-trigger source rule names the case of a
    # spell and of another ability; the counterpart keeps the ability case and the spell
    # case is a rule of its own beside it.
    a = align(corpus_edition("2008-07-15"), corpus_edition("2024-06-07"))
    assert set(by_old(a, "404.4e").new_ids) == {"603.7d", "603.7e"}
