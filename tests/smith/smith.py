#!/usr/bin/env python3
"""Random differential testing of imcl (docs/testing.md, "Random kernels"): random
valid ImageCL kernels, each with an oracle of its own, run in configurations drawn
from their dumped spaces.

Every kernel is built as a tree of statements and expressions (below), which prints
as ImageCL and runs, point by point, in an interpreter of its own with C's rules (the
oracle: it never looks at imcl's output). The kernels hold what real kernels hold and
what the project's earlier generator did not: locals declared before a loop and read
after it, loops whose only effect is dead, values dead on some paths and live on
others, dead values feeding only dead values, break / continue / return inside loops
and conditionals, early returns, compound assignments to outputs (+=, -=), writes at
offsets (a shift or a mirror, one per output, so that no two points write one
element) and several writes per point, reads of the element a point wrote, several
outputs, grid_size grids from expressions of scalars with arrays of other extents,
helpers with control flow of their own, fixed-size local arrays, shadowing in nested
scopes, scalar parameters assigned in the body, an offset alias into a stacked
input, a fixed-size array parameter, every boundary condition and halos. Values are
small integers in every type (a kernel whose values could grow past 2^20 is drawn
again), so every backend must match the oracle exactly, whatever its evaluation
order or fma contraction.

Each kernel runs on a grid that is no multiple of a block, with random inputs and
random initial outputs: through imcl's C reference (in-process, the Python package)
and through the one-shot wrappers of OpenCL (on PoCL) and CUDA (built by nvcc-cpu:
CUDA run on the CPU) in configurations drawn at random from the kernel's dumped space
for that backend, every placement included (the restrictions holding; the defaults
first), and for OpenCL without any parameter too where the kernel has a CPU variant
(what a run on PoCL gets without -t: the row walk, docs/tuning.md "Defaults"). Every array the kernel writes is compared with the oracle, everywhere (the
elements it must leave alone too). A refused configuration of the space, an internal
error, a build failure and a mismatch are all failures; each prints the seed, the
kernel file, the configuration and the command that replays it. A kernel with the
iterate pragma (about 3 in 10) also runs PK_plan_iterate of 2 to 4 steps through the
plans of the C reference (every time_tile of its space), OpenCL and CUDA, against its
oracle of that many steps (run_iterate). With --mpi R, every kernel imcl --mpi accepts
also runs one launch of its distributed plan (C reference) on a random process grid of 2
to R ranks, against the same oracle (run_mpi); 4 kernels in 10 are then drawn without
what --mpi refuses, so that many do.

    smith.py --imcl build/imcl --seed S|commit --kernels N --configs C [--cuda K] [--mpi R] [--jobs J]

`--seed commit` derives the seed from the checkout's commit, so that each commit
meets kernels no earlier run saw. A coverage table (feature, kernels that have it)
follows the runs; a feature in fewer than --min-coverage M kernels gets more files (the
next seeds, up to half as many again), and fails the run if it still is. The last line
is "R runs (K kernels in N files), M mismatches, F failures"; the exit status is 1 on
any mismatch, failure or coverage shortfall.
"""

import argparse
import concurrent.futures
import contextlib
import json
import os
import random
import shutil
import subprocess
import sys
import time

import numpy as np

HERE = os.path.dirname(os.path.realpath(__file__))
sys.path.insert(0, os.path.join(HERE, "..", "lib"))
from device_run import PlanIterate, Wrapper  # noqa: E402

TYPES = {  # element type of an input: (numpy dtype, smallest value, largest value)
    "float": (np.float32, -8, 8),
    "double": (np.float64, -8, 8),
    "int": (np.int32, -20, 20),
    "short": (np.int16, -20, 20),
    "uchar": (np.uint8, 0, 15),
}
OUT_TYPES = {"double": np.float64, "float": np.float32, "int": np.int32}
LIMIT = 1 << 20                 # |value| past this: the kernel is drawn again

FEATURES = ["loop-var-after", "dead-loop", "dead-on-path", "dead-chain", "break", "continue",
            "return-in-loop", "return-in-if", "out-compound", "write-offset", "multi-write",
            "multi-output", "readback", "grid-size", "helper", "local-array", "shadowing",
            "scalar-assigned", "while-do", "alias", "halo", "iterate", "taps"]


class TooBig(Exception):
    pass


def cdiv(a, b):
    q = abs(a) // abs(b)
    return q if (a >= 0) == (b > 0) else -q


def checked(v):
    if abs(v) > LIMIT:
        raise TooBig()
    return v


def convert(t, v):
    """v as a value of ImageCL type t (v is integer-valued)."""
    if t in ("int", "short"):
        return checked(int(v))
    if t == "uchar":
        return int(v) % 256
    return checked(float(v))


def common(a, b):
    if "double" in (a, b):
        return "double"
    if "float" in (a, b):
        return "float"
    return "int"


def mirror(i, n):
    r = i % (2 * n)
    return r if r < n else 2 * n - 1 - r


# ---- the run-time state of one point ------------------------------------------------

class Env:
    def __init__(self, kern, data, outs, scal, p):
        self.k = kern
        self.data = data        # input name -> numpy array (halo included)
        self.outs = outs        # output name -> numpy array, written in place
        self.scal = dict(scal)  # scalars (a copy: the body may assign them)
        self.p = p              # the point (x, y[, z])
        self.scopes = [{}]

    def get(self, name):
        for s in reversed(self.scopes):
            if name in s:
                return s[name]
        return self.scal[name]

    def set(self, name, v):
        for s in reversed(self.scopes):
            if name in s:
                s[name] = v
                return
        self.scal[name] = v


class Array:
    """An Image or Block: an input with a boundary condition, or an output."""

    def __init__(self, rng, name, dims, out_type=None):
        self.name = name
        self.dims = dims
        self.output = out_type is not None
        self.type = out_type or rng.choice(list(TYPES))
        self.bc = "constant" if self.output else rng.choice(
            ["constant", "constant", "clamped", "periodic", "mirror", "none"])
        lo = -20 if self.output else TYPES[self.type][1]
        self.value = 0 if self.output else rng.choice([0, 1, 3] + ([-2] if lo < 0 else []))
        self.halo = 0
        self.extents = None     # set per run
        self.offset = [0] * dims  # outputs: where each point writes
        self.mirror = -1          # outputs: the dimension written mirrored, or -1

    def pragma(self):
        if self.bc == "constant":
            return f"{self.name}:constant({self.value})" if self.value else f"{self.name}:constant"
        return f"{self.name}:{self.bc}"

    def read(self, arr, p):
        """The element at point p under the boundary condition (storage -halo..n+halo-1)."""
        shape = arr.shape[::-1]
        h = self.halo
        q = []
        for d, c in enumerate(p):
            n = shape[d] - 2 * h
            if self.bc == "constant" and not -h <= c < n + h:
                return self.value
            if self.bc == "clamped":
                c = min(max(c, -h), n + h - 1)
            elif self.bc == "periodic":
                c = (c + h) % (n + 2 * h) - h
            elif self.bc == "mirror":
                c = mirror(c + h, n + 2 * h) - h
            q.append(c + h)
        return arr[tuple(reversed(q))].item()

    def target(self, env):
        """The storage index this point writes (outputs), or None when the element does
        not exist (the write is dropped)."""
        arr = env.outs[self.name]
        shape = arr.shape[::-1]
        q = []
        for d in range(self.dims):
            c = env.p[d] + self.offset[d]
            if d == self.mirror:
                c = env.k.grid[d] - 1 - env.p[d]
            n = shape[d] - 2 * self.halo
            if not -self.halo <= c < n + self.halo:
                return None
            q.append(c + self.halo)
        return tuple(reversed(q))

    def index_text(self):
        out = []
        for d in range(self.dims):
            c = "xyz"[d]
            if d == self.mirror:
                out.append(f"[{'WHD'[d]} - 1 - id{c}]")
            else:
                out.append(f"[id{c}{fmt_off(self.offset[d])}]")
        return "".join(out)


def fmt_off(o):
    return f" + {o}" if o > 0 else f" - {-o}" if o < 0 else ""


