#!/usr/bin/env python3
"""Space-completeness test (docs/tuning.md, "Tests"): every configuration of the dumped
tuning space compiles, builds and computes what the oracle computes; everything
outside the space is refused with exit status 2 and a message naming the parameter.

For each sample (samples/<K>/<K>.imcl, driver tests/run/check_<K>.c):

  1. `imcl --dump-space -b opencl` is parsed; the configurations that satisfy the
     restrictions (Python expressions, evaluated with eval() on a dict of the
     configuration) are enumerated; all of them are taken when there are at most
     --n, otherwise a fixed-seed random sample of --n (the defaults always among
     them).
  2. Every selected configuration is compiled with `-b c` (--prefix ref_, folder c/)
     and `-b opencl` (--prefix ocl_, folder opencl/). The "run" subset (all of them
     with --full, at most --run-max with --quick, fixed seed) is then built against
     the sample's hand-written driver and run; it must exit 0. Every other run
     alternates the driver's default problem size with a size one point larger
     than a block (block*coarsening + 1 in each dimension), so partial blocks are
     exercised for each block shape.
     Every selected configuration's OpenCL C is also read by clang as OpenCL C 1.2
     (-Wall -Wextra -Werror but unused parameters), a stricter reader than PoCL.
  3. A fixed-seed subset (--cuda-n) of the configurations of the `-b cuda` dump is
     compiled with `-b cuda` and `nvcc -c` (a missing nvcc is a failure), the C
     symbols cuda_K and cuda_K_strerror must be defined, and the CUDA flavour of the
     driver is linked; it is run when `nvidia-smi -L` lists a GPU (without one, and
     without IMCL_GPU_BUNDLE, the sample's configurations after the first have nvcc
     compile their device code only, `nvcc -cubin`). The same flavour
     is built with scripts/nvcc-cpu (the CUDA emulated on the CPU) and run, always,
     at the sizes of step 2, device memory leaks failing (IMCL_EMU_LEAKS=fail).
  3b. The newest parameters, which a uniform sample seldom reaches: for each of
     stream_z, batch_loop (OpenCL only) and each array that may be in registers,
     --new-n configurations of the dump that use it (the other parameters drawn) are
     run as in steps 2 (OpenCL) and 3 (CUDA, emulated).
  With --recipes, every step works on the space of the sample's recipe instead
  (samples/<K>/<K>.lua, `imcl --dump-space -r`): its tunables and constraints, each
  configuration generated with `-r recipe -t values.json`; samples without a recipe
  are left out.
  4. Negative checks, for the opencl, cuda and c dumps: configurations that break
     each restriction (built from listed values), unknown parameter names, unknown
     array names, values outside the listed range of each parameter, and memory
     kinds not listed for an array must all be refused by `imcl -t` with exit
     status 2, a message on stderr that names the parameter, and no output file.

Object files that do not depend on the configuration (the C reference and the
driver: their sources differ between configurations only in the "Tuning:" comment
line) are compiled once per sample and reused (content-addressed cache; --no-cache
turns it off). The last line is `N passed, M failed`; the exit status is 1 on any
failure.
"""

import argparse
import ast
import concurrent.futures
import hashlib
import itertools
import json
import os
import random
import re
import shutil
import subprocess
import sys
import tempfile
import threading
import time
import zlib

SAMPLES = ["life", "sobel", "blur5", "sum7", "sum27", "miniamr"]
MEM_KINDS = ["global", "shared", "texture", "constant", "register"]
ENUM_CAP = 2_000_000  # above this many raw combinations, sample instead of enumerating
TUNING_LINE = re.compile(r"(?m)^ \* Tuning: .*\n")


# ---------------------------------------------------------------- utilities


class Stats:
    """Thread-safe pass/fail counters and accumulated stage times."""

    def __init__(self):
        self.lock = threading.Lock()
        self.passed = 0
        self.failed = 0
        self.failures = []
        self.times = {}
        self.counts = {}

    def ok(self):
        with self.lock:
            self.passed += 1

    def fail(self, what, detail=""):
        with self.lock:
            self.failed += 1
            self.failures.append(what)
        msg = "FAIL: " + what
        if detail:
            detail = detail.strip()
            if len(detail) > 2000:
                detail = detail[:2000] + "\n  ..."
            msg += "\n  " + detail.replace("\n", "\n  ")
        print(msg, flush=True)

    def timed(self, stage, seconds):
        with self.lock:
            self.times[stage] = self.times.get(stage, 0.0) + seconds
            self.counts[stage] = self.counts.get(stage, 0) + 1


STATS = Stats()


