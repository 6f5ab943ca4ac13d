#!/usr/bin/env python3
"""Random differential testing of imcl (docs/testing.md, "Random kernels"): random
valid ImageCL kernels, each with an oracle of its own, run in configurations drawn
from their dumped spaces.

For every kernel the generator builds, beside the ImageCL text, the same computation
as a Python function over the grid (the oracle: it never looks at imcl's output). A
kernel has 1 to 3 input Images or Blocks of random element types, each with a random
boundary condition (constant(v), clamped, periodic, mirror, or none with a halo as
wide as its reads), reads at random constant offsets (asymmetric footprints), reads
in loops with constant bounds, conditionals, locals, a scalar parameter, a fixed-size
array parameter (`int w[5]`), an offset alias into a stacked input (`st1 = st + off`,
read across into the neighbouring grids of the stack), a helper function, and writes one
output (double or int); a file holds one kernel or two (each run on its own, `-k`). The inputs are small integers and
every operation keeps the values small integers, so every backend must match the
oracle exactly, whatever its evaluation order or fma contraction.

Each kernel runs on a grid that is no multiple of a block: through imcl's C reference
(in-process, the Python package), through OpenCL on PoCL (Kernel Tuner's run_kernel
with imcl's generated source) in configurations drawn at random from the kernel's
dumped space (its restrictions holding), and with --cuda N through CUDA in N
configurations drawn from the CUDA space: the generated K.cu and its one-shot wrapper
built by scripts/nvcc-cpu (CUDA run on the CPU) as a shared library and called
in-process. Every output is compared with the
oracle; a mismatch prints the seed, the kernel, the configuration and the first
differing point, and leaves the kernel in the work folder.

    smith.py --imcl build/imcl --seed 1 --kernels 20 --configs 10 [--cuda 2] [--work DIR]

The last line is "N runs (K files), M mismatches, F failures"; the exit status is 1 on
any mismatch or failure.
"""

import argparse
import ctypes
import json
import os
import random
import subprocess
import sys
import time

import numpy as np

TYPES = {  # element type: (numpy dtype, smallest value, largest value)
    "float": (np.float32, -8, 8),
    "double": (np.float64, -8, 8),
    "int": (np.int32, -20, 20),
    "short": (np.int16, -20, 20),
    "uchar": (np.uint8, 0, 15),
}


def wrap(i, n):
    return i % n


def mirror(i, n):
    r = i % (2 * n)
    return r if r < n else 2 * n - 1 - r


class Array:
    def __init__(self, rng, name, dims):
        self.name = name
        self.type = rng.choice(list(TYPES))
        self.dims = dims
        self.bc = rng.choice(["constant", "constant", "clamped", "periodic", "mirror", "none"])
        lo = TYPES[self.type][1]
        self.value = rng.choice([0, 1, 3] + ([-2] if lo < 0 else []))
        self.halo = 0

    def pragma(self):
        if self.bc == "constant":
            return f"{self.name}:constant({self.value})" if self.value else f"{self.name}:constant"
        return f"{self.name}:{self.bc}"

    def read(self, data, p):
        """The element at point p (x, y[, z]) under the boundary condition."""
        shape = data.shape[::-1]  # x fastest
        h = self.halo
        q = []
        for d, c in enumerate(p):
            n = shape[d] - 2 * h
            if self.bc == "constant" and not 0 <= c < n:
                return self.value
            if self.bc == "clamped":
                c = min(max(c, 0), n - 1)
            elif self.bc == "periodic":
                c = wrap(c, n)
            elif self.bc == "mirror":
                c = mirror(c, n)
            q.append(c + h)
        return data[tuple(reversed(q))].item()


class Alias:
    """`st1 = st + off`: a view of the stacked input st (5 grids of the kernel's extents
    along y (Image) or z (Block), boundary none), off = 2 grids further on, indexed with
    st's extents; reads past its last extent run on into the neighbouring grids."""

    def __init__(self, rng, dims):
        self.name = "st1"
        self.type = rng.choice(list(TYPES))
        self.dims = dims

    @staticmethod
    def offset(st):
        return 2 * st.size // 5

    def read(self, st, p):
        ext = st.shape[::-1]  # x fastest: W, 5H (2D) or W, H, 5D (3D)
        lin = 0
        for d in reversed(range(self.dims)):
            lin = lin * ext[d] + p[d]
        return st.reshape(-1)[self.offset(st) + lin].item()


