#!/usr/bin/env bash
# Random differential testing at length (tests/smith/smith.py, docs/testing.md):
#   bench/smith.sh N [SEED] [CONFIGS]     N random kernels (default seed 1000, 10
#                                         OpenCL configurations each, plus the C reference)
# Kernel i has seed SEED + i. Prints every mismatch with its seed and kernel file, and
# "R runs (N kernels), M mismatches, F failures" at the end; bench/smith.sh 1 S
# makes and runs kernel S again.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
N=${1:-100}
SEED=${2:-1000}
CONFIGS=${3:-10}
export PYOPENCL_COMPILER_OUTPUT=0
exec "$ROOT/.venv/bin/python" -W ignore "$ROOT/tests/smith/smith.py" --imcl "$ROOT/build/imcl" --seed "$SEED" \
    --kernels "$N" --configs "$CONFIGS" --work "${WORK:-/tmp/imcl-smith-$SEED}"
