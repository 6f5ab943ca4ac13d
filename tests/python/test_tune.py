"""Kernel Tuner tunes a sample on PoCL through the imcl package, every configuration
checked against imcl's C reference (tests/python/run.sh IMCL test_tune.py -k SAMPLE).

SAMPLE: sobel (2D, float), blur5 (2D, fixed-size mask, unrolled loops), sum7 (3D,
double), v1 (miniAMR version 1: grid_size, scalars, one read-write buffer; also
through the imcl-tune command)."""

import json
import subprocess
import sys
from pathlib import Path

import numpy as np
import pytest

from common import SAMPLES, expect_raises, imcl_accepts

import imcl  # noqa: E402
import jsonschema  # noqa: E402
from kernel_tuner.file_utils import output_file_schema  # noqa: E402

ITER = 3        # runs per configuration: enough to check, quick on 2 cores


def miniamr_args(n=8, blocks=2, nvars=3, var=1):
    mesh = np.random.default_rng(5).random((blocks * (nvars + 1) * (n + 2), n + 2, n + 2))
    return dict(mesh=mesh, n=n, var=var, num_blocks=blocks, num_vars=nvars)


CASES = {
    # path, size, args, [(strategy, budget, subspace), ...]
    "sobel": (SAMPLES / "sobel" / "sobel.imcl", (64, 64), None,
              [("random_sample", 5, None),
               ("random_sample", 4, {"mem_in": ["shared", "constant"]})]),
    "blur5": (SAMPLES / "blur5" / "blur5.imcl", (48, 40), None,
              [("random_sample", 4, None),
               ("brute_force", None, {"mem_in": ["shared"], "mem_mask": ["constant"], "unroll_rows": [5],
                                   "unroll_taps": [1, 5], "block_size_x": [16], "block_size_y": [4],
                                   "coarsen_x": [1, 2], "coarsen_y": [3], "interleaved": [1],
                                   "batch_loop": [0]})]),
    "sum7": (SAMPLES / "sum7" / "sum7.imcl", (24, 20, 16), None,
             [("random_sample", 5, None),
              ("random_sample", 3, {"mem_input": ["shared"]})]),
    # an iterated kernel: its CPU variant takes the planes of a launch as well (arguments_cpu)
    "heat3d": (SAMPLES / "heat3d" / "heat3d.imcl", (24, 20, 16), {"c": 0.125},
               [("random_sample", 4, None)]),
    "v1": (SAMPLES / "miniamr" / "v1.imcl", (8, 8, 8), miniamr_args(),
           [("random_sample", 5, None),
            ("random_sample", 3, {"interleaved": [0], "unroll_blocks": [2, 4, 8]})]),
}


