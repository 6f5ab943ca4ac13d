"""Autotuning ImageCL kernels with Kernel Tuner, imcl generating the code.

    import imcl
    result = imcl.tune("samples/sobel/sobel.imcl", size=(256, 256),
                       strategy="random_sample", budget=10)
    print(result.summary())

imcl.Kernel gives the pieces for kernel_tuner.tune_kernel (tune_params,
restrictions, source, arguments, reference, ...) for those who call it themselves.
See docs/autotuning.md.
"""

from importlib import metadata as _metadata

from ._compiler import ImclError, find_imcl
from .kernel import LEFT_OUT, Kernel, parse_size
from .restrictions import holds
from .tuning import Failure, TuneResult, strategies, tune

try:  # the installed package's version, the repository's VERSION file
    __version__ = _metadata.version("imcl")
except _metadata.PackageNotFoundError:  # imported from the source tree, not installed
    __version__ = "unknown"
__all__ = ["Kernel", "tune", "TuneResult", "Failure", "ImclError", "find_imcl", "parse_size",
           "strategies", "holds", "LEFT_OUT"]
