"""Bad input gives a clear error, with its exact message, before any tuning starts
(tests/python/run.sh test_errors.py WORKDIR)."""

import subprocess
import sys
from pathlib import Path

import numpy as np

from common import SAMPLES, expect_raises

import imcl  # noqa: E402
import kernel_tuner  # noqa: E402

SOBEL = str(SAMPLES / "sobel" / "sobel.imcl")
SUM7 = str(SAMPLES / "sum7" / "sum7.imcl")
V1 = str(SAMPLES / "miniamr" / "v1.imcl")


def no_tuning(*a, **kw):
    raise AssertionError("kernel_tuner.tune_kernel was called: tuning started")


def tune_errors(work):
    bad = work / "bad.imcl"
    bad.write_text("bad\n")
    two = work / "two.imcl"
    two.write_text("#pragma imcl grid(a)\nvoid k1(Image<float> a) { a[idx][idy] = 1.0f; }\n"
                   "#pragma imcl grid(a)\nvoid k2(Image<float> a) { a[idx][idy] = 2.0f; }\n")
    orig = kernel_tuner.tune_kernel
    kernel_tuner.tune_kernel = no_tuning
    try:
        # a kernel that does not compile: imcl's own diagnostic, whole
        expect_raises(imcl.ImclError,
                      f"imcl cannot compile {bad}: imcl exited with status 1:\n"
                      f"{bad}:1:1: error: syntax error, unexpected identifier 'bad'\n bad\n ^",
                      imcl.tune, str(bad), size=(64, 64))
        expect_raises(imcl.ImclError, "nope.imcl: no such file", imcl.tune, "nope.imcl", size=(64, 64))
        expect_raises(imcl.ImclError, f"{two} has 2 kernels (k1, k2): choose one with kernel=",
                      imcl.tune, str(two), size=(64, 64))
        # sizes
        expect_raises(ValueError, "size 64x64x64 has 3 extents, but kernel 'sobel' has a 2D grid "
                      "(give WxH)", imcl.tune, SOBEL, size=(64, 64, 64))
        expect_raises(ValueError, "size 64x64 has 2 extents, but kernel 'sum7' has a 3D grid "
                      "(give WxHxD)", imcl.tune, SUM7, size="64x64")
        expect_raises(ValueError, "size '64x': expected extents such as 64x64 or 64x64x64",
                      imcl.tune, SOBEL, size="64x")
        expect_raises(ValueError, "size (64, 0): expected 2 or 3 positive extents",
                      imcl.tune, SOBEL, size=(64, 0))
        # strategy and budget
        expect_raises(ValueError, f"unknown strategy 'fastest'; Kernel Tuner {kernel_tuner.__version__} "
                      f"has: {', '.join(imcl.strategies())}", imcl.tune, SOBEL, size=(64, 64),
                      strategy="fastest")
        assert "brute_force" in imcl.strategies() and "random_sample" in imcl.strategies()
        expect_raises(ValueError, "budget: Kernel Tuner's brute_force strategy tries every configuration "
                      "and takes no budget; choose another strategy (e.g. random_sample) or narrow "
                      "the space with subspace=", imcl.tune, SOBEL, size=(64, 64), budget=5)
        expect_raises(ValueError, "budget 0: expected a positive number of configurations",
                      imcl.tune, SOBEL, size=(64, 64), strategy="random_sample", budget=0)
        expect_raises(ValueError, "backend 'metal': expected 'opencl' or 'cuda'",
                      imcl.tune, SOBEL, size=(64, 64), backend="metal")
        expect_raises(TypeError, "imcl.tune sets answer, lang itself", imcl.tune, SOBEL, size=(64, 64),
                      answer=[], lang="C")
        # arguments
        expect_raises(ValueError, "kernel 'v1' needs 'n', 'var', 'num_blocks', 'num_vars'",
                      imcl.tune, V1, size=(8, 8, 8), strategy="random_sample", budget=2)
        expect_raises(ValueError, "kernel 'v1' has no parameter 'nn' (its parameters: mesh, n, var, "
                      "num_blocks, num_vars)", imcl.tune, V1, size=(8, 8, 8), args={"nn": 8})
        mesh = np.zeros((2 * 4 * 8, 8, 8))
        expect_raises(ValueError, "with these arguments the grid of kernel 'v1' is 6x6x6, but this "
                      "Kernel was made for size 8x8x8", imcl.tune, V1, size=(8, 8, 8),
                      args=dict(mesh=mesh, n=6, var=0, num_blocks=2, num_vars=3))
        expect_raises(ValueError, "array 'in' has shape (4096,); it is an Image: give shape (H, W), halo "
                      "included", imcl.tune, SOBEL, size=(64, 64), args={"in": np.zeros(4096)})
        expect_raises(ValueError, "with these arguments the grid of kernel 'sobel' is 32x64, but this "
                      "Kernel was made for size 64x64", imcl.tune, SOBEL, size=(64, 64),
                      args={"in": np.zeros((64, 32)), "out": np.zeros((64, 32))})
        expect_raises(ValueError, "subspace: mem_in = 'texture' is not in the space Kernel Tuner sees "
                      "(mem_in: ['global', 'shared', 'constant'])", imcl.tune, SOBEL, size=(64, 64),
                      subspace={"mem_in": "texture"})
        expect_raises(ValueError, "subspace: kernel 'sobel' has no tuning parameter 'mem_x'",
                      imcl.tune, SOBEL, size=(64, 64), subspace={"mem_x": ["global"]})
    finally:
        kernel_tuner.tune_kernel = orig


