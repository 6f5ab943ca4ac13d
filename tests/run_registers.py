#!/usr/bin/env python3
"""The register estimate against ptxas, and the register restriction of the space.

run_registers.py --imcl IMCL --nvcc NVCC --samples SAMPLES_DIR --dir tests/registers --work WORK

1. For each sample with a CUDA kernel and each coarsening of CONFIGS (blocks of 8x8x1
   threads, where ptxas is not short of registers; blur5 also unrolled), the estimate
   of `imcl --liveness -t` and what `nvcc -cubin --resource-usage -arch=sm_80` reports
   for the kernel imcl generated: the estimate must be within FACTOR of ptxas's
   registers (ptxas / FACTOR <= estimate <= ptxas * FACTOR), and every configuration
   ptxas compiles without spill stores or loads must be in the space: its values
   listed and every restriction of the imcl dump (`--dump-space -b cuda`) and every
   Condition of the T1 dump (`--dump-space=t1`) true.
2. tests/registers/spill.imcl (forty live doubles, about 100 registers): with blocks of
   512 threads (at most 128 registers each) it is in the space and ptxas compiles it
   without spills; with 1024 threads (at most 64 each) it is absent from both dumps,
   `imcl -t` refuses it with status 2, exactly the text of spill-1024.err and no
   file written, and ptxas spills when the 512-thread kernel is declared
   __launch_bounds__(1024) (what imcl would write for that block, which it refuses).
3. tests/registers/wide.imcl (about 250 registers for one point): its default block
   is the GPU default 32x4x1 (128 threads fit any kernel whose one point fits a
   thread), in both dumps, and compiles without spills; one point per thread in
   blocks of 8x8x1 is in the space and compiles without spills; two are absent from
   both dumps and refused with exactly the text of wide-coarsen.err.

Prints the table (estimate, ptxas registers, spilled bytes) and ends with
"registers: N passed, M failed"; exit status 1 when something failed. A missing nvcc
is a failure.
"""
import argparse
import concurrent.futures
import json
import os
import re
import shutil
import subprocess
import sys

FACTOR = 3
CONFIGS_3D = [(1, 1, 1), (2, 1, 1), (2, 2, 2), (4, 4, 2), (8, 8, 8)]
CONFIGS_2D = [(1, 1, 1), (2, 1, 1), (2, 2, 1), (4, 4, 1), (8, 8, 1)]
SAMPLES = ["sum7/sum7", "sum27/sum27", "blur5/blur5", "life/life", "sobel/sobel",
           "miniamr/miniamr", "miniamr/v3"]
EXTRA = {"blur5/blur5": [{"coarsen_x": 2, "coarsen_y": 2, "unroll_rows": 5, "unroll_taps": 5}]}

passed = failed = 0


def check(ok, what, detail=""):
    global passed, failed
    if ok:
        passed += 1
    else:
        failed += 1
        print(f"FAIL {what}" + (f": {detail}" if detail else ""), flush=True)


def run(cmd):
    p = subprocess.run(cmd, capture_output=True, text=True)
    return p.returncode, p.stdout, p.stderr


class Space:
    """The imcl and T1 dumps of one kernel file (one kernel) for CUDA."""

    def __init__(self, imcl, src):
        rc, out, err = run([imcl, "--dump-space", "-b", "cuda", src])
        if rc:
            raise RuntimeError(f"--dump-space {src}: status {rc}\n{err}")
        self.doc = json.loads(out)
        rc, out, err = run([imcl, "--dump-space=t1", "-b", "cuda", src])
        if rc:
            raise RuntimeError(f"--dump-space=t1 {src}: status {rc}\n{err}")
        cs = json.loads(out)["ConfigurationSpace"]
        self.t1_values = {p["Name"]: eval(p["Values"], {}, {}) for p in cs["TuningParameters"]}
        self.t1_conditions = [c["Expression"] for c in cs["Conditions"]]

    def full(self, cfg):
        return dict(self.doc["defaults"], **cfg)

    def has(self, cfg):
        """(in the imcl dump, in the T1 dump) for configuration cfg."""
        c = self.full(cfg)
        imcl_ok = all(c[k] in v for k, v in self.doc["parameters"].items()) and \
            all(eval(r, {"__builtins__": {}}, dict(c)) for r in self.doc["restrictions"])
        t1_ok = all(c[k] in v for k, v in self.t1_values.items()) and \
            all(eval(r, {"__builtins__": {}}, dict(c)) for r in self.t1_conditions)
        return imcl_ok, t1_ok


def estimate(imcl, src, params):
    rc, out, err = run([imcl, "--liveness", "-t", params, src])
    m = re.search(r"registers per thread \(estimate\): (\d+) = ", out)
    return (int(m.group(1)) if rc == 0 and m else None), out + err


