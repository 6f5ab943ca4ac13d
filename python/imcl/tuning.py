"""imcl.tune: Kernel Tuner with imcl as the code generator."""

import contextlib
import io
import json
import math
import random
from dataclasses import dataclass, field

import numpy as np

from ._compiler import ImclError
from .kernel import Kernel, fmt_size
from .restrictions import holds

# tune_kernel arguments that imcl.tune sets itself
_OWN = {"kernel_name", "kernel_source", "problem_size", "arguments", "tune_params", "grid_div_x",
        "grid_div_y", "grid_div_z", "restrictions", "answer", "verify", "lang", "defines"}


class SpaceTooLarge(ValueError):
    """brute_force over more configurations than tune's brute_force_limit."""


@dataclass
class Failure:
    """A configuration that did not give a time: refused by imcl, failed to compile or to
    run, or computed a wrong result."""
    config: dict
    stage: str          # "imcl", "compile", "run", "wrong result"
    message: str


@dataclass
class TuneResult:
    kernel: Kernel
    strategy: str
    best: dict                  # the best configuration (every tuning parameter)
    best_time_ms: float
    default: dict
    default_time_ms: float
    results: list               # Kernel Tuner's results (one dict per configuration)
    env: dict
    failures: list = field(default_factory=list)
    params_path: str = None
    results_path: str = None
    log: str = ""               # what Kernel Tuner printed (quiet=True keeps it here)
    points: int = None          # grid points one launch updates (GStencil/s)
    default_is_cpu: bool = False  # default is OpenCL's CPU variant (Kernel.defaults_cpu)
    interrupted: bool = False   # Ctrl-C stopped the search: the best of what was measured
    measured: int = None        # configurations this run measured (the rest came from a cache)
    # (default ms, best ms) of each round that timed the two one after the other once the
    # search was over (tune's rounds); empty where they were not (the best is the default)
    side_by_side: list = field(default_factory=list)
    pruned: list = field(default_factory=list)  # the prune restrictions the search kept to
    default_best: bool = False  # no configuration beat the default (CPU variant): its file is {}

    @property
    def wrong(self):
        return [f for f in self.failures if f.stage == "wrong result"]

    @property
    def evaluated(self):
        """The configurations measured (a strategy that comes back to one is served Kernel
        Tuner's earlier result: counted once)."""
        params = list(self.kernel.tune_params)
        return len({tuple(repr(r.get(p)) for p in params) for r in self.results})

    def gstencils(self, time_ms):
        if not time_ms:
            return float("nan")
        return (self.points or self.kernel.npoints()) / (time_ms * 1e-3) / 1e9

    @property
    def ratios(self):
        """The default's time over the best's in each side-by-side round."""
        return [d / b for d, b in self.side_by_side if b]

    @property
    def speedup(self):
        """The best over the default: the median of the side-by-side rounds where there
        were some, else the search's own times."""
        if self.ratios:
            return float(np.median(self.ratios))
        return self.default_time_ms / self.best_time_ms if self.best_time_ms else float("nan")

    def summary(self):
        k = self.kernel
        points = f"{k.npoints()} points" if not self.points or self.points == k.npoints() else \
            f"{k.npoints()} points, {self.points} updated per launch"
        blocks = f" x {k.batch} blocks" if k.batch > 1 else ""
        lines = [f"kernel {k.kernel} ({k.backend}, {fmt_size(k.size)}{blocks} = {points}), "
                 f"strategy {self.strategy}: {self.evaluated} configurations measured"
                 + (f" ({self.measured} now, the rest from the cache)"
                    if self.measured is not None and self.measured < self.evaluated else "")
                 + f", {len(self.failures)} failed" + (", interrupted" if self.interrupted else "")]
        measured = not math.isnan(self.default_time_ms)
        rows = [("", "time (ms)", "GStencil/s", "configuration"),
                ("default", *((f"{self.default_time_ms:.4f}", f"{self.gstencils(self.default_time_ms):.4f}")
                              if measured else ("not measured", "")),
                 describe(self.default)),
                ("best", f"{self.best_time_ms:.4f}", f"{self.gstencils(self.best_time_ms):.4f}",
                 describe(self.best))]
        w = [max(len(r[i]) for r in rows) for i in range(3)]
        for r in rows:
            lines.append(f"  {r[0]:<{w[0]}}  {r[1]:>{w[1]}}  {r[2]:>{w[2]}}  {r[3]}".rstrip())
        if self.side_by_side:
            d = [x for x, _ in self.side_by_side]
            b = [y for _, y in self.side_by_side]
            lines.append(f"  side by side, {len(d)} rounds of the two one after the other: default "
                         f"{min(d):.4f}-{max(d):.4f} ms, best {min(b):.4f}-{max(b):.4f} ms")
            lines.append(f"  speedup over the default: {self.speedup:.2f}x (rounds "
                         f"{min(self.ratios):.2f}-{max(self.ratios):.2f}x)")
        elif measured:
            lines.append(f"  speedup over the default: {self.speedup:.2f}x")
        if self.default_best:
            lines.append("  best: the default itself, no configuration measured faster than the CPU "
                         "variant; the best file is {} (no -t parameter: imcl's default)")
        if self.pruned:
            lines.append(f"  searched the pruned space: {' and '.join(self.pruned)} (docs/autotuning.md)")
        if self.default_is_cpu:
            lines.append("  default: the CPU variant, what a run on this CPU device gets without -t "
                         "(docs/tuning.md, \"Defaults\")")
        for f in self.failures:
            lines.append(f"  failed ({f.stage}): {describe(f.config)}: {f.message.splitlines()[0]}")
        return "\n".join(lines)

    def _timed(self):
        """The results that have a time."""
        return [r for r in self.results if "__error__" not in r and isinstance(r.get("time"), (int, float))
                and r["time"] > 0]

    def important(self, top=3):
        """The tuning parameters that explain most of the spread of the measured
        times (the share of the variance of log(time) between a parameter's values),
        at most `top` of them, most important first, as (name, share)."""
        valid = self._timed()
        if len(valid) < 2:
            return []
        logt = np.log([r["time"] for r in valid])
        total = float(((logt - logt.mean()) ** 2).sum())
        shares = []
        for p in self.kernel.tune_params:
            groups = {}
            for r, t in zip(valid, logt):
                groups.setdefault(_plain(r[p]), []).append(t)
            if len(groups) < 2 or total == 0:
                continue
            between = sum(len(g) * (np.mean(g) - logt.mean()) ** 2 for g in groups.values())
            shares.append((p, float(between / total)))
        shares.sort(key=lambda x: -x[1])
        return shares[:top]

    def plot(self, path, top=3):
        """A PNG of time against the `top` parameters that matter most (important()):
        one panel each, every measured configuration a dot, the default and the best
        marked. Returns the parameters plotted."""
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt

        params = self.important(top)
        valid = self._timed()
        fig, axes = plt.subplots(1, max(1, len(params)), figsize=(4.2 * max(1, len(params)), 3.6),
                                 squeeze=False, sharey=True)
        for ax, (p, share) in zip(axes[0], params):
            values = sorted({_plain(r[p]) for r in valid}, key=lambda v: (isinstance(v, str), v))
            pos = {v: i for i, v in enumerate(values)}
            rng = np.random.default_rng(0)
            xs = [pos[_plain(r[p])] + rng.uniform(-0.15, 0.15) for r in valid]
            ax.scatter(xs, [r["time"] for r in valid], s=12, alpha=0.6, color="tab:blue")
            for label, config, t, style in (("default", self.default, self.default_time_ms, "s"),
                                            ("best", self.best, self.best_time_ms, "*")):
                if config.get(p) in pos and t == t:
                    ax.scatter([pos[config[p]]], [t], marker=style, s=90, color="tab:red" if label == "best"
                               else "black", label=label, zorder=3)
            ax.set_xticks(range(len(values)), [str(v) for v in values], rotation=45 if len(values) > 6 else 0)
            ax.set_xlabel(f"{p} ({share:.0%} of the spread)")
            ax.set_yscale("log")
        axes[0][0].set_ylabel("time (ms)")
        if axes[0][0].get_legend_handles_labels()[0]:   # the default or the best is on it
            axes[0][0].legend(loc="best", fontsize="small")
        k = self.kernel
        fig.suptitle(f"{k.kernel} ({k.backend}, {fmt_size(k.size)}): {len(valid)} configurations, "
                     f"{self.strategy}", fontsize="medium")
        fig.tight_layout()
        fig.savefig(path, dpi=100)
        plt.close(fig)
        return [p for p, _ in params]


