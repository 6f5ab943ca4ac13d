#!/usr/bin/env bash
# The generated host code under valgrind memcheck: run_valgrind.sh IMCL WORK_DIR
#
# What runs (each program first natively, then under valgrind):
#   * every sample (samples/<K>/<K>.imcl) with its driver tests/run/check_<K>.c: the
#     one-shot wrappers of the C reference and of OpenCL (PoCL here), on its default
#     size, plus the refusals each driver makes (a NULL array; life: grid arrays of
#     different extents);
#   * tests/plan/check_plan.c: the plan API of the C reference and OpenCL (relax, and
#     tex3 / tex2 with texture, shared and constant memory), with every argument
#     refusal it makes (NULL plans and arrays, bad extents, bad swaps), and K_release;
#   * tests/lang/placement (its first configuration): arrays the device cannot take
#     in constant memory (an 8 MiB array on PoCL's 1 MiB constant buffer) refused.
# valgrind must report no invalid access, no use of uninitialised memory and no
# definite leak (--errors-for-leak-kinds=definite); tests/valgrind/imcl.supp lists
# what is not the generated code (PoCL's, LLVM's and the OpenMP runtime's own
# allocations, a glibc false positive, the lang driver's test data).
#
# PoCL compiles a kernel for the CPU it sees, and valgrind shows it another CPU; with
# the CPU and kernel library named (POCL_LLVM_CPU_NAME, POCL_KERNELLIB_NAME) both runs
# use one compiled kernel from the cache the native run fills, which keeps the
# compiler itself from running under valgrind (40 s a kernel instead of under 1).
# Environment: CC (gcc), VALGRIND (valgrind).
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 IMCL WORK_DIR" >&2
    exit 2
fi
IMCL=$(realpath "$1")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
CC=${CC:-gcc}
VALGRIND=${VALGRIND:-valgrind}
command -v "$VALGRIND" >/dev/null || { echo "FAIL [valgrind]: $VALGRIND not found" >&2; exit 1; }
rm -rf "$2"
mkdir -p "$2"
WORK=$(realpath "$2")
export POCL_CACHE_DIR=$WORK/pocl-cache POCL_LLVM_CPU_NAME=x86-64 POCL_KERNELLIB_NAME=sse2

pass=0
failn=0
fail() { echo "FAIL [$1]: $2"; failn=$((failn + 1)); }

# check NAME PROGRAM: native run, then memcheck
check() {
    local name=$1 exe=$2
    if ! (cd "$(dirname "$exe")" && timeout 300 "$exe" >native.log 2>&1); then
        fail "$name" "the program fails without valgrind: $(tail -n 3 "$(dirname "$exe")/native.log")"
        return
    fi
    local log=$(dirname "$exe")/valgrind.log
    # memcheck [OPTION]: the program under valgrind, its report in $log
    memcheck() {
        (cd "$(dirname "$exe")" && timeout 600 "$VALGRIND" -q --error-exitcode=99 --leak-check=full \
            --errors-for-leak-kinds=definite --show-leak-kinds=definite "$@" \
            --suppressions="$HERE/valgrind/imcl.supp" "$exe" >"$log" 2>&1)
    }
    if memcheck; then
        echo "PASS [$name]"
        pass=$((pass + 1))
    else
        local rc=$?
        # again with the origins of uninitialised values tracked (twice as slow): the
        # report then says where such a value came from
        memcheck --track-origins=yes
        fail "$name" "valgrind reports errors (status $rc); $log:"
        grep -E '^==[0-9]+== ' "$log" | head -n 40 | sed 's/^/    /'
    fi
}

# gen DIR SOURCE [imcl options]: the C reference (ref_) and OpenCL (ocl_) of SOURCE
gen() {
    local dir=$1 src=$2
    shift 2
    "$IMCL" -b c --prefix ref_ -o "$dir/c" "$@" "$src" && "$IMCL" -b opencl --prefix ocl_ -o "$dir/opencl" "$@" "$src"
}
FLAGS=(-std=c11 -g -O1 -Wall -Wextra -Werror)

# 1. the samples' one-shot wrappers
for src in "$ROOT"/samples/*/*.imcl; do
    K=$(basename "$src" .imcl)
    drv=$HERE/run/check_$K.c
    [ -f "$drv" ] || continue
    d=$WORK/$K
    gen "$d" "$src" || { fail "$K" "imcl cannot generate it"; continue; }
    "$CC" "${FLAGS[@]}" -fopenmp -I"$d" -I"$HERE/run" "$drv" "$d/c/${K}_ref.c" "$d/c/imcl_runtime_c.c" "$d/opencl/${K}_host.c" \
        "$d/opencl/imcl_runtime_opencl.c" -lOpenCL -lm -o "$d/check" || { fail "$K" "the driver does not build"; continue; }
    check "$K" "$d/check"
done

# 2. the plans
d=$WORK/plan
ok=1
gen "$d" "$HERE/plan/relax.imcl" || ok=0
gen "$d" "$HERE/plan/tex3.imcl" -t "$HERE/plan/tex3.json" || ok=0
gen "$d" "$HERE/plan/tex2.imcl" -t "$HERE/plan/tex2.json" --size 13x11 || ok=0
if [ $ok = 1 ] && "$CC" "${FLAGS[@]}" -fopenmp -I"$d" -I"$HERE/plan" "$HERE/plan/check_plan.c" \
        "$d"/c/*.c "$d"/opencl/*.c -lOpenCL -lm -o "$d/check"; then
    check plan "$d/check"
else
    fail plan "imcl or the driver build failed"
fi

# 3. constant memory the device cannot take (tests/lang/placement, first configuration)
d=$WORK/placement
mkdir -p "$d"
grep -v '^[[:space:]]*\(#\|$\)' "$HERE/lang/placement.params" | head -n 1 >"$d/params.json"
if gen "$d" "$HERE/lang/placement.imcl" -t "$d/params.json" &&
        "$CC" "${FLAGS[@]}" -O0 -fopenmp -I"$d" -I"$HERE/run" -I"$HERE/lang" "$HERE/lang/placement.c" \
            "$d"/c/*.c "$d"/opencl/*.c -lOpenCL -lm -o "$d/check"; then
    check placement "$d/check"
else
    fail placement "imcl or the driver build failed"
fi

echo "$pass passed, $failn failed"
[ "$failn" -eq 0 ]