def lit(c):
    return f"({c})" if c < 0 else str(c)


# ---- expressions: (text, evaluator(env) -> value, type) -----------------------------

class Expr:
    def __init__(self, text, fn, t):
        self.text, self.fn, self.type = text, fn, t


# ---- statements: lines(indent) and run(env) -> None, "break", "continue", ("return", v)

class Stmt:
    def lines(self, ind):
        raise NotImplementedError

    def run(self, env):
        raise NotImplementedError


class Decl(Stmt):
    def __init__(self, t, name, init):
        self.t, self.name, self.init = t, name, init

    def lines(self, ind):
        if self.init is None:
            return [f"{ind}{self.t} {self.name};"]
        return [f"{ind}{self.t} {self.name} = {self.init.text};"]

    def run(self, env):
        env.scopes[-1][self.name] = convert(self.t, self.init.fn(env)) if self.init else None


class ArrDecl(Stmt):
    def __init__(self, t, name, n):
        self.t, self.name, self.n = t, name, n

    def lines(self, ind):
        return [f"{ind}{self.t} {self.name}[{self.n}];"]

    def run(self, env):
        env.scopes[-1][self.name] = [None] * self.n


class ArrSet(Stmt):
    def __init__(self, t, name, index, value):
        self.t, self.name, self.index, self.value = t, name, index, value

    def lines(self, ind):
        return [f"{ind}{self.name}[{self.index.text}] = {self.value.text};"]

    def run(self, env):
        env.get(self.name)[self.index.fn(env)] = convert(self.t, self.value.fn(env))


def apply(op, old, v):
    """The value `x op v` stores (=, +=, -=); old() reads x."""
    return v if op == "=" else old() + v if op == "+=" else old() - v


class Assign(Stmt):
    def __init__(self, t, name, op, value):
        self.t, self.name, self.op, self.value = t, name, op, value

    def lines(self, ind):
        return [f"{ind}{self.name} {self.op} {self.value.text};"]

    def run(self, env):
        env.set(self.name, convert(self.t, apply(self.op, lambda: env.get(self.name), self.value.fn(env))))


class OutWrite(Stmt):
    def __init__(self, out, op, value):
        self.out, self.op, self.value = out, op, value

    def lines(self, ind):
        return [f"{ind}{self.out.name}{self.out.index_text()} {self.op} {self.value.text};"]

    def run(self, env):
        q = self.out.target(env)
        if q is None:
            return          # the element does not exist: the statement does not run
        arr = env.outs[self.out.name]
        arr[q] = convert(self.out.type, apply(self.op, lambda: arr[q].item(), self.value.fn(env)))


class Jump(Stmt):
    def __init__(self, what):
        self.what = what

    def lines(self, ind):
        return [f"{ind}{self.what};"]

    def run(self, env):
        return ("return", None) if self.what == "return" else self.what


class Return(Stmt):
    """A helper's return with a value."""

    def __init__(self, t, value):
        self.t, self.value = t, value

    def lines(self, ind):
        return [f"{ind}return {self.value.text};"]

    def run(self, env):
        return ("return", convert(self.t, self.value.fn(env)))


def run_list(stmts, env):
    for s in stmts:
        r = s.run(env)
        if r is not None:
            return r
    return None


def run_scoped(stmts, env):
    """stmts in a scope of their own (a block, a branch, a loop's body)."""
    env.scopes.append({})
    try:
        return run_list(stmts, env)
    finally:
        env.scopes.pop()


def loop_exit(r):
    """Whether a loop ends after a body that ended with r (break or return)."""
    return r == "break" or isinstance(r, tuple)


def block_lines(stmts, ind):
    return [line for s in stmts for line in s.lines(ind)]


class Block(Stmt):
    def __init__(self, stmts):
        self.stmts = stmts

    def lines(self, ind):
        return [f"{ind}{{"] + block_lines(self.stmts, ind + "    ") + [f"{ind}}}"]

    def run(self, env):
        return run_scoped(self.stmts, env)


class If(Stmt):
    def __init__(self, cond, then, els=None):
        self.cond, self.then, self.els = cond, then, els

    def lines(self, ind):
        out = [f"{ind}if ({self.cond.text}) {{"] + block_lines(self.then, ind + "    ")
        if self.els is not None:
            out += [f"{ind}}} else {{"] + block_lines(self.els, ind + "    ")
        return out + [f"{ind}}}"]

    def run(self, env):
        branch = self.then if self.cond.fn(env) else self.els
        return None if branch is None else run_scoped(branch, env)


class For(Stmt):
    """for ([int ]v = lo; v <= hi; v++) { body }: declared in the loop, or before it."""

    def __init__(self, var, lo, hi, body, declare=True, label=None):
        self.var, self.lo, self.hi, self.body, self.declare, self.label = var, lo, hi, body, declare, label

    def lines(self, ind):
        head = f"{'int ' if self.declare else ''}{self.var} = {self.lo}; {self.var} <= {self.hi}; {self.var}++"
        label = f"{self.label}: " if self.label else ""
        return [f"{ind}{label}for ({head}) {{"] + block_lines(self.body, ind + "    ") + [f"{ind}}}"]

    def run(self, env):
        env.scopes.append({})
        try:
            if self.declare:
                env.scopes[-1][self.var] = self.lo
            else:
                env.set(self.var, self.lo)
            while env.get(self.var) <= self.hi:
                r = run_scoped(self.body, env)
                if loop_exit(r):
                    return r if r != "break" else None
                env.set(self.var, env.get(self.var) + 1)
            return None
        finally:
            env.scopes.pop()


class While(Stmt):
    """while (c < hi) { c++; body } or do { c++; body } while (c < hi): the counter, a
    local declared before, moves first, so that continue cannot stall the loop."""

    def __init__(self, var, hi, body, do):
        self.var, self.hi, self.body, self.do = var, hi, body, do

    def lines(self, ind):
        inner = [f"{ind}    {self.var}++;"] + block_lines(self.body, ind + "    ")
        if self.do:
            return [f"{ind}do {{"] + inner + [f"{ind}}} while ({self.var} < {self.hi});"]
        return [f"{ind}while ({self.var} < {self.hi}) {{"] + inner + [f"{ind}}}"]

    def run(self, env):
        first = True
        while (first and self.do) or env.get(self.var) < self.hi:
            first = False
            env.set(self.var, env.get(self.var) + 1)
            r = run_scoped(self.body, env)
            if loop_exit(r):
                return r if r != "break" else None
        return None


# ---- the generator ---------------------------------------------------------------------

class Helper:
    """A helper function of two parameters with control flow of its own."""

    def __init__(self, gen, name):
        rng = gen.rng
        self.name = name
        self.ret = rng.choice(["int", "double"])
        self.ptypes = [rng.choice(["int", "double", "float"]) for _ in range(2)]
        self.params = ["p0", "p1"]
        g = Gen(rng, None)
        g.scopes = [dict(zip(self.params, self.ptypes))]
        body = [Decl(self.ret, "h", g.expr(1))]
        g.declare("h", self.ret)
        if rng.random() < 0.7:
            body.append(If(g.cond(), [Return(self.ret, g.expr(1))]))
        if rng.random() < 0.6:
            g.push()
            g.declare("j", "int")
            loop = [Assign(self.ret, "h", rng.choice(["+=", "-="]), g.expr(1))]
            g.pop()
            body.append(For("j", 0, rng.randint(0, 2), loop))
        body.append(Return(self.ret, Expr("h", lambda env: env.get("h"), self.ret)))
        self.body = body

    def source(self):
        params = ", ".join(f"{t} {n}" for t, n in zip(self.ptypes, self.params))
        return "\n".join([f"{self.ret} {self.name}({params})", "{"] + block_lines(self.body, "    ") + ["}"])

    def call(self, env, args):
        inner = Env(env.k, None, None, {}, env.p)
        inner.scopes = [{n: convert(t, a) for n, t, a in zip(self.params, self.ptypes, args)}]
        r = run_list(self.body, inner)
        return r[1]


