#!/usr/bin/env bash
# The main job: build imcl, compile the miniAMR sample for OpenCL and the C
# reference, run it on the CPU OpenCL device (PoCL), validate, print throughput.
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v flex >/dev/null || ! command -v bison >/dev/null || ! clinfo -l 2>/dev/null | grep -q Platform; then
    bash scripts/install-deps.sh
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" >/dev/null
out=build/main-job
rm -rf "$out"
build/imcl -b opencl --prefix ocl_ -o "$out/opencl" -t samples/miniamr/params.json samples/miniamr/miniamr.imcl
build/imcl -b c --prefix ref_ -o "$out/c" -t samples/miniamr/params.json samples/miniamr/miniamr.imcl
cc -O2 -fopenmp -I"$out" samples/miniamr/demo.c "$out/c/miniamr_ref.c" "$out/opencl/miniamr_host.c" \
   -lOpenCL -lm -o "$out/demo"
echo "imcl: generated $out/opencl/miniamr.cl, running on $(clinfo -l | sed -n 's/.*Device #0: //p' | head -1)"
"$out/demo" "${1:-64}" "${2:-10}"
