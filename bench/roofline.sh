#!/usr/bin/env bash
# The roofline benchmark: the copy bandwidth, a hand-written gcc -O3 loop and imcl's
# generated C reference for the 7-point double stencil (samples/sum7), side by side
# in one program, at 1 and 2 OpenMP threads, as GStencil/s and as ratios to the hand
# loop and to the copy roofline (copy bandwidth / 16 bytes per point); then imcl's
# OpenCL kernels (the default's two variants and tuned configurations of the 7- and
# 27-point stencils, with and without stream_z) through their plans, as fractions of
# the 2-thread roofline; then miniAMR's kernels through miniamr-proxy.
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
gcc -O3 -std=c11 -fopenmp -I"$work" "$HERE/roofline/roofline.c" "$work/sum7_ref.c" "$work/imcl_runtime_c.c" -o "$work/roofline"
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
    '128x1x1, coarsen_z 2, interior 0|{"block_size_x": 128, "block_size_y": 1, "block_size_z": 1, "coarsen_z": 2, "interior": 0}|'
    '128x1x1, coarsen_z 4, interior 0|{"block_size_x": 128, "block_size_y": 1, "block_size_z": 1, "coarsen_z": 4, "interior": 0}|'
    '256x1x1, coarsen_z 4, interior 0|{"block_size_x": 256, "block_size_y": 1, "block_size_z": 1, "coarsen_z": 4, "interior": 0}|'
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
            "$HERE/placements/driver.c" "$dir/${K}_host.c" "$dir/imcl_runtime_opencl.c" \
            -o "$dir/driver" -lOpenCL
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

# ---- miniAMR's kernels (samples/miniamr: v1, v2, v3) through miniamr-proxy ------------
# The proxy's whole run (16 blocks of 32^3 cells, 8 variables, 1 x 5 stages, OpenCL
# plans) with the kernels' built-in configuration (samples/miniamr/<v>.params.json:
# 8x8x8, which sets the geometry) and with the defaults (-t of {}: on a CPU device the
# CPU variant where the kernel has one, v3). The kernel time only, as GStencil/s,
# beside the proxy's own one-thread C loop in the same run and as a fraction of the
# 2-thread copy roofline of the largest size above.
PROXY=$ROOT/build/samples/miniamr/proxy/miniamr-proxy
if [ -x "$PROXY" ]; then
    echo
    echo "miniAMR kernels (miniamr-proxy --n 32 --blocks 16 --vars 8 --steps 1 --stages 5," \
         "OpenCL, best of $REPS runs); roofline $(printf '%.3f' "$roof") GStencil/s"
    printf '%-4s %-34s %12s %12s %10s %9s\n' kernel configuration "kernel GS/s" "C loop GS/s" \
        "kernel/C" "of roof"
    echo '{}' >"$work/defaults.json"
    for v in v1 v2 v3; do
        for p in built-in defaults; do
            opt=()
            [ "$p" = defaults ] && opt=(-t "$work/defaults.json")
            best=0 cbest=0
            for ((r = 0; r < REPS; r++)); do
                line=$("$PROXY" --kernel "$v" --backend opencl --n 32 --blocks 16 --vars 8 --steps 1 \
                    --stages 5 "${opt[@]}" | tail -n 1)
                read -r gs cs <<<"$(python3 -c 'import json, sys; d = json.loads(sys.argv[1]);
print(d["gstencil_per_s"], d["reference_gstencil_per_s"])' "$line")"
                best=$(echo "if ($gs > $best) $gs else $best" | bc -l)
                cbest=$(echo "if ($cs > $cbest) $cs else $cbest" | bc -l)
            done
            name="$p"
            [ "$p" = built-in ] && name="built-in (8x8x8)"
            [ "$p" = defaults ] && name="defaults (-t {})"
            printf '%-4s %-34s %12.3f %12.3f %10.2f %9.2f\n' "$v" "$name" "$best" "$cbest" \
                "$(echo "$best / $cbest" | bc -l)" "$(echo "$best / $roof" | bc -l)"
        done
    done
fi
