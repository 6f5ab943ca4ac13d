"""What the Python-side tests share (tests/repro, tests/smith): a configuration run
through imcl's generated one-shot wrappers, in-process, and the comparison of its
outputs with the C reference's."""

import ctypes
import json
import os
import subprocess

import numpy as np


class Wrapper:
    """The one-shot wrapper of one configuration on a device backend (every placement,
    textures and constant copies included), built as a shared library and called
    in-process like the C reference: OpenCL's K_host.c with cc against the ICD loader
    (the kernel runs on PoCL), CUDA's K.cu with nvcc-cpu (CUDA run on the CPU)."""

    def __init__(self, imcl, nvcc_cpu, k, path, cfg, work):
        os.makedirs(work, exist_ok=True)
        pfile = os.path.join(work, "params.json")
        with open(pfile, "w") as f:
            json.dump(cfg, f)
        b = k.backend
        size = "x".join(str(n) for n in k.size)
        p = subprocess.run([imcl, "-b", b, "--prefix", "w_", "-k", k.kernel, "-t", pfile, "--size", size,
                            "-o", work, path], capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"imcl -b {b} refused it (status {p.returncode}): {p.stderr.strip()}")
        lib = os.path.join(work, f"lib{k.kernel}.so")
        if b == "opencl":
            cmd = [os.environ.get("CC", "cc"), "-O0", "-fPIC", "-shared", "-o", lib,
                   os.path.join(work, k.kernel + "_host.c"), os.path.join(work, "imcl_runtime_opencl.c"),
                   "-lOpenCL", "-lm"]
        else:
            cmd = [nvcc_cpu, "-O1", "-Xcompiler", "-fPIC", "-shared", "-o", lib,
                   os.path.join(work, k.kernel + ".cu"), os.path.join(work, "imcl_runtime_cuda.cu")]
        p = subprocess.run(cmd, capture_output=True, text=True)
        if p.returncode != 0:
            raise RuntimeError(f"{os.path.basename(cmd[0])} cannot build the {b} wrapper: "
                               f"{p.stderr.strip()[-1500:]}")
        self.k = k
        self.dll = ctypes.CDLL(lib)
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
