#!/usr/bin/env python3
"""Every value the space lists is one -t takes (docs/testing.md, "The space as
compiled"): for every kernel of the given files and every backend (opencl, cuda, c),
each value of each parameter of `imcl --dump-space -b B` is set into the kernel's
default configuration (when the restrictions refuse that, into a configuration of
the space that has the value: a value no configuration of the space can hold is a
failure too), and all of them are generated in one `imcl -b B --batch` run, which
must exit 0: a refusal or an internal error of a listed value is a failure. What is
generated must build (warnings allowed: the kernels' own code may earn them; the
lang and space tests read their kernels with -Werror): every distinct OpenCL kernel
read by clang as OpenCL C 1.2, for CUDA
the distinct kernels of the placement and z-marching values (mem_*, stream_z)
compiled by nvcc (the first of each kernel with -c, the others' device code with
-cubin), the C reference by cc.

    every_value.py --imcl IMCL --work DIR [--jobs J] [--smith N --smith-seed S] FILE...

--smith N adds the N files tests/smith/smith.py makes from seed S on. The last line is
"N passed, M failed"; the exit status is 1 on any failure.
"""

import argparse
import concurrent.futures
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys

from imcl import holds  # the package's own reading of the dump's restrictions

HERE = os.path.dirname(os.path.realpath(__file__))
NVCC = os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc")
CLANG = os.environ.get("CLANG", "clang")
# the CUDA values compiled with nvcc (the others differ in numbers and mappings: block
# shapes, coarsening, unrolling, the interior split, which the space test's draws build)
CUDA_BUILT = ("mem_", "stream_z")


def violated(restrictions, cfg):
    return sum(not eval(r, {"__builtins__": {}}, dict(cfg)) for r in restrictions)


def configs_of(doc, rng):
    """One configuration per listed value (parameter, value, configuration), and the
    values no configuration of the space was found to hold. A value the defaults'
    restrictions refuse is repaired one parameter at a time (each set to the value
    that breaks the fewest restrictions), then searched for at random."""
    params, restr = doc["parameters"], doc["restrictions"]
    default = dict(doc["defaults"])
    out, impossible = [], []
    for p, values in params.items():
        others = [q for q in params if q != p]
        for v in values:
            cfg = dict(default, **{p: v})
            for _ in range(3):
                if holds(restr, cfg):
                    break
                for q in others:
                    cfg[q] = min(params[q], key=lambda u, q=q: violated(restr, dict(cfg, **{q: u})))
            tries = 0
            while not holds(restr, cfg) and tries < 2000:
                tries += 1
                cfg = {q: (v if q == p else rng.choice(vals)) for q, vals in params.items()}
            if holds(restr, cfg):
                out.append((p, v, cfg))
            else:
                impossible.append((p, v))
    return out, impossible


def run(cmd, **kw):
    return subprocess.run(cmd, capture_output=True, text=True, **kw)


def build(job):
    """(what, command) -> None, or the failure's message."""
    what, cmd = job
    p = run(cmd)
    return None if p.returncode == 0 else f"{what}: {' '.join(cmd[:2])} ... failed:\n{(p.stderr or p.stdout)[-1500:]}"


