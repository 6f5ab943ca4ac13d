#!/usr/bin/env bash
# The real miniAMR (Mantevo/miniAMR, its ref/ version, C + MPI) with its 7-point
# stencil replaced by imcl's (hook.py), against the unmodified build in the same run:
#   - the C reference on miniAMR's own row tables, in place, one call of stencil7_rows
#     per variable for all blocks (hook.py), 1 thread, 2 ranks, OpenMP 2 threads;
#   - the OpenCL plan attached to a slab per variable and its spare, launched over the
#     active blocks only (stencil7_plan_select), no copy of any value (hook.py --attach);
#   - the OpenCL plan that copies every block's rows up and down (hook.py --plan);
#   - beside a busy process (`yes`): the one-thread build, and the OpenMP build with every
#     thread fixed and with the count it measures.
# The per-stage checksums (--report_diffusion, printed exactly with %a) and a hash of the
# bits of every final value must be identical; miniAMR's own "calc" time is compared,
# each case REPS times (default 3), the two builds alternated, min and median reported.
#
#   bench/miniamr_real/run.sh MINIAMR_DIR [-i IMCL] [-r REPS] [-a "MINIAMR ARGS"]
#
# MINIAMR_DIR is a checkout of https://github.com/Mantevo/miniAMR (not fetched here);
# needs mpicc and mpirun (Debian: mpich). A moving object with three levels of
# refinement (8 blocks growing to about 870 on one rank), 40 variables, 10 timesteps of
# 10 stages; or miniAMR's arguments given with -a (--npx and --init_x are the script's).
# The OpenCL device: IMCL_PLATFORM / IMCL_DEVICE (PoCL's CPU device here), each rank a
# plan of its own. Exits 1 when anything differs.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$(dirname "$HERE")")
[ $# -ge 1 ] || { sed -n '2,21p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
SRC=$(realpath "$1"); shift
IMCL=$ROOT/build/imcl
REPS=3
while [ $# -gt 0 ]; do
    case $1 in
        -i) IMCL=$2; shift 2 ;;
        -r) REPS=$2; shift 2 ;;
        -a) read -r -a USER_ARGS <<<"$2"; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done
