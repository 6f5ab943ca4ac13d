"""The package through libimcl gives what it gives through the executable
(tests/python/run.sh test_library.py WORKDIR): the library is found beside the built
imcl and used; the space dump and the source of configurations (OpenCL
and CUDA, 2D, 3D and miniAMR) are the same with IMCL_LIB=none (one imcl process per
call); a refused configuration raises the same ImclError either way."""

import os

from common import SAMPLES, expect_raises

import imcl  # noqa: E402
from imcl import _library  # noqa: E402

CASES = [("sobel", "sobel", (64, 48)), ("sum7", "sum7", (32, 32, 32)), ("miniamr", "v1", (16, 16, 16))]


def kernels(folder, name, size, backend):
    path = str(SAMPLES / folder / f"{name}.imcl")
    with_lib = imcl.Kernel(path, backend=backend, size=size)
    os.environ["IMCL_LIB"] = "none"
    try:
        without = imcl.Kernel(path, backend=backend, size=size)
    finally:
        del os.environ["IMCL_LIB"]
    return with_lib, without


def same_results():
    import random
    for folder, name, size in CASES:
        for backend in ("opencl", "cuda"):
            a, b = kernels(folder, name, size, backend)
            assert a.library is not None and a.library.path.endswith("libimcl.so"), "library not used"
            assert b.library is None, "IMCL_LIB=none still loads the library"
            assert a.space == b.space, f"{name} {backend}: the dumps differ"
            rng = random.Random(3)
            configs = [dict(a.defaults)]
            while len(configs) < 8:
                c = {p: rng.choice(v) for p, v in a.tune_params.items()}
                if imcl.holds(a.restriction_strings, c):
                    configs.append(c)
            for c in configs:
                assert a.source(c) == b.source(c), f"{name} {backend} {c}: the sources differ"
            print(f"  {name} {backend}: {len(configs)} configurations identical")


def same_errors():
    a, b = kernels("sobel", "sobel", (64, 48), "opencl")
    bad = dict(a.defaults, block_size_x=4096)
    errors = []
    for k in (a, b):
        try:
            k.source(bad)
        except imcl.ImclError as e:
            errors.append(str(e))
    assert len(errors) == 2 and errors[0] == errors[1], errors
    expect_raises(imcl.ImclError, "imcl refused configuration ...", a.source, bad)


def many_in_one_process():
    lib = _library.load(imcl.find_imcl())
    unit = lib.open(str(SAMPLES / "sum7" / "sum7.imcl"), size=(64, 64, 64))
    first = unit.generate({"block_size_x": 16}, "opencl")
    for _ in range(2000):
        assert unit.generate({"block_size_x": 16}, "opencl") == first
    status, diag, files = first
    want = ["imcl_runtime_opencl.c", "imcl_runtime_opencl.h", "imcl_runtime_rows.h", "sum7.cl",
            "sum7.h", "sum7_host.c", "sum7_source.h"]
    assert status == 0 and sorted(files) == want, (status, diag, sorted(files))


def test_library_and_executable_same_spaces_and_sources():
    same_results()


def test_library_and_executable_same_refusal():
    same_errors()


def test_library_2000_generations_in_one_process():
    many_in_one_process()
