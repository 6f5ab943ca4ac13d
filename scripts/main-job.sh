#!/usr/bin/env bash
# The main job: build imcl and miniamr-proxy (which generates the miniAMR kernels
# v1, v2, v3 and stencil7 with imcl at build time) and run the proxy at the size of a
# miniAMR run (blocks of 16^3 cells, 64 blocks, 40 variables), every cell validated
# against miniAMR's loop (a plain C loop on one thread) after every stage: the thesis
# kernels v1, v2, v3 and miniAMR's loop body (stencil7, on miniAMR's row tables, the
# mesh refining to 8x the blocks and back every 3 stages when N is even) on the CPU
# OpenCL device (PoCL); then stencil7 with --attach (each variable's blocks in one
# allocation that its plan computes in, no transfers) on PoCL and through the C
# reference (OpenMP); then a short tuning step (imcl-tune, Kernel Tuner: stencil7's
# batch launch over the blocks, at most 30 configurations and 25 s, every one checked
# against the C reference) and stencil7 with --attach again in its best configuration.
# With an NVIDIA GPU and nvcc, v1 and stencil7 run through CUDA as well. It prints the
# summary and which paths beat the loop, with the threads each side used. PoCL's worker threads are pinned (POCL_AFFINITY=1) unless
# the environment says otherwise (docs/wrappers.md, "CPU devices").
#   scripts/main-job.sh [N [BLOCKS [VARS]]]      (default 16, 64 and 40)
set -euo pipefail
cd "$(dirname "$0")/.."
if ! command -v flex >/dev/null || ! command -v bison >/dev/null || ! clinfo -l 2>/dev/null | grep -q Platform \
        || [ ! -x .venv/bin/imcl-tune ]; then
    bash scripts/install-deps.sh
fi
cmake -S . -B build -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
cmake --build build -j"$(nproc)" --target imcl miniamr-proxy >/dev/null
proxy=build/samples/miniamr/proxy/miniamr-proxy
export POCL_AFFINITY=${POCL_AFFINITY:-1}
echo "imcl: generated build/samples/miniamr/proxy/gen/{c,opencl,cuda}; running on" \
     "$(clinfo -l | sed -n 's/.*Device #0: //p' | head -1)"
n=${1:-16}
blocks=${2:-64}
vars=${3:-40}
threads=$(nproc)
best=build/main-job-stencil7.best.json
summary=()
# with a GPU and nvcc (the proxy's build then has the CUDA backend): v1 and stencil7 on it
cuda=()
if nvidia-smi -L 2>/dev/null | grep -q GPU && [ -x /usr/local/cuda/bin/nvcc ]; then
    cuda=(v1:cuda stencil7:cuda)
fi
# kernel[:backend][+attach][+tuned]
for run in v1 v2 v3 stencil7 stencil7+attach stencil7:c+attach "${cuda[@]}" tune stencil7+attach+tuned; do
    if [ "$run" = tune ]; then
        # Kernel Tuner on the launch the attached run makes (every block of a variable in
        # one batch), the default measured too; its best (or {}: the default) is used below
        echo "imcl: tuning stencil7 on batches of $blocks blocks of ${n}^3 (imcl-tune," \
             "random_sample, at most 30 configurations, 25 s)"
        IMCL=$PWD/build/imcl .venv/bin/imcl-tune samples/miniamr/stencil7.imcl --size "${n}x${n}x${n}" \
            --batch "$blocks" --budget 30 --time-limit 25 --seed 1 -o "$best" \
            --results build/main-job-stencil7.t4.json --no-progress | tee build/main-job-tune.out
        continue
    fi
    k=${run%%[:+]*}
    backend=opencl
    [ "${run#*:}" != "$run" ] && backend=${run#*:} && backend=${backend%%+*}
    extra=()
    [ "${run/+attach/}" != "$run" ] && extra=(--attach)
    [ "${run%+tuned}" != "$run" ] && extra+=(-t "$best")
    [ "$k" = stencil7 ] && [ $((n % 2)) = 0 ] && extra+=(--refine 3)
    "$proxy" --kernel "$k" --backend "$backend" --n "$n" --blocks "$blocks" --vars "$vars" --steps 2 \
        --stages 5 --validate "${extra[@]}" | tee "build/main-job-${run//[:+]/-}.out"
    summary+=("${run##*+} $(tail -n 1 "build/main-job-${run//[:+]/-}.out")")
done
printf '%s\n' "${summary[@]}" | THREADS=$threads OMP=${OMP_NUM_THREADS:-$threads} \
    POCL=${POCL_MAX_PTHREAD_COUNT:-$threads} TUNE=build/main-job-tune.out python3 -c '
import json, os, sys
rows = []
for line in sys.stdin:
    label, text = line.split(" ", 1)
    rows.append(dict(json.loads(text), tuned=label == "tuned"))
first = rows[0]
print("\nminiAMR proxy: %(blocks)d blocks of %(n)d^3 cells, %(vars)d variables, %(steps)d steps of "
      "%(stages)d stages; every cell validated after every stage" % first)
print("kernel           backend  validated  loop_s  phase_s  setup_s  total_s  GStencil/s  loop/phase")
wins = []
for r in rows:
    name = r["kernel"] + ("a" if r["attach"] else "") + (" tuned" if r["tuned"] else "")
    phase = r["launch_s"] + r["transfer_s"] # the stencil phase: launches and transfers
    ratio = r["reference_s"] / phase
    print("%-15s  %-7s  %-9s  %6.3f  %7.3f  %7.3f  %7.3f  %10.3f  %10.2f" % (
          name, r["backend"], str(r["validated"]).lower(), r["reference_s"], phase, r["setup_s"],
          r["total_s"], r["gstencil_per_s"], ratio))
    if r["validated"] and ratio > 1:
        who = {"c": "the C reference, OpenMP, %s threads" % os.environ["OMP"],
               "cuda": "CUDA on the GPU"}.get(r["backend"], "PoCL, %s worker threads" % os.environ["POCL"])
        wins.append("%s on %s (%s): %.2fx" % (name, r["backend"], who, ratio))
print("(loop: miniAMR'"'"'s loop on 1 thread; phase: the stencil'"'"'s launches and transfers; "
      "loop/phase above 1: faster than the loop; GStencil/s from the kernel time, which counts "
      "each overlapping launch from its start to its end; this CPU: %s threads)" % os.environ["THREADS"])
print("faster than miniAMR'"'"'s loop: " + ("; ".join(wins) if wins else "none at this size"))
tune = open(os.environ["TUNE"]).read().splitlines()
found = [l.strip() for l in tune if l.strip().startswith(("speedup over", "best: the default"))]
print("tuning (stencil7a tuned): %s; %s" % (tune[0].split(": ", 1)[1], "; ".join(found)))
'
