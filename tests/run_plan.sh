#!/usr/bin/env bash
# The persistent plan API: run_plan.sh IMCL WORK_DIR
#   1. generates tests/plan/relax.imcl, and tex3.imcl and tex2.imcl (arrays in
#      texture, shared and constant memory, with coarsening: tex3.json, tex2.json)
#      with the c, opencl and cuda backends (prefixes ref_, ocl_, cuda_), twice:
#      the outputs must be byte-identical;
#   2. compiles the generated C with -std=c11 -Wall -Wextra -Werror and the header
#      as C++, builds tests/plan/check_plan.c against the C reference and the
#      OpenCL wrapper and runs it (PoCL here);
#   3. compiles relax.cu, tex3.cu and tex2.cu with nvcc and links the CUDA flavour of
#      the driver; it runs when nvidia-smi lists a GPU;
#   4. builds the same CUDA flavour with scripts/nvcc-cpu (the CUDA emulated on the
#      CPU) and runs it, always, device memory leaks failing (IMCL_EMU_LEAKS=fail);
#   5. (not under SANITIZE) a CUDA batch too large for one launch, emulated;
#   6. the application's device: tests/plan/interop.imcl's plans in the application's
#      OpenCL queue and buffers (interop_opencl.c, PoCL, with the C reference) and CUDA
#      stream and device memory (interop_cuda.cu: nvcc-cpu always, nvcc on a GPU).
# SANITIZE=1 builds the driver, the generated C and the emulated CUDA with ASan and UBSan.
# Environment: CC (gcc), CXX (g++), NVCC (/usr/local/cuda/bin/nvcc), CUDA_LIBDIR.
set -euo pipefail
if [ $# -ne 2 ]; then
    echo "usage: $0 IMCL WORK_DIR" >&2
    exit 2
fi
IMCL=$(realpath "$1")
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)/plan
CC=${CC:-gcc}
CXX=${CXX:-g++}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CUDA_LIBDIR=${CUDA_LIBDIR:-/usr/local/cuda/lib64}
fail() { echo "FAIL [plan]: $*" >&2; exit 1; }
. "$HERE/../lib/gpu.sh"

rm -rf "$2"
mkdir -p "$2"
cd "$2"
for round in . again; do
    "$IMCL" -b c --prefix ref_ -o "$round/c" "$HERE/relax.imcl" || fail "imcl -b c"
    "$IMCL" -b opencl --prefix ocl_ -o "$round/opencl" "$HERE/relax.imcl" || fail "imcl -b opencl"
    "$IMCL" -b cuda --prefix cuda_ -o "$round/cuda" "$HERE/relax.imcl" || fail "imcl -b cuda"
    for b in c:ref_ opencl:ocl_ cuda:cuda_; do
        "$IMCL" -b "${b%%:*}" --prefix "${b#*:}" -o "$round/${b%%:*}" -t "$HERE/tex3.json" "$HERE/tex3.imcl" \
            || fail "imcl -b ${b%%:*} tex3.imcl"
        # --size: CUDA sizes the constant copy of tex2's c by it
        "$IMCL" -b "${b%%:*}" --prefix "${b#*:}" -o "$round/${b%%:*}" -t "$HERE/tex2.json" --size 13x11 "$HERE/tex2.imcl" \
            || fail "imcl -b ${b%%:*} tex2.imcl"
        "$IMCL" -b "${b%%:*}" --prefix "${b#*:}" -o "$round/${b%%:*}" "$HERE/interop.imcl" \
            || fail "imcl -b ${b%%:*} interop.imcl"
    done
done
for b in c opencl cuda; do
    diff -r "$b" "again/$b" >/dev/null || fail "output of -b $b differs between two runs"
done

