#!/usr/bin/env bash
# Plans over the application's memory (docs/performance.md, "Plans over the application's
# memory"): VARS OpenCL batch plans of miniAMR's stencil7 for CAPACITY blocks of N^3, made
# and attached to the application's slabs, against the same with each array's own memory
# made first (as every create did before it left that to the first use); bench/attach/attach.c.
#
#   bench/attach.sh [-i IMCL] [-n N] [-c CAPACITY] [-v VARS] [-r REPS]   (16, 4000, 40, 5)
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
IMCL=$(dirname "$HERE")/build/imcl
N=16 CAP=4000 VARS=40 REPS=5
while getopts "i:n:c:v:r:" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    n) N=$OPTARG ;;
    c) CAP=$OPTARG ;;
    v) VARS=$OPTARG ;;
    r) REPS=$OPTARG ;;
    *) sed -n "2,7p" "$0"; exit 2 ;;
    esac
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$IMCL" -b opencl -o "$work" "$(dirname "$HERE")/samples/miniamr/stencil7.imcl"
cc -O2 -std=c11 -I"$work" "$HERE/attach/attach.c" "$work/stencil7_host.c" \
    "$work/imcl_runtime_opencl.c" -o "$work/attach" -lOpenCL
read -r amin amed fmin fmed <<<"$("$work/attach" "$N" "$CAP" "$VARS" "$REPS")"
echo "bench/attach: $VARS plans of $CAP blocks of $N^3 (2 arrays each), s for all, min / median of $REPS"
echo "  created and attached:      $amin / $amed"
echo "  own memory made first:     $fmin / $fmed"
