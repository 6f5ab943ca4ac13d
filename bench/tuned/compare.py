"""bench/tuned/compare.py: times a kernel's default and tuned configurations side by
side on the OpenCL device, with Kernel Tuner through the imcl package (every run
verified against imcl's C reference).

  .venv/bin/python bench/tuned/compare.py KERNEL.imcl WxH[xD] BEST.json [ROUNDS]

Configurations, timed one after the other in each of ROUNDS rounds (default 3):
  gpu default  the dumped space's defaults (what Kernel Tuner and imcl.tune call the
               default; the kernel `K` that imcl generates with no -t for a GPU)
  cpu default  the kernel `K_cpu` that imcl generates with no -t and the wrapper picks
               on a CPU device, launched as itself (the dump's function_cpu) in the
               work-groups it fits to the grid: rows of up to 128, interior 0, loops
               unrolled whole (the dump's defaults_cpu, docs/tuning.md "Defaults"; a
               kernel without one runs the gpu default there too)
  best         BEST.json (from imcl-tune -o; {}: the default, not timed again)
Each time is Kernel Tuner's (the mean of its 7 timed launches). Prints one line per
configuration: min and median over the rounds in ms and GStencil/s, speedups of the
best over each default (from the medians), and the configuration.
"""
import json
import statistics
import sys

import imcl
from imcl import tuning


def main():
    path, size, best_path = sys.argv[1:4]
    rounds = int(sys.argv[4]) if len(sys.argv) > 4 else 3
    k = imcl.Kernel(path, backend="opencl", size=size)
    args = k.make_arguments(seed=1)
    answer = k.reference(args)
    gpu = dict(k.defaults)
    # the CPU variant's configuration (the dump's defaults_cpu); a kernel without
    # one runs the gpu default on a CPU device too
    cpu = dict(k.defaults_cpu or gpu)
    with open(best_path) as f:
        best = json.load(f)
    configs = [("gpu default", gpu, False), ("cpu default", cpu, k.function_cpu is not None)]
    if best:
        configs.append(("best", best, False))
    times = {name: [] for name, _, _ in configs}
    points = k.npoints()
    common = tuning.run_options(k, answer)
    for _ in range(rounds):
        for name, c, variant in configs:
            _, t = tuning._measure(k, c, k.tune_params, args, common, {}, variant=variant)
            times[name].append(float(t))
    med = {n: statistics.median(t) for n, t in times.items()}
    print(f"{k.kernel} {size} ({points} points), {rounds} rounds:")
    for name, c, _ in configs:
        t = times[name]
        print(f"  {name:12s} min {min(t):9.3f} ms  median {med[name]:9.3f} ms  "
              f"{points / min(t) / 1e6:7.3f} / {points / med[name] / 1e6:7.3f} GStencil/s (min / median)  "
              f"{imcl.tuning.describe(c)}")
    b = med.get("best", med["cpu default"])
    print(f"  best / gpu default {med['gpu default'] / b:.2f}x, "
          f"best / cpu default {med['cpu default'] / b:.2f}x (medians)")


if __name__ == "__main__":
    main()
