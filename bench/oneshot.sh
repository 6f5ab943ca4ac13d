#!/usr/bin/env bash
# The OpenCL one-shot wrapper in a loop against the plan (docs/performance.md,
# "One-shot calls"): bench/oneshot.sh [-i IMCL] [-n "8 16 32 64"] [-r REPS]
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IMCL=$(dirname "$HERE")/build/imcl
SIZES="8 16 32 64"
REPS=50
while getopts "i:n:r:" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    n) SIZES=$OPTARG ;;
    r) REPS=$OPTARG ;;
    *) sed -n "2,4p" "$0"; exit 2 ;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$IMCL" -b opencl --prefix ocl_ -o "$work" "$(dirname "$HERE")/samples/sum7/sum7.imcl"
cc -O2 -std=c11 -I"$work" "$HERE/oneshot/oneshot.c" "$work/sum7_host.c" \
    "$work/imcl_runtime_opencl.c" \
    -o "$work/oneshot" -lOpenCL
echo "bench/oneshot: sum7, ms per call, mean of $REPS; load $(cut -d' ' -f1-3 /proc/loadavg)"
printf '%5s %12s %12s %12s %22s %10s\n' N "first call" "one-shot" "plan launch" "plan up+launch+down" "1shot/rnd"
for n in $SIZES; do
    read -r _ first one launch round <<<"$("$work/oneshot" "$n" "$REPS")"
    printf '%5d %12.3f %12.3f %12.3f %22.3f %10.2f\n' "$n" "$first" "$one" "$launch" "$round" \
        "$(echo "$one / $round" | bc -l)"
done