SAN=()
[ "${SANITIZE:-0}" = 1 ] && SAN=(-fsanitize=address,undefined -fno-sanitize-recover=undefined)
FLAGS=(-O2 -std=c11 -Wall -Wextra -Werror "${SAN[@]}")
KERNELS=(relax tex3 tex2)
OBJS=()
for k in "${KERNELS[@]}"; do
    "$CC" "${FLAGS[@]}" -fopenmp -c "c/${k}_ref.c" -o "${k}_ref.o" || fail "c/${k}_ref.c does not compile cleanly"
    "$CC" "${FLAGS[@]}" -c "opencl/${k}_host.c" -o "${k}_host.o" || fail "opencl/${k}_host.c does not compile cleanly"
    "$CXX" -x c++ -Wall -Wextra -Werror -fsyntax-only "c/$k.h" || fail "$k.h is not valid C++"
    OBJS+=("${k}_ref.o" "${k}_host.o")
done
# each folder's host runtime, once for its kernels; and a second folder's copy (the run of
# the same imcl into again/) linked beside it: its functions are weak, one copy is kept
for b in opencl c; do
    "$CC" "${FLAGS[@]}" -c $b/imcl_runtime_$b.c -o runtime_$b.o || fail "$b/imcl_runtime_$b.c does not compile cleanly"
    "$CC" "${FLAGS[@]}" -c again/$b/imcl_runtime_$b.c -o runtime_again_$b.o ||
        fail "again/$b/imcl_runtime_$b.c does not compile cleanly"
    OBJS+=(runtime_$b.o runtime_again_$b.o)
done
"$CC" "${FLAGS[@]}" -I. -I"$HERE" -c "$HERE/check_plan.c" -o check_plan.o || fail "check_plan.c does not compile"
"$CC" "${SAN[@]}" -fopenmp check_plan.o "${OBJS[@]}" -lOpenCL -lm -o check_plan || fail "link of check_plan"
timeout 300 ./check_plan || fail "check_plan failed"
# relax.imcl leaves the geometry to imcl: PoCL gets its CPU variant; the default kernel too
grep -q 'relax_cpu(' opencl/relax.cl || fail "opencl/relax.cl has no CPU variant"
IMCL_VARIANT=gpu timeout 300 ./check_plan || fail "check_plan with IMCL_VARIANT=gpu failed"

[ -x "$NVCC" ] || fail "nvcc not found at $NVCC (set NVCC)"
CU_OBJS=()
for k in "${KERNELS[@]}" imcl_runtime_cuda; do  # the kernels and the folder's host runtime
    "$NVCC" -O2 -Xcompiler -Wall,-Wextra -c "cuda/$k.cu" -o "${k}_cu.o" 2>"${k}_cu.log" || { cat "${k}_cu.log" >&2; fail "nvcc cannot compile cuda/$k.cu"; }
    # warnings from the generated host code (nvcc -Xcompiler) are failures too
    if grep -qE "warning( #|:)" "${k}_cu.log"; then cat "${k}_cu.log" >&2; fail "cuda/$k.cu compiles with warnings"; fi
    CU_OBJS+=("${k}_cu.o")
done
"$CC" -O2 -std=c11 -Wall -Wextra -Werror -DCHECK_CUDA -I. -I"$HERE" -c "$HERE/check_plan.c" -o check_plan_cuda.o \
    || fail "the CUDA flavour of check_plan.c does not compile"
"$CC" check_plan_cuda.o "${CU_OBJS[@]}" -L"$CUDA_LIBDIR" -Wl,-rpath,"$CUDA_LIBDIR" -lcudart -lstdc++ -lm -o check_plan_cuda \
    || fail "link of check_plan_cuda"
gpu_run plan 300 ./check_plan_cuda || fail "check_plan_cuda failed"

# 4. the CUDA flavour with nvcc-cpu, always run
NVCC_CPU=$(dirname "$HERE")/../scripts/nvcc-cpu
XSAN=()
[ "${SANITIZE:-0}" = 1 ] && XSAN=(-Xcompiler -fsanitize=address -Xcompiler -fsanitize=undefined
                               -Xcompiler -fno-sanitize-recover=undefined)
CPU_OBJS=()
for k in "${KERNELS[@]}" imcl_runtime_cuda; do
    "$NVCC_CPU" "${XSAN[@]}" -c "cuda/$k.cu" -o "${k}_cu_cpu.o" || fail "nvcc-cpu cannot compile cuda/$k.cu"
    CPU_OBJS+=("${k}_cu_cpu.o")
