#!/usr/bin/env bash
# Builds imcl twice (normal, and with ASan+UBSan) and runs the whole test suite
# against both builds. This is the README's test command and what CI runs.
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
for kind in release asan; do
    dir=build
    flags=(-DCMAKE_BUILD_TYPE=RelWithDebInfo)
    if [ "$kind" = asan ]; then
        dir=build-asan
        flags=(-DCMAKE_BUILD_TYPE=Debug -DIMCL_SANITIZE=ON)
    fi
    echo "== $kind build ($dir)"
    cmake -S . -B "$dir" "${flags[@]}" >/dev/null
    cmake --build "$dir" -j"$jobs"
    echo "== $kind tests"
    (cd "$dir" && ctest --output-on-failure -j"$jobs")
done
