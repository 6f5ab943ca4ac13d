#!/usr/bin/env bash
# Tuned against default: the Python package's tuner (imcl-tune, Kernel Tuner) on the
# OpenCL device for sum7, sum27 (N3^3 doubles), sobel, blur5 (N2^2 floats) and
# miniAMR's v1-v3, against the default configurations and hand-written C loops.
# Takes 10-20 minutes on 2 CPUs (PoCL; about 10 at load 8-10). Results:
# docs/performance.md, "Tuned against default".
#
#   bench/tuned.sh [-n3 128] [-n2 2048] [-b BUDGET] [-m MINIAMR_BUDGET] [-r ROUNDS] [-o DIR]
#
# 1. .venv/bin/imcl-tune per kernel, random_sample, BUDGET (80) configurations,
#    seed 1: DIR/<k>.best.json, DIR/<k>.t4.json, the summary in DIR/<k>.log;
# 2. bench/tuned/compare.py: the GPU default, the CPU default (what imcl generates
#    with no -t on a CPU device) and the best, side by side, ROUNDS (3) rounds;
# 3. bench/tuned/loops.c (gcc -O3 -fno-math-errno -fopenmp), 1 and 2 threads;
# 4. bench/tuned/miniamr.py (imcl.tune on v1, v2, v3; budget MINIAMR_BUDGET, default
#    40), then miniamr-proxy (n 32, 16 blocks, 40 variables, 2 x 5 stages) with its
#    built-in configuration and with -t DIR/<v>.best.json, ROUNDS rounds side by
#    side: kernel_s.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
N3=128 N2=2048 BUDGET=80 MBUDGET=40 ROUNDS=3 OUT=$ROOT/build/bench-tuned
while [ $# -gt 0 ]; do
    case $1 in
    -n3) N3=$2; shift 2 ;;
    -n2) N2=$2; shift 2 ;;
    -b) BUDGET=$2; shift 2 ;;
    -m) MBUDGET=$2; shift 2 ;;
    -r) ROUNDS=$2; shift 2 ;;
    -o) OUT=$2; shift 2 ;;
    *) sed -n '2,/^set /{/^#/p}' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
cd "$ROOT"
PY=$ROOT/.venv/bin/python
export IMCL=$ROOT/build/imcl   # the compiler as built, not the copy the installed package carries
PROXY=$ROOT/build/samples/miniamr/proxy/miniamr-proxy
[ -x "$PY" ] && [ -x build/imcl ] && [ -x "$PROXY" ] || { echo "needs .venv and build/ (scripts/install-deps.sh, cmake --build build)" >&2; exit 2; }
mkdir -p "$OUT"
load() { echo "load $(cut -d' ' -f1-3 /proc/loadavg)"; }
echo "bench/tuned: $(getconf _NPROCESSORS_ONLN) CPUs, $(date -u +%FT%TZ), $(load)"

gcc -O3 -fno-math-errno -std=c11 -fopenmp "$HERE/tuned/loops.c" -o "$OUT/loops" -lm

KERNELS="sum7:${N3}x${N3}x${N3} sum27:${N3}x${N3}x${N3} sobel:${N2}x${N2} blur5:${N2}x${N2}"
echo; echo "== 1. imcl-tune (random_sample, budget $BUDGET, seed 1)"
for spec in $KERNELS; do
    k=${spec%%:*} size=${spec#*:}
    start=$SECONDS
    .venv/bin/imcl-tune "samples/$k/$k.imcl" --size "$size" -b opencl --budget "$BUDGET" --seed 1 \
        -o "$OUT/$k.best.json" --results "$OUT/$k.t4.json" --no-progress | tee "$OUT/$k.log"
    echo "  ($((SECONDS - start)) s, $(load))"
done

echo; echo "== 2. default and best side by side ($ROUNDS rounds)"
for spec in $KERNELS; do
    k=${spec%%:*} size=${spec#*:}
    "$PY" bench/tuned/compare.py "samples/$k/$k.imcl" "$size" "$OUT/$k.best.json" "$ROUNDS"
done
echo "  ($(load))"

echo; echo "== 3. hand-written C loops (min / median ms of 9; GStencil/s from the min)"
for spec in $KERNELS; do
    k=${spec%%:*} size=${spec#*:}
    n=${size%%x*}; pts=$((n * n)); [ "$k" = sum7 ] || [ "$k" = sum27 ] && pts=$((n * n * n))
    for t in 1 2; do
        read -r mn md _ <<<"$(OMP_NUM_THREADS=$t "$OUT/loops" "$k" "$n" 9)"
        printf '  %-6s %-14s %d thread(s)  %9.3f / %9.3f ms  %7.3f GStencil/s\n' "$k" "$size" "$t" "$mn" "$md" \
            "$(echo "$pts / ($mn * 1000000)" | bc -l)"
    done
done

echo; echo "== 4. miniAMR: imcl.tune (budget $MBUDGET), then miniamr-proxy default vs -t ($ROUNDS rounds)"
"$PY" bench/tuned/miniamr.py "$OUT" 32 16 4 "$MBUDGET"
SHOW='import json, sys
d = json.loads(sys.stdin.read())
p = "default" if d["params"] == "default" else "tuned"
print("  %s round %s %-8s kernel_s %.4f  %.3f GStencil/s  reference_s %.4f  checksum_ok %s" % (
      d["kernel"], sys.argv[1], p, d["kernel_s"], d["gstencil_per_s"], d["reference_s"], d["checksum_ok"]))'
PARGS=(--backend opencl --n 32 --blocks 16 --vars 40 --steps 2 --stages 5)
for v in v1 v2 v3; do
    for r in $(seq "$ROUNDS"); do
        for p in default "$OUT/$v.best.json"; do
            if [ "$p" = default ]; then set -- ; else set -- -t "$p"; fi
            "$PROXY" --kernel "$v" "${PARGS[@]}" "$@" | tail -1 | "$PY" -c "$SHOW" "$r"
        done
    done
done
echo; echo "done, $(load)"