def run(cmd, stage, cwd=None, timeout=300, env=None):
    """Runs cmd; returns (returncode, stdout, stderr). Time goes to `stage`."""
    t0 = time.monotonic()
    try:
        p = subprocess.run(cmd, cwd=cwd, capture_output=True, text=True, timeout=timeout, env=env)
        rc, out, err = p.returncode, p.stdout, p.stderr
    except subprocess.TimeoutExpired as e:
        rc, out, err = 124, "", f"timed out after {timeout} s: {e}"
    except OSError as e:
        rc, out, err = 127, "", f"cannot run {cmd[0]}: {e}"
    STATS.timed(stage, time.monotonic() - t0)
    return rc, out, err


def cmdline(cmd):
    return " ".join(cmd)


class ObjCache:
    """Content-addressed cache of object files: the key is the (normalised)
    source text of everything the object depends on plus the command line."""

    def __init__(self, folder, enabled):
        self.folder = folder
        self.enabled = enabled
        self.lock = threading.Lock()
        self.locks = {}
        self.hits = 0
        self.misses = 0
        os.makedirs(folder, exist_ok=True)

    def get(self, texts, cmd_tail, build):
        """Returns the path of an object for `texts`; `build(out_path)` makes it and
        returns (ok, message)."""
        if not self.enabled:
            fd, path = tempfile.mkstemp(suffix=".o", dir=self.folder)
            os.close(fd)
            ok, msg = build(path)
            return (path if ok else None), msg
        h = hashlib.sha256()
        for t in texts:
            h.update(TUNING_LINE.sub("", t).encode())
            h.update(b"\0")
        h.update(cmdline(cmd_tail).encode())
        key = h.hexdigest()[:24]
        path = os.path.join(self.folder, key + ".o")
        with self.lock:
            lk = self.locks.setdefault(key, threading.Lock())
        with lk:
            if os.path.exists(path):
                with self.lock:
                    self.hits += 1
                return path, ""
            tmp = path + ".tmp%d" % threading.get_ident()
            ok, msg = build(tmp)
            if not ok:
                return None, msg
            os.replace(tmp, path)
            with self.lock:
                self.misses += 1
            return path, ""


def read(path):
    with open(path, encoding="utf-8", errors="replace") as f:
        return f.read()


# ---------------------------------------------------------------- the space


def dump_space(imcl, src, backend, extra=()):
    cmd = [imcl, "--dump-space", "-b", backend, *extra, src]
    rc, out, err = run(cmd, "imcl --dump-space")
    if rc != 0:
        raise RuntimeError(f"{cmdline(cmd)} exited with status {rc}:\n{err}")
    try:
        space = json.loads(out)
    except ValueError as e:
        raise RuntimeError(f"{cmdline(cmd)}: output is not JSON ({e})")
    if isinstance(space, list):
        if len(space) != 1:
            raise RuntimeError(f"{cmdline(cmd)}: expected one kernel, got {len(space)}")
        space = space[0]
    for key in ("parameters", "defaults", "restrictions"):
        if key not in space:
            raise RuntimeError(f"{cmdline(cmd)}: no '{key}' in the dump")
    return space


def restriction_names(expr, params):
    """Parameter names used by a restriction (in order of first use)."""
    names = []
    for node in ast.walk(ast.parse(expr, mode="eval")):
        if isinstance(node, ast.Name) and node.id in params and node.id not in names:
            names.append(node.id)
    return names


class Space:
    def __init__(self, dump):
        self.params = dump["parameters"]
        self.names = list(self.params)
        self.defaults = dump["defaults"]
        self.restrictions = list(dump["restrictions"])
        self.codes = [compile(r, "<restriction>", "eval") for r in self.restrictions]

    def valid(self, cfg):
        try:
            return all(eval(c, {}, dict(cfg)) for c in self.codes)
        except Exception:
            return False

    def violated(self, cfg):
        """Indices of the restrictions cfg breaks."""
        bad = []
        for i, c in enumerate(self.codes):
            try:
                if not eval(c, {}, dict(cfg)):
                    bad.append(i)
            except Exception:
                bad.append(i)
        return bad

    def raw_count(self):
        n = 1
        for name in self.names:
            n *= len(self.params[name])
        return n

    def select(self, n, rng):
        """(selected configurations, number of valid ones or None when sampled)."""
        key = lambda c: json.dumps(c, sort_keys=True)
        default = {k: self.defaults[k] for k in self.names}
        if self.raw_count() <= ENUM_CAP:
            valid = []
            lists = [self.params[k] for k in self.names]
            for combo in itertools.product(*lists):
                cfg = dict(zip(self.names, combo))
                if self.valid(cfg):
                    valid.append(cfg)
            total = len(valid)
            if total <= n:
                if default in valid:  # the defaults first
                    valid.remove(default)
                    valid.insert(0, default)
                return valid, total
            rest = [c for c in valid if c != default]
            picked = rng.sample(rest, n - 1 if self.valid(default) else n)
            if self.valid(default):
                picked.insert(0, default)
            return picked, total
        # Too many combinations to enumerate: rejection sampling.
        seen = {}
        if self.valid(default):
            seen[key(default)] = default
        tries = 0
        while len(seen) < n and tries < 1000 * n:
            tries += 1
            cfg = {k: rng.choice(self.params[k]) for k in self.names}
            if self.valid(cfg):
                seen.setdefault(key(cfg), cfg)
        return list(seen.values()), None


    def select_fixed(self, fix, n, rng, tries=20000):
        """Up to n valid configurations whose parameters in `fix` take one of the values
        fix gives (the others drawn from the space): configurations too rare in the space
        for a uniform sample to reach, such as stream_z with its one-deep blocks."""
        if any(k not in self.params or not [v for v in fix[k] if v in self.params[k]] for k in fix):
            return []
        seen = {}
        for _ in range(tries):
            if len(seen) >= n:
                break
            cfg = {k: rng.choice([v for v in fix[k] if v in self.params[k]] if k in fix else self.params[k])
                   for k in self.names}
            if self.valid(cfg):
                seen.setdefault(json.dumps(cfg, sort_keys=True), cfg)
        return list(seen.values())


