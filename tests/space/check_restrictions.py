#!/usr/bin/env python3
"""Well-formedness of the tuning-space dumps (docs/tuning.md, "The imcl format").

For every sample and every backend (cuda, opencl, c), with and without --size:

  imcl format (--dump-space):
    * the document has imcl_space_version 1, the kernel's name, the backend, and
      objects/lists parameters, defaults, restrictions;
    * every parameter name is one of docs/tuning.md's (block_size_x/y/z, coarsen_x/y/z,
      interleaved, mem_<array>, unroll_L<line>, unroll_<label>, stream_z) or imcl's
      `interior` (guard-free inner blocks, docs/tuning.md) on the device backends,
      and the C reference's own omp_schedule and omp_chunk on c (and those only
      there); its list of values is non-empty, free of duplicates, all ints (not
      bools) or all strings, and ints are positive except interleaved's,
      interior's and batch_loop's 0/1, stream_z's 0 or 2 to 4096 and omp_chunk's 0 to 64; mem_
      values are memory kinds of docs/tuning.md, omp_schedule's OpenMP's three schedules;
    * every default is one of its parameter's listed values, and there is a default
      for every parameter and for nothing else;
    * every restriction is a Python expression (ast.parse mode='eval') made only of
      parameter names, literals and operators (no calls, attributes, subscripts,
      comprehensions), and is True on the defaults;
    * function (the device function's name), grid and grid_dims, and arguments:
      every parameter of the device function with its kind, type and access.

  T1 format (--dump-space=t1): loads as JSON, has ConfigurationSpace with
    TuningParameters and Conditions, and conforms to the T1 input schema of Kernel
    Tuner (kernel_tuner/schema/T1/1.0.0/input-schema.json): required keys, Type and
    Language enums, Values as a string holding a Python list equal to the imcl
    dump's list, Conditions = the restrictions with the parameters each one uses,
    LocalSize/GlobalSize expressions that evaluate to positive integers on the
    defaults, Arguments with a Type and MemoryType of the schema's enums and the
    imcl dump's arguments in order, a Device block (the first device) and a Search
    block (brute_force), which Kernel Tuner's tune_kernel_T1 requires.

  grid_size kernels (miniAMR v1, v2, v2r): the imcl dump (grid "grid_size"), and no
    T1 document: status 2, the error naming the reason, nothing on stdout.

A file with two kernels must give a list of two documents in both formats.
Prints `N passed, M failed`; exit status 1 on any failure.
"""

import argparse
import ast
import json
import os
import re
import subprocess
import sys
import tempfile

SAMPLES = ["life", "sobel", "blur5", "sum7", "sum27", "miniamr"]
BACKENDS = ["cuda", "opencl", "c"]
MEM_KINDS = {"global", "shared", "texture", "constant", "register"}
# Kernels whose loops can neither be unrolled whole (a trip count of num_blocks) nor run
# in lanes (v2r returns): no CPU variant (docs/tuning.md "Defaults"); v1's and v2's loop
# over the blocks runs in lanes (no unroll_ entry); the others' loops, unrolled whole.
LOOP_KERNELS = {"v2r"}
CPU_UNROLL = {"sum27": {"unroll_L7": 3, "unroll_L8": 3, "unroll_L9": 3},
              "blur5": {"unroll_rows": 5, "unroll_taps": 5}}
NAME_RE = re.compile(r"omp_schedule|omp_chunk|batch_loop|block_size_[xyz]|coarsen_[xyz]|interleaved|interior|stream_z|mem_[A-Za-z_][A-Za-z0-9_]*|unroll_L[1-9][0-9]*|unroll_[A-Za-z_][A-Za-z0-9_]*")
ALLOWED_NODES = (ast.Expression, ast.BoolOp, ast.BinOp, ast.UnaryOp, ast.Compare, ast.IfExp, ast.Name,
                 ast.Constant, ast.Load, ast.boolop, ast.operator, ast.unaryop, ast.cmpop)
