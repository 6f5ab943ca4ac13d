"""bench/tuned/compare.py: times a kernel's default and tuned configurations side by
side on the OpenCL device, with Kernel Tuner through the imcl package (every run
verified against imcl's C reference).

  .venv/bin/python bench/tuned/compare.py KERNEL.imcl WxH[xD] BEST.json [ROUNDS]

Configurations, timed one after the other in each of ROUNDS rounds (default 3):
  gpu default  the dumped space's defaults (what Kernel Tuner and imcl.tune call the
               default; the kernel `K` that imcl generates with no -t for a GPU)
  cpu default  the kernel `K_cpu` that imcl generates with no -t and the wrapper picks
               on a CPU device: work-groups of 128x1x1, interior 0, loops unrolled
               whole (the dump's defaults_cpu, docs/tuning.md "Defaults"; a kernel
               without one runs the gpu default there too)
  best         BEST.json (from imcl-tune -o)
Each time is Kernel Tuner's (the mean of its 7 timed launches). Prints one line per
configuration: min and median over the rounds in ms and GStencil/s, speedups of the
best over each default (from the medians), and the configuration.
"""
import json
import statistics
import sys

import kernel_tuner
import imcl


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
    configs = [("gpu default", gpu), ("cpu default", cpu), ("best", best)]
    times = {name: [] for name, _ in configs}
    points = 1
    for e in k.problem_size:
        points *= e
    for _ in range(rounds):
        for name, c in configs:
            single = {p: [c[p]] for p in k.tune_params}
            res, _ = kernel_tuner.tune_kernel(
                k.name, k.source, k.problem_size, args, single, grid_div_x=k.grid_div_x,
                grid_div_y=k.grid_div_y, grid_div_z=k.grid_div_z, lang=k.lang, defines={},
                answer=answer, verify=k.verify, strategy="brute_force", quiet=True)
            times[name].append(float(res[0]["time"]))
    med = {n: statistics.median(t) for n, t in times.items()}
    print(f"{k.kernel} {size} ({points} points), {rounds} rounds:")
    for name, c in configs:
        t = times[name]
        print(f"  {name:12s} min {min(t):9.3f} ms  median {med[name]:9.3f} ms  "
              f"{points / min(t) / 1e6:7.3f} / {points / med[name] / 1e6:7.3f} GStencil/s (min / median)  "
              f"{imcl.tuning.describe(c)}")
    print(f"  best / gpu default {med['gpu default'] / med['best']:.2f}x, "
          f"best / cpu default {med['cpu default'] / med['best']:.2f}x (medians)")


if __name__ == "__main__":
    main()