def newest(space, batch=True):
    """The `fix` dicts of Space.select_fixed that reach the newest parameters of a space:
    z-marching (stream_z above 0), each array in registers of the warp, and with
    `batch` the loop over a batch's blocks (batch_loop 1: the sample drivers launch one
    block; CUDA's is run on batches by the lang test, which saves the emulated runs)."""
    out = []
    if batch and "batch_loop" in space.params:
        out.append({"batch_loop": [1]})
    if "stream_z" in space.params:
        out.append({"stream_z": [v for v in space.params["stream_z"] if v > 0], "block_size_z": [1], "coarsen_z": [1]})
    for name, vals in space.params.items():
        if name.startswith("mem_") and "register" in vals:
            out.append({name: ["register"], "block_size_x": [32, 64, 128]})
    return out


# ---------------------------------------------------------------- positive checks


class Sample:
    def __init__(self, name, args):
        self.name = name
        self.src = os.path.join(args.samples, name, name + ".imcl")
        self.driver = os.path.join(args.drivers, f"check_{name}.c")
        self.common = os.path.join(args.drivers, "check_common.h")
        self.work = os.path.join(args.work, name)
        # --recipes: the sample's recipe (samples/<K>/<K>.lua) sets every configuration
        self.recipe = os.path.join(args.samples, name, name + ".lua") if args.recipes else None
        self.extra = ["-r", self.recipe] if self.recipe else []
        m = re.search(r'check_sizes\("\w+",\s*argc,\s*argv,\s*(\d)', read(self.driver))
        self.size_dims = int(m.group(1)) if m else 0


def imcl_gen(args, sample, cfgdir, backend, prefix, params_path):
    out = os.path.join(cfgdir, backend)
    cmd = [args.imcl, "-b", backend, *sample.extra, "-t", params_path, "-o", out, "--prefix", prefix, sample.src]
    rc, _, err = run(cmd, f"imcl -b {backend}")
    if rc != 0:
        return False, f"{cmdline(cmd)} exited with status {rc}\n{err}"
    return True, ""


def cc_build(args, cmd, stage):
    def build(out):
        full = cmd + ["-o", out]
        rc, _, err = run(full, stage)
        return rc == 0, "" if rc == 0 else f"{cmdline(full)} exited with status {rc}\n{err}"
    return build


def runtime_object(args, cfgdir, cache, backend, compiler=None):
    """The folder's host runtime (backend c, opencl or cuda), the same for every
    configuration: compiled once, by the C compiler or for CUDA by `compiler` (nvcc,
    nvcc-cpu)."""
    rt = os.path.join(cfgdir, backend, f"imcl_runtime_{backend}.{'cu' if compiler else 'c'}")
    cmd = [compiler, "-O0", "-c", rt] if compiler else [args.cc, "-O2", "-Wall", "-Wextra", "-c", rt]
    return cache.get([read(rt), read(os.path.join(cfgdir, backend, f"imcl_runtime_{backend}.h")),
                      read(os.path.join(cfgdir, backend, "imcl_runtime_rows.h"))], cmd[:-1],
                     cc_build(args, cmd, f"{os.path.basename(cmd[0])} {os.path.basename(rt)}"))


def ref_objects(args, sample, cfgdir, cache):
    """K_ref.c and the C reference's runtime compiled: ([objects], "") or (None, why)."""
    ref_c = os.path.join(cfgdir, "c", f"{sample.name}_ref.c")
    cmd = [args.cc, "-O2", "-Wall", "-Wextra", "-fopenmp", "-c", ref_c]
    ref_o, msg = cache.get([read(ref_c), read(os.path.join(cfgdir, "c", "imcl_runtime_c.h"))], cmd[:-1],
                           cc_build(args, cmd, "cc K_ref.c"))
    if not ref_o:
        return None, msg
    rt_o, msg = runtime_object(args, cfgdir, cache, "c")
    return ([ref_o, rt_o], "") if rt_o else (None, msg)