T1_TYPES = {"int", "uint", "float", "bool", "string"}
T1_LANGUAGES = {"cuda": "CUDA", "opencl": "OpenCL"}
T1_ARG_TYPES = {"bool", "int8", "uint8", "int16", "uint16", "int32", "uint32", "int64", "uint64", "half", "half2",
                "half4", "half8", "half16", "float", "float2", "float4", "float8", "float16", "double", "double2",
                "double4", "double8", "double16", "custom"}
T1_MEMORY_TYPES = {"Scalar", "Vector", "Local", "Symbol"}
T1_ACCESS_TYPES = {"ReadOnly", "WriteOnly", "ReadWrite"}


class Checker:
    def __init__(self):
        self.passed = 0
        self.failed = 0

    def check(self, cond, what, detail=""):
        if cond:
            self.passed += 1
        else:
            self.failed += 1
            print(f"FAIL: {what}" + (f"\n  {detail}" if detail else ""), flush=True)
        return cond


C = Checker()


def dump(imcl, src, backend, fmt, size=None):
    cmd = [imcl, f"--dump-space={fmt}", "-b", backend] + (["--size", size] if size else []) + [src]
    p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
    where = " ".join(cmd)
    if not C.check(p.returncode == 0, f"{where} exits with 0", f"status {p.returncode}: {p.stderr.strip()}"):
        return None, where
    try:
        return json.loads(p.stdout), where
    except ValueError as e:
        C.check(False, f"{where} prints JSON", str(e))
        return None, where


def restriction_problems(expr, params, defaults):
    """A list of what is wrong with one restriction string."""
    try:
        tree = ast.parse(expr, mode="eval")
    except SyntaxError as e:
        return [f"not a Python expression: {e}"]
    problems = []
    for node in ast.walk(tree):
        if not isinstance(node, ALLOWED_NODES):
            problems.append(f"uses {type(node).__name__} (only names, literals and operators are portable)")
        if isinstance(node, ast.Name) and node.id not in params:
            problems.append(f"uses '{node.id}', which is not a parameter of the space")
    if not problems:
        try:
            value = eval(compile(tree, "<restriction>", "eval"), {"__builtins__": {}}, dict(defaults))
            if value is not True:
                problems.append(f"is {value!r} on the defaults, expected True")
        except Exception as e:
            problems.append(f"cannot be evaluated on the defaults: {e!r}")
    return problems


# The rows of a CPU variant's work-group: each work-item walks one row (PARAMS_CPU_ROWS).
CPU_ROWS = 32


