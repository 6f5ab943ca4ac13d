#!/usr/bin/env bash
# Builds imcl twice (normal, and with ASan+UBSan) and runs the whole test suite
# against both builds, then builds the libFuzzer harnesses with clang and runs each
# for 20 s. This is the README's test command and what CI runs.
#
#   scripts/test.sh           everything, both builds
#   scripts/test.sh --quick   the edit-compile loop: the normal build only, without
#                             the long tests (lang, space, python: ctest labels)
set -euo pipefail
cd "$(dirname "$0")/.."
jobs=$(nproc 2>/dev/null || echo 2)
kinds=(release asan)
exclude=()
case ${1:-} in
'') ;;
--quick) kinds=(release); exclude=(-LE 'lang|space|python') ;;
*) echo "usage: $0 [--quick]" >&2; exit 2 ;;
esac
for kind in "${kinds[@]}"; do
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
    (cd "$dir" && ctest --output-on-failure -j"$jobs" "${exclude[@]}")
done
# The libFuzzer harnesses (tests/fuzz/README.md): a clang build of their own, each
# run for 20 s with the seeds and the regression corpus; not with --quick.
if [ ${#exclude[@]} -eq 0 ]; then
    echo "== fuzz build (build-fuzz, clang)"
    cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DIMCL_FUZZ=ON -DIMCL_MINIAMR_PROXY=OFF \
        -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null
    cmake --build build-fuzz -j"$jobs" --target fuzz_source fuzz_config fuzz_params
    echo "== fuzz tests"
    (cd build-fuzz && ctest --output-on-failure -j"$jobs" -L libfuzzer)
fi
