"""imcl's T1 dumps in Kernel Tuner 1.5.0's own T1 reader (docs/autotuning.md, "T1 and
tune_kernel_T1"; tests/python/run.sh test_t1.py WORKDIR).

* Round trip, sobel (float, 2D) and sum7 (double, 3D): Kernel Tuner's loader
  (`file_utils.get_input_file`, which validates against its T1 schema) accepts the
  document, and what `tune_kernel_T1` hands to `tune_kernel` (captured: Kernel
  Tuner's own conversion of the document) is imcl's space: the parameters and
  values, the restrictions, the problem size, the grid divisors, the kernel name,
  the language, the arguments (types, sizes, extents), the Device and Search blocks.
  sum7's vectors are double, which Kernel Tuner's reader refuses; its round trip
  reads a copy whose vector Type says float (nothing else changed).
* `tune_kernel_T1` on sobel's dump and `sobel.cl`, with a tiny budget on PoCL: the
  document as written (Device.Name "0") stops in Kernel Tuner's OpenCL backend,
  which takes the name as a device index; with device=0 it stops at Kernel Tuner's
  `cmem_args={}` (its OpenCL backend supports no constant memory); each with its
  exact error. sum7 and life: the exact double- and int32-vector refusals. CUDA: the
  exact error for a machine without cuda-python, CuPy or PyCUDA (the pins hold none).
  `-b c`: Kernel Tuner's schema refuses Language "C".
* grid_size kernels (miniAMR v1): no T1 document, the exact diagnostic; the imcl
  dump still describes the kernel and the package still builds its argument list.
"""

import copy
import json
import subprocess
from pathlib import Path

import numpy as np
import pytest

from common import IMCL, SAMPLES, expect_raises

import imcl  # noqa: E402
import jsonschema  # noqa: E402
import kernel_tuner.interface as kti  # noqa: E402
from kernel_tuner.file_utils import get_input_file  # noqa: E402

SOBEL = SAMPLES / "sobel" / "sobel.imcl"
SUM7 = SAMPLES / "sum7" / "sum7.imcl"
V1 = SAMPLES / "miniamr" / "v1.imcl"


class Captured(Exception):
    """Raised by the stand-in for tune_kernel once it has recorded its arguments."""


def dump(src, fmt, backend, size):
    p = subprocess.run([IMCL, f"--dump-space={fmt}", "-b", backend, "--size", size, str(src)],
                       capture_output=True, text=True)
    assert p.returncode == 0, p.stderr
    return json.loads(p.stdout)


def capture(path, **kw):
    """What tune_kernel_T1(path, **kw) passes to tune_kernel (Kernel Tuner's own
    reading of the document), without tuning."""
    seen = {}

    def record(*a, **k):
        seen["args"], seen["kw"] = a, k
        raise Captured()

    real = kti.tune_kernel
    kti.tune_kernel = record
    try:
        expect_raises(Captured, "", kti.tune_kernel_T1, Path(path), **kw)
    finally:
        kti.tune_kernel = real
    return seen["args"], seen["kw"]