def driver_object(args, sample, cfgdir, cache, dev):
    """The driver compiled against c/K.h and dev/K.h (dev = opencl or cuda)."""
    extra = ["-DCHECK_CUDA"] if dev == "cuda" else []
    cmd = [args.cc, "-O2", "-std=c11", "-Wall", "-Wextra", "-Werror", *extra, "-I" + cfgdir,
           "-I" + args.drivers, "-fopenmp", "-c", sample.driver]
    texts = [read(sample.driver), read(sample.common), read(os.path.join(cfgdir, "c", sample.name + ".h")),
             read(os.path.join(cfgdir, dev, sample.name + ".h"))]
    tail = [args.cc, "-O2", "-std=c11", *extra, dev, sample.driver]
    return cache.get(texts, tail, cc_build(args, cmd, "cc driver"))


def sizes_for(sample, cfg, index):
    """Driver arguments: the default size on even runs, one point more than a
    block in each dimension on odd runs. Configurations with an array in constant
    memory keep the default size: a block's worth of points can be more than the
    device's constant buffer (1 MiB on PoCL), which the wrapper rightly refuses."""
    if index % 2 == 0 or not sample.size_dims or "constant" in cfg.values():
        return []
    axes = "xyz"[: sample.size_dims]
    return [str(min(4096, cfg.get(f"block_size_{a}", 1) * cfg.get(f"coarsen_{a}", 1) + 1)) for a in axes]


def check_config(args, sample, index, cfg, do_run, cache):
    """Compiles one configuration with c and opencl; builds and runs it when do_run."""
    label = f"{sample.name} #{index} {json.dumps(cfg, sort_keys=True)}"
    cfgdir = os.path.join(sample.work, f"cfg{index:04d}")
    os.makedirs(cfgdir, exist_ok=True)
    params = os.path.join(cfgdir, "params.json")
    with open(params, "w") as f:
        json.dump(cfg, f)
    for backend, prefix in (("c", "ref_"), ("opencl", "ocl_")):
        ok, msg = imcl_gen(args, sample, cfgdir, backend, prefix, params)
        if not ok:
            STATS.fail(f"compile {label}", msg)
            return
    for f in ("c/%s_ref.c", "c/%s.h", "opencl/%s.cl", "opencl/%s_host.c", "opencl/%s.h"):
        p = os.path.join(cfgdir, f % sample.name)
        if not os.path.isfile(p) or os.path.getsize(p) == 0:
            STATS.fail(f"compile {label}", f"imcl did not produce {p}")
            return
    if args.generate_only:
        STATS.ok()
        shutil.rmtree(cfgdir, ignore_errors=True)
        return
    # clang, a stricter reader than PoCL, on the OpenCL C of every configuration
    cmd = [args.clang, "-x", "cl", "-cl-std=CL1.2", "-Xclang", "-finclude-default-header", "-fsyntax-only",
           "-Wall", "-Wextra", "-Wno-unused-parameter", "-Werror",
           os.path.join(cfgdir, "opencl", f"{sample.name}.cl")]
    rc, _, err = run(cmd, "clang K.cl")
    if rc != 0:
        STATS.fail(f"compile {label}", f"{cmdline(cmd)} exited with status {rc}\n{err}")
        return
    STATS.ok()
    if not do_run:
        shutil.rmtree(cfgdir, ignore_errors=True)
        return
    ref_o, msg = ref_objects(args, sample, cfgdir, cache)
    if not ref_o:
        STATS.fail(f"build {label}", "C reference does not compile: " + msg)
        return
    drv_o, msg = driver_object(args, sample, cfgdir, cache, "opencl")
    if not drv_o:
        STATS.fail(f"build {label}", "driver does not compile against the generated headers: " + msg)
        return
    host_o = os.path.join(cfgdir, f"{sample.name}_host.o")
    cmd = [args.cc, "-O2", "-Wall", "-Wextra", "-c", os.path.join(cfgdir, "opencl", f"{sample.name}_host.c"), "-o", host_o]
    rc, _, err = run(cmd, "cc K_host.c")
    if rc != 0:
        STATS.fail(f"build {label}", f"{cmdline(cmd)} exited with status {rc}\n{err}")
        return
    rt_o, msg = runtime_object(args, cfgdir, cache, "opencl")
    if not rt_o:
        STATS.fail(f"build {label}", "the OpenCL runtime does not compile: " + msg)
        return
    exe = os.path.join(cfgdir, f"check_{sample.name}")
    cmd = [args.cc, "-fopenmp", drv_o, *ref_o, host_o, rt_o, "-lOpenCL", "-lm", "-o", exe]
    rc, _, err = run(cmd, "link")
    if rc != 0:
        STATS.fail(f"build {label}", f"{cmdline(cmd)} exited with status {rc}\n{err}")
        return
    sizes = sizes_for(sample, cfg, index)
    rc, out, err = run([exe, *sizes], "run (c + opencl)", cwd=cfgdir, timeout=300)
    if rc != 0:
        STATS.fail(f"run {label} sizes={sizes or 'default'}",
                   f"check_{sample.name} {' '.join(sizes)} exited with status {rc} (kept in {cfgdir})\n{out}{err}")
        return
    STATS.ok()
    if not args.keep:
        shutil.rmtree(cfgdir, ignore_errors=True)


