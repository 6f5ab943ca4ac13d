"""imcl.Kernel: one ImageCL kernel as Kernel Tuner wants it."""

import ctypes
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import weakref

import numpy as np

from . import _compiler, _library
from ._compiler import ImclError
from .restrictions import coded, for_kernel_tuner

BACKENDS = {"opencl": "OpenCL", "cuda": "CUDA"}

# the type names of imcl's space dump ("arguments", T1's spelling) -> numpy and ctypes types
_TYPES = {
    "int8": (np.int8, ctypes.c_int8),
    "uint8": (np.uint8, ctypes.c_uint8),
    "int16": (np.int16, ctypes.c_int16),
    "uint16": (np.uint16, ctypes.c_uint16),
    "int32": (np.int32, ctypes.c_int32),
    "uint32": (np.uint32, ctypes.c_uint32),
    "float": (np.float32, ctypes.c_float),
    "double": (np.float64, ctypes.c_double),
}

_EXTENT_SUFFIX = ("_width", "_height", "_depth")

# Placements Kernel Tuner cannot feed, per backend (docs/autotuning.md):
#  texture  - the kernel takes an OpenCL image / a CUDA texture object; Kernel Tuner
#             passes every array as a buffer (device pointer).
#  constant - CUDA only: the array becomes a __constant__ symbol and leaves the
#             kernel's parameter list, which Kernel Tuner keeps fixed for a run.
LEFT_OUT = {
    "opencl": {"texture": "the kernel reads an OpenCL image (image2d_t/image3d_t); "
                          "Kernel Tuner passes every array as a buffer"},
    "cuda": {"texture": "the kernel reads a cudaTextureObject_t; Kernel Tuner passes "
                        "every array as a device pointer",
             "constant": "the array becomes a __constant__ symbol and leaves the kernel's "
                         "parameter list, which Kernel Tuner keeps the same for every "
                         "configuration"},
}


def parse_size(size):
    """(W, H[, D]) from a tuple/list of ints or a 'WxHxD' string."""
    if isinstance(size, str):
        parts = size.lower().split("x")
        try:
            ext = tuple(int(p) for p in parts)
        except ValueError:
            raise ValueError(f"size {size!r}: expected extents such as 64x64 or 64x64x64") from None
    elif isinstance(size, (int, np.integer)):
        ext = (int(size),)
    else:
        try:
            ext = tuple(int(s) for s in size)
        except (TypeError, ValueError):
            raise ValueError(f"size {size!r}: expected extents such as (64, 64) or '64x64x64'") from None
    if not ext or len(ext) > 3 or any(e < 1 for e in ext):
        raise ValueError(f"size {size!r}: expected 2 or 3 positive extents")
    return ext


def fmt_size(ext):
    return "x".join(str(e) for e in ext)


# the header of the CUDA host runtime that every K.cu includes (docs/wrappers.md)
RUNTIME_CUDA_H = "imcl_runtime_cuda.h"

# the device kernel's arguments the C reference does not take: the grid extent and
# the blocks of a batch, their count and their list (docs/tuning.md, "arguments")
_DEVICE_ONLY = ("W/H/D", "batch count", "block list")


class Argument:
    """One parameter of the device kernel, as imcl's space dump ("arguments") describes it."""

    def __init__(self, name, kind, type_name, access="ReadOnly", elems=None, rank=0, halo=0):
        self.name = name
        self.kind = kind            # "grid" (Image/Block), "array" (fixed-size), "scalar", "extent", "W/H/D",
                                    # "batch count", "block list"
        self.type_name = type_name
        if type_name not in _TYPES:
            raise ImclError(f"parameter '{name}': element type {type_name!r} is not supported")
        self.dtype, self.ctype = _TYPES[type_name]
        self.access = access
        self.read = access in ("ReadOnly", "ReadWrite")
        self.written = access in ("WriteOnly", "ReadWrite")
        self.elems = elems
        self.rank = rank
        self.halo = halo

    def __repr__(self):
        return f"Argument({self.name!r}, {self.kind}, {self.type_name})"


