#!/usr/bin/env bash
# Run the whole test suite, setting up .venv first if needed. Extra arguments go to pytest.
#
# Corpus tests read $RULEDIFF_CORPUS (default: ../shared/corpus/mtg-cr beside the checkout).
set -euo pipefail
source "$(dirname "${BASH_SOURCE[0]}")/lib.sh"
ensure_venv
default_corpus
cd "$ROOT"

status=0
"$VENV/bin/python" -m pytest "$@" || status=$?
if [[ $status -eq 5 ]]; then
    echo "scripts/test.sh: pytest collected no tests; that is a failure" >&2
    exit 1
fi
exit "$status"