class Kernel:
    """A random kernel: its text (source()) and its oracle (expected())."""

    def __init__(self, rng, name):
        self.rng = rng
        self.name = name
        self.dims = rng.choice([2, 3])
        self.out_type = rng.choice(["double", "int"])
        self.inputs = [Array(rng, f"in{i}", self.dims) for i in range(rng.randint(1, 3))]
        self.scalar = rng.randint(-3, 3)
        # a fixed-size array parameter, read at constant indices and by the loop's i
        self.warr = [rng.randint(-3, 3) for _ in range(5)] if rng.random() < 0.35 else None
        # an offset alias into a stacked input
        self.alias = Alias(rng, self.dims) if rng.random() < 0.3 else None
        self.locals = []
        self.lines = []
        self.helper = rng.random() < 0.3
        self.body = self._body()
        for a in self.inputs:
            if a.bc == "none":
                a.halo = max([a.halo] + [abs(o) for o in self.offsets.get(a.name, [0])])

    # ---- expressions: (text, evaluator(env) -> value) ----
    def _offset(self):
        return tuple(self.rng.randint(-2, 2) for _ in range(self.dims))

    def _read(self, var_offset=None):
        a = self.rng.choice(self.inputs + ([self.alias] if self.alias else []))
        off = list(self._offset())
        if a is self.alias:
            # past the alias's grid only along the stack (the base's last extent covers
            # 5 grids): elsewhere that would leave the base's storage, which boundary
            # none leaves undefined (docs/language.md)
            off = [0] * (self.dims - 1) + off[-1:]
            var_offset = None
        text_ix = []
        for d, o in enumerate(off):
            c = "xyz"[d]
            base = f"id{c}"
            if d == 0 and var_offset is not None:
                text_ix.append(f"{base} + {var_offset}" + (f" + {o}" if o > 0 else f" - {-o}" if o < 0 else ""))
            else:
                text_ix.append(base + (f" + {o}" if o > 0 else f" - {-o}" if o < 0 else ""))
        self.offsets.setdefault(a.name, [])
        self.offsets[a.name] += off
        if var_offset is not None:
            self.offsets[a.name] += [off[0] + v for v in (-2, 2)]
        text = a.name + "".join(f"[{t}]" for t in text_ix)

        def ev(env, a=a, off=off, var=var_offset):
            p = [env["p"][d] + off[d] + (env[var] if (d == 0 and var) else 0) for d in range(self.dims)]
            return a.read(env["data"][a.name], p)
        return text, ev

    def _leaf(self, var=None):
        r = self.rng.random()
        if r < 0.55:
            return self._read(var)
        if r < 0.7:
            c = self.rng.randint(-4, 4)
            return (f"({c})" if c < 0 else str(c)), (lambda env, c=c: c)
        if r < 0.8:
            return "s", (lambda env: env["s"])
        if self.warr and r < 0.9:
            if var is not None and self.rng.random() < 0.5:  # i is in [-2, 2]
                return f"w[{var} + 2]", (lambda env, var=var: env["w"][env[var] + 2])
            c = self.rng.randint(0, 4)
            return f"w[{c}]", (lambda env, c=c: env["w"][c])
        if self.locals:
            v = self.rng.choice(self.locals)
            return v, (lambda env, v=v: env[v])
        return "idx", (lambda env: env["p"][0])

    def _expr(self, depth, var=None):
        if depth <= 0 or self.rng.random() < 0.3:
            return self._leaf(var)
        r = self.rng.random()
        if r < 0.75:
            op = self.rng.choice(["+", "-", "+", "*"])
            if op == "*":  # keep values small: a product of a leaf and a small constant
                lt, le = self._leaf(var)
                c = self.rng.randint(-3, 3)
                return f"({lt} * {c if c >= 0 else f'({c})'})", (lambda env, le=le, c=c: le(env) * c)
            lt, le = self._expr(depth - 1, var)
            rt, re_ = self._expr(depth - 1, var)
            if op == "+":
                return f"({lt} + {rt})", (lambda env, le=le, re_=re_: le(env) + re_(env))
            return f"({lt} - {rt})", (lambda env, le=le, re_=re_: le(env) - re_(env))
        ct, ce = self._leaf(var)
        k = self.rng.randint(-2, 6)
        at, ae = self._expr(depth - 1, var)
        bt, be = self._expr(depth - 1, var)
        return (f"({ct} > {k} ? {at} : {bt})",
                lambda env, ce=ce, k=k, ae=ae, be=be: ae(env) if ce(env) > k else be(env))

    # ---- statements: text lines and an evaluator over env ----
    def _body(self):
        rng = self.rng
        self.offsets = {}
        steps = []
        lines = []
        acc_t = "double" if self.out_type == "double" else "int"
        if self.alias:
            g = "Block" if self.dims == 3 else "Image"
            lines.append(f"    {g}<{self.alias.type}> st1 = st + off;")
        lines.append(f"    {acc_t} acc = 0;")
        steps.append(lambda env: env.__setitem__("acc", 0))
        for i in range(rng.randint(1, 3)):
            v = f"t{i}"
            t, e = self._expr(2)
            lines.append(f"    {acc_t} {v} = {t};")
            steps.append(lambda env, v=v, e=e: env.__setitem__(v, e(env)))
            self.locals.append(v)
        if rng.random() < 0.6:
            lo = rng.randint(-2, 0)
            hi = rng.randint(0, 2)
            t, e = self._expr(1, var="i")
            label = "taps: " if rng.random() < 0.5 else ""
            lines.append(f"    {label}for (int i = {lo}; i <= {hi}; i++)")
            lines.append(f"        acc += {t};")

            def loop(env, lo=lo, hi=hi, e=e):
                for i in range(lo, hi + 1):
                    env["i"] = i
                    env["acc"] += e(env)
            steps.append(loop)
        if rng.random() < 0.5:
            ct, ce = self._leaf()
            at, ae = self._expr(1)
            bt, be = self._expr(1)
            lines.append(f"    if ({ct} > 2)")
            lines.append(f"        acc += {at};")
            lines.append("    else")
            lines.append(f"        acc -= {bt};")
            steps.append(lambda env, ce=ce, ae=ae, be=be:
                         env.__setitem__("acc", env["acc"] + ae(env) if ce(env) > 2 else env["acc"] - be(env)))
        sum_t = " + ".join(self.locals)
        if self.helper:
            lines.append(f"    {self.out_type} r = twice_{acc_t}(acc) + {sum_t};")
            steps.append(lambda env: env.__setitem__("r", 2 * env["acc"] + sum(env[v] for v in self.locals)))
        else:
            lines.append(f"    {self.out_type} r = acc + {sum_t};")
            steps.append(lambda env: env.__setitem__("r", env["acc"] + sum(env[v] for v in self.locals)))
        self.steps = steps
        return lines

    def source(self):
        arrays = [a for a in self.inputs if a.halo]
        g = "Block" if self.dims == 3 else "Image"
        out = []
        out.append(f"// random kernel {self.name} (tests/smith/smith.py)")
        out.append("#pragma imcl grid(out)")
        if arrays:
            out.append("#pragma imcl halo(" + ", ".join(f"{a.name}:{a.halo}" for a in arrays) + ")")
        bcs = [a.pragma() for a in self.inputs] + (["st:none"] if self.alias else [])
        out.append("#pragma imcl boundary_cond(" + ", ".join(bcs) + ")")
        params = ", ".join(f"{g}<{a.type}> {a.name}" for a in self.inputs)
        if self.alias:
            params += f", {g}<{self.alias.type}> st, int off"
        warr = ", int w[5]" if self.warr else ""
        out.append(f"void {self.name}({params}, {g}<{self.out_type}> out, int s{warr})")
        out.append("{")
        out += self.body
        ix = "".join(f"[id{c}]" for c in "xyz"[: self.dims])
        out.append(f"    out{ix} = r;")
        out.append("}")
        return "\n".join(out) + "\n"

    def expected(self, data, size, s):
        out = np.zeros(tuple(reversed(size)), dtype=np.float64)
        for p in np.ndindex(*reversed(size)):
            pt = tuple(reversed(p))
            env = {"p": pt, "data": data, "s": s, "w": self.warr}
            for st in self.steps:
                st(env)
            out[p] = env["r"]
        return out


