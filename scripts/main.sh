#!/usr/bin/env bash
# The main job: set up .venv, then build what rulediff makes from the corpus into out/.
#
# Editions come from $RULEDIFF_CORPUS (default: ../shared/corpus/mtg-cr beside the
# checkout); $RULEDIFF_OUT moves the output folder. Later features add their steps at
# the end (one block each).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_venv
default_corpus
OUT="${RULEDIFF_OUT:-$ROOT/out}"
mkdir -p "$OUT"

rulediff() { "$VENV/bin/rulediff" "$@"; }

# 1. The newest edition: its model as JSON and its text rebuilt from the model.
rulediff parse latest --format json -o "$OUT/latest.json"
rulediff parse latest --format text -o "$OUT/latest.txt"
echo "main: wrote $OUT/latest.json and $OUT/latest.txt"

# 2. What changed in the newest edition: the changelog from the edition before it.
previous="$("$VENV/bin/python" - <<'PY'
from rulediff.corpus import Corpus
editions = Corpus.open().editions()
print(editions[-2].date if len(editions) > 1 else editions[-1].date)
PY
)"
rulediff diff "$previous" latest --format html -o "$OUT/changelog-latest.html"
rulediff diff "$previous" latest --format json -o "$OUT/changelog-latest.json"
echo "main: wrote $OUT/changelog-latest.html ($previous → latest)"

# 3. The cross-reference audit of the newest edition, and a table for the whole corpus.
rulediff audit latest --format html -o "$OUT/audit-latest.html"
rulediff audit --all --format text -o "$OUT/audit-all.txt"
echo "main: wrote $OUT/audit-latest.html and $OUT/audit-all.txt"

# 4. Behaviour flags of every edition.
rulediff flags --timeline --format html -o "$OUT/flags-timeline.html"
rulediff flags latest --format json -o "$OUT/flags-latest.json"
echo "main: wrote $OUT/flags-timeline.html"

# 5. The static site: every changelog, full text and rule history (incremental).
rulediff site -o "$OUT/site"
echo "main: site in $OUT/site/index.html"

# 6. Search: the full-text index of every edition (built once in the cache), and where a
#    phrase first and last appears.
rulediff search '"mana burn"' --all-editions --format json -o "$OUT/search-mana-burn.json"
echo "main: wrote $OUT/search-mana-burn.json"

# 7. The lineage of every rule of every edition as one graph, and one rule's family tree.
rulediff lineage --format graphml -o "$OUT/lineage.graphml"
rulediff lineage 702.36 --edition 2015-01-23 --format text -o "$OUT/lineage-702.36.txt"
echo "main: wrote $OUT/lineage.graphml"

# 8. Rules text without numbers: the two seed revisions located, and their paragraph diff.
seeds="$ROOT/../shared/seeds"
if compgen -G "$seeds/002_*.txt" >/dev/null; then
    rulediff locate "$seeds"/002_*.txt --format html -o "$OUT/locate-seed.html"
    rulediff diff --paragraphs "$seeds"/001_*.txt "$seeds"/002_*.txt --format html \
        -o "$OUT/seed-paragraphs.html"
    echo "main: wrote $OUT/locate-seed.html and $OUT/seed-paragraphs.html"
fi
