#!/usr/bin/env bash
# The main job: build imcl and miniamr-proxy (which generates the miniAMR kernels
# v1, v2, v3 and stencil7 with imcl at build time), run the proxy on the CPU OpenCL
# device (PoCL) with each kernel (stencil7 on miniAMR's own row tables, the mesh
# refining to 8x the blocks and back every 3 stages when N is even; then again with
# --attach: each variable's blocks in one allocation that its plan computes in, no
# transfers), validated cell by cell against a plain C loop after every stage, and
# print its summary. PoCL's worker threads are pinned (POCL_AFFINITY=1) unless the
# environment says otherwise (docs/wrappers.md, "CPU devices").
#   scripts/main-job.sh [N [BLOCKS]]      (default 16 and 8)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v flex >/dev/null || ! command -v bison >/dev/null || ! clinfo -l 2>/dev/null | grep -q Platform; then
    bash scripts/install-deps.sh
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target imcl miniamr-proxy >/dev/null
proxy=build/samples/miniamr/proxy/miniamr-proxy
export POCL_AFFINITY=${POCL_AFFINITY:-1}
echo "imcl: generated build/samples/miniamr/proxy/gen/{c,opencl,cuda}; running on" \
     "$(clinfo -l | sed -n 's/.*Device #0: //p' | head -1)"
summary=()
for k in v1 v2 v3 stencil7 stencil7a; do
    extra=()
    [ "$k" = stencil7a ] && extra=(--attach)
    [ "${k#stencil7}" != "$k" ] && [ $(("${1:-16}" % 2)) = 0 ] && extra+=(--refine 3)
    "$proxy" --kernel "${k%a}" --backend opencl --n "${1:-16}" --blocks "${2:-8}" --vars 4 --steps 2 --stages 5 \
        --validate "${extra[@]}" | tee build/main-job-$k.out
    summary+=("$(tail -n 1 build/main-job-$k.out)")
done
printf '%s\n' "${summary[@]}" | python3 -c '
import json, sys
print("\nkernel     validated  reference_s  kernel_s  phase_s  setup_s  total_s  GStencil/s  phase/loop")
for line in sys.stdin:
    r = json.loads(line)
    phase = r["launch_s"] + r["transfer_s"] # the stencil phase: launches and transfers
    print("%-9s  %-9s  %11.4f  %8.4f  %7.4f  %7.3f  %7.3f  %10.3f  %10.2f" % (
          r["kernel"] + ("a" if r["attach"] else ""), str(r["validated"]).lower(), r["reference_s"],
          r["kernel_s"], phase, r["setup_s"], r["total_s"], r["gstencil_per_s"], r["reference_s"] / phase))
print("(GStencil/s: from the kernel time, which counts each overlapping launch of stencil7a"
      " from its start to its end; phase/loop: loop time over phase time, above 1 when the"
      " phase wins; PoCL, this CPU)")
'