def kernel_errors(work):
    k = imcl.Kernel(SOBEL, size=(64, 64))
    expect_raises(imcl.ImclError, "imcl refused configuration {\"mem_out\": \"shared\"}: imcl exited "
                  "with status 2:\nimcl: error: parameter 'mem_out': value 'shared' is not allowed: "
                  "'out' cannot be in shared memory: the kernel writes it (only global memory can be "
                  "written)", k.source, {"mem_out": "shared"})
    expect_raises(ValueError, "kernel 'sobel' needs 'out'", k.arguments, **{"in": np.zeros((64, 64))})
    expect_raises(ValueError, "expected 11 arguments (as arguments() returns), got 2", k.reference,
                  [np.zeros((64, 64)), np.zeros((64, 64))])
    expect_raises(ValueError, "size is required: the grid extent, e.g. size=(64, 64, 64)",
                  imcl.Kernel, SOBEL)
    # a grid_size that only the preprocessor picks (a reader of the text alone takes the
    # last pragma before the kernel): the grid is imcl's reading of it (the dump's grid_of)
    src = work / "macro_grid.imcl"
    src.write_text("#define WIDE 1\n#if WIDE\n#pragma imcl grid_size(2 * n + 1, n)\n#else\n"
                   "#pragma imcl grid_size(n, n)\n#endif\n"
                   "void macro_grid(Image<float> out, int n)\n{\n    out[idx][idy] = 1.0f;\n}\n")
    k = imcl.Kernel(str(src), size=(9, 4))
    assert k.grid_pragma == ("grid_size", ["2 * n + 1", "n"]), k.grid_pragma
    expect_raises(ValueError, "with these arguments the grid of kernel 'macro_grid' is 11x5, but this "
                  "Kernel was made for size 9x4", k.arguments, out=np.zeros((4, 9), np.float32), n=5)
    assert len(k.arguments(out=np.zeros((4, 9), np.float32), n=4)) > 2


def cli_errors(work):
    exe = Path(sys.executable).parent / "imcl-tune"
    for args, message in [
        ([SOBEL, "--size", "64x64x64"],
         "imcl-tune: error: size 64x64x64 has 3 extents, but kernel 'sobel' has a 2D grid (give WxH)\n"),
        ([SOBEL, "--size", "64x64", "--strategy", "fastest"],
         f"imcl-tune: error: unknown strategy 'fastest'; Kernel Tuner {kernel_tuner.__version__} has: "
         f"{', '.join(imcl.strategies())}\n"),
        ([V1, "--size", "8x8x8", "--budget", "2"],
         "imcl-tune: error: kernel 'v1' needs 'n', 'var', 'num_blocks', 'num_vars'\n"),
    ]:
        p = subprocess.run([str(exe)] + args, capture_output=True, text=True, cwd=work)
        assert p.returncode == 2, (args, p.returncode, p.stderr)
        assert p.stderr == message, (p.stderr, message)
        assert p.stdout == "", p.stdout
    p = subprocess.run([str(exe), SOBEL], capture_output=True, text=True, cwd=work)
    assert p.returncode == 2 and "the following arguments are required: --size" in p.stderr, p.stderr


def test_tune_bad_input_before_tuning(work):
    tune_errors(work)


def test_kernel_bad_configuration_and_arguments(work):
    kernel_errors(work)


def test_cli_bad_input_exit_status_2(work):
    cli_errors(work)
