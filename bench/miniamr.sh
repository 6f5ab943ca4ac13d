#!/usr/bin/env bash
# The miniAMR proxy (samples/miniamr/proxy) at the block sizes of thesis chapter 5:
# reference C loop against the kernels imcl generated, run through their plans.
#
#   bench/miniamr.sh [-p PROXY] [-b BACKEND] [-k "v1 v2 v3"] [-n "10 16 24 32 40"]
#                    [-v VARS] [-s STEPS] [-t STAGES] [-r REPEAT] [-m MB] [-f R]
#
# For each block size n and kernel, miniamr-proxy runs STEPS x STAGES stages (default
# 2 x 5) of VARS variables (default 40, miniAMR's default) on a mesh of blocks
# that fits in about 256 MB per copy (64 blocks for n <= 16, 27 for 24, 16 for 32,
# 8 for 40), checks miniAMR's checksums against the reference, and measures the
# backend's copy bandwidth on MB per array (default 256) in the same process. With
# REPEAT > 1 each run is repeated and the fastest of the repeats (by total time) is
# kept. Kernel v2r in -k is v2 with --resident (the mesh kept on the device, the
# ghost exchange by a kernel: samples/miniamr/v2r.imcl); kernel stencil7 runs on
# miniAMR's row tables in batches, with -f R refining every R stages (8 times the
# blocks in between: mind the memory); stencil7a is stencil7 with --attach (each
# variable's blocks in one allocation that its plan computes in: no transfers; the
# variables' launches side by side), stencil7ab the same with --blocking (one launch
# after the other).
# PoCL's worker threads are pinned (POCL_AFFINITY=1) unless the environment says
# otherwise (docs/wrappers.md, "CPU devices"). Prints one table (times in
# seconds, rates per second) and the machine's load before and after; the proxy's
# JSON lines go to bench-miniamr.jsonl beside the proxy. Nothing is asserted beyond
# the proxy's own checks: not a test.
set -euo pipefail
HERE=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
ROOT=$(dirname "$HERE")
PROXY=$ROOT/build/samples/miniamr/proxy/miniamr-proxy
BACKEND=opencl
KERNELS="v1 v2 v3"
SIZES="10 16 24 32 40"
VARS=40
STEPS=2
STAGES=5
REPEAT=1
MB=256
REFINE=0
usage() { sed -n '2,25p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
while getopts "p:b:k:n:v:s:t:r:m:f:h" opt; do
    case $opt in
    p) PROXY=$OPTARG ;;
    b) BACKEND=$OPTARG ;;
    k) KERNELS=$OPTARG ;;
    n) SIZES=$OPTARG ;;
    v) VARS=$OPTARG ;;
    s) STEPS=$OPTARG ;;
    t) STAGES=$OPTARG ;;
    r) REPEAT=$OPTARG ;;
    m) MB=$OPTARG ;;
    f) REFINE=$OPTARG ;;
    *) usage ;;
    esac
done
export POCL_AFFINITY=${POCL_AFFINITY:-1}
[ -x "$PROXY" ] || { echo "no $PROXY: build it (cmake --build build --target miniamr-proxy)" >&2; exit 2; }
blocks_for() {
    if [ "$1" -le 16 ]; then echo 64; elif [ "$1" -le 24 ]; then echo 27; elif [ "$1" -le 32 ]; then echo 16; else echo 8; fi
}
out=$(dirname "$PROXY")/bench-miniamr.jsonl
: >"$out"
echo "miniamr-proxy, backend $BACKEND, $VARS variables, $STEPS x $STAGES stages; $(getconf _NPROCESSORS_ONLN) CPUs${OMP_NUM_THREADS:+, OMP_NUM_THREADS=$OMP_NUM_THREADS}, POCL_AFFINITY=$POCL_AFFINITY;" \
     "load before: $(cut -d' ' -f1-3 /proc/loadavg)"
[ "$BACKEND" = opencl ] && echo "OpenCL device: $(clinfo -l 2>/dev/null | sed -n 's/.*Device #0: //p' | head -1)"
for n in $SIZES; do
    for k in $KERNELS; do
        best=
        kargs=(--kernel "$k")
        [ "$k" = v2r ] && kargs=(--kernel v2 --resident)
        [ "$k" = stencil7a ] && kargs=(--kernel stencil7 --attach)
        [ "$k" = stencil7ab ] && kargs=(--kernel stencil7 --attach --blocking)
        [ "${k#stencil7}" != "$k" ] && [ "$REFINE" != 0 ] && kargs+=(--refine "$REFINE")
        for _ in $(seq "$REPEAT"); do
            line=$("$PROXY" "${kargs[@]}" --backend "$BACKEND" --n "$n" --blocks "$(blocks_for "$n")" --vars "$VARS" \
                   --steps "$STEPS" --stages "$STAGES" --bandwidth "$MB" | tail -n 1)
            best=$(printf '%s\n%s\n' "$best" "$line" | python3 -c '
import json, sys
rows = [json.loads(l) for l in sys.stdin if l.strip()]
print(json.dumps(min(rows, key=lambda r: r["total_s"])))')
        done
        echo "$best" >>"$out"
    done
done
python3 - "$out" <<'PY'
import json, sys
rows = [json.loads(l) for l in open(sys.argv[1])]
head = ("n", "blocks", "kernel", "ref s", "kernel s", "launch s", "transfer s", "ghost s", "setup s", "total s",
        "ref GSt/s", "kern GSt/s", "x kernel", "x phase", "x total", "copy GB/s", "BW kern", "BW ref")
print("| " + " | ".join(head) + " |")
print("|" + "|".join("---:" if i != 2 else "---" for i in range(len(head))) + "|")
for r in rows:
    copy = r["copy_gb_per_s"] or float("nan")
    ref_bw = 16 * r["updates"] / r["reference_s"] * 1e-9 / copy
    # the stencil phase: launches and any transfers (packing included), against the loop
    phase = r["reference_s"] / (r["launch_s"] + r["transfer_s"])
    name = "v2r" if r.get("resident") else r["kernel"] + ("a" if r.get("attach") else "") + (
        "b" if r.get("blocking") else "")
    print("| %d | %d | %s | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.3f | %.2f | %.2f | %.2f | %.1f | %.2f | %.2f |" % (
        r["n"], r["blocks"], name, r["reference_s"], r["kernel_s"],
        r["launch_s"], r["transfer_s"], r["ghost_s"],
        r["setup_s"], r["total_s"], r["reference_gstencil_per_s"], r["gstencil_per_s"], r["speedup_kernel"],
        phase, r["speedup_total"], copy, r["bandwidth_fraction"] or float("nan"), ref_bw))
PY
echo "load after: $(cut -d' ' -f1-3 /proc/loadavg)"
