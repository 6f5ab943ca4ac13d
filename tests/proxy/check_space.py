#!/usr/bin/env python3
"""The dumped tuning spaces of samples/miniamr/v1, v2, v3 (not in the space test,
whose samples need a driver tests/run/check_<K>.c): every configuration that
satisfies the restrictions of `imcl --dump-space -b opencl` (or a fixed-seed sample
of --n of them, the defaults always among them) is generated with -b c, -b opencl
and -b cuda and the generated C is compiled (-Wall -Wextra -Werror, -fsyntax-only);
--run of them per kernel are run end to end by `miniamr-proxy -t CONFIG
--validate` (OpenCL, PoCL here), and --nvcc of them are compiled with nvcc.

  tests/proxy/check_space.py --imcl build/imcl --proxy build/samples/miniamr/proxy/miniamr-proxy

Not registered with ctest (a few minutes on two cores); run it after a change of
the tuning passes. The last line is `N passed, M failed`."""

import argparse
import itertools
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.abspath(__file__))
KDIR = os.path.join(HERE, "..", "..", "samples", "miniamr")


ENUM_CAP = 200_000  # above this many raw combinations, draw configurations at random


def in_space(imcl, src, backend):
    """A predicate: is a configuration in the dumped space of `backend`?"""
    out = subprocess.run([imcl, "--dump-space", "-b", backend, src], check=True, capture_output=True, text=True)
    s = json.loads(out.stdout)
    codes = [compile(r, "<restriction>", "eval") for r in s["restrictions"]]
    return lambda cfg: all(cfg[k] in v for k, v in s["parameters"].items()) and \
        all(eval(c, {}, dict(cfg)) for c in codes)


def space(imcl, src, rng, want):
    """The configurations in the space (all of them, or `want` drawn at random
    when there are too many to enumerate), its size (None: not counted), defaults."""
    out = subprocess.run([imcl, "--dump-space", "-b", "opencl", src], check=True, capture_output=True, text=True)
    s = json.loads(out.stdout)
    names = sorted(s["parameters"])
    codes = [compile(r, "<restriction>", "eval") for r in s["restrictions"]]
    valid = lambda cfg: all(eval(c, {}, dict(cfg)) for c in codes)
    raw = 1
    for n in names:
        raw *= len(s["parameters"][n])
    if raw > ENUM_CAP:
        seen, cfgs = set(), []
        for _ in range(want * 50):
            cfg = {n: rng.choice(s["parameters"][n]) for n in names}
            key = json.dumps(cfg, sort_keys=True)
            if key not in seen and valid(cfg):
                seen.add(key)
                cfgs.append(cfg)
            if len(cfgs) >= want:
                break
        return cfgs, None, s["defaults"]
    cfgs = [dict(zip(names, combo)) for combo in itertools.product(*(s["parameters"][n] for n in names))]
    return [c for c in cfgs if valid(c)], None, s["defaults"]


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--imcl", required=True)
    ap.add_argument("--proxy", required=True)
    ap.add_argument("--n", type=int, default=150, help="configurations per kernel (default 150)")
    ap.add_argument("--run", type=int, default=8, help="configurations per kernel run by the proxy")
    ap.add_argument("--nvcc", type=int, default=3, help="configurations per kernel compiled by nvcc")
    ap.add_argument("--cc", default=os.environ.get("CC", "gcc"))
    ap.add_argument("--nvcc-path", default=os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc"))
    args = ap.parse_args()
    passed = failed = 0
    rng = random.Random(1)
    with tempfile.TemporaryDirectory() as tmp:
        for k in ("v1", "v2", "v3"):
            src = os.path.join(KDIR, k + ".imcl")
            cfgs, _, defaults = space(args.imcl, src, rng, args.n)
            # The space is OpenCL's; CUDA's differs where a placement needs what
            # only OpenCL has (constant memory without --size): those are refused.
            cuda_ok = in_space(args.imcl, src, "cuda")
            total = len(cfgs)
            if len(cfgs) > args.n or defaults not in cfgs:
                cfgs = [defaults] + rng.sample([c for c in cfgs if c != defaults], min(len(cfgs), args.n) - 1)
            run = set(rng.sample(range(len(cfgs)), min(args.run, len(cfgs))))
            cuda = set(rng.sample(range(len(cfgs)), min(args.nvcc, len(cfgs))))
            for i, cfg in enumerate(cfgs):
                d = os.path.join(tmp, k, str(i))
                os.makedirs(d)
                params = os.path.join(d, "params.json")
                with open(params, "w") as f:
                    json.dump(cfg, f)
                steps = []
                for b, out in (("c", k + "_ref.c"), ("opencl", k + "_host.c"), ("cuda", k + ".cu")):
                    if b == "cuda" and not cuda_ok(cfg):
                        cmd = [args.imcl, "-b", b, "-t", params, "-o", os.path.join(d, b), src]
                        steps.append(("refused", cmd))
                        continue
                    steps.append([args.imcl, "-b", b, "-t", params, "-o", os.path.join(d, b), src])
                    if b != "cuda":
                        steps.append([args.cc, "-std=c11", "-Wall", "-Wextra", "-Werror", "-fopenmp", "-fsyntax-only",
                                      os.path.join(d, b, out)])
                    elif i in cuda:
                        steps.append([args.nvcc_path, "-O2", "-c", os.path.join(d, b, out), "-o", os.path.join(d, "k.o")])
                if i in run:
                    steps.append([args.proxy, "--kernel", k, "--backend", "opencl", "-t", params, "--validate",
                                  "--n", "9", "--blocks", "3", "--vars", "2", "--steps", "1", "--stages", "2"])
                for cmd in steps:
                    expect = 0
                    if cmd[0] == "refused":
                        expect, cmd = 2, cmd[1]
                    r = subprocess.run(cmd, capture_output=True, text=True)
                    if r.returncode != expect:
                        failed += 1
                        print(f"FAIL {k} {json.dumps(cfg)}: {' '.join(cmd)}\n{r.stdout[-2000:]}{r.stderr[-2000:]}")
                        break
                else:
                    passed += 1
            print(f"{k}: {len(cfgs)} of {total} configurations, {len(run)} run by the proxy, "
                  f"{len(cuda)} compiled by nvcc", flush=True)
    print(f"{passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
