"""Rules called removed whose content survives (issue 9: removed only when none survives).

    python bench/removed_survivors.py [--corpus DIR] [--pairs FILE] [--show N]

For each pair (every two consecutive corpus editions by default; ``--pairs FILE`` reads
``OLD NEW`` per line), counts the old rules the alignment calls ``removed`` that still
leave text in the new edition, two ways:

* **moved**: the change lists moved text of its own (``moved_text``): the aligner itself
  found a sentence of the rule in a new rule, yet called the rule removed;
* **kept**: none listed, but a sentence of six words or more stands nearly whole
  (edit ratio ≥ 90) in a new rule that fewer than three new rules say (a stock sentence,
  "this action doesn't use the stack", tells nothing).

Neither is always wrong: a sentence the old edition said twice (in the rule kept and in
the rule dropped) survives once; a stock clause repeated under another subject is not
the rule. The figures say where to read, and a change to the aligner should not raise
them. Alignments come from the cache (computed when missing: a first run over every
neighbour pair takes a few minutes).
Figures only: a benchmark never fails.
"""

from __future__ import annotations

import argparse
import sys
import time
from collections import Counter
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))

from rapidfuzz import fuzz, process  # noqa: E402

from rulediff.align import align_cached  # noqa: E402
from rulediff.corpus import Corpus  # noqa: E402
from rulediff.provenance import units  # noqa: E402

#: A sentence this long (words) or longer is compared; shorter ones are stock too often.
SENTENCE_WORDS = 6
#: Kept nearly whole: at least this edit ratio.
KEPT_RATIO = 90
#: A sentence said by this many new rules or more is stock wording.
STOCK_RULES = 3


def survivors(corpus: Corpus, old_info, new_info) -> list[tuple[str, str, str]]:
    """``(kind, old rule, where)`` for each removed rule of the pair whose text survives."""
    old, new = corpus.load(old_info), corpus.load(new_info)
    alignment = align_cached(old, new)
    removed = [m for m in alignment.rules if m.kind == "removed"]
    if not removed:
        return []
    keys: list[str] = []
    owners: list[str] = []
    said: Counter[str] = Counter()
    for rule in new.rules:
        for unit in units(0, rule.text):
            if len(unit.key.split()) >= SENTENCE_WORDS:
                keys.append(unit.key)
                owners.append(str(rule.id))
                said[unit.key] += 1
    texts = {str(rule.id): rule.text for rule in reversed(old.rules)}  # first printing wins
    found: list[tuple[str, str, str]] = []
    for match in removed:
        rid = match.old_ids[0]
        if match.moved_text:
            found.append(("moved", rid, ", ".join(sorted({n for _o, n, _t in match.moved_text}))))
            continue
        for unit in units(0, texts.get(rid, "")):
            if len(unit.key.split()) < SENTENCE_WORDS:
                continue
            best = process.extractOne(unit.key, keys, scorer=fuzz.ratio, score_cutoff=KEPT_RATIO)
            if best is not None and said[best[0]] < STOCK_RULES:
                found.append(("kept", rid, owners[best[2]]))
                break
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--corpus", type=Path, default=None)
    parser.add_argument("--pairs", type=Path, default=None, help="OLD NEW per line")
    parser.add_argument("--show", type=int, default=0, help="list up to N rules a pair")
    args = parser.parse_args()

    started = time.perf_counter()
    corpus = Corpus.open(args.corpus)
    infos = corpus.editions()
    if args.pairs is None:
        pairs = list(zip(infos, infos[1:], strict=False))
    else:
        pairs = []
        for line in args.pairs.read_text(encoding="utf-8").splitlines():
            if line.strip():
                old_ref, new_ref = line.split()[:2]
                pairs.append((corpus.resolve(old_ref), corpus.resolve(new_ref)))
    totals: Counter[str] = Counter()
    for old_info, new_info in pairs:
        found = survivors(corpus, old_info, new_info)
        if not found:
            continue
        counts = Counter(kind for kind, _rid, _where in found)
        totals.update(counts)
        print(
            f"{old_info.date} → {new_info.date}   moved {counts['moved']:3d}   "
            f"kept {counts['kept']:3d}"
        )
        for kind, rid, where in found[: args.show]:
            print(f"    {kind:<5} {rid} → {where}")
    print(
        f"{len(pairs)} pairs: removed rules with moved text {totals['moved']}, "
        f"with a sentence kept elsewhere {totals['kept']} ({time.perf_counter() - started:.1f} s)"
    )


if __name__ == "__main__":
    main()
