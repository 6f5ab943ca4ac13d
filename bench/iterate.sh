#!/usr/bin/env bash
# Iterated stencils (docs/iterate.md): PK_plan_iterate of samples/heat3d (7-point, double,
# N^3) and of AN5D's j2d5pt (float, M^2, bench/an5d/kernels with the iterate pragma added),
# STEPS steps, on the C reference with time_tile 1, 2, 4 and 8 and on OpenCL with 1, 8 and
# the default (on PoCL's CPU device the CPU variant's wavefront), beside a parallel copy
# of the grid (the single-step roofline), in one process per kernel, rotated each
# repetition (bench/iterate/iterate.c). Prints min and median seconds, the effective
# GStencil/s (steps x points / min) and its ratio to the copy's.
#
#   bench/iterate.sh [-i IMCL] [-n N] [-m M] [-s STEPS] [-r REPS]   (256, 8192, 8, 5)
# CFLAGS (default -O2) compiles the program and the generated C.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
IMCL=$ROOT/build/imcl N=256 M=8192 STEPS=8 REPS=5
while getopts "i:n:m:s:r:h" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    n) N=$OPTARG ;;
    m) M=$OPTARG ;;
    s) STEPS=$OPTARG ;;
    r) REPS=$OPTARG ;;
    *) sed -n "2,11p" "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
[ -x "$IMCL" ] || { echo "no $IMCL: build imcl first (cmake --build build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
sed 's/^#pragma imcl boundary_cond(in:constant)$/&\n#pragma imcl iterate(in, out)/' \
    "$ROOT/bench/an5d/kernels/j2d5pt_f.imcl" >"$work/j2d5pt_f.imcl"
echo "bench/iterate: $STEPS steps, best and median of $REPS; $(getconf _NPROCESSORS_ONLN) CPUs," \
     "load $(cut -d' ' -f1-3 /proc/loadavg); gcc ${CFLAGS:--O2} -fopenmp; $(date -u +%F)"
for k in heat3d:HEAT3D:"$ROOT/samples/heat3d/heat3d.imcl":$N j2d5pt_f:J2D5PT:"$work/j2d5pt_f.imcl":$M; do
    IFS=: read -r name def src n <<<"$k"
    d=$work/$name
    mkdir -p "$d"
    for t in 1 2 4 8; do
        echo "{\"time_tile\": $t}" >"$d/t$t.json"
        "$IMCL" -b c --prefix c${t}_ -t "$d/t$t.json" -o "$d/c$t" "$src"
        cp "$d/c$t/$name.h" "$d/c$t.h"
    done
    "$IMCL" -b opencl --prefix ocl_ -o "$d/ocl" "$src"
    cp "$d/ocl/$name.h" "$d/ocl.h"
    for t in 1 8; do
        "$IMCL" -b opencl --prefix ocl${t}_ -t "$d/t$t.json" -o "$d/ocl$t" "$src"
        cp "$d/ocl$t/$name.h" "$d/ocl$t.h"
    done
    srcs=()
    for t in 1 2 4 8; do srcs+=("$d/c$t/${name}_ref.c"); done
    # shellcheck disable=SC2086
    gcc ${CFLAGS:--O2} -fopenmp -D"$def" -I"$d" -I"$d/c1" "$HERE/iterate/iterate.c" "${srcs[@]}" "$d/c1/imcl_runtime_c.c" \
        "$d/ocl/${name}_host.c" "$d/ocl1/${name}_host.c" "$d/ocl8/${name}_host.c" "$d/ocl/imcl_runtime_opencl.c" \
        -lOpenCL -lm -o "$d/iterate"
    echo
    if [ "$def" = HEAT3D ]; then echo "$name, $n^3 doubles:"; else echo "$name, $n^2 floats:"; fi
    printf '%-16s %9s %9s %8s %8s\n' variant "min s" "median s" "GSt/s" "x copy"
    "$d/iterate" "$n" "$STEPS" "$REPS" | awk '
        { name = substr($0, 1, 16); min[NR] = $(NF-2); med[NR] = $(NF-1); g[NR] = $NF; nm[NR] = name }
        END { for (i = 1; i <= NR; i++) printf "%s %9.4f %9.4f %8.3f %8.2f\n", nm[i], min[i], med[i], g[i], g[i] / g[1] }'
done
