"""What Kernel Tuner's tune_kernel_T1 does with imcl's T1 dumps (docs/autotuning.md, "T1").

Not a ctest: it prints what happens, step by step, so that the findings in the docs
can be checked again after a change to imcl's T1 dump or to Kernel Tuner.

    IMCL=build/imcl .venv/bin/python tests/python/t1_probe.py [WORKDIR]
"""

import json
import os
import random
import subprocess
import sys
import tempfile
import traceback
from collections import Counter
from pathlib import Path

import numpy

from common import IMCL, SAMPLES

from kernel_tuner.interface import tune_kernel_T1


def attempt(label, *a, **kw):
    try:
        r = tune_kernel_T1(*a, **kw)
    except Exception as e:  # noqa: BLE001
        tb = traceback.extract_tb(e.__traceback__)[-1]
        where = tb.filename.split("site-packages/")[-1]
        print(f"{label}:\n    {type(e).__name__}: {e}  [{where}:{tb.lineno}]")
        return None
    print(f"{label}: ran")
    return r


def main():
    work = Path(sys.argv[1] if len(sys.argv) > 1 else tempfile.mkdtemp(prefix="t1probe-"))
    work.mkdir(parents=True, exist_ok=True)
    os.chdir(work)
    for name, size in (("sobel", "64x64"), ("sum7", "32x32x32")):
        src = SAMPLES / name / f"{name}.imcl"
        doc = subprocess.run([IMCL, "--dump-space=t1", "-b", "opencl", "--size", size, str(src)],
                             capture_output=True, text=True, check=True).stdout
        Path(f"{name}.t1.json").write_text(doc)
        subprocess.run([IMCL, "-b", "opencl", "-o", ".", str(src)], check=True)
    print(f"== sobel (float), imcl --dump-space=t1 -b opencl --size 64x64; sobel.cl of the default "
          f"configuration beside it (work dir {work})")
    attempt("1. tune_kernel_T1('sobel.t1.json')", "sobel.t1.json")
    attempt("2. tune_kernel_T1(Path('sobel.t1.json')), the Device and Search blocks as written",
            Path("sobel.t1.json"))
    attempt("3. ... device=0, strategy='random_sample', max_fevals 5", Path("sobel.t1.json"), device=0,
            strategy="random_sample", strategy_options={"max_fevals": 5})
    print("== sum7 (double), imcl --dump-space=t1 -b opencl --size 32x32x32")
    attempt("4. tune_kernel_T1(Path('sum7.t1.json'), device=0, strategy='random_sample')",
            Path("sum7.t1.json"), device=0, strategy="random_sample", strategy_options={"max_fevals": 3})

    print("== sobel once the constant-memory call is made a no-op (investigation only)")
    from kernel_tuner.backends import opencl
    opencl.OpenCLFunctions.copy_constant_memory_args = lambda self, cmem_args: None
    random.seed(1)
    numpy.random.seed(1)
    r = attempt("5. ... device=0, random_sample, 40 configurations", Path("sobel.t1.json"), device=0,
                strategy="random_sample", strategy_options={"max_fevals": 40}, output_T4=False)
    report(r)
    d = json.loads(Path("sobel.t1.json").read_text())
    for tp in d["ConfigurationSpace"]["TuningParameters"]:
        if tp["Name"] in ("block_size_x", "block_size_y"):
            tp["Values"] = "[8]"
    Path("sobel.8x8.t1.json").write_text(json.dumps(d))
    r = attempt("6. the same with block_size_x and block_size_y fixed at 8 (the KernelFile's block), "
                "12 configurations", Path("sobel.8x8.t1.json"), device=0, strategy="random_sample",
                strategy_options={"max_fevals": 12}, output_T4=False)
    report(r)


def report(r):
    if r:
        res = r[0]
        ok = [x for x in res if "__error__" not in x]
        bad = Counter(type(x["__error__"]).__name__ for x in res if "__error__" in x)
        print(f"    {len(res)} configurations: {len(ok)} timed, failed: {dict(bad)}")
        print(f"    timed block sizes: {dict(Counter((x['block_size_x'], x['block_size_y']) for x in ok))}")
        for x in ok[:3]:
            print("    timed:", {p: x[p] for p in ("block_size_x", "block_size_y", "coarsen_x", "coarsen_y",
                                                 "mem_in")}, f"{x['time']:.4f} ms (no answer checked)")


if __name__ == "__main__":
    main()
