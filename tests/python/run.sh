#!/usr/bin/env bash
# Runs a Python-side test with the repository's .venv, which scripts/install-deps.sh makes:
# a missing .venv is a failure, not a skip. A test_*.py of tests/python runs under pytest
# (conftest.py: --work DIR keeps the work folders there); any other script (smith.py,
# every_value.py, run_repro.py) runs as a program.
# usage: run.sh IMCL SCRIPT [ARGS...]
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
py="$root/.venv/bin/python"
if [ ! -x "$py" ]; then
    echo "FAIL: $py is missing: run \`bash scripts/install-deps.sh\` (it makes .venv with the" \
         "pinned Kernel Tuner, pyopencl, NumPy and pytest and installs python/)"
    exit 1
fi
export IMCL="$1"
test="$2"
shift 2
cd "$(dirname "$0")" || exit 1
case $test in
test_*.py)
    # -p no:cacheprovider: nothing written into the source tree; -rfE: failures summed up
    exec "$py" -m pytest -v -p no:cacheprovider -rfE "$test" "$@" ;;
*) exec "$py" "$test" "$@" ;;
esac