def round_trip(work, src, size, name, kernel_type):
    ext = [int(x) for x in size.split("x")]
    t1_path = work / f"{name}.t1.json"
    doc = dump(src, "t1", "opencl", size)
    t1_path.write_text(json.dumps(doc, indent=1))
    subprocess.run([IMCL, "-b", "opencl", "-o", str(work), str(src)], check=True)   # the KernelFile
    space = dump(src, "imcl", "opencl", size)
    # Kernel Tuner's loader and schema accept the document as written
    assert get_input_file(t1_path) == doc
    ks = doc["KernelSpecification"]
    assert ks["Device"] == {"PlatformId": 0, "DeviceId": 0, "Name": "0"}, ks["Device"]
    assert doc["Search"] == {"Name": "brute_force"}, doc["Search"]
    assert {a["Type"] for a in ks["Arguments"]
            if a["MemoryType"] == "Vector" and a["Name"] != "imcl_blocks"} == {kernel_type}
    # the list of blocks: one float 0, whose bits are the int 0 (block 0)
    assert ks["Arguments"][-1] == {"Name": "imcl_blocks", "Type": "float", "MemoryType": "Vector",
                                   "AccessType": "ReadOnly", "Size": 1, "TypeSize": 4,
                                   "FillType": "Constant", "FillValue": 0}, ks["Arguments"][-1]
    read = t1_path
    if kernel_type != "float":
        # Kernel Tuner converts float vectors only: read a copy that says float
        doc2 = copy.deepcopy(doc)
        for a in doc2["KernelSpecification"]["Arguments"]:
            if a["MemoryType"] == "Vector":
                a["Type"] = "float"
        read = work / f"{name}.float.t1.json"
        read.write_text(json.dumps(doc2))
    (kernel_name, kernel_source, problem_size, arguments, tune_params), kw = capture(read)
    # the space: every parameter with imcl's values, in imcl's order; the restrictions
    assert list(tune_params) == list(space["parameters"]), (list(tune_params), list(space["parameters"]))
    assert tune_params == space["parameters"], tune_params
    assert kw["restrictions"] == space["restrictions"], kw["restrictions"]
    # the launch: problem size, a block covering block size x coarsening points
    assert problem_size == ext, problem_size
    for d, axis in enumerate("xyz"):
        want = [f"block_size_{axis}", f"coarsen_{axis}"] if d < len(ext) else None
        if axis == "z" and "stream_z" in space["parameters"]:
            want.append("(stream_z or 1)")  # a thread walks stream_z points up z
        assert kw[f"grid_div_{axis}"] == want, (axis, kw[f"grid_div_{axis}"])
    assert kernel_name == space["function"] == name and kw["lang"] == "OpenCL"
    assert Path(kernel_source).name == f"{name}.cl"
    assert kw["device"] == "0" and kw["strategy"] == "brute_force" and kw["cmem_args"] == {}
    # the arguments, in the device function's order, with the sizes of the problem
    assert len(arguments) == len(space["arguments"])
    for a, want in zip(arguments, space["arguments"]):
        if want["kind"] == "grid":
            n = 1
            for d in range(want["dims"]):
                n *= ext[d] + 2 * want["halo"]
            assert isinstance(a, np.ndarray) and a.dtype == np.float32 and a.size == n, (want, a.size)
        elif want["kind"] == "extent":
            d = ("_width", "_height", "_depth").index(want["name"][want["name"].rindex("_"):])
            assert type(a) is np.int32 and a == ext[d], (want, a)
        elif want["kind"] == "grid extent":
            d = "WHD".index(want["name"])
            assert type(a) is np.int32 and a == (ext[d] if d < len(ext) else 1), (want, a)
        elif want["kind"] == "batch count":
            assert want["name"] == "imcl_count" and type(a) is np.int32 and a == 1, (want, a)
        elif want["kind"] == "block list":
            # (a float 0, as the T1 document says: the bits of the int 0)
            assert want["name"] == "imcl_blocks" and a.tobytes() == bytes(4), (want, a)
        else:
            raise AssertionError(f"unexpected argument {want}")
    # the configuration space Kernel Tuner builds from it holds imcl's defaults
    assert all(space["defaults"][p] in v for p, v in tune_params.items())


def run_sobel(work):
    """tune_kernel_T1 on sobel's dump and the generated sobel.cl, on PoCL."""
    subprocess.run([IMCL, "-b", "opencl", "-o", str(work), str(SOBEL)], check=True)
    t1 = work / "sobel.t1.json"
    t1.write_text(json.dumps(dump(SOBEL, "t1", "opencl", "64x64")))
    # as written: Kernel Tuner passes Device.Name (a string in T1's schema) to
        # pyopencl as the device index
    e = expect_raises(TypeError, "list indices must be integers or slices, not str",
                      kti.tune_kernel_T1, t1, strategy="random_sample", strategy_options={"max_fevals": 2})
    assert where(e) == ("kernel_tuner/backends/opencl.py", "__init__"), where(e)
    # device=0: every OpenCL run stops at tune_kernel_T1's cmem_args={}
    e = expect_raises(NotImplementedError, "PyOpenCL backend does not support constant memory",
                      kti.tune_kernel_T1, t1, device=0, strategy="random_sample",
                      strategy_options={"max_fevals": 2})
    assert where(e) == ("kernel_tuner/backends/opencl.py", "copy_constant_memory_args"), where(e)


def where(e):
    """The file (below site-packages) and the function an exception was raised in."""
    import traceback
    tb = traceback.extract_tb(e.__traceback__)[-1]
    return tb.filename.split("site-packages/")[-1], tb.name


def run_sum7(work):
    t1 = work / "sum7.t1.json"
    t1.write_text(json.dumps(dump(SUM7, "t1", "opencl", "16x16x16")))
    expect_raises(NotImplementedError, "Conversion for vector type 'double' has not yet been implemented: ...",
                  kti.tune_kernel_T1, t1, device=0, strategy="random_sample", strategy_options={"max_fevals": 2})


