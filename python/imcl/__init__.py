"""Autotuning ImageCL kernels with Kernel Tuner, imcl generating the code.

    import imcl
    result = imcl.tune("samples/sobel/sobel.imcl", size=(256, 256),
                       strategy="random_sample", budget=10)
    print(result.summary())

imcl.Kernel gives the pieces for kernel_tuner.tune_kernel (tune_params,
restrictions, source, arguments, reference, ...) for those who call it themselves.
See docs/autotuning.md.
"""

from ._compiler import ImclError, find_imcl
from .kernel import LEFT_OUT, Kernel, parse_size
from .restrictions import holds
from .tuning import Failure, TuneResult, strategies, tune

__version__ = "0.1.0"
__all__ = ["Kernel", "tune", "TuneResult", "Failure", "ImclError", "find_imcl", "parse_size",
           "strategies", "holds", "LEFT_OUT"]
