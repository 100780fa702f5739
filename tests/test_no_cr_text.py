"""No rules text in the repository: no tracked file shares a run of 10 words with any edition.

The project ships no Comprehensive Rules text, not even in tests (a test that needs real
text names an edition and a rule id and reads it from the corpus at run time). This test
indexes every word 10-gram of every corpus edition once, then looks up every 10-word
window of every file ``git ls-files`` lists.

Words are what an edition and a copy of it share whatever the typography: lowercase runs
of ``[a-z0-9]`` (a curly apostrophe becomes straight, and both split words).

Building the index is fast because editions repeat each other: each distinct line of the
corpus, together with the nine words that follow it, is windowed once, however many
editions contain it. Run ``python tests/test_no_cr_text.py [FILE…]`` to list the runs.
"""

from __future__ import annotations

import os
import re
import subprocess
import sys
from collections.abc import Iterable
from pathlib import Path

import pytest

from rulediff.ingest import ingest_file

N = 10
_WORD = re.compile(r"[a-z0-9]+")
ROOT = Path(__file__).resolve().parent.parent


def words(text: str) -> list[str]:
    """The words of ``text`` as the scan compares them."""
    return _WORD.findall(text.lower().replace("\u2019", "'"))


def _windows(tokens: list[str], starts: int | None = None) -> Iterable[int]:
    """Hashes of the 10-word windows of ``tokens`` starting before ``starts``."""
    if len(tokens) < N:
        return ()
    limit = len(tokens) - N + 1 if starts is None else min(starts, len(tokens) - N + 1)
    return map(hash, zip(*(tokens[i : limit + i] for i in range(N)), strict=True))


def corpus_index(folder: Path) -> set[int]:
    """Hashes of every word 10-gram of every edition in ``folder`` (windows may cross lines)."""
    index: set[int] = set()
    tokens_of: dict[str, list[str]] = {}
    seen: set[tuple[str, tuple[str, ...]]] = set()
    for path in sorted(folder.glob("*.txt")):
        lines = ingest_file(path).text.split("\n")
        per_line = []
        for line in lines:
            found = tokens_of.get(line)
            if found is None:
                found = tokens_of[line] = words(line)
            if found:
                per_line.append((line, found))
        following: tuple[str, ...] = ()
        for line, tokens in reversed(per_line):  # each line with the 9 words after it
            key = (line, following)
            if key not in seen:
                seen.add(key)
                index.update(_windows([*tokens, *following], len(tokens)))
            following = (*tokens, *following)[: N - 1]
    return index


def tracked_files(root: Path = ROOT) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", "-z"], cwd=root, check=True, capture_output=True
    ).stdout.decode()
    return [root / name for name in out.split("\0") if name and (root / name).is_file()]


def runs_in(text: str, index: set[int]) -> list[str]:
    """The maximal runs of 10+ words of ``text`` found in the corpus index."""
    tokens = words(text)
    hits = [h in index for h in _windows(tokens)]
    runs: list[str] = []
    i = 0
    while i < len(hits):
        if hits[i]:
            j = i
            while j + 1 < len(hits) and hits[j + 1]:
                j += 1
            runs.append(" ".join(tokens[i : j + N]))
            i = j + 1
        else:
            i += 1
    return runs


def _corpus() -> Path:
    value = os.environ.get("RULEDIFF_CORPUS")
    folder = Path(value) if value else None
    if folder is None or not any(folder.glob("*.txt")):
        pytest.fail("RULEDIFF_CORPUS must point at the CR corpus (../shared/corpus/mtg-cr)")
    return folder


@pytest.fixture(scope="module")
def index() -> set[int]:
    return corpus_index(_corpus())


def test_the_scan_finds_a_copied_rule(index):
    """The index holds real text: a line of the newest edition is found, crossing lines too."""
    newest = sorted(_corpus().glob("*.txt"))[-1]
    lines = [ln for ln in ingest_file(newest).text.split("\n") if len(words(ln)) >= 12]
    assert lines, newest
    assert runs_in(f"Quoting: {lines[len(lines) // 2]} (end)", index)
    # The last words of one line and the first of the next are a run too.
    text = ingest_file(newest).text.split("\n")
    pairs = [(a, b) for a, b in zip(text, text[1:], strict=False)
             if len(words(a)) >= 6 and len(words(b)) >= 6]
    a, b = pairs[len(pairs) // 2]
    assert runs_in(" ".join(words(a)[-5:] + words(b)[:5]), index)
    assert not runs_in("a paraphrase that we wrote ourselves about mana and the stack today",
                       index)


def test_no_tracked_file_holds_rules_text(index):
    found: dict[str, int] = {}
    for path in tracked_files():
        data = path.read_bytes()
        if b"\0" in data:  # binary
            continue
        runs = runs_in(data.decode("utf-8", errors="replace"), index)
        if runs:
            found[str(path.relative_to(ROOT))] = len(runs)
    assert not found, "runs of 10+ words of rules text: " + ", ".join(
        f"{name} ({count})" for name, count in sorted(found.items()))


if __name__ == "__main__":  # list the runs: python tests/test_no_cr_text.py [FILE…]
    idx = corpus_index(Path(os.environ["RULEDIFF_CORPUS"]))
    paths = [Path(p).resolve() for p in sys.argv[1:]] or tracked_files()
    for p in paths:
        raw = p.read_bytes()
        if b"\0" in raw:
            continue
        for run in runs_in(raw.decode("utf-8", errors="replace"), idx):
            print(f"{p.relative_to(ROOT)}: {len(run.split())}w: {run}")
