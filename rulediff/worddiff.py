"""Word tokens and readable word diffs (shared by alignment and the diff)."""

from __future__ import annotations

import re
from collections.abc import Sequence

from rapidfuzz.distance import Indel

_TOKEN = re.compile(r"\w+(?:['\u2019]\w+)*|\s+|[^\w\s]")
#: The tokens of :data:`_TOKEN` other than whitespace runs (no whitespace token found
#: only to be dropped again).
_NONSPACE_TOKEN = re.compile(r"\w+(?:['\u2019]\w+)*|[^\w\s]")
_WORD = re.compile(r"\w")


def tokenize(text: str) -> list[str]:
    """Words (with inner apostrophes), runs of whitespace, and single punctuation marks."""
    return _TOKEN.findall(text)


def is_word(token: str) -> bool:
    return _WORD.match(token) is not None


Opcode = tuple[str, int, int, int, int]


def word_opcodes(a: Sequence[str], b: Sequence[str], *, island: int = 2) -> list[Opcode]:
    """Opcodes (``equal``/``replace``/``delete``/``insert``) between two token lists.

    The LCS alone leaves readable diffs full of confetti ("the", "of" kept between two
    rewrites); an equal run of at most ``island`` words between two changes is folded
    into one replacement, so every change reads as a phrase.
    """
    segments: list[list] = []
    for op in Indel.opcodes(list(a), list(b)):
        tag = "equal" if op.tag == "equal" else "change"
        seg = [tag, op.src_start, op.src_end, op.dest_start, op.dest_end]
        if segments and segments[-1][0] == tag == "change":
            segments[-1][2], segments[-1][4] = seg[2], seg[4]
        else:
            segments.append(seg)
    if island > 0 and len(segments) >= 3:
        merged: list[list] = []
        for k, seg in enumerate(segments):
            if (
                seg[0] == "equal"
                and 0 < k < len(segments) - 1
                and seg[2] - seg[1] <= 6 * island  # longer runs hold more words anyway
                and sum(1 for t in a[seg[1] : seg[2]] if is_word(t)) <= island
            ):
                seg = ["change", *seg[1:]]
            if merged and merged[-1][0] == seg[0] == "change":
                merged[-1][2], merged[-1][4] = seg[2], seg[4]
            else:
                merged.append(seg)
        segments = merged
    out: list[Opcode] = []
    for tag, i1, i2, j1, j2 in segments:
        if tag == "change":
            tag = "replace" if i1 < i2 and j1 < j2 else ("delete" if i1 < i2 else "insert")
        if i1 == i2 and j1 == j2:
            continue
        out.append((tag, i1, i2, j1, j2))
    return out


_chunk_memo: dict[tuple[str, str], list[tuple[str, str]]] = {}


def _chunks(old: str, new: str) -> list[tuple[str, str]]:
    """The changed phrases between two comparison texts, lowercased, without spaces."""
    found = _chunk_memo.get((old, new))
    if found is None:
        if len(_chunk_memo) > 20000:
            _chunk_memo.clear()
        found = _chunk_memo[(old, new)] = _compute_chunks(old, new)
    return found


def _compute_chunks(old: str, new: str) -> list[tuple[str, str]]:
    a = [t.lower() for t in _NONSPACE_TOKEN.findall(old)]
    b = [t.lower() for t in _NONSPACE_TOKEN.findall(new)]
    return [
        (" ".join(a[i1:i2]), " ".join(b[j1:j2]))
        for tag, i1, i2, j1, j2 in word_opcodes(a, b)
        if tag != "equal"
    ]
