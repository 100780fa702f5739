"""How often the direct alignment of far-apart editions agrees with their lineage (issue 9).

    python bench/lineage_agreement.py [--corpus DIR] [--pairs FILE] [--show N] [--keep DIR]

A silver standard for far pairs, with no hand-made answer: the lineage chains the
alignments of every consecutive pair between the two editions (``rulediff history``'s
steps, each as right as a neighbour pair is: 100 % on the neighbour blind sets), and
:class:`rulediff.history.Through` says where each old rule's chain ends. The direct
alignment (the two texts alone, what ``rulediff diff`` gives) is then judged rule by rule:

* **reach**: old rules (headings aside) whose chain ends on rules of the new edition;
* **agree**: those the direct alignment pairs with one of those rules (a recall proxy);
* **contra**: direct links whose two ends both have a chain, neither reaching the
  other (a precision proxy: one of the two is wrong, the direct link or a step);
* **silent**: direct links where a chain breaks (a rule removed on the way).

Use it to weigh a change to the aligner on many far pairs before the blind sets: a change
that finds more counterparts should raise *agree* without raising *contra*. The blind
sets stay the measure (``tests/test_align.py``); the chain is only as right as each step,
and it may follow a rule through a debatable step. Figures, never assertions: the first
run aligns every step between (cached, on every CPU), later runs take seconds.

The steps are aligned by the code that runs, so a change to the aligner moves the chains
too. ``--keep DIR`` keeps each pair's chains in DIR (a pickle per pair, written by the
first run, read by later ones): run once on the code before the change, then judge the
changed code against the same chains.
"""

from __future__ import annotations

import argparse
import os
import pickle
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulediff.align import align  # noqa: E402
from rulediff.corpus import Corpus  # noqa: E402
from rulediff.history import Through, build_lineage  # noqa: E402

#: Far pairs across the 2009 renumbering and the later restructures, none of them a pair
#: of the blind sets (those are measured by the tests).
FAR_PAIRS = (
    ("2003-10-01", "2024-06-07"),
    ("2002-10-07", "2018-01-19"),
    ("2006-07-15", "2016-11-11"),
    ("2008-10-01", "2013-02-01"),
    ("2001-09-24", "2012-07-01"),
    ("2005-02-01", "2022-04-29"),
    ("2007-05-01", "2020-01-24"),
    ("2004-02-01", "2011-09-30"),
    ("2008-05-01", "2025-06-06"),
    ("2003-03-15", "2009-09-04"),
)

FIGURES = ("reach", "agree", "links", "contra", "silent")


#: What a kept file holds, tagged: chains kept by an earlier layout of ``Through`` (by
#: number alone, before session 25's (number, printing)) are built again, not misread.
KEPT_FORMAT = "through-by-printing"


def chains(corpus: Corpus, editions: list, keep: Path | None) -> Through:
    """Where each rule of the first of ``editions`` went in the last (kept in ``keep``)."""
    kept = keep / f"{editions[0].date}_{editions[-1].date}.pickle" if keep else None
    if kept is not None and kept.exists():
        with kept.open("rb") as f:
            found = pickle.load(f)  # a file this script wrote: see --keep
        if isinstance(found, tuple) and found[:1] == (KEPT_FORMAT,):
            return found[1]
        print(f"    {kept.name}: kept by an earlier layout; built again", flush=True)
    lineage = build_lineage(editions, corpus.load, workers=os.cpu_count() or 1)
    through = Through(lineage)
    if kept is not None:
        kept.parent.mkdir(parents=True, exist_ok=True)
        with kept.open("wb") as f:
            pickle.dump((KEPT_FORMAT, through), f)
    return through


def judge(
    corpus: Corpus, old_ref: str, new_ref: str, show: int, keep: Path | None = None
) -> dict[str, int]:
    """The figures of one pair (and, with ``show``, its first contradicted links and its
    first rules left removed that the chain places)."""
    infos = corpus.editions()
    dates = [str(info.date) for info in infos]
    first, last = dates.index(old_ref), dates.index(new_ref)
    through = chains(corpus, infos[first : last + 1], keep)
    old, new = corpus.load(infos[first]), corpus.load(infos[last])
    alignment = align(old, new, use_cache=False)
    new_ids = {str(rule.id) for rule in new.rules}
    matched: dict[str, set[str]] = {}
    for match in alignment.rules:
        for old_id in match.old_ids:
            matched.setdefault(old_id, set()).update(match.new_ids_of(old_id))
    figures = dict.fromkeys(FIGURES, 0)
    contradicted: list[str] = []
    unplaced: list[str] = []  # removed directly, placed by the chain: recall to look at
    for rule in old.rules:
        if rule.title is not None or rule.id.is_section:
            continue  # a heading: matched by its subrules, its title says little
        old_id = str(rule.id)
        reach = through(old_id, True) & new_ids
        got = matched.get(old_id, set())
        if reach:
            figures["reach"] += 1
            figures["agree"] += bool(got & reach)
            if not got:
                unplaced.append(f"{old_id} (lineage: {', '.join(sorted(reach))})")
        for new_id in sorted(got):
            figures["links"] += 1
            back = through(new_id, False)
            if not reach or not back:
                figures["silent"] += 1
            elif new_id not in reach and old_id not in back:
                figures["contra"] += 1
                contradicted.append(f"{old_id} -> {new_id} (lineage: {', '.join(sorted(reach))})")
    for line in contradicted[:show]:
        print(f"    contra {line}")
    for line in unplaced[:show]:
        print(f"    removed {line}")
    return figures


def line(label: str, f: dict[str, int]) -> str:
    return (
        f"{label:<26} reach {f['reach']:5d}  agree {f['agree']:5d} "
        f"({f['agree'] / max(1, f['reach']):7.2%})  links {f['links']:5d}  "
        f"contra {f['contra']:3d} ({f['contra'] / max(1, f['links']):6.2%})  "
        f"silent {f['silent']:3d}"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--corpus", default=os.environ.get("RULEDIFF_CORPUS") or None)
    parser.add_argument(
        "--pairs", type=Path, help="a file of 'OLD NEW' date pairs, one a line (default: ten)"
    )
    parser.add_argument(
        "--show",
        type=int,
        default=0,
        help="contradicted links, and rules removed that the chain places, shown a pair",
    )
    parser.add_argument("--keep", type=Path, help="keep (or reuse) each pair's chains here")
    args = parser.parse_args()
    pairs = FAR_PAIRS
    if args.pairs:
        rows = args.pairs.read_text(encoding="utf-8").splitlines()
        pairs = tuple(tuple(row.split()[:2]) for row in rows if row.strip())  # type: ignore[misc]
    corpus = Corpus.open(args.corpus)
    total = dict.fromkeys(FIGURES, 0)
    start = time.perf_counter()
    for old_ref, new_ref in pairs:
        figures = judge(corpus, old_ref, new_ref, args.show, args.keep)
        print(line(f"{old_ref} → {new_ref}", figures), flush=True)
        for name in FIGURES:
            total[name] += figures[name]
    print(line(f"all {len(pairs)} pairs", total))
    print(f"({time.perf_counter() - start:.1f} s)")


if __name__ == "__main__":
    main()
