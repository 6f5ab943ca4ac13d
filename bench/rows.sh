#!/usr/bin/env bash
# miniAMR's stencil phase on miniAMR's own layout (every block's variables as tables
# of rows, every row its own allocation), its loop against imcl's C reference run
# in place through PK_rows (samples/miniamr/stencil7.imcl: miniAMR's loop body
# copied verbatim under index_order(c)), one call per variable for all blocks, and
# the generated OpenCL through a batch plan (rows uploaded, one launch for all
# blocks, rows downloaded: the whole phase, transfers included; the OpenCL device of
# IMCL_PLATFORM / IMCL_DEVICE, PoCL here); the C reference at 1 and 2 OpenMP threads
# (the OpenCL device uses its own threads either way), miniAMR's loop on one (as
# each MPI rank runs it). Results checked bit for bit after every stage
# (bench/rows/rows.c). Then the same phase on blocks kept in dense host arrays (each
# variable's blocks one after the other, ghost layer included), where the plans
# compute in the host arrays themselves (PK_plan_attach: no transfer; OpenCL one plan
# per variable, attached once, its kernel time alone beside it), against an OpenCL
# plan with whole-array uploads and downloads (bench/rows/attach.c).
#
#   bench/rows.sh [-i IMCL] [-n "8 16 32"] [-v VARS] [-s STAGES] [-r REPS]
#
# Blocks per size: about 100 MB per mesh (256 at 8^3, 48 at 16^3, 8 at 32^3).
# Prints GStencil/s, best and median of REPS, and the ratios of the best to the loop's.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
IMCL=$ROOT/build/imcl
SIZES="8 16 32"
VARS=40
STAGES=2
REPS=5
while getopts "i:n:v:s:r:h" opt; do
    case $opt in
    i) IMCL=$OPTARG ;;
    n) SIZES=$OPTARG ;;
    v) VARS=$OPTARG ;;
    s) STAGES=$OPTARG ;;
    r) REPS=$OPTARG ;;
    *) sed -n "2,13p" "$0" | sed 's/^# \{0,1\}//'; exit 2 ;;
    esac
done
[ -x "$IMCL" ] || { echo "no $IMCL: build imcl first (cmake --build build)" >&2; exit 2; }
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
"$IMCL" -b c -o "$work" "$ROOT/samples/miniamr/stencil7.imcl"
"$IMCL" -b opencl --prefix ocl_ -o "$work/ocl" "$ROOT/samples/miniamr/stencil7.imcl"
for prog in rows attach; do
    gcc -O3 -std=c11 -fopenmp -DROWS_OPENCL -I"$work" "$HERE/rows/$prog.c" "$work/stencil7_ref.c" "$work/imcl_runtime_c.c" \
        "$work/ocl/stencil7_host.c" "$work/ocl/imcl_runtime_opencl.c" -lOpenCL -o "$work/$prog"
done
blocks_for() { case $1 in 8) echo 256 ;; 16) echo 48 ;; 32) echo 8 ;; *) echo $((800000000 / ($1 + 2) ** 3 / VARS / 8 + 1)) ;; esac; }
echo "bench/rows: miniAMR's 7-point stencil on row tables, $VARS variables, $STAGES stages, best/median" \
     "of $REPS; $(getconf _NPROCESSORS_ONLN) CPUs, load $(cut -d' ' -f1-3 /proc/loadavg); gcc -O3 -fopenmp"
printf '%4s %6s %7s %15s %15s %15s %15s %9s %9s %9s\n' N blocks threads "loop GS/s" "imcl GS/s" \
    "imcl+copy GS/s" "OpenCL GS/s" "imcl/loop" "+copy/loop" "ocl/loop"
for n in $SIZES; do
    b=$(blocks_for "$n")
    for t in 1 2; do
        read -r lb lm ib im cb cm ob om <<<"$(OMP_NUM_THREADS=$t "$work/rows" "$n" "$b" "$VARS" "$STAGES" "$REPS")"
        printf '%4d %6d %7d %7.3f/%7.3f %7.3f/%7.3f %7.3f/%7.3f %7.3f/%7.3f %9.2f %9.2f %9.2f\n' "$n" "$b" "$t" \
            "$lb" "$lm" "$ib" "$im" "$cb" "$cm" "$ob" "$om" "$(echo "$ib / $lb" | bc -l)" "$(echo "$cb / $lb" | bc -l)" \
            "$(echo "$ob / $lb" | bc -l)"
    done
done
echo
echo "bench/rows: the same on dense blocks, plans attached to the host arrays"
printf '%4s %6s %7s %15s %15s %15s %15s %15s %9s %9s %9s\n' N blocks threads "loop GS/s" "C attached" \
    "OpenCL attached" "its kernel" "OpenCL copies" "C/loop" "ocl/loop" "copy/loop"
for n in $SIZES; do
    b=$(blocks_for "$n")
    for t in 1 2; do
        read -r lb lm cb cm ob om pb pm kb km <<<"$(OMP_NUM_THREADS=$t "$work/attach" "$n" "$b" "$VARS" "$STAGES" "$REPS")"
        printf '%4d %6d %7d %7.3f/%7.3f %7.3f/%7.3f %7.3f/%7.3f %7.3f/%7.3f %7.3f/%7.3f %9.2f %9.2f %9.2f\n' "$n" "$b" \
            "$t" "$lb" "$lm" "$cb" "$cm" "$ob" "$om" "$kb" "$km" "$pb" "$pm" "$(echo "$cb / $lb" | bc -l)" \
            "$(echo "$ob / $lb" | bc -l)" "$(echo "$pb / $lb" | bc -l)"
    done
done
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
