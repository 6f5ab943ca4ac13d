#!/usr/bin/env python3
"""How long the OpenCL device compiler takes on the largest kernels an autotuner can
draw (issue: "bounded device compile time"): for each kernel of the AN5D set
(bench/an5d/kernels), N configurations are drawn from its dumped space (`imcl -b opencl
--dump-space --size ...`, restrictions applied, fixed seed), all generated in one `imcl
--batch` run; the TOP largest OpenCL files are then built by the OpenCL platform's
compiler (PoCL here) with its kernel cache off and launched once at the configuration's
work-group size (where PoCL compiles the work-group function), each in a process of its
own under a time limit. One line per kernel: the configurations drawn, the largest file, and the
slowest build with its configuration; the last line the slowest of all. A build over
the limit is reported as such and makes the exit status 1.

    bench/an5d/compile_time.py [--imcl build/imcl] [--n 300] [--top 2] [--limit 60]
                               [--python .venv/bin/python] [KERNEL...]

KERNEL names files of bench/an5d/kernels without .imcl (default: all of them), or is
the path of an .imcl file (a random kernel of tests/smith, say): each of its kernels then
goes on its own, with no --size.
"""

import argparse
import json
import os
import random
import subprocess
import sys
import tempfile

HERE = os.path.dirname(os.path.realpath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))

# one build and one launch, in its own process so that a stuck compiler can be stopped.
# PoCL compiles a kernel twice: clBuildProgram makes LLVM IR, and the first launch at a
# work-group size makes that size's work-group function (a loop over its work-items
# around the body) and its machine code, often the longer part. The launch is one
# work-group over a grid of one point: every int 1, every buffer 1 MiB of zeros, every
# image 4^3 of zeros.
BUILD = r"""
import os, sys, time
os.environ["POCL_KERNEL_CACHE"] = "0"
import numpy as np
import pyopencl as cl
ctx = cl.Context(devices=[cl.get_platforms()[0].get_devices()[0]])
q = cl.CommandQueue(ctx)
src = open(sys.argv[1]).read()
local = tuple(int(v) for v in sys.argv[2].split(","))
t = time.perf_counter()
prg = cl.Program(ctx, src).build(options=["-cl-kernel-arg-info"])
mf, fmt = cl.mem_flags, cl.ImageFormat(cl.channel_order.R, cl.channel_type.FLOAT)
buf = cl.Buffer(ctx, mf.READ_WRITE, 1 << 20)
cl.enqueue_fill_buffer(q, buf, np.int32(0), 0, 1 << 20)
img = {"image2d_t": cl.create_image(ctx, mf.READ_ONLY, fmt, shape=(4, 4)),
       "image3d_t": cl.create_image(ctx, mf.READ_ONLY, fmt, shape=(4, 4, 4))}
launched = 0
for k in prg.all_kernels():
    if list(k.get_work_group_info(cl.kernel_work_group_info.COMPILE_WORK_GROUP_SIZE,
                                  ctx.devices[0])) != list(local):
        continue
    launched += 1
    for i in range(k.num_args):
        tn = k.get_arg_info(i, cl.kernel_arg_info.TYPE_NAME)
        k.set_arg(i, buf if "*" in tn else img[tn] if tn in img else np.float64(1)
                  if tn == "double" else np.float32(1) if tn == "float" else np.int32(1))
    cl.enqueue_nd_range_kernel(q, k, local, local)
q.finish()
if not launched:
    sys.exit("no kernel of work-group size %s" % (local,))
print(time.perf_counter() - t)
"""


def draw(space, n, rng):
    params, restrictions = space["parameters"], space["restrictions"]
    out, tries = [], 0
    while len(out) < n and tries < 200 * n:
        tries += 1
        cfg = {k: rng.choice(v) for k, v in params.items()}
        if all(eval(r, {"__builtins__": {}}, dict(cfg)) for r in restrictions):
            out.append(cfg)
    return out


def kernels_of(names, kdir, imcl):
    """(file, kernel name, imcl's options selecting it) for each KERNEL argument."""
    for name in names:
        if not name.endswith(".imcl"):
            yield os.path.join(kdir, name + ".imcl"), name, []
            continue
        space = json.loads(subprocess.check_output([imcl, "-b", "opencl", "--dump-space", name],
                                                   stderr=subprocess.DEVNULL))
        for doc in space if isinstance(space, list) else [space]:
            yield name, doc["kernel"], ["-k", doc["kernel"]]


def main():
    ap = argparse.ArgumentParser(description=__doc__,
                                 formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--imcl", default=os.path.join(ROOT, "build", "imcl"))
    ap.add_argument("--python", default=os.path.join(ROOT, ".venv", "bin", "python"))
    ap.add_argument("--n", type=int, default=300, help="configurations drawn per kernel (300)")
    ap.add_argument("--top", type=int, default=2, help="largest files built per kernel (2)")
    ap.add_argument("--limit", type=float, default=60, help="seconds a build may take (60)")
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("kernels", nargs="*")
    args = ap.parse_args()
    kdir = os.path.join(HERE, "kernels")
    names = args.kernels or sorted(f[:-5] for f in os.listdir(kdir) if f.endswith(".imcl"))
    worst, over = (0.0, None, None), 0
    print(f"{'kernel':14s} {'drawn':>6s} {'largest .cl':>12s} {'slowest build':>14s}"
          "  configuration")
    with tempfile.TemporaryDirectory() as work:
        for src, name, only in kernels_of(names, kdir, args.imcl):
            size = [] if only else ["--size", "4096x4096" if "2d" in name else "256x256x256"]
            space = json.loads(subprocess.check_output(
                [args.imcl, "-b", "opencl", "--dump-space", *size, *only, src], stderr=subprocess.DEVNULL))
            cfgs = draw(space, args.n, random.Random(args.seed))
            out = os.path.join(work, name)
            os.makedirs(out)
            lines = os.path.join(out, "batch.jsonl")
            with open(lines, "w") as f:
                f.writelines(json.dumps(c) + "\n" for c in cfgs)
            subprocess.check_call([args.imcl, "-b", "opencl", "--batch", lines, "-o", out, *only, src],
                                  stderr=subprocess.DEVNULL)
            files = sorted(((os.path.getsize(os.path.join(out, str(i), name + ".cl")), i, c)
                            for i, c in enumerate(cfgs, 1)), key=lambda r: -r[0])
            slow = (0.0, None)
            for nbytes, i, cfg in files[:args.top]:
                try:
                    cl_file = os.path.join(out, str(i), name + ".cl")
                    local = ",".join(str(cfg.get(f"block_size_{a}", 1)) for a in "xyz")
                    p = subprocess.run([args.python, "-c", BUILD, cl_file, local],
                                       capture_output=True, text=True, timeout=args.limit)
                    secs = float(p.stdout) if p.returncode == 0 else None
                    if secs is None:
                        sys.exit(f"{name}: the build failed: {p.stderr.strip()[-800:]}")
                except subprocess.TimeoutExpired:
                    secs = float("inf")
                    over += 1
                if secs > slow[0]:
                    slow = (secs, cfg)
            shown = {k: v for k, v in (slow[1] or {}).items() if v not in (0, 1, "global")}
            print(f"{name:14s} {len(cfgs):6d} {files[0][0]:12d} {slow[0]:12.2f} s"
                  f"  {json.dumps(shown)}", flush=True)
            if slow[0] > worst[0]:
                worst = (slow[0], name, shown)
    print(f"slowest: {worst[0]:.2f} s ({worst[1]}), limit {args.limit:g} s, {over} over the limit")
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
