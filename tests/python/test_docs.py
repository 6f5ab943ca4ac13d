"""The examples of docs/autotuning.md run as written (tests/python/run.sh IMCL test_docs.py).

Every ```python block runs with the .venv's python and every ```sh block with bash -e,
in a work folder that looks like the repository root to them (samples/, build/ and
.venv/ are links); ```text blocks are output and synopses, not run."""

import re
import subprocess
import sys
from pathlib import Path

import pytest

from common import IMCL, REPO, SAMPLES


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


BLOCKS = BLOCK.findall(DOC.read_text())


@pytest.fixture(scope="module")
def docs_work(work):
    """The work folder, made to look like the repository root to the examples."""
    prepare(work)
    return work


def test_the_doc_has_its_examples():
    assert len(BLOCKS) >= 4, f"{DOC} has {len(BLOCKS)} python/sh blocks"


@pytest.mark.parametrize("i", range(len(BLOCKS)),
                         ids=[f"block{i}-{lang}" for i, (lang, _) in enumerate(BLOCKS)])
def test_block(docs_work, i):
    lang, code = BLOCKS[i]
    run_block(docs_work, lang, code, i)


def test_the_examples_wrote_their_files(docs_work):
    for name in ("sobel.best.json", "sobel.t4.json", "v1.best.json", "sum7.best.json", "sum7.out/sum7.cl"):
        assert (docs_work / name).is_file(), f"the examples did not write {name}"
