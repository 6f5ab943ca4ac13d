#!/usr/bin/env python3
"""Regression tests from kernels found outside the project (tests/repro/README.md): each
case is a folder with `kernel.imcl`, `params.json` (one configuration of the kernel's
dumped space) and `case.json`:

    {"grid": [x, y(, z)], "backends": ["opencl", "cuda"],
     "extents": {"array": [x, y(, z)]},   optional: arrays not of the grid's extents
     "draws": 3,                         optional: random inputs per backend
     "refused": [{"parameter": P, "value": V, "error": E}]}   optional, below

For every draw the arrays get random values in [-4, 4] (halos too), the scalars small
random values (those of a grid_size pragma solved for the grid), and the outputs
random initial values; the C reference (imcl -b c) and the one-shot wrappers of the
OpenCL (on PoCL) and CUDA (built by nvcc-cpu: CUDA run on the CPU) outputs each
compute from copies of the same inputs, and every array the kernel writes must agree
with the C reference (integers exactly, floating point within 1e-5 of the array's
largest magnitude: `mismatch`). The configuration must be accepted by `-t` and build
on every listed backend: a refusal, an internal error or a build failure is a
failure, as is a mismatch. A "refused" entry is a value that an earlier space listed
and `-t` refused with an internal error: the space of the first backend must not list
it now, and `-t` with it (the rest of params.json as it is) must end with status 2 and
E as its last line.

    run_repro.py --imcl build/imcl [--nvcc-cpu scripts/nvcc-cpu] [--work DIR] CASE...

Each case prints "ok NAME (N runs)" or "FAIL NAME: why"; the exit status is 1 when
any case failed.
"""

import argparse
import itertools
import json
import os
import re
import subprocess
import sys

import numpy as np

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from device_run import Wrapper, mismatch  # noqa: E402


def solve_grid(expressions, grid):
    """Values of the scalars named in grid_size expressions that give the grid."""
    names = sorted({n for e in expressions for n in re.findall(r"[A-Za-z_]\w*", e)})
    for values in itertools.product(range(-4, 70), repeat=len(names)):
        env = dict(zip(names, values))
        if all(eval(e, {"__builtins__": {}}, env) == g for e, g in zip(expressions, grid)):
            return env
    raise ValueError(f"no scalar values give grid {grid} from grid_size({', '.join(expressions)})")


def draw_values(k, case, rng):
    """Keyword arguments for imcl.Kernel.arguments: every array and scalar."""
    fixed = {}
    if k.grid_pragma and k.grid_pragma[0] == "grid_size":
        fixed = solve_grid(k.grid_pragma[1], case["grid"])
    values = {}
    for a in k.arrays:
        if a.kind == "grid":
            ext = case.get("extents", {}).get(a.name, case["grid"][: a.rank])
            shape = tuple(n + 2 * a.halo for n in reversed(ext))
        else:
            shape = (a.elems,)
        if np.issubdtype(a.dtype, np.floating):
            v = rng.integers(-32, 33, size=shape) / 8.0      # [-4, 4] in eighths: exact
        elif np.issubdtype(a.dtype, np.unsignedinteger):
            v = rng.integers(0, 5, size=shape)
        else:
            v = rng.integers(-4, 5, size=shape)
        values[a.name] = v.astype(a.dtype)
    for a in k.scalars:
        if a.name in fixed:
            values[a.name] = fixed[a.name]
        elif np.issubdtype(a.dtype, np.floating):
            values[a.name] = rng.integers(-16, 17) / 8.0
        else:
            values[a.name] = rng.integers(0 if np.issubdtype(a.dtype, np.unsignedinteger) else -3, 4)
    return values


def check_refused(args, path, cfg, backend, r, work):
    """The space does not list the value r names, and -t refuses it with r's error."""
    p = subprocess.run([args.imcl, "-b", backend, "--dump-space", path], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"imcl --dump-space failed (status {p.returncode}): {p.stderr.strip()}")
    if r["value"] in json.loads(p.stdout)["parameters"].get(r["parameter"], []):
        raise RuntimeError(f"the {backend} space lists {r['parameter']} {r['value']!r}")
    os.makedirs(work, exist_ok=True)
    pfile = os.path.join(work, "refused.json")
    with open(pfile, "w") as f:
        json.dump(dict(cfg, **{r["parameter"]: r["value"]}), f)
    p = subprocess.run([args.imcl, "-b", backend, "-t", pfile, "-o", work, path], capture_output=True, text=True)
    last = p.stderr.strip().splitlines()[-1] if p.stderr.strip() else ""
    if p.returncode != 2 or last != r["error"]:
        raise RuntimeError(f"-t with {r['parameter']} {r['value']!r}: status {p.returncode}, last line "
                           f"{last!r}; expected status 2 and {r['error']!r}")


def run_case(args, folder):
    import imcl
    name = os.path.basename(os.path.normpath(folder))
    with open(os.path.join(folder, "case.json")) as f:
        case = json.load(f)
    with open(os.path.join(folder, "params.json")) as f:
        cfg = json.load(f)
    path = os.path.join(folder, "kernel.imcl")
    work = os.path.join(args.work, name)
    for r in case.get("refused", []):
        check_refused(args, path, cfg, case["backends"][0], r, os.path.join(work, "refused"))
    runs = 0
    kernels = {b: imcl.Kernel(path, backend=b, size=case["grid"], imcl=args.imcl) for b in case["backends"]}
    wrappers = {b: Wrapper(args.imcl, args.nvcc_cpu, k, path, cfg, os.path.join(work, b))
                for b, k in kernels.items()}
    for draw in range(case.get("draws", 3)):
        for backend, k in kernels.items():
            arguments = k.arguments(**draw_values(k, case, np.random.default_rng(draw)))
            want = k.reference(arguments)
            got = wrappers[backend](arguments)
            bad = mismatch(k, want, got)
            if bad:
                raise RuntimeError(f"{backend}, input draw {draw}: {bad}")
            runs += 1
    return runs


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--imcl", required=True)
    ap.add_argument("--nvcc-cpu", default=os.path.join(HERE, "..", "..", "scripts", "nvcc-cpu"))
    ap.add_argument("--work", default="/tmp/imcl-repro")
    ap.add_argument("cases", nargs="+")
    args = ap.parse_args()
    failed = 0
    for folder in args.cases:
        name = os.path.basename(os.path.normpath(folder))
        try:
            print(f"ok {name} ({run_case(args, folder)} runs)", flush=True)
        except Exception as e:  # every way a case can go wrong is a failure
            failed += 1
            print(f"FAIL {name}: {e}", flush=True)
    print(f"{len(args.cases) - failed} of {len(args.cases)} cases passed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
