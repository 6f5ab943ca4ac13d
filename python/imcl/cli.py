"""imcl-tune: tune one ImageCL kernel with Kernel Tuner from the command line."""

import argparse
import json
import sys

import numpy as np

from ._compiler import ImclError
from .tuning import SpaceTooLarge


def _value(text):
    """A scalar (int or float) or a .npy file for --arg NAME=VALUE."""
    if text.endswith(".npy"):
        return np.load(text)
    try:
        return int(text, 0)
    except ValueError:
        return float(text)


# brute_force over a larger space (before its restrictions) needs --yes
BRUTE_FORCE_LIMIT = 10000

EPILOG = """exit status: 0 tuned (the best configuration written); 1 a configuration computed a
wrong result; 2 bad input, or a backend whose Python package is missing (nothing
tuned); 130 interrupted (Ctrl-C): the best configuration measured so far written,
the cache keeps every measurement, the T4 results are not written."""


def main(argv=None):
    p = argparse.ArgumentParser(
        prog="imcl-tune",
        description="Tune an ImageCL kernel with Kernel Tuner, imcl generating every "
                    "configuration and its C reference checking every result.",
        epilog=EPILOG, formatter_class=argparse.RawDescriptionHelpFormatter)
    p.add_argument("kernel_file", metavar="KERNEL.imcl")
    p.add_argument("--size", required=True, help="the grid extent, WxH or WxHxD")
    p.add_argument("-b", "--backend", default="opencl", choices=["opencl", "cuda"])
    p.add_argument("-k", "--kernel", help="the kernel, when the file has several")
    p.add_argument("--batch", type=int, default=1, metavar="N",
                   help="launch N blocks of the size at once, as a plan's PK_plan_launch_batch "
                        "does (default 1: one grid)")
    p.add_argument("--strategy", default=None,
                   help="a Kernel Tuner strategy (default: brute_force, or random_sample with --budget)")
    p.add_argument("--budget", type=int, help="at most N measurements, the default configuration's among them")
    p.add_argument("--time-limit", type=float, metavar="SECONDS",
                   help="stop the search after this long (Kernel Tuner's time_limit)")
    p.add_argument("--strategy-options", metavar="JSON", default="{}",
                   help='options of the strategy, as Kernel Tuner takes them (e.g. \'{"popsize": 10}\')')
    p.add_argument("--full-space", action="store_true",
                   help="search the whole space, also what the dump's prune leaves out (blocks "
                        "under a warp, coarsening that leaves a ragged tile)")
    p.add_argument("--cache", metavar="FILE.json",
                   help="Kernel Tuner's cache file: every measurement is kept there, and a rerun "
                        "measures only what it lacks")
    p.add_argument("--yes", action="store_true",
                   help=f"brute_force even over more than {BRUTE_FORCE_LIMIT} configurations")
    p.add_argument("-o", "--output", default=None, metavar="BEST.json",
                   help="the best configuration, for imcl -t (default: KERNEL.best.json)")
    p.add_argument("--results", default=None, metavar="T4.json",
                   help="Kernel Tuner's results in T4 format (default: KERNEL.t4.json)")
    p.add_argument("--arg", action="append", default=[], metavar="NAME=VALUE",
                   help="a scalar of the kernel, or an array from a .npy file (repeatable)")
    p.add_argument("--iterations", type=int, default=7, help="runs per configuration (default 7)")
    p.add_argument("--seed", type=int, help="seed of the random data and random strategies")
    p.add_argument("--platform", type=int, default=0, help="OpenCL platform index")
    p.add_argument("--device", type=int, default=0, help="device index")
    p.add_argument("--points", type=int, metavar="N",
                   help="grid points one launch updates, for GStencil/s (default: the grid's)")
    p.add_argument("--plot", metavar="FILE.png",
                   help="a plot of time against the parameters that matter most")
    p.add_argument("--rounds", type=int, default=3, metavar="N",
                   help="after the search, time the default and the best one after the other in N "
                        "rounds for the speedup (default 3; 0: the search's own times)")
    p.add_argument("--no-progress", action="store_true", help="no progress line")
    a = p.parse_args(argv)

    import imcl

    args = {}
    for item in a.arg:
        if "=" not in item:
            p.error(f"--arg {item!r}: expected NAME=VALUE")
        name, value = item.split("=", 1)
        try:
            args[name] = _value(value)
        except (ValueError, OSError) as e:
            p.error(f"--arg {item!r}: {e}")
    try:
        strategy_options = json.loads(a.strategy_options)
    except json.JSONDecodeError as e:
        p.error(f"--strategy-options: not JSON: {e}")
    if not isinstance(strategy_options, dict):
        p.error("--strategy-options: expected a JSON object")
    if a.time_limit is not None:
        if a.time_limit <= 0:
            p.error("--time-limit: expected a positive number of seconds")
        strategy_options["time_limit"] = a.time_limit
    if a.backend == "cuda":
        try:
            import pycuda  # noqa: F401 - Kernel Tuner runs CUDA through it
        except ImportError:
            print("imcl-tune: error: -b cuda needs pycuda, which is not installed "
                  "(pip install './python[cuda]' on a machine with the CUDA toolkit)", file=sys.stderr)
            return 2
    options = {"strategy_options": strategy_options}
    if a.cache:
        options["cache"] = a.cache
    params_out = a.output if a.output is not None else ""
    results_out = a.results if a.results is not None else ""
    try:
        strategy = a.strategy or ("random_sample" if a.budget else "brute_force")
        r = imcl.tune(a.kernel_file, size=a.size, backend=a.backend, strategy=strategy,
                      budget=a.budget, kernel=a.kernel, args=args, params_out=params_out,
                      results_out=results_out, seed=a.seed, iterations=a.iterations,
                      platform=a.platform, device=a.device, points=a.points, rounds=a.rounds,
                      prune=not a.full_space, batch=a.batch,
                      progress=None if a.no_progress else sys.stderr,
                      brute_force_limit=None if a.yes else BRUTE_FORCE_LIMIT, **options)
    except (ImclError, ValueError, TypeError) as e:
        hint = " with --yes" if isinstance(e, SpaceTooLarge) else ""
        print(f"imcl-tune: error: {e}{hint}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("imcl-tune: interrupted before any configuration was measured", file=sys.stderr)
        return 130
    print(r.summary())
    print(f"  best configuration: {r.params_path}; results (T4): {r.results_path}")
    if r.interrupted:
        print("imcl-tune: interrupted: the best configuration measured so far is written", file=sys.stderr)
        return 130
    if a.plot:
        shown = r.plot(a.plot)
        print(f"  plot: {a.plot} (time against {', '.join(shown) or 'nothing: one configuration'})")
    if r.wrong:
        print(f"imcl-tune: {len(r.wrong)} configuration(s) computed a wrong result", file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
