"""Precision, recall and every miss of the aligner on the blind evaluation sets (issue 9).

    python bench/alignment_eval.py [--corpus DIR] [--pair OLD_NEW ...] [--quiet] [--through]

Scores each ``tests/fixtures/alignment_eval/<OLD>_<NEW>.toml`` with the scorer the tests
use (``tests/test_align.py``: ``eval_scores``), and lists each wrong or missed sampled
rule with the hand answer and the reason written for it, so a change to the aligner can
be weighed on the hand answers in seconds. Figures only: the floors are held by
``tests/test_align.py::test_blind_evaluation_precision_and_recall``.

A miss the aligner left ``removed`` (or ``added``) while naming the hand answer among
the close candidates the text does not decide between (``Match.alternatives`` of an
``ambiguous`` removed or added rule, what ``rulediff diff`` prints as "undecided: or it
became …") is marked ``undecided``: an abstention, not a blind spot. It still counts as
missed (the tests' measure); the figure line says how many of the misses are such.

``--through`` scores the alignment of ``rulediff diff --through`` instead, which follows
each rule's lineage through the corpus editions between the two (the steps are aligned,
or read from the cache, first: minutes from an empty cache); the tests hold the plain
``rulediff diff``.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from pathlib import Path

import tomllib

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from rulediff.align import align  # noqa: E402
from rulediff.corpus import Corpus, load_file  # noqa: E402
from rulediff.history import Through, build_lineage  # noqa: E402
from rulediff.matches import Alignment  # noqa: E402
from tests.test_align import (  # noqa: E402
    EVAL_DIR,
    EVAL_GOAL_RECALL,
    EVAL_PRECISION_FLOOR,
    eval_recall_floor,
    eval_scores,
)


def undecided_candidates(a: Alignment, side: str, rid: str, answer: list[str]) -> list[str]:
    """The close candidates ``a`` leaves undecided for a rule it calls removed (old side)
    or added (new side), when the hand answer is among them; else empty."""
    m = a.match_for_old(rid) if side == "old" else a.match_for_new(rid)
    if m is None or m.kind not in ("removed", "added") or not m.ambiguous:
        return []
    return list(m.alternatives) if set(m.alternatives) & set(answer) else []


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--pair", action="append", default=[], help="OLD_NEW, as the file stem")
    parser.add_argument("--quiet", action="store_true", help="figures only, no misses")
    parser.add_argument(
        "--through", action="store_true", help="score `diff --through` (lineage followed)"
    )
    args = parser.parse_args()

    corpus = Corpus.open(args.corpus)
    editions = corpus.editions()
    at = {str(info.date): k for k, info in enumerate(editions)}
    files = sorted(EVAL_DIR.glob("*.toml"))
    if args.pair:
        unknown = set(args.pair) - {f.stem for f in files}
        if unknown:
            parser.error(f"no evaluation file for {', '.join(sorted(unknown))}")
        files = [f for f in files if f.stem in args.pair]
    for path in files:
        data = tomllib.loads(path.read_text(encoding="utf-8"))
        start = time.perf_counter()
        old = load_file(corpus.resolve(data["old"]).path)
        new = load_file(corpus.resolve(data["new"]).path)
        through = None
        if args.through:
            steps = editions[at[data["old"]] : at[data["new"]] + 1]
            through = Through(build_lineage(steps, corpus.load, workers=os.cpu_count() or 1))
        aligned = align(old, new, through=through)
        precision, recall, misses = eval_scores(data, aligned)
        seconds = time.perf_counter() - start
        undecided = {
            (side, rid): listed
            for verdict, side, rid, _proposed, answer in misses
            if verdict == "missed" and (listed := undecided_candidates(aligned, side, rid, answer))
        }
        missed = sum(verdict == "missed" for verdict, *_ in misses)
        floor = eval_recall_floor(path.stem, data)
        held = EVAL_PRECISION_FLOOR.get(path.stem)
        held_note = f" (floor {held:.0%})" if held is not None else ""
        print(
            f"{path.stem}{' (--through)' if args.through else ''}:"
            f" precision {precision:.1%}{held_note}, recall {recall:.1%}"
            f" (goal {EVAL_GOAL_RECALL:.0%}, floor {floor:.0%}), {len(data['rule'])} sampled,"
            f" {seconds:.1f} s; {len(undecided)} of {missed} missed left undecided"
            " with the hand answer among the candidates"
        )
        if args.quiet:
            continue
        reasons = {(e["side"], e["id"]): e.get("reason", "") for e in data["rule"]}
        for verdict, side, rid, proposed, answer in misses:
            listed = undecided.get((side, rid))
            said = f"- (undecided: {', '.join(listed)})" if listed else proposed or "-"
            print(f"  {verdict:<6} {side} {rid}: aligner {said}, hand {answer}")
            reason = reasons.get((side, rid))
            if reason:
                print(f"         hand reason: {reason}")


if __name__ == "__main__":
    main()