class Gen:
    """Generation state: what is in scope, the loops around, the features used."""

    def __init__(self, rng, kern):
        self.rng = rng
        self.k = kern
        self.scopes = [{}]
        self.loop_vars = []     # (name, lo, hi) of the for loops around
        self.loops = 0          # loops around (any kind)
        self.taps = False       # inside a nest of taps (no jumps: it stays a nest of taps)
        self.names = 0

    def fresh(self, prefix):
        self.names += 1
        return f"{prefix}{self.names}"

    def push(self):
        self.scopes.append({})

    def pop(self):
        self.scopes.pop()

    def declare(self, name, t):
        self.scopes[-1][name] = t

    def visible(self):
        seen = {}
        for s in self.scopes:
            seen.update(s)
        return [(n, t) for n, t in seen.items() if t not in ("array", "hidden")]

    def feature(self, f):
        if self.k:
            self.k.features.add(f)

    # expressions
    def leaf(self):
        rng, k = self.rng, self.k
        r = rng.random()
        if k and r < 0.45:
            return self.read()
        if r < 0.6:
            c = rng.randint(-4, 4)
            return Expr(lit(c), lambda env, c=c: c, "int")
        if k and r < 0.66 and k.warr:
            if self.loop_vars and rng.random() < 0.5:
                v, lo, hi = rng.choice(self.loop_vars)
                shift = -lo
                if hi + shift <= 4:
                    return Expr(f"w[{v}{fmt_off(shift)}]", lambda env, v=v, s=shift: env.k.warr[env.get(v) + s],
                                "int")
            c = rng.randint(0, 4)
            return Expr(f"w[{c}]", lambda env, c=c: env.k.warr[c], "int")
        if k and r < 0.7:
            d = rng.randrange(k.dims)
            name = "xyz"[d]
            return Expr(f"id{name}", lambda env, d=d: env.p[d], "int")
        if k and r < 0.73:
            d = rng.randrange(k.dims)
            return Expr("WHD"[d], lambda env, d=d: env.k.grid[d], "int")
        if k and r < 0.81 and k.readbacks:
            out = rng.choice(k.readbacks)
            self.feature("readback")
            return Expr(out.name + out.index_text(), lambda env, o=out: env.k.readback(env, o), out.type)
        names = self.visible()
        if names:
            n, t = rng.choice(names)
            return Expr(n, lambda env, n=n: env.get(n), "int" if t in ("int", "short", "uchar") else t)
        return Expr("1", lambda env: 1, "int")

    def read(self):
        rng, k = self.rng, self.k
        a = rng.choice(k.inputs + ([k.alias] if k.alias else []))
        off = [rng.randint(-2, 2) for _ in range(k.dims)]
        var = None
        if a is k.alias:
            off = [0] * (k.dims - 1) + off[-1:]
        elif self.loop_vars and rng.random() < 0.4:
            var = rng.choice(self.loop_vars)
        ix = []
        for d, o in enumerate(off):
            base = f"id{'xyz'[d]}"
            if d == 0 and var:
                ix.append(f"{base} + {var[0]}{fmt_off(o)}")
            else:
                ix.append(base + fmt_off(o))
        if a is not k.alias:
            k.note_reach(a, off, var)
        text = a.name + "".join(f"[{t}]" for t in ix)
        t = "int" if a.type in ("int", "short", "uchar") else a.type

        def ev(env, a=a, off=off, var=var):
            p = [env.p[d] + off[d] + (env.get(var[0]) if d == 0 and var else 0) for d in range(env.k.dims)]
            if a is env.k.alias:
                return env.k.alias_read(env, p)
            return a.read(env.data[a.name], p)
        return Expr(text, ev, t)

    def expr(self, depth):
        rng = self.rng
        if depth <= 0 or rng.random() < 0.25:
            return self.leaf()
        r = rng.random()
        if r < 0.5:
            a, b = self.expr(depth - 1), self.expr(depth - 1)
            op = rng.choice(["+", "-"])
            f = (lambda env, a=a, b=b: a.fn(env) + b.fn(env)) if op == "+" else \
                (lambda env, a=a, b=b: a.fn(env) - b.fn(env))
            return Expr(f"({a.text} {op} {b.text})", f, common(a.type, b.type))
        if r < 0.62:
            a, c = self.leaf(), rng.randint(-3, 3)
            return Expr(f"({a.text} * {lit(c)})", lambda env, a=a, c=c: a.fn(env) * c, a.type)
        if r < 0.72:
            c, a, b = self.cond(), self.expr(depth - 1), self.expr(depth - 1)
            t = common(a.type, b.type)
            return Expr(f"({c.text} ? {a.text} : {b.text})",
                        lambda env, c=c, a=a, b=b, t=t: convert(t, a.fn(env) if c.fn(env) else b.fn(env)), t)
        if r < 0.8:
            a, b = self.expr(depth - 1), self.expr(depth - 1)
            fn = rng.choice(["min", "max"])
            pick = min if fn == "min" else max
            t = common(a.type, b.type)
            return Expr(f"{fn}({a.text}, {b.text})",
                        lambda env, a=a, b=b, pick=pick, t=t: convert(t, pick(a.fn(env), b.fn(env))), t)
        if r < 0.88:
            a = self.expr(depth - 1)
            if a.type == "int":
                c = rng.randint(2, 3)
                if rng.random() < 0.5:
                    return Expr(f"({a.text} / {c})", lambda env, a=a, c=c: cdiv(a.fn(env), c), "int")
                return Expr(f"({a.text} % {c})", lambda env, a=a, c=c: a.fn(env) - c * cdiv(a.fn(env), c), "int")
            return Expr(f"fabs({a.text})", lambda env, a=a: abs(a.fn(env)), a.type)
        if self.k and self.k.helpers and r < 0.95:
            h = rng.choice(self.k.helpers)
            args = [self.expr(depth - 1), self.expr(depth - 1)]
            self.feature("helper")
            return Expr(f"{h.name}({args[0].text}, {args[1].text})",
                        lambda env, h=h, args=args: h.call(env, [x.fn(env) for x in args]), h.ret)
        return self.leaf()

    def cond(self):
        rng = self.rng
        r = rng.random()
        if self.k and r < 0.25:
            d = rng.randrange(self.k.dims)
            m, c = rng.randint(2, 3), rng.randint(0, 1)
            ax = "xyz"[d]
            return Expr(f"(id{ax} % {m} == {c})", lambda env, d=d, m=m, c=c: env.p[d] % m == c, "int")
        a = self.expr(1)
        c = rng.randint(-3, 5)
        op = rng.choice([">", "<=", "!=", ">="])
        f = {">": lambda x, y: x > y, "<=": lambda x, y: x <= y, "!=": lambda x, y: x != y,
             ">=": lambda x, y: x >= y}[op]
        e = Expr(f"({a.text} {op} {lit(c)})", lambda env, a=a, c=c, f=f: f(a.fn(env), c), "int")
        if rng.random() < 0.2:
            b = self.cond()
            both = rng.random() < 0.5
            return Expr(f"({e.text} {'&&' if both else '||'} {b.text})",
                        (lambda env, e=e, b=b: e.fn(env) and b.fn(env)) if both else
                        (lambda env, e=e, b=b: e.fn(env) or b.fn(env)), "int")
        return e

    # statements: a list of patterns, each a few statements
    def local_type(self):
        return self.rng.choice(["int", "int", "double", "float"])

    def stmts(self, n, depth):
        out = []
        for _ in range(n):
            out += self.pattern(depth)
        return out

    def taps_nest(self, depth):
        """Two loops of 7 (49 taps, what the C reference and the OpenCL CPU variant run in
        lanes: analysis/lanes.c), statements before and after the inner one."""
        rng = self.rng
        self.feature("taps")
        self.taps = True
        lo, hi = -3, 3

        def enter():
            v = self.fresh("i")
            self.push()
            self.declare(v, "int")
            self.loop_vars.append((v, lo, hi))
            self.loops += 1
            return v

        def leave():
            self.loops -= 1
            self.loop_vars.pop()
            self.pop()

        vo = enter()
        before = self.stmts(rng.randint(0, 1), depth - 1)
        vi = enter()
        inner = self.stmts(rng.randint(1, 2), depth - 1)
        leave()
        after = self.stmts(rng.randint(0, 1), depth - 1)
        leave()
        self.taps = False
        return [For(vo, lo, hi, before + [For(vi, lo, hi, inner)] + after)]

    def pattern(self, depth):
        rng, k = self.rng, self.k
        choices = ["assign", "assign", "out", "if", "for", "loop_var_after", "dead_loop", "dead_on_path",
                   "dead_chain", "local_array", "while"]
        if depth > 0:
            choices += ["shadow", "if", "for"]
        if depth > 0 and not self.loops:
            choices += ["taps"]
        if self.loops and not self.taps:
            choices += ["jump"] * 5
        choices += ["return_if"] * (1 if depth < 2 and not self.taps else 0)
        if k.lanes:     # what keeps a body in lanes (analysis/lanes.c)
            choices = [c for c in choices if c not in ("while", "jump", "return_if", "shadow", "loop_var_after")]
        if k.scalars_assignable:
            choices += ["scalar", "scalar"]
        p = rng.choice(choices)
        acc = k.acc
        if p == "assign":
            return [Assign(k.acc_t, acc, rng.choice(["=", "+=", "-="]), self.expr(2))]
        if p == "scalar":
            self.feature("scalar-assigned")
            return [Assign("int", "s", "=", self.expr(1))]
        if p == "out":
            return [k.out_write(self)]
        if p == "if":
            self.push()
            then = self.stmts(rng.randint(1, 2), depth - 1)
            self.pop()
            els = None
            if rng.random() < 0.5:
                self.push()
                els = self.stmts(rng.randint(1, 2), depth - 1)
                self.pop()
            return [If(self.cond(), then, els)]
        if p == "for":
            v = self.fresh("i")
            lo = rng.randint(-2, 0)
            hi = rng.randint(lo, 2)
            self.push()
            self.declare(v, "int")
            self.loop_vars.append((v, lo, hi))
            self.loops += 1
            body = self.stmts(rng.randint(1, 2), depth - 1)
            self.loops -= 1
            self.loop_vars.pop()
            self.pop()
            return [For(v, lo, hi, body, label=self.fresh("taps") if rng.random() < 0.15 else None)]
        if p == "taps":
            return self.taps_nest(depth)
        if p == "loop_var_after":
            self.feature("loop-var-after")
            v = self.fresh("i")
            lo = rng.randint(-2, 0)
            hi = rng.randint(lo, 2)
            self.declare(v, "int")
            self.push()
            self.loop_vars.append((v, lo, hi))
            self.loops += 1
            body = self.stmts(rng.randint(1, 2), depth - 1)
            self.loops -= 1
            self.loop_vars.pop()
            self.pop()
            after = Assign(k.acc_t, acc, "+=", Expr(f"({v} * 2)", lambda env, v=v: env.get(v) * 2, "int"))
            return [Decl("int", v, None), For(v, lo, hi, body, declare=False), after]
        if p == "while":
            self.feature("while-do")
            v = self.fresh("c")
            lo = rng.randint(-1, 1)
            hi = lo + rng.randint(0, 3)
            self.declare(v, "int")
            self.push()
            self.loops += 1
            body = self.stmts(rng.randint(1, 2), depth - 1)
            self.loops -= 1
            self.pop()
            after = [Assign(k.acc_t, acc, "-=", Expr(v, lambda env, v=v: env.get(v), "int"))] \
                if rng.random() < 0.5 else []
            return [Decl("int", v, Expr(lit(lo), lambda env, lo=lo: lo, "int")),
                    While(v, hi, body, do=rng.random() < 0.5)] + after
        if p == "dead_loop":
            self.feature("dead-loop")
            d, v = self.fresh("dead"), self.fresh("j")
            t = self.local_type()
            self.push()
            self.declare(v, "int")
            self.loop_vars.append((v, 0, 2))
            body = [Assign(t, d, "+=", self.expr(1))]
            self.loop_vars.pop()
            self.pop()
            return [Decl(t, d, Expr("0", lambda env: 0, "int")), For(v, 0, rng.randint(0, 2), body)]
        if p == "dead_on_path":
            self.feature("dead-on-path")
            v, t = self.fresh("v"), self.local_type()
            first = Decl(t, v, self.expr(1))
            self.declare(v, t)
            later = If(self.cond(), [Assign(t, v, "=", self.expr(1))])
            use = Assign(k.acc_t, acc, "+=", Expr(v, lambda env, v=v: env.get(v), t))
            return [first, later, use]
        if p == "dead_chain":
            self.feature("dead-chain")
            a, b = self.fresh("dead"), self.fresh("dead")
            t = self.local_type()
            first = Decl(t, a, self.expr(2))
            e = self.leaf()
            second = Decl(t, b, Expr(f"({a} * 2 + {e.text})", lambda env, a=a, e=e: env.get(a) * 2 + e.fn(env), t))
            self.declare(a, "hidden")   # never read again: the chain is dead
            return [first, second]
        if p == "local_array":
            self.feature("local-array")
            a, v = self.fresh("arr"), self.fresh("j")
            n = rng.randint(2, 5)
            t = self.local_type()
            self.push()
            self.declare(v, "int")
            self.loop_vars.append((v, 0, n - 1))
            fill = [ArrSet(t, a, Expr(v, lambda env, v=v: env.get(v), "int"), self.expr(1))]
            self.loop_vars.pop()
            self.pop()
            self.declare(a, "array")
            c = rng.randrange(n)
            use = Assign(k.acc_t, acc, "+=", Expr(f"{a}[{c}]", lambda env, a=a, c=c: env.get(a)[c], t))
            return [ArrDecl(t, a, n), For(v, 0, n - 1, fill), use]
        if p == "shadow":
            names = [n for n, t in self.visible() if n.startswith("t")]
            if not names:
                return []
            self.feature("shadowing")
            n = rng.choice(names)
            t = self.local_type()
            self.push()
            self.declare(n, "hidden")   # C: the new name is in scope in its own initializer
            decl = Decl(t, n, self.expr(1))
            self.declare(n, t)
            inner = [decl, Assign(k.acc_t, acc, "+=", Expr(n, lambda env, n=n: env.get(n), t))]
            inner += self.stmts(1, depth - 1)
            self.pop()
            return [Block(inner)]
        if p == "jump":
            what = rng.choice(["break", "continue", "return"])
            self.feature("return-in-loop" if what == "return" else what)
            return [If(self.cond(), [Jump(what)])]
        if p == "return_if":
            self.feature("return-in-if")
            body = [k.out_write(self)] if rng.random() < 0.5 else []
            return [If(self.cond(), body + [Jump("return")])]
        return []


