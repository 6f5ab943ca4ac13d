#!/usr/bin/env bash
# Installs the Debian packages imcl needs to build and to run its tests, and the
# Python side (docs/autotuning.md): a virtual environment at .venv in the repository
# with Kernel Tuner, pyopencl and NumPy pinned (python/requirements.txt, binary wheels
# from PyPI) and the imcl package (python/, with its own build of imcl and libimcl).
# Safe to run again: an existing .venv is kept, the pins are re-checked and the imcl
# package is rebuilt and reinstalled from python/.
# The CUDA toolkit (nvcc at /usr/local/cuda/bin/nvcc) is not a Debian package here:
# it must already be installed; the tests fail without it.
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    build-essential cmake pkg-config flex bison libcjson-dev liblua5.4-dev \
    ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo clang libclang-rt-dev valgrind python3 python3-venv \
    groff-base man-db ninja-build llvm-14-tools openmpi-bin libopenmpi-dev >/dev/null
echo "imcl: dependencies installed"

# The venv is made from Debian's python3 (the one python3-venv serves) when there is one.
python=/usr/bin/python3
[ -x "$python" ] || python=python3
venv="$root/.venv"
if ! "$venv/bin/python" -c 'import sys' >/dev/null 2>&1; then
    rm -rf "$venv"
    "$python" -m venv "$venv"
fi
pip=("$venv/bin/python" -m pip -q --disable-pip-version-check --no-input)
if "$venv/bin/python" -m pip --help 2>/dev/null | grep -q -- --root-user-action; then
    pip+=(--root-user-action=ignore)
fi
"${pip[@]}" install --only-binary=:all: -r "$root/python/requirements.txt"
# The package builds imcl and libimcl with the project's CMake (scikit-build-core, pinned
# in requirements.txt, so no build isolation) into the wheel: about 40 s on 2 cores.
"${pip[@]}" install --no-deps --no-build-isolation --force-reinstall "$root/python"
"$venv/bin/python" -c 'import imcl, kernel_tuner, pyopencl, numpy' >/dev/null
echo "imcl: Python side installed in .venv (kernel_tuner $("$venv/bin/python" -c \
    'import kernel_tuner; print(kernel_tuner.__version__)'), imcl-tune)"
