"""Finding and running the imcl executable, and reading what a kernel file declares."""

import json
import os
import shutil
import subprocess
from pathlib import Path


class ImclError(Exception):
    """imcl refused something (a kernel, a size, a configuration), or could not be run."""


def find_imcl(explicit=None):
    """The imcl executable: `explicit`, else $IMCL, else the one the installed package
    carries (bin/imcl beside this file, built by `pip install ./python`), else the
    build/imcl of the repository this package lives in (the source tree), else imcl on
    PATH."""
    for what, value in (("imcl=", explicit), ("IMCL=", os.environ.get("IMCL"))):
        if value:
            path = shutil.which(value) if os.sep not in value else value
            if not path or not os.path.isfile(path) or not os.access(path, os.X_OK):
                raise ImclError(f"{what}{value!r} is not an executable file")
            return os.path.abspath(path)
    here = Path(__file__).resolve()
    bundled = here.parent / "bin" / "imcl"
    if bundled.is_file() and os.access(bundled, os.X_OK):
        return str(bundled)
    for parent in here.parents:
        candidate = parent / "build" / "imcl"
        if (candidate.is_file() and os.access(candidate, os.X_OK)
                and (parent / "CMakeLists.txt").is_file()):
            return str(candidate)
    path = shutil.which("imcl")
    if path:
        return os.path.abspath(path)
    raise ImclError("cannot find the imcl executable: set IMCL=/path/to/imcl, install the "
                    "package with `pip install ./python`, build the repository (build/imcl), "
                    "or put imcl on PATH")


def failed(what, status, stderr, stdout=""):
    """The ImclError of an imcl run (a process or a library call) that failed."""
    msg = stderr.strip() or stdout.strip() or "(no message)"
    return ImclError(f"{what}: imcl exited with status {status}:\n{msg}")


def run(exe, args, what):
    """Runs imcl; returns its stdout, or raises ImclError with its stderr."""
    try:
        p = subprocess.run([exe] + list(args), capture_output=True, text=True)
    except OSError as e:
        raise ImclError(f"{what}: cannot run {exe}: {e}") from None
    if p.returncode != 0:
        raise failed(what, p.returncode, p.stderr, p.stdout)
    return p.stdout


def dump(exe, path, backend, fmt, size=None, kernel=None, shared_limit=None, unit=None):
    """`imcl --dump-space=FMT` as parsed JSON: a list of documents, one per kernel.
    Through libimcl when `unit` (a _library.Unit opened with the same size, kernel and
    shared limit) is given, else through the executable."""
    what = f"imcl cannot compile {path}"
    if unit is not None:
        status, diag, out = unit.dump(fmt, backend)
        if status != 0:
            raise failed(what, status, diag)
    else:
        args = [f"--dump-space={fmt}", "-b", backend]
        if size:
            args += ["--size", "x".join(str(s) for s in size)]
        if kernel:
            args += ["-k", kernel]
        if shared_limit:
            args += ["--shared-limit", str(int(shared_limit))]
        out = run(exe, args + [path], what)
    doc = json.loads(out)
    return doc if isinstance(doc, list) else [doc]


# ---- grid_size expressions (the dump's grid_of) ----


def eval_c_int(expr, scalars):
    """Evaluates a C integer expression over scalars (C division and remainder), as
    imcl prints a grid_size expression in the dump; None when it uses anything else."""
    import ast

    try:
        tree = ast.parse(expr.replace("&&", " and ").replace("||", " or "), mode="eval")
    except SyntaxError:
        return None

    def ev(n):
        if isinstance(n, ast.Expression):
            return ev(n.body)
        if isinstance(n, ast.Constant) and isinstance(n.value, int):
            return n.value
        if isinstance(n, ast.Name) and n.id in scalars:
            return int(scalars[n.id])
        if isinstance(n, ast.UnaryOp) and isinstance(n.op, (ast.USub, ast.UAdd)):
            v = ev(n.operand)
            return -v if isinstance(n.op, ast.USub) else v
        if isinstance(n, ast.BinOp):
            a, b = ev(n.left), ev(n.right)
            if isinstance(n.op, ast.Add):
                return a + b
            if isinstance(n.op, ast.Sub):
                return a - b
            if isinstance(n.op, ast.Mult):
                return a * b
            if isinstance(n.op, (ast.Div, ast.FloorDiv)):
                q = abs(a) // abs(b)
                return q if (a >= 0) == (b >= 0) else -q
            if isinstance(n.op, ast.Mod):
                return a - b * (abs(a) // abs(b) * (1 if (a >= 0) == (b >= 0) else -1))
        raise ValueError(expr)

    try:
        return ev(tree)
    except (ValueError, ZeroDivisionError, TypeError):
        return None
