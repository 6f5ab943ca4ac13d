#!/usr/bin/env bash
# The main job: build imcl and miniamr-proxy (which generates the miniAMR kernels
# v1, v2, v3 and stencil7 with imcl at build time), run the proxy on the CPU OpenCL
# device (PoCL) with each kernel (stencil7 on miniAMR's own row tables, the mesh
# refining to 8x the blocks and back every 3 stages when N is even), validated cell
# by cell against a plain C loop after every stage, and print its summary.
#   scripts/main-job.sh [N [BLOCKS]]      (default 16 and 8)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v flex >/dev/null || ! command -v bison >/dev/null || ! clinfo -l 2>/dev/null | grep -q Platform; then
    bash scripts/install-deps.sh
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target imcl miniamr-proxy >/dev/null
proxy=build/samples/miniamr/proxy/miniamr-proxy
echo "imcl: generated build/samples/miniamr/proxy/gen/{c,opencl,cuda}; running on" \
     "$(clinfo -l | sed -n 's/.*Device #0: //p' | head -1)"
summary=()
for k in v1 v2 v3 stencil7; do
    extra=()
    [ "$k" = stencil7 ] && [ $(("${1:-16}" % 2)) = 0 ] && extra=(--refine 3)
    "$proxy" --kernel "$k" --backend opencl --n "${1:-16}" --blocks "${2:-8}" --vars 4 --steps 2 --stages 5 \
        --validate "${extra[@]}" | tee build/main-job-$k.out
    summary+=("$(tail -n 1 build/main-job-$k.out)")
done
printf '%s\n' "${summary[@]}" | python3 -c '
import json, sys
print("\nkernel    validated  reference_s  kernel_s  setup_s  total_s  GStencil/s  (kernel time; PoCL, this CPU)")
for line in sys.stdin:
    r = json.loads(line)
    print("%-8s  %-9s  %11.4f  %8.4f  %7.3f  %7.3f  %10.3f" % (r["kernel"], str(r["validated"]).lower(),
          r["reference_s"], r["kernel_s"], r["setup_s"], r["total_s"], r["gstencil_per_s"]))
'
