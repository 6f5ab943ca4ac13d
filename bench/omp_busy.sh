#!/usr/bin/env bash
# The C reference's thread count beside another process (docs/wrappers.md, "The C
# reference's threads"): sum7's one-shot call at N^3 (default 32), REPS times (6000), with
# 1 thread, with every thread fixed (IMCL_FIXED_THREADS=1) and with the measured choice,
# alternated ROUNDS times (5), idle and beside a busy process (`yes`); prints min and
# median of the mean time of a call in ms. usage: bench/omp_busy.sh [N REPS ROUNDS]
set -euo pipefail
root=$(cd "$(dirname "$0")/.." && pwd)
n=${1:-32} reps=${2:-6000} rounds=${3:-5}
work=$(mktemp -d)
busy=
trap '[ -n "$busy" ] && kill "$busy" 2>/dev/null; rm -rf "$work"' EXIT
"$root/build/imcl" -b c -o "$work" "$root/samples/sum7/sum7.imcl"
gcc -std=c11 -O2 -fopenmp -I"$work" "$root/bench/omp/calls.c" "$work/sum7_ref.c" "$work/imcl_runtime_c.c" -o "$work/calls" -lm
stats() { sort -g | awk '{ v[NR] = $1 } END { printf "min %.4f median %.4f", v[1], v[int((NR + 1) / 2)] }'; }
run() {
    local label=$1
    : >"$work/one" && : >"$work/fixed" && : >"$work/measured"
    for ((r = 0; r < rounds; r++)); do
        OMP_NUM_THREADS=1 "$work/calls" "$n" "$reps" >>"$work/one"
        IMCL_FIXED_THREADS=1 "$work/calls" "$n" "$reps" >>"$work/fixed"
        "$work/calls" "$n" "$reps" >>"$work/measured"
    done
    printf '%-22s 1 thread: %s | all threads fixed: %s | measured: %s\n' "$label" \
        "$(stats <"$work/one")" "$(stats <"$work/fixed")" "$(stats <"$work/measured")"
}
echo "sum7 ${n}^3, ${reps} calls, $(nproc) CPUs, ms per call ($rounds rounds, alternated)"
run "idle"
yes >/dev/null &
busy=$!
run "beside a busy process"