def describe(config):
    """A short text for a configuration."""
    c = dict(config)
    parts = []
    if all(f"block_size_{d}" in c for d in "xyz"):
        parts.append("block " + "x".join(str(c.pop(f"block_size_{d}")) for d in "xyz"))
    if all(f"coarsen_{d}" in c for d in "xyz"):
        parts.append("coarsen " + "x".join(str(c.pop(f"coarsen_{d}")) for d in "xyz"))
    parts += [f"{k} {v}" for k, v in c.items()]
    return ", ".join(parts)


def strategies():
    from kernel_tuner.interface import strategy_map
    return list(strategy_map)


class _Guard:
    """Records a configuration that fails (imcl refuses it, it does not compile or run,
    or its result is wrong) as failed, instead of letting Kernel Tuner 1.5.0 abort the
    run, by wrapping DeviceInterface.compile_and_benchmark while tuning."""

    def __init__(self, kernel, progress, total):
        self.kernel = kernel
        self.failures = []
        self.seen = set()
        self.progress = progress
        self.total = total
        self.times = {}

    @property
    def best(self):
        return min(self.times.values()) if self.times else None

    def __enter__(self):
        from kernel_tuner import core, util
        self.core, self.util = core, util
        self.orig = core.DeviceInterface.compile_and_benchmark
        guard = self

        def compile_and_benchmark(dev, kernel_source, gpu_args, params, kernel_options, to):
            key = json.dumps({k: _plain(params[k]) for k in to.tune_params}, sort_keys=True, default=str)
            first = key not in guard.seen
            guard.seen.add(key)
            try:
                result = guard.orig(dev, kernel_source, gpu_args, params, kernel_options, to)
            except Exception as e:  # noqa: BLE001 - every failure is recorded, none aborts
                result = guard.failed(params, to, e, first)
            else:
                t = result.get("time")
                if "__error__" not in result and isinstance(t, (int, float)):
                    guard.times[key] = t
            if first:
                guard.tick()
            return result

        core.DeviceInterface.compile_and_benchmark = compile_and_benchmark
        return self

    def failed(self, params, to, e, first):
        msg = str(e)
        if isinstance(e, ImclError):
            stage = "imcl"
        elif "verification failed" in msg:
            stage = "wrong result"
            msg = self.kernel.last_mismatch or msg
        elif any(s in msg for s in ("BUILD_PROGRAM_FAILURE", "clBuildProgram", "CompileError",
                                    "compil", "nvcc", "NVRTC")):
            stage = "compile"
        else:
            stage = "run"
        if first:
            config = self.kernel.decode({k: params[k] for k in to.tune_params})
            self.failures.append(Failure(config, stage, f"{type(e).__name__}: {msg}"))
        err = self.util.CompilationFailedConfig() if stage in ("imcl", "compile") \
            else self.util.RuntimeFailedConfig()
        return {"__error__": err, "compile_time": 0, "verification_time": 0, "benchmark_time": 0}

    def tick(self):
        if not self.progress:
            return
        n = len(self.seen)
        total = f"/{self.total}" if self.total else ""
        best = f", best {self.best:.4f} ms" if self.best is not None else ""
        failed = f", {len(self.failures)} failed" if self.failures else ""
        width = 24
        bar = ""
        if self.total:
            done = min(width, round(width * n / self.total))
            bar = "[" + "#" * done + "." * (width - done) + "] "
        self.progress.write(f"\r  {bar}{n}{total} configurations{failed}{best}   ")
        self.progress.flush()

    def __exit__(self, *exc):
        self.core.DeviceInterface.compile_and_benchmark = self.orig
        if self.progress and self.seen:
            self.progress.write("\n")
            self.progress.flush()
        return False


