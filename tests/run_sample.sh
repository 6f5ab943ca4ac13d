#!/usr/bin/env bash
# End-to-end test of one sample: run_sample.sh IMCL SAMPLE_DIR WORK_DIR
#
# SAMPLE_DIR is samples/<K> holding <K>.imcl (kernel K) and params.json. The script
#   1. generates the c, opencl and cuda backends into WORK_DIR/{c,opencl,cuda}
#      (prefixes ref_, ocl_, cuda_) and checks that a second run of imcl produces
#      the same files byte for byte;
#   2. builds K_ref.c (with OpenMP) and K_host.c (OpenCL) with the hand-written
#      driver tests/run/check_<K>.c and runs it: the driver compares both backends
#      with its own oracle (see tests/run/check_common.h);
#   3. compiles K.cu with nvcc and links the CUDA flavour of the driver
#      (-DCHECK_CUDA); it is run when a GPU is present (nvidia-smi -L);
#   4. builds the same CUDA flavour with scripts/nvcc-cpu (the CUDA emulated on the
#      CPU) and runs it, always: the generated CUDA against the same oracle.
# A missing nvcc or OpenCL platform (PoCL) is a failure, never a skip.
# Environment: CC (default gcc), NVCC (default /usr/local/cuda/bin/nvcc),
# CUDA_LIBDIR (default /usr/local/cuda/lib64), SANITIZE=1 (the emulated CUDA with ASan
# and UBSan).
set -euo pipefail