def ptxas(nvcc, cu, cubin, extra=()):
    """(registers, spilled bytes) of the one kernel of cu, or (None, output)."""
    rc, out, err = run([nvcc, "-cubin", "--resource-usage", "-arch=sm_80", *extra, cu, "-o", cubin])
    text = out + err
    regs = re.search(r"Used (\d+) registers", text)
    spill = re.search(r"(\d+) bytes spill stores, (\d+) bytes spill loads", text)
    if rc or not regs or not spill:
        return None, text
    return int(regs.group(1)), int(spill.group(1)) + int(spill.group(2))


def compile_config(args, src, cfg, tag):
    """imcl -t cfg, then ptxas: (estimate, registers, spilled bytes, problem or None)."""
    d = os.path.join(args.work, tag)
    os.makedirs(d, exist_ok=True)
    params = os.path.join(d, "params.json")
    with open(params, "w") as f:
        json.dump(cfg, f)
    est, text = estimate(args.imcl, src, params)
    if est is None:
        return None, None, None, f"imcl --liveness: {text}"
    rc, _, err = run([args.imcl, "-b", "cuda", "-t", params, "-o", os.path.join(d, "out"), src])
    if rc:
        return est, None, None, f"imcl -b cuda: status {rc}\n{err}"
    # (the kernel's K.cu, not the folder's host runtime)
    cu = [f for f in os.listdir(os.path.join(d, "out")) if f.endswith(".cu") and f != "imcl_runtime_cuda.cu"][0]
    regs, spill = ptxas(args.nvcc, os.path.join(d, "out", cu), os.path.join(d, "k.cubin"))
    if regs is None:
        return est, None, None, f"nvcc: {spill}"
    return est, regs, spill, None