def gpu_present():
    try:
        p = subprocess.run(["nvidia-smi", "-L"], capture_output=True, text=True, timeout=60)
        return p.returncode == 0 and any(l.startswith("GPU") for l in p.stdout.splitlines())
    except (OSError, subprocess.TimeoutExpired):
        return False


def bundle_gpu_run(bundle, label, exe, sizes):
    """Put the nvcc-built program in the GPU bundle, as tests/lib/gpu.sh's gpu_run does."""
    os.makedirs(os.path.join(bundle, "bin"), exist_ok=True)
    shutil.copy(exe, os.path.join(bundle, "bin", label))
    with open(os.path.join(bundle, "list"), "a") as f:
        f.write(" ".join([label, "300", *sizes]) + "\n")


def check_cuda(args, sample, index, cfg, cache, gpu):
    label = f"{sample.name} cuda #{index} {json.dumps(cfg, sort_keys=True)}"
    cfgdir = os.path.join(sample.work, f"cuda{index:04d}")
    os.makedirs(cfgdir, exist_ok=True)
    params = os.path.join(cfgdir, "params.json")
    with open(params, "w") as f:
        json.dump(cfg, f)
    for backend, prefix in (("cuda", "cuda_"), ("c", "ref_")):
        ok, msg = imcl_gen(args, sample, cfgdir, backend, prefix, params)
        if not ok:
            STATS.fail(f"compile {label}", msg)
            return
    if not (os.path.isfile(args.nvcc) and os.access(args.nvcc, os.X_OK)):
        STATS.fail(f"nvcc {label}", f"nvcc not found at {args.nvcc} (set --nvcc or NVCC)")
        return
    obj = os.path.join(cfgdir, f"{sample.name}_cu.o")
    cu = os.path.join(cfgdir, "cuda", f"{sample.name}.cu")
    # Where no GPU runs the program, the configurations after a sample's first have nvcc
    # compile their device code only (-cubin: front end and ptxas, a third of the time):
    # the host code varies little between configurations, and nvcc-cpu builds all of it.
    whole = index == 0 or gpu or bool(os.environ.get("IMCL_GPU_BUNDLE"))
    if not whole:
        cmd = [args.nvcc, "-cubin", cu, "-o", os.path.join(cfgdir, f"{sample.name}.cubin")]
        rc, _, err = run(cmd, "nvcc -cubin")
    else:
        # (-O0: the host code unoptimised, half of nvcc's time; the device code optimised)
        cmd = [args.nvcc, "-O0", "-c", cu, "-o", obj]
        rc, _, err = run(cmd, "nvcc -c")
    if rc != 0:
        STATS.fail(f"nvcc {label}", f"{cmdline(cmd)} exited with status {rc} (kept in {cfgdir})\n{err}")
        return
    if whole:
        rc, out, err = run(["nm", "-g", "--defined-only", obj], "nm")
        syms = {line.split()[-1] for line in out.splitlines() if line.strip()}
        missing = [s for s in (f"cuda_{sample.name}", f"cuda_{sample.name}_strerror") if s not in syms]
        if rc != 0 or missing:
            STATS.fail(f"nvcc {label}", f"{obj} defines no C symbol {', '.join(missing)} {err}")
            return
    ref_o, msg = ref_objects(args, sample, cfgdir, cache)
    drv_o, msg2 = driver_object(args, sample, cfgdir, cache, "cuda") if ref_o else (None, "")
    if not ref_o or not drv_o:
        STATS.fail(f"build {label}", msg + msg2)
        return
    exe = os.path.join(cfgdir, f"check_{sample.name}_cuda")
    if whole:
        rt_o, msg = runtime_object(args, cfgdir, cache, "cuda", args.nvcc)
        if not rt_o:
            STATS.fail(f"nvcc {label}", msg)
            return
        cmd = [args.cc, "-fopenmp", drv_o, *ref_o, obj, rt_o, "-L" + args.cuda_libdir,
               "-Wl,-rpath," + args.cuda_libdir, "-lcudart", "-lstdc++", "-lm", "-o", exe]
        rc, _, err = run(cmd, "link")
        if rc != 0:
            STATS.fail(f"build {label}", f"{cmdline(cmd)} exited with status {rc}\n{err}")
            return
    sizes = sizes_for(sample, cfg, index)
    if gpu:
        rc, out, err = run([exe, *sizes], "run (c + cuda)", cwd=cfgdir, timeout=300)
        if rc != 0:
            STATS.fail(f"run {label} sizes={sizes or 'default'}",
                       f"check_{sample.name}_cuda exited with status {rc} (kept in {cfgdir})\n{out}{err}")
            return
    elif os.environ.get("IMCL_GPU_BUNDLE"):
        bundle_gpu_run(os.environ["IMCL_GPU_BUNDLE"], f"space.{sample.name}.cuda{index:04d}", exe, sizes)
    # the same flavour with nvcc-cpu, run always
    cpu_obj = os.path.join(cfgdir, f"{sample.name}_cu_cpu.o")
    cpu_exe = os.path.join(cfgdir, f"check_{sample.name}_cuda_cpu")
    cpu_rt_o, msg = runtime_object(args, cfgdir, cache, "cuda", args.nvcc_cpu)
    if not cpu_rt_o:
        STATS.fail(f"nvcc-cpu {label}", msg)
        return
    for cmd in ([args.nvcc_cpu, "-c", os.path.join(cfgdir, "cuda", f"{sample.name}.cu"), "-o", cpu_obj],
                [args.nvcc_cpu, "-Xcompiler", "-fopenmp", drv_o, *ref_o, cpu_obj, cpu_rt_o, "-o", cpu_exe]):
        rc, _, err = run(cmd, "nvcc-cpu")
        if rc != 0:
            STATS.fail(f"nvcc-cpu {label}", f"{cmdline(cmd)} exited with status {rc} (kept in {cfgdir})\n{err}")
            return
    rc, out, err = run([cpu_exe, *sizes], "run (c + emulated cuda)", cwd=cfgdir, timeout=300,
                       env=dict(os.environ, IMCL_EMU_LEAKS="fail"))
    if rc != 0:
        STATS.fail(f"run emulated {label} sizes={sizes or 'default'}",
                   f"check_{sample.name}_cuda_cpu exited with status {rc} (kept in {cfgdir})\n{out}{err}")
        return
    STATS.ok()
    if not args.keep:
        shutil.rmtree(cfgdir, ignore_errors=True)


