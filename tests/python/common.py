"""Shared by the Python-side tests (tests/python/run.sh runs them under pytest with the
.venv's python; conftest.py is pytest's configuration)."""

import filecmp
import os
import subprocess
from pathlib import Path

REPO = Path(__file__).resolve().parents[2]
SAMPLES = REPO / "samples"
IMCL = os.environ.get("IMCL") or str(REPO / "build" / "imcl")


def check_installed():
    """None when the imcl package is installed in this venv and is the one in python/imcl;
    otherwise what is wrong and how to put it right."""
    try:
        import imcl  # noqa: F401
        import kernel_tuner  # noqa: F401
        import pyopencl  # noqa: F401
    except ImportError as e:
        return (f"FAIL: {e}: run `bash scripts/install-deps.sh` (it makes .venv with the "
                f"pinned Kernel Tuner and pyopencl and installs python/)")
    import imcl
    installed = Path(imcl.__file__).resolve().parent
    source = REPO / "python" / "imcl"
    if installed == source.resolve():
        return None     # an editable install (pip install -e python): the source itself
    stale = [f.name for f in sorted(source.glob("*.py"))
             if not (installed / f.name).is_file() or not filecmp.cmp(f, installed / f.name, shallow=False)]
    if stale:
        return (f"FAIL: the installed imcl package ({installed}) differs from python/imcl "
                f"({', '.join(stale)}): run `bash scripts/install-deps.sh` or "
                f"`.venv/bin/pip install ./python`")
    return None


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