def refused(args, src, cfg, expected_err, tag):
    d = os.path.join(args.work, tag)
    os.makedirs(d, exist_ok=True)
    params = os.path.join(d, "params.json")
    with open(params, "w") as f:
        json.dump(cfg, f)
    out = os.path.join(d, "out")
    rc, _, err = run([args.imcl, "-b", "cuda", "-t", params, "-o", out, src])
    with open(expected_err) as f:
        want = f.read()
    check(rc == 2, f"{tag}: imcl -t refuses", f"status {rc}")
    check(err == want, f"{tag}: the diagnostic is {os.path.basename(expected_err)}", f"got:\n{err}")
    check(not os.path.exists(out) or not os.listdir(out), f"{tag}: no file written")


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("--imcl", required=True)
    ap.add_argument("--nvcc", required=True)
    ap.add_argument("--samples", required=True)
    ap.add_argument("--dir", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--jobs", type=int, default=2)
    args = ap.parse_args()
    args.imcl = os.path.realpath(args.imcl)
    if not (os.path.isfile(args.nvcc) and os.access(args.nvcc, os.X_OK)):
        check(False, "nvcc", f"{args.nvcc} is missing: the comparison with ptxas needs it")
        print(f"registers: {passed} passed, {failed} failed")
        return 1
    shutil.rmtree(args.work, ignore_errors=True)
    os.makedirs(args.work)

    # 1. The samples across coarsening factors.
    jobs = []
    spaces = {}
    for s in SAMPLES:
        src = os.path.join(args.samples, s + ".imcl")
        spaces[s] = Space(args.imcl, src)
        three = spaces[s].doc["grid_dims"] == 3
        cfgs = [{"block_size_x": 8, "block_size_y": 8, "block_size_z": 1,
                 "coarsen_x": c[0], "coarsen_y": c[1], "coarsen_z": c[2]}
                for c in (CONFIGS_3D if three else CONFIGS_2D)]
        cfgs += [dict({"block_size_x": 8, "block_size_y": 8, "block_size_z": 1}, **e) for e in EXTRA.get(s, [])]
        for i, cfg in enumerate(cfgs):
            jobs.append((s, src, cfg, f"{s.replace('/', '_')}_{i}"))
    print(f"{'kernel':<10} {'configuration':<44} {'estimate':>8} {'ptxas':>6} {'spilled':>8}")
    with concurrent.futures.ThreadPoolExecutor(args.jobs) as pool:
        results = list(pool.map(lambda j: compile_config(args, j[1], j[2], j[3]), jobs))
    for (s, src, cfg, tag), (est, regs, spill, problem) in zip(jobs, results):
        what = f"{s} {json.dumps(cfg, sort_keys=True)}"
        shown = " ".join(f"{k.replace('coarsen_', 'c').replace('unroll_', 'u')}={v}"
                         for k, v in cfg.items() if not k.startswith("block_size"))
        if problem:
            check(False, what, problem)
            continue
        print(f"{os.path.basename(s):<10} {shown:<44} {est:>8} {regs:>6} {spill:>8}")
        check(regs / FACTOR <= est <= regs * FACTOR, f"{what}: estimate {est} within {FACTOR}x of ptxas's {regs}")
        if spill == 0:
            imcl_ok, t1_ok = spaces[s].has(cfg)
            check(imcl_ok, f"{what}: compiles without spills, so it is in the imcl dump")
            check(t1_ok, f"{what}: compiles without spills, so it is in the T1 dump")

    # 2. Forty live doubles: 512 threads fit, 1024 do not.
    src = os.path.join(args.dir, "spill.imcl")
    sp = Space(args.imcl, src)
    small = {"block_size_x": 8, "block_size_y": 8, "block_size_z": 8}
    est, regs, spill, problem = compile_config(args, src, small, "spill_512")
    check(problem is None, "spill 512 threads: compiles", problem or "")
    if problem is None:
        print(f"{'spill':<10} {'512 threads':<44} {est:>8} {regs:>6} {spill:>8}")
        check(spill == 0 and regs <= 128, "spill 512 threads: ptxas fits 128 registers", f"{regs} registers, {spill} bytes spilled")
        check(sp.has(small) == (True, True), "spill 512 threads: in both dumps")
        # imcl refuses to write the 1024-thread kernel: the 512-thread one declared
        # __launch_bounds__(1024) gets the same 64 registers from ptxas.
        d = os.path.join(args.work, "spill_512")
        with open(os.path.join(d, "out", "spill.cu")) as f:
            text = f.read()
        check("__launch_bounds__(512)" in text, "spill 512 threads: declared __launch_bounds__(512)")
        with open(os.path.join(d, "out", "spill1024.cu"), "w") as f:
            f.write(text.replace("__launch_bounds__(512)", "__launch_bounds__(1024)"))
        regs64, spill64 = ptxas(args.nvcc, os.path.join(d, "out", "spill1024.cu"), os.path.join(d, "k1024.cubin"))
        print(f"{'spill':<10} {'1024 threads (at most 64 registers)':<44} {'':>8} {regs64!s:>6} {spill64!s:>8}")
        check(regs64 is not None and spill64 > 0, "spill in blocks of 1024 threads: ptxas spills",
              f"{regs64} registers, {spill64} spilled")
    for c in [(1, 1, 1), (2, 2, 2), (8, 8, 8)]:
        big = {"block_size_x": 8, "block_size_y": 8, "block_size_z": 16,
               "coarsen_x": c[0], "coarsen_y": c[1], "coarsen_z": c[2]}
        check(sp.has(big) == (False, False), f"spill 1024 threads, coarsening {c}: absent from both dumps")
    refused(args, src, {"block_size_x": 8, "block_size_y": 8, "block_size_z": 16}, os.path.join(args.dir, "spill-1024.err"), "spill_1024")

    # 3. About 250 registers for one point: one point fits, two do not; the default
    # block, 32x4x1 (128 threads), fits.
    src = os.path.join(args.dir, "wide.imcl")
    sp = Space(args.imcl, src)
    d = sp.doc["defaults"]
    check([d["block_size_x"], d["block_size_y"], d["block_size_z"]] == [32, 4, 1], "wide: default block 32x4x1",
          json.dumps(d))
    check(sp.has({}) == (True, True), "wide: the defaults are in both dumps")
    est, regs, spill, problem = compile_config(args, src, {}, "wide_default")
    check(problem is None, "wide defaults: compile", problem or "")
    if problem is None:
        with open(os.path.join(args.work, "wide_default", "out", "wide.cu")) as f:
            check("__launch_bounds__(128)" in f.read(), "wide defaults: blocks of 128 threads")
        print(f"{'wide':<10} {'defaults (32x4x1 threads)':<44} {est:>8} {regs:>6} {spill:>8}")
        check(spill == 0, "wide defaults: ptxas compiles them without spills", f"{spill} bytes spilled")
    one = {"block_size_x": 8, "block_size_y": 8, "block_size_z": 1}
    est, regs, spill, problem = compile_config(args, src, one, "wide_1")
    check(problem is None, "wide one point: compiles", problem or "")
    if problem is None:
        print(f"{'wide':<10} {'one point, 64 threads':<44} {est:>8} {regs:>6} {spill:>8}")
        check(spill == 0, "wide one point: ptxas compiles it without spills", f"{spill} bytes spilled")
        check(sp.has(one) == (True, True), "wide one point: in both dumps")
    for c in [(2, 1, 1), (1, 1, 2), (8, 8, 8)]:
        two = dict(one, coarsen_x=c[0], coarsen_y=c[1], coarsen_z=c[2])
        check(sp.has(two) == (False, False), f"wide coarsening {c}: absent from both dumps")
    refused(args, src, dict(one, coarsen_x=2), os.path.join(args.dir, "wide-coarsen.err"), "wide_coarsen")

    print(f"registers: {passed} passed, {failed} failed")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