# ---------------------------------------------------------------- negative checks


def negative_probes(space, own_arrays, other_arrays, rng):
    """(label, configuration, names of which stderr must mention one) for every
    configuration imcl must refuse. own_arrays: the sample's arrays (the C space
    lists no mem_ parameter, yet -b c takes one for each, as the device spaces do)."""
    base = {k: space.defaults[k] for k in space.names}
    probes = []

    # Configurations made of listed values that break a restriction.
    for i, expr in enumerate(space.restrictions):
        names = restriction_names(expr, space.params)
        lists = [space.params[k] for k in names]
        breaking = []
        count = 1
        for l in lists:
            count *= len(l)
        combos = itertools.product(*lists) if count <= 200_000 else (
            tuple(rng.choice(l) for l in lists) for _ in range(200_000))
        for combo in combos:
            cfg = dict(base, **dict(zip(names, combo)))
            if i in space.violated(cfg):
                breaking.append(cfg)
        if breaking:
            # the smallest and the largest breaking configuration, and one at random
            for cfg in {json.dumps(c, sort_keys=True): c for c in
                        (breaking[0], breaking[-1], rng.choice(breaking))}.values():
                probes.append((f"breaks restriction '{expr}'", cfg, names or list(space.names)))

    # Unknown parameter names and unknown arrays.
    loops = [int(k[8:]) for k in space.names if re.fullmatch(r"unroll_L\d+", k)]
    unknown = {"no_such_parameter": 1, "block_size_w": 8, "coarsen_q": 1, "Block_size_x": 8,
               "interleave": 1, f"unroll_L{max(loops + [0]) + 1000}": 1, "unroll_Lx": 1,
               "mem_no_such_array": "global"}
    for arr in sorted(other_arrays - own_arrays):
        unknown[f"mem_{arr}"] = "global"
    for name, value in unknown.items():
        if name in space.params:
            continue
        probes.append((f"unknown parameter {name}", dict(base, **{name: value}), [name]))

    # Values outside the listed set of each parameter.
    listed_mem = {v for k in space.names if k.startswith("mem_") for v in space.params[k]}
    for name in space.names:
        values = space.params[name]
        if all(isinstance(v, str) for v in values):
            bad = ["bogus", "", "GLOBAL"] + [m for m in MEM_KINDS if m not in values]
            bad += sorted(v for v in listed_mem if v not in values and v not in bad)  # listed for another array
            bad += [1]
        else:
            ints = [v for v in values if isinstance(v, int)]
            lo, hi = min(ints), max(ints)
            if name == "stream_z":
                # the dump lists a ladder up to 64; -t takes 0 and 2 to 4096 (docs/tuning.md)
                lo, hi = 2, 4096
            bad = sorted({lo - 1, hi + 1, 0, -1, 2 * hi + 1} - set(values))
            bad += [1.5, "abc"]
        for v in bad:
            probes.append((f"{name}={json.dumps(v)} (not in {json.dumps(values)})", dict(base, **{name: v}), [name]))
    return probes


