"""Clause parsing of the newest edition: cold, cached on disk, cached in memory.

Prints the time to parse every rule, example and glossary definition of the newest
corpus edition with the clause grammar (target: under 1 s cold), the same from the
sha256-keyed cache, and the number of references found; baselines from the same run:
the document parse of that edition and a plain regex census of "rule(s) NNN".

    RULEDIFF_CORPUS=../shared/corpus/mtg-cr .venv/bin/python bench/clauses.py
"""

from __future__ import annotations

import os
import re
import sys
import tempfile
import time
from pathlib import Path

CENSUS = re.compile(r"\brules?\s+(\d{3}(?:\.\d+[a-z]?)?)(?!\d)", re.IGNORECASE)


def main() -> int:
    corpus = Path(os.environ.get("RULEDIFF_CORPUS", "../shared/corpus/mtg-cr"))
    files = sorted(corpus.glob("*.txt"))
    if not files:
        print(f"no editions in {corpus} (set RULEDIFF_CORPUS)", file=sys.stderr)
        return 2
    os.environ["RULEDIFF_CACHE_DIR"] = tempfile.mkdtemp(prefix="rulediff-bench-")

    from rulediff import cache
    from rulediff.clauses import clause_parser, compute_edition_clauses, edition_clauses
    from rulediff.parse import parse_file

    t0 = time.perf_counter()
    edition = parse_file(files[-1])
    t_document = time.perf_counter() - t0
    texts = [r.text for r in edition.rules] + [x.text for r in edition.rules for x in r.examples]
    texts += [g.text for g in edition.glossary]

    t0 = time.perf_counter()
    clause_parser()
    t_build = time.perf_counter() - t0
    t0 = time.perf_counter()
    parsed = edition_clauses(edition)  # cold: computed, then written to the cache
    t_cold = time.perf_counter() - t0
    warm = []
    for _ in range(3):
        t0 = time.perf_counter()
        compute_edition_clauses(edition)
        warm.append(time.perf_counter() - t0)
    cache.forget_memo()
    t0 = time.perf_counter()
    again = edition_clauses(edition)  # from the msgpack entry on disk
    t_disk = time.perf_counter() - t0
    t0 = time.perf_counter()
    edition_clauses(edition)  # from the in-process memo
    t_memo = time.perf_counter() - t0
    assert again == parsed

    t0 = time.perf_counter()
    census = sum(len(CENSUS.findall(t)) for t in texts)
    t_census = time.perf_counter() - t0

    print(
        f"edition {edition.date_text}: {len(edition.rules)} rules, {len(texts)} texts, "
        f"{sum(map(len, texts)):,} characters"
    )
    print(f"  clause grammar build           {t_build * 1000:8.1f} ms")
    print(f"  clauses, cold (first parse)    {t_cold * 1000:8.1f} ms   target < 1000 ms")
    print(f"  clauses, recomputed (best of 3){min(warm) * 1000:8.1f} ms")
    speedup = t_cold / t_disk
    print(f"  clauses, cached on disk        {t_disk * 1000:8.1f} ms   ({speedup:.0f}x faster)")
    print(f"  clauses, cached in memory      {t_memo * 1000:8.3f} ms")
    print(
        f"  baseline: document parse      {t_document * 1000:8.1f} ms   "
        f"(clauses cold = {t_cold / t_document:.1f}x)"
    )
    print(
        f"  baseline: regex census        {t_census * 1000:8.1f} ms   "
        f"(clauses cold = {t_cold / t_census:.0f}x)"
    )
    print(
        f"  references: {parsed.reference_count()} "
        f"(regex census of 'rule(s) NNN' finds {census} mentions)"
    )
    return 0


if __name__ == "__main__":
    sys.exit(main())