def check_imcl(doc, where, kernel, backend, size=None):
    if not C.check(isinstance(doc, dict), f"{where}: one kernel gives one object"):
        return None
    C.check(doc.get("imcl_space_version") == 1, f"{where}: imcl_space_version is 1", repr(doc.get("imcl_space_version")))
    C.check(doc.get("kernel") == kernel, f"{where}: kernel is '{kernel}'", repr(doc.get("kernel")))
    C.check(doc.get("backend") == backend, f"{where}: backend is '{backend}'", repr(doc.get("backend")))
    want_fn = {"cuda": kernel + "_kernel"}.get(backend, kernel)
    C.check(doc.get("function") == want_fn, f"{where}: function is '{want_fn}'", repr(doc.get("function")))
    C.check(doc.get("grid") in ("grid", "grid_size") and doc.get("grid_dims") in (2, 3),
            f"{where}: grid is grid or grid_size, grid_dims 2 or 3", repr((doc.get("grid"), doc.get("grid_dims"))))
    args = doc.get("arguments")
    if C.check(isinstance(args, list) and args, f"{where}: arguments is a non-empty list"):
        for a in args:
            kind = a.get("kind") if isinstance(a, dict) else None
            ok = (isinstance(a.get("name"), str) and a.get("type") in T1_ARG_TYPES
                  and kind in ("grid", "array", "extent", "scalar", "grid extent", "batch count",
                                   "block list")) if kind else False
            if kind == "block list":
                ok = ok and a.get("access") == "read" and a.get("elements") == 1
            if kind in ("grid", "array"):
                ok = ok and a.get("access") in ("read", "write", "readwrite")
                ok = ok and (a.get("dims") in (2, 3) and isinstance(a.get("halo"), int) if kind == "grid"
                             else isinstance(a.get("elements"), int) and a["elements"] > 0)
            C.check(ok, f"{where}: argument {a!r} has a name, a kind, a type (and access, dims and halo or elements)")
        gpu = backend != "c"
        C.check([a.get("name") for a in args if a.get("kind") == "grid extent"] == (["W", "H", "D"] if gpu else []),
                f"{where}: the arguments end with W, H, D on a device backend only")
        grids = any(a.get("kind") == "grid" for a in args)
        tail = ["W", "H", "D"] + (["imcl_count", "imcl_blocks"] if grids else []) if gpu else []
        C.check([a.get("name") for a in args
                 if a.get("kind") in ("grid extent", "batch count", "block list")] == tail
                and [a.get("name") for a in args[len(args) - len(tail):]] == tail,
                f"{where}: the arguments end with W, H, D and (a kernel with an Image or Block) imcl_count "
                f"and imcl_blocks on a device backend only", repr([a.get("name") for a in args]))
    params, defaults, restr = doc.get("parameters"), doc.get("defaults"), doc.get("restrictions")
    if not (C.check(isinstance(params, dict) and params, f"{where}: parameters is a non-empty object")
            and C.check(isinstance(defaults, dict), f"{where}: defaults is an object")
            and C.check(isinstance(restr, list) and all(isinstance(r, str) for r in restr),
                        f"{where}: restrictions is a list of strings")):
        return None
    for name, values in params.items():
        C.check(NAME_RE.fullmatch(name), f"{where}: parameter name '{name}' is one of docs/tuning.md's")
        ok = (C.check(isinstance(values, list) and values, f"{where}: {name} lists at least one value", repr(values))
              and C.check(len(set(map(json.dumps, values))) == len(values), f"{where}: {name} has no duplicates",
                          repr(values)))
        if not ok:
            continue
        C.check((name in ("omp_schedule", "omp_chunk")) == (backend == "c"),
                f"{where}: {name} is {'' if backend == 'c' else 'not '}a parameter of the C reference's own space")
        if name.startswith("mem_"):
            C.check(all(isinstance(v, str) and v in MEM_KINDS for v in values),
                    f"{where}: {name} lists memory kinds of docs/tuning.md", repr(values))
        elif name == "omp_schedule":
            C.check(values == ["static", "dynamic", "guided"], f"{where}: {name} lists OpenMP's schedules",
                    repr(values))
        else:
            ints = all(isinstance(v, int) and not isinstance(v, bool) for v in values)
            lo = 0 if name in ("interleaved", "interior", "stream_z", "omp_chunk", "batch_loop") else 1
            hi = 1 if name in ("interleaved", "interior", "batch_loop") else 4096 if name == "stream_z" else \
                64 if name == "omp_chunk" else None
            C.check(ints and all(v >= lo and (hi is None or v <= hi) and not (name == "stream_z" and v == 1)
                                 for v in values),
                    f"{where}: {name} lists integers in its docs/tuning.md range", repr(values))
        C.check(name in defaults, f"{where}: {name} has a default")
        if name in defaults:
            C.check(defaults[name] in values and type(defaults[name]) is type(values[0]),
                    f"{where}: default {name}={defaults[name]!r} is one of {values}")
    extra = sorted(set(defaults) - set(params))
    C.check(not extra, f"{where}: defaults only for parameters", f"defaults for unknown {extra}")
    for r in restr:
        problems = restriction_problems(r, params, defaults)
        C.check(not problems, f"{where}: restriction '{r}'", "; ".join(problems))
    # prune: restrictions of the same form for a tuner's search (docs/tuning.md), which
    # the defaults meet too; none for the C reference
    prune = doc.get("prune")
    if C.check(isinstance(prune, list) and all(isinstance(r, str) for r in prune)
               and (backend != "c" or prune == []),
               f"{where}: prune is a list of strings (empty for the C reference)", repr(prune)):
        for r in prune:
            problems = restriction_problems(r, params, defaults)
            C.check(not problems, f"{where}: prune '{r}'", "; ".join(problems))
    # defaults_cpu: OpenCL's variant for CPU devices (docs/tuning.md "Defaults"): the
    # defaults with a work-item per row, walking it (row_walk_cpu; block 1 x CPU_ROWS x
    # 1 whatever --size says), one point per work-item, loops unrolled whole and each
    # row's interior split off (interior 1, where the kernel has the parameter), inside
    # the space.
    cpu = doc.get("defaults_cpu")
    if backend == "opencl" and kernel not in LOOP_KERNELS:
        want = dict(defaults, block_size_x=1, block_size_y=CPU_ROWS, block_size_z=1,
                    **CPU_UNROLL.get(kernel, {}))
        want.update({c: 1 for c in ("coarsen_x", "coarsen_y", "coarsen_z") if c in defaults})
        if "interior" in defaults:
            want["interior"] = 1
        C.check(cpu == want, f"{where}: defaults_cpu is the defaults with 1x{CPU_ROWS}x1 and interior 1",
                repr(cpu))
        C.check(doc.get("row_walk_cpu") is True, f"{where}: row_walk_cpu is true", repr(doc.get("row_walk_cpu")))
        # its work-group, 1 x CPU_ROWS x 1 whatever the grid, need not be listed (the
        # space lists blocks that fit the grid of --size); every other value must be
        if isinstance(cpu, dict):
            C.check(all(cpu[p] in params[p] for p in params if not p.startswith("block_size_"))
                    and all(eval(r, {"__builtins__": {}}, dict(cpu)) is True
                            for r in restr if "block_size_" not in r),
                    f"{where}: defaults_cpu is in the space but for its work-group", repr(cpu))
    else:
        C.check(cpu is None, f"{where}: no defaults_cpu (backend {backend}, or a kernel with loops)",
                repr(cpu))
    return doc


