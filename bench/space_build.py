"""Kernel Tuner's search-space build for imcl's kernels (docs/performance.md, "Search-space
build"): the time of kernel_tuner.searchspace.Searchspace on the space imcl.tune hands over
(Kernel.kernel_tuner_space: codes, every restriction a string), with the dump's prune
(what imcl.tune searches by default) and, with --before, on Kernel.tune_params with
Kernel.restrictions (functions for the restrictions that name a string-valued
parameter), min and median of --repeat runs each; --pruned-only skips the whole space.

    .venv/bin/python bench/space_build.py [--size 256x256x256] [--repeat 3] [--before]
        [--pruned-only] sum7 sum27
"""

import argparse
import os
import statistics
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
os.environ.setdefault("IMCL", str(ROOT / "build" / "imcl"))
import imcl  # noqa: E402
from kernel_tuner.searchspace import Searchspace  # noqa: E402


def timed(tune_params, restrictions, repeat):
    times, size = [], None
    for _ in range(repeat):
        t = time.perf_counter()
        size = Searchspace(tune_params, restrictions, 1024).size
        times.append(time.perf_counter() - t)
    return size, min(times), statistics.median(times)


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--size", default="256x256x256")
    ap.add_argument("--repeat", type=int, default=3)
    ap.add_argument("--before", action="store_true", help="also the functions' form")
    ap.add_argument("--pruned-only", action="store_true", help="only the pruned space")
    ap.add_argument("samples", nargs="+")
    a = ap.parse_args()
    size = tuple(int(n) for n in a.size.split("x"))
    print(f"search-space build, {a.size}, min / median of {a.repeat}; "
          f"load {' '.join(open('/proc/loadavg').read().split()[:3])}")
    for name in a.samples:
        k = imcl.Kernel(str(ROOT / "samples" / name / f"{name}.imcl"), size=size)
        forms = [("pruned", k.kernel_tuner_space(prune=True))]
        if not a.pruned_only:
            forms.append(("coded strings", k.kernel_tuner_space()))
        if a.before:
            forms.append(("functions", (k.tune_params, k.restrictions)))
        for label, (tp, rs) in forms:
            n, lo, med = timed(tp, rs, a.repeat)
            print(f"  {name:6s} {label:14s} {n:9d} configurations  {lo:7.2f} s  {med:7.2f} s", flush=True)


if __name__ == "__main__":
    sys.exit(main())
