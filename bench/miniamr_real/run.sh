#!/usr/bin/env bash
# The real miniAMR (Mantevo/miniAMR, its ref/ version, C + MPI) with its 7-point
# stencil replaced by imcl's C reference on its own row tables, in place, one call
# per variable for all blocks (hook.py), and by imcl's OpenCL plan (the rows to the
# device and back, one launch per variable for all blocks; hook.py --plan), against
# the unmodified build in the same run: the per-stage checksums (--report_diffusion) and a hash of the bits of every
# final value must be identical; miniAMR's own "calc" time is compared.
#
#   bench/miniamr_real/run.sh MINIAMR_DIR [-i IMCL]
#
# MINIAMR_DIR is a checkout of https://github.com/Mantevo/miniAMR (not fetched
# here); needs mpicc and mpirun (Debian: mpich). Runs a moving object with three
# levels of refinement (8 blocks growing to about 870 on one rank), 40 variables,
# 10 timesteps of 10 stages: on 1 rank, on 2 ranks, and on 1 rank with the
# generated C built with OpenMP (2 threads); the OpenCL plan on 1 and 2 ranks (the
# device: IMCL_PLATFORM / IMCL_DEVICE, PoCL's CPU device here, each rank a plan of its
# own); then the OpenMP build beside a busy process (`yes`), with every thread fixed and
# with the thread count it measures. Exits 1 when anything differs.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$(dirname "$HERE")")
[ $# -ge 1 ] || { sed -n '2,18p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
SRC=$(realpath "$1"); shift
IMCL=$ROOT/build/imcl
[ "${1:-}" = -i ] && IMCL=$2
[ -d "$SRC/ref" ] || { echo "no $SRC/ref: not a miniAMR checkout" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
cp -r "$SRC/ref" "$work/unmodified"
cp -r "$SRC/ref" "$work/imcl"
cp -r "$SRC/ref" "$work/plan"
python3 "$HERE/hook.py" "$work/unmodified" --hash-only
python3 "$HERE/hook.py" "$work/imcl"
python3 "$HERE/hook.py" "$work/plan" --plan
"$IMCL" -b c -o "$work/imcl" "$ROOT/samples/miniamr/stencil7.imcl"
"$IMCL" -b opencl -o "$work/plan" "$ROOT/samples/miniamr/stencil7.imcl"
for d in unmodified imcl plan; do make -s -C "$work/$d" >/dev/null; done
# the same with the generated C built with OpenMP
(cd "$work/imcl" && mpicc -I. -O3 -fopenmp -c stencil7_ref.c -o omp_stencil7.o &&
    mpicc -fopenmp -o miniAMR_omp.x omp_stencil7.o $(ls *.o | grep -v -e '^stencil7_ref.o$' -e '^omp_') -lm)
ARGS=(--num_refine 3 --max_blocks 4000 --init_y 2 --init_z 2 --nx 8 --ny 8 --nz 8 --num_vars 40
      --num_objects 1 --object 2 0 -1.10 -1.10 -1.10 0.060 0.060 0.060 1.5 1.5 1.5 0.0 0.0 0.0
      --num_tsteps 10 --checksum_freq 1 --stages_per_ts 10 --report_diffusion --stencil 7)
MPIRUN=(mpirun)
[ "$(id -u)" = 0 ] && mpirun --version 2>/dev/null | grep -qi "open mpi" && MPIRUN+=(--allow-run-as-root)
status=0
run() { # label ranks exe
    OMP_NUM_THREADS=${THREADS:-1} "${MPIRUN[@]}" -np "$2" "$3" "${ARGS[@]}" --npx "$2" --init_x $((2 * $2)) >"$work/$1.txt"
}
calc() { sed -n 's/^Summary:.* calc \([0-9.]*\) .*/\1/p' "$work/$1.txt"; }
echo "miniAMR ($(cd "$SRC" && git rev-parse --short HEAD 2>/dev/null || echo unknown)) vs imcl's stencil7_rows;" \
     "load $(cut -d' ' -f1-3 /proc/loadavg)"
# label:ranks:exe:threads[:busy] -- busy: a `yes` beside both runs, and the OpenMP build
# with every thread fixed (IMCL_FIXED_THREADS=1) or its measured count (docs/wrappers.md)
for case in "1 rank:1:imcl/miniAMR.x:1" "2 ranks:2:imcl/miniAMR.x:1" \
            "1 rank, OpenMP 2 threads:1:imcl/miniAMR_omp.x:2" "1 rank, OpenCL plan:1:plan/miniAMR.x:1" \
            "2 ranks, OpenCL plan:2:plan/miniAMR.x:1" "busy, OpenMP 2 fixed:1:imcl/miniAMR_omp.x:2:fixed" \
            "busy, OpenMP 2 measured:1:imcl/miniAMR_omp.x:2:measured"; do
    IFS=: read -r label np exe threads busy <<<"$case"
    yes_pid=
    if [ -n "$busy" ]; then
        yes >/dev/null &
        yes_pid=$!
    fi
    THREADS=1 run ref "$np" "$work/unmodified/miniAMR.x"
    if [ "$busy" = fixed ]; then
        IMCL_FIXED_THREADS=1 THREADS=$threads run new "$np" "$work/$exe"
    else
        THREADS=$threads run new "$np" "$work/$exe"
    fi
    [ -z "$yes_pid" ] || kill "$yes_pid"
    same=yes
    diff <(grep ' var ' "$work/ref.txt") <(grep ' var ' "$work/new.txt") >/dev/null || same=no
    diff <(grep 'final-state hash' "$work/ref.txt" | sort) <(grep 'final-state hash' "$work/new.txt" | sort) \
        >/dev/null || same=no
    [ "$same" = yes ] || status=1
    printf '%-26s checksums (%d lines) and final hashes identical: %s; calc %s s -> %s s (%.2fx)\n' "$label" \
        "$(grep -c ' var ' "$work/ref.txt")" "$same" "$(calc ref)" "$(calc new)" \
        "$(echo "$(calc ref) / $(calc new)" | bc -l)"
done
exit $status