if [ $# -ne 3 ]; then
    echo "usage: $0 IMCL SAMPLE_DIR WORK_DIR" >&2
    exit 2
fi
IMCL=$(realpath "$1")
SAMPLE_DIR=$(realpath "$2")
WORK=$3
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
K=$(basename "$SAMPLE_DIR")
SRC=$SAMPLE_DIR/$K.imcl
PARAMS=$SAMPLE_DIR/params.json
DRIVER=$HERE/run/check_$K.c
CC=${CC:-gcc}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
CUDA_LIBDIR=${CUDA_LIBDIR:-/usr/local/cuda/lib64}
NVCC_CPU=$HERE/../scripts/nvcc-cpu
. "$HERE/lib/gpu.sh"

fail() { echo "FAIL [$K]: $*" >&2; exit 1; }
step() { echo "== [$K] $*"; }

for f in "$IMCL" "$SRC" "$PARAMS" "$DRIVER"; do
    [ -e "$f" ] || fail "missing $f"
done

rm -rf "$WORK"
mkdir -p "$WORK"
WORK=$(realpath "$WORK")
cd "$WORK"

# ---- 1. generate, twice -------------------------------------------------------
gen() { # gen BACKEND PREFIX OUTDIR
    mkdir -p "$3"
    "$IMCL" -b "$1" -o "$3" --prefix "$2" -t "$PARAMS" "$SRC" || fail "imcl -b $1 exited with status $?"
}
step "generate"
gen c ref_ c
gen opencl ocl_ opencl
gen cuda cuda_ cuda
for f in "c/${K}_ref.c" "c/$K.h" "opencl/$K.cl" "opencl/${K}_host.c" "opencl/$K.h" "cuda/$K.cu" "cuda/$K.h"; do
    [ -s "$f" ] || fail "imcl did not produce $f"
done

step "stability (second run must be byte-identical)"
gen c ref_ again/c
gen opencl ocl_ again/opencl
gen cuda cuda_ again/cuda
for b in c opencl cuda; do
    diff -r "$b" "again/$b" >/dev/null || { diff -r "$b" "again/$b" | head -20 >&2; fail "output of -b $b differs between two runs"; }
done

# ---- 2. C reference + OpenCL --------------------------------------------------
GEN_CFLAGS=(-O2 -Wall -Wextra)
DRV_CFLAGS=(-O2 -std=c11 -Wall -Wextra -Werror -I"$WORK" -I"$HERE/run")
step "build C reference and OpenCL wrapper"
"$CC" "${GEN_CFLAGS[@]}" -fopenmp -c "c/${K}_ref.c" -o "${K}_ref.o" || fail "C reference does not compile"
"$CC" "${GEN_CFLAGS[@]}" -c c/imcl_runtime_c.c -o runtime_c.o || fail "C reference runtime does not compile"
"$CC" "${GEN_CFLAGS[@]}" -c "opencl/${K}_host.c" -o "${K}_host.o" || fail "OpenCL wrapper does not compile"
"$CC" "${GEN_CFLAGS[@]}" -c opencl/imcl_runtime_opencl.c -o runtime.o || fail "OpenCL runtime does not compile"
"$CC" "${DRV_CFLAGS[@]}" -fopenmp -c "$DRIVER" -o "check_$K.o" || fail "check driver does not compile against the generated headers"
"$CC" -fopenmp "check_$K.o" "${K}_ref.o" runtime_c.o "${K}_host.o" runtime.o -lOpenCL -lm -o "check_$K" || fail "link of check_$K failed (-lOpenCL)"

step "run check_$K (C reference and OpenCL vs oracle)"
timeout 300 "./check_$K" || fail "check_$K failed (status $?)"
# The sample's params.json may leave the geometry to imcl: then K.cl has a CPU variant,
# which PoCL gets; IMCL_VARIANT=gpu runs the default kernel on it as well.
if grep -q '_cpu(' "opencl/$K.cl"; then
    step "run check_$K with the GPU variant of the OpenCL kernel (IMCL_VARIANT=gpu)"
    IMCL_VARIANT=gpu timeout 300 "./check_$K" || fail "check_$K with IMCL_VARIANT=gpu failed (status $?)"
fi

# ---- 3. CUDA: compile, link, run only with a GPU ---------------------------------
step "build CUDA flavour"
[ -x "$NVCC" ] || fail "nvcc not found at $NVCC (set NVCC)"
"$NVCC" -O2 -c "cuda/$K.cu" -o "${K}_cu.o" || fail "nvcc cannot compile cuda/$K.cu"
for sym in "cuda_$K" "cuda_${K}_strerror"; do
    nm -g --defined-only "${K}_cu.o" | awk '{print $NF}' | grep -x "$sym" >/dev/null \
        || fail "cuda/$K.cu defines no C symbol $sym (extern \"C\" missing?)"
done
"$CC" "${DRV_CFLAGS[@]}" -DCHECK_CUDA -fopenmp -c "$DRIVER" -o "check_${K}_cuda.o" \
    || fail "CUDA flavour of the check driver does not compile against cuda/$K.h"
"$CC" -fopenmp "check_${K}_cuda.o" "${K}_ref.o" runtime_c.o "${K}_cu.o" -L"$CUDA_LIBDIR" -Wl,-rpath,"$CUDA_LIBDIR" \
    -lcudart -lstdc++ -lm -o "check_${K}_cuda" || fail "link of check_${K}_cuda failed"
step "run check_${K}_cuda on a GPU (C reference and CUDA vs oracle; tests/lib/gpu.sh)"
gpu_run "sample.$K" 300 "./check_${K}_cuda" || fail "check_${K}_cuda failed (status $?)"

# ---- 4. CUDA on the CPU (scripts/nvcc-cpu), always run ----------------------------------
step "build CUDA flavour with nvcc-cpu and run it (C reference and emulated CUDA vs oracle)"
SAN=()
[ "${SANITIZE:-0}" = 1 ] && SAN=(-Xcompiler -fsanitize=address -Xcompiler -fsanitize=undefined)
"$NVCC_CPU" "${SAN[@]}" -c "cuda/$K.cu" -o "${K}_cu_cpu.o" || fail "nvcc-cpu cannot compile cuda/$K.cu"
"$NVCC_CPU" "${SAN[@]}" -Xcompiler -fopenmp "check_${K}_cuda.o" "${K}_ref.o" runtime_c.o "${K}_cu_cpu.o" \
    -o "check_${K}_cuda_cpu" || fail "nvcc-cpu cannot link check_${K}_cuda_cpu"
IMCL_EMU_LEAKS=fail timeout 300 "./check_${K}_cuda_cpu" || fail "check_${K}_cuda_cpu failed (status $?)"
echo "PASS [$K]"
