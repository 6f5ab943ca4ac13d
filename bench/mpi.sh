#!/usr/bin/env bash
# The exchange of a distributed plan against its computation (docs/mpi.md): samples/heat3d
# generated with imcl --mpi -b c, timed by bench/mpi/overlap.c on each count of ranks (one
# OpenMP thread a rank): per step the exchange alone, the launch, its interior, the wait
# for the ghost layers and the shell, and the fraction of the exchange the interior hides.
#
#   bench/mpi.sh [-i IMCL] [-n N] [-p "RANKS..."] [-r REPS]   (128, "1 2 4", 20)
# CFLAGS (default -O2) compiles the program and the generated C.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
IMCL=$ROOT/build/imcl N=128 RANKS="1 2 4" REPS=20
while getopts "i:n:p:r:h" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    n) N=$OPTARG ;;
    p) RANKS=$OPTARG ;;
    r) REPS=$OPTARG ;;
    *) sed -n "2,8p" "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
[ -x "$IMCL" ] || { echo "no $IMCL: build imcl first (cmake --build build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$IMCL" --mpi -b c -o "$work" "$ROOT/samples/heat3d/heat3d.imcl"
mpicc ${CFLAGS:--O2} -fopenmp -I"$work" "$HERE/mpi/overlap.c" "$work"/*.c -lm -o "$work/overlap"
echo "bench/mpi: $(getconf _NPROCESSORS_ONLN) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg);" \
     "$(mpirun --version 2>/dev/null | head -1); gcc ${CFLAGS:--O2} -fopenmp; $(date -u +%F)"
for p in $RANKS; do
    "$ROOT/tests/lib/mpirun" -np "$p" "$work/overlap" "$N" "$REPS"
done