def _subspace(kernel, subspace):
    tp = dict(kernel.tune_params)
    for p, vals in (subspace or {}).items():
        if p not in tp:
            raise ValueError(f"subspace: kernel '{kernel.kernel}' has no tuning parameter {p!r}")
        vals = list(vals) if isinstance(vals, (list, tuple)) else [vals]
        bad = [v for v in vals if v not in tp[p]]
        if bad or not vals:
            raise ValueError(f"subspace: {p} = {bad[0] if bad else '[]'!r} is not in the space Kernel "
                             f"Tuner sees ({p}: {tp[p]})")
        tp[p] = vals
    return tp


def _on_cpu_device(kernel, opts):
    """Whether the OpenCL device Kernel Tuner will use (its platform and device
    options, 0 and 0 by default) is a CPU device."""
    if kernel.backend != "opencl" or opts.get("simulation_mode"):
        return False
    try:
        import pyopencl as cl
        dev = cl.get_platforms()[opts.get("platform") or 0].get_devices()[opts.get("device") or 0]
        return bool(dev.type & cl.device_type.CPU)
    except Exception:   # noqa: BLE001 - no such device: Kernel Tuner will say so
        return False


def space_size(tune_params):
    """The configurations of a space before its restrictions: the product of its
    parameters' numbers of values."""
    n = 1
    for vals in tune_params.values():
        n *= len(vals)
    return n