def check_kernel(args, path, kernel, backend, work, jobs, failures):
    """Generates every value of one kernel's space; adds its build jobs to jobs."""
    p = run([args.imcl, "-b", backend, "-k", kernel, "--dump-space", path])
    if p.returncode != 0:
        failures.append(f"{path} {kernel} {backend}: --dump-space failed: {p.stderr.strip()}")
        return 0
    doc = json.loads(p.stdout)
    doc = doc[0] if isinstance(doc, list) else doc
    cfgs, impossible = configs_of(doc, random.Random(1))
    for p_, v in impossible:
        failures.append(f"{path} {kernel} {backend}: {p_} {v!r} is listed, but no configuration of the "
                        "space holds it")
    os.makedirs(work, exist_ok=True)
    lines = os.path.join(work, "values.jsonl")
    with open(lines, "w") as f:
        for _, _, cfg in cfgs:
            f.write(json.dumps(cfg) + "\n")
    p = run([args.imcl, "-b", backend, "-k", kernel, "--batch", lines, "-o", work, path])
    if p.returncode != 0:
        errors = [ln for ln in p.stderr.splitlines() if "error" in ln]
        failures.append(f"{path} {kernel} {backend}: a listed value is refused (status {p.returncode}):\n  "
                        + "\n  ".join(errors[:12]))
        return len(cfgs)
    seen, first = set(), len(jobs)
    for i, (param, value, _) in enumerate(cfgs, 1):
        d = os.path.join(work, str(i))
        what = f"{path} {kernel} {backend} {param}={value!r} ({d})"
        if backend == "opencl":
            src = os.path.join(d, kernel + ".cl")
            cmd = [CLANG, "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header", "-fsyntax-only",
                   src]
        elif backend == "cuda":
            if not param.startswith(CUDA_BUILT):
                continue
            src = os.path.join(d, kernel + ".cu")
            # the kernel's first distinct file whole (-O0: the host code unoptimised, half
            # of nvcc's time), the others' device code only (-cubin: front end and ptxas);
            # the values built here change the kernels, and the host code little
            if any(c[0] == NVCC for _, c in jobs[first:]):
                cmd = [NVCC, "-cubin", "-o", os.path.join(d, kernel + ".cubin"), src]
            else:
                cmd = [NVCC, "-O0", "-c", "-o", os.path.join(d, kernel + ".o"), src]
        else:
            src = os.path.join(d, kernel + "_ref.c")
            cmd = [os.environ.get("CC", "cc"), "-std=c11", "-fsyntax-only", "-fopenmp", src]
        with open(src, "rb") as f:
            key = hashlib.sha256(f.read()).hexdigest()
        if key not in seen:
            seen.add(key)
            jobs.append((what, cmd))
    return len(cfgs)


def kernels_of(args, path):
    p = run([args.imcl, "-b", "c", "--dump-space", path])
    if p.returncode != 0:
        raise RuntimeError(f"{path}: --dump-space failed: {p.stderr.strip()}")
    doc = json.loads(p.stdout)
    return [d["kernel"] for d in (doc if isinstance(doc, list) else [doc])]


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--imcl", required=True)
    ap.add_argument("--work", required=True)
    ap.add_argument("--jobs", type=int, default=os.cpu_count() or 2)
    ap.add_argument("--smith", type=int, default=0)
    ap.add_argument("--smith-seed", default="1")
    ap.add_argument("files", nargs="*")
    args = ap.parse_args()
    args.imcl = os.path.realpath(args.imcl)
    shutil.rmtree(args.work, ignore_errors=True)  # (an earlier commit's random files)
    files = list(args.files)
    if args.smith:
        sys.path.insert(0, os.path.join(HERE, "..", "smith"))
        import smith
        seed = smith.commit_seed()[0] if args.smith_seed == "commit" else int(args.smith_seed)
        print(f"-- smith files from seed {seed}")
        for s in range(seed, seed + args.smith):
            _, helpers, kernels = smith.make_kernel(s, 0)
            path = os.path.join(args.work, f"smith_{s}.imcl")
            os.makedirs(args.work, exist_ok=True)
            with open(path, "w") as f:
                f.write(smith.file_source(kernels, helpers))
            files.append(path)
    failures, jobs, values = [], [], 0
    for path in files:
        for kernel in kernels_of(args, path):
            for backend in ("opencl", "cuda", "c"):
                work = os.path.join(args.work, os.path.basename(path).replace(".", "_"), kernel, backend)
                values += check_kernel(args, path, kernel, backend, work, jobs, failures)
    with concurrent.futures.ThreadPoolExecutor(max_workers=args.jobs) as pool:
        for msg in pool.map(build, jobs):
            if msg:
                failures.append(msg)
    for f in failures:
        print(f"FAIL {f}")
    print(f"-- {values} values of {len(files)} files generated, {len(jobs)} distinct kernels built")
    print(f"{values + len(jobs) - len(failures)} passed, {len(failures)} failed")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
