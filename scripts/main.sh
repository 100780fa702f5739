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
