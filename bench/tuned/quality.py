"""bench/tuned/quality.py: how close imcl.tune gets to the best known configuration
within a budget (docs/performance.md, "How close the tuner gets").

  .venv/bin/python bench/tuned/quality.py [--size 256x256x256] [--budget 100]
      [--strategies greedy_ils,random_sample] [--rounds 5] [--seed 1] sum7 sum27

For each sample kernel and each strategy, one imcl.tune run on the OpenCL device with
that budget (the pruned space, the default as the start of the strategies that take
one; its wall time printed). Then the default (on a CPU device the CPU variant itself)
and every strategy's best are timed one after the other in each of --rounds rounds
in this process, each time Kernel Tuner's mean of 7 launches, verified against the C
reference. The best known is the fastest of those by median; each strategy's line
gives its best's median time over the best known's (1.00: it found the best known).
"""
import argparse
import statistics
import time
from pathlib import Path

import imcl
from imcl import tuning

ROOT = Path(__file__).resolve().parents[2]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="256x256x256")
    ap.add_argument("--budget", type=int, default=100)
    ap.add_argument("--strategies", default="greedy_ils,random_sample")
    ap.add_argument("--rounds", type=int, default=5)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("samples", nargs="+")
    a = ap.parse_args()
    for name in a.samples:
        path = str(ROOT / "samples" / name / f"{name}.imcl")
        found = {}
        for strategy in a.strategies.split(","):
            t = time.perf_counter()
            r = imcl.tune(path, size=a.size, strategy=strategy, budget=a.budget, seed=a.seed,
                          rounds=0, params_out=None, results_out=None)
            print(f"{name} {strategy}: {r.evaluated} measured, {len(r.failures)} failed, "
                  f"{time.perf_counter() - t:.0f} s; best {r.best_time_ms:.3f} ms"
                  f"{' (the default)' if r.default_best else ''}: {tuning.describe(r.best)}", flush=True)
            found[strategy] = r
        k = r.kernel
        args = k.make_arguments(seed=a.seed)
        common = tuning.run_options(k, k.reference(args))
        variant = r.default_is_cpu and k.function_cpu is not None
        configs = [("default", r.default, variant)]
        for strategy, res in found.items():
            # a -t configuration of the default's values is not the CPU variant: timed too
            if not res.default_best and all((res.best, False) != (c, v) for _, c, v in configs):
                configs.append((strategy, res.best, False))
        times = {label: [] for label, _, _ in configs}
        for _ in range(a.rounds):
            for label, config, cpu in configs:
                _, t = tuning._measure(k, config, k.tune_params, args, common, {}, variant=cpu)
                times[label].append(float(t))
        med = {label: statistics.median(v) for label, v in times.items()}
        known = min(med.values())
        print(f"{name} {a.size}, side by side, {a.rounds} rounds (ms: min / median):")
        for label, _, _ in configs:
            print(f"  {label:14} {min(times[label]):8.3f} / {med[label]:8.3f}")
        for strategy, res in found.items():
            mine = med["default"] if res.default_best else next(
                med[lab] for lab, c, v in configs if (c, v) == (res.best, False))
            print(f"  {strategy}: found / best known = {known / mine:.2f}")


if __name__ == "__main__":
    main()
