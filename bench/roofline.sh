#!/usr/bin/env bash
# The roofline benchmark: the copy bandwidth, a hand-written gcc -O3 loop and imcl's
# generated C reference for the 7-point double stencil (samples/sum7), side by side
# in one program, at 1 and 2 OpenMP threads, as GStencil/s and as ratios to the hand
# loop and to the copy roofline (copy bandwidth / 16 bytes per point); then imcl's
# OpenCL kernels (the default's two variants and tuned configurations of the 7- and
# 27-point stencils, with and without stream_z) through their plans, as fractions of
# the 2-thread roofline.
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
    *) sed -n "2,10p" "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
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

# ---- OpenCL: the device imcl's wrappers pick (PoCL here), through the plans ----------
# The default configuration's two variants (docs/tuning.md, "Defaults": IMCL_VARIANT
# picks one), and two tuned configurations, for the 7- and 27-point stencils; kernel
# time from the plan's profiling, best of REPS launches; the roofline is the 2-thread
# copy bandwidth above over 16 bytes per point (imcl --analyze: 8 read + 8 written;
# sum27's count of 24 includes its re-reads of the point it just wrote, which a cache
# serves).
echo
echo "OpenCL device: $(clinfo -l 2>/dev/null | sed -n 's/.*Device #0: //p' | head -1)"
printf '%-7s %5s %-44s %9s %10s %9s\n' kernel N configuration "best ms" "GStencil/s" "of roof"
OCL_CONFIGS=(
    'default, GPU variant (IMCL_VARIANT=gpu)|{}|gpu'
    'default, CPU variant (what a CPU device gets)|{}|cpu'
    '256x2x1, interior 0|{"block_size_x": 256, "block_size_y": 2, "block_size_z": 1, "interior": 0}|'
    '64x1x1, coarsen_x 4 blocked, interior 0|{"block_size_x": 64, "block_size_y": 1, "block_size_z": 1, "coarsen_x": 4, "interleaved": 0, "interior": 0}|'
    '256x2x1, stream_z 16, interior 0|{"block_size_x": 256, "block_size_y": 2, "stream_z": 16, "interior": 0}|'
    '128x1x1, stream_z 64, interior 0|{"block_size_x": 128, "block_size_y": 1, "stream_z": 64, "interior": 0}|'
    '32x4x1, stream_z 8|{"block_size_x": 32, "block_size_y": 4, "stream_z": 8}|'
)
for K in sum7 sum27; do
    i=0
    for c in "${OCL_CONFIGS[@]}"; do
        i=$((i + 1))
        IFS='|' read -r name cfg variant <<<"$c"
        dir=$work/ocl-$K-$i
        mkdir -p "$dir"
        echo "$cfg" >"$dir/params.json"
        "$IMCL" -b opencl -t "$dir/params.json" -o "$dir" "$ROOT/samples/$K/$K.imcl"
        cc -O2 -std=c11 -I"$dir" -DK="$K" -DIN=input -DOUT=output -DHALO=0 -include "$dir/$K.h" \
            "$HERE/placements/driver.c" "$dir/${K}_host.c" -o "$dir/driver" -lOpenCL
    done
    for n in $SIZES; do
        read -r gbs _ <<<"$(OMP_NUM_THREADS=2 "$work/roofline" "$n" "$REPS")"
        roof=$(echo "$gbs / 16" | bc -l)
        i=0
        for c in "${OCL_CONFIGS[@]}"; do
            i=$((i + 1))
            IFS='|' read -r name cfg variant <<<"$c"
            read -r _ best _ <<<"$(IMCL_VARIANT=$variant "$work/ocl-$K-$i/driver" "$n" "$REPS")"
            gs=$(echo "$n * $n * $n / ($best * 1000000)" | bc -l)
            printf '%-7s %5d %-44s %9.2f %10.3f %9.2f\n' "$K" "$n" "$name" "$best" "$gs" "$(echo "$gs / $roof" | bc -l)"
        done
    done
done
