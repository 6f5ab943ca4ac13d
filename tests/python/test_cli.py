"""imcl-tune as a Kernel Tuner user drives it: a budget that counts every measurement, a
cache that a rerun measures nothing beyond, a time limit, strategy options, the refusal of
a brute force over a huge space, a missing pycuda, and Ctrl-C keeping the best so far,
each with its exit status (tests/python/run.sh test_cli.py WORKDIR; docs/autotuning.md)."""

import json
import os
import re
import signal
import subprocess
import sys
import time
from pathlib import Path

import numpy as np

from common import SAMPLES, expect_raises, imcl_accepts


EXE = str(Path(sys.executable).parent / "imcl-tune")
SOBEL = str(SAMPLES / "sobel" / "sobel.imcl")
SUM7 = str(SAMPLES / "sum7" / "sum7.imcl")


def tune(work, *args, env=None):
    p = subprocess.run([EXE, *args], capture_output=True, text=True, cwd=work, env=env)
    return p.returncode, p.stdout, p.stderr


def refusals(work):
    # a brute force over more than 10,000 configurations needs --yes; nothing is measured
    rc, out, err = tune(work, SUM7, "--size", "24x20x16", "--no-progress")
    assert rc == 2 and out == "", (rc, out, err)
    assert err == ("imcl-tune: error: brute_force would measure up to 11059200 configurations of 'sum7' "
                   "(the space before its restrictions), more than 10000; give a budget and another "
                   "strategy, narrow the space, or confirm with --yes\n"), err
    rc, out, err = tune(work, SOBEL, "--size", "64x64", "--budget", "3", "--strategy-options", "{oops")
    assert rc == 2 and "--strategy-options: not JSON" in err, (rc, err)
    rc, out, err = tune(work, SOBEL, "--size", "64x64", "--budget", "3", "--time-limit", "0")
    assert rc == 2 and "--time-limit: expected a positive number of seconds" in err, (rc, err)
    # -b cuda without pycuda (a pycuda that cannot be imported stands in for a missing one)
    fake = work / "nopycuda" / "pycuda"
    fake.mkdir(parents=True, exist_ok=True)
    (fake / "__init__.py").write_text("raise ImportError('No module named pycuda')\n")
    env = dict(os.environ, PYTHONPATH=str(fake.parent))
    rc, out, err = tune(work, SOBEL, "--size", "64x64", "-b", "cuda", "--budget", "3", env=env)
    assert rc == 2 and out == "", (rc, out, err)
    assert err == ("imcl-tune: error: -b cuda needs pycuda, which is not installed "
                   "(pip install './python[cuda]' on a machine with the CUDA toolkit)\n"), err


def budget_and_cache(work):
    cache = work / "sobel.cache.json"
    cache.unlink(missing_ok=True)
    (work / "sobel.cache-cpu-variant.json").unlink(missing_ok=True)  # the CPU variant's own
    common = [SOBEL, "--size", "64x64", "--budget", "3", "--seed", "5", "--iterations", "2",
              "--cache", str(cache), "--no-progress", "-o", str(work / "b.best.json"),
              "--results", str(work / "b.t4.json")]
    rc, out, err = tune(work, *common)
    assert rc == 0, (rc, out, err)
    # every measurement, the default's too, is in the cache: at most the budget
    measured = json.loads(cache.read_text())["cache"]
    assert 2 <= len(measured) <= 3, len(measured)
    first = out.splitlines()[0]
    assert "from the cache" not in first, first
    # a rerun finds everything in the cache and measures nothing
    rc, out2, err2 = tune(work, *common)
    assert rc == 0, (rc, out2, err2)
    assert "(0 now, the rest from the cache)" in out2.splitlines()[0], out2
    assert len(json.loads(cache.read_text())["cache"]) == len(measured)
    imcl_accepts(work / "b.best.json", SOBEL, "64x64")


def limits(work):
    # a time limit ends a search that a budget of 10,000 would not; strategy options reach
    # Kernel Tuner (an option it does not know is its error, exit status 2)
    t = time.time()
    rc, out, err = tune(work, SOBEL, "--size", "64x64", "--budget", "10000", "--time-limit", "4",
                        "--iterations", "2", "--no-progress", "-o", str(work / "t.best.json"),
                        "--results", str(work / "t.t4.json"))
    assert rc == 0, (rc, out, err)
    assert time.time() - t < 120, time.time() - t
    n = int(out.split("strategy random_sample: ")[1].split()[0])
    assert 1 <= n < 10000, out
    rc, out, err = tune(work, SOBEL, "--size", "64x64", "--budget", "3", "--strategy-options",
                        '{"no_such_option": 1}', "--no-progress")
    assert rc == 2 and "no_such_option" in err, (rc, err)


