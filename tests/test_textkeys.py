"""Comparison keys (:mod:`rulediff.textkeys`): the typography key against its regex form.

``typography_key`` collapses every run of whitespace and quotes that holds a quote with
``str`` methods; the regex it replaced (``\\s*'(?:\\s*')*\\s*`` → ``'``, then whitespace
runs → one space) is kept here as the oracle.
"""

from __future__ import annotations

import re

from hypothesis import given, settings
from hypothesis import strategies as st

from rulediff.textkeys import _TYPO_CLASS, letter_words, typography_key
from tests.conftest import corpus_edition

_QUOTE_RUN = re.compile(r"\s*'(?:\s*')*\s*")


def _regex_key(text: str) -> str:
    """The typography key as a regex over the text (how it was written before)."""
    text = _TYPO_CLASS.sub("'", text.replace("\u2026", "..."))
    if "'" in text:
        text = _QUOTE_RUN.sub("'", text)
    return " ".join(text.split())


# Letters, every kind of whitespace the texts hold (and a few they do not), quotes,
# dashes, "?" and the ellipsis: the characters the key treats specially.
_ALPHABET = "ab1 '\"`\u2019\u201c\u201d-\u2014?\n\t\r\u00a0\u2009\u3000\u2026."


@settings(max_examples=400)
@given(st.text(alphabet=_ALPHABET, max_size=40))
def test_typography_key_is_the_regex_form(text: str) -> None:
    assert typography_key.__wrapped__(text) == _regex_key(text)


def test_typography_key_collapses_quote_runs() -> None:
    assert typography_key("a ' ' b") == "a'b"
    assert typography_key("  'x' ") == "'x'"
    assert typography_key("it\u2019s \u201c done \u201d\n now") == "it's'done'now"
    assert typography_key("one  -  two") == "one'two"
    assert typography_key("no quote\there") == "no quote here"


def test_typography_key_of_an_edition_is_the_regex_form() -> None:
    edition = corpus_edition("2008-05-01")  # prints "?" for every quote and dash
    texts = [rule.text for rule in edition.rules] + [e.text for e in edition.glossary]
    assert len(texts) > 1000
    assert [typography_key.__wrapped__(t) for t in texts] == [_regex_key(t) for t in texts]


# --- letter_words: one memoized regex pass per text (round 22: speed) -----------------


@settings(max_examples=300)
@given(st.text(alphabet="abzAZ09 _-'\u00e9\u00df.\n", max_size=50))
def test_letter_words_are_the_findall_of_letter_runs(text: str) -> None:
    assert letter_words.__wrapped__(text) == tuple(re.findall(r"[a-z]+", text))


def test_letter_words_of_an_edition_are_the_findall() -> None:
    edition = corpus_edition("2015-01-23")
    lowers = [rule.text.lower() for rule in edition.rules]
    assert len(lowers) > 1000
    assert [letter_words(t) for t in lowers] == [tuple(re.findall("[a-z]+", t)) for t in lowers]