def check_refused(args, sample, backend, label, cfg, names, tmpdir):
    fd, params = tempfile.mkstemp(suffix=".json", dir=tmpdir)
    with os.fdopen(fd, "w") as f:
        json.dump(cfg, f)
    out = tempfile.mkdtemp(dir=tmpdir)
    cmd = [args.imcl, "-b", backend, *sample.extra, "-t", params, "-o", out, "--prefix", "neg_", sample.src]
    rc, _, err = run(cmd, "imcl (negative)")
    what = f"refuse {sample.name} -b {backend}: {label}"
    left = os.listdir(out) if os.path.isdir(out) else []
    if rc != 2:
        STATS.fail(what, f"{cmdline(cmd)} exited with status {rc}, expected 2\nconfiguration: "
                   f"{json.dumps(cfg, sort_keys=True)}\n{err}")
    elif not any(n in err for n in names):
        STATS.fail(what, f"stderr names none of {names}:\n{err}")
    elif left:
        STATS.fail(what, f"refused, but left output files behind: {left}")
    else:
        STATS.ok()
    shutil.rmtree(out, ignore_errors=True)
    os.unlink(params)


# ---------------------------------------------------------------- main


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    mode = ap.add_mutually_exclusive_group()
    mode.add_argument("--quick", action="store_true", help="run at most --run-max OpenCL variants per sample (ctest)")
    mode.add_argument("--full", action="store_true", help="run every selected configuration (the default)")
    ap.add_argument("--imcl", required=True)
    ap.add_argument("--samples", required=True, help="the samples/ folder")
    ap.add_argument("--drivers", required=True, help="tests/run (check_<K>.c, check_common.h)")
    ap.add_argument("--work", required=True, help="scratch folder (emptied first)")
    ap.add_argument("--only", default="", help="comma-separated samples (default: all)")
    ap.add_argument("--n", type=int, default=100, help="configurations per sample (default 100)")
    ap.add_argument("--seed", type=int, default=1, help="random seed (default 1)")
    ap.add_argument("--run-max", type=int, default=12, help="--quick: variants run per sample (default 12)")
    ap.add_argument("--cuda-n", type=int, default=10, help="CUDA variants compiled per sample (default 10)")
    ap.add_argument("--new-n", type=int, default=2,
                    help="variants run per sample, backend and newest parameter (stream_z, each mem_ register; default 2)")
    ap.add_argument("--jobs", type=int, default=2, help="parallel workers (default 2)")
    ap.add_argument("--cc", default=os.environ.get("CC", "gcc"))
    ap.add_argument("--clang", default=os.environ.get("CLANG", "clang"))
    ap.add_argument("--nvcc", default=os.environ.get("NVCC", "/usr/local/cuda/bin/nvcc"))
    ap.add_argument("--cuda-libdir", default=os.environ.get("CUDA_LIBDIR", "/usr/local/cuda/lib64"))
    ap.add_argument("--nvcc-cpu", default=os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..",
                                                       "scripts", "nvcc-cpu"),
                    help="scripts/nvcc-cpu, which builds the CUDA flavour that runs on the CPU")
    ap.add_argument("--no-cache", action="store_true", help="compile the C reference and driver for every variant")
    ap.add_argument("--generate-only", action="store_true",
                    help="imcl alone (the sanitizer build): generate every selected configuration and "
                         "check the refusals; no clang, build or run, no CUDA or newest-parameter runs")
    ap.add_argument("--no-negative", action="store_true", help="skip the negative checks")
    ap.add_argument("--keep", action="store_true", help="keep the folders of passing variants")
    ap.add_argument("--recipes", action="store_true",
                    help="the spaces of the samples' recipes (samples/<K>/<K>.lua, -r): their tunables")
    args = ap.parse_args()
    if args.generate_only:
        args.cuda_n = args.new_n = 0
    args.imcl = os.path.realpath(args.imcl)
    args.samples = os.path.realpath(args.samples)
    args.drivers = os.path.realpath(args.drivers)
    args.work = os.path.realpath(args.work)
    t_start = time.monotonic()

    names = [s for s in args.only.split(",") if s] or SAMPLES
    for n in names:
        if n not in SAMPLES and not os.path.isfile(os.path.join(args.samples, n, n + ".imcl")):
            ap.error(f"no sample {n}")
    if os.path.isdir(args.work):
        shutil.rmtree(args.work)
    os.makedirs(args.work)
    cache = ObjCache(os.path.join(args.work, "objcache"), not args.no_cache)
    negdir = os.path.join(args.work, "negative")
    os.makedirs(negdir)
    gpu = gpu_present()

    samples, jobs, summary = [], [], []
    spaces = {}
    for name in names:
        s = Sample(name, args)
        for f in (s.src, s.driver, s.common):
            if not os.path.isfile(f):
                STATS.fail(f"{name}: missing {f}")
        if not os.path.isfile(s.src) or not os.path.isfile(s.driver):
            continue
        if s.recipe and not os.path.isfile(s.recipe):
            continue  # --recipes: only the samples that have one
        try:
            spaces[name] = {b: dump_space(args.imcl, s.src, b, s.extra) for b in ("opencl", "cuda", "c")}
        except (RuntimeError, SyntaxError, ValueError) as e:
            STATS.fail(f"{name}: dump", str(e))
            continue
        samples.append(s)
    all_arrays = {k[4:] for sp in spaces.values() for d in sp.values() for k in d["parameters"] if k.startswith("mem_")}

    for s in samples:
        os.makedirs(s.work, exist_ok=True)
        rng = random.Random(args.seed * 1_000_003 + zlib.crc32(s.name.encode()))
        space = Space(spaces[s.name]["opencl"])
        selected, total = space.select(args.n, rng)
        if not selected:
            STATS.fail(f"{s.name}: the space has no valid configuration")
            continue
        if args.generate_only:
            run_idx = set()
        elif args.quick:
            run_idx = set([0] if selected[0] == {k: space.defaults[k] for k in space.names} else [])
            rest = [i for i in range(len(selected)) if i not in run_idx]
            run_idx |= set(rng.sample(rest, max(0, min(args.run_max - len(run_idx), len(rest)))))
        else:
            run_idx = set(range(len(selected)))
        for i, cfg in enumerate(selected):
            jobs.append((check_config, (args, s, i, cfg, i in run_idx, cache)))
        cspace = Space(spaces[s.name]["cuda"])
        crng = random.Random(args.seed * 7_000_003 + zlib.crc32(s.name.encode()))
        cuda_sel, _ = cspace.select(args.cuda_n, crng) if args.cuda_n > 0 else ([], 0)
        for i, cfg in enumerate(cuda_sel):
            jobs.append((check_cuda, (args, s, i, cfg, cache, gpu)))
        # the newest parameters, which a uniform sample seldom reaches: --new-n runs each
        nrng = random.Random(args.seed * 9_000_011 + zlib.crc32(s.name.encode()))
        new_ocl = [c for fix in newest(space) for c in space.select_fixed(fix, args.new_n, nrng)]
        new_cuda = [c for fix in newest(cspace, False) for c in cspace.select_fixed(fix, args.new_n, nrng)]
        for i, cfg in enumerate(new_ocl):
            jobs.append((check_config, (args, s, 1000 + i, cfg, True, cache)))
        for i, cfg in enumerate(new_cuda):
            jobs.append((check_cuda, (args, s, 1000 + i, cfg, cache, gpu)))
        nneg = 0
        if not args.no_negative:
            for backend in ("opencl", "cuda", "c"):
                bspace = Space(spaces[s.name][backend])
                own = {k[4:] for k in spaces[s.name]["opencl"]["parameters"] if k.startswith("mem_")}
                for label, cfg, pnames in negative_probes(bspace, own, all_arrays, rng):
                    jobs.append((check_refused, (args, s, backend, label, cfg, pnames, negdir)))
                    nneg += 1
        summary.append(f"{s.name}: {len(space.names)} parameters, {space.raw_count()} combinations, "
                       f"{total if total is not None else 'too many to count'} valid; {len(selected)} selected "
                       f"(compiled with c and opencl), {len(run_idx)} run, {len(cuda_sel)} compiled with cuda and run "
                       f"emulated{' and on the GPU' if gpu else ''}; {len(new_ocl)} opencl and {len(new_cuda)} cuda "
                       f"with stream_z, batch_loop or register; {nneg} negative probes")

    for line in summary:
        print(line, flush=True)
    with concurrent.futures.ThreadPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [pool.submit(f, *a) for f, a in jobs]
        for fut in concurrent.futures.as_completed(futures):
            try:
                fut.result()
            except Exception as e:  # a bug in this script is a failure too
                STATS.fail("internal error", repr(e))

    wall = time.monotonic() - t_start
    print(f"-- timings (summed over {args.jobs} workers; wall {wall:.1f} s):")
    for stage in sorted(STATS.times):
        n, t = STATS.counts[stage], STATS.times[stage]
        print(f"   {stage:22s} {n:6d} x {1000 * t / n:8.1f} ms = {t:7.1f} s")
    print(f"   object cache: {cache.misses} compiled, {cache.hits} reused" if cache.enabled else "   object cache off")
    if not args.keep and STATS.failed == 0:
        shutil.rmtree(negdir, ignore_errors=True)
    print(f"{STATS.passed} passed, {STATS.failed} failed")
    return 1 if STATS.failed else 0


if __name__ == "__main__":
    sys.exit(main())