def interrupt(work):
    best = work / "i.best.json"
    best.unlink(missing_ok=True)
    p = subprocess.Popen([EXE, SOBEL, "--size", "64x64", "--budget", "400", "--seed", "2",
                          "--iterations", "2", "-o", str(best), "--results", str(work / "i.t4.json")],
                         cwd=work, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    # the progress line, read until three configurations are measured
    seen, buf = 0, ""
    while seen < 3:
        c = p.stderr.read(1)
        assert c, "imcl-tune ended before it was interrupted"
        buf += c
        if c in "\r\n":          # (text mode reads the line's \r as \n)
            seen = buf.count(" configurations")
    p.send_signal(signal.SIGINT)
    out, err = p.communicate(timeout=300)
    assert p.returncode == 130, (p.returncode, out, err)
    assert out.splitlines()[0].endswith(", interrupted"), out
    assert "imcl-tune: interrupted: the best configuration measured so far is written" in err, err
    assert "results (T4): None" in out, out
    imcl_accepts(best, SOBEL, "64x64")


def stencil7(a):
    """miniAMR's 7-point stencil on one block with its ghost layer, in NumPy (the oracle)."""
    w = np.zeros_like(a)
    c = a[1:-1, 1:-1, 1:-1]
    w[1:-1, 1:-1, 1:-1] = (a[:-2, 1:-1, 1:-1] + a[1:-1, :-2, 1:-1] + a[1:-1, 1:-1, :-2] + c
                           + a[1:-1, 1:-1, 2:] + a[1:-1, 2:, 1:-1] + a[2:, 1:-1, 1:-1]) / 7.0
    return w


def batch(work):
    # a Kernel of a batch: arrays with the blocks first, imcl_count and imcl_blocks, the
    # reference per block
    import imcl
    path = str(SAMPLES / "miniamr" / "stencil7.imcl")
    k = imcl.Kernel(path, size=(8, 6, 4), batch=5)
    assert all(v in ("global", "shared") for p, v2 in k.tune_params.items() if p.startswith("mem_")
               for v in v2), k.tune_params
    assert k.npoints() == 8 * 6 * 4 * 5 and k.problem_size({"batch_loop": 1}) == (8, 6, 4)
    assert k.problem_size({"batch_loop": 0, "block_size_z": 4, "coarsen_z": 2, "stream_z": 0}) == (8, 6, 40)
    args = k.make_arguments(seed=2)
    assert args[0].shape == (5, 6, 8, 10) and int(args[-2]) == 5, (args[0].shape, args[-2])
    assert args[-1].tolist() == [0, 1, 2, 3, 4], args[-1]
    answer = k.reference(args)
    for b in range(5):
        assert np.allclose(answer[4][b], stencil7(args[0][b]), rtol=1e-15, atol=0), b
    e = expect_raises(ValueError, "array ...", k.arguments, array=args[0][0], work=args[4][0])
    assert str(e) == ("array 'array' has shape (6, 8, 10); it is a Block of a batch of 5: "
                      "give shape (5, D, H, W), halo included"), str(e)
    # the command: every configuration measured on the whole batch and checked
    rc, out, err = tune(work, path, "--size", "8x6x4", "--batch", "5", "--budget", "5",
                        "--strategy", "greedy_ils", "--seed", "1", "--no-progress", "--rounds", "0",
                        "-o", str(work / "st7.best.json"), "--results", str(work / "st7.t4.json"))
    assert rc == 0 and "failed" not in out.split("\n", 1)[1], (rc, out, err)
    head = re.match(r"kernel stencil7 \(opencl, 8x6x4 x 5 blocks = 960 points\), strategy greedy_ils: "
                    r"(\d) configurations measured, 0 failed\n", out)
    assert head and 2 <= int(head.group(1)) <= 5, out
    imcl_accepts(work / "st7.best.json", path, "8x6x4")


def test_refusals_before_tuning(work):
    """imcl-tune: refusals before tuning (brute force over 10,000, bad options, no pycuda)."""
    refusals(work)


def test_budget_counts_the_default_and_a_cached_rerun_measures_nothing(work):
    budget_and_cache(work)


def test_time_limit_and_strategy_options(work):
    limits(work)


def test_ctrl_c_keeps_the_best_so_far_with_status_130(work):
    interrupt(work)


def test_batch_launch_checked_block_by_block(work):
    """imcl-tune --batch: the launch of a plan over blocks, checked block by block."""
    batch(work)