done
"$CC" "${FLAGS[@]}" -DCHECK_CUDA -I. -I"$HERE" -c "$HERE/check_plan.c" -o check_plan_cuda_cpu.o \
    || fail "the CUDA flavour of check_plan.c does not compile"
"$NVCC_CPU" "${XSAN[@]}" check_plan_cuda_cpu.o "${CPU_OBJS[@]}" -o check_plan_cuda_cpu || fail "nvcc-cpu link of check_plan_cuda_cpu"
IMCL_EMU_LEAKS=fail timeout 300 ./check_plan_cuda_cpu || fail "check_plan_cuda_cpu failed"

# 5. a CUDA batch past the grid's 65535 z groups takes several launches: miniAMR's
# stencil7 (bench/gpu/batch.c, checked cell by cell in its last block) on 16384 blocks
# of 4^3 in blocks of 32x4x1 threads: 4 z groups per block, 16383 blocks per launch
if [ "${SANITIZE:-0}" != 1 ]; then
    ROOT=$(dirname "$(dirname "$HERE")")
    "$IMCL" -b cuda --prefix cuda_ -o batch "$ROOT/samples/miniamr/stencil7.imcl" || fail "imcl stencil7"
    grep -q "const dim3 imcl_block(32, 4, 1);" batch/stencil7.cu || fail "stencil7's default block is not 32x4x1"
    "$NVCC_CPU" -O2 -I batch batch/stencil7.cu batch/imcl_runtime_cuda.cu "$ROOT/bench/gpu/copy_bw.cu" "$ROOT/bench/gpu/batch.c" \
        -o batch_cpu || fail "nvcc-cpu cannot build bench/gpu/batch.c"
    IMCL_EMU_LEAKS=fail timeout 300 ./batch_cpu 4 16384 1 || fail "a batch of 16384 blocks (two launches) failed"
    # the same by a list of every block, the last first (the list moved, not the arrays)
    IMCL_EMU_LEAKS=fail timeout 300 ./batch_cpu 4 16384 1 reverse ||
        fail "a batch of 16384 blocks by a list (two launches) failed"
fi
# 6. the application's device
"$CC" "${FLAGS[@]}" -fopenmp -c c/addone_ref.c -o addone_ref.o || fail "c/addone_ref.c does not compile cleanly"
"$CC" "${FLAGS[@]}" -c opencl/addone_host.c -o addone_host.o || fail "opencl/addone_host.c does not compile cleanly"
"$CC" "${FLAGS[@]}" -I. -c "$HERE/interop_opencl.c" -o interop_opencl.o || fail "interop_opencl.c does not compile"
"$CC" "${SAN[@]}" -fopenmp interop_opencl.o addone_ref.o runtime_c.o addone_host.o runtime_opencl.o -lOpenCL -lm -o interop_opencl \
    || fail "link of interop_opencl"
timeout 300 ./interop_opencl || fail "interop_opencl failed"
"$NVCC_CPU" "${XSAN[@]}" -c cuda/addone.cu -o addone_cu_cpu.o || fail "nvcc-cpu cannot compile cuda/addone.cu"
"$NVCC_CPU" "${XSAN[@]}" -I. "$HERE/interop_cuda.cu" addone_cu_cpu.o imcl_runtime_cuda_cu_cpu.o -o interop_cuda_cpu \
    || fail "nvcc-cpu cannot build interop_cuda.cu"
IMCL_EMU_LEAKS=fail timeout 300 ./interop_cuda_cpu || fail "interop_cuda_cpu failed"
"$NVCC" -O2 -Xcompiler -Wall,-Wextra -c cuda/addone.cu -o addone_cu.o 2>addone_cu.log \
    || { cat addone_cu.log >&2; fail "nvcc cannot compile cuda/addone.cu"; }
if grep -qE "warning( #|:)" addone_cu.log; then cat addone_cu.log >&2; fail "cuda/addone.cu compiles with warnings"; fi
"$NVCC" -O2 -I. "$HERE/interop_cuda.cu" addone_cu.o imcl_runtime_cuda_cu.o -o interop_cuda || fail "nvcc cannot build interop_cuda.cu"
gpu_run plan_interop 300 ./interop_cuda || fail "interop_cuda failed"
echo "PASS [plan]"
