#!/usr/bin/env bash
# The libFuzzer harnesses for longer than the tests run them (tests/fuzz/README.md):
#   bench/fuzz.sh [SECONDS] [WORK]     (default 600 s each, WORK /tmp/imcl-fuzz)
# builds them with clang in build-fuzz, runs source and config side by side and then
# params, each for SECONDS, and prints each one's runs, coverage and verdict. The
# corpora they grow stay in WORK/<harness>/corpus; an input that breaks imcl is left
# in WORK/<harness>/crashes (add it to tests/fuzz/regressions/<harness>/ with the fix).
set -uo pipefail
ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)
SECS=${1:-600}
WORK=${2:-/tmp/imcl-fuzz}
cd "$ROOT"
cmake -S . -B build-fuzz -DCMAKE_C_COMPILER=clang -DIMCL_FUZZ=ON -DIMCL_MINIAMR_PROXY=OFF \
    -DCMAKE_BUILD_TYPE=RelWithDebInfo >/dev/null || exit 1
cmake --build build-fuzz -j"$(nproc)" --target fuzz_source fuzz_config fuzz_params >/dev/null || exit 1
status=0
run() { bash tests/run_fuzzers.sh "build-fuzz/fuzz_$1" "$1" . "$WORK/$1" "$SECS" >"$WORK-$1.out" 2>&1 || status=1; }
mkdir -p "$(dirname "$WORK")"
echo "bench/fuzz: $SECS s per harness, $(date -u +%FT%TZ)"
run source & run config; wait
run params
for h in source config params; do
    echo "== $h: $(grep -o 'cov: [0-9]* ft: [0-9]*' "$WORK/$h/log" | tail -1); $(tail -n 1 "$WORK-$h.out")"
done
exit $status
