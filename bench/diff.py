"""Changelog benchmark: rulediff's HTML changelog, cold and warm, against difflib.HtmlDiff.

    python bench/diff.py [--corpus DIR] [--old 2015-01-23] [--new 2025-11-14] [--repeat N]

In one process, on the same two files:

* **cold** — no cache at all: parse both editions, align, diff, render the standalone
  HTML changelog as ``rulediff diff OLD NEW --format html`` writes it (its default,
  ``--no-embed-texts``: the changes, rule numbers unlinked); the in-process memos of the
  previous round are emptied before the clock starts;
* **cold, texts embedded** — the same with both full texts embedded in the page
  (``--embed-texts``, so every rule number links offline: about twice the HTML, the
  library's default);
* **warm** — the on-disk cache filled by an earlier run (in-process memo emptied, so the
  editions and the diff are read back from disk), then render the changes (and, for
  the embedded variant, read the two rendered full texts back);
* **difflib** — read and decode both files, split lines, and
  ``difflib.HtmlDiff().make_file(a_lines, b_lines, context=True)``.

Prints each time (best of ``--repeat`` interleaved rounds), cold/difflib and
warm/difflib (targets: ≤ 0.5 and ≤ 0.1; both variants are held to them), and a breakdown
of the cold run, with the alignment timed a second time with the memos of the first that
are of one text or one edition kept (the memo of text pairs emptied), so the cost of
comparing the two editions alone: a floor that per-edition work done ahead of time, or on
a second core, cannot take a cold run under. Figures only: a benchmark never fails.
"""

from __future__ import annotations

import argparse
import difflib
import gc
import os
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rulediff import align as align_module  # noqa: E402
from rulediff import cache  # noqa: E402
from rulediff import classify as classify_module  # noqa: E402
from rulediff import clauses as clauses_module  # noqa: E402
from rulediff import diff as diff_module  # noqa: E402
from rulediff import history as history_module  # noqa: E402
from rulediff import matching as matching_module  # noqa: E402
from rulediff import pairing as pairing_module  # noqa: E402
from rulediff import provenance as provenance_module  # noqa: E402
from rulediff import rescue as rescue_module  # noqa: E402
from rulediff import sentences as sentences_module  # noqa: E402
from rulediff import textkeys as textkeys_module  # noqa: E402
from rulediff import worddiff as worddiff_module  # noqa: E402
from rulediff.align import align  # noqa: E402
from rulediff.corpus import Corpus, load_file  # noqa: E402
from rulediff.diff import diff, diff_cached  # noqa: E402
from rulediff.ingest import ingest_file  # noqa: E402
from rulediff.parse import document_parser  # noqa: E402
from rulediff.render import refs as refs_module  # noqa: E402
from rulediff.render import render_changelog_html  # noqa: E402


def timed(fn: Callable[[], object]) -> tuple[float, object]:
    gc.collect()
    start = time.perf_counter()
    value = fn()
    return time.perf_counter() - start, value


def forget_process_memos() -> None:
    """Empty the in-process memos (lru caches of normalized texts…) so cold is cold.

    The Lark parser stays built: building it is process start-up, paid by both sides.
    """
    cache.forget_memo()
    modules = (
        align_module,
        classify_module,
        clauses_module,
        diff_module,
        history_module,
        matching_module,
        pairing_module,
        provenance_module,
        refs_module,
        rescue_module,
        sentences_module,
        textkeys_module,
    )
    for module in modules:
        for value in vars(module).values():
            if isinstance(value, type) or value is document_parser:
                continue  # a class (e.g. LastUsed itself), not a memo
            if callable(getattr(value, "cache_clear", None)):
                value.cache_clear()
    worddiff_module._chunk_memo.clear()  # a plain dict memo
    clauses_module.forget_edition_targets()  # tables read from the cache by a warm run


def cold(old: Path, new: Path, embed_texts: bool = False) -> str:
    """Call after :func:`forget_process_memos` (untimed: a new process has no memo to
    empty, and freeing the last run's takes a twentieth of a second)."""
    a, b = load_file(old, use_cache=False), load_file(new, use_cache=False)
    d = diff_cached(a, b, use_cache=False)
    return render_changelog_html(d, a, b, use_cache=False, embed_texts=embed_texts)


