#!/usr/bin/env bash
# The CUDA tests and benchmarks on a real NVIDIA GPU (docs/testing.md, "Running CUDA
# without a GPU", last paragraph).
#
#   scripts/gpu-check.sh [BUILD_DIR]        (default build-gpu)
#
# Needs a GPU that nvidia-smi lists and nvcc (NVCC, default /usr/local/cuda/bin/nvcc);
# without either it stops with status 1. It
#   1. configures and builds imcl and miniamr-proxy (with its cuda backend) in BUILD_DIR;
#   2. runs the tests that build CUDA (sample.*, plan, lang, unroll, cuda_cpu): with a
#      GPU listed, their nvcc builds run on it besides the emulated ones;
#   3. builds tests/cuda_cpu/{barrier,shuffle,constant,texture,limits}.cu with nvcc and
#      runs them on the GPU: what the emulator is tested against (error codes, shuffle
#      results, texture reads) checked on the hardware;
#   4. runs the proxy with --backend cuda, validated cell by cell: v1, v2, v3, v2 --resident;
#   5. benchmarks: bench/gpu/sum7.c (the 7-point double stencil at 256^3 through its
#      plan: GStencil/s and the fraction of the device's copy bandwidth; the sample's
#      configuration, stream_z and register caching side by side) and
#      bench/miniamr.sh -b cuda (the miniAMR kernels);
# and ends with "N passed, M failed" (the benchmarks' numbers are printed, not judged;
# docs/performance.md is where they are recorded).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
BUILD=${1:-$ROOT/build-gpu}
NVCC=${NVCC:-/usr/local/cuda/bin/nvcc}
cd "$ROOT"

if ! command -v nvidia-smi >/dev/null 2>&1 || ! nvidia-smi -L 2>/dev/null | grep -q '^GPU'; then
    echo "gpu-check: nvidia-smi lists no GPU" >&2
    exit 1
fi
[ -x "$NVCC" ] || { echo "gpu-check: nvcc not found at $NVCC (set NVCC)" >&2; exit 1; }
nvidia-smi -L

pass=0
failn=0
result() { if [ "$2" = 0 ]; then pass=$((pass + 1)); echo "PASS $1"; else failn=$((failn + 1)); echo "FAIL $1"; fi; }

echo "== 1. build ($BUILD)"
cmake -S . -B "$BUILD" -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null && cmake --build "$BUILD" -j"$(nproc)"
result build $?

echo "== 2. the tests that build CUDA"
(cd "$BUILD" && ctest --output-on-failure -j"$(nproc)" -R '^(sample\..*|plan|lang|unroll|cuda_cpu)$')
result ctest $?

echo "== 3. the emulator's unit tests, built by nvcc, on the GPU"
W=$BUILD/gpu-check
mkdir -p "$W"
for u in barrier shuffle constant texture limits; do
    "$NVCC" -O2 -o "$W/$u" "tests/cuda_cpu/$u.cu" && "$W/$u"
    result "unit.$u" $?
done

echo "== 4. the proxy on the GPU"
PROXY=$BUILD/samples/miniamr/proxy/miniamr-proxy
for k in v1 v2 v3; do
    bash tests/run_proxy.sh "$PROXY" 0 validated=true differences=0 -- --kernel $k --backend cuda \
        --n 12 --blocks 6 --vars 4 --steps 2 --stages 3 --validate
    result "proxy.$k" $?
done
bash tests/run_proxy.sh "$PROXY" 0 validated=true differences=0 resident=true -- --kernel v2 --resident \
    --backend cuda --n 12 --blocks 6 --vars 4 --steps 2 --stages 3 --validate
result proxy.resident $?

echo "== 5. benchmarks"
# the sample's configuration, then z-marching (stream_z) and register caching
SUM7_CONFIGS=(
    "$(cat samples/sum7/params.json)"
    '{"block_size_x": 32, "block_size_y": 8, "stream_z": 16}'
    '{"block_size_x": 64, "block_size_y": 4, "stream_z": 32}'
    '{"block_size_x": 128, "block_size_y": 2, "stream_z": 64, "interior": 0}'
    '{"mem_input": "register", "block_size_x": 32, "block_size_y": 4, "block_size_z": 2}'
    '{"mem_input": "register", "block_size_x": 64, "block_size_y": 4, "block_size_z": 1, "coarsen_z": 4}'
)
i=0
for cfg in "${SUM7_CONFIGS[@]}"; do
    i=$((i + 1))
    mkdir -p "$W/sum7-$i"
    echo "$cfg" >"$W/sum7-$i/params.json"
    echo "sum7 configuration $i: $cfg"
    "$BUILD/imcl" -b cuda --prefix cuda_ -o "$W/sum7-$i" -t "$W/sum7-$i/params.json" samples/sum7/sum7.imcl &&
        "$NVCC" -O3 -I "$W/sum7-$i" "$W/sum7-$i/sum7.cu" bench/gpu/copy_bw.cu bench/gpu/sum7.c -o "$W/sum7-$i/bench" &&
        "$W/sum7-$i/bench" 256 20
    result "bench.sum7.$i" $?
done
bash bench/miniamr.sh -p "$PROXY" -b cuda
result bench.miniamr $?

echo "$pass passed, $failn failed"
[ "$failn" -eq 0 ]
