"""The package as `pip install ./python` leaves it (scripts/install-deps.sh runs exactly that
into .venv): it carries its own imcl and libimcl, so from a folder outside the repository,
with neither $IMCL nor $IMCL_LIB nor build/ on PATH, it imports, finds both, generates a
configuration through the library and imcl-tune answers --help
(tests/python/run.sh test_package.py WORKDIR; docs/autotuning.md, "Installing")."""

import json
import os
import subprocess
import sys
from pathlib import Path

from common import REPO, SAMPLES


BIN = Path(sys.executable).parent
VERSION = (REPO / "VERSION").read_text().split()[0]
PROBE = """
import json, imcl
from imcl import _library
exe = imcl.find_imcl()
lib = _library.load(exe)
k = imcl.Kernel(%r, size=(16, 16, 16))
text = k.source(k.defaults)
print(json.dumps({"version": imcl.__version__, "file": imcl.__file__, "exe": exe,
                  "lib": lib.path if lib else None, "lib_version": lib.version if lib else None,
                  "source": len(text)}))
"""


def clean_env():
    env = {k: v for k, v in os.environ.items() if k not in ("IMCL", "IMCL_LIB", "PYTHONPATH")}
    env["PATH"] = os.pathsep.join([str(BIN), "/usr/bin", "/bin"])
    return env


def bundled(work):
    p = subprocess.run([sys.executable, "-c", PROBE % str(SAMPLES / "sum7" / "sum7.imcl")],
                       capture_output=True, text=True, cwd=work, env=clean_env())
    assert p.returncode == 0, p.stderr
    got = json.loads(p.stdout)
    package = Path(got["file"]).parent
    assert REPO not in package.parents or ".venv" in package.parts, got   # installed, not the source
    assert got["version"] == VERSION, got
    assert got["exe"] == str(package / "bin" / "imcl"), got
    assert got["lib"] == str(package / "lib" / "libimcl.so"), got
    assert got["lib_version"] == VERSION, got
    assert got["source"] > 1000, got
    v = subprocess.run([got["exe"], "--version"], capture_output=True, text=True)
    assert v.returncode == 0 and v.stdout.startswith(f"imcl {VERSION} "), v


def cli_help(work):
    p = subprocess.run([str(BIN / "imcl-tune"), "--help"], capture_output=True, text=True,
                       cwd=work, env=clean_env())
    assert p.returncode == 0 and p.stdout.startswith("usage: imcl-tune"), (p.returncode, p.stderr)


def test_bundled_imcl_and_libimcl_from_outside_the_repository(work):
    bundled(work)


def test_imcl_tune_help_from_outside_the_repository(work):
    cli_help(work)
