# shellcheck shell=bash
# Sourced by scripts/*.sh and .ci/run: the one place that knows how to set the project up.
#
#   ROOT             the checkout
#   VENV             $RULEDIFF_VENV, else $ROOT/.venv
#   ensure_venv      create VENV if missing; (re)install `-e .[test]` when the packaging changed
#   install_key      what the install stamp in VENV records (checkout path + packaging files)
#   default_corpus   RULEDIFF_CORPUS defaults to ../shared/corpus/mtg-cr beside the checkout

ROOT="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
VENV="${RULEDIFF_VENV:-$ROOT/.venv}"

install_key() {
    (echo "$ROOT"; cat "$ROOT/pyproject.toml" "$ROOT/setup.py") | sha256sum | cut -d' ' -f1
}

ensure_venv() {
    if [[ ! -x "$VENV/bin/python" ]]; then
        echo "rulediff: creating the virtual environment $VENV" >&2
        python3 -m venv "$VENV"
    fi
    # Reinstall only when what pip reads changed (or the checkout moved).
    local stamp="$VENV/.rulediff-installed" want
    want="$(install_key)"
    if [[ "$(cat "$stamp" 2>/dev/null || true)" != "$want" ]]; then
        echo "rulediff: installing the project and its test extras into $VENV" >&2
        "$VENV/bin/python" -m pip install --quiet --disable-pip-version-check -e "$ROOT[test]"
        echo "$want" >"$stamp"
    fi
}

default_corpus() {
    if [[ -z "${RULEDIFF_CORPUS:-}" && -d "$ROOT/../shared/corpus/mtg-cr" ]]; then
        RULEDIFF_CORPUS="$(cd "$ROOT/../shared/corpus/mtg-cr" && pwd)"
        export RULEDIFF_CORPUS
    fi
}