[ -d "$SRC/ref" ] || { echo "no $SRC/ref: not a miniAMR checkout" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
for d in unmodified imcl plan attach; do cp -r "$SRC/ref" "$work/$d"; done
python3 "$HERE/hook.py" "$work/unmodified" --hash-only
python3 "$HERE/hook.py" "$work/imcl"
python3 "$HERE/hook.py" "$work/plan" --plan
python3 "$HERE/hook.py" "$work/attach" --attach
"$IMCL" -b c -o "$work/imcl" "$ROOT/samples/miniamr/stencil7.imcl"
"$IMCL" -b opencl -o "$work/plan" "$ROOT/samples/miniamr/stencil7.imcl"
"$IMCL" -b opencl -o "$work/attach" "$ROOT/samples/miniamr/stencil7.imcl"
for d in unmodified imcl plan attach; do make -s -C "$work/$d" >/dev/null; done
# the same with the generated C built with OpenMP
(cd "$work/imcl" && mpicc -I. -O3 -fopenmp -c stencil7_ref.c -o omp_stencil7.o &&
    mpicc -fopenmp -o miniAMR_omp.x omp_stencil7.o $(ls *.o | grep -v -e '^stencil7_ref.o$' -e '^omp_') -lm)
ARGS=(--num_refine 3 --max_blocks 4000 --init_y 2 --init_z 2 --nx 8 --ny 8 --nz 8 --num_vars 40
      --num_objects 1 --object 2 0 -1.10 -1.10 -1.10 0.060 0.060 0.060 1.5 1.5 1.5 0.0 0.0 0.0
      --num_tsteps 10 --checksum_freq 1 --stages_per_ts 10 --report_diffusion --stencil 7)
[ -z "${USER_ARGS+x}" ] || ARGS=("${USER_ARGS[@]}")
MPIRUN=(mpirun)
[ "$(id -u)" = 0 ] && mpirun --version 2>/dev/null | grep -qi "open mpi" && MPIRUN+=(--allow-run-as-root)
status=0
run() { # out ranks exe
    OMP_NUM_THREADS=${THREADS:-1} "${MPIRUN[@]}" -np "$2" "$3" "${ARGS[@]}" --npx "$2" --init_x $((2 * $2)) >"$1"
}
calc() { sed -n 's/^Summary:.* calc \([0-9.]*\) .*/\1/p' "$1"; }
# min and median of the numbers on stdin
stats() { sort -g | awk '{v[NR] = $1} END {printf "%.3f %.3f\n", v[1], NR % 2 ? v[(NR + 1) / 2] : (v[NR / 2] + v[NR / 2 + 1]) / 2}'; }
echo "miniAMR ($(cd "$SRC" && git rev-parse --short HEAD 2>/dev/null || echo unknown)) vs imcl's stencil7;" \
     "$REPS runs each, alternated; load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "miniAMR ${ARGS[*]}"
printf '%-28s %-9s %-21s %-21s %s\n' case identical "calc unmodified (s)" "calc imcl (s)" "ratio of medians"
printf '%-28s %-9s %-21s %-21s %s\n' "" "" "min / median" "min / median" ""
# label:ranks:exe:threads[:busy] -- busy: a `yes` beside both runs, and the OpenMP build
# with every thread fixed (busy "fixed": IMCL_FIXED_THREADS=1) or its measured count
# (docs/wrappers.md)
for case in "1 rank, C:1:imcl/miniAMR.x:1" "2 ranks, C:2:imcl/miniAMR.x:1" \
            "1 rank, C OpenMP 2 threads:1:imcl/miniAMR_omp.x:2" \
            "1 rank, OpenCL attached:1:attach/miniAMR.x:1" "2 ranks, OpenCL attached:2:attach/miniAMR.x:1" \
            "1 rank, OpenCL rows copied:1:plan/miniAMR.x:1" \
            "busy, C 1 thread:1:imcl/miniAMR.x:1:one" \
            "busy, OpenMP 2 fixed:1:imcl/miniAMR_omp.x:2:fixed" \
            "busy, OpenMP 2 measured:1:imcl/miniAMR_omp.x:2:measured"; do
    IFS=: read -r label np exe threads busy <<<"$case"
    yes_pid=
    if [ -n "$busy" ]; then
        yes >/dev/null &
        yes_pid=$!
    fi
    same=yes
    : >"$work/ref.calc"
    : >"$work/new.calc"
    for r in $(seq "$REPS"); do
        THREADS=1 run "$work/ref.txt" "$np" "$work/unmodified/miniAMR.x"
        if [ "$busy" = fixed ]; then
            IMCL_FIXED_THREADS=1 THREADS=$threads run "$work/new.txt" "$np" "$work/$exe"
        else
            THREADS=$threads run "$work/new.txt" "$np" "$work/$exe"
        fi
        calc "$work/ref.txt" >>"$work/ref.calc"
        calc "$work/new.txt" >>"$work/new.calc"
        grep -q ' var ' "$work/ref.txt" || same=no
        diff <(grep ' var ' "$work/ref.txt") <(grep ' var ' "$work/new.txt") >/dev/null || same=no
        diff <(grep 'final-state hash' "$work/ref.txt" | sort) \
            <(grep 'final-state hash' "$work/new.txt" | sort) >/dev/null || same=no
    done
    [ -z "$yes_pid" ] || kill "$yes_pid"
    [ "$same" = yes ] || status=1
    read -r rmin rmed < <(stats <"$work/ref.calc")
    read -r nmin nmed < <(stats <"$work/new.calc")
    printf '%-28s %-9s %-21s %-21s %.2fx\n' "$label" "$same" "$rmin / $rmed" "$nmin / $nmed" \
        "$(echo "$rmed / $nmed" | bc -l)"
done
exit $status
