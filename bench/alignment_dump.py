"""Every rule link of many edition pairs, written down and compared (issue 9).

    python bench/alignment_dump.py dump OUT.json [--corpus DIR] [--workers N]
        (--neighbours | --far N [--seed S] | --pairs FILE | OLD:NEW ...)
    python bench/alignment_dump.py compare BEFORE.json AFTER.json

A change to the aligner is read link by link, not by totals: ``dump`` writes, for each
pair, every old rule's counterparts (and every new rule's) with the match kind and the
method that found it; run it on the code before a change and after, then ``compare``
lists each rule whose counterparts or kind changed, pair by pair, and how many pairs did
not change at all. Pairs: every consecutive pair of the corpus (``--neighbours``: these
must stay right, they are what histories are chained from), ``N`` far pairs drawn at
random (``--far``, reproducible by ``--seed``: at least five years apart), a file of
``OLD NEW`` lines, or pairs on the command line. Editions are read through the cache
(``RULEDIFF_CACHE_DIR``); alignments are computed, never read from it.
"""

from __future__ import annotations

import argparse
import json
import random
import sys
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulediff.align import align  # noqa: E402
from rulediff.corpus import Corpus, load_file  # noqa: E402
from rulediff.errors import RuleDiffError  # noqa: E402

#: Far pairs are at least this many days apart.
FAR_DAYS = 5 * 365


def links_of(corpus_dir: str | None, old: str, new: str) -> dict[str, list]:
    """``side:id`` → [kind, counterparts, method] for every rule of the pair."""
    corpus = Corpus.open(Path(corpus_dir) if corpus_dir else None)
    a = align(
        load_file(corpus.resolve(old).path),
        load_file(corpus.resolve(new).path),
        use_cache=False,
    )
    out: dict[str, list] = {}
    for m in a.rules:
        for rid in m.old_ids:
            out[f"old:{rid}"] = [m.kind, list(m.new_ids_of(rid)), m.method]
        for rid in m.new_ids:
            out[f"new:{rid}"] = [m.kind, list(m.old_ids_of(rid) or m.restates), m.method]
    return out


def chosen_pairs(args: argparse.Namespace, dates: list[str]) -> list[tuple[str, str]]:
    if args.neighbours:
        return list(zip(dates, dates[1:], strict=False))
    if args.far:
        from datetime import date

        rng = random.Random(args.seed)
        pairs: set[tuple[str, str]] = set()
        while len(pairs) < args.far:
            a, b = sorted(rng.sample(dates, 2))
            if (date.fromisoformat(b) - date.fromisoformat(a)).days >= FAR_DAYS:
                pairs.add((a, b))
        return sorted(pairs)
    if args.pairs:
        lines = args.pairs.read_text(encoding="utf-8").splitlines()
        return [tuple(line.split()[:2]) for line in lines if line.strip()]  # type: ignore[misc]
    return [tuple(p.split(":", 1)) for p in args.pair]  # type: ignore[misc]


def dump(args: argparse.Namespace) -> None:
    corpus = Corpus.open(args.corpus)
    dates = [e.date.isoformat() for e in corpus.editions()]
    pairs = chosen_pairs(args, dates)
    if not pairs:
        sys.exit("rulediff: error: no pairs given (see --help)")
    try:  # unknown dates fail before any work
        for old, new in pairs:
            corpus.resolve(old), corpus.resolve(new)
    except RuleDiffError as e:
        sys.exit(f"rulediff: error: {e}")
    folder = str(args.corpus) if args.corpus else None
    with ProcessPoolExecutor(max_workers=args.workers) as pool:
        futures = {pair: pool.submit(links_of, folder, *pair) for pair in pairs}
        result = {}
        for n, ((old, new), future) in enumerate(futures.items(), 1):
            result[f"{old} {new}"] = future.result()
            print(f"\r{n}/{len(pairs)} pairs aligned", end="", file=sys.stderr, flush=True)
    print(file=sys.stderr)
    args.out.write_text(json.dumps(result, sort_keys=True, indent=0), encoding="utf-8")


def changed_links(before: dict, after: dict) -> dict[str, list[tuple[str, list, list]]]:
    """Pair → ``(side:id, before, after)`` for each rule whose links differ (pairs in
    both dumps only; a pair with no change is listed with an empty list)."""
    out: dict[str, list[tuple[str, list, list]]] = {}
    for pair in sorted(before.keys() & after.keys()):
        a, b = before[pair], after[pair]
        keys = sorted(k for k in a.keys() | b.keys() if a.get(k) != b.get(k))
        out[pair] = [(k, a.get(k), b.get(k)) for k in keys]
    return out


def compare(args: argparse.Namespace) -> None:
    before = json.loads(args.before.read_text(encoding="utf-8"))
    after = json.loads(args.after.read_text(encoding="utf-8"))
    changed = changed_links(before, after)
    for pair, rows in changed.items():
        if rows:
            print(pair)
        for key, a, b in rows:
            print(f"  {key}: {a} -> {b}")
    same = sum(1 for rows in changed.values() if not rows)
    only = sorted(before.keys() ^ after.keys())
    print(f"{same} of {len(changed)} common pairs unchanged", end="")
    print(f"; in one dump only: {', '.join(only)}" if only else "")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    commands = parser.add_subparsers(dest="command", required=True)
    d = commands.add_parser("dump", help="write every rule link of the pairs to OUT")
    d.add_argument("out", type=Path)
    d.add_argument("pair", nargs="*", help="OLD:NEW")
    d.add_argument("--corpus", type=Path, default=None)
    d.add_argument("--workers", type=int, default=2)
    d.add_argument("--neighbours", action="store_true")
    d.add_argument("--far", type=int, default=0, metavar="N")
    d.add_argument("--seed", type=int, default=9)
    d.add_argument("--pairs", type=Path, default=None, metavar="FILE")
    c = commands.add_parser("compare", help="list the rules whose links differ")
    c.add_argument("before", type=Path)
    c.add_argument("after", type=Path)
    args = parser.parse_args()
    dump(args) if args.command == "dump" else compare(args)


if __name__ == "__main__":
    main()
