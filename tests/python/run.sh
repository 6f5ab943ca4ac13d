#!/usr/bin/env bash
# Runs one Python-side test (tests/python/*.py) with the repository's .venv, which
# scripts/install-deps.sh makes: a missing .venv is a failure, not a skip.
# usage: run.sh IMCL TEST.py ARGS...
set -u
root="$(cd "$(dirname "$0")/../.." && pwd)"
py="$root/.venv/bin/python"
if [ ! -x "$py" ]; then
    echo "FAIL: $py is missing: run \`bash scripts/install-deps.sh\` (it makes .venv with the" \
         "pinned Kernel Tuner, pyopencl and NumPy and installs python/)"
    exit 1
fi
export IMCL="$1"
test="$2"
shift 2
cd "$(dirname "$0")" || exit 1
exec "$py" "$test" "$@"
