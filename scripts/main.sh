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
