#!/usr/bin/env bash
# The AN5D stencil set (bench/an5d/README.md) side by side in one program: per kernel, the
# copy bandwidth (its roofline: copy GB/s over 2 x sizeof(T) bytes a point), the hand loop
# of loops.c, imcl's C backend (-b c, OpenMP) and imcl's OpenCL default (-b opencl, through
# its plan, kernel time), and the OpenCL configuration of bench/an5d/best/K.json where
# there is one; every variant checked against the hand loop first. GStencil/s, best of
# REPS; an OpenCL variant that PoCL takes over LIMIT seconds to build is skipped.
#
#   bench/an5d/run.sh [-i IMCL] [-k "star3d1r_d box3d2r_f"] [-2 N2] [-3 N3] [-r REPS]
#                     [-b BESTDIR] [-l LIMIT] [-v]  (defaults: all, 4096, 256, 5, best, 120)
# -v prints each kernel's check (the largest difference from the hand loop) on stderr.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$(dirname "$HERE")")
IMCL=$ROOT/build/imcl
KERNELS=
N2=4096
N3=256
REPS=5
BEST=$HERE/best
LIMIT=120
VERBOSE=0
while getopts "i:k:2:3:r:b:l:vh" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    k) KERNELS=$OPTARG ;;
    2) N2=$OPTARG ;;
    3) N3=$OPTARG ;;
    r) REPS=$OPTARG ;;
    b) BEST=$OPTARG ;;
    l) LIMIT=$OPTARG ;;
    v) VERBOSE=1 ;;
    *) sed -n "2,11p" "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
[ -x "$IMCL" ] || { echo "no $IMCL: build imcl first (cmake --build build)" >&2; exit 2; }
if [ -z "$KERNELS" ]; then
    for b in star2d1r star2d2r star2d3r star2d4r box2d1r box2d2r box2d3r box2d4r \
        star3d1r star3d2r star3d3r star3d4r box3d1r box3d2r box3d3r box3d4r \
        j2d5pt j2d9pt j2d9pt_gol j3d27pt gradient2d; do
        KERNELS="$KERNELS ${b}_f ${b}_d"
    done
fi
for k in $KERNELS; do
    [ -f "$HERE/kernels/$k.imcl" ] || {
        echo "no kernel $k (bench/an5d/kernels/$k.imcl)" >&2
        exit 2
    }
done
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
CC=${CC:-gcc}
# OpenMP's threads sleep between the C loops (unless the caller says otherwise): with the
# default policy they spin after each loop on the two cores PoCL's threads need, and the
# OpenCL kernel timed next ran at half speed (j2d5pt float 1.4 against 2.8 GStencil/s);
# the hand loop and the C backend run as fast either way (3.4-3.5).
export OMP_WAIT_POLICY=${OMP_WAIT_POLICY:-passive}
CFLAGS="-O3 -march=native -fopenmp -std=c11 -Wall -Wextra"

# ---- generate: the C backend, the OpenCL default, the best configuration ------------------
mkdir -p "$work/c" "$work/ocl" "$work/best"
list=$work/an5d_list.h
: >"$list"
entries=
srcs=("$HERE/loops.c" "$HERE/an5d.c" "$work/ocl/imcl_runtime_opencl.c" "$work/c/imcl_runtime_c.c")
for k in $KERNELS; do
    src=$HERE/kernels/$k.imcl
    "$IMCL" -b c --prefix c_ -o "$work/c" "$src"
    "$IMCL" -b opencl --prefix ocl_ -o "$work/ocl" "$src"
    printf '#include "c/%s.h"\n#include "ocl/%s.h"\n' "$k" "$k" >>"$list"
    srcs+=("$work/c/${k}_ref.c" "$work/ocl/${k}_host.c")
    b=0
    if [ -f "$BEST/$k.json" ]; then
        "$IMCL" -b opencl -t "$BEST/$k.json" --prefix best_ -o "$work/best" "$src"
        printf '#include "best/%s.h"\n' "$k" >>"$list"
        srcs+=("$work/best/${k}_host.c")
        b=1
    fi
    t=double
    [ "${k##*_}" = f ] && t=float
    d=2
    case $k in *3d*) d=3 ;; esac
    entries="$entries X($k, $t, $d, $b)"
