#!/usr/bin/env bash
# Installs the Debian packages imcl needs to build and to run its tests.
# The CUDA toolkit (nvcc at /usr/local/cuda/bin/nvcc) is not a Debian package here:
# it must already be installed; the tests fail without it.
set -euo pipefail
SUDO=""
if [ "$(id -u)" != 0 ]; then SUDO="sudo"; fi
export DEBIAN_FRONTEND=noninteractive
$SUDO apt-get update -qq
$SUDO apt-get install -y -qq --no-install-recommends \
    build-essential cmake pkg-config flex bison libcjson-dev liblua5.4-dev \
    ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo clang python3 >/dev/null
echo "imcl: dependencies installed"
