"""What the Python-side tests share (tests/repro, tests/smith): a configuration run
through imcl's generated one-shot wrappers or, for a kernel with the iterate pragma,
its plan's PK_plan_iterate, in-process, and the comparison of its outputs with the C
reference's."""

import ctypes
import json
import os
import subprocess

import numpy as np


def build(imcl, nvcc_cpu, k, path, cfg, work, backend=None):
    """imcl's output for one configuration of kernel k (prefix w_) built into a shared
    library in work, on k's backend or `backend`; returns the library, loaded."""
    os.makedirs(work, exist_ok=True)
    pfile = os.path.join(work, "params.json")
    with open(pfile, "w") as f:
        json.dump(cfg, f)
    b = backend or k.backend
    size = "x".join(str(n) for n in k.size)
    p = subprocess.run([imcl, "-b", b, "--prefix", "w_", "-k", k.kernel, "-t", pfile, "--size", size,
                        "-o", work, path], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"imcl -b {b} refused it (status {p.returncode}): {p.stderr.strip()}")
    lib = os.path.join(work, f"lib{k.kernel}.so")
    cc = os.environ.get("CC", "cc")
    if b == "opencl":
        cmd = [cc, "-O0", "-fPIC", "-shared", "-o", lib, os.path.join(work, k.kernel + "_host.c"),
               os.path.join(work, "imcl_runtime_opencl.c"), "-lOpenCL", "-lm"]
    elif b == "c":
        cmd = [cc, "-O1", "-fopenmp", "-fPIC", "-shared", "-o", lib, os.path.join(work, k.kernel + "_ref.c"),
               os.path.join(work, "imcl_runtime_c.c"), "-lm"]
    else:
        cmd = [nvcc_cpu, "-O1", "-Xcompiler", "-fPIC", "-shared", "-o", lib,
               os.path.join(work, k.kernel + ".cu"), os.path.join(work, "imcl_runtime_cuda.cu")]
    p = subprocess.run(cmd, capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"{os.path.basename(cmd[0])} cannot build the {b} wrapper: "
                           f"{p.stderr.strip()[-1500:]}")
    return ctypes.CDLL(lib)


class PlanIterate:
    """PK_plan_iterate of one configuration of a kernel with the iterate pragma on a
    backend (c, opencl or cuda, built as Wrapper builds): a plan of the arguments'
    extents, every array uploaded, `steps` steps, every array downloaded."""

    def __init__(self, imcl, nvcc_cpu, k, path, cfg, work, backend):
        self.k = k
        self.dll = build(imcl, nvcc_cpu, k, path, cfg, work, backend)

    def fn(self, name):
        f = getattr(self.dll, f"w_{self.k.kernel}_plan_{name}")
        f.restype = ctypes.c_int
        return f

    def __call__(self, arguments, steps):
        plan = ctypes.c_void_p()
        extents = [ctypes.c_int(int(v)) for a, v in zip(self.k.args, arguments) if a.kind == "extent"]
        scalars = [a.ctype(v.item() if hasattr(v, "item") else v)
                   for a, v in zip(self.k.args, arguments) if a.kind == "scalar"]
        rc = self.fn("create")(ctypes.byref(plan), *extents)
        out, keep = [], []
        try:
            for a, v in zip(self.k.args, arguments):
                if a.kind not in ("grid", "array"):
                    out.append(None)
                    continue
                arr = np.array(v, dtype=a.dtype, order="C", copy=True)
                out.append(arr)
                keep.append((a, arr))
                if rc == 0:
                    rc = self.fn(f"upload_{a.name}")(plan, arr.ctypes.data_as(ctypes.POINTER(a.ctype)))
            if rc == 0:
                rc = self.fn("iterate")(plan, ctypes.c_int(steps), *scalars)
            for a, arr in keep:
                if rc == 0:
                    rc = self.fn(f"download_{a.name}")(plan, arr.ctypes.data_as(ctypes.POINTER(a.ctype)))
        finally:
            destroy = getattr(self.dll, f"w_{self.k.kernel}_plan_destroy")
            destroy.restype = None
            destroy(plan)
        if rc != 0:
            raise RuntimeError(f"the plan of w_{self.k.kernel} returned {rc}")
        return out


class Wrapper:
    """The one-shot wrapper of one configuration on a device backend (every placement,
    textures and constant copies included), built as a shared library and called
    in-process like the C reference: OpenCL's K_host.c with cc against the ICD loader
    (the kernel runs on PoCL), CUDA's K.cu with nvcc-cpu (CUDA run on the CPU)."""

    def __init__(self, imcl, nvcc_cpu, k, path, cfg, work):
        self.k = k
        self.dll = build(imcl, nvcc_cpu, k, path, cfg, work)
        self.fn = getattr(self.dll, "w_" + k.kernel)
        self.fn.restype = ctypes.c_int
        self.strerror = getattr(self.dll, f"w_{k.kernel}_strerror")
        self.strerror.restype = ctypes.c_char_p

    def __call__(self, arguments):
        call, out = [], []
        for a, v in zip(self.k.args, arguments):
            if a.kind in ("W/H/D", "batch count", "block list"):
                out.append(None)
                continue
            if a.kind in ("grid", "array"):
                arr = np.array(v, dtype=a.dtype, order="C", copy=True)
                out.append(arr)
                call.append(arr.ctypes.data_as(ctypes.POINTER(a.ctype)))
            else:
                out.append(None)
                call.append(a.ctype(v.item() if hasattr(v, "item") else v))
        rc = self.fn(*call)
        if rc != 0:
            raise RuntimeError(f"w_{self.k.kernel} returned {rc}: {self.strerror(rc).decode()}")
        return out


def mismatch(k, want, got):
    """Why got differs from the C reference's want, or None. Integers exactly; floating
    point within 1e-5 of the array's largest magnitude, whatever the element type: the
    kernels mix float and double, and a float math function (cos of a float: 4 ulp in
    OpenCL) may differ in its last bits between backends; what these cases catch is
    structural (a value applied twice, NaN from an unset local, a store past a return)."""
    for a, w, g in zip(k.args, want, got):
        if w is None:
            continue
        g = np.asarray(g).reshape(w.shape)
        if np.issubdtype(w.dtype, np.integer):
            bad = w != g
        else:
            finite = np.isfinite(w)
            scale = float(np.max(np.abs(w[finite]))) if finite.any() else 0.0
            with np.errstate(invalid="ignore"):
                bad = ~((np.abs(g.astype(np.float64) - w) <= 1e-5 * max(scale, 1e-30)) |
                        (np.isnan(w) & np.isnan(g)) | ((w == g) & ~finite))
        if bad.any():
            i = np.unravel_index(int(np.argmax(bad)), w.shape)
            return (f"array '{a.name}': {int(bad.sum())} of {w.size} elements differ from the C "
                    f"reference, first at index {tuple(int(j) for j in i)}: {g[i]!r} instead of {w[i]!r}")
    return None