# Kernel Tuner's strategies that start from one configuration (their x0), which imcl.tune
# sets to the default a run without -t gets on the device
_STARTS = {"basinhopping", "diff_evo", "dual_annealing", "firefly_algorithm", "genetic_algorithm",
           "greedy_ils", "greedy_mls", "pso", "simulated_annealing"}


def tune(path, size, backend="opencl", strategy="brute_force", budget=None, kernel=None,
         args=None, subspace=None, params_out="", results_out="", seed=None, quiet=True,
         progress=None, imcl=None, points=None, brute_force_limit=None, rounds=3, prune=True,
         batch=1, **kernel_tuner_options):
    """Tunes one ImageCL kernel with Kernel Tuner, imcl generating the code of every
    configuration and its C reference checking every result.

    path, size, backend, kernel, batch   as for imcl.Kernel (batch: that many blocks of
                  the size in each launch, as PK_plan_launch_batch runs them)
    strategy      any Kernel Tuner strategy name ("brute_force", "random_sample", ...)
    budget        at most this many measurements, the default configuration's among
                  them (the strategy gets budget - 1: Kernel Tuner's max_fevals)
    args          arrays and scalars by name; arrays not given are random (arguments()
                  and make_arguments() of imcl.Kernel); scalars must be given
    subspace      {parameter: [values]} to tune a part of the space only
    prune         leave out of the search what the dump's prune says no device runs well
                  (blocks under a warp, coarsening that leaves a ragged tile:
                  docs/autotuning.md), where the default lies in what is left
    params_out    where to write the best configuration (an `imcl -t` file); default
                  "<kernel>.best.json"; None: not written
    results_out   where to write Kernel Tuner's results in T4 format; default
                  "<kernel>.t4.json"; None: not written
    seed          seeds the random data and Python's/NumPy's random generators (the
                  random strategies draw from them)
    progress      a stream for a progress line (e.g. sys.stderr), or None
    points        the grid points one launch updates, for GStencil/s (default: the
                  grid's; miniAMR's v1 and v2 update n^3 points of every block)
    brute_force_limit  refuse brute_force over a space of more configurations (before
                  its restrictions) than this (SpaceTooLarge, a ValueError); None: no limit
    rounds        once the search is over, time the default and the best one after the
                  other in this many rounds (outside any cache) and report the speedup as
                  the median of the rounds' ratios with their spread; 0: the search's own
                  times (also in simulation mode, after Ctrl-C, or when the best is the
                  default)
    kernel_tuner_options  passed to kernel_tuner.tune_kernel (iterations, device,
                  platform, cache, strategy_options, simulation_mode, ...); a cache
                  file serves the default's run too, so a rerun measures nothing new

    Ctrl-C (KeyboardInterrupt) during the search ends it: the result is the best of
    what was measured (interrupted=True), its configuration written to params_out;
    the T4 results are not written then, the cache keeps every measurement.

    The default the best is compared with is the dump's `defaults`, or on a CPU
    device (OpenCL) the CPU variant a run without -t gets there (Kernel.defaults_cpu).
    A strategy that starts from one configuration (greedy_ils, simulated_annealing,
    genetic_algorithm, ...: its x0) starts from that default where it lies in the space
    searched, unless strategy_options gives x0.

    Returns a TuneResult. Raises ValueError / ImclError before tuning for a kernel
    that does not compile, a size that does not match the kernel's rank, an unknown
    strategy, or arguments that do not fit.
    """
    import kernel_tuner

    clash = sorted(_OWN.intersection(kernel_tuner_options))
    if clash:
        raise TypeError(f"imcl.tune sets {', '.join(clash)} itself")
    if not isinstance(strategy, str) or strategy not in strategies():
        raise ValueError(f"unknown strategy {strategy!r}; Kernel Tuner {kernel_tuner.__version__} "
                         f"has: {', '.join(strategies())}")
    if budget is not None and (not isinstance(budget, (int, np.integer)) or budget < 1):
        raise ValueError(f"budget {budget!r}: expected a positive number of configurations")
    if budget is not None and strategy == "brute_force":
        raise ValueError("budget: Kernel Tuner's brute_force strategy tries every configuration and "
                         "takes no budget; choose another strategy (e.g. random_sample) or "
                         "narrow the space with subspace=")

    if points is not None and (not isinstance(points, (int, np.integer)) or points < 1):
        raise ValueError(f"points {points!r}: expected a positive number of grid points")

    k = Kernel(path, backend=backend, size=size, kernel=kernel, imcl=imcl, batch=batch)
    tune_params = _subspace(k, subspace)
    size = space_size(tune_params)
    if strategy == "brute_force" and brute_force_limit is not None and size > brute_force_limit:
        raise SpaceTooLarge(f"brute_force would measure up to {size} configurations of "
                         f"'{k.kernel}' (the space before its restrictions), more than {brute_force_limit}; "
                         f"give a budget and another strategy, narrow the space, or confirm")
    cpu = k.defaults_cpu is not None and _on_cpu_device(k, kernel_tuner_options)
    default = k.defaults_cpu if cpu else k.defaults
    variant = cpu and k.function_cpu is not None
    arguments = k.make_arguments(seed=0 if seed is None else seed, **(args or {}))
    k.source(default)               # the default configuration compiles
    answer = k.reference(arguments)
    if params_out == "":
        params_out = f"{k.kernel}.best.json"
    if results_out == "":
        results_out = f"{k.kernel}.t4.json"

    opts = dict(kernel_tuner_options)
    strategy_options = dict(opts.pop("strategy_options", None) or {})
    if budget is not None:
        strategy_options["max_fevals"] = int(budget) - 1     # the default is a measurement too
    if seed is not None:
        random.seed(seed)
        np.random.seed(seed)
    common = run_options(k, answer, quiet)
    log = io.StringIO()
    redirect = contextlib.redirect_stdout(log) if quiet else contextlib.nullcontext()

    total = budget
    outside = []                    # the default's run, where it lies outside the space
    results, env, interrupted, default_time = [], {}, False, None
    # Kernel Tuner gets the space in the form it builds fastest (string values as codes,
    # every restriction a string it indexes: Kernel.kernel_tuner_space), pruned where the
    # default or the GPU default is left in it (so the pruned space is not empty); every
    # result comes back in imcl's values (Kernel.decode) before anything else reads it
    def searched(config, restrictions):
        return all(config[p] in tune_params[p] for p in tune_params) and holds(restrictions, config)
    with_prune = k.restriction_strings + k.prune_strings
    pruned = bool(prune and k.prune_strings and any(searched(c, with_prune) for c in (default, k.defaults)))
    kt_params, kt_restrictions = k.kernel_tuner_space(tune_params, prune=pruned)
    inside = searched(default, with_prune if pruned else k.restriction_strings)
    if inside and strategy in _STARTS and "x0" not in strategy_options:
        coded = k.encode({p: default[p] for p in tune_params})
        strategy_options["x0"] = [coded[p] for p in tune_params]
    with _Guard(k, progress, total) as guard, redirect:
        try:
            if budget != 1:
                results, env = kernel_tuner.tune_kernel(
                    k.name, k.source, k.problem_size, arguments, kt_params,
                    restrictions=kt_restrictions, strategy=strategy, strategy_options=strategy_options,
                    **common, **opts)
        except KeyboardInterrupt:
            interrupted = True
            results = [dict(json.loads(key), time=t) for key, t in guard.times.items()]
        results = [k.decode(r) if r else r for r in results]
        # The CPU variant is a function of its own (the dump's function_cpu), with guards
        # no -t configuration has: the default a run gets is timed as itself, apart from
        # the search (whose -t text of the same values is a candidate like any other)
        default_time = None if variant else _time_of(results, tune_params, default)
        if variant and not interrupted and not opts.get("simulation_mode"):
            dres, default_time = _measure(k, default, tune_params, arguments, common, opts, variant=True)
            outside = [r for r in dres if r]
        elif default_time is None and not interrupted and not opts.get("simulation_mode"):
            dres, default_time = _measure(k, default, tune_params, arguments, common, opts)
            # The default counts among the results (and may be the best) only where it
            # lies in the space the tuner searched (a subspace or the pruned space may
            # leave it out), as nothing outside is proposed.
            if inside:
                results = list(results) + list(dres)
            else:
                outside = [r for r in dres if r]

    results = [r for r in results if r]     # a runner marks configurations past the budget None
    valid = [r for r in results if "__error__" not in r and isinstance(r.get("time"), (int, float))]
    if not valid and interrupted:
        raise KeyboardInterrupt     # nothing measured yet: no best to keep
    if not valid:
        detail = "; ".join(f"{f.stage}: {f.message.splitlines()[0]}" for f in guard.failures[:3])
        raise ImclError(f"no configuration of '{k.kernel}' ran ({len(results) + len(outside)} tried)"
                        + (f": {detail}" if detail else ""))
    best_r = min(valid, key=lambda r: r["time"])
    best = {p: _plain(best_r[p]) for p in tune_params}
    full_best = dict(k.defaults)
    full_best.update(best)
    best_time = float(best_r["time"])
    # where no configuration beat the CPU variant, the best is the default itself: no -t
    default_best = variant and default_time is not None and default_time <= best_time
    if default_best:
        full_best, best_time = dict(default), float(default_time)

    side = []
    if rounds and not interrupted and not opts.get("simulation_mode") and default_time is not None \
            and not default_best and any(default[p] != full_best[p] for p in tune_params):
        with redirect:
            side = _side_by_side(k, default, full_best, tune_params, arguments, common, opts, rounds,
                                 variant)

    if params_out:
        k.source(full_best)         # imcl -t accepts it
        with open(params_out, "w") as f:
            # the default's file gives no parameter: imcl's default, the CPU variant with it
            json.dump({} if default_best else full_best, f, indent=2)
            f.write("\n")
    if results_out and interrupted:
        results_out = ""            # Kernel Tuner's records of a search it did not finish
    if results_out:
        from kernel_tuner.file_utils import store_output_file
        store_output_file(results_out, results, tune_params)
        if not results_out.endswith(".json"):
            results_out += ".json"

    return TuneResult(kernel=k, strategy=strategy, best=full_best, best_time_ms=best_time,
                      default=dict(default),
                      default_time_ms=float(default_time) if default_time is not None else float("nan"),
                      results=results, env=env, failures=guard.failures,
                      params_path=params_out or None, results_path=results_out or None,
                      log=log.getvalue(), points=int(points) if points else None, default_is_cpu=cpu,
                      interrupted=interrupted, measured=len(guard.seen), side_by_side=side,
                      pruned=list(k.prune_strings) if pruned else [], default_best=default_best)