def warm(old: Path, new: Path, embed_texts: bool = False) -> str:
    cache.forget_memo()
    a, b = load_file(old), load_file(new)
    return render_changelog_html(diff_cached(a, b), a, b, embed_texts=embed_texts)


#: What is timed: (name, function, texts embedded); the CLI's default first.
RUNS = (
    ("cold", cold, False),
    ("cold, texts embedded", cold, True),
    ("warm", warm, False),
    ("warm, texts embedded", warm, True),
)


def with_difflib(old: Path, new: Path) -> str:
    a = ingest_file(old).text.splitlines()
    b = ingest_file(new).text.splitlines()
    return difflib.HtmlDiff().make_file(a, b, context=True)


def breakdown(old: Path, new: Path) -> dict[str, float]:
    """Where a cold run spends its time."""
    forget_process_memos()
    out: dict[str, float] = {}
    out["parse both"], (a, b) = timed(  # type: ignore[misc]
        lambda: (load_file(old, use_cache=False), load_file(new, use_cache=False))
    )
    out["align"], alignment = timed(lambda: align(a, b, use_cache=False))
    # The same alignment again, the memos of the run above that are of one text or one
    # edition kept (keys, stems, sentences, references, node tables) and the one memo of
    # text pairs emptied: what comparing the two editions costs by itself, which no work
    # done per edition ahead of time or on a second core takes off a cold run.
    worddiff_module._chunk_memo.clear()
    provenance_module._sweep_pattern.cache_clear()  # compiled per sweep the pair has
    out["align again, memos kept"], _ = timed(lambda: align(a, b, use_cache=False))
    out["diff (words, lists, references)"], d = timed(lambda: diff(a, b, alignment))  # type: ignore[arg-type]
    out["render HTML"], _ = timed(
        lambda: render_changelog_html(d, a, b, use_cache=False, embed_texts=False)  # type: ignore[arg-type]
    )
    out["render HTML, texts embedded"], _ = timed(
        lambda: render_changelog_html(d, a, b, use_cache=False, embed_texts=True)  # type: ignore[arg-type]
    )
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--old", default="2015-01-23")
    parser.add_argument("--new", default="2025-11-14")
    parser.add_argument("--repeat", type=int, default=1)
    args = parser.parse_args()

    corpus = Corpus.open(args.corpus, use_cache=False)
    old, new = corpus.resolve(args.old).path, corpus.resolve(args.new).path
    document_parser()  # built once per process, by either path alike

    with tempfile.TemporaryDirectory(prefix="rulediff-bench-") as folder:
        os.environ[cache.CACHE_ENV] = folder
        warm(old, new, embed_texts=True)  # fill the cache once (untimed)
        best: dict[str, float] = {}
        sizes: dict[str, int] = {}
        for _ in range(max(1, args.repeat)):
            for name, fn, embed in RUNS:
                if fn is cold:
                    forget_process_memos()
                seconds, html = timed(lambda fn=fn, embed=embed: fn(old, new, embed))  # type: ignore[misc]
                best[name] = min(best.get(name, seconds), seconds)
                sizes[name] = len(html)  # type: ignore[arg-type]
            seconds, html = timed(lambda: with_difflib(old, new))
            best["difflib"] = min(best.get("difflib", seconds), seconds)
            sizes["difflib"] = len(html)  # type: ignore[arg-type]
        parts = breakdown(old, new)

    base = best["difflib"]
    print(f"changelog {args.old} → {args.new} ({old.name}, {new.name}), best of {args.repeat}")
    print(f"  difflib.HtmlDiff(context=True)  {base:8.3f} s   {sizes['difflib'] / 1e6:6.2f} MB")
    for name, _fn, _embed in RUNS:
        target = 0.5 if name.startswith("cold") else 0.1
        ratio = best[name] / base
        mark = "ok" if ratio <= target else "MISSED"
        print(
            f"  rulediff {name:<22} {best[name]:8.3f} s   {sizes[name] / 1e6:6.2f} MB"
            f"   {ratio:5.3f}× difflib (target ≤ {target}: {mark})"
        )
    print("  cold breakdown:")
    for name, seconds in parts.items():
        print(f"    {name:<32} {seconds:7.3f} s")


if __name__ == "__main__":
    main()