done
echo "#define AN5D_LIST(X)$entries" >>"$list"

# ---- build one program (two compilers at a time) ------------------------------------------
mkdir -p "$work/obj"
# shellcheck disable=SC2016 # sh -c's own $1..$5: the compiler, flags, folders, source
printf '%s\n' "${srcs[@]}" | xargs -d '\n' -P 2 -n 1 sh -c \
    'o="$4/obj/$(echo "$5" | tr / _).o"; $1 $2 -I"$3" -I"$4" -c "$5" -o "$o"' \
    sh "$CC" "$CFLAGS" "$HERE" "$work"
$CC -fopenmp "$work"/obj/*.o -lOpenCL -lm -o "$work/an5d"

# ---- run: each kernel in its own process ---------------------------------------------------
echo "bench/an5d: AN5D set, 2D ${N2}^2, 3D ${N3}^3, best of $REPS; $(getconf _NPROCESSORS_ONLN)" \
     "CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); $CC $CFLAGS; OMP_WAIT_POLICY=$OMP_WAIT_POLICY"
echo "OpenCL device: $(clinfo -l 2>/dev/null | sed -n 's/.*Device #0: //p' | head -1)"
printf '%-12s %5s %9s %9s %9s %9s %9s %7s %7s %8s\n' kernel N "roof GS/s" "hand" "C" "OCL def" \
    "OCL best" "OCL/C" "C/hand" "OCL/roof"
failed=
skipped=
checked=0
for k in $KERNELS; do
    skip=()
    for v in ocl best; do
        [ "$v" = best ] && [ ! -f "$BEST/$k.json" ] && continue
        rc=0
        timeout "$LIMIT" "$work/an5d" -2 "$N2" -3 "$N3" --warm "$v" "$k" 2>"$work/warm.log" || rc=$?
        if [ "$rc" = 124 ]; then
            skipped="$skipped $k($v)"
            name=default
            [ "$v" = best ] && name=best
            echo "$k: OpenCL $name: PoCL took over $LIMIT s to build it: skipped" >&2
            skip+=(--skip "$v")
        elif [ "$rc" != 0 ]; then
            cat "$work/warm.log" >&2
            skip+=(--skip "$v")
            failed="$failed $k($v build)"
        fi
    done
    rc=0
    line=$("$work/an5d" -2 "$N2" -3 "$N3" -r "$REPS" "${skip[@]}" "$k" 2>"$work/run.log") || rc=$?
    if [ "$rc" != 0 ] || [ -z "$line" ]; then
        cat "$work/run.log" >&2
        failed="$failed $k"
        continue
    fi
    checked=$((checked + 1))
    [ "$VERBOSE" = 0 ] || grep 'check ok' "$work/run.log" >&2
    # KERNEL DIMS N COPY_GB/S HAND C OCL BEST  ->  the row, ratios of the numbers it has
    echo "$line" | awk '{
        elem = ($1 ~ /_f$/) ? 4 : 8; roof = $4 / (2 * elem)
        ocl_c = ($7 == "-" || $6 == 0) ? "-" : sprintf("%.2f", $7 / $6)
        c_hand = ($5 == 0) ? "-" : sprintf("%.2f", $6 / $5)
        ocl_roof = ($7 == "-") ? "-" : sprintf("%.2f", $7 / roof)
        printf "%-12s %5d %9.3f %9.3f %9.3f %9s %9s %7s %7s %8s\n", $1, $3, roof, $5, $6, \
            ($7 == "-") ? "-" : sprintf("%.3f", $7), ($8 == "-") ? "-" : sprintf("%.3f", $8), \
            ocl_c, c_hand, ocl_roof
    }'
done
n=$(wc -w <<<"$KERNELS")
echo "checks against the hand loop: $checked of $n kernels passed"
[ -z "$skipped" ] || echo "skipped (PoCL build over $LIMIT s):$skipped"
if [ -n "$failed" ]; then
    echo "FAILED:$failed" >&2
    exit 1
fi
