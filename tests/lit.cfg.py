# lit configuration of the tests that run imcl and compare what it prints or writes
# with expected files (docs/testing.md, "The test runner"). Loaded through the build's
# lit.site.cfg.py (tests/lit.site.cfg.py.in), which sets config.imcl, config.filecheck,
# config.cc and config.test_exec_root.
import os
import shlex

import lit.formats

config.name = "imcl"
# RUN lines run in lit's own shell, which starts no bash per case: commands with
# arguments, quotes, globs, `&&`, `||`, `;`, pipes (with pipefail) and redirections, and
# the built-ins cd, rm, mkdir, echo, not; no $? and no $(...): a helper of tests/lit does
# what needs more. Each line must succeed.
config.test_format = lit.formats.ShTest(execute_external=False)
config.test_source_root = os.path.dirname(__file__)
# No file is a test unless its folder's lit.local.cfg says which suffixes are.
config.suffixes = []
config.excludes = ["lit", "Output"]

helpers = os.path.join(config.test_source_root, "lit")


def helper(name, *args):
    """The command line of the helper script tests/lit/NAME with ARGS."""
    return " ".join(shlex.quote(w) for w in ["bash", os.path.join(helpers, name), *args])


# %imcl: the imcl under test; %cc: the build's C compiler (for generated code compiled
# and run on the host); the others: the scripts of tests/lit (each says what it checks in
# its first lines)
config.substitutions += [
    ("%imcl", shlex.quote(config.imcl)),
    ("%cc", shlex.quote(config.cc)),
    ("%expect", helper("expect")),
    ("%exit", helper("exit")),
    ("%diag", helper("diag", config.imcl) + " %t"),
    ("%golden", helper("golden", config.imcl) + " %t"),
    ("%params", helper("params", config.imcl) + " %t"),
    ("%lang", helper("lang", config.imcl)),
    ("%flat", helper("flat")),
    ("%admits", " ".join(["python3", shlex.quote(os.path.join(helpers, "admits"))])),
    # FileCheck as a word (not inside a path or a longer name), as LLVM's tests spell it;
    # through tests/lit/filecheck, which keeps its report readable
    (r"(?<![\w/.-])FileCheck(?![\w/.-])", helper("filecheck", config.filecheck)),
]
# FileCheck ... %exactly < ERR: ERR is exactly the lines of the prefix's checks, each
# written {{^}}TEXT{{$}}: any other character anywhere fails (a refusal's stderr, which the
# checks spell out in full).
config.substitutions.append(("%exactly", "--strict-whitespace --implicit-check-not={{.}}"))

# A sanitizer report must never pass for an expected exit status (1 in tests/diag).
for var, opts in (("ASAN_OPTIONS", "exitcode=99"),
                  ("UBSAN_OPTIONS", "exitcode=99:print_stacktrace=1")):
    old = os.environ.get(var)
    config.environment[var] = old + ":" + opts if old else opts
# lit hands a case few of the caller's variables. PoCL keeps the kernels it compiled under
# $HOME/.cache/pocl (or $XDG_CACHE_HOME, $POCL_CACHE_DIR), without them in /tmp/pocl: a
# second cache, compiled anew; the caller's choice of OpenCL device and loader holds; and
# the tools and the GPU bundle of the cases that build CUDA (tests/lib/gpu.sh).
for var in os.environ:
    if var in ("HOME", "XDG_CACHE_HOME", "IMCL_GPU_BUNDLE", "NVCC", "CUDA_LIBDIR",
               "CUDA_VISIBLE_DEVICES") or var.startswith(("POCL_", "OCL_ICD_")):
        config.environment[var] = os.environ[var]
# IMCL_UPDATE=1 makes %expect rewrite the expected files instead of comparing.
if "IMCL_UPDATE" in os.environ:
    config.environment["IMCL_UPDATE"] = os.environ["IMCL_UPDATE"]
