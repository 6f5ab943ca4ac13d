#!/usr/bin/env bash
# Random differential testing at length (tests/smith/smith.py, docs/testing.md):
#   bench/smith.sh N [SEED] [CONFIGS] [CUDA] [JOBS]
#       N random files of one or two kernels (default seed 1000; per kernel the C
#       reference, CONFIGS OpenCL (default 10) and CUDA CUDA configurations (default 1,
#       nvcc-cpu); JOBS files at once, default the number of CPUs; MPI (environment,
#       default 4): the most ranks of the distributed plans, 0 for none)
# File i has seed SEED + i. Prints every mismatch and failure with the command that
# replays it, the coverage table, and "R runs (K kernels in N files), M mismatches,
# F failures" at the end; bench/smith.sh 1 S makes and runs file S again.
set -euo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
N=${1:-100}
SEED=${2:-1000}
CONFIGS=${3:-10}
CUDA=${4:-1}
JOBS=${5:-$(nproc 2>/dev/null || echo 2)}
exec "$ROOT/.venv/bin/python" -W ignore "$ROOT/tests/smith/smith.py" --imcl "$ROOT/build/imcl" --seed "$SEED" \
    --kernels "$N" --configs "$CONFIGS" --cuda "$CUDA" --mpi "${MPI:-4}" --jobs "$JOBS" --work "${WORK:-/tmp/imcl-smith-$SEED}"