def check_run(work, path, size, args, strategy, budget, subspace, tag):
    params_out = work / f"{tag}.best.json"
    t4_out = work / f"{tag}.t4.json"
    r = imcl.tune(str(path), size=size, strategy=strategy, budget=budget, args=args,
                  subspace=subspace, seed=7, iterations=ITER, params_out=str(params_out),
                  results_out=str(t4_out))
    k = r.kernel
    assert not r.failures, "failed configurations:\n" + "\n".join(map(str, r.failures))
    tried = [x for x in r.results]
    # a budget counts every measurement: the strategy's budget - 1 configurations, and the
    # default when it was not among them (outside the space: measured, not listed)
    if budget:
        assert budget - 1 <= len(tried) <= budget, (budget, len(tried))
    else:           # brute force: the whole (sub)space, and the default
        want = 1
        for p, vals in k.tune_params.items():
            want *= len((subspace or {}).get(p, vals))
        assert want <= len(tried) <= want + 1, (want, len(tried))
    assert all("__error__" not in x for x in tried)
    # every configuration that ran was verified (the warm-up run of the first one too)
    assert k.verified >= len(tried), (k.verified, len(tried))
    names = list(k.tune_params)
    for x in tried:
        for p in names:
            assert x[p] in k.tune_params[p], (p, x[p])
            if subspace and p in subspace and x[p] != k.defaults[p]:
                assert x[p] in subspace[p], (p, x[p])
        assert "texture" not in [x[p] for p in names]
        assert imcl.holds(k.restriction_strings, {p: x[p] for p in names})
    # the best configuration, for imcl -t
    best = json.loads(params_out.read_text())
    # (no parameter where nothing beat the CPU variant: imcl's default, the variant with it)
    if r.default_best:
        assert best == {} and r.best == r.default and r.default_is_cpu, (best, r.best)
        assert "best: the default itself" in r.summary(), r.summary()
    else:
        assert best == r.best and set(best) == set(names), best
    imcl_accepts(params_out, path, "x".join(map(str, size)))
    # the default compared with: OpenCL's CPU variant on a CPU device, which every sample
    # here has (sobel's, sum7's and blur5's loops unroll whole, v1's loop over the blocks
    # runs in lanes: docs/tuning.md, "Defaults")
    import pyopencl as cl
    on_cpu = bool(cl.get_platforms()[0].get_devices()[0].type & cl.device_type.CPU)
    want_cpu = on_cpu
    assert k.defaults_cpu is not None, path.stem
    assert r.default_is_cpu == want_cpu and r.default == (k.defaults_cpu if want_cpu else k.defaults), r.default
    # the default is measured; it counts among the results where it lies in the space
    assert r.default_time_ms > 0, r.default_time_ms
    in_space = all(r.default[p] in (subspace or {}).get(p, k.tune_params[p]) for p in names) \
        and imcl.holds(k.restriction_strings, r.default)
    # the speedup: the median of 3 rounds timing the default and the best one after the
    # other, where the best is not the default; the search's own times where it is
    if any(r.best[p] != r.default[p] for p in names):
        assert len(r.side_by_side) == 3 and all(d > 0 and b > 0 for d, b in r.side_by_side), r.side_by_side
        assert r.speedup == float(np.median([d / b for d, b in r.side_by_side])), r.speedup
        assert "side by side, 3 rounds" in r.summary(), r.summary()
    else:
        assert not r.side_by_side and r.speedup == r.default_time_ms / r.best_time_ms
    if in_space:
        assert r.best_time_ms <= r.default_time_ms
    else:
        assert all(any(x[p] != r.default[p] for p in names) for x in tried)
    # the plot shows the parameters that explain most of the spread
    imp = r.important(3)
    assert 0 < len(imp) <= 3 and all(0 <= share <= 1 for _, share in imp), imp
    assert [sh for _, sh in imp] == sorted((sh for _, sh in imp), reverse=True), imp
    assert r.plot(work / f"{tag}.png") == [p for p, _ in imp]
    assert (work / f"{tag}.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    # Kernel Tuner's T4 results
    version, schema = output_file_schema("results")
    t4 = json.loads(t4_out.read_text())
    jsonschema.validate(t4, schema)
    assert len(t4["results"]) == len(tried)
    print(r.summary(), flush=True)


def check_wrong_answers_are_caught(work):
    """A wrong answer makes every configuration fail verification ('wrong result');
    tuning goes on through all of them and then says that none ran."""
    orig = imcl.Kernel.reference

    def wrong(self, *a, **kw):
        ans = orig(self, *a, **kw)
        return [None if x is None else x + 1 for x in ans]

    imcl.Kernel.reference = wrong
    try:
        e = expect_raises(imcl.ImclError, "no configuration of 'sobel' ran (2 tried): wrong result: ...",
                          imcl.tune, str(SAMPLES / "sobel" / "sobel.imcl"), size=(32, 32),
                          strategy="random_sample", budget=2, seed=1, iterations=1,
                          params_out=None, results_out=None)
        assert "differ from the C reference" in str(e), str(e)
    finally:
        imcl.Kernel.reference = orig


def check_failures_are_recorded(work):
    """A configuration that does not compile is recorded as failed; the others run."""
    orig = imcl.Kernel.source

    def broken_for_interleaved_0(self, params):
        text = orig(self, params)
        return text + "\n#error not this one\n" if params.get("interleaved") == 0 else text

    imcl.Kernel.source = broken_for_interleaved_0
    try:
        r = imcl.tune(str(SAMPLES / "sobel" / "sobel.imcl"), size=(32, 32), strategy="brute_force",
                      subspace={"block_size_x": [8], "block_size_y": [8], "coarsen_x": [1],
                                "coarsen_y": [1, 2], "interleaved": [0, 1], "mem_in": ["global"]},
                      iterations=1, params_out=None, results_out=None)
    finally:
        imcl.Kernel.source = orig
    n = len(r.results)      # 4, times 2 for each other parameter imcl may list with 2 values
    assert n >= 4 and n % 2 == 0, n
    assert [f.stage for f in r.failures] == ["compile"] * (n // 2), r.failures
    assert all(f.config["interleaved"] == 0 for f in r.failures)
    assert r.best["interleaved"] == 1
    assert sum("__error__" in x for x in r.results) == n // 2


def check_cli(work):
    """imcl-tune on miniAMR v1, scalars and the mesh from the command line."""
    a = miniamr_args()
    np.save(work / "mesh.npy", a["mesh"])
    exe = Path(sys.executable).parent / "imcl-tune"
    cmd = [str(exe), str(SAMPLES / "miniamr" / "v1.imcl"), "--size", "8x8x8", "--strategy",
           "random_sample", "--budget", "3", "--seed", "3", "--iterations", str(ITER),
           "-o", str(work / "cli.best.json"), "--results", str(work / "cli.t4.json"),
           "--arg", f"mesh={work / 'mesh.npy'}", "--arg", "n=8", "--arg", "var=1",
           "--arg", "num_blocks=2", "--arg", "num_vars=3", "--no-progress",
           "--points", str(8 ** 3 * 2), "--plot", str(work / "cli.png")]
    p = subprocess.run(cmd, capture_output=True, text=True, cwd=work)
    print(p.stdout, p.stderr, flush=True)
    assert p.returncode == 0, p.returncode
    lines = p.stdout.splitlines()
    assert lines[0].startswith("kernel v1 (opencl, 8x8x8 = 512 points, 1024 updated per launch), "
                               "strategy random_sample: "), lines[0]
    assert lines[1].split() == ["time", "(ms)", "GStencil/s", "configuration"], lines[1]
    assert lines[2].split()[0] == "default" and lines[3].split()[0] == "best", lines
    # GStencil/s counts the points of every block: 1024 per launch
    for row in lines[2:4]:      # both printed to 4 decimals
        ms, gs = float(row.split()[1]), float(row.split()[2])
        lo, hi = (1024 / ((ms + d) * 1e-3) / 1e9 for d in (0.00005, -0.00005))
        assert lo - 0.00005 <= gs <= hi + 0.00005, row
    assert (work / "cli.png").read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    shown = next(x for x in lines if x.startswith("  plot: "))
    assert shown.startswith(f"  plot: {work / 'cli.png'} (time against "), shown
    assert "failed" not in p.stdout.split("\n", 1)[1]
    imcl_accepts(work / "cli.best.json", SAMPLES / "miniamr" / "v1.imcl", "8x8x8")


RUNS = [(name, i) for name, case in CASES.items() for i in range(len(case[3]))]


@pytest.mark.parametrize("name, i", RUNS, ids=[f"{name}-{i}-{CASES[name][3][i][0]}" for name, i in RUNS])
def test_tune(work, name, i):
    """Kernel Tuner's run of a sample (pytest -k SAMPLE: that sample's), every
    configuration checked."""
    path, size, args, runs = CASES[name]
    strategy, budget, subspace = runs[i]
    check_run(work, path, size, args, strategy, budget, subspace, f"{name}{i}")


def test_sobel_a_wrong_result_is_caught_and_recorded(work):
    check_wrong_answers_are_caught(work)


def test_sobel_a_configuration_that_does_not_compile_is_recorded_and_tuning_goes_on(work):
    check_failures_are_recorded(work)


def test_v1_imcl_tune_on_miniamr(work):
    check_cli(work)
