"""The examples of docs/autotuning.md run as written (tests/python/run.sh test_docs.py WORKDIR).

Every ```python block runs with the .venv's python and every ```sh block with bash -e,
in a work folder that looks like the repository root to them (samples/, build/ and
.venv/ are links); ```text blocks are output and synopses, not run."""

import os
import re
import subprocess
import sys
from pathlib import Path

from common import IMCL, REPO, SAMPLES, Checks, check_installed

check_installed()

DOC = REPO / "docs" / "autotuning.md"
BLOCK = re.compile(r"^```(python|sh)\n(.*?)^```", re.M | re.S)


def prepare(work):
    work.mkdir(parents=True, exist_ok=True)
    for name, target in (("samples", SAMPLES), ("build", Path(IMCL).resolve().parent),
                         (".venv", Path(sys.prefix))):
        link = work / name
        if link.is_symlink() or link.exists():
            link.unlink()
        link.symlink_to(target)


def run_block(work, lang, code, i):
    f = work / f"block{i}.{'py' if lang == 'python' else 'sh'}"
    f.write_text(code)
    cmd = [sys.executable, f.name] if lang == "python" else ["bash", "-e", f.name]
    p = subprocess.run(cmd, cwd=work, capture_output=True, text=True)
    print(p.stdout + p.stderr, flush=True)
    assert p.returncode == 0, f"block {i} ({lang}) exited with {p.returncode}:\n{code}"


def main():
    work = Path(sys.argv[1])
    prepare(work)
    os.chdir(work)
    blocks = BLOCK.findall(DOC.read_text())
    assert len(blocks) >= 4, f"{DOC} has {len(blocks)} python/sh blocks"
    c = Checks()
    for i, (lang, code) in enumerate(blocks):
        first = code.strip().splitlines()[0]
        c.run(f"docs/autotuning.md block {i} ({lang}): {first[:60]}", run_block, work, lang, code, i)

    def outputs():
        for name in ("sobel.best.json", "sobel.t4.json", "v1.best.json", "sum7.best.json",
                     "sum7.out/sum7.cl"):
            assert (work / name).is_file(), f"the examples did not write {name}"
    c.run("the examples wrote their files", outputs)
    c.done()


if __name__ == "__main__":
    main()
