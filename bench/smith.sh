#!/usr/bin/env bash
# Random differential testing at length (tests/smith/smith.py, docs/testing.md):
#   bench/smith.sh N [SEED] [CONFIGS] [CUDA]   N random files of one or two kernels
#                                         (default seed 1000; per kernel the C reference,
#                                         10 OpenCL and 1 CUDA configuration, nvcc-cpu)
# Kernel i has seed SEED + i. Prints every mismatch with its seed and kernel file, and
# "R runs (N kernels), M mismatches, F failures" at the end; bench/smith.sh 1 S
# makes and runs kernel S again.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
N=${1:-100}
SEED=${2:-1000}
CONFIGS=${3:-10}
CUDA=${4:-1}
export PYOPENCL_COMPILER_OUTPUT=0
exec "$ROOT/.venv/bin/python" -W ignore "$ROOT/tests/smith/smith.py" --imcl "$ROOT/build/imcl" --seed "$SEED" \
    --kernels "$N" --configs "$CONFIGS" --cuda "$CUDA" --work "${WORK:-/tmp/imcl-smith-$SEED}"
