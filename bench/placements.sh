#!/usr/bin/env bash
# Kernel time of every memory placement and of a few block / coarsening choices, as
# ratios to the default configuration (global memory, 32x4x1 blocks), measured side
# by side in one run through the persistent plans (OpenCL profiling events).
#
#   bench/placements.sh [-i IMCL] [-n "64 128"] [-r REPS] [-b opencl]
#
# Kernels: the 7-point stencil (samples/sum7, boundary constant) and miniAMR's
# 7-point average (samples/miniamr, halo 1, boundary none), on N^3 Blocks of
# doubles. Every configuration must give the same output checksum as the default
# (placements and coarsening do not reorder the sums); a configuration the dumped
# space does not list is reported as such, not run. Not a test: it asserts only
# the checksums. Device: the OpenCL device imcl's wrappers pick (IMCL_PLATFORM /
# IMCL_DEVICE).
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
IMCL=$ROOT/build/imcl
SIZES="64 128"
REPS=7
usage() { sed -n '2,14p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "i:n:r:h" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    n) SIZES=$OPTARG ;;
    r) REPS=$OPTARG ;;
    *) usage ;;
    esac
done
[ -x "$IMCL" ] || { echo "no $IMCL: build imcl first (cmake --build build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name|JSON configuration ({A} stands for the kernel's input array)
CONFIGS=(
    'global, 32x4x1 (default)|{}'
    'global, 32x4x1, no interior split|{"interior": 0}'
    'shared|{"mem_{A}": "shared"}'
    'texture|{"mem_{A}": "texture"}'
    'constant|{"mem_{A}": "constant"}'
    'global, 32x4x2|{"block_size_x": 32, "block_size_y": 4, "block_size_z": 2}'
    'global, 64x4x1|{"block_size_x": 64, "block_size_y": 4, "block_size_z": 1}'
    'global, 64x4x1, no interior split|{"block_size_x": 64, "block_size_y": 4, "block_size_z": 1, "interior": 0}'
    'global, 256x2x1|{"block_size_x": 256, "block_size_y": 2, "block_size_z": 1}'
    'global, 256x2x1, no interior split|{"block_size_x": 256, "block_size_y": 2, "block_size_z": 1, "interior": 0}'
    'global, coarsen_x 4 interleaved|{"coarsen_x": 4}'
    'global, coarsen_x 4 blocked|{"coarsen_x": 4, "interleaved": 0}'
    'global, coarsen_z 4|{"coarsen_z": 4}'
    'shared, 32x4x2|{"mem_{A}": "shared", "block_size_x": 32, "block_size_y": 4, "block_size_z": 2}'
    'shared, coarsen_z 4|{"mem_{A}": "shared", "coarsen_z": 4}'
    'texture, 32x4x2|{"mem_{A}": "texture", "block_size_x": 32, "block_size_y": 4, "block_size_z": 2}'
)

echo "bench/placements: kernel time per launch (median of $REPS) through the OpenCL plans;" \
     "$(getconf _NPROCESSORS_ONLN) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg)"
echo "OpenCL device: $(clinfo -l 2>/dev/null | sed -n 's/.*Device #0: //p' | head -1)"
for spec in "sum7 input output 0" "miniamr in out 1"; do
    read -r K A OUT H <<<"$spec"
    src=$ROOT/samples/$K/$K.imcl
    for n in $SIZES; do
        "$IMCL" --dump-space -b opencl --size "${n}x${n}x${n}" "$src" >"$work/space.json"
        printf '\n%s, %d^3 doubles\n' "$K" "$n"
        printf '  %-36s %10s %10s %8s\n' configuration "median ms" "min ms" ratio
        base=
        basesum=
        i=0
        for c in "${CONFIGS[@]}"; do
            i=$((i + 1))
            name=${c%%|*}
            cfg=${c#*|}
            cfg=${cfg//\{A\}/$A}
            dir=$work/$K-$n-$i
            mkdir -p "$dir"
            echo "$cfg" >"$dir/params.json"
            listed=$(python3 - "$work/space.json" "$dir/params.json" <<'PY'
import json, sys
space = json.load(open(sys.argv[1])); cfg = json.load(open(sys.argv[2]))
full = dict(space["defaults"], **cfg)
ok = all(k in space["parameters"] and full[k] in space["parameters"][k] for k in cfg) and \
     all(eval(r, {}, dict(full)) for r in space["restrictions"])
print("yes" if ok else "no")
PY
)
            if [ "$listed" != yes ]; then
                printf '  %-36s %10s\n' "$name" "not in the space"
                continue
            fi
            "$IMCL" -b opencl --size "${n}x${n}x${n}" -t "$dir/params.json" -o "$dir" "$src"
            cc -O2 -std=c11 -I"$dir" -DK="$K" -DIN="$A" -DOUT="$OUT" -DHALO="$H" -include "$dir/$K.h" \
                "$HERE/placements/driver.c" "$dir/${K}_host.c" "$dir/imcl_runtime_opencl.c" \
                -o "$dir/driver" -lOpenCL
            read -r med min sum <<<"$("$dir/driver" "$n" "$REPS")"
            if [ "$med" = error ]; then
                printf '  %-36s %10s\n' "$name" "plan refused: $min $sum"
                continue
            fi
            if [ -z "$base" ]; then
                base=$med
                basesum=$sum
            fi
            [ "$sum" = "$basesum" ] || { echo "  $name: checksum $sum differs from the default's $basesum" >&2; exit 1; }
            printf '  %-36s %10.3f %10.3f %8.2f\n' "$name" "$med" "$min" "$(echo "$base / $med" | bc -l)"
        done
    done
done
echo
echo "ratio = default median / this median (above 1: faster than the default); load after: $(cut -d' ' -f1-3 /proc/loadavg)"