def run_options(k, answer, quiet=True):
    """The options of kernel_tuner.tune_kernel that every run of Kernel k shares (its grid
    divisors, its language, no defines) with `answer` (Kernel.reference) to verify
    against; the benchmarks' side-by-side runs take them too (bench/tuned)."""
    return dict(grid_div_x=k.grid_div_x, grid_div_y=k.grid_div_y, grid_div_z=k.grid_div_z,
                answer=answer, verify=k.verify, lang=k.lang, defines={}, quiet=quiet)


def _side_by_side(k, default, best, tune_params, arguments, common, opts, rounds, variant=False):
    """(default ms, best ms) of each of `rounds` rounds that time the default and then
    the best, each with Kernel Tuner's own runs (iterations) and no cache, so that both
    see the machine alike; [] when a run fails (the search's times stand)."""
    opts = {key: v for key, v in opts.items() if key != "cache"}
    out = []
    for _ in range(rounds):
        times = []
        for config, cpu in ((default, variant), (best, False)):
            try:
                _, t = _measure(k, config, tune_params, arguments, common, opts, variant=cpu)
            except Exception:   # noqa: BLE001 - the comparison is a bonus, never a failure
                return []
            if t is None:
                return []
            times.append(float(t))
        out.append(tuple(times))
    return out