class Kernel:
    """One kernel of an ImageCL file, for one backend and one problem size.

    path     the .imcl file
    backend  "opencl" or "cuda"
    size     the grid extent W x H (2D kernels) or W x H x D (3D): (64, 64, 64) or "64x64x64"
    kernel   the kernel's name, when the file has several
    batch    blocks of that size launched at once, as PK_plan_launch_batch launches them
             (docs/wrappers.md): every grid array holds `batch` blocks one after the other,
             shape (batch, D, H, W) or (batch, H, W), halo included; 1: one grid
    """

    def __init__(self, path, backend="opencl", size=None, kernel=None, imcl=None,
                 shared_limit=None, batch=1):
        if backend not in BACKENDS:
            raise ValueError(f"backend {backend!r}: expected 'opencl' or 'cuda'")
        if not os.path.isfile(path):
            raise ImclError(f"{path}: no such file")
        if size is None:
            raise ValueError("size is required: the grid extent, e.g. size=(64, 64, 64)")
        self.path = os.path.abspath(path)
        self.backend = backend
        self.lang = BACKENDS[backend]
        self.imcl = _compiler.find_imcl(imcl)
        self.shared_limit = shared_limit
        self._extra = ["--shared-limit", str(int(shared_limit))] if shared_limit else []
        ext = parse_size(size)
        # libimcl when it is there (the source parsed once, no process per call)
        self.library = _library.load(self.imcl)

        def unit(size, kernel):
            if self.library is None:
                return None
            return self.library.open(self.path, size=size, kernel=kernel, shared_limit=shared_limit)

        # the kernel and its rank (ProblemSize of a dump without --size has one
        # entry per grid dimension)
        docs = _compiler.dump(self.imcl, self.path, backend, "imcl", kernel=kernel, shared_limit=shared_limit,
                              unit=unit(None, kernel))
        names = [d["kernel"] for d in docs]
        if kernel is None and len(docs) != 1:
            raise ImclError(f"{path} has {len(docs)} kernels ({', '.join(names)}): "
                            f"choose one with kernel=")
        self.kernel = names[0]
        rank = docs[0]["grid_dims"]
        if len(ext) != rank:
            want = "WxH" if rank == 2 else "WxHxD"
            raise ValueError(f"size {fmt_size(ext)} has {len(ext)} extent{'s' if len(ext) != 1 else ''}, "
                             f"but kernel '{self.kernel}' has a {rank}D grid (give {want})")
        self.rank = rank
        self.size = ext

        # the space for this size (with the device function's name and parameters;
        # not the T1 document, which imcl does not write for grid_size kernels)
        sel = self.kernel
        self._unit = unit(ext, sel)
        self.space = _compiler.dump(self.imcl, self.path, backend, "imcl", ext, sel, shared_limit, self._unit)[0]
        self.name = self.space["function"]
        self.grid_div_x = ["block_size_x", "coarsen_x"]
        self.grid_div_y = ["block_size_y", "coarsen_y"]
        self.grid_div_z = ["block_size_z", "coarsen_z"]
        if "stream_z" in self.space["parameters"]:
            # a thread walks stream_z points up its column (0: off)
            self.grid_div_z.append("(stream_z or 1)")

        # what Kernel Tuner sees: the space without the placements it cannot feed, and
        # for a batch those that hold one block (a texture or constant copy)
        if not isinstance(batch, (int, np.integer)) or batch < 1:
            raise ValueError(f"batch {batch!r}: expected a positive number of blocks")
        self.batch = int(batch)
        if self.batch > 1 and "batch_loop" not in self.space["parameters"]:
            raise ValueError(f"batch {batch}: kernel '{self.kernel}' has no Image or Block "
                             f"to launch in batches")
        self.problem_size = tuple(ext) if self.batch == 1 else self._batch_problem_size
        one_block = {"mem_" + a["name"] for a in self.space["arguments"]
                     if a["kind"] == "grid" and self.batch > 1}
        left = LEFT_OUT[backend]
        self.left_out = {}
        self.tune_params = {}
        for p, vals in self.space["parameters"].items():
            keep = [v for v in vals if not (p.startswith("mem_") and v in left)
                    and not (p in one_block and v not in ("global", "shared"))]
            dropped = [v for v in vals if v not in keep]
            if dropped:
                self.left_out[p] = dropped
            self.tune_params[p] = keep
        self.defaults = dict(self.space["defaults"])
        # OpenCL: what a run on a CPU device gets without -t (docs/tuning.md "Defaults");
        # None where every device gets the defaults
        self.defaults_cpu = dict(self.space["defaults_cpu"]) if "defaults_cpu" in self.space else None
        # its device function, in the code imcl writes without -t (source({}))
        self.function_cpu = self.space.get("function_cpu")
        # its work-items each walk a row along x: launched with one work-item in x
        self.row_walk_cpu = bool(self.space.get("row_walk_cpu"))
        # the CPU variant's arguments after the others: the first and past-the-last row or
        # plane of its launch (an iterated kernel's, whose PK_plan_iterate launches parts)
        self.arguments_cpu = self.space.get("arguments_cpu", [])
        self.restriction_strings = list(self.space["restrictions"])
        # valid configurations no device runs well, left out of a search (the dump's prune)
        self.prune_strings = list(self.space.get("prune", []))
        self.restrictions = for_kernel_tuner(self.restriction_strings, self.tune_params)
        _, self._coded_restrictions, self.codes = coded(self.restriction_strings, self.tune_params)

        self.args = self._arguments_from_space(self.space["arguments"])
        # what sets the grid, as imcl read it: ("grid", [arrays]) or ("grid_size", [the
        # expressions as C over the scalars]) (the dump's grid and grid_of)
        self.grid_pragma = (self.space["grid"], list(self.space["grid_of"]))

        self._sources = {}
        self._lock = threading.Lock()
        self._tmp = tempfile.mkdtemp(prefix=f"imcl-{self.kernel}-")
        self._cleanup = weakref.finalize(self, shutil.rmtree, self._tmp, True)
        self._ref = None
        self.last_mismatch = None
        self.verified = 0           # results verify() found right

    def _batch_problem_size(self, params):
        """Kernel Tuner's problem size of a batch launch (docs/wrappers.md): with
        batch_loop 0 the blocks' work-groups follow one another in z, each block's z
        rounded up to whole work-groups; with batch_loop 1 one block's, each work-item
        looping over the blocks."""
        w, h, d = (list(self.size) + [1, 1])[:3]
        if params.get("batch_loop"):
            return (w, h, d if self.rank == 3 else 1)
        step = params["block_size_z"] * params["coarsen_z"] * (params.get("stream_z") or 1)
        return (w, h, -(-d // step) * step * self.batch)

    # ---- arguments -------------------------------------------------------

    _ACCESS = {"read": "ReadOnly", "write": "WriteOnly", "readwrite": "ReadWrite"}

    def _arguments_from_space(self, args):
        out = []
        for a in args:
            kind = {"grid extent": "W/H/D"}.get(a["kind"], a["kind"])
            if kind in ("grid", "array"):
                rank = a.get("dims", 0)
                halo = a.get("halo", 0)
                elems = a.get("elements")
                if kind == "grid":
                    elems = 1
                    for d in range(rank):
                        elems *= self.size[d] + 2 * halo
                out.append(Argument(a["name"], kind, a["type"], self._ACCESS[a["access"]], elems, rank, halo))
            else:
                out.append(Argument(a["name"], kind, a["type"]))
        return out

    @property
    def arrays(self):
        return [a for a in self.args if a.kind in ("grid", "array")]

    @property
    def scalars(self):
        return [a for a in self.args if a.kind == "scalar"]

    def _check_names(self, given):
        known = [a.name for a in self.arrays + self.scalars]
        unknown = [n for n in given if n not in known]
        if unknown:
            raise ValueError(f"kernel '{self.kernel}' has no parameter {unknown[0]!r} "
                             f"(its parameters: {', '.join(known)})")

    def arguments(self, **values):
        """The device kernel's argument list, in order, for Kernel Tuner's `arguments`:
        every array (a numpy array of the element type; an Image as shape (H, W), a
        Block as (D, H, W), halo included; a fixed-size array of any shape with the
        right number of elements) followed by its interior extents, then the scalars
        (numpy scalars of their type), then W, H, D and, for a kernel with an Image or
        Block, imcl_count (numpy.int32: the Kernel's batch, 1 for one grid; a grid array
        of a batch has the blocks first, shape (batch, D, H, W)) and imcl_blocks (the
        blocks to compute, numpy.int32 0 to batch - 1). Arrays of another dtype are
        converted (the list holds the converted copy)."""
        self._check_names(values)
        missing = [a.name for a in self.arrays + self.scalars if a.name not in values]
        if missing:
            raise ValueError(f"kernel '{self.kernel}' needs {', '.join(repr(m) for m in missing)}")
        out, extents = [], {}
        for a in self.args:
            if a.kind in ("grid", "array"):
                arr = np.ascontiguousarray(values[a.name], dtype=a.dtype)
                if a.kind == "grid":
                    many = self.batch > 1
                    if arr.ndim != a.rank + many or (many and arr.shape[0] != self.batch):
                        want = ("(H, W)" if a.rank == 2 else "(D, H, W)").replace(
                            "(", f"({self.batch}, " if many else "(")
                        raise ValueError(f"array '{a.name}' has shape {arr.shape}; "
                                         f"it is {'an Image' if a.rank == 2 else 'a Block'}"
                                         f"{f' of a batch of {self.batch}' if many else ''}: "
                                         f"give shape {want}, halo included")
                    ext = [s - 2 * a.halo for s in reversed(arr.shape[many:])]
                    if any(e < 1 for e in ext):
                        raise ValueError(f"array '{a.name}' of shape {arr.shape} has no interior "
                                         f"(halo {a.halo})")
                    extents[a.name] = ext
                elif arr.size != a.elems:
                    raise ValueError(f"array '{a.name}' has {arr.size} elements; "
                                     f"the kernel declares {a.elems}")
                out.append(arr)
            elif a.kind == "extent":
                base = a.name[: a.name.rindex("_")]
                out.append(np.int32(extents[base][_EXTENT_SUFFIX.index(a.name[len(base):])]))
            elif a.kind == "scalar":
                out.append(a.dtype(values[a.name]))
            elif a.kind == "batch count":
                out.append(np.int32(self.batch))
            elif a.kind == "block list":
                out.append(np.arange(self.batch, dtype=np.int32))
            else:
                out.append(None)   # W, H, D below
        grid = self._grid(values, extents)
        padded = list(self.size) + [1] * (3 - len(self.size))
        if grid is not None and tuple(grid[: self.rank]) != tuple(self.size):
            raise ValueError(f"with these arguments the grid of kernel '{self.kernel}' is "
                             f"{fmt_size(grid[: self.rank])}, but this Kernel was made for "
                             f"size {fmt_size(self.size)}")
        whd = iter(padded)
        return [np.int32(next(whd)) if x is None else x for x in out]

    def _grid(self, values, extents):
        """The grid these arguments give (None where a grid_size expression cannot be
        evaluated over the integer scalars)."""
        kind, items = self.grid_pragma
        if kind == "grid":
            grids = [extents[n] for n in items if n in extents]
            if not grids:
                return None
            for n, e in zip(items, grids):
                if e != grids[0]:
                    raise ValueError(f"arrays '{items[0]}' and '{n}' of the grid pragma have "
                                     f"different extents ({fmt_size(grids[0])}, {fmt_size(e)})")
            return list(grids[0]) + [1] * (3 - len(grids[0]))
        scal = {a.name: int(values[a.name]) for a in self.scalars
                if np.issubdtype(a.dtype, np.integer)}
        ext = [_compiler.eval_c_int(e, scal) for e in items]
        if any(e is None for e in ext):
            return None
        return ext + [1] * (3 - len(ext))

    def make_arguments(self, seed=0, **given):
        """arguments(), with random data for the arrays not given: grid arrays of the
        problem size (halo included), floats in [0, 1), integers 0..9; arrays the
        kernel only writes are zero. Scalars must be given."""
        self._check_names(given)
        rng = np.random.default_rng(seed)
        values = dict(given)
        for a in self.arrays:
            if a.name in values:
                continue
            if a.kind == "grid":
                shape = tuple(s + 2 * a.halo for s in reversed(self.size[: a.rank]))
                shape = ((self.batch,) if self.batch > 1 else ()) + shape
            else:
                shape = (a.elems,)
            if not a.read:
                values[a.name] = np.zeros(shape, a.dtype)
            elif np.issubdtype(a.dtype, np.floating):
                values[a.name] = rng.random(shape).astype(a.dtype)
            else:
                values[a.name] = rng.integers(0, 10, shape).astype(a.dtype)
        return self.arguments(**values)

    # ---- the space as Kernel Tuner indexes it ----------------------------

    def kernel_tuner_space(self, tune_params=None, prune=False):
        """(tune_params, restrictions) for kernel_tuner.tune_kernel in the form its search
        space is built fastest in and every Kernel Tuner path evaluates alike: the values of
        a string-valued parameter (mem_<array>) as integer codes, their index in
        self.tune_params[p] (self.codes), and every restriction a string over integers.
        `tune_params` (default self.tune_params) may be a part of the space, in imcl's
        values; prune=True adds the dump's prune (self.prune_strings, integers only).
        self.source takes codes or values; self.decode turns a configuration of codes back
        into imcl's values."""
        tune_params = self.tune_params if tune_params is None else tune_params
        return ({p: [self._code(p, v) for v in vals] for p, vals in tune_params.items()},
                list(self._coded_restrictions) + (list(self.prune_strings) if prune else []))

    def _code(self, p, v):
        return self.codes[p].index(v) if p in self.codes and isinstance(v, str) else v

    def encode(self, config):
        """A configuration in imcl's values with every string value as its code."""
        return {p: self._code(p, v) for p, v in dict(config).items()}

    def decode(self, config):
        """A configuration (or Kernel Tuner result) with codes as imcl's values; other
        entries as they are."""
        return {p: (self.codes[p][int(v)] if p in self.codes and not isinstance(v, str) else v)
                for p, v in dict(config).items()}

    # ---- generated code --------------------------------------------------

    def source(self, params):
        """The generated device code of one configuration (K.cl for OpenCL; for CUDA,
        K.cu made self-contained: K.h and the runtime's header inlined, the kernel extern
        "C"), its values imcl's or
        codes (kernel_tuner_space). Cached per configuration; a configuration imcl refuses
        raises ImclError."""
        params = {k: (int(v) if isinstance(v, (np.integer, bool)) else v) for k, v in self.decode(params).items()}
        key = json.dumps(params, sort_keys=True)
        with self._lock:
            if key in self._sources:
                return self._sources[key]
        if self._unit is not None:
            status, diag, files = self._unit.generate(params, self.backend)
            if status != 0:
                raise _compiler.failed(f"imcl refused configuration {key}", status, diag)
            if self.backend == "opencl":
                text = files[self.kernel + ".cl"]
            else:
                text = self._cuda_source(files[self.kernel + ".cu"], files[self.kernel + ".h"],
                                         files[RUNTIME_CUDA_H])
            with self._lock:
                self._sources[key] = text
            return text
        work = tempfile.mkdtemp(dir=self._tmp)
        try:
            pfile = os.path.join(work, "params.json")
            with open(pfile, "w") as f:
                json.dump(params, f)
            _compiler.run(self.imcl, ["-b", self.backend, "-t", pfile, "--size", fmt_size(self.size),
                                      "-k", self.kernel, "-o", work] + self._extra + [self.path],
                          f"imcl refused configuration {key}")
            if self.backend == "opencl":
                with open(os.path.join(work, self.kernel + ".cl")) as f:
                    text = f.read()
            else:
                text = self._cuda_text(work)
        finally:
            shutil.rmtree(work, ignore_errors=True)
        with self._lock:
            self._sources[key] = text
        return text

    def __call__(self, params):
        return self.source(params)

    def _cuda_text(self, work):
        texts = []
        for name in (self.kernel + ".cu", self.kernel + ".h", RUNTIME_CUDA_H):
            with open(os.path.join(work, name)) as f:
                texts.append(f.read())
        return self._cuda_source(*texts)

    def _cuda_source(self, text, header, runtime_header):
        # (the tuner compiles one file: the headers K.cu includes go into it; the
        # runtime's functions, which only the host code calls, are not needed)
        text = text.replace(f'#include "{RUNTIME_CUDA_H}"\n', runtime_header)
        text = text.replace(f'#include "{self.kernel}.h"\n', header)
        return re.sub(r"^__global__ ", 'extern "C" __global__ ', text, flags=re.M)

    # ---- the C reference -------------------------------------------------

    def _reference_lib(self):
        if self._ref is not None:
            return self._ref
        work = os.path.join(self._tmp, "ref")
        os.makedirs(work, exist_ok=True)
        prefix = "imcl_ref_"
        _compiler.run(self.imcl, ["-b", "c", "--prefix", prefix, "-k", self.kernel, "-o", work,
                                  self.path], f"imcl cannot build the C reference of '{self.kernel}'")
        src = os.path.join(work, self.kernel + "_ref.c")
        lib = os.path.join(work, f"lib{self.kernel}_ref.so")
        cc = os.environ.get("CC", "cc")
        runtime = os.path.join(work, "imcl_runtime_c.c")  # the folder's host runtime
        p = subprocess.run([cc, "-O2", "-fPIC", "-shared", "-o", lib, src, runtime, "-lm"],
                           capture_output=True, text=True)
        if p.returncode != 0:
            raise ImclError(f"{cc} cannot build the C reference of '{self.kernel}':\n{p.stderr.strip()}")
        # the one-shot wrapper's parameters (K.h) must be the device kernel's minus W, H, D
        # and the batch count
        with open(os.path.join(work, self.kernel + ".h")) as f:
            header = f.read()
        m = re.search(r"\bint\s+" + prefix + re.escape(self.kernel) + r"\s*\(([^)]*)\)", header)
        want = [a.name for a in self.args if a.kind not in _DEVICE_ONLY]
        got = [re.findall(r"\w+", p)[-1] for p in m.group(1).split(",")] if m else None
        if got != want:
            raise ImclError(f"the C reference of '{self.kernel}' takes ({', '.join(got or [])}), "
                            f"the space dump lists ({', '.join(want)})")
        dll = ctypes.CDLL(lib)
        fn = getattr(dll, prefix + self.kernel)
        fn.restype = ctypes.c_int
        fn.argtypes = [ctypes.POINTER(a.ctype) if a.kind in ("grid", "array") else a.ctype
                       for a in self.args if a.kind not in _DEVICE_ONLY]
        err = getattr(dll, prefix + self.kernel + "_strerror")
        err.restype = ctypes.c_char_p
        err.argtypes = [ctypes.c_int]
        self._ref = (dll, fn, err)
        return self._ref

    def reference(self, args=None, **values):
        """The expected output, from imcl's C reference: Kernel Tuner's `answer`, a list
        as long as the argument list with the expected contents of every array the
        kernel writes and None elsewhere. Takes the list `arguments()` returned, or the
        same keyword arguments as arguments()."""
        if args is None:
            args = self.arguments(**values)
        elif values:
            raise TypeError("reference() takes the argument list or keyword arguments, not both")
        if len(args) != len(self.args):
            raise ValueError(f"expected {len(self.args)} arguments (as arguments() returns), "
                             f"got {len(args)}")
        _, fn, err = self._reference_lib()
        answer, copies = [], []
        for a, v in zip(self.args, args):
            copy = np.array(v, dtype=a.dtype, order="C", copy=True) if a.kind in ("grid", "array") else v
            copies.append(copy)
            answer.append(copy if a.kind in ("grid", "array") and a.written else None)
        # a batch: the reference runs on each block in turn, as the C reference's plan can
        for b in range(self.batch):
            call = []
            for a, v in zip(self.args, copies):
                if a.kind in ("grid", "array"):
                    block = v[b] if a.kind == "grid" and self.batch > 1 else v
                    call.append(block.ctypes.data_as(ctypes.POINTER(a.ctype)))
                elif a.kind not in _DEVICE_ONLY:
                    call.append(a.ctype(v.item() if hasattr(v, "item") else v))
            rc = fn(*call)
            if rc != 0:
                raise ImclError(f"the C reference of '{self.kernel}' failed: {err(rc).decode()} ({rc})")
        return answer

    # ---- verification ----------------------------------------------------

    def verify(self, answer, result_host, atol=None):
        """Kernel Tuner's `verify`: integers exactly; float within a relative 1e-5 and
        double 1e-12 of the array's largest magnitude (so that elements near zero,
        where the GPU may contract a*b+c into an fma, are judged by the data's scale)."""
        for i, (a, r) in enumerate(zip(answer, result_host)):
            if a is None:
                continue
            name = self.args[i].name
            if r is None:
                self.last_mismatch = f"array '{name}' was not read back"
                return False
            a = np.asarray(a)
            r = np.asarray(r).reshape(a.shape)
            if np.issubdtype(a.dtype, np.integer):
                bad = a != r
            else:
                rtol = 1e-5 if a.dtype == np.float32 else 1e-12
                finite = np.isfinite(a)
                scale = float(np.max(np.abs(a[finite]))) if finite.any() else 0.0
                tol = rtol * max(scale, np.finfo(a.dtype).tiny)
                with np.errstate(invalid="ignore"):
                    bad = ~((np.abs(r.astype(np.float64) - a) <= tol) | (np.isnan(a) & np.isnan(r))
                            | ((a == r) & ~finite))
            if bad.any():
                idx = np.unravel_index(int(np.argmax(bad)), a.shape)
                self.last_mismatch = (f"array '{name}': {int(bad.sum())} of {a.size} elements differ "
                                      f"from the C reference, first at index {tuple(int(j) for j in idx)}: "
                                      f"{r[idx]!r} instead of {a[idx]!r}")
                return False
        self.verified += 1
        return True

    def npoints(self):
        n = self.batch
        for e in self.size:
            n *= e
        return n

    def __repr__(self):
        return (f"imcl.Kernel({self.kernel!r}, backend={self.backend!r}, "
                f"size={fmt_size(self.size)}" + (f", batch={self.batch})" if self.batch > 1 else ")"))
