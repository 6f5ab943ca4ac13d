#!/usr/bin/env bash
# The C reference's own space (docs/tuning.md, "The C reference's space"): every
# configuration of `imcl --dump-space -b c` (omp_schedule x omp_chunk) of the 7-point
# double stencil (samples/sum7), each built into bench/roofline's program and timed
# against the hand-written gcc -O3 loop in the same run, at each size and OpenMP
# thread count. Prints one line per configuration, fastest first by the median of
# the imcl/hand ratios over ROUNDS rounds (the rounds interleave the configurations,
# so a noisy minute touches them all alike).
#
#   bench/c_space.sh [-i IMCL] [-n "128 256"] [-t "2"] [-r REPS] [-R ROUNDS]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
IMCL=$ROOT/build/imcl
SIZES="128 256"
THREADS=2
REPS=5
ROUNDS=3
while getopts "i:n:t:r:R:h" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    n) SIZES=$OPTARG ;;
    t) THREADS=$OPTARG ;;
    r) REPS=$OPTARG ;;
    R) ROUNDS=$OPTARG ;;
    *) sed -n "2,10p" "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
[ -x "$IMCL" ] || { echo "no $IMCL: build imcl first (cmake --build build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
# every configuration of the dump, as one JSON object a line
"$IMCL" --dump-space -b c "$ROOT/samples/sum7/sum7.imcl" | python3 -c '
import itertools, json, sys
space = json.load(sys.stdin)
names = list(space["parameters"])
for values in itertools.product(*(space["parameters"][n] for n in names)):
    cfg = dict(zip(names, values))
    if all(eval(r, {}, dict(cfg)) for r in space["restrictions"]):
        print(json.dumps(cfg))' >"$work/configs"
n=0
while read -r cfg; do
    d=$work/c$n
    mkdir -p "$d"
    echo "$cfg" >"$d/params.json"
    "$IMCL" -b c -t "$d/params.json" -o "$d" "$ROOT/samples/sum7/sum7.imcl"
    gcc -O3 -std=c11 -fopenmp -I"$d" "$HERE/roofline/roofline.c" "$d/sum7_ref.c" "$d/imcl_runtime_c.c" -o "$d/roofline"
    n=$((n + 1))
done <"$work/configs"
echo "bench/c_space: sum7 (7-point, doubles), $n configurations, best of $REPS in each of $ROUNDS rounds;" \
     "$(getconf _NPROCESSORS_ONLN) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); gcc -O3 -fopenmp"
for size in $SIZES; do
    for t in $THREADS; do
        : >"$work/ratios"
        for r in $(seq "$ROUNDS"); do
            for i in $(seq 0 $((n - 1))); do
                # roofline prints: copy GB/s, roofline, hand and imcl GStencil/s
                read -r _ _ hand imcl <<<"$(OMP_NUM_THREADS=$t "$work/c$i/roofline" "$size" "$REPS")"
                echo "$i $hand $imcl" >>"$work/ratios"
            done
        done
        echo
        echo "N=$size, $t thread(s): imcl C / hand loop, min median max over the rounds; hand GS/s median"
        python3 - "$work/configs" "$work/ratios" <<'PY'
import json, statistics, sys
cfgs = [json.loads(l) for l in open(sys.argv[1])]
runs = {}
for line in open(sys.argv[2]):
    i, hand, imcl = line.split()
    runs.setdefault(int(i), []).append((float(imcl) / float(hand), float(hand)))
rows = sorted(runs.items(), key=lambda kv: -statistics.median(r for r, _ in kv[1]))
for i, rs in rows:
    ratios = [r for r, _ in rs]
    c = cfgs[i]
    print(f"  {c['omp_schedule']:8s} chunk {c['omp_chunk']:3d}   {min(ratios):5.2f} {statistics.median(ratios):5.2f}"
          f" {max(ratios):5.2f}   {statistics.median(h for _, h in rs):6.3f}")
PY
    done
done