def _measure(k, config, tune_params, arguments, common, opts, variant=False):
    """Kernel Tuner's run of the one configuration `config` (imcl's values, the tuning
    parameters of tune_params): its results, in imcl's values, and its time (None when
    it did not run). variant: the CPU variant instead (Kernel.function_cpu of the code
    imcl writes without -t), launched in the work-groups of `config` (defaults_cpu), its
    cache a file of its own beside the cache (FILE-cpu-variant.json), where its values
    do not stand for a -t configuration's."""
    import kernel_tuner
    single = {p: [v] for p, v in k.encode({p: config[p] for p in tune_params}).items()}
    name, source, problem_size = k.name, k.source, k.problem_size
    if variant:
        name, source = k.function_cpu, k.source({})
        if k.arguments_cpu:
            # all rows (2D) or planes (3D): imcl_from 0, imcl_to the last dimension's extent
            arguments = list(arguments) + [np.int32(0), np.int32(k.size[k.rank - 1])]
            common = dict(common, answer=list(common["answer"]) + [None, None])
        if k.row_walk_cpu:
            # a work-item walks a whole row: one in x (block_size_x 1 in defaults_cpu)
            whole = k.problem_size
            problem_size = ((lambda p: (1,) + tuple(whole(p))[1:]) if callable(whole)
                            else (1,) + tuple(whole)[1:])
        if opts.get("cache"):
            stem = str(opts["cache"])
            stem = stem[:-5] if stem.endswith(".json") else stem
            opts = dict(opts, cache=stem + "-cpu-variant.json")
    res, _ = kernel_tuner.tune_kernel(name, source, problem_size, arguments, single,
                                      strategy="brute_force", **common, **opts)
    res = [k.decode(r) if r else r for r in res]
    return res, _time_of(res, tune_params, config)


def _plain(v):
    return v.item() if hasattr(v, "item") else v


def _time_of(results, tune_params, config):
    for r in results:
        if all(_plain(r.get(p)) == config[p] for p in tune_params) and "__error__" not in r:
            t = r.get("time")
            if isinstance(t, (int, float)):
                return t
    return None