def file_source(kernels):
    """The file: the helpers its kernels call (each once), then the kernels."""
    out = []
    for t in sorted({"double" if k.out_type == "double" else "int" for k in kernels if k.helper}):
        out.append(f"{t} twice_{t}({t} v) {{ return v + v; }}")
    return "\n".join(out + [k.source() for k in kernels])


def run_cuda(args, kern, path, size, cfg, values, kc, work):
    """The CUDA wrapper of one configuration, built by nvcc-cpu as a shared library and
    called in-process like the C reference; returns the output array."""
    os.makedirs(work, exist_ok=True)
    with open(os.path.join(work, "params.json"), "w") as f:
        json.dump(cfg, f)
    dims = "x".join(str(n) for n in size)
    p = subprocess.run([args.imcl, "-b", "cuda", "--prefix", "cuda_", "-k", kern.name, "-t",
                        os.path.join(work, "params.json"), "--size", dims, "-o", work, path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"imcl -b cuda refused it: {p.stderr.strip()}")
    lib = os.path.join(work, f"lib{kern.name}.so")
    p = subprocess.run([args.nvcc_cpu, "-O1", "-Xcompiler", "-fPIC", "-shared", "-o", lib,
                        os.path.join(work, kern.name + ".cu")], capture_output=True, text=True)
    if p.returncode != 0:
        raise RuntimeError(f"nvcc-cpu cannot build it: {p.stderr.strip()[-800:]}")
    dll = ctypes.CDLL(lib)
    fn = getattr(dll, "cuda_" + kern.name)
    fn.restype = ctypes.c_int
    strerror = getattr(dll, f"cuda_{kern.name}_strerror")
    strerror.restype = ctypes.c_char_p
    call, keep, out = [], [], None
    for a, v in zip(kc.args, kc.arguments(**values)):
        if a.kind == "W/H/D":
            continue
        if a.kind in ("grid", "array"):
            arr = np.array(v, dtype=a.dtype, order="C", copy=True)
            keep.append(arr)
            call.append(arr.ctypes.data_as(ctypes.POINTER(a.ctype)))
            if a.name == "out":
                out = arr
        else:
            call.append(a.ctype(v.item() if hasattr(v, "item") else v))
    rc = fn(*call)
    if rc != 0:
        raise RuntimeError(f"cuda_{kern.name} returned {rc}: {strerror(rc).decode()}")
    return out


def draw_configs(k, n, rng, default_first=True):
    """n configurations of the space Kernel Tuner sees, the defaults first."""
    import imcl
    out, seen = [], set()
    default = {p: k.defaults[p] for p in k.tune_params}
    if default_first and imcl.holds(k.restriction_strings, default):
        out.append(default)
        seen.add(json.dumps(default, sort_keys=True))
    tries = 0
    while len(out) < n and tries < 5000:
        tries += 1
        cfg = {p: rng.choice(v) for p, v in k.tune_params.items()}
        key = json.dumps(cfg, sort_keys=True)
        if key in seen or not imcl.holds(k.restriction_strings, cfg):
            continue
        seen.add(key)
        out.append(cfg)
    return out


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--imcl", required=True)
    ap.add_argument("--seed", type=int, default=1)
    ap.add_argument("--kernels", type=int, default=20, help="files (of one or two kernels each)")
    ap.add_argument("--configs", type=int, default=10, help="OpenCL configurations per kernel")
    ap.add_argument("--cuda", type=int, default=0, help="CUDA configurations per kernel (nvcc-cpu)")
    ap.add_argument("--nvcc-cpu", default=os.path.join(os.path.dirname(os.path.realpath(__file__)), "..", "..",
                                                       "scripts", "nvcc-cpu"))
    ap.add_argument("--work", default="/tmp/imcl-smith")
    args = ap.parse_args()
    import contextlib
    import io
    import imcl
    import kernel_tuner
    os.makedirs(args.work, exist_ok=True)
    runs = mismatches = failures = nkernels = 0
    per = {"c": 0, "opencl": 0, "cuda": 0}
    t0 = time.monotonic()
    for i in range(args.kernels):
        seed = args.seed + i  # --seed S --kernels 1 makes file S again
        rng = random.Random(seed)
        kernels = [Kernel(rng, f"smith{i}")]
        if rng.random() < 0.3:
            kernels.append(Kernel(rng, f"smith{i}b"))
        path = os.path.join(args.work, f"smith_{seed}.imcl")
        with open(path, "w") as f:
            f.write(file_source(kernels))
        for kern in kernels:
            nkernels += 1
            size = [rng.randint(3, 21), rng.randint(2, 13)] + ([rng.randint(2, 7)] if kern.dims == 3 else [])
            where = f"seed {seed} ({path}), kernel {kern.name}, size {size}"
            try:
                k = imcl.Kernel(path, backend="opencl", size=size, kernel=kern.name, imcl=args.imcl)
            except Exception as e:  # a valid kernel imcl refuses is a failure too
                print(f"FAIL {where}: imcl refused the kernel: {e}")
                failures += 1
                continue
            data, values = {}, {}
            drng = np.random.default_rng(seed)
            for a in kern.inputs:
                dt, lo, hi = TYPES[a.type]
                shape = tuple(n + 2 * a.halo for n in reversed(size))
                data[a.name] = drng.integers(lo, hi + 1, size=shape).astype(dt)
                values[a.name] = data[a.name]
            odt = np.float64 if kern.out_type == "double" else np.int32
            values["out"] = np.full(tuple(reversed(size)), -7, dtype=odt)
            values["s"] = np.int32(kern.scalar)
            if kern.warr:
                values["w"] = np.array(kern.warr, dtype=np.int32)
            if kern.alias:
                dt, lo, hi = TYPES[kern.alias.type]
                shape = list(reversed(size))
                shape[0] *= 5
                data["st1"] = values["st"] = drng.integers(lo, hi + 1, size=tuple(shape)).astype(dt)
                values["off"] = np.int32(kern.alias.offset(values["st"]))
            want = kern.expected(data, size, kern.scalar)
            arguments = k.arguments(**values)
            out_i = [a.name for a in k.args].index("out")

            def check(got, what, cfg=None):
                nonlocal mismatches, runs
                runs += 1
                got = np.asarray(got).reshape(want.shape).astype(np.float64)
                bad = got != want
                if bad.any():
                    mismatches += 1
                    p = np.unravel_index(int(np.argmax(bad)), want.shape)
                    print(f"MISMATCH {where}, {what}{' ' + json.dumps(cfg, sort_keys=True) if cfg else ''}: "
                          f"{int(bad.sum())} of {want.size} points differ, first at (x, y[, z]) = "
                          f"{tuple(int(j) for j in reversed(p))}: {got[p]} instead of {want[p]}")
                    return False
                return True
            try:
                check(k.reference(arguments)[out_i], "C reference")
                per["c"] += 1
            except Exception as e:
                print(f"FAIL {where}: C reference: {e}")
                failures += 1
                continue
            crng = random.Random(seed)
            for cfg in draw_configs(k, args.configs, crng):
                log = io.StringIO()
                try:
                    with contextlib.redirect_stdout(log):
                        res = kernel_tuner.run_kernel(k.name, k.source(cfg), k.problem_size, arguments, cfg,
                                                      grid_div_x=k.grid_div_x, grid_div_y=k.grid_div_y,
                                                      grid_div_z=k.grid_div_z, lang=k.lang, defines={},
                                                      quiet=True)
                except Exception as e:
                    print(f"FAIL {where}, opencl {json.dumps(cfg, sort_keys=True)}: {e}\n{log.getvalue()[-500:]}")
                    failures += 1
                    continue
                check(res[out_i], "opencl", cfg)
                per["opencl"] += 1
            if args.cuda <= 0:
                continue
            try:
                kc = imcl.Kernel(path, backend="cuda", size=size, kernel=kern.name, imcl=args.imcl)
            except Exception as e:
                print(f"FAIL {where}: imcl refused the kernel for CUDA: {e}")
                failures += 1
                continue
            for j, cfg in enumerate(draw_configs(kc, args.cuda, random.Random(-seed), args.cuda > 1)):
                try:
                    got = run_cuda(args, kern, path, size, cfg, values, kc,
                                   os.path.join(args.work, f"cuda_{seed}_{kern.name}_{j}"))
                except Exception as e:
                    print(f"FAIL {where}, cuda {json.dumps(cfg, sort_keys=True)}: {e}")
                    failures += 1
                    continue
                check(got, "cuda (nvcc-cpu)", cfg)
                per["cuda"] += 1
    print(f"-- {per['c']} C reference runs, {per['opencl']} OpenCL runs on PoCL, {per['cuda']} CUDA runs "
          f"(nvcc-cpu), {time.monotonic() - t0:.0f} s")
    print(f"{runs} runs ({nkernels} kernels in {args.kernels} files), {mismatches} mismatches, {failures} failures")
    return 1 if mismatches or failures else 0


if __name__ == "__main__":
    sys.exit(main())
