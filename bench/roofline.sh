#!/usr/bin/env bash
# The C side of the roofline (issue 10, item 6; the OpenCL side is
# bench/placements.sh): the copy bandwidth, a hand-written gcc -O3 loop and imcl's
# generated C reference for the 7-point double stencil (samples/sum7), side by
# side in one program, at 1 and 2 OpenMP threads, as GStencil/s and as ratios to
# the hand loop and to the copy roofline (copy bandwidth / 16 bytes per point).
#
#   bench/roofline.sh [-i IMCL] [-n "128 256"] [-r REPS]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
IMCL=$ROOT/build/imcl
SIZES="128 256"
REPS=7
while getopts "i:n:r:h" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    n) SIZES=$OPTARG ;;
    r) REPS=$OPTARG ;;
    *) sed -n '2,9p' "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
[ -x "$IMCL" ] || { echo "no $IMCL: build imcl first (cmake --build build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$IMCL" -b c -o "$work" "$ROOT/samples/sum7/sum7.imcl"
gcc -O3 -std=c11 -fopenmp -I"$work" "$HERE/roofline/roofline.c" "$work/sum7_ref.c" -o "$work/roofline"
echo "bench/roofline: sum7 (7-point, doubles), best of $REPS; $(getconf _NPROCESSORS_ONLN) CPUs," \
     "load $(cut -d' ' -f1-3 /proc/loadavg); gcc -O3 -fopenmp"
printf '%5s %7s %9s %12s %12s %12s %10s %10s\n' N threads "copy GB/s" "roofline GS/s" "hand GS/s" \
    "imcl C GS/s" "imcl/hand" "imcl/roof"
for n in $SIZES; do
    for t in 1 2; do
        read -r gbs roof hand imcl <<<"$(OMP_NUM_THREADS=$t "$work/roofline" "$n" "$REPS")"
        printf '%5d %7d %9.2f %12.3f %12.3f %12.3f %10.2f %10.2f\n' "$n" "$t" "$gbs" "$roof" "$hand" "$imcl" \
            "$(echo "$imcl / $hand" | bc -l)" "$(echo "$imcl / $roof" | bc -l)"
    done
done