def run_life(work):
    subprocess.run([IMCL, "-b", "opencl", "-o", str(work), str(SAMPLES / "life" / "life.imcl")], check=True)
    t1 = work / "life.t1.json"
    t1.write_text(json.dumps(dump(SAMPLES / "life" / "life.imcl", "t1", "opencl", "64x64")))
    expect_raises(NotImplementedError, "Conversion for vector type 'int32' has not yet been implemented: ...",
                  kti.tune_kernel_T1, t1, device=0, strategy="random_sample", strategy_options={"max_fevals": 2})


def cuda_document(work):
    """The pins hold none of cuda-python, CuPy and PyCUDA (and the tests no GPU)."""
    subprocess.run([IMCL, "-b", "cuda", "-o", str(work), str(SOBEL)], check=True)
    t1 = work / "sobel.cuda.t1.json"
    t1.write_text(json.dumps(dump(SOBEL, "t1", "cuda", "64x64")))
    assert get_input_file(t1)["KernelSpecification"]["KernelFile"] == "sobel.cu"
    expect_raises(RuntimeError, "Error: CUDA selected/detected, but missing CUDA dependencies, please run "
                  "'pip install cuda-python', or install cupy or pycuda.",
                  kti.tune_kernel_T1, t1, device=0, strategy="random_sample", strategy_options={"max_fevals": 2})


def c_document(work):
    t1 = work / "sobel.c.t1.json"
    t1.write_text(json.dumps(dump(SOBEL, "t1", "c", "64x64")))
    e = expect_raises(jsonschema.ValidationError, "'C' is not one of ['OpenCL', 'CUDA', 'Vulkan', 'Hypertuner']...",
                      get_input_file, t1)
    assert list(e.path) == ["KernelSpecification", "Language"], list(e.path)


def grid_size(work):
    p = subprocess.run([IMCL, "--dump-space=t1", "-b", "opencl", "--size", "16x16x16", str(V1)],
                       capture_output=True, text=True)
    want = (f"{V1}:11:30: error: no T1 document for kernel 'v1': its grid is set by grid_size, so the "
            f"sizes of its arrays and the values of its scalars are the caller's, which T1 cannot "
            f"express; tune it with the Python package (imcl.tune, imcl-tune: docs/autotuning.md)\n"
            f" #pragma imcl grid_size(n, n, n)\n"
            f"                              ^\n")
    assert (p.returncode, p.stdout, p.stderr) == (2, "", want), (p.returncode, p.stdout, p.stderr)
    # the package describes the kernel from the imcl dump, through the library and without
    for lib in (None, "none"):
        import os
        if lib:
            os.environ["IMCL_LIB"] = lib
        try:
            k = imcl.Kernel(str(V1), size=(16, 16, 16))
        finally:
            os.environ.pop("IMCL_LIB", None)
        assert (lib is None) == (k.library is not None)
        assert k.name == "v1" and k.problem_size == (16, 16, 16)
        assert [(a.name, a.kind) for a in k.args] == [
            ("mesh", "grid"), ("mesh_width", "extent"), ("mesh_height", "extent"), ("mesh_depth", "extent"),
            ("n", "scalar"), ("var", "scalar"), ("num_blocks", "scalar"), ("num_vars", "scalar"),
            ("W", "W/H/D"), ("H", "W/H/D"), ("D", "W/H/D"), ("imcl_count", "batch count"),
            ("imcl_blocks", "block list")], k.args
        assert k.args[0].read and k.args[0].written and k.args[0].type_name == "double"


@pytest.mark.parametrize("path, size, name, elem", [(SOBEL, "64x48", "sobel", "float"),
                                                    (SUM7, "16x12x8", "sum7", "double")],
                         ids=["sobel-float-2d", "sum7-double-3d"])
def test_round_trip(work, path, size, name, elem):
    round_trip(work, path, size, name, elem)


def test_sobel_on_pocl_stops_in_kernel_tuners_opencl_backend(work):
    run_sobel(work)


def test_sum7_double_vectors_refused_by_kernel_tuners_reader(work):
    run_sum7(work)


def test_life_int32_vectors_refused_by_kernel_tuners_reader(work):
    run_life(work)


def test_cuda_document_needs_a_cuda_package_kernel_tuner_uses(work):
    cuda_document(work)


def test_c_document_is_outside_t1s_language_enum(work):
    c_document(work)


def test_grid_size_no_t1_document_the_package_still_describes_the_kernel(work):
    grid_size(work)