class Kernel:
    """A random kernel: its text (source()) and its oracle (expected())."""

    def __init__(self, rng, name, helpers, mpi=False):
        self.rng = rng
        self.name = name
        self.features = set()
        self.helpers = helpers
        # with --mpi, 4 kernels in 10 leave out what imcl --mpi refuses (grid_size, writes
        # away from the point, halos, offset aliases, inputs read past their edge without a
        # check), drawing the same numbers: the other kernels stay as they were
        self.dist = mpi and random.Random(name + " mpi").random() < 0.4
        self.dims = rng.choice([2, 3])
        self.grid_size = rng.random() < 0.35 and not self.dist
        self.inputs = [Array(rng, f"in{i}", self.dims) for i in range(rng.randint(1, 3))]
        for a in self.inputs:
            if self.dist and a.bc == "none":
                a.bc = "clamped"
        nout = 1 if rng.random() < 0.6 else rng.randint(2, 3)
        self.outputs = [Array(rng, f"out{i}", self.dims, rng.choice(list(OUT_TYPES))) for i in range(nout)]
        for o in self.outputs:
            r = rng.random()
            if r < 0.25:
                d, off = rng.randrange(self.dims), rng.choice([-2, -1, 1, 2])
                o.offset[d] = 0 if self.dist else off
            elif r < 0.35:
                d = rng.randrange(self.dims)
                o.mirror = -1 if self.dist else d
            if rng.random() < 0.2:
                h = rng.randint(1, 2)
                o.halo = 0 if self.dist else h
        self.readbacks = [o for o in self.outputs if rng.random() < 0.3]
        # iterate(in0, out0) (docs/iterate.md): out0 of in0's type, never read (no readback,
        # no += or -=); drawn apart, so that the other kernels stay as they were
        irng = random.Random(name + " iterate")
        self.iterate = irng.random() < 0.3
        self.steps = irng.randint(2, 4)
        if self.iterate:
            self.inputs[0].type = self.outputs[0].type
            self.readbacks = [o for o in self.readbacks if o is not self.outputs[0]]
        # a body the C reference and the OpenCL CPU variant can run in lanes: a nest of
        # taps, no while, return or jump (drawn apart, as iterate)
        self.lanes = random.Random(name + " lanes").random() < 0.3
        self.scalar = rng.randint(-3, 3)
        self.scalars_assignable = rng.random() < 0.5
        self.warr = [rng.randint(-3, 3) for _ in range(5)] if rng.random() < 0.35 else None
        self.alias = Array(rng, "st1", self.dims) if rng.random() < 0.3 else None
        if self.dist:
            self.alias = None
        self.gsize = [rng.randint(-1, 2) for _ in range(self.dims)]   # grid_size: n + these
        self.reach = {}
        self.acc = "acc"
        self.acc_t = rng.choice(["int", "double"])
        self.written = set()
        g = Gen(rng, self)
        body = [Decl(self.acc_t, "acc", Expr("0", lambda env: 0, "int"))]
        g.declare("s", "int")
        g.declare("acc", self.acc_t)
        for i in range(rng.randint(1, 3)):
            t = g.local_type()
            v = f"t{i}"
            body.append(Decl(t, v, g.expr(2)))
            g.declare(v, t)
        body += g.stmts(rng.randint(3, 7), 2)
        if self.lanes:
            body += g.taps_nest(2)
        for o in self.outputs:      # every output written at least once, at the end
            final = g.final_value()
            body.append(OutWrite(o, self.write_op(o, rng.choice(["=", "=", "+=", "-="])), final))
            self.note_write(o, body[-1].op)
        self.body = body
        for a in self.inputs:
            if a.bc == "none":
                a.halo = max([0] + [abs(o) for o in self.reach.get(a.name, [])])
            elif rng.random() < 0.15:
                h = rng.randint(1, 2)
                a.halo = 0 if self.dist else h
        if self.iterate:    # the two trade roles: one halo
            self.outputs[0].halo = self.inputs[0].halo
        self.note_features()

    def write_op(self, o, op):
        """op, or `=` for the output of iterate (which a step never reads)."""
        return "=" if self.iterate and o is self.outputs[0] else op

    def note_reach(self, a, off, var):
        r = self.reach.setdefault(a.name, [])
        r += off
        if var:
            r += [off[0] + var[1], off[0] + var[2]]

    def note_write(self, o, op):
        if op != "=":
            self.features.add("out-compound")
        if o.name in self.written:
            self.features.add("multi-write")
        self.written.add(o.name)

    def note_features(self):
        if len(self.outputs) > 1:
            self.features.add("multi-output")
        if any(any(o.offset) or o.mirror >= 0 for o in self.outputs):
            self.features.add("write-offset")
        if self.grid_size:
            self.features.add("grid-size")
        if self.alias:
            self.features.add("alias")
        if any(a.halo for a in self.inputs + self.outputs):
            self.features.add("halo")
        if self.iterate:
            self.features.add("iterate")

    def out_write(self, g):
        o = g.rng.choice(self.outputs)
        op = self.write_op(o, g.rng.choice(["=", "+=", "-="]))
        self.note_write(o, op)
        return OutWrite(o, op, g.expr(2))

    def readback(self, env, o):
        q = o.target(env)
        if q is None:
            return o.value      # outside: the output's boundary condition (constant 0)
        return env.outs[o.name][q].item()

    def alias_read(self, env, p):
        st = env.data["st"]
        ext = st.shape[::-1]
        lin = 0
        for d in reversed(range(self.dims)):
            lin = lin * ext[d] + p[d]
        return st.reshape(-1)[2 * st.size // 5 + lin].item()

    def source(self):
        g = "Block" if self.dims == 3 else "Image"
        out = [f"// random kernel {self.name} (tests/smith/smith.py): {' '.join(sorted(self.features))}"]
        if self.grid_size:
            ext = ", ".join(f"n{'xyz'[d]}{fmt_off(self.gsize[d])}" for d in range(self.dims))
            out.append(f"#pragma imcl grid_size({ext})")
        else:
            out.append(f"#pragma imcl grid({self.outputs[0].name})")
        halos = [a for a in self.inputs + self.outputs if a.halo]
        if halos:
            out.append("#pragma imcl halo(" + ", ".join(f"{a.name}:{a.halo}" for a in halos) + ")")
        bcs = [a.pragma() for a in self.inputs] + (["st:none"] if self.alias else [])
        out.append("#pragma imcl boundary_cond(" + ", ".join(bcs) + ")")
        if self.iterate:
            out.append(f"#pragma imcl iterate({self.inputs[0].name}, {self.outputs[0].name})")
        params = [f"{g}<{a.type}> {a.name}" for a in self.inputs]
        if self.alias:
            params += [f"{g}<{self.alias.type}> st", "int off"]
        params += [f"{g}<{o.type}> {o.name}" for o in self.outputs]
        params.append("int s")
        if self.grid_size:
            params += [f"int n{'xyz'[d]}" for d in range(self.dims)]
        if self.warr:
            params.append("int w[5]")
        out.append(f"void {self.name}({', '.join(params)})")
        out.append("{")
        if self.alias:
            out.append(f"    {g}<{self.alias.type}> st1 = st + off;")
        out += block_lines(self.body, "    ")
        out.append("}")
        return "\n".join(out) + "\n"

    def expected(self, data, outs, scal):
        """The oracle: runs the body at every point of the grid, writing into outs."""
        for p in np.ndindex(*reversed(self.grid)):
            pt = tuple(reversed(p))
            run_list(self.body, Env(self, data, outs, scal, pt))

    def expected_steps(self, data, outs, scal):
        """The oracle of PK_plan_iterate(self.steps): the steps with in0 and out0 trading
        their arrays before each but the first; every array after them (in0 too)."""
        a, b = self.inputs[0].name, self.outputs[0].name
        data, outs = dict(data), {n: v.copy() for n, v in outs.items()}
        data[a] = data[a].copy()
        for i in range(self.steps):
            if i:
                data[a], outs[b] = outs[b], data[a]
            self.expected(data, outs, scal)
        return dict(outs, **{a: data[a]})


def final_value(g):
    """acc plus the locals of the body's top level."""
    names = [n for n, t in g.scopes[0].items() if t not in ("array", "hidden") and (n == "acc" or n.startswith("t"))]
    text = " + ".join(names)
    return Expr(text, lambda env, names=names: sum(env.get(n) for n in names), "double")


Gen.final_value = final_value


def file_source(kernels, helpers):
    return "\n".join([h.source() for h in helpers] + [k.source() for k in kernels])


# ---- running ---------------------------------------------------------------------------

def make_kernel(seed, draw, mpi=False):
    """The file of seed: one or two kernels; draw > 0 when the earlier draws' values
    grew too big."""
    rng = random.Random(seed * 1000 + draw)
    helpers = [Helper(Gen(rng, None), f"h{j}") for j in range(rng.choice([0, 0, 1, 2]))]
    kernels = [Kernel(rng, f"smith{seed}", helpers, mpi)]
    if rng.random() < 0.3:
        kernels.append(Kernel(rng, f"smith{seed}b", helpers, mpi))
    return rng, helpers, kernels


def draw_configs(space, n, rng, default_first=True, unsized=()):
    """n configurations of a dumped space (every placement), the defaults first.
    `unsized`: arrays whose extents are not the grid's, which CUDA's constant copies,
    sized for the grid (--size), cannot hold (the wrapper refuses that at run time,
    as documented: docs/tuning.md)."""
    import imcl
    params = {p: [v for v in vals if not (v == "constant" and p[4:] in unsized)] if p.startswith("mem_") else vals
              for p, vals in space["parameters"].items()}
    out, seen = [], set()
    default = dict(space["defaults"])
    if default_first and imcl.holds(space["restrictions"], default) and \
            all(default[p] in vals for p, vals in params.items()):
        out.append(default)
        seen.add(json.dumps(default, sort_keys=True))
    tries = 0
    while len(out) < n and tries < 5000:
        tries += 1
        cfg = {p: rng.choice(v) for p, v in params.items()}
        key = json.dumps(cfg, sort_keys=True)
        if key in seen or not imcl.holds(space["restrictions"], cfg):
            continue
        seen.add(key)
        out.append(cfg)
    return out


def run_file(args, seed):
    """Generates file `seed` and runs each of its kernels; returns (log lines, counts,
    the features of each kernel)."""
    try:
        return run_file_checked(args, seed)
    except Exception as e:  # the generator's own fault: a failure, never a pass
        import traceback
        return ([f"FAIL seed {seed}: smith itself: {e!r}\n{traceback.format_exc()}"],
                {"runs": 0, "mismatch": 0, "fail": 1, "c": 0, "opencl": 0, "cuda": 0, "mpi": 0,
                 "mpi_refused": 0}, [])


def run_file_checked(args, seed):
    import imcl
    log, stats = [], {"runs": 0, "mismatch": 0, "fail": 0, "c": 0, "opencl": 0, "cuda": 0, "mpi": 0,
                      "mpi_refused": 0}
    for attempt in range(20):
        rng, helpers, kernels = make_kernel(seed, attempt, args.mpi > 1)
        path = os.path.join(args.work, f"smith_{seed}.imcl")
        drng = np.random.default_rng(seed)
        try:
            cases = [prepare(kern, rng, drng) for kern in kernels]
            break
        except TooBig:
            continue
    else:
        return [f"FAIL seed {seed}: no kernel of small values in 20 draws"], dict(stats, fail=1), []
    with open(path, "w") as f:
        f.write(file_source(kernels, helpers))
    replay = replay_command(args, seed)
    for kern, (data, outs0, scal, want) in zip(kernels, cases):
        where = f"seed {seed} ({path}), kernel {kern.name}, grid {kern.grid}"

        def fail(what, stats=stats, where=where):
            stats["fail"] += 1
            log.append(f"FAIL {where}: {what}\n  replay: {replay}")

        def check(got, what, cfg=None, stats=stats, where=where, want=want):
            stats["runs"] += 1
            for name, w in want.items():
                g = np.asarray(got[name]).reshape(w.shape).astype(np.float64)
                bad = g != w.astype(np.float64)
                if bad.any():
                    stats["mismatch"] += 1
                    p = np.unravel_index(int(np.argmax(bad)), w.shape)
                    log.append(f"MISMATCH {where}, {what}{' ' + json.dumps(cfg, sort_keys=True) if cfg else ''}: "
                               f"{name}: {int(bad.sum())} of {w.size} elements differ, first at storage index "
                               f"{tuple(int(j) for j in reversed(p))}: {g[p]} instead of {w[p]}\n  replay: {replay}")
                    return False
            return True
        values = dict(data, **outs0, **scal)
        ks = {}
        for b in ["opencl"] + (["cuda"] if args.cuda > 0 else []):
            try:
                ks[b] = imcl.Kernel(path, backend=b, size=kern.grid, kernel=kern.name, imcl=args.imcl)
            except Exception as e:  # a valid kernel imcl refuses is a failure too
                fail(f"imcl refused the kernel for {b}: {e}")
        if "opencl" not in ks:
            continue
        k = ks["opencl"]
        arguments = k.arguments(**values)

        def by_name(results, k=k):
            return {a.name: r for a, r in zip(k.args, results) if r is not None}
        try:
            if check(by_name(k.reference(arguments)), "C reference"):
                stats["c"] += 1
        except Exception as e:
            fail(f"C reference: {e}")
            continue
        for b, n, crng in (("opencl", args.configs, random.Random(seed)), ("cuda", args.cuda, random.Random(-seed))):
            if b not in ks or n <= 0:
                continue
            unsized = kern.unsized if b == "cuda" else ()
            configs = draw_configs(ks[b].space, n, crng, b == "opencl" or n > 1, unsized)
            if b == "opencl" and "function_cpu" in ks[b].space:
                # no parameter at all: the CPU variant on PoCL, what a run without -t gets
                configs.append({})
            for j, cfg in enumerate(configs):
                work = os.path.join(args.work, f"{b}_{seed}_{kern.name}_{j}")
                # what runs now, for the parent to name should this process die in it
                with open(running_file(args, seed), "w") as f:
                    f.write(f"{where}, {b} {json.dumps(cfg, sort_keys=True)} (files in {work})")
                if os.environ.get("IMCL_SMITH_ABORT") == str(seed):    # tests/smith/died.sh
                    os.abort()
                try:
                    w = Wrapper(args.imcl, args.nvcc_cpu, ks[b], path, cfg, work)
                    got = by_name(w(ks[b].arguments(**values)), ks[b])
                except Exception as e:
                    fail(f"{b} {json.dumps(cfg, sort_keys=True)}: {e} (files in {work})")
                    continue
                if check(got, b, cfg):
                    stats[b] += 1
                    shutil.rmtree(work, ignore_errors=True)     # kept where it went wrong
        if kern.iterate:
            run_iterate(args, seed, kern, path, ks, values, check, fail, stats)
        if args.mpi > 1:
            run_mpi(args, seed, kern, path, k, values, check, fail, stats)
    with contextlib.suppress(FileNotFoundError):
        os.remove(running_file(args, seed))
    return log, stats, [sorted(k.features) for k in kernels]


def run_iterate(args, seed, kern, path, ks, values, check, fail, stats):
    """PK_plan_iterate(kern.steps) against the oracle of that many steps: the C reference
    with every time_tile its space lists, 2 OpenCL configurations (the default first),
    OpenCL's CPU variant with time_tile 0 and one drawn from time_tile_cpu, and the CUDA
    ones of the one-shot runs."""
    if "opencl" not in ks:
        return
    size = "x".join(str(n) for n in kern.grid)
    p = subprocess.run([args.imcl, "-b", "c", "--dump", "-k", kern.name, "--size", size, path],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"imcl -b c --dump refused the kernel: {p.stderr.strip()}")
        return
    tiles = json.loads(p.stdout)["parameters"].get("time_tile")
    # (the C reference's arguments are OpenCL's)
    runs = [("c", ks["opencl"], {"time_tile": t} if tiles else {}) for t in tiles or [1]]
    for b, n, crng in (("opencl", min(args.configs, 2), random.Random(seed + 1)),
                       ("cuda", args.cuda, random.Random(-seed - 1))):
        if b in ks and n > 0:
            unsized = kern.unsized if b == "cuda" else ()
            runs += [(b, ks[b], cfg) for cfg in draw_configs(ks[b].space, n, crng, True, unsized)]
    # OpenCL's CPU variant (no geometry given), whose PK_plan_iterate on PoCL launches the
    # parts of a wavefront: the default (time_tile 0) and a time_tile drawn from the dump
    cpu_tiles = ks["opencl"].space.get("time_tile_cpu")
    if cpu_tiles:
        tile = random.Random(seed + 2).choice([t for t in cpu_tiles if t > 1])
        runs += [("opencl", ks["opencl"], {}), ("opencl", ks["opencl"], {"time_tile": tile})]
    for j, (b, k, cfg) in enumerate(runs):
        work = os.path.join(args.work, f"iterate_{b}_{seed}_{kern.name}_{j}")
        with open(running_file(args, seed), "w") as f:
            f.write(f"seed {seed}, kernel {kern.name}, {b} plan_iterate {json.dumps(cfg, sort_keys=True)} "
                    f"(files in {work})")
        what = f"{b} plan_iterate({kern.steps})"
        try:
            res = PlanIterate(args.imcl, args.nvcc_cpu, k, path, cfg, work, b)(k.arguments(**values), kern.steps)
            got = {a.name: r for a, r in zip(k.args, res) if r is not None}
        except Exception as e:
            fail(f"{what} {json.dumps(cfg, sort_keys=True)}: {e} (files in {work})")
            continue
        if check(got, what, cfg, want=kern.want_steps):
            stats[b] += 1
            shutil.rmtree(work, ignore_errors=True)


MPI_DRIVER = r"""/* smith: one launch of m_{k}'s distributed plan; the arrays from and to files on rank 0 */
#include <mpi.h>
#include <stdio.h>
#include <stdlib.h>

#include "{k}.h"

static void *load(const char *path, size_t bytes)
{{
    void *p = malloc(bytes ? bytes : 1);
    FILE *f = fopen(path, "rb");
    if (!p || !f || fread(p, 1, bytes, f) != bytes)
        MPI_Abort(MPI_COMM_WORLD, 3);
    fclose(f);
    return p;
}}

static void save(const char *path, const void *p, size_t bytes)
{{
    FILE *f = fopen(path, "wb");
    if (!f || fwrite(p, 1, bytes, f) != bytes)
        MPI_Abort(MPI_COMM_WORLD, 3);
    fclose(f);
}}

int main(int argc, char **argv)
{{
    MPI_Init(&argc, &argv);
    int rank;
    MPI_Comm_rank(MPI_COMM_WORLD, &rank);
    int dims[3] = {{{dims}}}, periods[3] = {{0, 0, 0}};
    MPI_Comm comm;
    MPI_Cart_create(MPI_COMM_WORLD, {nd}, dims, periods, 0, &comm);
{decls}
    m_{k}_dist *d = NULL;
    int rc = m_{k}_dist_create(&d, comm{extents});
{scatters}
    if (rc == 0)
        rc = m_{k}_dist_launch(d{scalars});
{gathers}
    if (rank == 0) {{
{saves}
        printf("status %d\n", rc);
    }}
    m_{k}_dist_destroy(d);
    MPI_Comm_free(&comm);
    MPI_Finalize();
    return 0;
}}
"""


def mpi_process_grid(rng, grid, ghost, most):
    """A process grid of 2 to `most` ranks whose every part is at least as thick as the
    ghost layer (and 1), drawn at random; None when the grid has none."""
    choices = []
    for p in ([a, b, c] for a in range(1, most + 1) for b in range(1, most + 1)
              for c in range(1, most + 1 if len(grid) == 3 else 2)):
        n = p[0] * p[1] * p[2]
        if 2 <= n <= most and all(grid[d] // p[d] >= max(ghost[d], 1) for d in range(len(grid))):
            choices.append(p[:len(grid)])
    return rng.choice(choices) if choices else None


def run_mpi(args, seed, kern, path, k, values, check, fail, stats):
    """One launch of the kernel's distributed plan (imcl --mpi -b c) on a random process
    grid of 2 to args.mpi ranks, its outputs against the oracle. A kernel --mpi refuses
    (exit status 1, every message an --mpi one) is counted, not failed; so is a plan
    that PK_dist_create refuses because a distributed array has other extents than the
    grid (PK_ERR_ARGUMENT), which must then be the case."""
    work = os.path.join(args.work, f"mpi_{seed}_{kern.name}")
    os.makedirs(work, exist_ok=True)
    with open(running_file(args, seed), "w") as f:
        f.write(f"seed {seed}, kernel {kern.name}, imcl --mpi (files in {work})")
    p = subprocess.run([args.imcl, "--mpi", "-b", "c", "--prefix", "m_", "-k", kern.name, "-o", work, path],
                       capture_output=True, text=True)
    errors = [line for line in p.stderr.splitlines() if line.startswith(path) and ": error: " in line]
    if p.returncode == 1 and errors and all(": error: --mpi: " in line for line in errors):
        stats["mpi_refused"] += 1
        shutil.rmtree(work, ignore_errors=True)
        return
    if p.returncode != 0:
        fail(f"imcl --mpi -b c: status {p.returncode}: {p.stderr.strip()} (files in {work})")
        return
    with open(os.path.join(work, f"{kern.name}_dist.c")) as f:
        text = f.read()
    ghost = [int(g) for g in text.split("const int ghost[3] = {", 1)[1].split("}", 1)[0].split(",")]
    rng = random.Random(seed * 7 + len(kern.name))
    dims = mpi_process_grid(rng, kern.grid, ghost, args.mpi)
    if dims is None:
        stats["mpi_refused"] += 1
        return
    arguments = k.arguments(**values)
    decls, extents, scatters, gathers, saves, scalars = [], [], [], [], [], []
    arrays = {}
    for a, v in zip(k.args, arguments):
        if a.kind in ("grid", "array"):
            i = len(arrays)
            arr = np.ascontiguousarray(v, dtype=a.dtype)
            arr.tofile(os.path.join(work, f"{a.name}.in"))
            arrays[a.name] = arr
            decls.append(f"    void *a{i} = rank == 0 ? load(\"{a.name}.in\", {arr.nbytes}) : NULL;")
            scatters.append(f"    if (rc == 0)\n        rc = m_{kern.name}_dist_scatter_{a.name}(d, a{i});")
            gathers.append(f"    if (rc == 0)\n        rc = m_{kern.name}_dist_gather_{a.name}(d, a{i});")
            saves.append(f"        if (rc == 0)\n            save(\"{a.name}.out\", a{i}, {arr.nbytes});")
        elif a.kind == "extent":
            extents.append(f", {int(v)}")
        elif a.kind == "scalar":
            scalars.append(f", {v.item() if hasattr(v, 'item') else v}")
    src = MPI_DRIVER.format(k=kern.name, dims=", ".join(str(x) for x in dims + [1] * (3 - len(dims))),
                            nd=len(kern.grid), decls="\n".join(decls), extents="".join(extents),
                            scatters="\n".join(scatters), gathers="\n".join(gathers), saves="\n".join(saves),
                            scalars="".join(scalars))
    with open(os.path.join(work, "driver.c"), "w") as f:
        f.write(src)
    srcs = [os.path.join(work, n) for n in sorted(os.listdir(work)) if n.endswith(".c")]
    p = subprocess.run(["mpicc", "-O1", "-fopenmp", "-I", work, *srcs, "-lm", "-o", os.path.join(work, "driver")],
                       capture_output=True, text=True)
    if p.returncode != 0:
        fail(f"mpicc cannot build the distributed plan: {p.stderr.strip()[-1500:]} (files in {work})")
        return
    nranks = int(np.prod(dims))
    # as root where CI runs, more ranks than cores, one thread a rank
    run = [os.path.join(os.path.dirname(HERE), "lib", "mpirun"), "-np", str(nranks)]
    what = f"distributed plan on {'x'.join(str(x) for x in dims)} ranks"
    try:
        p = subprocess.run(run + ["./driver"], cwd=work, capture_output=True, text=True, timeout=120)
    except subprocess.TimeoutExpired:
        fail(f"{what}: no end in 120 s (files in {work})")
        return
    status = p.stdout.strip().rsplit("status ", 1)[-1] if "status " in p.stdout else None
    if p.returncode != 0 or status is None:
        fail(f"{what}: exit status {p.returncode}: {(p.stdout + p.stderr).strip()[-1500:]} (files in {work})")
        return
    # (the stacked input of an offset alias is taller than the grid)
    other = [a for a in kern.inputs + kern.outputs if a.extents != kern.grid] + ([kern.alias] if kern.alias else [])
    if status == "-1" and other:
        stats["mpi_refused"] += 1
        shutil.rmtree(work, ignore_errors=True)
        return
    if status != "0":
        fail(f"{what}: status {status} (files in {work})")
        return
    got = {name: np.fromfile(os.path.join(work, f"{name}.out"), dtype=arr.dtype).reshape(arr.shape)
           for name, arr in arrays.items()}
    if check(got, what):
        stats["mpi"] += 1
        shutil.rmtree(work, ignore_errors=True)


def replay_command(args, seed):
    """The command that makes and runs file `seed` again."""
    return (f"{sys.executable} {os.path.realpath(__file__)} --imcl {args.imcl} --seed {seed} --kernels 1 "
            f"--configs {args.configs} --cuda {args.cuda} --mpi {args.mpi} --work {args.work}")


def running_file(args, seed):
    """The file that names the run file `seed` is in (kept if its process dies)."""
    return os.path.join(args.work, f"smith_{seed}.running")


def died(args, seed):
    """The result of file `seed` whose process died (a crash in the device's compiler or
    in generated code): a failure that names the run it died in."""
    try:
        with open(running_file(args, seed)) as f:
            what = f.read()
    except OSError:
        what = f"seed {seed}, before its first run"
    return ([f"FAIL {what}: the process running it died\n  replay: {replay_command(args, seed)}"],
            {"runs": 1, "mismatch": 0, "fail": 1, "c": 0, "opencl": 0, "cuda": 0, "mpi": 0, "mpi_refused": 0}, [])


def run_files(args, seeds):
    """Runs files `seeds` in args.jobs processes; yields their results in seed order. A
    process that dies (an abort in PoCL's compiler kills it, and with it the pool) costs
    only its own file: the files the pool lost run again, one process each."""
    with concurrent.futures.ProcessPoolExecutor(max_workers=max(1, args.jobs)) as pool:
        futures = [(s, pool.submit(run_file, args, s)) for s in seeds]
        lost = []
        for s, fut in futures:
            try:
                if not lost:
                    yield fut.result()
                    continue
            except concurrent.futures.process.BrokenProcessPool:
                pass
            lost.append(s)
    for s in lost:
        with concurrent.futures.ProcessPoolExecutor(max_workers=1) as alone:
            try:
                yield alone.submit(run_file, args, s).result()
            except concurrent.futures.process.BrokenProcessPool:
                yield died(args, s)


def prepare(kern, rng, drng):
    """Draws the grid, the arrays and the scalars of one kernel and runs its oracle;
    returns (inputs, initial outputs, scalars, expected outputs)."""
    grid = [rng.randint(3, 17), rng.randint(2, 11)] + ([rng.randint(2, 6)] if kern.dims == 3 else [])
    kern.grid = grid
    scal = {"s": np.int32(kern.scalar)}
    if kern.grid_size:
        for d in range(kern.dims):
            scal[f"n{'xyz'[d]}"] = np.int32(grid[d] - kern.gsize[d])
    data = {}
    for a in kern.inputs:
        dt, lo, hi = TYPES[a.type]
        ext = list(grid)
        if kern.grid_size and a.bc != "none":
            ext = [max(1, n + rng.randint(-2, 2)) for n in grid]
        if kern.iterate and a is kern.inputs[0]:
            ext = list(grid)    # iterate: the extents of out0
        a.extents = ext
        data[a.name] = drng.integers(lo, hi + 1, size=tuple(n + 2 * a.halo for n in reversed(ext))).astype(dt)
    if kern.alias:
        dt, lo, hi = TYPES[kern.alias.type]
        shape = list(reversed(grid))
        shape[0] *= 5
        data["st"] = drng.integers(lo, hi + 1, size=tuple(shape)).astype(dt)
        scal["off"] = np.int32(2 * data["st"].size // 5)
    if kern.warr:
        data["w"] = np.array(kern.warr, dtype=np.int32)
    outs = {}
    for j, o in enumerate(kern.outputs):
        ext = list(grid)
        if ((kern.grid_size or j > 0) and o.mirror < 0 and rng.random() < 0.5 and not (kern.iterate and j == 0)
                and not kern.dist):
            ext = [max(1, n + rng.randint(-1, 3)) for n in grid]
        o.extents = ext
        outs[o.name] = drng.integers(-20, 21, size=tuple(n + 2 * o.halo for n in reversed(ext))).astype(
            OUT_TYPES[o.type])
    kern.unsized = {a.name for a in kern.inputs + kern.outputs if a.extents != grid}
    if kern.alias:
        kern.unsized.add("st")
    want = {n: v.copy() for n, v in outs.items()}
    kern.expected(data, want, {n: int(v) for n, v in scal.items()})
    kern.want_steps = kern.expected_steps(data, outs, {n: int(v) for n, v in scal.items()}) if kern.iterate else None
    return data, outs, scal, want


def commit_seed():
    """A seed from the checkout's commit (its first 7 hex digits), and what it came
    from; seed 1 outside a git checkout."""
    sha = subprocess.run(["git", "-C", HERE, "rev-parse", "HEAD"], capture_output=True, text=True).stdout.strip()
    if not sha:
        return 1, "no git checkout: the fixed seed"
    return int(sha[:7], 16), f"commit {sha[:12]}"


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--imcl", required=True)
    ap.add_argument("--seed", default="1", help="the first file's seed, or 'commit'")
    ap.add_argument("--kernels", type=int, default=20, help="files (of one or two kernels each)")
    ap.add_argument("--configs", type=int, default=6, help="OpenCL configurations per kernel")
    ap.add_argument("--cuda", type=int, default=0, help="CUDA configurations per kernel (nvcc-cpu)")
    ap.add_argument("--jobs", type=int, default=1)
    ap.add_argument("--mpi", type=int, default=0, help="most ranks of a distributed plan (imcl --mpi); 0: none")
    ap.add_argument("--min-coverage", type=int, default=0, help="kernels each feature must be in")
    ap.add_argument("--nvcc-cpu", default=os.path.join(HERE, "..", "..", "scripts", "nvcc-cpu"))
    ap.add_argument("--work", default="/tmp/imcl-smith")
    args = ap.parse_args()
    args.imcl = os.path.realpath(args.imcl)
    if args.seed == "commit":
        seed, origin = commit_seed()
        print(f"-- seed {seed} ({origin})")
    else:
        seed = int(args.seed)
    os.makedirs(args.work, exist_ok=True)
    # every kernel is new: PoCL's cache of compiled kernels would only grow
    os.environ.setdefault("POCL_KERNEL_CACHE", "0")
    t0 = time.monotonic()
    total = {"runs": 0, "mismatch": 0, "fail": 0, "c": 0, "opencl": 0, "cuda": 0, "mpi": 0, "mpi_refused": 0}
    coverage = {f: 0 for f in FEATURES}
    nkernels = 0
    seeds, files = [seed + i for i in range(args.kernels)], args.kernels
    while seeds:
        for log, stats, features in run_files(args, seeds):
            for line in log:
                print(line, flush=True)
            for key in total:
                total[key] += stats[key]
            for fs in features:
                nkernels += 1
                for f in fs:
                    coverage[f] += 1
        # A seed's draw is luck: a feature short of --min-coverage gets more files (the
        # next seeds, a few at a time, up to half as many again) before it is a failure.
        short = [f for f in FEATURES if coverage[f] < args.min_coverage]
        more = min(2 * args.jobs, args.kernels + args.kernels // 2 - files) if short else 0
        seeds = [seed + files + i for i in range(max(more, 0))]
        if seeds:
            print(f"-- {', '.join(short)} in fewer than {args.min_coverage} kernels: {len(seeds)} more files",
                  flush=True)
        files += len(seeds)
    print(f"-- {total['c']} C reference runs, {total['opencl']} OpenCL runs on PoCL, {total['cuda']} CUDA runs "
          f"(nvcc-cpu), {total['mpi']} distributed plans on 2 to {args.mpi} ranks (--mpi refused "
          f"{total['mpi_refused']} kernels), {time.monotonic() - t0:.0f} s")
    print("-- coverage (feature: kernels that have it)")
    short = [f for f in FEATURES if coverage[f] < args.min_coverage]
    for f in FEATURES:
        print(f"   {f:16} {coverage[f]:5}{'   < ' + str(args.min_coverage) if f in short else ''}")
    if short:
        print(f"FAIL coverage: {', '.join(short)} in fewer than {args.min_coverage} kernels")
    print(f"{total['runs']} runs ({nkernels} kernels in {files} files), {total['mismatch']} mismatches, "
          f"{total['fail']} failures")
    return 1 if total["mismatch"] or total["fail"] or short else 0


if __name__ == "__main__":
    sys.exit(main())