def literal_list(text):
    try:
        v = ast.literal_eval(text)
    except (ValueError, SyntaxError):
        return None
    return v if isinstance(v, list) else None


def check_t1(doc, where, imcl_doc, backend, size):
    if not C.check(isinstance(doc, dict), f"{where}: one kernel gives one object"):
        return
    cs = doc.get("ConfigurationSpace")
    if not (C.check(isinstance(cs, dict), f"{where}: has a ConfigurationSpace object")
            and C.check(isinstance(cs.get("TuningParameters"), list), f"{where}: has ConfigurationSpace.TuningParameters")
            and C.check(isinstance(cs.get("Conditions"), list), f"{where}: has ConfigurationSpace.Conditions")):
        return
    gen = doc.get("General", {})
    C.check(isinstance(gen, dict) and isinstance(gen.get("FormatVersion", 1), int), f"{where}: General.FormatVersion is an integer")
    if imcl_doc is None:
        return
    params, defaults = imcl_doc["parameters"], imcl_doc["defaults"]
    tps = cs["TuningParameters"]
    C.check([tp.get("Name") for tp in tps if isinstance(tp, dict)] == list(params),
            f"{where}: TuningParameters are the imcl parameters, in order")
    for tp in tps:
        name = tp.get("Name") if isinstance(tp, dict) else None
        if not C.check(isinstance(name, str) and isinstance(tp.get("Values"), str) and tp.get("Type") in T1_TYPES,
                       f"{where}: tuning parameter {tp!r} has Name, Type (T1 enum) and Values (a string)"):
            continue
        want_type = "string" if name.startswith("mem_") or name == "omp_schedule" else "int"
        C.check(tp["Type"] == want_type, f"{where}: {name} has Type {want_type}", tp["Type"])
        C.check(literal_list(tp["Values"]) == params.get(name), f"{where}: {name} Values is the Python list {params.get(name)}",
                tp["Values"])
        if "Default" in tp:
            C.check(tp["Default"] == defaults.get(name), f"{where}: {name} Default is {defaults.get(name)!r}", repr(tp["Default"]))
    conds = cs["Conditions"]
    C.check([c.get("Expression") for c in conds if isinstance(c, dict)] == imcl_doc["restrictions"],
            f"{where}: Conditions are the imcl restrictions, in order")
    for c in conds:
        if not C.check(isinstance(c, dict) and isinstance(c.get("Expression"), str)
                       and isinstance(c.get("Parameters"), list), f"{where}: condition {c!r} has Parameters and Expression"):
            continue
        try:
            used = {n.id for n in ast.walk(ast.parse(c["Expression"], mode="eval")) if isinstance(n, ast.Name)}
        except SyntaxError as e:
            C.check(False, f"{where}: condition '{c['Expression']}' is a Python expression", str(e))
            continue
        C.check(set(c["Parameters"]) == used & set(params) and len(set(c["Parameters"])) == len(c["Parameters"]),
                f"{where}: condition '{c['Expression']}' lists the parameters it uses", repr(c["Parameters"]))
    ks = doc.get("KernelSpecification")
    if not C.check(isinstance(ks, dict), f"{where}: has a KernelSpecification object"):
        return
    for key in ("Language", "KernelName", "KernelFile", "GlobalSize", "LocalSize"):
        C.check(key in ks, f"{where}: KernelSpecification.{key} (required by T1)")
    if backend in T1_LANGUAGES:
        C.check(ks.get("Language") == T1_LANGUAGES[backend], f"{where}: Language is {T1_LANGUAGES[backend]}", repr(ks.get("Language")))
        C.check(ks.get("GlobalSizeType") in ("CUDA", "OpenCL"), f"{where}: GlobalSizeType is CUDA or OpenCL")
    if size:
        want = [int(x) for x in size.split("x")]
        ps = ks.get("ProblemSize")
        C.check(isinstance(ps, list) and ps[: len(want)] == want[: len(ps)], f"{where}: ProblemSize follows --size {size}", repr(ps))
    for key in ("LocalSize", "GlobalSize"):
        xyz = ks.get(key)
        if not C.check(isinstance(xyz, dict) and isinstance(xyz.get("X"), str), f"{where}: {key}.X is a string"):
            continue
        for axis, expr in xyz.items():
            try:
                value = eval(expr, {"__builtins__": {}}, dict(defaults))
                ok = isinstance(value, int) and value > 0
            except Exception as e:
                value, ok = repr(e), False
            C.check(ok, f"{where}: {key}.{axis} = '{expr}' is a positive integer on the defaults", repr(value))
    dev = ks.get("Device")
    C.check(isinstance(dev, dict) and dev.get("Name") == "0" and dev.get("PlatformId") == 0 and dev.get("DeviceId") == 0,
            f"{where}: KernelSpecification.Device is the first device of the first platform", repr(dev))
    C.check(doc.get("Search") == {"Name": "brute_force"}, f"{where}: Search is brute_force", repr(doc.get("Search")))
    args = ks.get("Arguments", [])
    access = {"read": "ReadOnly", "write": "WriteOnly", "readwrite": "ReadWrite"}
    # (imcl_blocks, an int32 list in the imcl dump, is a float 0 in T1: the bits of the int 0)
    C.check([(a.get("Name"), a.get("Type"), a.get("AccessType")) for a in args]
            == [(a["name"], "float" if a["kind"] == "block list" else a["type"],
                 access.get(a.get("access"), "ReadOnly")) for a in imcl_doc.get("arguments", [])],
            f"{where}: Arguments are the imcl dump's arguments (names, types, access), in order")
    for a in args:
        C.check(isinstance(a, dict) and a.get("Type") in T1_ARG_TYPES and a.get("MemoryType") in T1_MEMORY_TYPES
                and a.get("AccessType", "ReadOnly") in T1_ACCESS_TYPES,
                f"{where}: argument {a!r} has Type, MemoryType and AccessType of the T1 enums")


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("--imcl", required=True)
    ap.add_argument("--samples", required=True)
    args = ap.parse_args()

    for name in SAMPLES:
        src = os.path.join(args.samples, name, name + ".imcl")
        if not C.check(os.path.isfile(src), f"sample {src} exists"):
            continue
        text = open(src).read()
        size3 = "Block<" in text
        for size in (None, "13x11x9" if size3 else "37x29"):
            for backend in BACKENDS:
                doc, where = dump(args.imcl, src, backend, "imcl", size)
                imcl_doc = check_imcl(doc, where, name, backend, size) if doc is not None else None
                t1, where = dump(args.imcl, src, backend, "t1", size)
                if t1 is not None:
                    check_t1(t1, where, imcl_doc, backend, size)

    # grid_size kernels: the imcl dump, but no T1 document (the arrays' sizes and
    # the scalars' values are the caller's): status 2, this error, nothing on stdout.
    for name in ("v1", "v2", "v2r"):
        src = os.path.join(args.samples, "miniamr", name + ".imcl")
        line = next(i + 1 for i, l in enumerate(open(src)) if "#pragma imcl grid_size" in l)
        for backend in BACKENDS:
            doc, where = dump(args.imcl, src, backend, "imcl", "16x16x16")
            if doc is not None:
                check_imcl(doc, where, name, backend)
                C.check(doc.get("grid") == "grid_size", f"{where}: grid is grid_size", repr(doc.get("grid")))
            cmd = [args.imcl, "--dump-space=t1", "-b", backend, "--size", "16x16x16", src]
            p = subprocess.run(cmd, capture_output=True, text=True, timeout=60)
            first = p.stderr.splitlines()[0] if p.stderr else ""
            want = (f"{src}:{line}:")
            tail = (f": error: no T1 document for kernel '{name}': its grid is set by grid_size, so the sizes "
                    f"of its arrays and the values of its scalars are the caller's, which T1 cannot express; "
                    f"tune it with the Python package (imcl.tune, imcl-tune: docs/autotuning.md)")
            C.check(p.returncode == 2 and p.stdout == "" and first.startswith(want) and first.endswith(tail),
                    f"{' '.join(cmd)}: status 2, nothing on stdout, the grid_size error",
                    f"status {p.returncode}, stdout {p.stdout[:80]!r}, stderr {p.stderr!r}")

    # Two kernels in one file: a list of two documents in both formats.
    with tempfile.TemporaryDirectory() as tmp:
        two = os.path.join(tmp, "two.imcl")
        with open(two, "w") as f:
            for name in ("life", "sobel"):
                f.write(open(os.path.join(args.samples, name, name + ".imcl")).read() + "\n")
        for fmt in ("imcl", "t1"):
            doc, where = dump(args.imcl, two, "opencl", fmt)
            if doc is None:
                continue
            if C.check(isinstance(doc, list) and len(doc) == 2, f"{where}: two kernels give a list of two documents"):
                if fmt == "imcl":
                    for d, k in zip(doc, ("life", "sobel")):
                        check_imcl(d, where, k, "opencl")
                else:
                    C.check(all(isinstance(d, dict) and "ConfigurationSpace" in d for d in doc),
                            f"{where}: each element is a T1 document")

    print(f"{C.passed} passed, {C.failed} failed")
    return 1 if C.failed else 0


if __name__ == "__main__":
    sys.exit(main())
