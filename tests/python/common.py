"""Shared by the Python-side tests (tests/python/run.sh runs them with the .venv's python)."""

import filecmp
import os
import subprocess
import sys
import time
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
IMCL = os.environ.get("IMCL") or str(REPO / "build" / "imcl")


def check_installed():
    """The imcl package is installed in this venv and is the one in python/imcl."""
    try:
        import imcl  # noqa: F401
        import kernel_tuner  # noqa: F401
        import pyopencl  # noqa: F401
    except ImportError as e:
        sys.exit(f"FAIL: {e}: run `bash scripts/install-deps.sh` (it makes .venv with the "
                 f"pinned Kernel Tuner and pyopencl and installs python/)")
    import imcl
    installed = Path(imcl.__file__).resolve().parent
    source = REPO / "python" / "imcl"
    if installed == source.resolve():
        return      # an editable install (pip install -e python): the source itself
    stale = [f.name for f in sorted(source.glob("*.py"))
             if not (installed / f.name).is_file() or not filecmp.cmp(f, installed / f.name, shallow=False)]
    if stale:
        sys.exit(f"FAIL: the installed imcl package ({installed}) differs from python/imcl "
                 f"({', '.join(stale)}): run `bash scripts/install-deps.sh` or "
                 f"`.venv/bin/pip install ./python`")


class Checks:
    """Named checks with their times; any failure makes the script exit 1."""

    def __init__(self):
        self.failed = 0
        self.t0 = time.time()

    def run(self, name, fn, *a, **kw):
        t = time.time()
        try:
            fn(*a, **kw)
        except Exception as e:  # noqa: BLE001
            import traceback
            traceback.print_exc()
            print(f"FAIL {name} ({time.time() - t:.1f} s): {type(e).__name__}: {e}", flush=True)
            self.failed += 1
        else:
            print(f"ok   {name} ({time.time() - t:.1f} s)", flush=True)

    def done(self):
        print(f"{'FAILED' if self.failed else 'passed'}: {self.failed} failed, "
              f"{time.time() - self.t0:.1f} s", flush=True)
        sys.exit(1 if self.failed else 0)


def expect_raises(exc, message, fn, *a, **kw):
    """fn(...) raises exc whose str() is exactly message (or starts with it when
    message ends with '...')."""
    try:
        fn(*a, **kw)
    except exc as e:
        text = str(e)
        ok = text.startswith(message[:-3]) if message.endswith("...") else text == message
        if not ok:
            raise AssertionError(f"expected message\n  {message!r}\ngot\n  {text!r}") from None
        return e
    raise AssertionError(f"expected {exc.__name__}: {message}")


def imcl_accepts(params_file, kernel_path, size, backend="opencl"):
    """imcl -t params_file compiles the kernel (exit 0)."""
    import tempfile
    with tempfile.TemporaryDirectory() as d:
        p = subprocess.run([IMCL, "-b", backend, "-t", str(params_file), "--size", size, "-o", d,
                            str(kernel_path)], capture_output=True, text=True)
        if p.returncode != 0:
            raise AssertionError(f"imcl -t {params_file} refused it: {p.stderr.strip()}")
